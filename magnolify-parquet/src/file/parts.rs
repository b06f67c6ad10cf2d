//! The one bridge from a file writer, which writes bytes as it goes and
//! blocks on nothing, to an async upload, which sends them in parts: the
//! writer's sink cuts its bytes into parts of a fixed size, and the
//! uploader takes each part once it is full, then what is left at the end.

use std::collections::VecDeque;
use std::io::{self, Write};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use bytes::Bytes;

/// Full parts not yet taken, and the part being filled.
#[derive(Debug)]
struct Cut {
    full: VecDeque<Bytes>,
    filling: Vec<u8>,
    size: usize,
}

/// A file writer's sink that cuts the bytes into parts, for [`Parts`] to
/// hand on; made by [`Parts::new`].
#[derive(Debug)]
pub struct PartSink(Arc<Mutex<Cut>>);

/// The uploader's side of a [`PartSink`]: the parts it has cut.
///
/// ```
/// use std::io::Write;
/// use magnolify_parquet::file::Parts;
///
/// let (mut sink, parts) = Parts::new(4);
/// sink.write_all(b"PAR1 and more")?;
/// assert_eq!(parts.next_full().as_deref(), Some(&b"PAR1"[..]));
/// assert_eq!(parts.next_full().as_deref(), Some(&b" and"[..]));
/// assert_eq!(parts.next_full().as_deref(), Some(&b" mor"[..]));
/// assert_eq!(parts.next_full(), None);
/// assert_eq!(&parts.rest()[..], b"e");
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Parts(Arc<Mutex<Cut>>);

impl Parts {
    /// A sink cutting its bytes into parts of `size` bytes (at least 1),
    /// and its parts.
    pub fn new(size: usize) -> (PartSink, Parts) {
        let size = size.max(1);
        let cut = Arc::new(Mutex::new(Cut { full: VecDeque::new(), filling: Vec::with_capacity(size), size }));
        (PartSink(cut.clone()), Parts(cut))
    }

    /// The oldest full part not yet taken.
    pub fn next_full(&self) -> Option<Bytes> {
        lock(&self.0).full.pop_front()
    }

    /// Whether a full part is waiting.
    pub fn has_full(&self) -> bool {
        !lock(&self.0).full.is_empty()
    }

    /// The bytes of the part being filled (the last, once the file is
    /// written), taken.
    pub fn rest(&self) -> Bytes {
        let mut cut = lock(&self.0);
        let size = cut.size;
        Bytes::from(std::mem::replace(&mut cut.filling, Vec::with_capacity(size)))
    }
}

/// A panic elsewhere while the lock was held leaves whole bytes: each
/// change under it is one `extend` or one move.
fn lock(cut: &Mutex<Cut>) -> MutexGuard<'_, Cut> {
    cut.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Write for PartSink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut cut = lock(&self.0);
        let mut rest = buf;
        while !rest.is_empty() {
            let room = cut.size - cut.filling.len();
            let (now, later) = rest.split_at(room.min(rest.len()));
            cut.filling.extend_from_slice(now);
            if cut.filling.len() == cut.size {
                let size = cut.size;
                let full = std::mem::replace(&mut cut.filling, Vec::with_capacity(size));
                cut.full.push_back(Bytes::from(full));
            }
            rest = later;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
