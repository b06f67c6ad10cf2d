//! The scan planner: which row groups a reader reads, which rows of them
//! it decodes, and which column chunks that takes. The file reader and the
//! store reader both plan with it (the store after fetching the indexes the
//! plan asks for), so the same options skip the same row groups and pages
//! wherever a file lies.

use std::ops::Range;
use std::sync::Arc;

use parquet::bloom_filter::Sbbf;
use parquet::file::metadata::{ColumnChunkMetaData, ParquetMetaData};
use parquet::file::page_index::column_index::ColumnIndexMetaData;
use parquet::file::page_index::index_reader::{decode_column_index, decode_offset_index};
use parquet::file::page_index::offset_index::OffsetIndexMetaData;
use parquet::file::reader::ChunkReader;

use super::dictionary_page::FileDictionaries;
use crate::filter::{
    page_selection, verdict, BloomFilters, Dictionaries, FilterCounts, PageIndexes, Predicate, Verdict,
};
use crate::guard::catch;
use crate::read::selection::Selection;

/// What one reader of a file reads.
#[derive(Debug, Default)]
pub(crate) struct ScanPlan {
    /// The row groups read, in order. An index the file does not have
    /// stays, for the record reader to refuse with the file's count.
    pub(crate) groups: Vec<usize>,
    /// The row groups the predicate ruled out.
    skipped: Vec<usize>,
    /// Of those, the ones only bloom filters ruled out.
    skipped_by_bloom_filters: usize,
    /// Of those, the ones only dictionaries ruled out.
    skipped_by_dictionaries: usize,
    /// The rows of the row groups read that the page index leaves.
    pub(crate) selection: Selection,
}

impl ScanPlan {
    /// The plan for `row_groups` (all when `None`) of `file` under
    /// `predicate`: row groups whose statistics, bloom filters or
    /// dictionaries rule out every record are skipped, and inside the others, the rows outside
    /// the pages the page index leaves.
    pub(crate) fn new<T>(
        file: &ParquetMetaData,
        row_groups: Option<&[usize]>,
        predicate: Option<&Predicate<T>>,
        blooms: &dyn BloomFilters,
        dictionaries: &dyn Dictionaries,
        indexes: &dyn PageIndexes,
    ) -> Self {
        let total = file.num_row_groups();
        let chosen = row_groups.map_or_else(|| (0..total).collect(), <[usize]>::to_vec);
        let Some(predicate) = predicate else { return ScanPlan { groups: chosen, ..ScanPlan::default() } };
        let mut plan = ScanPlan::default();
        for group in chosen {
            let verdict = match group < total {
                true => verdict(&predicate.node, file, group, blooms, dictionaries),
                false => Verdict::Read,
            };
            match verdict {
                Verdict::Read => plan.groups.push(group),
                Verdict::SkipByStatistics => plan.skipped.push(group),
                Verdict::SkipByBloomFilters => {
                    plan.skipped.push(group);
                    plan.skipped_by_bloom_filters += 1;
                }
                Verdict::SkipByDictionaries => {
                    plan.skipped.push(group);
                    plan.skipped_by_dictionaries += 1;
                }
            }
        }
        for &group in plan.groups.iter().filter(|&&g| g < total) {
            if let Some(rows) = page_selection(&predicate.node, file, group, indexes) {
                plan.selection.groups.insert(group, rows);
            }
        }
        plan
    }

