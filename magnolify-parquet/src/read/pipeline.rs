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

use std::collections::{BTreeMap, VecDeque};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;

use super::batch::assemble;
use super::decode::{BatchDecoder, Decoded};
use super::resolved::Resolved;
use super::RowGroupSource;
use crate::assemble::Cursors;
use crate::error::{Error, Location, Result};
use crate::record::RecordReadOwned;

/// What a worker made of batch number `seq` (batches are numbered in file
/// order, the end counting as one).
struct Assembled<R> {
    seq: u64,
    /// The records, and the error that stopped them (then the reader ends).
    records: VecDeque<R>,
    error: Option<Error>,
    /// The batch after the last: no records, the reader ends.
    end: bool,
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
pub(crate) struct Workers<R> {
    assembled: Receiver<Assembled<R>>,
    window: Arc<Window>,
    /// Batches that came ahead of their turn.
    early: BTreeMap<u64, Assembled<R>>,
    next: u64,
    /// Joined when the reader is dropped: a worker ends by itself after the
    /// last batch or an error, or, once the reader is gone, at its next
    /// window wait or send (at most one batch later).
    threads: Vec<JoinHandle<()>>,
}

impl<R: Send + 'static> Workers<R> {
    /// Starts `threads` workers assembling with `resolved` the batches of `decoder`.
    pub(crate) fn start<C, S>(decoder: BatchDecoder<S>, resolved: Arc<Resolved<C>>, threads: usize) -> Result<Self>
    where
        C: RecordReadOwned<Owned = R> + Send + Sync + 'static,
        S: RowGroupSource + Send + Sync + 'static,
    {
        let (send, assembled) = sync_channel(threads);
        let schema = resolved.schema().clone();
        let columns = decoder.columns().to_vec();
        let shared = Arc::new(Mutex::new(Shared { decoder, seq: 0 }));
        let window =
            Arc::new(Window { state: Mutex::new((0, false)), moved: Condvar::new(), ahead: 2 * threads as u64 });
        let mut handles = Vec::with_capacity(threads);
        for _ in 0..threads {
            let (send, shared, resolved, window) = (send.clone(), shared.clone(), resolved.clone(), window.clone());
            let cursors = Cursors::new(schema.clone(), &columns);
            let decoded = Decoded::new(&columns);
            let handle = std::thread::Builder::new()
                .name("magnolify-parquet read".to_owned())
                .spawn(move || work(&shared, &window, &resolved, cursors, decoded, &send))
                .map_err(|e| Error::argument(format!("could not start a reading thread ({e}); read with 1 thread")))?;
            handles.push(handle);
        }
        Ok(Workers { assembled, window, early: BTreeMap::new(), next: 0, threads: handles })
    }
}

impl<R> Workers<R> {
    /// The records of the next batch in file order and the error after
    /// them; `None` after the last batch.
    pub(crate) fn next(&mut self) -> Option<(VecDeque<R>, Option<Error>)> {
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
                        VecDeque::new(),
                        Some(Error::bug(Location::default(), "a reading thread stopped without a result")),
                    ))
                }
            }
        };
        self.next += 1;
        self.window.advance(self.next);
        (!batch.end).then_some((batch.records, batch.error))
    }
}

impl<R> Drop for Workers<R> {
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
fn work<C: RecordReadOwned, S: RowGroupSource>(
    shared: &Mutex<Shared<S>>,
    window: &Window,
    resolved: &Resolved<C>,
    mut cursors: Cursors,
    mut decoded: Decoded,
    send: &SyncSender<Assembled<C::Owned>>,
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
                let mut records: VecDeque<C::Owned> = VecDeque::with_capacity(decoded.records);
                let error = catch_unwind(AssertUnwindSafe(|| {
                    let (converter, plan) = resolved.parts();
                    assemble(converter, plan, &mut cursors, &decoded, &mut records)
                }))
                .unwrap_or_else(|_| {
                    records.clear();
                    Some(Error::bug(Location::default(), "assembling a batch panicked"))
                });
                Assembled { seq, records, error, end: false }
            }
            Ok(false) => Assembled { seq, records: VecDeque::new(), error: None, end: true },
            Err(e) => Assembled { seq, records: VecDeque::new(), error: Some(e), end: false },
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
