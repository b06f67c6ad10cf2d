//! Reading on several threads. Decoding a column chunk is sequential (each
//! page follows the last), but once a batch of whole records is decoded,
//! assembling it needs nothing from any other batch. So each worker takes
//! the shared [`BatchDecoder`] in turn, decodes the next batch, lets go of
//! it, and assembles that batch while another worker decodes the next; the
//! caller's thread only puts the assembled batches back in file order.
//!
//! Memory stays bounded: no batch is started more than two per worker
//! ahead of the one the caller is reading ([`Window`]), so a slow consumer
//! (or one slow worker) stops the others.
//!
//! What a worker does with a batch once decoded is its [`Job`]: assemble
//! owned records ([`Assemble`]), or hand the decoded batch over as it is
//! ([`HandOver`]) for the caller to assemble records that borrow from it.

use std::collections::{BTreeMap, VecDeque};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;

use parquet::schema::types::{ColumnDescPtr, SchemaDescriptor};

use super::batch::assemble;
use super::decode::{BatchDecoder, Decoded};
use super::resolved::Resolved;
use super::RowGroupSource;
use crate::assemble::Cursors;
use crate::error::{Error, Location, Result};
use crate::record::{RecordRead, RecordReadOwned};

/// What a worker made of batch number `seq` (batches are numbered in file
/// order, the end counting as one).
struct Assembled<P> {
    seq: u64,
    /// What the job made of it, and the error that stopped it (then the
    /// reader ends).
    payload: P,
    error: Option<Error>,
    /// The batch after the last: nothing in it, the reader ends.
    end: bool,
}

/// What a worker does with each batch it decoded.
pub(crate) trait Job: Send + Sync + 'static {
    /// What it makes of a batch.
    type Out: Send + 'static;
    /// The batch `decoded` made into `Out` (assembling with `cursors`), and
    /// the error that stopped it.
    fn finish(&self, cursors: &mut Cursors, decoded: &mut Decoded) -> (Self::Out, Option<Error>);
    /// What a batch that failed to decode (or the end) carries.
    fn empty(&self) -> Self::Out;
}

/// Assembles owned records on the worker.
pub(crate) struct Assemble<C: RecordRead>(pub(crate) Arc<Resolved<C>>);

impl<C: RecordReadOwned + Send + Sync + 'static> Job for Assemble<C>
where
    C::Owned: Send + 'static,
{
    type Out = VecDeque<C::Owned>;

    fn finish(&self, cursors: &mut Cursors, decoded: &mut Decoded) -> (Self::Out, Option<Error>) {
        let mut records: VecDeque<C::Owned> = VecDeque::with_capacity(decoded.records);
        let (converter, plan) = self.0.parts();
        let error = assemble(converter, plan, cursors, decoded, &mut records);
        (records, error)
    }

    fn empty(&self) -> Self::Out {
        VecDeque::new()
    }
}

/// Hands each decoded batch over, taking an emptied one back in its place
/// (one the reader gave back, else a new one).
pub(crate) struct HandOver {
    columns: Vec<(usize, ColumnDescPtr)>,
    returned: Mutex<Receiver<Decoded>>,
}

impl HandOver {
    /// A job for `columns`, and where the reader gives batches back.
    pub(crate) fn new(columns: &[(usize, ColumnDescPtr)]) -> (Self, SyncSender<Decoded>) {
        let (give_back, returned) = sync_channel(4);
        (HandOver { columns: columns.to_vec(), returned: Mutex::new(returned) }, give_back)
    }
}

impl Job for HandOver {
    type Out = Option<Decoded>;

    fn finish(&self, _: &mut Cursors, decoded: &mut Decoded) -> (Self::Out, Option<Error>) {
        let reused = self.returned.lock().ok().and_then(|r| r.try_recv().ok());
        let empty = reused.unwrap_or_else(|| Decoded::new(&self.columns));
        (Some(std::mem::replace(decoded, empty)), None)
    }

    fn empty(&self) -> Self::Out {
        None
    }
}

/// The decoder the workers share, and the number of the next batch it decodes.
struct Shared<S> {
    decoder: BatchDecoder<S>,
    seq: u64,
}

/// How far ahead of the reader the workers may go, and whether they may go
/// on at all. It has a lock of its own, never held while waiting for the
/// decoder's: a worker waiting here (holding the decoder) is always woken
/// by the reader taking a batch or by a stop, which need only this lock.
struct Window {
    /// Batches the reader has taken, and whether no batch may start any
    /// more (the end, an error, or a reader that is gone).
    state: Mutex<(u64, bool)>,
    moved: Condvar,
    /// Batches started at most ahead of the first one not taken.
    ahead: u64,
}

impl Window {
    /// Waits until batch `seq` may start; `false` once stopped.
    fn wait_for(&self, seq: u64) -> bool {
        let Ok(mut state) = self.state.lock() else { return false };
        while !state.1 && seq >= state.0 + self.ahead {
            match self.moved.wait(state) {
                Ok(s) => state = s,
                Err(_) => return false,
            }
        }
        !state.1
    }

    /// The reader has taken `taken` batches.
    fn advance(&self, taken: u64) {
        if let Ok(mut state) = self.state.lock() {
            state.0 = taken;
        }
        self.moved.notify_all();
    }

    /// No batch starts any more; waiting workers give up.
    fn stop(&self) {
        if let Ok(mut state) = self.state.lock() {
            state.1 = true;
        }
        self.moved.notify_all();
    }
}

