//! Parquet objects in object stores (S3, GCS, Azure, in memory...) through
//! the [`object_store`] crate, with `async` entry points; decoding is the
//! same as for files. Behind the `object_store` feature.
//!
//! - [`StoreReaderBuilder::open`] fetches the footer with one suffix
//!   request (stores that serve suffix ranges: S3, GCS, HTTP, local and in
//!   memory; not Azure's); `build` then fetches only the column chunks of the columns
//!   the type reads, in the row groups read (pruned by a predicate's
//!   statistics), neighbouring chunks coalesced into one request; the
//!   records are then read from memory by the usual [`ParquetReader`](crate::ParquetReader).
//! - [`StoreDataset`](crate::dataset::StoreDataset) reads a
//!   Hive-partitioned dataset under a prefix, object after object, skipping
//!   those whose partition values rule out a predicate;
//!   [`StoreDatasetWriter`](crate::dataset::StoreDatasetWriter) writes one.
//! - [`StoreWriter`] uploads a file as it is written, part after part, by a
//!   multipart upload completed only when the file is.
//!
//! Fetched chunks are held in memory until the reader is dropped: read
//! large objects a few row groups at a time (with
//! [`ReaderBuilder::with_row_groups`](crate::ReaderBuilder::with_row_groups)
//! through [`StoreReaderBuilder::settings`]).

mod fetched;
mod reader;
mod writer;

pub use fetched::FetchedRanges;
pub use reader::{StoreReaderBuilder, DEFAULT_COALESCE, FOOTER_FETCH};
pub use writer::{StoreWriter, DEFAULT_PART_SIZE};

pub(crate) use reader::object_file;

use crate::error::Error;

/// An object store's error, at the object it concerns.
pub(crate) fn store_error(path: &object_store::path::Path, error: object_store::Error) -> Error {
    Error::from(std::io::Error::other(error)).in_file(&Some(reader::object_file(path)))
}
