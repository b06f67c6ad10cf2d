//! The requests a store reader makes: the footer by one suffix request,
//! then byte ranges of the version of the object the footer came from,
//! neighbours coalesced, each group of them one request, all at once.

use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use bytes::Bytes;
use object_store::path::Path as ObjectPath;
use object_store::{GetOptions, GetRange, ObjectStore};

use super::fetched::FetchedRanges;
use super::{object_file, store_error};
use crate::error::{Error, Result};

/// Bytes fetched from the end of an object first: the footer of most files
/// fits, so that one request brings it.
pub const FOOTER_FETCH: u64 = 64 << 10;

/// Fetches ranges of one version of one object, counting its requests.
#[derive(Clone, Debug)]
pub(crate) struct Fetcher {
    store: Arc<dyn ObjectStore>,
    path: ObjectPath,
    pinned: Pinned,
    requests: Arc<AtomicUsize>,
}

/// The version of an object its footer was read from.
#[derive(Clone, Debug)]
struct Pinned {
    e_tag: Option<String>,
    version: Option<String>,
}

impl Fetcher {
    /// The fetcher of the object at `path`, and its tail: the last
    /// [`FOOTER_FETCH`] bytes, then the rest of a larger footer (a second
    /// request).
    pub(crate) async fn open(store: Arc<dyn ObjectStore>, path: &ObjectPath) -> Result<(Self, FetchedRanges)> {
        let options = GetOptions::new().with_range(Some(GetRange::Suffix(FOOTER_FETCH)));
        let got = store.get_opts(path, options).await.map_err(|e| store_error(path, e))?;
        let pinned = Pinned { e_tag: got.meta.e_tag.clone(), version: got.meta.version.clone() };
        let (size, range) = (got.meta.size, got.range.clone());
        let tail = whole(path, range.clone(), got.bytes().await.map_err(|e| store_error(path, e))?)?;
        let fetcher = Fetcher { store, path: path.clone(), pinned, requests: Arc::new(AtomicUsize::new(1)) };
        let mut ranges = vec![(range.start, tail.clone())];
        // The footer's length is in the last 8 bytes; fetch what the first
        // request left out of it. (Only for a tail that ends as Parquet
        // does: anything else is refused by the footer's checks.)
        if tail.len() >= 8 && tail.ends_with(b"PAR1") {
            let n = tail.len();
            let claimed = u64::from(u32::from_le_bytes([tail[n - 8], tail[n - 7], tail[n - 6], tail[n - 5]]));
            let footer_start = size.saturating_sub(8 + claimed);
            if footer_start < range.start {
                let rest = fetcher.get(footer_start..range.start).await?;
                fetcher.requests.fetch_add(1, Ordering::Relaxed);
                ranges.push((footer_start, rest));
            }
        }
        Ok((fetcher, FetchedRanges::new(size, ranges)))
    }

    /// The object's path.
    pub(crate) fn path(&self) -> &ObjectPath {
        &self.path
    }

    /// Requests made so far, by this fetcher and its clones.
    pub(crate) fn requests(&self) -> usize {
        self.requests.load(Ordering::Relaxed)
    }

    /// `input` with `ranges` added: those empty or in `input` already left
    /// out (a small object's footer request brought it whole), those
    /// within `gap` bytes of each other fetched as one request, the
    /// requests made at once.
    pub(crate) async fn fetch(
        &self,
        input: &FetchedRanges,
        mut ranges: Vec<Range<u64>>,
        gap: u64,
    ) -> Result<FetchedRanges> {
        ranges.retain(|r| r.start < r.end && !input.covers(r));
        let ranges = coalesce(ranges, gap);
        if ranges.is_empty() {
            return Ok(input.clone());
        }
        let bytes = futures_util::future::try_join_all(ranges.iter().map(|r| self.get(r.clone()))).await?;
        self.requests.fetch_add(ranges.len(), Ordering::Relaxed);
        Ok(input.with(ranges.iter().map(|r| r.start).zip(bytes).collect()))
    }

    /// The bytes of `range`, from the pinned version only: a replaced
    /// object is an error naming it.
    async fn get(&self, range: Range<u64>) -> Result<Bytes> {
        let path = &self.path;
        let options = GetOptions {
            if_match: self.pinned.e_tag.clone(),
            version: self.pinned.version.clone(),
            range: Some(GetRange::Bounded(range.clone())),
            ..GetOptions::default()
        };
        let changed = |e: object_store::Error| match e {
            object_store::Error::Precondition { .. } => {
                let what = "the object changed after its footer was read (its e_tag is no longer the footer's): \
                            open it again to read the new version";
                Error::from(std::io::Error::other(what)).in_file(&Some(object_file(path)))
            }
            other => store_error(path, other),
        };
        let got = self.store.get_opts(path, options).await.map_err(changed)?;
        whole(path, range, got.bytes().await.map_err(|e| store_error(path, e))?)
    }
}

/// `bytes`, if the store returned all of `range`: a body cut short (a
/// connection closed early) is an error naming the object, never a file
/// read from fewer bytes than it has.
fn whole(path: &ObjectPath, range: Range<u64>, bytes: Bytes) -> Result<Bytes> {
    if bytes.len() as u64 == range.end - range.start {
        return Ok(bytes);
    }
    let what = format!(
        "the store returned {} bytes for bytes {}..{} of the object (a body cut short): read it again",
        bytes.len(),
        range.start,
        range.end
    );
    Err(Error::from(std::io::Error::other(what)).in_file(&Some(object_file(path))))
}

/// `ranges` sorted and merged where they touch or lie within `gap` bytes.
fn coalesce(mut ranges: Vec<Range<u64>>, gap: u64) -> Vec<Range<u64>> {
    ranges.sort_by_key(|r| r.start);
    let mut out: Vec<Range<u64>> = Vec::with_capacity(ranges.len());
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
