//! Decoding on a thread of its own: the [`BatchDecoder`] runs a batch or
//! two ahead of assembly, which stays on the caller's thread, so that the
//! two stages overlap. Batches come back in file order through a bounded
//! channel; their buffers go back to the decoder to be reused.

use std::sync::mpsc::{channel, sync_channel, Receiver, Sender};
use std::thread::JoinHandle;

use super::decode::{BatchDecoder, Decoded};
use super::RowGroupSource;
use crate::error::{Error, Location, Result};

/// Batches decoded ahead, at most.
const AHEAD: usize = 1;

/// The decoding thread, seen from the reader.
pub(crate) struct DecodeThread {
    /// Each batch, then `Ok(None)` at the end (or the error that stopped it).
    decoded: Receiver<Result<Option<Decoded>>>,
    recycle: Sender<Decoded>,
    /// Kept so that the thread is not detached silently; it ends when the
    /// reader drops its channels.
    _thread: JoinHandle<()>,
}

impl DecodeThread {
    /// Starts decoding with `decoder` on a new thread.
    pub(crate) fn start<S: RowGroupSource + Send + Sync + 'static>(mut decoder: BatchDecoder<S>) -> Result<Self> {
        let (send, decoded) = sync_channel::<Result<Option<Decoded>>>(AHEAD);
        let (recycle, spare) = channel::<Decoded>();
        let columns = decoder.columns().to_vec();
        let thread = std::thread::Builder::new()
            .name("magnolify-parquet decode".to_owned())
            .spawn(move || loop {
                let mut batch = spare.try_recv().unwrap_or_else(|_| Decoded::new(&columns));
                let answer = decoder.next(&mut batch).map(|more| more.then_some(batch));
                let last = !matches!(answer, Ok(Some(_)));
                // A failed send means the reader was dropped: nothing more to do.
                if send.send(answer).is_err() || last {
                    return;
                }
            })
            .map_err(|e| Error::argument(format!("could not start a decoding thread ({e}); read with 1 thread")))?;
        Ok(DecodeThread { decoded, recycle, _thread: thread })
    }

    /// The next batch, `None` after the last.
    pub(crate) fn next(&mut self) -> Result<Option<Decoded>> {
        match self.decoded.recv() {
            Ok(answer) => answer,
            // The thread always says when it is done: a closed channel means
            // it panicked, which must not pass for the end of the file.
            Err(_) => Err(Error::bug(Location::default(), "the decoding thread stopped (a panic)")),
        }
    }

    /// Hands a batch's buffers back for reuse.
    pub(crate) fn recycle(&self, batch: Decoded) {
        // The thread may have ended: the buffers are then dropped.
        let _ = self.recycle.send(batch);
    }
}
