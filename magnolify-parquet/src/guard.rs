//! The boundary with the `parquet` crate: its decoders still panic on some
//! damaged input (arrow-rs #9742), and a reader must not. Each call into the
//! crate on data read from a file runs under [`crate_call`], which turns a
//! panic into [`Error::Damaged`]. Only calls into the crate go through it:
//! a panic in this library's own code is a bug and is left to surface as one.
//!
//! Under `panic = "abort"` nothing can be caught: a panic of the crate then
//! aborts the process, as any panic does in such a build.

use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::error::{Error, Location, Result};

/// Runs `call`, a call into the `parquet` crate, turning a panic into an
/// error at `location`.
pub(crate) fn crate_call<V>(location: impl FnOnce() -> Location, call: impl FnOnce() -> Result<V>) -> Result<V> {
    catch_unwind(AssertUnwindSafe(call)).unwrap_or_else(|panic| {
        let message = panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
            .unwrap_or_else(|| "unknown panic".to_owned());
        Err(Error::damaged(location(), format!("the parquet crate panicked decoding it: {message}")))
    })
}
