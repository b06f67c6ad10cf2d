//! The read side: a Rust type is resolved against the file's schema into a
//! read plan ([`Resolved`]), row groups from a [`RowGroupSource`] are decoded
//! in batches of whole records into a [`RecordSource`]'s cursors, and the
//! [`RecordReader`] assembles records from them.

pub(crate) mod batch;
mod levels;
mod nulls;
mod record_reader;
pub(crate) mod resolve;
mod row_groups;
mod source;

pub use levels::{GroupStart, ListLevels, NullCheck, Presence};
pub use record_reader::{RecordReader, Resolved, DEFAULT_BATCH_SIZE};
pub use resolve::{list_shape, map_shape, FileNode, ListShape, MapShape, Resolver};
pub use row_groups::RowGroupSource;
pub use source::RecordSource;