/// The workers, seen from the reader.
pub(crate) struct Workers<P> {
    assembled: Receiver<Assembled<P>>,
    window: Arc<Window>,
    /// Batches that came ahead of their turn.
    early: BTreeMap<u64, Assembled<P>>,
    next: u64,
    /// Joined when the reader is dropped: a worker ends by itself after the
    /// last batch or an error, or, once the reader is gone, at its next
    /// window wait or send (at most one batch later).
    threads: Vec<JoinHandle<()>>,
}

impl<P: Send + 'static> Workers<P> {
    /// Starts `threads` workers doing `job` with the batches of `decoder`.
    pub(crate) fn start<J, S>(
        decoder: BatchDecoder<S>,
        schema: &Arc<SchemaDescriptor>,
        job: J,
        threads: usize,
    ) -> Result<Self>
    where
        J: Job<Out = P>,
        S: RowGroupSource + Send + Sync + 'static,
    {
        let (send, assembled) = sync_channel(threads);
        let columns = decoder.columns().to_vec();
        let shared = Arc::new(Mutex::new(Shared { decoder, seq: 0 }));
        let window =
            Arc::new(Window { state: Mutex::new((0, false)), moved: Condvar::new(), ahead: 2 * threads as u64 });
        let job = Arc::new(job);
        let mut handles = Vec::with_capacity(threads);
        for _ in 0..threads {
            let (send, shared, job, window) = (send.clone(), shared.clone(), job.clone(), window.clone());
            let cursors = Cursors::new(schema.clone(), &columns);
            let decoded = Decoded::new(&columns);
            let handle = std::thread::Builder::new()
                .name("magnolify-parquet read".to_owned())
                .spawn(move || work(&shared, &window, &*job, cursors, decoded, &send))
                .map_err(|e| Error::argument(format!("could not start a reading thread ({e}); read with 1 thread")))?;
            handles.push(handle);
        }
        Ok(Workers { assembled, window, early: BTreeMap::new(), next: 0, threads: handles })
    }
}

impl<P> Workers<P> {
    /// What the job made of the next batch in file order, and the error
    /// after it; `None` after the last batch.
    pub(crate) fn next(&mut self) -> Option<(Option<P>, Option<Error>)> {
        let batch = loop {
            if let Some(batch) = self.early.remove(&self.next) {
                break batch;
            }
            match self.assembled.recv() {
                Ok(batch) => {
                    self.early.insert(batch.seq, batch);
                }
                // Every worker says when it is done: a closed channel
                // without the batch means one died without a word.
                Err(_) => {
                    return Some((
                        None,
                        Some(Error::bug(Location::default(), "a reading thread stopped without a result")),
                    ))
                }
            }
        };
        self.next += 1;
        self.window.advance(self.next);
        (!batch.end).then_some((Some(batch.payload), batch.error))
    }
}

impl<P> Drop for Workers<P> {
    /// Stops the workers and waits for them, so that none outlives the
    /// reader (nor keeps its input open): those waiting for the reader
    /// wake and end, and one blocked sending a batch fails its send once
    /// the receiving end is gone.
    fn drop(&mut self) {
        self.window.stop();
        let (_, gone) = sync_channel(0);
        drop(std::mem::replace(&mut self.assembled, gone));
        for handle in self.threads.drain(..) {
            // A worker that panicked has reported it as a batch's error.
            let _ = handle.join();
        }
    }
}

/// One worker: decodes a batch under the lock, assembles it outside,
/// sends it; until the end, an error, or a reader that hung up.
fn work<J: Job, S: RowGroupSource>(
    shared: &Mutex<Shared<S>>,
    window: &Window,
    job: &J,
    mut cursors: Cursors,
    mut decoded: Decoded,
    send: &SyncSender<Assembled<J::Out>>,
) {
    loop {
        let (seq, more) = {
            // A poisoned lock means another worker panicked while decoding:
            // that worker has reported it.
            let Ok(mut shared) = shared.lock() else { return };
            if !window.wait_for(shared.seq) {
                return;
            }
            let seq = shared.seq;
            shared.seq += 1;
            let more = catch_unwind(AssertUnwindSafe(|| shared.decoder.next(&mut decoded)))
                .unwrap_or_else(|_| Err(Error::bug(Location::default(), "decoding a batch panicked")));
            (seq, more)
        };
        let batch = match more {
            Ok(true) => {
                let (payload, error) = catch_unwind(AssertUnwindSafe(|| job.finish(&mut cursors, &mut decoded)))
                    .unwrap_or_else(|_| {
                        (job.empty(), Some(Error::bug(Location::default(), "assembling a batch panicked")))
                    });
                Assembled { seq, payload, error, end: false }
            }
            Ok(false) => Assembled { seq, payload: job.empty(), error: None, end: true },
            Err(e) => Assembled { seq, payload: job.empty(), error: Some(e), end: false },
        };
        let last = batch.end || batch.error.is_some();
        if last {
            // Later batches are not wanted (those already decoding are
            // dropped by the reader). Not through the decoder's lock: a
            // worker may hold it while it waits for the reader, and the
            // reader waits for this batch.
            window.stop();
        }
        // A failed send means the reader was dropped: nothing more to do.
        if send.send(batch).is_err() || last {
            return;
        }
    }
}
