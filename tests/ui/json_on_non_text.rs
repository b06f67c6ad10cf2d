use magnolify_parquet::ParquetType;

#[derive(ParquetType)]
struct Record {
    #[parquet(json)]
    count: i64,
    #[parquet(json)]
    blob: Vec<u8>,
    #[parquet(json)]
    document: serde_json::Value,
    #[parquet(json)]
    fine: Option<Vec<String>>,
}

fn main() {}
