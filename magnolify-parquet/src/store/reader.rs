//! Reading a Parquet object from an object store: the footer by one
//! suffix request, then what the scan planner asks for (the bloom filters
//! and page indexes a predicate can use, in one request), then only the
//! column chunks of the projected columns of the row groups it reads,
//! neighbouring ranges coalesced; decoded by the one file reader. Every
//! request after the first is pinned to the version of the object the
//! footer came from (its e_tag and version): an object replaced meanwhile
//! is an error, never records mixed from two versions.

use std::cell::RefCell;
use std::ops::Range;
use std::sync::Arc;

use bytes::Bytes;
use object_store::path::Path as ObjectPath;
use object_store::{GetOptions, GetRange, ObjectStore};
use parquet::bloom_filter::Sbbf;
use parquet::file::metadata::ParquetMetaData;
use parquet::file::page_index::column_index::ColumnIndexMetaData;
use parquet::file::page_index::offset_index::OffsetIndexMetaData;

use super::fetched::FetchedRanges;
use super::{object_file, store_error};
use crate::error::Result;
use crate::file::reader::scan::{index_range, ScanPlan};
use crate::file::{CheckedMetadata, ParquetReader, ReaderBuilder};
use crate::filter::{BloomFilters, PageIndexes};
use crate::read::{ReadOptions, Resolved, SourceLayer};
use crate::record::{Derived, OwnedRecord, ParquetRecord, RecordRead};

/// Bytes fetched from the end of an object first: the footer of most files
/// fits, so that one request brings it.
pub const FOOTER_FETCH: u64 = 64 << 10;

/// Ranges closer than this are fetched as one (the gap too).
pub const DEFAULT_COALESCE: u64 = 1 << 20;

/// The readers of one object in a store, over its footer (fetched and
/// checked); made by [`StoreReaderBuilder::open`], each reader then built
/// with its [`ReadOptions`], as a file's by [`ReaderBuilder`].
#[must_use = "a builder does nothing until it builds"]
pub struct StoreReaderBuilder {
    store: Arc<dyn ObjectStore>,
    path: ObjectPath,
    /// The version of the object the footer came from.
    pinned: Pinned,
    builder: ReaderBuilder<FetchedRanges>,
    coalesce: u64,
    requests: usize,
}

impl StoreReaderBuilder {
    /// Fetches the footer of the object at `path` (one suffix request of
    /// [`FOOTER_FETCH`] bytes; a second for the rest of a larger footer)
    /// and checks it.
    pub async fn open(store: Arc<dyn ObjectStore>, path: &ObjectPath) -> Result<Self> {
        let options = GetOptions::new().with_range(Some(GetRange::Suffix(FOOTER_FETCH)));
        let got = store.get_opts(path, options).await.map_err(|e| store_error(path, e))?;
        let pinned = Pinned { e_tag: got.meta.e_tag.clone(), version: got.meta.version.clone() };
        let (size, start) = (got.meta.size, got.range.start);
        let tail = got.bytes().await.map_err(|e| store_error(path, e))?;
        let mut requests = 1;
        let mut ranges = vec![(start, tail.clone())];
        // The footer's length is in the last 8 bytes; fetch what the first
        // request left out of it.
        // (Only for a tail that ends as Parquet does: anything else is
        // refused by the footer's checks without fetching more.)
        if tail.len() >= 8 && tail.ends_with(b"PAR1") {
            let n = tail.len();
            let claimed = u64::from(u32::from_le_bytes([tail[n - 8], tail[n - 7], tail[n - 6], tail[n - 5]]));
            let footer_start = size.saturating_sub(8 + claimed);
            if footer_start < start {
                let rest = pinned.get(&store, path, footer_start..start).await?;
                ranges.push((footer_start, rest));
                requests += 1;
            }
        }
        let fetched = FetchedRanges::new(size, ranges);
        let builder = ReaderBuilder::from_tail(fetched).map_err(|e| e.in_file(&Some(object_file(path))))?;
        Ok(StoreReaderBuilder { store, path: path.clone(), pinned, builder, coalesce: DEFAULT_COALESCE, requests })
    }

