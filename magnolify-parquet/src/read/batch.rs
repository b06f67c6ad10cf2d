//! Records assembled from one decoded batch, handed out one at a time: what
//! the file reader and the in-memory store's reader iterate over.

use std::collections::VecDeque;

use super::decode::Decoded;
use crate::assemble::Cursors;
use crate::error::{Error, Result};
use crate::record::RecordRead;

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

/// Assembles the records of a freshly decoded batch into `out` (they may
/// borrow from it) and checks that they used every triplet, returning the
/// error that stopped it.
///
/// A value that does not fit its field (a null in a required field, a value
/// out of range) concerns one record: the records assembled before it are
/// kept, so that nothing sound is lost. Any other error means the columns
/// may have fallen out of step, and none of the batch's records is kept:
/// never silently shifted records.
pub(crate) fn assemble<'de, C: RecordRead>(
    converter: &C,
    plan: &C::ReadPlan,
    cursors: &'de mut Cursors,
    decoded: &'de Decoded,
    out: &mut VecDeque<C::Record<'de>>,
) -> Option<Error> {
    let mut source = cursors.source(&decoded.leaves, decoded.first_record);
    let start = out.len();
    for _ in 0..decoded.records {
        match converter.read(plan, &mut source) {
            Ok(r) => out.push_back(r),
            Err(e) => {
                if !e.is_record_error() {
                    out.truncate(start);
                }
                return Some(e.at_record(source.record).in_row_group(decoded.group));
            }
        }
        source.record += 1;
    }
    if let Err(e) = source.check_exhausted() {
        out.truncate(start);
        return Some(e.in_row_group(decoded.group));
    }
    None
}
