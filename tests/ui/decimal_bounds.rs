use magnolify_parquet::ParquetType;

#[derive(ParquetType)]
struct Record {
    #[parquet(decimal(precision = 0, scale = 0))]
    a: i64,
    #[parquet(decimal(precision = 77, scale = 2))]
    b: i64,
    #[parquet(decimal(precision = 5, scale = 6))]
    c: i64,
    #[parquet(decimal(precision = 10, physical = "int32"))]
    d: i64,
    #[parquet(decimal(precision = 19, scale = 2, physical = "int64"))]
    e: i64,
    #[parquet(decimal(scale = 2))]
    f: i64,
    #[parquet(decimal(precision = 300))]
    g: i64,
}

fn main() {}