    /// The object's metadata, checked.
    pub fn metadata(&self) -> &CheckedMetadata {
        self.builder.metadata()
    }

    /// Column chunks closer than `bytes` are fetched in one request, the
    /// gap between them too (default 1 MiB).
    pub fn coalesce(mut self, bytes: u64) -> Self {
        self.coalesce = bytes;
        self
    }

    /// Readers add `layer`'s leaves after the object's own (a dataset's
    /// partition fields).
    pub(crate) fn with_layer(mut self, layer: Arc<dyn SourceLayer>) -> Self {
        self.builder = self.builder.with_layer(layer);
        self
    }

    /// Requests made so far (the footer's).
    pub fn requests(&self) -> usize {
        self.requests
    }

    /// A reader of `T` with `options`: the scan is planned as a file's is
    /// (row groups by statistics and bloom filters, pages by the page
    /// index), and what it reads is fetched first. With a predicate, the
    /// bloom filters and page indexes it can use come first (ranges within
    /// 1 MiB of each other in one request); then one request per group of
    /// coalesced column chunks. Each request is pinned to the version of
    /// the object the footer came from: a replaced object is an error.
    pub async fn build<T: OwnedRecord>(mut self, options: ReadOptions<T>) -> Result<ParquetReader<T, FetchedRanges>> {
        let object = Some(object_file(&self.path));
        let resolved = Arc::new(self.builder.resolve::<T>().map_err(|e| e.in_file(&object))?);
        let scan = self.fetch_scan(&resolved, &options).await?;
        self.builder.build_planned(resolved, options, scan)
    }

    /// Plans the scan `options` ask for, and fetches what it reads: with a
    /// predicate, first the bloom filters and page indexes it can use.
    async fn fetch_scan<C: RecordRead, T>(
        &mut self,
        resolved: &Resolved<C>,
        options: &ReadOptions<T>,
    ) -> Result<ScanPlan> {
        let file = self.builder.metadata().shared().clone();
        let len = input_len(self.builder.input());
        let (row_groups, predicate) = (options.row_groups.as_deref(), options.filter.as_ref());
        let max_bytes = options.limits.max_page_bytes;
        if predicate.is_some() {
            // Told that none exist, the planner asks for every bloom filter
            // and page index it could use: a superset of what it reads.
            let asked = Asked::default();
            ScanPlan::new(&file, row_groups, predicate, &asked, &asked);
            // The indexes sit together before the footer: one request for
            // the region they are in (the gaps are small).
            self.fetch(asked.ranges(&file, len, max_bytes), DEFAULT_COALESCE).await?;
        }
        let scan = ScanPlan::of_file(self.builder.input(), &file, row_groups, predicate, max_bytes);
        self.fetch_chunks(&scan, resolved.columns()).await?;
        Ok(scan)
    }

    /// A reader of `T`, a struct that borrows from the batch, read with
    /// [`ParquetReader::next_batch`] (see
    /// [`ReaderBuilder::build_borrowed`](crate::ReaderBuilder::build_borrowed)):
    /// the chunks of the row groups read are fetched first, as by
    /// [`build`](Self::build), and a predicate is tested on the columns of
    /// each batch.
    pub async fn build_borrowed<T: ParquetRecord>(
        mut self,
        options: ReadOptions<T>,
    ) -> Result<ParquetReader<T, FetchedRanges>>
    where
        Derived<T>: RecordRead,
    {
        let object = Some(object_file(&self.path));
        let resolved = Arc::new(self.builder.resolve::<T>().map_err(|e| e.in_file(&object))?);
        let scan = self.fetch_scan(&resolved, &options).await?;
        self.builder.build_lending(resolved, options, scan)
    }

