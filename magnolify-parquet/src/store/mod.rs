//! Parquet objects in object stores (S3, GCS, Azure, in memory...) through
//! the [`object_store`] crate, with `async` entry points; decoding is the
//! same as for files. Behind the `object_store` feature.
//!
//! - [`StoreReaderBuilder::open`] fetches the footer with one suffix
//!   request (stores that serve suffix ranges: S3, GCS, HTTP, local and in
//!   memory; not Azure's); `build` then plans the scan as a file's reader
//!   does (with a predicate, after one request for the bloom filters and
//!   page indexes it can use) and fetches only the column chunks of the
//!   columns the type reads, in the row groups read, neighbouring chunks
//!   coalesced into one request; the records are then read from memory by
//!   the usual [`ParquetReader`](crate::ParquetReader).
//! - [`StoreDatasetReader`](crate::dataset::StoreDatasetReader) reads a
//!   Hive-partitioned dataset under a prefix, object after object, skipping
//!   those whose partition values rule out a predicate;
//!   [`StoreDatasetWriter`](crate::dataset::StoreDatasetWriter) writes one.
//! - [`StoreWriter`] uploads a file as it is written, part after part, by a
//!   multipart upload completed only when the file is.
//!
//! Fetched chunks are held in memory until the reader is dropped: read
//! large objects a few row groups at a time (with
//! [`ReadOptions::row_groups`](crate::ReadOptions::row_groups)).

mod fetched;
mod located;
mod reader;
mod writer;

pub use fetched::FetchedRanges;
pub use reader::{StoreReaderBuilder, DEFAULT_COALESCE, FOOTER_FETCH};
pub use writer::{StoreWriter, DEFAULT_PART_SIZE};

pub(crate) use located::{object_file, store_error};
