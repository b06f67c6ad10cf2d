use magnolify_parquet::ParquetType;

#[derive(ParquetType, serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct Record {
    #[serde(rename = "userId")]
    user_id: u64,
    #[serde(skip)]
    cache: Option<String>,
    #[serde(flatten)]
    inner: Inner,
    // Decided on our side too: accepted.
    #[serde(rename = "kind")]
    #[parquet(rename = "kind")]
    kind_name: String,
    // One direction of serde only: not ours to judge.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    note: Option<String>,
}

#[derive(ParquetType, serde::Serialize)]
struct Inner {
    a: i32,
}

fn main() {}
