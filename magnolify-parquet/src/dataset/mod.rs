//! Datasets: many files under one root, partitioned Hive-style by field
//! values (`day=2024-01-02/city=Oslo/part-00000-….parquet`), as Spark,
//! Hive, Trino, DuckDB and pyarrow write and read them as one table.
//!
//! - [`DatasetWriter`] routes each record to the file of its partition
//!   (the partition fields are not stored in the files, as Spark does),
//!   rolls files at a row or byte limit, keeps a bounded number of files
//!   open, writes every file atomically and a `_SUCCESS` marker on close.
//! - [`DatasetReader`] finds the files and their partition values, skips
//!   files whose partition values rule out a predicate, reads the others in
//!   parallel and gives each record its partition fields back; or lends
//!   them batch by batch, borrowing their strings and bytes (`build_borrowed`).
//!
//! Partition fields are top-level fields of booleans, integers, strings
//! (or unit enums read as strings) or dates; see [`PartitionValue`].

mod bookkeeping;
mod discover;
mod hive;
mod lending;
mod partitioner;
mod reader;
#[cfg(feature = "object_store")]
mod store_reader;
#[cfg(feature = "object_store")]
mod store_writer;
mod value;
mod writer;
#[cfg(all(test, feature = "derive"))]
mod writer_faults;

pub use bookkeeping::DatasetSummary;
pub use discover::{discover, DatasetFile};
pub use hive::NULL_PARTITION;
pub use reader::{DatasetCounts, DatasetReader, DatasetReaderBuilder};
#[cfg(feature = "object_store")]
pub use store_reader::{StoreDatasetReader, StoreDatasetReaderBuilder, DEFAULT_CONCURRENCY};
#[cfg(feature = "object_store")]
pub use store_writer::{StoreDatasetWriter, DEFAULT_CLOSING};
pub use value::PartitionValue;
pub use writer::{DatasetWriter, DatasetWriterBuilder, SUCCESS_MARKER};

use std::path::Path;
use std::sync::Arc;

use crate::error::Error;

/// An I/O error at `path` (of discovery or of the writer).
fn in_dir(path: &Path, e: std::io::Error) -> Error {
    Error::from(e).in_file(&Some(Arc::from(path)))
}
