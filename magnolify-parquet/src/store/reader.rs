//! Reading a Parquet object from an object store: the footer by one
//! suffix request, then only the column chunks of the projected columns
//! of the row groups read, neighbouring ranges coalesced; decoded by the
//! one file reader.

use std::sync::Arc;

use bytes::Bytes;
use object_store::path::Path as ObjectPath;
use object_store::{GetOptions, GetRange, ObjectStore, ObjectStoreExt};
use parquet::schema::types::TypePtr;

use super::fetched::FetchedRanges;
use super::store_error;
use crate::error::Result;
use crate::file::{CheckedMetadata, ParquetReader, ReaderBuilder};
use crate::filter::{verdict, NoBloomFilters, Predicate, Verdict};
use crate::record::OwnedRecord;

/// Bytes fetched from the end of an object first: the footer of most files
/// fits, so that one request brings it.
pub const FOOTER_FETCH: u64 = 64 << 10;

/// Ranges closer than this are fetched as one (the gap too).
pub const DEFAULT_COALESCE: u64 = 1 << 20;

/// Settings of the readers of one object in a store, over its footer
/// (fetched and checked); made by [`StoreReaderBuilder::open`]. The row
/// groups, threads, batch size and limits are those of a
/// [`ReaderBuilder`], set through [`settings`](Self::settings).
pub struct StoreReaderBuilder {
    store: Arc<dyn ObjectStore>,
    path: ObjectPath,
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
                let rest = store.get_range(path, footer_start..start).await.map_err(|e| store_error(path, e))?;
                ranges.push((footer_start, rest));
                requests += 1;
            }
        }
        let fetched = FetchedRanges::new(size, ranges);
        let builder = ReaderBuilder::from_tail(fetched).map_err(|e| e.in_file(&Some(object_file(path))))?;
        Ok(StoreReaderBuilder { store, path: path.clone(), builder, coalesce: DEFAULT_COALESCE, requests })
    }

    /// The object's metadata, checked.
    pub fn metadata(&self) -> &CheckedMetadata {
        self.builder.metadata()
    }

    /// Any setting of the readers (row groups, threads, batch size,
    /// limits, checksums), on the [`ReaderBuilder`] they are built by.
    pub fn settings(mut self, f: impl FnOnce(ReaderBuilder<FetchedRanges>) -> ReaderBuilder<FetchedRanges>) -> Self {
        self.builder = f(self.builder);
        self
    }

    /// Column chunks closer than `bytes` are fetched in one request, the
    /// gap between them too (default 1 MiB).
    pub fn coalesce(mut self, bytes: u64) -> Self {
        self.coalesce = bytes;
        self
    }

    /// Reads the top-level fields `constants` (schema nodes the object
    /// does not store, each with its value PLAIN-encoded) as columns holding
    /// that value in every record: a dataset's partition fields.
    pub(crate) fn with_constant_columns(mut self, constants: Vec<(TypePtr, Option<Vec<u8>>)>) -> Result<Self> {
        self.builder =
            self.builder.with_constant_columns(constants).map_err(|e| e.in_file(&Some(object_file(&self.path))))?;
        Ok(self)
    }

    /// Requests made so far (the footer's).
    pub fn requests(&self) -> usize {
        self.requests
    }

    /// A reader of `T`: the column chunks it reads are fetched first.
    pub async fn build<T: OwnedRecord>(self) -> Result<ParquetReader<T, FetchedRanges>> {
        let groups = self.chosen_groups(None::<&Predicate<T>>);
        self.fetch::<T>(&groups).await?.build()
    }

    /// A reader of the records of `T` that pass `predicate` (see
    /// [`ReaderBuilder::build_filtered`]): only the row groups whose
    /// statistics do not rule them out are fetched. Bloom filters and page
    /// indexes are not fetched: they prune nothing here.
    pub async fn build_filtered<T: OwnedRecord>(
        self,
        predicate: Predicate<T>,
    ) -> Result<ParquetReader<T, FetchedRanges>> {
        let groups = self.chosen_groups(Some(&predicate));
        self.fetch::<T>(&groups).await?.build_filtered(predicate)
    }

    /// The row groups to fetch: those chosen (all by default) that the
    /// predicate's statistics leave.
    fn chosen_groups<T>(&self, predicate: Option<&Predicate<T>>) -> Vec<usize> {
        let file = self.builder.metadata().shared();
        let total = file.num_row_groups();
        let chosen: Vec<usize> = self.builder.row_groups().map_or_else(|| (0..total).collect(), <[usize]>::to_vec);
        chosen
            .into_iter()
            .filter(|&g| g < total)
            .filter(|&g| predicate.is_none_or(|p| verdict(&p.node, file, g, &NoBloomFilters) == Verdict::Read))
            .collect()
    }

    /// Fetches the chunks of `T`'s columns in `groups`, coalesced, and
    /// returns the builder over them.
    async fn fetch<T: OwnedRecord>(self, groups: &[usize]) -> Result<ReaderBuilder<FetchedRanges>> {
        let located = |e: crate::Error| e.in_file(&Some(object_file(&self.path)));
        let resolved = self.builder.resolve::<T>()?;
        let input = self.builder.input();
        let mut wanted = Vec::new();
        // Constant columns (a dataset's partition fields) come after the
        // object's own and have no chunks.
        let stored = self.builder.metadata().schema().num_columns();
        for &group in groups {
            for &column in resolved.columns().iter().filter(|&&c| c < stored) {
                let (start, len) =
                    self.builder.metadata().chunk_range(group, column, input_len(input)).map_err(located)?;
                if len > 0 {
                    wanted.push(start..start + len);
                }
            }
        }
        let ranges = coalesce(wanted, self.coalesce);
        let bytes = match ranges.is_empty() {
            true => Vec::new(),
            false => self.store.get_ranges(&self.path, &ranges).await.map_err(|e| store_error(&self.path, e))?,
        };
        let fetched: Vec<(u64, Bytes)> = ranges.iter().map(|r| r.start).zip(bytes).collect();
        let input = input.with(fetched);
        Ok(self.builder.with_input(input))
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

/// An object's path as the file errors name.
pub(crate) fn object_file(path: &ObjectPath) -> Arc<std::path::Path> {
    Arc::from(std::path::Path::new(path.as_ref()))
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
