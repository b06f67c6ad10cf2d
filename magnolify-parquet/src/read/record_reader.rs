//! The one record reader: row groups from any [`RowGroupSource`], decoded
//! in batches of whole records into cursors, assembled by a converter.

use std::collections::VecDeque;
use std::sync::mpsc::SyncSender;
use std::sync::Arc;

use super::batch::{assemble, Batch};
use super::decode::{BatchDecoder, Decoded};
use super::pipeline::{Assemble, HandOver, Workers};
use super::resolved::Resolved;
use super::selection::Selection;
use super::RowGroupSource;
use crate::assemble::Cursors;
use crate::error::{Error, Location, Result};
use crate::filter::{ColumnFilter, Predicate, Records};
use crate::record::{RecordRead, RecordReadOwned};

/// Records decoded at once, unless the reader is told otherwise.
pub const DEFAULT_BATCH_SIZE: usize = 1024;

/// Where assembled batches come from.
enum Decoding<S, R> {
    /// The caller's thread decodes and assembles.
    Inline(Box<BatchDecoder<S>>, Decoded, Cursors),
    /// Worker threads do (see [`Workers`]).
    Threads(Workers<VecDeque<R>>),
    /// Worker threads decode; the caller's thread assembles the records it
    /// lends from `current`, given back to the workers at the next batch.
    Lending {
        workers: Workers<Option<Decoded>>,
        give_back: SyncSender<Decoded>,
        current: Option<Decoded>,
        cursors: Cursors,
    },
    /// Between the two, while the threads start (a failed start leaves it).
    Starting,
}

/// Reads records through converter `C` from the row groups of `S`: an
/// iterator of `Result<C::Owned>` for converters whose records borrow
/// nothing, and batch by batch with [`next_batch`](Self::next_batch) for
/// any (records that borrow from the batch). After an error it ends; a
/// value that does not fit its field (a null, a value out of range) is an
/// error at its own record, after the records before it.
///
/// Batches are decoded and assembled on the caller's thread, or with
/// [`with_threads`](Self::with_threads) on threads of the reader's own;
/// records come in file order either way.
pub struct RecordReader<C: RecordRead, S> {
    resolved: Arc<Resolved<C>>,
    source: Arc<S>,
    decoding: Decoding<S, C::Record<'static>>,
    /// Threads to start at the first record iterated (1: none).
    threads: usize,
    batch: Batch<C::Record<'static>>,
    /// The predicate records must pass, if any.
    filter: Option<Predicate<C::Record<'static>>>,
    /// A predicate bound to the columns, which lent batches pass.
    column_filter: Option<ColumnFilter>,
    /// The column filter's answers for the batch ready to lend (as far as
    /// it could tell) and its error.
    passes: (Vec<bool>, Option<Error>),
    /// Records assembled, and of those, records that passed.
    tested: (u64, u64),
}

impl<C: RecordRead, S: RowGroupSource> RecordReader<C, S> {
    /// A reader of row groups `groups` (all when `None`) of `source`, with
    /// a plan resolved for its schema, decoding on the caller's thread.
    pub fn new(source: S, resolved: Arc<Resolved<C>>, groups: Option<Vec<usize>>, batch_size: usize) -> Result<Self> {
        if !resolved.fits(source.schema()) {
            return Err(Error::argument("the resolved plan was made for another schema than this file's"));
        }
        if batch_size == 0 {
            return Err(Error::argument("the batch size must be at least 1 record"));
        }
        let count = source.num_row_groups();
        let groups = match groups {
            Some(groups) => {
                if let Some(g) = groups.iter().find(|g| **g >= count) {
                    return Err(Error::argument(format!("row group {g} requested, the file has {count}")));
                }
                groups.into()
            }
            None => (0..count).collect(),
        };
        let source = Arc::new(source);
        let decoder = BatchDecoder::new(source.clone(), resolved.columns(), groups, batch_size)?;
        let cursors = Cursors::new(source.schema().clone(), decoder.columns());
        let decoded = Decoded::new(decoder.columns());
        Ok(RecordReader {
            resolved,
            source,
            decoding: Decoding::Inline(Box::new(decoder), decoded, cursors),
            threads: 1,
            batch: Batch::new(),
            filter: None,
            column_filter: None,
            passes: (Vec::new(), None),
            tested: (0, 0),
        })
    }

