use magnolify_parquet::{ParquetReader, ParquetType};

/// Writes without copying, so it cannot be read back.
#[derive(ParquetType)]
struct Row<'a> {
    name: &'a str,
    id: u64,
}

fn main() {
    let file = bytes::Bytes::new();
    let _ = ParquetReader::<Row, _>::new(file);
}
