//! Opening a Parquet object in an object store: the footer by one suffix
//! request, then what the scan planner asks for (the bloom filters and
//! page indexes a predicate can use, in one request); the reader then
//! fetches the column chunks of the projected columns row group by row
//! group ([`StoreReader`]). Every request after the first is pinned to the
//! version of the object the footer came from (its e_tag and version): an
//! object replaced meanwhile is an error, never records mixed from two
//! versions.

use std::cell::RefCell;
use std::ops::Range;
use std::sync::Arc;

use object_store::path::Path as ObjectPath;
use object_store::ObjectStore;
use parquet::bloom_filter::Sbbf;
use parquet::file::metadata::ParquetMetaData;
use parquet::file::page_index::column_index::ColumnIndexMetaData;
use parquet::file::page_index::offset_index::OffsetIndexMetaData;
use parquet::schema::types::TypePtr;

use super::fetched::FetchedRanges;
use super::fetcher::Fetcher;
use super::object_reader::{BuildGroup, Parts, StoreReader, DEFAULT_WINDOW};
use super::source::{RangedSource, StoreObject};
use crate::error::Result;
use crate::file::reader::dictionary_page::dictionary_range;
use crate::file::reader::scan::{index_range, ScanPlan};
use crate::file::{CheckedMetadata, ReaderBuilder};
use crate::filter::{BloomFilters, Dictionaries, DictionaryValues, PageIndexes};
use crate::read::ReadOptions;
use crate::record::{Derived, OwnedRecord, ParquetRecord, RecordRead, RecordReadOwned};

/// Ranges closer than this are fetched as one (the gap too).
pub const DEFAULT_COALESCE: u64 = 1 << 20;

/// The readers of one object in a store, over its footer (fetched and
/// checked); made by [`StoreReaderBuilder::open`], each reader then built
/// with its [`ReadOptions`], as a file's by [`ReaderBuilder`].
#[must_use = "a builder does nothing until it builds"]
pub struct StoreReaderBuilder {
    fetcher: Fetcher,
    builder: ReaderBuilder<FetchedRanges>,
    coalesce: u64,
    window: usize,
    window_bytes: u64,
}

impl StoreReaderBuilder {
    /// Fetches the footer of the object at `path` (one suffix request of
    /// [`FOOTER_FETCH`](super::FOOTER_FETCH) bytes; a second for the rest
    /// of a larger footer) and checks it.
    pub async fn open(store: Arc<dyn ObjectStore>, path: &ObjectPath) -> Result<Self> {
        Self::open_source(Arc::new(StoreObject::new(store, path))).await
    }

    /// Fetches the footer of `source` as [`open`](Self::open) does of an
    /// object in a store: the readers of any object read by byte ranges.
    pub async fn open_source(source: Arc<dyn RangedSource>) -> Result<Self> {
        let (fetcher, tail) = Fetcher::open(source).await?;
        let builder = ReaderBuilder::from_tail(tail, fetcher.object().clone())?;
        let (coalesce, window, window_bytes) = (DEFAULT_COALESCE, DEFAULT_WINDOW, u64::MAX);
        Ok(StoreReaderBuilder { fetcher, builder, coalesce, window, window_bytes })
    }

    /// The object's metadata, checked.
    pub fn metadata(&self) -> &CheckedMetadata {
        self.builder.metadata()
    }

    /// Column chunks of a row group closer than `bytes` are fetched in one
    /// request, the gap between them too (default 1 MiB).
    pub fn coalesce(mut self, bytes: u64) -> Self {
        self.coalesce = bytes;
        self
    }

    /// At most `row_groups` row groups are held at once: the one being read
    /// and `row_groups - 1` fetched ahead (default [`DEFAULT_WINDOW`], 2;
    /// `0` counts as 1). A reader of an object of any size holds that
    /// window, plus the footer and the indexes a predicate uses.
    pub fn window(mut self, row_groups: usize) -> Self {
        self.window = row_groups.max(1);
        self
    }

    /// At most `bytes` of column chunks are held at once (default: no
    /// limit but [`window`](Self::window)'s): a row group is fetched ahead
    /// only if it fits beside those held; one larger than `bytes` is still
    /// read, alone. For files of large row groups (a table's, of 128 MiB)
    /// where a window of two would hold too much.
    pub fn window_bytes(mut self, bytes: u64) -> Self {
        self.window_bytes = bytes;
        self
    }

    /// Readers read `columns` as if the object stored them after its own,
    /// as [`ReaderBuilder::constant_columns`] says.
    pub fn constant_columns(mut self, columns: Vec<(TypePtr, Option<Vec<u8>>)>) -> Result<Self> {
        self.builder = self.builder.constant_columns(columns)?;
        Ok(self)
    }

    /// Requests made so far (the footer's).
    pub fn requests(&self) -> usize {
        self.fetcher.requests()
    }

