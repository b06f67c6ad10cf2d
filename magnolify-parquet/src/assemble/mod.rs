//! Assembly, the read half of the Dremel algorithm: a Rust type is resolved
//! against the file's schema into a read plan ([`Resolver`], [`FileNode`],
//! [`list_shape`], [`map_shape`]), and records are assembled from per-leaf
//! cursors over decoded batches ([`RecordSource`]) with the level protocol
//! every converter shares ([`Presence`], [`ListLevels`], [`NullCheck`]).

mod hint;
mod levels;
mod nulls;
pub(crate) mod resolve;
mod source;

pub use levels::{GroupStart, ListLevels, NullCheck, Presence};
pub use resolve::{list_shape, map_shape, FileNode, ListShape, MapShape, Resolver};
pub(crate) use source::Cursors;
pub use source::RecordSource;
