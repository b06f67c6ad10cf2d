//! An in-memory page store: the column writers' pages kept per leaf column,
//! replayable any number of times. The benches and many tests run on it.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, PoisonError};

use parquet::basic::Compression;
use parquet::column::page::{CompressedPage, Page, PageMetadata, PageReader, PageWriteSpec, PageWriter};
use parquet::errors::Result as ParquetResult;
use parquet::file::properties::{WriterProperties, WriterPropertiesPtr};
use parquet::schema::types::SchemaDescriptor;

use crate::error::Result;
use crate::file::reader::assemble_until_error;
use crate::read::batch::Batch;
use crate::read::RecordSource;
use crate::record::{descriptor, Derived, ParquetRecord, RecordConverter};
use crate::write::{ColumnSink, ColumnWriters};

/// Records in a batch handed to the column writers, and decoded at once.
pub const DEFAULT_BATCH: usize = 1024;

type SharedPages = Arc<Mutex<Vec<Page>>>;

/// Pages of every leaf column of one run of records, kept in memory.
///
/// Pages are stored uncompressed (the column readers need decompressed
/// pages, and a page store is about conversion cost, not codecs); every
/// other writer property applies.
///
/// ```
/// use magnolify_parquet::{mem::MemPageStore, ParquetType};
///
/// #[derive(ParquetType, Debug, PartialEq, Clone)]
/// struct Row { id: u32, tags: Vec<String>, note: Option<String> }
///
/// let rows = vec![
///     Row { id: 1, tags: vec!["a".into(), "b".into()], note: None },
///     Row { id: 2, tags: vec![], note: Some("é".into()) },
/// ];
/// let store = MemPageStore::write_all::<Row>(&rows).unwrap();
/// let back: Vec<Row> = store.read::<Row>().unwrap().collect::<Result<_, _>>().unwrap();
/// assert_eq!(back, rows);
/// ```
#[derive(Clone, Debug)]
pub struct MemPageStore {
    schema: Arc<SchemaDescriptor>,
    columns: Vec<Vec<Page>>,
    rows: usize,
}

impl MemPageStore {
    /// A writer for `converter`'s records with default properties.
    pub fn writer<C: RecordConverter>(converter: C) -> Result<MemWriter<C>> {
        MemWriter::new(converter, WriterProperties::default())
    }

    /// Writes all `records` of a derived type into a new store.
    pub fn write_all<'a, T: ParquetRecord + 'a>(records: impl IntoIterator<Item = &'a T>) -> Result<MemPageStore> {
        let mut w = MemPageStore::writer(Derived::<T>::new())?;
        for r in records {
            w.write(r)?;
        }
        w.finish()
    }

    /// Reads the store's records as `T`.
    pub fn read<T: ParquetRecord>(&self) -> Result<MemReader<Derived<T>>> {
        self.reader(Derived::<T>::new())
    }

    /// Reads the store's records with `converter`, resolved against the
    /// store's schema like a file's.
    pub fn reader<C: RecordConverter>(&self, converter: C) -> Result<MemReader<C>> {
        MemReader::new(self, converter, DEFAULT_BATCH)
    }

    /// Number of records stored.
    pub fn num_rows(&self) -> usize {
        self.rows
    }

    /// The schema of the stored columns.
    pub fn schema(&self) -> &Arc<SchemaDescriptor> {
        &self.schema
    }

    /// The pages of leaf column `column`.
    pub fn pages(&self, column: usize) -> &[Page] {
        self.columns.get(column).map_or(&[], Vec::as_slice)
    }
}

struct MemPageWriter {
    pages: SharedPages,
    offset: u64,
}

impl PageWriter for MemPageWriter {
    fn write_page(&mut self, page: CompressedPage) -> ParquetResult<PageWriteSpec> {
        let mut spec = PageWriteSpec::new();
        spec.page_type = page.page_type();
        spec.uncompressed_size = page.uncompressed_size();
        spec.compressed_size = page.compressed_size();
        spec.num_values = page.num_values();
        spec.offset = self.offset;
        spec.bytes_written = page.compressed_size() as u64;
        self.offset += spec.bytes_written;
        self.pages.lock().unwrap_or_else(PoisonError::into_inner).push(page.compressed_page().clone());
        Ok(spec)
    }

    fn close(&mut self) -> ParquetResult<()> {
        Ok(())
    }
}

/// Writes records into a [`MemPageStore`].
pub struct MemWriter<C> {
    converter: C,
    schema: Arc<SchemaDescriptor>,
    sink: ColumnSink,
    writers: ColumnWriters,
    pages: Vec<SharedPages>,
    rows: usize,
    batch: usize,
}

