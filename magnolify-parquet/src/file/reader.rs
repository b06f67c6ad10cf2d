//! The file reader: resolves the type against the file's schema once, then
//! decodes the needed columns of each row group in batches of whole records
//! and assembles them.

mod chunk;
mod footer;
mod pages;
mod thrift;

use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use parquet::column::page::PageReader;
use parquet::file::metadata::ParquetMetaData;
use parquet::file::reader::ChunkReader;
use parquet::file::serialized_reader::SerializedPageReader;

use crate::error::{Error, Result};
use crate::mem::DEFAULT_BATCH;
use crate::read::batch::Batch;
use crate::read::RecordSource;
use crate::record::{Derived, ParquetRecord, RecordConverter};

/// Caps on what a file's claims may make the reader allocate (see
/// [`ParquetReader::with_max_page_bytes`] and [`ParquetReader::with_max_levels`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    /// Largest uncompressed page accepted.
    pub(crate) max_page_bytes: u64,
    /// Most levels (values and nulls) of one column in a page, and pulled
    /// from one column by one batch of records.
    pub(crate) max_levels: u64,
}

impl Limits {
    /// Far above what any writer produces (pages are about 1 MiB), far below
    /// the 2 GiB a corrupt header can claim.
    pub(crate) const DEFAULT: Limits = Limits { max_page_bytes: 256 << 20, max_levels: 1 << 27 };
}

/// Reads records of `T` (through converter `C`) from a Parquet file in any
/// [`ChunkReader`]: a `std::fs::File` or `bytes::Bytes`.
///
/// The type is matched against the file's schema by field name: only the
/// columns it names are decoded, fields may come in any order, absent
/// optional fields read as `None` or empty, and every list and map layout of
/// the format is understood. It is an iterator of `Result<T>`; after an
/// error it ends. A value that does not fit its field (a null in a required
/// field, a value out of range) is an error at its own record: the records
/// before it are returned first.
///
/// Damaged or hostile input gives an [`Error`], never a panic: the footer,
/// every column chunk's range and every page header are checked against the
/// file before the `parquet` crate acts on them, decoded pages are checked
/// against counts that would make its decoders over-allocate, and a panic of
/// the crate on input it does not expect is caught and returned as
/// [`Error::Panic`]. What a file can make the reader allocate is bounded by
/// the file's size and two limits, [`with_max_page_bytes`](Self::with_max_page_bytes)
/// and [`with_max_levels`](Self::with_max_levels), whose defaults no sound file reaches.
///
/// ```
/// use magnolify_parquet::{ParquetReader, ParquetType, ParquetWriter};
///
/// #[derive(ParquetType)]
/// struct Wide { id: i64, name: String, extra: Vec<f64> }
/// #[derive(ParquetType, Debug, PartialEq)]
/// struct Narrow { name: String, comment: Option<String> }
///
/// let mut w = ParquetWriter::<Wide, _>::new(Vec::new()).unwrap();
/// w.write(&Wide { id: 7, name: "x".into(), extra: vec![1.5] }).unwrap();
/// let file = bytes::Bytes::from(w.into_inner().unwrap());
///
/// let rows: Vec<Narrow> = ParquetReader::<Narrow, _>::new(file).unwrap().collect::<Result<_, _>>().unwrap();
/// assert_eq!(rows, [Narrow { name: "x".into(), comment: None }]);
/// ```
pub struct ParquetReader<T, R: ChunkReader + 'static, C: RecordConverter<Record = T> = Derived<T>> {
    converter: C,
    reader: Arc<R>,
    metadata: Arc<ParquetMetaData>,
    plan: C::ReadPlan,
    columns: Vec<usize>,
    source: RecordSource,
    next_group: usize,
    /// One past the last row group to read.
    end_group: usize,
    /// The row group being read: (index, rows its metadata claims, records decoded).
    open: Option<(usize, u64, u64)>,
    batch: Batch<T>,
    batch_size: usize,
    limits: Limits,
    /// Levels each cursor's pages handed on during the current batch.
    levels: Vec<Arc<AtomicU64>>,
}

impl<T: ParquetRecord, R: ChunkReader + 'static> ParquetReader<T, R> {
    /// Opens `reader` and resolves `T` against its schema.
    pub fn new(reader: R) -> Result<Self> {
        Self::with_converter(Derived::new(), reader)
    }
}

