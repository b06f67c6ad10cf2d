//! Futures started ahead of need (the fetches of row groups, or of whole
//! objects), their outputs taken in the order they were started or as
//! they finish. Nothing is spawned: they run while their owner awaits
//! [`Ahead::next`], and [`Ahead::progress`] polls them between times (the
//! owner calls it as it hands out records), which sends their requests
//! early. Whether a response lands before the owner next waits depends on
//! the runtime: on tokio's multi-thread runtime the stores' HTTP clients
//! move the bytes on tasks of their own; on a current-thread one, only
//! when the owner waits (the S3 test in `tests/it/object_stores.rs` counts
//! a request made, not yet answered, right after a build).

use std::collections::VecDeque;
use std::future::Future;
use std::task::{Context, Poll};

use futures_util::stream::{FuturesOrdered, FuturesUnordered};
use futures_util::StreamExt;

pub(crate) struct Ahead<F: Future> {
    running: Running<F>,
    /// Outputs ready, in the order they are to be taken.
    ready: VecDeque<F::Output>,
    /// Records handed out since the futures were last polled.
    nudges: u32,
}

/// Records handed out per poll of the futures ahead (see [`Ahead::nudge_due`]).
const NUDGE_EVERY: u32 = 256;

enum Running<F: Future> {
    Ordered(FuturesOrdered<F>),
    Unordered(FuturesUnordered<F>),
}

impl<F: Future> Ahead<F> {
    /// None yet; outputs in the order of [`push`](Self::push) when
    /// `ordered`, else as they finish.
    pub(crate) fn new(ordered: bool) -> Self {
        let running = match ordered {
            true => Running::Ordered(FuturesOrdered::new()),
            false => Running::Unordered(FuturesUnordered::new()),
        };
        Ahead { running, ready: VecDeque::new(), nudges: 0 }
    }

    /// Futures started and not taken yet (running or finished).
    pub(crate) fn len(&self) -> usize {
        let running = match &self.running {
            Running::Ordered(q) => q.len(),
            Running::Unordered(q) => q.len(),
        };
        running + self.ready.len()
    }

    pub(crate) fn push(&mut self, future: F) {
        match &mut self.running {
            Running::Ordered(q) => q.push_back(future),
            Running::Unordered(q) => q.push(future),
        }
    }

    /// Polls the running futures once, without waiting for any; the
    /// outputs they give are kept for [`next`](Self::next).
    pub(crate) async fn progress(&mut self) {
        std::future::poll_fn(|cx| {
            self.poll_progress(cx);
            Poll::Ready(())
        })
        .await;
    }

    /// [`progress`](Self::progress) from a `poll`: the running futures
    /// wake `cx` when they can go on.
    pub(crate) fn poll_progress(&mut self, cx: &mut Context<'_>) {
        let Ahead { running, ready, .. } = self;
        loop {
            let polled = match running {
                Running::Ordered(q) if !q.is_empty() => q.poll_next_unpin(cx),
                Running::Unordered(q) if !q.is_empty() => q.poll_next_unpin(cx),
                _ => return,
            };
            match polled {
                Poll::Ready(Some(output)) => ready.push_back(output),
                _ => return,
            }
        }
    }

    /// Counts a record handed out by the owner: whether this one is due to
    /// poll the futures ahead (once every 256; the owner then calls
    /// [`poll_progress`](Self::poll_progress)), which keeps the cost of
    /// polling small against that of the records.
    pub(crate) fn nudge_due(&mut self) -> bool {
        self.nudges += 1;
        let due = self.nudges >= NUDGE_EVERY;
        if due {
            self.nudges = 0;
        }
        due
    }

    /// An output ready now, without waiting.
    pub(crate) fn take_ready(&mut self) -> Option<F::Output> {
        self.ready.pop_front()
    }

    /// The next output, once its future finishes; `None` when none is left.
    pub(crate) async fn next(&mut self) -> Option<F::Output> {
        std::future::poll_fn(|cx| self.poll_next(cx)).await
    }

    /// [`next`](Self::next) from a `poll`.
    pub(crate) fn poll_next(&mut self, cx: &mut Context<'_>) -> Poll<Option<F::Output>> {
        if let Some(output) = self.ready.pop_front() {
            return Poll::Ready(Some(output));
        }
        match &mut self.running {
            Running::Ordered(q) => q.poll_next_unpin(cx),
            Running::Unordered(q) => q.poll_next_unpin(cx),
        }
    }
}