impl<C: RecordConverter> MemWriter<C> {
    /// A writer with `props` (compression is ignored: pages stay uncompressed).
    pub fn new(converter: C, props: WriterProperties) -> Result<Self> {
        let schema = descriptor(&converter)?;
        let props: WriterPropertiesPtr =
            Arc::new(props.into_builder().set_compression(Compression::UNCOMPRESSED).build());
        let pages: Vec<SharedPages> = (0..schema.num_columns()).map(|_| SharedPages::default()).collect();
        let writers = ColumnWriters::new(&schema, &props, |i| {
            Box::new(MemPageWriter { pages: pages[i].clone(), offset: 0 }) as Box<dyn PageWriter>
        });
        Ok(MemWriter {
            sink: ColumnSink::new(&schema),
            schema,
            converter,
            writers,
            pages,
            rows: 0,
            batch: DEFAULT_BATCH,
        })
    }

    /// Shreds one record; whole batches go to the column writers. A record
    /// that fails is not written at all.
    pub fn write(&mut self, record: &C::Record) -> Result<()> {
        let converter = &self.converter;
        self.sink.record(|sink| converter.write(record, sink))?;
        self.rows += 1;
        if self.sink.records() >= self.batch {
            self.writers.write(&mut self.sink)?;
        }
        Ok(())
    }

    /// The converter.
    pub fn converter(&self) -> &C {
        &self.converter
    }

    /// Closes the column writers and returns the store.
    pub fn finish(mut self) -> Result<MemPageStore> {
        self.writers.write(&mut self.sink)?;
        self.writers.close()?;
        let columns = self
            .pages
            .into_iter()
            .map(|p| std::mem::take(&mut *p.lock().unwrap_or_else(PoisonError::into_inner)))
            .collect();
        Ok(MemPageStore { schema: self.schema, columns, rows: self.rows })
    }
}

/// Replays a column's pages to a column reader.
struct MemPageReader {
    pages: VecDeque<Page>,
}

impl PageReader for MemPageReader {
    fn get_next_page(&mut self) -> ParquetResult<Option<Page>> {
        Ok(self.pages.pop_front())
    }

    fn peek_next_page(&mut self) -> ParquetResult<Option<PageMetadata>> {
        Ok(self.pages.front().map(|page| match page {
            Page::DictionaryPage { .. } => PageMetadata { num_rows: None, num_levels: None, is_dict: true },
            Page::DataPageV2 { num_rows, num_values, .. } => PageMetadata {
                num_rows: Some(*num_rows as usize),
                num_levels: Some(*num_values as usize),
                is_dict: false,
            },
            Page::DataPage { num_values, .. } => {
                PageMetadata { num_rows: None, num_levels: Some(*num_values as usize), is_dict: false }
            }
        }))
    }

    fn skip_next_page(&mut self) -> ParquetResult<()> {
        self.pages.pop_front();
        Ok(())
    }
}

impl Iterator for MemPageReader {
    type Item = ParquetResult<Page>;
    fn next(&mut self) -> Option<Self::Item> {
        self.get_next_page().transpose()
    }
}

/// Reads records back from a [`MemPageStore`]: an iterator of `Result`s.
pub struct MemReader<C: RecordConverter> {
    converter: C,
    plan: C::ReadPlan,
    source: RecordSource,
    batch: Batch<C::Record>,
    batch_size: usize,
    /// Records still to read when the type reads no column at all (none of
    /// its fields is in the store): they are counted, not decoded.
    columnless: Option<usize>,
}

impl<C: RecordConverter> MemReader<C> {
    fn new(store: &MemPageStore, converter: C, batch_size: usize) -> Result<Self> {
        let (plan, columns) = converter.resolve(&store.schema)?;
        let mut source = RecordSource::new(columns.iter().map(|&c| store.schema.column(c)).collect());
        source.set_pages(|i| {
            let pages = store.columns.get(columns[i]).cloned().unwrap_or_default();
            Ok(Box::new(MemPageReader { pages: pages.into() }) as Box<dyn PageReader>)
        })?;
        let columnless = columns.is_empty().then_some(store.rows);
        Ok(MemReader { converter, plan, source, batch: Batch::new(), batch_size, columnless })
    }

    fn load(&mut self) -> Result<()> {
        let n = match &mut self.columnless {
            Some(left) => {
                let n = (*left).min(self.batch_size);
                *left -= n;
                n
            }
            None => self.source.fill(self.batch_size)?,
        };
        if n == 0 {
            self.batch.done = true;
            return Ok(());
        }
        let (converter, plan, source) = (&self.converter, &self.plan, &mut self.source);
        self.batch.pending = assemble_until_error(converter, plan, source, n, &mut self.batch.records);
        Ok(())
    }
}

impl<C: RecordConverter> Iterator for MemReader<C> {
    type Item = Result<C::Record>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(answer) = self.batch.ready() {
            return answer;
        }
        let loaded = self.load();
        self.batch.after_load(loaded)
    }
}
