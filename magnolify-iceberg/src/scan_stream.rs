//! The stream a table scan gives, with what its readers read and skipped.

use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};

use futures::stream::{BoxStream, Stream, StreamExt};
use magnolify_parquet::filter::FilterCounts;

use crate::error::Result;

/// The records of a [`TableScan`](crate::TableScan), a
/// [`Stream`](futures::Stream) (see [`TableScan::stream`](crate::TableScan::stream)).
pub struct ScanStream<T> {
    records: BoxStream<'static, Result<T>>,
    counts: Arc<Mutex<FilterCounts>>,
}

impl<T> ScanStream<T> {
    pub(crate) fn new(records: BoxStream<'static, Result<T>>, counts: Arc<Mutex<FilterCounts>>) -> Self {
        ScanStream { records, counts }
    }

    /// What the readers of the data files read to their end (or to the
    /// stream's drop) read and skipped, added up: row groups, pages and
    /// records, as a file reader's
    /// [`counts`](magnolify_parquet::ParquetReader::counts). Files pruned
    /// by the plan are not read and not counted.
    pub fn counts(&self) -> FilterCounts {
        *self.counts.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl<T> Stream for ScanStream<T> {
    type Item = Result<T>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<T>>> {
        self.records.poll_next_unpin(cx)
    }
}

impl<T> std::fmt::Debug for ScanStream<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScanStream").field("counts", &self.counts()).finish()
    }
}
