//! Parquet files: a writer that encodes column chunks as records arrive and
//! a reader that decodes only the columns the type needs.

pub(crate) mod reader;
mod writer;

pub use reader::ParquetReader;
pub use writer::{AtomicFile, ParquetWriter, WriterBuilder};