    /// A reader of `T` with `options` (a `Stream` of records): the scan is
    /// planned as a file's is (row groups by statistics and bloom filters,
    /// pages by the page index); with a predicate, the bloom filters and
    /// page indexes it can use are fetched first (ranges within 1 MiB of
    /// each other in one request). Then the row groups read are fetched
    /// one after the other, a window ahead, the first before this returns.
    pub async fn build<T: OwnedRecord + 'static>(self, options: ReadOptions<T>) -> Result<StoreReader<T>> {
        self.build_with(Derived::new(), options).await
    }

    /// A reader of the records `converter` makes (as
    /// [`ReaderBuilder::build_with`]), planned and fetched as by
    /// [`build`](Self::build).
    pub async fn build_with<C>(self, converter: C, options: ReadOptions<C::Owned>) -> Result<StoreReader<C::Owned, C>>
    where
        C: RecordReadOwned + Send + Sync + 'static,
        C::Owned: Send + 'static,
    {
        self.start(converter, options, |builder, resolved, options, scan| {
            builder.build_planned(resolved, options, scan)
        })
        .await
    }

    /// A reader of `T`, a struct that borrows from the batch, read with
    /// [`StoreReader::next_batch`] (see
    /// [`ReaderBuilder::build_borrowed`](crate::ReaderBuilder::build_borrowed)):
    /// planned and fetched as by [`build`](Self::build), a predicate tested
    /// on the columns of each batch.
    pub async fn build_borrowed<T: ParquetRecord + 'static>(self, options: ReadOptions<T>) -> Result<StoreReader<T>>
    where
        Derived<T>: RecordRead,
    {
        let build: BuildGroup<T, Derived<T>> =
            |builder, resolved, options, scan| builder.build_lending(resolved, options, scan);
        self.start(Derived::new(), options, build).await
    }

    async fn start<T: 'static, C: RecordRead + Send + Sync + 'static>(
        mut self,
        converter: C,
        options: ReadOptions<T>,
        build: BuildGroup<T, C>,
    ) -> Result<StoreReader<T, C>> {
        let object = Some(self.fetcher.object().clone());
        let resolved = Arc::new(self.builder.resolve_with(converter).map_err(|e| e.in_file(&object))?);
        let scan = self.plan(&options).await?;
        let StoreReaderBuilder { fetcher, builder, coalesce, window, window_bytes } = self;
        let parts = Parts { fetcher, builder, resolved, options, build, coalesce, window, window_bytes };
        StoreReader::start(parts, scan).await
    }

    /// Plans the scan `options` ask for: with a predicate, after fetching
    /// the bloom filters and page indexes it can use.
    async fn plan<T>(&mut self, options: &ReadOptions<T>) -> Result<ScanPlan> {
        let file = self.builder.metadata().shared().clone();
        let len = parquet::file::reader::Length::len(self.builder.input());
        let (row_groups, predicate) = (options.row_groups.as_deref(), options.filter.as_ref());
        let max_bytes = options.limits.max_page_bytes;
        if predicate.is_some() {
            // Told that none exist, the planner asks for every bloom filter
            // and page index it could use: a superset of what it reads.
            let asked = Asked::default();
            ScanPlan::new(&file, row_groups, predicate, &asked, &asked, &asked);
            // The indexes sit together before the footer: one request for
            // the region they are in (the gaps are small).
            let ranges = asked.ranges(&file, len, max_bytes);
            let input = self.fetcher.fetch(self.builder.input(), ranges, DEFAULT_COALESCE).await?;
            self.builder = self.builder.clone().with_input(input);
        }
        let plan = ScanPlan::of_file(self.builder.input(), &file, row_groups, predicate, max_bytes);
        Ok(plan.leaving_out(&file, options.skipped_rows.as_deref()))
    }
}

/// The bloom filters, dictionaries and page indexes a plan asked for,
/// answered as absent.
#[derive(Default)]
struct Asked {
    blooms: RefCell<Vec<(usize, usize)>>,
    dictionaries: RefCell<Vec<(usize, usize)>>,
    indexes: RefCell<Vec<(usize, usize)>>,
}

impl Dictionaries for Asked {
    fn dictionary(&self, group: usize, column: usize) -> Option<DictionaryValues> {
        self.dictionaries.borrow_mut().push((group, column));
        None
    }
}

impl BloomFilters for Asked {
    fn bloom_filter(&self, group: usize, column: usize) -> Option<Arc<Sbbf>> {
        self.blooms.borrow_mut().push((group, column));
        None
    }
}

impl PageIndexes for Asked {
    fn page_index(&self, group: usize, column: usize) -> Option<(Arc<ColumnIndexMetaData>, Arc<OffsetIndexMetaData>)> {
        self.indexes.borrow_mut().push((group, column));
        None
    }
}

impl Asked {
    /// The byte ranges of what was asked for that the footer locates
    /// within an object of `len` bytes, each at most `max_bytes` (the
    /// planner leaves out a larger one, as a file's does).
    fn ranges(&self, file: &ParquetMetaData, len: u64, max_bytes: u64) -> Vec<Range<u64>> {
        let range = |offset, length| index_range(offset, length, max_bytes).filter(|r| r.end <= len);
        let chunk = |&(g, c): &(usize, usize)| file.row_groups().get(g).and_then(|g| g.columns().get(c));
        let blooms = self.blooms.borrow();
        let blooms = blooms.iter().filter_map(chunk).map(|c| range(c.bloom_filter_offset(), c.bloom_filter_length()));
        let indexes = self.indexes.borrow();
        let indexes = indexes.iter().filter_map(chunk).flat_map(|c| {
            [
                range(c.column_index_offset(), c.column_index_length()),
                range(c.offset_index_offset(), c.offset_index_length()),
            ]
        });
        let dictionaries = self.dictionaries.borrow();
        let dictionaries =
            dictionaries.iter().filter_map(chunk).map(|c| dictionary_range(c, max_bytes).filter(|r| r.end <= len));
        blooms.chain(indexes).chain(dictionaries).flatten().collect()
    }
}
