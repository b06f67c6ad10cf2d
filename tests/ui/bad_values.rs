use magnolify_parquet::ParquetType;

#[derive(ParquetType)]
#[parquet(rename_all = "Title Case", list = "four-level")]
struct Record {
    #[parquet(rename = 1)]
    a: i32,
    #[parquet(field_id = "7")]
    b: i32,
    #[parquet(field_id = -1)]
    c: i32,
    #[parquet(field_id = 4294967296)]
    d: i32,
    #[parquet(timestamp = "seconds")]
    e: i64,
    #[parquet(decimal(precision = 10, scale = 2, physical = "int128"))]
    f: i64,
    #[parquet(with = "not a path")]
    g: i64,
    #[parquet(with = some::module)]
    h: i64,
    #[parquet(skip = true)]
    i: i64,
    #[parquet(rename)]
    j: i64,
    #[parquet(decimal = 10)]
    k: i64,
}

fn main() {}
