use magnolify_parquet::ParquetType;

#[derive(ParquetType)]
struct Marker;

fn main() {}
