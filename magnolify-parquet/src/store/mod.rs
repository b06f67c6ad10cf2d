//! Parquet objects in object stores (S3, GCS, Azure, in memory...) through
//! the [`object_store`] crate, with `async` entry points; decoding is the
//! same as for files. Behind the `object_store` feature.
//!
//! - [`StoreReaderBuilder::open`] fetches the footer with one suffix
//!   request (stores that serve suffix ranges: S3, GCS, HTTP, local and in
//!   memory; not Azure's), as [`StoreReaderBuilder::open_source`] does of
//!   any [`RangedSource`] (Iceberg's file IO); `build` then plans the scan as a file's reader
//!   does (with a predicate, after one request for the bloom filters and
//!   page indexes it can use), and the [`StoreReader`] it returns fetches
//!   the column chunks of the columns the type reads row group by row
//!   group, neighbouring chunks coalesced into one request, a window of
//!   row groups ahead; each is decoded by the one file reader and freed
//!   once read.
//! - [`StoreDatasetReader`](crate::dataset::StoreDatasetReader) reads a
//!   Hive-partitioned dataset under a prefix, several objects fetched at
//!   once, skipping those whose partition values rule out a predicate;
//!   [`StoreDatasetWriter`](crate::dataset::StoreDatasetWriter) writes one.
//! - [`StoreWriter`] uploads a file as it is written, a few parts at once,
//!   by a multipart upload completed only when the file is (a file smaller
//!   than one part is put whole, in one request).

mod ahead;
mod fetched;
mod fetcher;
mod located;
mod object_reader;
mod reader;
mod source;
mod upload;
mod writer;

pub use fetched::FetchedRanges;
pub use fetcher::FOOTER_FETCH;
pub use object_reader::{StoreReader, DEFAULT_WINDOW};
pub use reader::{StoreReaderBuilder, DEFAULT_COALESCE};
pub use source::RangedSource;
pub use upload::{DEFAULT_PARTS_IN_FLIGHT, DEFAULT_PART_SIZE};
pub use writer::StoreWriter;

pub(crate) use ahead::Ahead;
pub(crate) use located::{object_file, store_error};
