//! The Rust peers, each used the way its documentation shows, into and
//! from a Parquet file held in memory.

pub mod arrow;
pub mod parquet_derive;
pub mod row_api;
pub mod typed_arrow;

/// Any peer's error.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// An error for a value of an unexpected shape.
pub(crate) fn unexpected(column: &str, found: impl std::fmt::Debug) -> BoxError {
    format!("{column}: unexpected {found:?}").into()
}
