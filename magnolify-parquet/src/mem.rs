//! An in-memory page store: the column writers' pages kept per row group and
//! leaf column, replayable any number of times. The benches and many tests
//! run on it. It is a [`ChunkSink`] for the record writer and a
//! [`RowGroupSource`] for the record reader: the same pipelines as files.

use std::sync::{Arc, Mutex, PoisonError};

use parquet::basic::Compression;
use parquet::column::page::{CompressedPage, Page, PageReader, PageWriteSpec, PageWriter};
use parquet::column::writer::ColumnCloseResult;
use parquet::errors::Result as ParquetResult;
use parquet::file::properties::WriterProperties;
use parquet::schema::types::SchemaDescriptor;

use crate::codec::page_queue::PageQueue;
use crate::error::{Error, Result};
use crate::read::{RecordReader, Resolved, RowGroupSource, DEFAULT_BATCH_SIZE};
use crate::record::{Derived, OwnedRecord, ParquetRecord, RecordRead, RecordWrite};
use crate::write::{ChunkSink, RecordWriter, DEFAULT_WRITE_BATCH};

type SharedPages = Arc<Mutex<Vec<Page>>>;

/// One row group: its rows and the pages of each leaf column.
#[derive(Clone, Debug)]
struct MemRowGroup {
    rows: usize,
    columns: Vec<Vec<Page>>,
}

/// Pages of every leaf column of a run of records, kept in memory, row
/// group by row group.
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
    row_groups: Vec<MemRowGroup>,
}

impl MemPageStore {
    /// A writer for `converter`'s records with default properties.
    pub fn writer<C: RecordWrite>(converter: C) -> Result<MemWriter<C>> {
        MemWriter::new(converter, WriterProperties::default())
    }

    /// Writes all `records` of a derived type into a new store.
    pub fn write_all<'a, T: OwnedRecord + 'a>(records: impl IntoIterator<Item = &'a T>) -> Result<MemPageStore> {
        let mut w = MemPageStore::writer(Derived::<T>::new())?;
        for r in records {
            w.write(r)?;
        }
        w.close()
    }

    /// Reads the store's records as `T`.
    pub fn read<T: ParquetRecord>(&self) -> Result<MemReader<Derived<T>>>
    where
        Derived<T>: RecordRead,
    {
        self.reader(Derived::<T>::new())
    }

    /// Reads the store's records with `converter`, resolved against the
    /// store's schema like a file's.
    pub fn reader<C: RecordRead>(&self, converter: C) -> Result<MemReader<C>> {
        let resolved = Arc::new(Resolved::new(converter, &self.schema)?);
        RecordReader::new(self.clone(), resolved, None, DEFAULT_BATCH_SIZE)
    }

    /// Number of records stored.
    pub fn num_rows(&self) -> usize {
        self.row_groups.iter().map(|g| g.rows).sum()
    }

    /// The schema of the stored columns.
    pub fn schema(&self) -> &Arc<SchemaDescriptor> {
        &self.schema
    }

    /// The pages of leaf column `column`, row group after row group.
    pub fn pages(&self, column: usize) -> impl Iterator<Item = &Page> {
        self.row_groups.iter().filter_map(move |g| g.columns.get(column)).flatten()
    }
}

impl RowGroupSource for MemPageStore {
    fn schema(&self) -> &Arc<SchemaDescriptor> {
        &self.schema
    }

    fn num_row_groups(&self) -> usize {
        self.row_groups.len()
    }

    fn num_rows(&self, group: usize) -> Result<u64> {
        let g = self.row_groups.get(group).ok_or_else(|| no_group(group, self.row_groups.len()))?;
        Ok(g.rows as u64)
    }

    fn pages(&self, group: usize, column: usize) -> Result<Box<dyn PageReader>> {
        // The store's pages were written by this library: nothing to distrust.
        let g = self.row_groups.get(group).ok_or_else(|| no_group(group, self.row_groups.len()))?;
        let pages = g.columns.get(column).cloned().unwrap_or_default();
        Ok(Box::new(PageQueue::new(pages)))
    }
}

fn no_group(group: usize, groups: usize) -> Error {
    Error::argument(format!("row group {group} requested, the store has {groups}"))
}

/// Reads records back from a [`MemPageStore`]: an iterator of `Result`s.
pub type MemReader<C> = RecordReader<C, MemPageStore>;

/// Keeps the pages of the row group being written, per leaf column.
struct MemPageWriter {
    pages: SharedPages,
    offset: u64,
}

impl PageWriter for MemPageWriter {
    fn write_page(&mut self, page: CompressedPage) -> ParquetResult<PageWriteSpec> {
        let spec = crate::write::page_spec(&page, &mut self.offset);
        self.pages.lock().unwrap_or_else(PoisonError::into_inner).push(page.compressed_page().clone());
        Ok(spec)
    }

    fn close(&mut self) -> ParquetResult<()> {
        Ok(())
    }
}

/// The store being written: a [`ChunkSink`] keeping each row group's pages.
struct MemChunks {
    schema: Arc<SchemaDescriptor>,
    open: Vec<SharedPages>,
    row_groups: Vec<MemRowGroup>,
}

impl ChunkSink for MemChunks {
    fn page_writer(&mut self, column: usize) -> Box<dyn PageWriter + Send> {
        if column == 0 {
            self.open.clear();
        }
        let pages = SharedPages::default();
        self.open.push(pages.clone());
        Box::new(MemPageWriter { pages, offset: 0 })
    }

    fn end_row_group(&mut self, rows: usize, _columns: Vec<ColumnCloseResult>) -> Result<()> {
        let columns = self
            .open
            .drain(..)
            .map(|p| std::mem::take(&mut *p.lock().unwrap_or_else(PoisonError::into_inner)))
            .collect();
        self.row_groups.push(MemRowGroup { rows, columns });
        Ok(())
    }
}

/// Writes records into a [`MemPageStore`], with the record writer's rules:
/// a record that fails is left out, an encoding error breaks the writer.
pub struct MemWriter<C: RecordWrite> {
    inner: RecordWriter<C, MemChunks>,
}

impl<C: RecordWrite> MemWriter<C> {
    /// A writer with `props` (compression is ignored: pages stay uncompressed).
    pub fn new(converter: C, props: WriterProperties) -> Result<Self> {
        let props = props.into_builder().set_compression(Compression::UNCOMPRESSED).build();
        let schema = Arc::new(SchemaDescriptor::new(converter.schema()?));
        let chunks = MemChunks { schema, open: Vec::new(), row_groups: Vec::new() };
        Ok(MemWriter { inner: RecordWriter::new(converter, Arc::new(props), DEFAULT_WRITE_BATCH, chunks)? })
    }

    /// Writes one record (see [`RecordWriter::write`]).
    pub fn write(&mut self, record: &C::Record<'_>) -> Result<()> {
        self.inner.write(record)
    }

    /// Ends the current row group.
    pub fn flush(&mut self) -> Result<()> {
        self.inner.flush()
    }

    /// The converter.
    pub fn converter(&self) -> &C {
        self.inner.converter()
    }

    /// Writes what is buffered and returns the store.
    pub fn close(self) -> Result<MemPageStore> {
        let MemChunks { schema, row_groups, .. } = self.inner.close()?;
        Ok(MemPageStore { schema, row_groups })
    }
}
