//! Object stores that misbehave on purpose, for the tests and benches of
//! the store readers and writers: [`Wrapped`] passes every request to an
//! inner store after asking its [`Behaviour`] (wait, or fail), and counts
//! the requests and the multipart uploads left open. [`Latency`] adds a
//! fixed delay to every request (a store far away); [`Faults`] fails one
//! chosen request in one chosen way.

mod faults;
mod wrapped;

pub use faults::{Fault, Faults};
pub use wrapped::{Behaviour, Counting, Passes, Request, Wrapped};

use std::time::Duration;

use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use object_store::path::Path;

/// Every request waits `.0` before it reaches the inner store (on tokio's
/// timer: run it on a runtime with time enabled).
#[derive(Clone, Copy, Debug)]
pub struct Latency(pub Duration);

impl Behaviour for Latency {
    fn before(&self, _n: usize, _request: Request, _location: &Path) -> BoxFuture<'static, object_store::Result<()>> {
        tokio::time::sleep(self.0).map(Ok).boxed()
    }
}
