//! Shredding, the write half of the Dremel algorithm: records are striped
//! into per-leaf buffers of values and levels ([`ColumnSink`]), following
//! the levels with [`WriteAt`].

mod sink;

pub(crate) use sink::LeafBuffer;
pub use sink::{ColumnSink, LeafValues, WriteAt};
