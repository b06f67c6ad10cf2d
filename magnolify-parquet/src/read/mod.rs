//! The read pipeline: row groups from a [`RowGroupSource`] (a file's, a page
//! store's) are decoded in batches of whole records into cursors, and the
//! [`RecordReader`] assembles records from them with a converter resolved
//! once ([`Resolved`]).

pub(crate) mod batch;
mod constant_columns;
mod decode;
mod options;
mod pipeline;
mod record_reader;
mod resolved;
mod row_groups;
pub(crate) mod selection;

pub use record_reader::{RecordReader, DEFAULT_BATCH_SIZE};
pub use resolved::Resolved;

/// Threads a reader or writer uses unless told otherwise: the machine's
/// available parallelism.
pub(crate) fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
}
pub(crate) use constant_columns::ConstantColumns;
pub(crate) use options::Limits;
pub use options::ReadOptions;
pub use row_groups::RowGroupSource;
pub(crate) use row_groups::{BoxedSource, SourceLayer};
