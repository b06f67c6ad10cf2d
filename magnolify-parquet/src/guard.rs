//! The boundary with the `parquet` crate: its page reader (headers,
//! decompression) and footer decoding may still panic on some damaged input
//! (arrow-rs #9742), and a reader must not. Each call into the
//! crate on data read from a file runs under [`crate_call`] (or [`catch`]),
//! which turns a panic into an error. Only calls into the crate go through
//! it: a panic in this library's own code is a bug and is left to surface
//! as one.
//!
//! Under `panic = "abort"` nothing can be caught: a panic of the crate then
//! aborts the process, as any panic does in such a build.

use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::error::{Error, Location, Result};

/// Runs `call`, a call into the `parquet` crate, turning a panic into an
/// error at `location`.
pub(crate) fn crate_call<V>(location: impl FnOnce() -> Location, call: impl FnOnce() -> Result<V>) -> Result<V> {
    catch(call).unwrap_or_else(|message| Err(Error::damaged(location(), message)))
}

/// Runs `call`, a call into the `parquet` crate; a panic becomes the
/// message of a damaged-data error.
pub(crate) fn catch<V>(call: impl FnOnce() -> V) -> std::result::Result<V, String> {
    catch_unwind(AssertUnwindSafe(call)).map_err(|panic| {
        let message = panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
            .unwrap_or_else(|| "unknown panic".to_owned());
        format!("the parquet crate panicked decoding it: {message}")
    })
}