    /// The plan without the records at `positions` of the file (sorted;
    /// see [`ReadOptions::skip_rows`](crate::ReadOptions::skip_rows)): the
    /// rows each row group read decodes lose them.
    pub(crate) fn leaving_out(mut self, file: &ParquetMetaData, positions: Option<&[u64]>) -> Self {
        let Some(positions) = positions.filter(|p| !p.is_empty()) else { return self };
        let mut starts = Vec::with_capacity(file.num_row_groups());
        let mut start = 0u64;
        for group in file.row_groups() {
            starts.push(start);
            start += u64::try_from(group.num_rows()).unwrap_or(0);
        }
        for &group in self.groups.iter().filter(|&&g| g < starts.len()) {
            let (first, rows) = (starts[group], u64::try_from(file.row_group(group).num_rows()).unwrap_or(0));
            let inside = &positions[positions.partition_point(|&p| p < first)..];
            let inside = &inside[..inside.partition_point(|&p| p < first + rows)];
            if inside.is_empty() {
                continue;
            }
            // The rows between the positions left out.
            let mut kept = Vec::with_capacity(inside.len() + 1);
            let mut from = 0;
            for &position in inside {
                kept.push((from, position - first));
                from = position - first + 1;
            }
            kept.push((from, rows));
            let kept = crate::filter::RowRanges::from_ranges(kept);
            let rows = match self.selection.groups.get(&group) {
                Some(selected) => selected.intersect(&kept),
                None => kept,
            };
            self.selection.groups.insert(group, rows);
        }
        self
    }

    /// The plan of a file in `input`, its bloom filters, dictionaries and
    /// page indexes read from it as the predicate asks for them.
    pub(crate) fn of_file<R: ChunkReader, T>(
        input: &R,
        file: &ParquetMetaData,
        row_groups: Option<&[usize]>,
        predicate: Option<&Predicate<T>>,
        max_bytes: u64,
    ) -> Self {
        let blooms = FileBloomFilters { input, file, max_bytes };
        let dictionaries = FileDictionaries { input, file, max_bytes };
        let indexes = FilePageIndexes { input, file, max_bytes };
        ScanPlan::new(file, row_groups, predicate, &blooms, &dictionaries, &indexes)
    }

    /// The column chunks of `columns` in the row groups read. A column the
    /// row group has no chunk for (a dataset's partition field, which the
    /// path holds) has nothing to fetch.
    #[cfg(feature = "object_store")]
    pub(crate) fn chunks_read<'a>(
        &'a self,
        file: &'a ParquetMetaData,
        columns: &'a [usize],
    ) -> impl Iterator<Item = (usize, usize, &'a ColumnChunkMetaData)> + 'a {
        chunks(file, &self.groups, columns)
    }

    /// One plan per row group read, in order (each with its rows to
    /// decode and its own skip counts), and the plan of the rest: the row
    /// groups skipped, read by no reader. Their counts add up to this
    /// plan's.
    #[cfg(feature = "object_store")]
    pub(crate) fn split_by_group(self) -> (Vec<ScanPlan>, ScanPlan) {
        let ScanPlan { groups, skipped, skipped_by_bloom_filters, skipped_by_dictionaries, selection } = self;
        let one = |group: usize| {
            let mut rows = Selection::default();
            if let Some(ranges) = selection.groups.get(&group).cloned() {
                rows.groups.insert(group, ranges);
            }
            ScanPlan { groups: vec![group], selection: rows, ..ScanPlan::default() }
        };
        let each = groups.into_iter().map(one).collect();
        let rest = ScanPlan {
            groups: Vec::new(),
            skipped,
            skipped_by_bloom_filters,
            skipped_by_dictionaries,
            selection: Selection::default(),
        };
        (each, rest)
    }

    /// The counts the plan decided: row groups read and skipped, and the
    /// compressed bytes of `columns` in each.
    pub(crate) fn counts(&self, file: &ParquetMetaData, columns: &[usize]) -> FilterCounts {
        let bytes = |groups: &[usize]| -> u64 {
            let sizes = chunks(file, groups, columns).map(|(_, _, chunk)| chunk.compressed_size());
            sizes.map(|size| u64::try_from(size).unwrap_or(0)).sum()
        };
        FilterCounts {
            row_groups_read: self.groups.len(),
            row_groups_skipped: self.skipped.len(),
            row_groups_skipped_by_bloom_filters: self.skipped_by_bloom_filters,
            row_groups_skipped_by_dictionaries: self.skipped_by_dictionaries,
            column_bytes_read: bytes(&self.groups),
            column_bytes_skipped: bytes(&self.skipped),
            ..FilterCounts::default()
        }
    }
}

