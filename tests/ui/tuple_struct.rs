use magnolify_parquet::ParquetType;

#[derive(ParquetType)]
struct Point(f64, f64);

#[derive(ParquetType)]
struct Nothing();

fn main() {}
