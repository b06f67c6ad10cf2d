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

// `annotation` and `union` are for enums; a union has no tag to annotate.
#[derive(ParquetType)]
#[parquet(annotation = "enum", union = "avro")]
struct Order {
    id: u64,
}

#[derive(ParquetType)]
#[parquet(union = "avro", annotation = "enum")]
enum Payment {
    Card(String),
    Cash(i64),
}

#[derive(ParquetType)]
#[parquet(annotation = "symbol")]
enum Size {
    Small,
}

fn main() {}