    /// Decodes only the selected rows of the row groups `selection` names
    /// (call it before reading and before [`with_threads`](Self::with_threads)).
    pub(crate) fn with_selection(mut self, selection: Selection) -> Self {
        if let Decoding::Inline(decoder, _, _) = &mut self.decoding {
            decoder.select(selection);
        }
        self
    }

    /// Lends only the records that pass `predicate`, tested on their
    /// columns (records of any type, those that borrow included).
    pub(crate) fn set_column_filter<P>(&mut self, predicate: Option<&Predicate<P>>) -> Result<()> {
        self.column_filter = match predicate {
            Some(p) => Some(p.bind_columns(self.source.schema(), self.resolved.columns())?),
            None => None,
        };
        Ok(())
    }

    /// Records assembled so far, and of those, records returned (that
    /// passed the predicate, if there is one).
    pub(crate) fn tested(&self) -> (u64, u64) {
        self.tested
    }

    /// The source.
    pub fn source(&self) -> &S {
        &self.source
    }

    /// The resolved plan.
    pub fn resolved(&self) -> &Arc<Resolved<C>> {
        &self.resolved
    }

    /// Reads on `threads` threads: with 2 or more, that many threads of
    /// the reader's own take turns decoding the next batch and assemble the
    /// batches they decoded in parallel, while the caller's thread takes the
    /// records in file order; with 1 (or 0), everything happens on the
    /// caller's thread and no thread is started. The threads start at the
    /// first record iterated, or at the first [`next_batch`](Self::next_batch),
    /// whose records the caller's thread assembles from the batches they
    /// decoded.
    pub fn with_threads(mut self, threads: usize) -> Self {
        self.threads = threads;
        self
    }

    /// The next batch of records, which may borrow from it: they live until
    /// the next call (a lending iterator). `Ok(None)` after the last batch;
    /// after an error, the records of the batch before it come first.
    ///
    /// With [`with_threads`](Self::with_threads) of 2 or more, threads of the
    /// reader's own decode the batches ahead and the caller's thread
    /// assembles them; else the caller's thread does both. A reader built
    /// to lend tests its predicate on the batch's columns; one built to
    /// iterate owned records tests them, and lending from it is an error
    /// (rather than records the predicate would reject); so is lending once
    /// records were iterated on threads, which then own the decoding.
    pub fn next_batch(&mut self) -> Result<Option<Vec<C::Record<'_>>>>
    where
        S: Send + Sync + 'static,
    {
        match self.advance()? {
            true => self.lend().map(Some),
            false => Ok(None),
        }
    }

    /// Makes the next batch ready to [`lend`](Self::lend): `Ok(false)`
    /// after the last. The two halves of [`next_batch`](Self::next_batch),
    /// for a reader of many files that moves to the next file when one
    /// ends (a batch is borrowed only once it is known to exist).
    pub(crate) fn advance(&mut self) -> Result<bool>
    where
        S: Send + Sync + 'static,
    {
        if let Some(e) = self.batch.pending.take() {
            self.batch.done = true;
            return Err(e);
        }
        if self.batch.done {
            return Ok(false);
        }
        if self.filter.is_some() {
            return Err(Error::argument(
                "next_batch on a reader built to iterate owned records with a predicate: iterate them, or build \
                 the reader with `build_borrowed` to lend filtered batches",
            ));
        }
        if !self.batch.records.is_empty() {
            return Err(Error::argument(
                "next_batch after next() left records of the batch untaken: take them with next() first",
            ));
        }
        let threads = self.threads;
        self.start_threads(|decoder, schema, cursors| {
            let (job, give_back) = HandOver::new(decoder.columns());
            let workers = Workers::start(decoder, schema, job, threads)?;
            Ok(Decoding::Lending { workers, give_back, current: None, cursors })
        })?;
        loop {
            if !self.decode_next()? {
                self.batch.done = true;
                return Ok(false);
            }
            if self.worth_lending() {
                return Ok(true);
            }
        }
    }

