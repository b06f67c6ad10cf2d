//! The file reader: a [`RowGroupSource`] over a file's row groups, whose
//! footer, chunks and pages are checked before the `parquet` crate reads
//! them, under the one record reader of [`crate::read`].

mod builder;
mod chunk;
pub(crate) mod dictionary_page;
mod footer;
pub(crate) mod scan;
pub(super) mod thrift;

use std::marker::PhantomData;
use std::ops::Deref;
use std::path::Path;
use std::sync::Arc;

use parquet::column::page::PageReader;
use parquet::file::metadata::ParquetMetaData;
use parquet::file::reader::ChunkReader;
use parquet::file::serialized_reader::SerializedPageReader;
use parquet::schema::types::SchemaDescriptor;

use crate::error::{Error, Location, Result};
use crate::filter::FilterCounts;
use crate::guard::crate_call;
use crate::read::selection::SkipCounts;
use crate::read::{BoxedSource, Limits, ReadOptions, RecordReader, RowGroupSource};
use crate::record::{Derived, OwnedRecord, RecordRead, RecordReadOwned};

pub use builder::ReaderBuilder;

/// A file's metadata, read by the hardened footer reader: every claim the
/// footer makes about the file's size and the schema's shape was checked
/// before the `parquet` crate decoded it. Cheap to clone (shared).
///
/// Only [`ReaderBuilder`] makes one, so code that takes it (the
/// Avro baseline's converter for a file, for example) cannot bypass the checks.
#[derive(Clone, Debug)]
pub struct CheckedMetadata {
    metadata: Arc<ParquetMetaData>,
    schema: Arc<SchemaDescriptor>,
}

impl CheckedMetadata {
    fn read<R: ChunkReader>(reader: &R, head: bool) -> Result<Self> {
        let metadata = footer::read_metadata(reader, head)?;
        let schema = metadata.file_metadata().schema_descr_ptr();
        Ok(CheckedMetadata { metadata: Arc::new(metadata), schema })
    }

    /// The file's schema.
    pub fn schema(&self) -> &Arc<SchemaDescriptor> {
        &self.schema
    }

    /// The metadata, shared.
    pub fn shared(&self) -> &Arc<ParquetMetaData> {
        &self.metadata
    }

    /// The byte range (start, length) of column `column`'s chunk in row
    /// group `group`, checked to lie within a file of `file_len` bytes.
    #[cfg(feature = "object_store")]
    pub(crate) fn chunk_range(&self, group: usize, column: usize, file_len: u64) -> Result<(u64, u64)> {
        let chunk = self.metadata.row_groups().get(group).and_then(|g| g.columns().get(column)).ok_or_else(|| {
            Error::damaged(Location::row_group(group), format!("no column chunk {column} in the row group"))
        })?;
        chunk::byte_range(chunk, file_len, &self.schema.column(column).path().string())
    }
}

impl Deref for CheckedMetadata {
    type Target = ParquetMetaData;
    fn deref(&self) -> &ParquetMetaData {
        &self.metadata
    }
}

/// The row groups of a file, as a [`RowGroupSource`].
struct FileRowGroups<R> {
    input: Arc<R>,
    metadata: CheckedMetadata,
    limits: Limits,
    verify_checksums: bool,
}

impl<R: ChunkReader + 'static> RowGroupSource for FileRowGroups<R> {
    fn schema(&self) -> &Arc<SchemaDescriptor> {
        self.metadata.schema()
    }

    fn num_row_groups(&self) -> usize {
        self.metadata.num_row_groups()
    }

    fn num_rows(&self, group: usize) -> Result<u64> {
        let Some(meta) = self.metadata.row_groups().get(group) else {
            return Err(Error::argument(format!(
                "row group {group} requested, the file has {}",
                self.metadata.num_row_groups()
            )));
        };
        let rows = meta.num_rows();
        u64::try_from(rows).map_err(|_| Error::damaged(Location::row_group(group), format!("{rows} rows")))
    }

    fn pages(&self, group: usize, column: usize) -> Result<Box<dyn PageReader>> {
        let rows = self.num_rows(group)?;
        let chunk = self.metadata.row_group(group).columns().get(column).ok_or_else(|| {
            Error::damaged(Location::row_group(group), format!("no column chunk {column} in the row group"))
        })?;
        let descr = self.metadata.schema().column(column);
        let path = descr.path().string();
        let input = &self.input;
        let range = chunk::byte_range(chunk, input.len(), &path)?;
        let checks = chunk::ChunkChecks {
            path: &path,
            repeated: descr.max_rep_level() > 0,
            rows,
            values: chunk.num_values(),
            limits: &self.limits,
            verify_checksums: self.verify_checksums,
        };
        chunk::check_pages(&**input, range, &checks)?;
        let rows = usize::try_from(rows).map_err(|_| Error::damaged(Location::row_group(group), "too many rows"))?;
        let pages = crate_call(
            || Location::column(&path),
            || {
                SerializedPageReader::new(input.clone(), chunk, rows, None)
                    .map_err(|e| Error::damaged(Location::column(&path), e.to_string()))
            },
        )?;
        Ok(Box::new(pages))
    }

    fn max_levels(&self) -> u64 {
        self.limits.max_levels
    }
}

