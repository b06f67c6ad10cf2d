use magnolify_parquet::ParquetType;

#[derive(ParquetType)]
struct Record {
    #[parquet(skip, rename = "x", default)]
    a: i32,
    #[parquet(skip)]
    #[parquet(field_id = 1)]
    b: i32,
    #[parquet(timestamp = "millis", decimal(precision = 10, scale = 2))]
    c: i64,
    d: i32,
    #[parquet(exact)]
    e: chrono::NaiveDateTime,
    #[parquet(timestamp = "millis", exact)]
    f: chrono::NaiveDateTime,
}

fn main() {}
