use magnolify_parquet::ParquetType;

#[derive(ParquetType)]
#[parquet(rename = "Id", list = "two-level")]
struct Id(u64);

#[derive(ParquetType)]
struct Tags(#[parquet(rename = "t", skip)] Vec<String>);

#[derive(ParquetType)]
#[parquet(rename = "Color", list = "repeated", rename_all = "lowercase")]
enum Color {
    Red,
}

fn main() {}
