use magnolify_parquet::ParquetType;

#[derive(ParquetType)]
#[parquet(deny_unknown_fields, rename = "Ok")]
struct Record {
    #[parquet(renamed = "x", flatten)]
    a: i32,
    #[parquet(decimal(precision = 10, digits = 2))]
    b: i64,
    #[parquet(serde::rename = "y")]
    c: i32,
}

#[derive(ParquetType)]
enum State {
    #[parquet(skip)]
    On,
    Off,
}

fn main() {}
