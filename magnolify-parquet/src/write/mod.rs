//! The write side: records are shredded into a [`ColumnSink`] and handed in
//! batches of whole records to the column writers.

mod columns;
mod sink;

pub(crate) use columns::ColumnWriters;
pub use sink::{ColumnSink, LeafValues, WriteAt};
