//! Round trips the tests repeat: through the page store, through a file in
//! memory, and reading until the first error.

use bytes::Bytes;
use magnolify_parquet::convert::RecordReadOwned;
use magnolify_parquet::mem::MemPageStore;
use magnolify_parquet::parquet::file::metadata::ParquetMetaData;
use magnolify_parquet::parquet::file::reader::ChunkReader;
use magnolify_parquet::{Error, OwnedRecord, ParquetReader, ReadOptions, ReaderBuilder, Result, WriterBuilder};

/// Writes `rows` into a page store and reads them back.
pub fn via_store<T: OwnedRecord>(rows: &[T]) -> Result<Vec<T>> {
    let store = MemPageStore::write_all::<T>(rows)?;
    assert_eq!(store.num_rows(), rows.len(), "records in the store");
    store.read::<T>()?.collect()
}

/// Writes `rows` into a Parquet file in memory with the settings of `builder`.
pub fn file_with<T: OwnedRecord>(builder: WriterBuilder<T>, rows: &[T]) -> Result<Bytes> {
    let mut writer = builder.build(Vec::new())?;
    writer.write_all(rows)?;
    Ok(Bytes::from(writer.into_inner()?))
}

/// Writes `rows` into a Parquet file in memory with small pages and row
/// groups (3 records a page, 5 a row group, so that records cross their
/// boundaries).
pub fn small_pages_file<T: OwnedRecord>(rows: &[T]) -> Result<Bytes> {
    file_with(WriterBuilder::<T>::new().data_page_rows(3).max_row_group_rows(5), rows)
}

/// Writes `rows` into a Parquet file in memory (small pages and row groups)
/// and reads them back.
pub fn via_file<T: OwnedRecord>(rows: &[T]) -> Result<Vec<T>> {
    ParquetReader::<T, _>::new(small_pages_file(rows)?)?.collect()
}

/// Writes `rows` as `W` into a file with default settings.
pub fn file_of<W: OwnedRecord>(rows: &[W]) -> Result<Bytes> {
    file_with(WriterBuilder::<W>::new(), rows)
}

/// Writes `rows` as `W` into a file and reads them as `R`.
pub fn write_read<W: OwnedRecord, R: OwnedRecord>(rows: &[W]) -> Result<Vec<R>> {
    ParquetReader::<R, _>::new(file_of(rows)?)?.collect()
}

/// Every record `records` gives before its first error, and that error:
/// what a reader of a partly bad file sees.
pub fn until_error<T>(records: impl IntoIterator<Item = Result<T>>) -> (Vec<T>, Option<Error>) {
    let mut out = Vec::new();
    for r in records {
        match r {
            Ok(v) => out.push(v),
            Err(e) => return (out, Some(e)),
        }
    }
    (out, None)
}

/// Reads `file` as `T` until the first error (opening it included), with
/// batches of `batch` records when given.
pub fn read_until_error<T: OwnedRecord, R: ChunkReader + 'static>(
    file: R,
    batch: Option<usize>,
) -> (Vec<T>, Option<Error>) {
    read_with_until_error(file, magnolify_parquet::Derived::<T>::new(), batch)
}

/// [`read_until_error`] through any converter.
pub fn read_with_until_error<C, R: ChunkReader + 'static>(
    file: R,
    converter: C,
    batch: Option<usize>,
) -> (Vec<C::Owned>, Option<Error>)
where
    C: RecordReadOwned + Send + Sync + 'static,
    C::Owned: Send + 'static,
{
    let builder = match ReaderBuilder::new(file) {
        Ok(b) => b,
        Err(e) => return (Vec::new(), Some(e)),
    };
    let options = match batch {
        Some(n) => ReadOptions::default().batch_size(n),
        None => ReadOptions::default(),
    };
    match builder.build_with(converter, options) {
        Ok(reader) => until_error(reader),
        Err(e) => (Vec::new(), Some(e)),
    }
}

/// The footer's key-value entries whose key starts with `prefix` (such as
/// the derive's doc comments), in file order.
pub fn footer_entries(meta: &ParquetMetaData, prefix: &str) -> Vec<(String, Option<String>)> {
    let entries = meta.file_metadata().key_value_metadata().into_iter().flatten();
    entries.filter(|kv| kv.key.starts_with(prefix)).map(|kv| (kv.key.clone(), kv.value.clone())).collect()
}
