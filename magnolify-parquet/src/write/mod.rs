//! The write side: records are shredded into a [`ColumnSink`], handed in
//! batches of whole records to the column writers by the [`RecordWriter`],
//! and the encoded chunks go to a [`ChunkSink`] (a file, or a page store).

mod chunk_sink;
mod columns;
mod record_writer;
mod sink;

pub use chunk_sink::ChunkSink;
pub(crate) use columns::ColumnWriters;
pub use record_writer::{RecordWriter, DEFAULT_WRITE_BATCH};
pub use sink::{ColumnSink, LeafValues, WriteAt};