    /// Decodes the next batch to lend: `Ok(false)` after the last.
    fn decode_next(&mut self) -> Result<bool>
    where
        S: Send + Sync + 'static,
    {
        Ok(match &mut self.decoding {
            Decoding::Inline(decoder, decoded, _) => decoder.next(decoded)?,
            Decoding::Lending { workers, give_back, current, .. } => {
                if let Some(used) = current.take() {
                    // A full channel means enough are waiting: this one is dropped.
                    let _ = give_back.try_send(used);
                }
                match workers.next() {
                    Some((Some(Some(decoded)), error)) => {
                        self.batch.pending = error;
                        *current = Some(decoded);
                        true
                    }
                    Some((_, Some(e))) => {
                        self.batch.done = true;
                        return Err(e);
                    }
                    Some((_, None)) | None => false,
                }
            }
            Decoding::Threads(_) | Decoding::Starting => {
                return Err(Error::argument(
                    "next_batch on a reader whose records were iterated on threads: lend batches from the start, \
                     or read with 1 thread",
                ))
            }
        })
    }

    /// Tests the decoded batch with the column filter, if there is one:
    /// whether to lend it (a record passes, or an error is due). A batch
    /// that nothing passes is still assembled, as an owned read assembles
    /// the records it tests, so that a value which cannot be read is an
    /// error here too; then it is counted and passed over.
    fn worth_lending(&mut self) -> bool {
        let Some(filter) = &mut self.column_filter else { return true };
        let (decoded, cursors) = match &mut self.decoding {
            Decoding::Inline(_, decoded, cursors) => (&*decoded, cursors),
            Decoding::Lending { current: Some(decoded), cursors, .. } => (&*decoded, cursors),
            // Not reached: a batch was just decoded. `lend` reports it.
            _ => return true,
        };
        let batch = Records {
            leaves: &decoded.leaves,
            count: decoded.records,
            first: decoded.first_record,
            group: decoded.group,
        };
        self.passes = filter.test(batch);
        if self.passes.0.contains(&true) || self.passes.1.is_some() || self.batch.pending.is_some() {
            return true;
        }
        let (converter, plan) = self.resolved.parts();
        let mut records = VecDeque::new();
        if assemble(converter, plan, cursors, decoded, &mut records).is_some() {
            return true;
        }
        self.tested.0 += records.len() as u64;
        false
    }

    /// The records of the batch [`advance`](Self::advance) made ready,
    /// which borrow from it; once per batch.
    pub(crate) fn lend(&mut self) -> Result<Vec<C::Record<'_>>> {
        let (decoded, cursors) = match &mut self.decoding {
            Decoding::Inline(_, decoded, cursors) => (&*decoded, cursors),
            Decoding::Lending { current: Some(decoded), cursors, .. } => (&*decoded, cursors),
            _ => return Err(Error::bug(Location::default(), "a batch lent before it was decoded")),
        };
        let (converter, plan) = self.resolved.parts();
        let mut records = VecDeque::with_capacity(decoded.records);
        let mut error = assemble(converter, plan, cursors, decoded, &mut records);
        let assembled = records.len();
        let (records, read) = match &self.column_filter {
            None => (Vec::from(records), assembled),
            Some(_) => {
                let (passes, filter_error) = std::mem::take(&mut self.passes);
                if passes.len() < assembled {
                    // The filter failed before assembly did: its error is the earlier.
                    error = filter_error;
                }
                let keep = match &error {
                    Some(e) if !e.is_record_error() => 0,
                    _ => passes.len().min(assembled),
                };
                let passed = records.into_iter().zip(passes).take(keep).filter_map(|(r, pass)| pass.then_some(r));
                (passed.collect(), keep)
            }
        };
        self.tested.0 += read as u64;
        self.tested.1 += records.len() as u64;
        match error {
            // Nothing to lend before the error: the error now, not an empty batch.
            Some(e) if records.is_empty() => {
                self.batch.done = true;
                Err(e)
            }
            error => {
                self.batch.pending = error;
                Ok(records)
            }
        }
    }
}

