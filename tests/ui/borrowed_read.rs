use magnolify_parquet::{ParquetReader, ParquetType};

/// Borrows from the batch: it reads with `build_borrowed` and `next_batch`,
/// not through the owned API.
#[derive(ParquetType)]
struct Row<'a> {
    name: &'a str,
    id: u64,
}

fn main() {
    let file = bytes::Bytes::new();
    let _ = ParquetReader::<Row, _>::new(file);
}

/// A borrowed record cannot outlive its batch.
fn kept_past_the_next_batch(file: bytes::Bytes) -> magnolify_parquet::Result<()> {
    let mut reader = magnolify_parquet::ReaderBuilder::new(file)?
        .build_borrowed::<Row>(magnolify_parquet::ReadOptions::default())?;
    let first = reader.next_batch()?.unwrap_or_default();
    let _second = reader.next_batch()?;
    println!("{}", first[0].name);
    Ok(())
}

/// A reader of borrowed records lends batches: it is not an iterator.
fn iterated(file: bytes::Bytes) -> magnolify_parquet::Result<()> {
    let mut reader = magnolify_parquet::ReaderBuilder::new(file)?
        .build_borrowed::<Row>(magnolify_parquet::ReadOptions::default())?;
    let _ = reader.next();
    Ok(())
}