/// The chunks of `columns` in `groups` that `file` has.
fn chunks<'a>(
    file: &'a ParquetMetaData,
    groups: &'a [usize],
    columns: &'a [usize],
) -> impl Iterator<Item = (usize, usize, &'a ColumnChunkMetaData)> + 'a {
    let groups = groups.iter().filter_map(move |&g| Some((g, file.row_groups().get(g)?)));
    groups.flat_map(move |(g, group)| columns.iter().filter_map(move |&c| Some((g, c, group.columns().get(c)?))))
}

/// Where the footer says a chunk's bloom filter or page index lies:
/// `None` when it gives no place, a negative one, or one larger than
/// `max_bytes` (which the readers treat as absent: it prunes nothing).
pub(crate) fn index_range(offset: Option<i64>, length: Option<i32>, max_bytes: u64) -> Option<Range<u64>> {
    let offset = u64::try_from(offset?).ok()?;
    let length = u64::try_from(length?).ok().filter(|&l| l <= max_bytes)?;
    Some(offset..offset.checked_add(length)?)
}

/// The bloom filters of a file's column chunks, read when asked. One that
/// cannot be read (damaged, larger than a page may be, or without its
/// length in the footer, which older writers leave out and without which
/// its header alone would say how much to read) is treated as absent: it
/// prunes nothing, and the records are read and tested.
struct FileBloomFilters<'a, R> {
    input: &'a R,
    file: &'a ParquetMetaData,
    max_bytes: u64,
}

impl<R: ChunkReader> BloomFilters for FileBloomFilters<'_, R> {
    fn bloom_filter(&self, group: usize, column: usize) -> Option<Arc<Sbbf>> {
        let chunk = self.file.row_group(group).column(column);
        index_range(chunk.bloom_filter_offset(), chunk.bloom_filter_length(), self.max_bytes)?;
        let filter = catch(|| Sbbf::read_from_column_chunk(chunk, self.input)).ok()?.ok()??;
        // The format's filters hold a power of two of 32-byte blocks; one
        // cut short (its length in the footer too small) would look values
        // up in the wrong blocks and call them absent.
        let blocks = filter.num_blocks();
        (blocks >= 1 && blocks.is_power_of_two()).then(|| Arc::new(filter))
    }
}

/// The page indexes of a file's column chunks, read when asked. One that
/// cannot be read (damaged, or larger than a page may be) is treated as
/// absent: the chunk's pages are not pruned.
struct FilePageIndexes<'a, R> {
    input: &'a R,
    file: &'a ParquetMetaData,
    max_bytes: u64,
}

impl<R: ChunkReader> FilePageIndexes<'_, R> {
    fn bytes(&self, offset: Option<i64>, length: Option<i32>) -> Option<bytes::Bytes> {
        let range = index_range(offset, length, self.max_bytes)?;
        let length = usize::try_from(range.end - range.start).ok()?;
        catch(|| self.input.get_bytes(range.start, length).ok()).ok()?
    }
}

impl<R: ChunkReader> PageIndexes for FilePageIndexes<'_, R> {
    fn page_index(&self, group: usize, column: usize) -> Option<(Arc<ColumnIndexMetaData>, Arc<OffsetIndexMetaData>)> {
        let chunk = self.file.row_group(group).column(column);
        let columns = self.bytes(chunk.column_index_offset(), chunk.column_index_length())?;
        let offsets = self.bytes(chunk.offset_index_offset(), chunk.offset_index_length())?;
        let physical = chunk.column_type();
        let column_index = catch(|| decode_column_index(&columns, physical)).ok()?.ok()?;
        let offset_index = catch(|| decode_offset_index(&offsets)).ok()?.ok()?;
        Some((Arc::new(column_index), Arc::new(offset_index)))
    }
}
