//! What the column decoders of a reader did, counted across its threads.

use std::sync::atomic::{AtomicU64, Ordering};

/// What decoders did: data pages decoded, whole data pages passed without
/// reading them, and rows not decoded into records (inside pages read, or
/// in pages passed).
#[derive(Debug, Default)]
pub(crate) struct SkipCounts {
    pub(crate) pages: AtomicU64,
    pub(crate) rows: AtomicU64,
    pub(crate) pages_decoded: AtomicU64,
}

impl SkipCounts {
    /// One more data page decoded.
    pub(crate) fn page_decoded(&self) {
        self.pages_decoded.fetch_add(1, Ordering::Relaxed);
    }

    /// `pages` whole data pages and `rows` rows more passed over.
    pub(crate) fn add(&self, pages: u64, rows: u64) {
        self.pages.fetch_add(pages, Ordering::Relaxed);
        self.rows.fetch_add(rows, Ordering::Relaxed);
    }

    /// (pages passed, rows passed, pages decoded) so far.
    pub(crate) fn get(&self) -> (u64, u64, u64) {
        (
            self.pages.load(Ordering::Relaxed),
            self.rows.load(Ordering::Relaxed),
            self.pages_decoded.load(Ordering::Relaxed),
        )
    }
}
