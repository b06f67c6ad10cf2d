//! The requests a store reader makes of its source: the footer by one
//! suffix request, then byte ranges of the version of the object the
//! footer came from, neighbours coalesced, each group of them one request,
//! all at once.

use std::ops::Range;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use bytes::Bytes;

use super::fetched::FetchedRanges;
use super::source::RangedSource;
use crate::error::{Error, Result};

/// Bytes fetched from the end of an object first: the footer of most files
/// fits, so that one request brings it.
pub const FOOTER_FETCH: u64 = 64 << 10;

/// Fetches ranges of one version of one object, counting its requests.
#[derive(Clone, Debug)]
pub(crate) struct Fetcher {
    source: Arc<dyn RangedSource>,
    /// The object's name, as its errors give it.
    object: Arc<Path>,
    requests: Arc<AtomicUsize>,
}

impl Fetcher {
    /// The fetcher of `source`, and its tail: the last [`FOOTER_FETCH`]
    /// bytes, then the rest of a larger footer (a second request).
    pub(crate) async fn open(source: Arc<dyn RangedSource>) -> Result<(Self, FetchedRanges)> {
        let object: Arc<Path> = Arc::from(Path::new(source.name()));
        let located = |e: std::io::Error| Error::from(e).in_file(&Some(object.clone()));
        let (size, tail) = source.suffix(FOOTER_FETCH).await.map_err(located)?;
        let start = size.saturating_sub(FOOTER_FETCH);
        let tail = whole(&object, start..size, tail)?;
        let fetcher = Fetcher { source, object, requests: Arc::new(AtomicUsize::new(1)) };
        let mut ranges = vec![(start, tail.clone())];
        // The footer's length is in the last 8 bytes; fetch what the first
        // request left out of it. (Only for a tail that ends as Parquet
        // does: anything else is refused by the footer's checks.)
        if tail.len() >= 8 && tail.ends_with(b"PAR1") {
            let n = tail.len();
            let claimed = u64::from(u32::from_le_bytes([tail[n - 8], tail[n - 7], tail[n - 6], tail[n - 5]]));
            let footer_start = size.saturating_sub(8 + claimed);
            if footer_start < start {
                let rest = fetcher.get(footer_start..start).await?;
                fetcher.requests.fetch_add(1, Ordering::Relaxed);
                ranges.push((footer_start, rest));
            }
        }
        Ok((fetcher, FetchedRanges::new(size, ranges)))
    }

    /// The object's name, as its errors give it.
    pub(crate) fn object(&self) -> &Arc<Path> {
        &self.object
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

    /// The bytes of `range`, all of them, or an error naming the object.
    async fn get(&self, range: Range<u64>) -> Result<Bytes> {
        let got = self.source.get(range.clone()).await;
        let got = got.map_err(|e| Error::from(e).in_file(&Some(self.object.clone())))?;
        whole(&self.object, range, got)
    }
}

/// `bytes`, if the source returned all of `range`: a body cut short (a
/// connection closed early) is an error naming the object, never a file
/// read from fewer bytes than it has.
fn whole(object: &Arc<Path>, range: Range<u64>, bytes: Bytes) -> Result<Bytes> {
    if bytes.len() as u64 == range.end - range.start {
        return Ok(bytes);
    }
    let what = format!(
        "the store returned {} bytes for bytes {}..{} of the object (a body cut short): read it again",
        bytes.len(),
        range.start,
        range.end
    );
    Err(Error::from(std::io::Error::other(what)).in_file(&Some(object.clone())))
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
