//! Records assembled from one decoded batch, handed out one at a time: what
//! the file reader and the in-memory store's reader iterate over.

use std::collections::VecDeque;

use crate::error::{Error, Result};

/// The records of the current batch, and the error that stopped it: a value
/// that did not fit one record comes after the records before it.
pub(crate) struct Batch<T> {
    pub(crate) records: VecDeque<T>,
    pub(crate) pending: Option<Error>,
    pub(crate) done: bool,
}

impl<T> Batch<T> {
    pub(crate) fn new() -> Self {
        Batch { records: VecDeque::new(), pending: None, done: false }
    }

    /// The next answer of the iterator when no batch needs decoding;
    /// `None` when the caller must load the next batch.
    #[inline]
    pub(crate) fn ready(&mut self) -> Option<Option<Result<T>>> {
        if let Some(r) = self.records.pop_front() {
            return Some(Some(Ok(r)));
        }
        if let Some(e) = self.pending.take() {
            self.done = true;
            return Some(Some(Err(e)));
        }
        self.done.then_some(None)
    }

    /// The answer after loading a batch (which filled `records`, `pending`
    /// or `done`); after an error the iteration ends.
    pub(crate) fn after_load(&mut self, loaded: Result<()>) -> Option<Result<T>> {
        if let Err(e) = loaded {
            self.done = true;
            return Some(Err(e));
        }
        match self.records.pop_front() {
            Some(r) => Some(Ok(r)),
            None => self.pending.take().map(|e| {
                self.done = true;
                Err(e)
            }),
        }
    }
}