/// Reads records of `T` (through converter `C`) from a Parquet file in any
/// [`ChunkReader`]: a `std::fs::File` or `bytes::Bytes`.
///
/// The type is matched against the file's schema by field name, once: only
/// the columns it names are decoded (projection), fields may come in any
/// order, absent optional fields read as `None` or empty, and every list and
/// map layout of the format is understood. It is an iterator of `Result<T>`;
/// after an error it ends. A value that does not fit its field (a null in a
/// required field, a value out of range) is an error at its own record: the
/// records before it are returned first.
///
/// Damaged or hostile input gives an [`Error`], never a panic: the footer,
/// every column chunk's range and every page header are checked against the
/// file before the `parquet` crate reads and decompresses them, the pages
/// are decoded by this library, which checks every count before it
/// allocates, and a panic of the crate on input it does not expect is
/// caught and returned as [`Error::Damaged`]. What a file can make the reader allocate is bounded by
/// the file's size and two limits of its [`ReadOptions`],
/// [`max_page_bytes`](ReadOptions::max_page_bytes) and
/// [`max_levels`](ReadOptions::max_levels), whose defaults no sound file reaches.
///
/// [`ParquetReader::new`] reads with the default options; [`ReaderBuilder`]
/// builds readers with others.
///
/// ```
/// use magnolify_parquet::{ParquetReader, ParquetType, ParquetWriter};
///
/// #[derive(ParquetType)]
/// struct Wide { id: i64, name: String, extra: Vec<f64> }
/// #[derive(ParquetType, Debug, PartialEq)]
/// struct Narrow { name: String, comment: Option<String> }
///
/// let mut w = ParquetWriter::<Wide, _>::new(Vec::new())?;
/// w.write(&Wide { id: 7, name: "x".into(), extra: vec![1.5] })?;
/// let file = bytes::Bytes::from(w.into_inner()?);
///
/// let rows: Vec<Narrow> = ParquetReader::<Narrow, _>::new(file)?.collect::<Result<_, _>>()?;
/// assert_eq!(rows, [Narrow { name: "x".into(), comment: None }]);
/// # Ok::<(), magnolify_parquet::Error>(())
/// ```
pub struct ParquetReader<T, R: ChunkReader + 'static, C: RecordRead = Derived<T>> {
    inner: RecordReader<C, BoxedSource>,
    metadata: CheckedMetadata,
    file: Option<Arc<Path>>,
    /// What the scan plan decided (row groups and their bytes).
    counts: FilterCounts,
    /// What the decoders passed over and decoded so far.
    skips: Arc<SkipCounts>,
    /// The input, which the source holds, and the record type read.
    _input: PhantomData<fn() -> (R, T)>,
}

impl<T, R: ChunkReader + 'static> ParquetReader<T, R>
where
    Derived<T>: RecordRead,
{
    /// Opens `input` and resolves `T` against its schema, with the default
    /// [`ReadOptions`]; [`ReaderBuilder`] builds readers with others.
    pub fn new(input: R) -> Result<Self>
    where
        T: OwnedRecord,
    {
        ReaderBuilder::new(input)?.build(ReadOptions::default())
    }
}