/// Runs a decoding step of the `parquet` crate, turning a panic on damaged
/// input into an error so that none reaches the caller.
pub(crate) fn no_panic<V>(path: Option<&str>, f: impl FnOnce() -> Result<V>) -> Result<V> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|panic| {
        let message = panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
            .unwrap_or_else(|| "unknown panic".to_owned());
        Err(Error::Panic { path: path.map(str::to_owned), message })
    })
}

impl<T, R: ChunkReader + 'static, C: RecordConverter<Record = T>> ParquetReader<T, R, C> {
    /// Opens `reader` with any converter.
    pub fn with_converter(converter: C, reader: R) -> Result<Self> {
        let metadata = footer::read_metadata(&reader)?;
        let schema = metadata.file_metadata().schema_descr_ptr();
        let (plan, columns) = converter.resolve(&schema)?;
        let descrs = columns
            .iter()
            .map(|&c| {
                let n = schema.num_columns();
                (c < n).then(|| schema.column(c)).ok_or_else(|| {
                    Error::resolve("<file>", format!("the converter asked for column {c}, the file has {n}"))
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let levels = columns.iter().map(|_| Arc::new(AtomicU64::new(0))).collect();
        let end_group = metadata.num_row_groups();
        Ok(ParquetReader {
            converter,
            reader: Arc::new(reader),
            metadata: Arc::new(metadata),
            plan,
            columns,
            source: RecordSource::new(descrs),
            next_group: 0,
            end_group,
            open: None,
            batch: Batch::new(),
            batch_size: DEFAULT_BATCH,
            limits: Limits::DEFAULT,
            levels,
        })
    }

    /// Records decoded at once (default 1024).
    pub fn with_batch_size(mut self, records: usize) -> Self {
        self.batch_size = records.max(1);
        self
    }

    /// Largest page accepted, in uncompressed bytes (default 256 MiB). The
    /// `parquet` crate reserves a page's claimed size before decompressing
    /// it; a page header claiming more than this is refused as corrupt.
    /// Raise it only for files with single values near that size; lower it
    /// to bound memory on untrusted input.
    ///
    /// ```
    /// use magnolify_parquet::{ParquetReader, ParquetType, ParquetWriter};
    ///
    /// #[derive(ParquetType, Debug, PartialEq)]
    /// struct Blob { data: Vec<u8> }
    ///
    /// let mut w = ParquetWriter::<Blob, _>::builder().dictionary(false).build(Vec::new()).unwrap();
    /// w.write(&Blob { data: vec![7; 4096] }).unwrap();
    /// let file = bytes::Bytes::from(w.into_inner().unwrap());
    ///
    /// let mut strict = ParquetReader::<Blob, _>::new(file.clone()).unwrap().with_max_page_bytes(1024);
    /// assert!(strict.next().unwrap().unwrap_err().to_string().contains("with_max_page_bytes"));
    /// let mut default = ParquetReader::<Blob, _>::new(file).unwrap();
    /// assert_eq!(default.next().unwrap().unwrap().data.len(), 4096);
    /// ```
    pub fn with_max_page_bytes(mut self, bytes: usize) -> Self {
        self.limits.max_page_bytes = bytes as u64;
        self
    }

    /// Most levels (values, nulls and empty lists) one column may hold in a
    /// page, or hand to one batch of records (default 2^27). Run-length
    /// encoding lets a few bytes of a corrupt page stand for billions of
    /// levels, which a reader must materialise to find where a record ends;
    /// this caps them. Raise it for records holding more values than this in
    /// one column; lower it (with [`with_batch_size`](Self::with_batch_size))
    /// to bound memory on untrusted input.
    pub fn with_max_levels(mut self, levels: usize) -> Self {
        self.limits.max_levels = levels as u64;
        self
    }

    /// Reads only row group `index` (for reading row groups in parallel).
    pub fn only_row_group(mut self, index: usize) -> Result<Self> {
        let groups = self.metadata.num_row_groups();
        if index >= groups {
            return Err(Error::resolve("<file>", format!("row group {index} requested, the file has {groups}")));
        }
        // Opened on the first read, so that limits set afterwards apply.
        self.next_group = index;
        self.end_group = index + 1;
        Ok(self)
    }

    /// The file's metadata.
    pub fn metadata(&self) -> &ParquetMetaData {
        &self.metadata
    }

    /// The file columns decoded, in the file's leaf order numbering.
    pub fn projected_columns(&self) -> &[usize] {
        &self.columns
    }

    fn open_group(&mut self) -> Result<()> {
        let index = self.next_group;
        let group = self.metadata.row_group(index);
        let rows = group.num_rows();
        let rows = usize::try_from(rows)
            .map_err(|_| Error::corrupt(format!("<row group {index}>"), format!("{rows} rows")))?;
        // Saturating: the counts of a damaged footer may add up past u64.
        self.source.row = self.metadata.row_groups()[..index]
            .iter()
            .fold(0u64, |sum, g| sum.saturating_add(g.num_rows().max(0) as u64));
        let (reader, columns, limits, levels) = (&self.reader, &self.columns, &self.limits, &self.levels);
        let file_len = reader.len();
        let descr = self.metadata.file_metadata().schema_descr_ptr();
        let source = &mut self.source;
        // The column readers are made from the pages inside the guard too.
        no_panic(None, || {
            source.set_pages(|i| {
                let chunk = group.columns().get(columns[i]).ok_or_else(|| {
                    Error::corrupt(
                        format!("<row group {index}>"),
                        format!("no column chunk {} in the row group", columns[i]),
                    )
                })?;
                let column = descr.column(columns[i]);
                let path = column.path().string();
                let range = chunk::byte_range(chunk, file_len, &path)?;
                no_panic(Some(&path), || {
                    chunk::check_pages(&**reader, range, column.max_rep_level() > 0, rows as u64, limits, &path)?;
                    let pages = SerializedPageReader::new(reader.clone(), chunk, rows, None)
                        .map_err(|e| Error::parquet_at(path.clone(), e))?;
                    let checked = pages::CheckedPages::new(pages, &column, limits, levels[i].clone());
                    Ok(Box::new(checked) as Box<dyn PageReader>)
                })
            })
        })?;
        self.next_group += 1;
        self.open = Some((index, rows as u64, 0));
        Ok(())
    }

    fn load(&mut self) -> Result<()> {
        loop {
            if let Some((index, rows, records)) = self.open {
                for counter in &self.levels {
                    counter.store(0, Ordering::Relaxed);
                }
                let (source, size) = (&mut self.source, self.batch_size);
                let n = if self.columns.is_empty() {
                    // A type none of whose fields is in the file reads no
                    // column: it still has one record per row, each made of
                    // missing values, counted from the row group's metadata.
                    (rows - records).min(size as u64)
                } else {
                    no_panic(None, || source.fill(size))? as u64
                };
                let records = records + n;
                // With no column read there is nothing to count records by.
                if !self.columns.is_empty() && (records > rows || (n == 0 && records != rows)) {
                    return Err(Error::corrupt(
                        format!("<row group {index}>"),
                        format!(
                            "the row group claims {rows} rows, its columns hold {}{records}",
                            if n == 0 { "" } else { "at least " }
                        ),
                    ));
                }
                if n > 0 {
                    self.open = Some((index, rows, records));
                    self.batch.pending = assemble_until_error(
                        &self.converter,
                        &self.plan,
                        &mut self.source,
                        n as usize,
                        &mut self.batch.records,
                    );
                    return Ok(());
                }
                self.open = None;
            }
            if self.next_group >= self.end_group {
                self.batch.done = true;
                return Ok(());
            }
            self.open_group()?;
        }
    }
}

/// Assembles `n` records from a freshly decoded batch and checks that they
/// used every triplet, returning the error that stopped it.
///
/// A value that does not fit its field (a null in a required field, a value
/// out of range) concerns one record: the records assembled before it are
/// kept, so that nothing sound is lost. Any other error means the columns
/// may have fallen out of step, and none of the batch's records is kept:
/// never silently shifted records.
pub(crate) fn assemble_until_error<C: RecordConverter>(
    converter: &C,
    plan: &C::ReadPlan,
    source: &mut RecordSource,
    n: usize,
    out: &mut VecDeque<C::Record>,
) -> Option<Error> {
    let start = out.len();
    for _ in 0..n {
        match converter.read(plan, source) {
            Ok(r) => out.push_back(r),
            Err(e) => {
                if !matches!(e, Error::Null { .. } | Error::Value { .. }) {
                    out.truncate(start);
                }
                return Some(e);
            }
        }
        source.row += 1;
    }
    if let Err(e) = source.check_exhausted() {
        out.truncate(start);
        return Some(e);
    }
    None
}

impl<T, R: ChunkReader + 'static, C: RecordConverter<Record = T>> Iterator for ParquetReader<T, R, C> {
    type Item = Result<T>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(answer) = self.batch.ready() {
            return answer;
        }
        let loaded = self.load();
        self.batch.after_load(loaded)
    }
}