impl<C: RecordRead, S> RecordReader<C, S> {
    /// Hands the caller's decoding to threads, once, when there are to be
    /// 2 or more: `start` makes what takes its place from the decoder, the
    /// schema and the cursors. A failed start leaves no decoding behind.
    fn start_threads(
        &mut self,
        start: impl FnOnce(
            BatchDecoder<S>,
            &Arc<parquet::schema::types::SchemaDescriptor>,
            Cursors,
        ) -> Result<Decoding<S, C::Record<'static>>>,
    ) -> Result<()> {
        if self.threads >= 2 && matches!(self.decoding, Decoding::Inline(..)) {
            if let Decoding::Inline(decoder, _, cursors) = std::mem::replace(&mut self.decoding, Decoding::Starting) {
                let schema = self.resolved.schema().clone();
                self.decoding = start(*decoder, &schema, cursors)?;
            }
        }
        Ok(())
    }
}

impl<C: RecordReadOwned, S: RowGroupSource> RecordReader<C, S> {
    /// Returns only the records that pass `filter` (all when `None`).
    pub(crate) fn set_filter(&mut self, filter: Option<Predicate<C::Owned>>) {
        self.filter = filter;
    }
}

impl<C, S> RecordReader<C, S>
where
    C: RecordReadOwned + Send + Sync + 'static,
    C::Owned: Send + 'static,
    S: RowGroupSource + Send + Sync + 'static,
{
    /// Decodes and assembles the next batch.
    fn load(&mut self) -> Result<()> {
        if self.column_filter.is_some() {
            return Err(Error::argument(
                "next() on a reader built by `build_borrowed` with a predicate, which it tests on lent batches: \
                 lend them with next_batch, or build the reader with `build` to iterate owned records",
            ));
        }
        let (threads, resolved) = (self.threads, self.resolved.clone());
        self.start_threads(|decoder, schema, _| {
            Ok(Decoding::Threads(Workers::start(decoder, schema, Assemble(resolved), threads)?))
        })?;
        match &mut self.decoding {
            Decoding::Inline(decoder, decoded, cursors) => {
                if !decoder.next(decoded)? {
                    self.batch.done = true;
                    return Ok(());
                }
                let (converter, plan) = self.resolved.parts();
                self.batch.pending = assemble(converter, plan, cursors, decoded, &mut self.batch.records);
            }
            Decoding::Threads(workers) => match workers.next() {
                Some((records, error)) => {
                    self.batch.records = records.unwrap_or_default();
                    self.batch.pending = error;
                }
                None => self.batch.done = true,
            },
            Decoding::Lending { .. } => {
                return Err(Error::argument(
                    "next() on a reader that lent batches on threads: iterate from the start, or lend every batch",
                ))
            }
            Decoding::Starting => {
                return Err(Error::bug(crate::error::Location::default(), "the reading threads failed to start"))
            }
        }
        Ok(())
    }
}

impl<C, S> Iterator for RecordReader<C, S>
where
    C: RecordReadOwned + Send + Sync + 'static,
    C::Owned: Send + 'static,
    S: RowGroupSource + Send + Sync + 'static,
{
    type Item = Result<C::Owned>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let next = match self.batch.ready() {
                Some(answer) => answer,
                None => {
                    let loaded = self.load();
                    self.batch.after_load(loaded)
                }
            };
            if let Some(Ok(record)) = &next {
                self.tested.0 += 1;
                if self.filter.as_ref().is_some_and(|p| !p.test(record)) {
                    continue;
                }
                self.tested.1 += 1;
            }
            return next;
        }
    }
}