    /// Fetches the chunks of `columns` that `scan` reads, coalesced.
    async fn fetch_chunks(&mut self, scan: &ScanPlan, columns: &[usize]) -> Result<()> {
        let object = Some(object_file(&self.path));
        let file = self.builder.metadata().shared().clone();
        let len = input_len(self.builder.input());
        let mut chunks = Vec::new();
        for (group, column, _) in scan.chunks_read(&file, columns) {
            let range = self.builder.metadata().chunk_range(group, column, len);
            let (start, length) = range.map_err(|e| e.in_file(&object))?;
            chunks.push(start..start + length);
        }
        self.fetch(chunks, self.coalesce).await
    }

    /// Fetches `ranges` (the empty ones left out), those within `gap`
    /// bytes of each other as one, and adds them to the input.
    async fn fetch(&mut self, mut ranges: Vec<Range<u64>>, gap: u64) -> Result<()> {
        ranges.retain(|r| r.start < r.end);
        let ranges = coalesce(ranges, gap);
        if ranges.is_empty() {
            return Ok(());
        }
        let gets = ranges.iter().map(|r| self.pinned.get(&self.store, &self.path, r.clone()));
        let bytes = futures_util::future::try_join_all(gets).await?;
        self.requests += ranges.len();
        let fetched: Vec<(u64, Bytes)> = ranges.iter().map(|r| r.start).zip(bytes).collect();
        let input = self.builder.input().with(fetched);
        self.builder = self.builder.clone().with_input(input);
        Ok(())
    }
}

/// The version of an object its footer was read from.
#[derive(Clone, Debug)]
struct Pinned {
    e_tag: Option<String>,
    version: Option<String>,
}

impl Pinned {
    /// The bytes of `range` of the object at `path`, from the pinned version
    /// only: a replaced object is an error naming it.
    async fn get(&self, store: &Arc<dyn ObjectStore>, path: &ObjectPath, range: Range<u64>) -> Result<Bytes> {
        let options = GetOptions {
            if_match: self.e_tag.clone(),
            version: self.version.clone(),
            range: Some(GetRange::Bounded(range)),
            ..GetOptions::default()
        };
        let changed = |e: object_store::Error| match e {
            object_store::Error::Precondition { .. } => {
                let what = "the object changed after its footer was read (its e_tag is no longer the footer's): \
                            open it again to read the new version";
                crate::error::Error::from(std::io::Error::other(what)).in_file(&Some(object_file(path)))
            }
            other => store_error(path, other),
        };
        let got = store.get_opts(path, options).await.map_err(changed)?;
        got.bytes().await.map_err(|e| store_error(path, e))
    }
}

/// The bloom filters and page indexes a plan asked for, answered as absent.
#[derive(Default)]
struct Asked {
    blooms: RefCell<Vec<(usize, usize)>>,
    indexes: RefCell<Vec<(usize, usize)>>,
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
        blooms.chain(indexes).flatten().collect()
    }
}

fn input_len(input: &FetchedRanges) -> u64 {
    parquet::file::reader::Length::len(input)
}

/// `ranges` sorted and merged where they touch or lie within `gap` bytes.
pub(crate) fn coalesce(mut ranges: Vec<std::ops::Range<u64>>, gap: u64) -> Vec<std::ops::Range<u64>> {
    ranges.sort_by_key(|r| r.start);
    let mut out: Vec<std::ops::Range<u64>> = Vec::with_capacity(ranges.len());
    for r in ranges {
        match out.last_mut() {
            Some(last) if r.start <= last.end.saturating_add(gap) => last.end = last.end.max(r.end),
            _ => out.push(r),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::coalesce;

    #[test]
    fn ranges_within_the_gap_merge() {
        assert_eq!(coalesce(vec![10..20, 0..5, 20..30, 40..50], 0), [0..5, 10..30, 40..50]);
        assert_eq!(coalesce(vec![10..20, 0..5, 20..30, 40..50], 10), std::iter::once(0..50).collect::<Vec<_>>());
        assert_eq!(coalesce(vec![0..10, 2..5], 0), std::iter::once(0..10).collect::<Vec<_>>());
    }
}