impl<T: OwnedRecord> ParquetReader<T, std::fs::File> {
    /// Opens the file at `path` with the default [`ReadOptions`], as
    /// [`ParquetWriter::create`](crate::ParquetWriter::create) writes one;
    /// every error names the file. [`ReaderBuilder::open`] takes others.
    ///
    /// ```
    /// use magnolify_parquet::{ParquetReader, ParquetType, ParquetWriter};
    ///
    /// #[derive(ParquetType, Debug, PartialEq)]
    /// struct Event { id: u64 }
    ///
    /// let dir = tempfile::tempdir()?;
    /// let path = dir.path().join("events.parquet");
    /// let mut w = ParquetWriter::<Event, _>::create(&path)?;
    /// w.write(&Event { id: 7 })?;
    /// w.close()?;
    ///
    /// let back: Vec<Event> = ParquetReader::open(&path)?.collect::<Result<_, _>>()?;
    /// assert_eq!(back, [Event { id: 7 }]);
    /// let missing = ParquetReader::<Event, _>::open(dir.path().join("nope.parquet")).err().unwrap();
    /// assert!(missing.to_string().contains("nope.parquet"), "{missing}");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn open(path: impl AsRef<Path>) -> Result<Self> {
        ReaderBuilder::open(path)?.build(ReadOptions::default())
    }
}

impl<R: ChunkReader + 'static, C: RecordReadOwned + Send + Sync + 'static> ParquetReader<C::Owned, R, C>
where
    C::Owned: Send + 'static,
{
    /// Opens `input` with any converter (the Avro baseline's, for example),
    /// with the default options; [`ReaderBuilder::build_with`] sets them.
    pub fn with_converter(converter: C, input: R) -> Result<Self> {
        ReaderBuilder::new(input)?.build_with(converter, ReadOptions::default())
    }
}

impl<T, R: ChunkReader + 'static, C: RecordRead> ParquetReader<T, R, C> {
    /// The next batch of records, which may borrow from it (a struct with
    /// `&str` fields, read by [`ReaderBuilder::build_borrowed`]): they live
    /// until the next call. `Ok(None)` after the last batch. Owned records
    /// can be lent too, instead of iterated.
    ///
    /// With [`ReadOptions::threads`](crate::ReadOptions::threads) of 2 or
    /// more, threads of the reader's own decode batches ahead while the
    /// caller's thread assembles them.
    pub fn next_batch(&mut self) -> Result<Option<Vec<C::Record<'_>>>> {
        let file = &self.file;
        self.inner.next_batch().map_err(|e| e.in_file(file))
    }

    /// [`next_batch`](Self::next_batch) in two halves, for the readers of
    /// many files: whether there is a next batch, made ready to lend.
    pub(crate) fn advance(&mut self) -> Result<bool> {
        let file = &self.file;
        self.inner.advance().map_err(|e| e.in_file(file))
    }

    /// The records of the batch [`advance`](Self::advance) made ready.
    pub(crate) fn lend(&mut self) -> Result<Vec<C::Record<'_>>> {
        let file = &self.file;
        self.inner.lend().map_err(|e| e.in_file(file))
    }

    /// What the reader read and skipped so far: row groups read and
    /// skipped (by statistics or bloom filters), pages decoded and passed
    /// over, the bytes of the chunks read and skipped, records assembled
    /// and records that passed the predicate (all of them without one).
    pub fn counts(&self) -> FilterCounts {
        let (pages, records, decoded) = self.skips.get();
        let (read, passed) = self.inner.tested();
        FilterCounts {
            pages_skipped: pages,
            records_skipped: records,
            pages_read: decoded,
            records_read: read,
            records_passed: passed,
            ..self.counts
        }
    }

    /// The file's metadata.
    pub fn metadata(&self) -> &CheckedMetadata {
        &self.metadata
    }

    /// The file columns decoded (the projection), numbered among the file's leaves.
    pub fn projected_columns(&self) -> &[usize] {
        self.inner.resolved().columns()
    }
}

impl<T: Send + 'static, R: ChunkReader + 'static, C> Iterator for ParquetReader<T, R, C>
where
    C: RecordReadOwned<Owned = T> + Send + Sync + 'static,
{
    type Item = Result<T>;

    fn next(&mut self) -> Option<Self::Item> {
        let next = self.inner.next();
        match &self.file {
            Some(_) => next.map(|r| r.map_err(|e| e.in_file(&self.file))),
            None => next,
        }
    }
}
