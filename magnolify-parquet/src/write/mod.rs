//! The write pipeline: the [`RecordWriter`] shreds records into a
//! [`ColumnSink`](crate::convert::ColumnSink), hands batches of whole
//! records to one column writer per leaf, and the encoded chunks go to a
//! [`ChunkSink`] (a file, or a page store).

mod chunk_sink;
mod columns;
mod crate_column;
mod encode;
mod latch;
mod pool;
mod record_writer;
mod settings;

pub(crate) use chunk_sink::page_spec;
pub use chunk_sink::ChunkSink;
pub(crate) use columns::ColumnWriters;
pub(crate) use encode::HybridEncoder;
pub(crate) use latch::Latch;
pub use record_writer::{RecordWriter, DEFAULT_WRITE_BATCH};
