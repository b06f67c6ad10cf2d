use magnolify_parquet::ParquetType;

#[derive(ParquetType)]
#[parquet(rename = "A")]
#[parquet(rename = "B")]
struct Record {
    #[parquet(default, default)]
    a: i32,
    #[parquet(rename = "a")]
    b: i32,
    #[parquet(field_id = 3)]
    c: i32,
    #[parquet(field_id = 3)]
    d: i32,
    #[parquet(rename = "")]
    e: i32,
}

#[derive(ParquetType)]
#[parquet(rename_all = "lowercase")]
enum Mode {
    Fast,
    FAST,
    #[parquet(rename = "fast")]
    Quick,
}

fn main() {}
