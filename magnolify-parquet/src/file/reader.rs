//! The file reader: resolves the type against the file's schema once, then
//! decodes the needed columns of each row group in batches of whole records
//! and assembles them.

use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use parquet::column::page::PageReader;
use parquet::file::metadata::{ParquetMetaData, ParquetMetaDataReader};
use parquet::file::reader::ChunkReader;
use parquet::file::serialized_reader::SerializedPageReader;

use crate::error::{Error, Result};
use crate::mem::DEFAULT_BATCH;
use crate::read::RecordSource;
use crate::record::{Derived, ParquetRecord, RecordConverter};

/// Reads records of `T` (through converter `C`) from a Parquet file in any
/// [`ChunkReader`]: a `std::fs::File` or `bytes::Bytes`.
///
/// The type is matched against the file's schema by field name: only the
/// columns it names are decoded, fields may come in any order, absent
/// optional fields read as `None` or empty, and every list and map layout of
/// the format is understood. It is an iterator of `Result<T>`; after an
/// error it ends.
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
    batch: VecDeque<T>,
    batch_size: usize,
    done: bool,
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
        let metadata = no_panic(None, || Ok(ParquetMetaDataReader::new().parse_and_finish(&reader)?))?;
        let schema = metadata.file_metadata().schema_descr_ptr();
        let (plan, columns) = converter.resolve(&schema)?;
        let source = RecordSource::new(columns.iter().map(|&c| schema.column(c)).collect());
        Ok(ParquetReader {
            converter,
            reader: Arc::new(reader),
            metadata: Arc::new(metadata),
            plan,
            columns,
            source,
            next_group: 0,
            batch: VecDeque::new(),
            batch_size: DEFAULT_BATCH,
            done: false,
        })
    }

    /// Records decoded at once (default 1024).
    pub fn with_batch_size(mut self, records: usize) -> Self {
        self.batch_size = records.max(1);
        self
    }

    /// Reads only row group `index` (for reading row groups in parallel).
    pub fn only_row_group(mut self, index: usize) -> Result<Self> {
        let groups = self.metadata.num_row_groups();
        if index >= groups {
            return Err(Error::resolve("<file>", format!("row group {index} requested, the file has {groups}")));
        }
        self.next_group = index;
        self.open_group()?;
        self.next_group = usize::MAX;
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
        let rows = usize::try_from(group.num_rows()).map_err(|_| Error::corrupt("<row group>", "negative row count"))?;
        self.source.row = self.metadata.row_groups()[..index].iter().map(|g| g.num_rows().max(0) as u64).sum();
        let reader = &self.reader;
        let columns = &self.columns;
        self.source.set_pages(|i| {
            let chunk = group.column(columns[i]);
            let path = chunk.column_path().string();
            let pages = no_panic(Some(&path), || {
                SerializedPageReader::new(reader.clone(), chunk, rows, None).map_err(|e| Error::parquet_at(path.clone(), e))
            })?;
            Ok(Box::new(pages) as Box<dyn PageReader>)
        })?;
        self.next_group += 1;
        Ok(())
    }

    fn load(&mut self) -> Result<()> {
        loop {
            let n = if self.next_group == 0 {
                0
            } else {
                let (source, size) = (&mut self.source, self.batch_size);
                no_panic(None, || source.fill(size))?
            };
            if n > 0 {
                return assemble(&self.converter, &self.plan, &mut self.source, n, &mut self.batch);
            }
            if self.next_group >= self.metadata.num_row_groups() {
                self.done = true;
                return Ok(());
            }
            self.open_group()?;
        }
    }
}

/// Assembles `n` records from a freshly decoded batch and checks that they
/// used every triplet: columns that fell out of step are an error, never
/// silently shifted records.
pub(crate) fn assemble<C: RecordConverter>(
    converter: &C,
    plan: &C::ReadPlan,
    source: &mut RecordSource,
    n: usize,
    out: &mut VecDeque<C::Record>,
) -> Result<()> {
    let start = out.len();
    for _ in 0..n {
        match converter.read(plan, source) {
            Ok(r) => out.push_back(r),
            Err(e) => {
                out.truncate(start);
                return Err(e);
            }
        }
        source.row += 1;
    }
    if let Err(e) = source.check_exhausted() {
        out.truncate(start);
        return Err(e);
    }
    Ok(())
}

impl<T, R: ChunkReader + 'static, C: RecordConverter<Record = T>> Iterator for ParquetReader<T, R, C> {
    type Item = Result<T>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(r) = self.batch.pop_front() {
            return Some(Ok(r));
        }
        if self.done {
            return None;
        }
        if let Err(e) = self.load() {
            self.done = true;
            return Some(Err(e));
        }
        self.batch.pop_front().map(Ok)
    }
}
