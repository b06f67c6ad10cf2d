//! The read side: a Rust type is resolved against the file's schema into a
//! read plan, columns are decoded in batches of whole records into a
//! [`RecordSource`], and records are assembled from it.

pub(crate) mod batch;
mod levels;
pub mod resolve;
mod source;

pub use levels::{GroupStart, ListLevels, NullCheck, Presence};
pub use resolve::{list_shape, map_shape, FileNode, ListShape, MapShape, Resolver};
pub use source::RecordSource;
