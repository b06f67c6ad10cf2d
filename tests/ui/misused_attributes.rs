use magnolify_parquet::ParquetType;

#[derive(ParquetType)]
struct Misused {
    #[parquet(timestamp = "millis")]
    s: String,
    #[parquet(decimal(precision = 10, scale = 2))]
    f: f64,
    #[parquet(list = "two-level")]
    id: u64,
    #[parquet(list = "two-level")]
    bytes: Vec<u8>,
    // Accepted: the attributes apply inside Options, lists and maps.
    #[parquet(timestamp = "millis")]
    times: Vec<Option<chrono::NaiveDateTime>>,
    #[parquet(list = "two-level")]
    lists: std::collections::BTreeMap<String, Vec<i32>>,
}

fn main() {}
