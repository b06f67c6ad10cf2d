//! One request failed on purpose: the `at`-th, in one of the ways a real
//! store fails.

use std::time::Duration;

use bytes::Bytes;
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use object_store::path::Path;
use object_store::Result;

use super::wrapped::{Behaviour, Request};

/// How the chosen request fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The store returns an error (a 500, a reset connection).
    Error,
    /// The store answers after a while with a timeout error, as an HTTP
    /// client with a request timeout does.
    Timeout,
    /// A get returns half its body, as a connection closed early does
    /// (other requests pass).
    ShortBody,
    /// The object is not found (it was listed, then deleted).
    NotFound,
}

impl Fault {
    pub const ALL: [Fault; 4] = [Fault::Error, Fault::Timeout, Fault::ShortBody, Fault::NotFound];
}

/// Fails request number `at` (counted from 1) with `fault`; every other
/// request passes.
#[derive(Clone, Copy, Debug)]
pub struct Faults {
    pub at: usize,
    pub fault: Fault,
}

/// How long a request that times out waits (short: the tests run it for
/// every request of a read).
const TIMEOUT: Duration = Duration::from_millis(2);

impl Behaviour for Faults {
    fn before(&self, n: usize, request: Request, location: &Path) -> BoxFuture<'static, Result<()>> {
        if n != self.at {
            return futures_util::future::ready(Ok(())).boxed();
        }
        let source = format!("injected at request {n} ({request:?})").into();
        match self.fault {
            Fault::Error => {
                futures_util::future::ready(Err(object_store::Error::Generic { store: "Faults", source })).boxed()
            }
            Fault::Timeout => tokio::time::sleep(TIMEOUT)
                .map(move |()| {
                    let source = format!("timed out after {TIMEOUT:?}: {source}").into();
                    Err(object_store::Error::Generic { store: "Faults", source })
                })
                .boxed(),
            Fault::NotFound => {
                let path = location.to_string();
                futures_util::future::ready(Err(object_store::Error::NotFound { path, source })).boxed()
            }
            Fault::ShortBody => futures_util::future::ready(Ok(())).boxed(),
        }
    }

    fn body(&self, n: usize, bytes: Bytes) -> Bytes {
        match (n == self.at, self.fault) {
            (true, Fault::ShortBody) => bytes.slice(..bytes.len() / 2),
            _ => bytes,
        }
    }
}
