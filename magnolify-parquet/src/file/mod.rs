//! Parquet files: a writer that encodes column chunks as records arrive and
//! a reader that decodes only the columns the type needs. Both are thin
//! adapters of the one record writer and reader, over a file as the chunk
//! sink and as the row-group source.

mod atomic;
mod chunks;
mod column_orders;
pub(crate) mod disk;
mod field_columns;
mod page_crc;
mod parts;
pub(crate) mod reader;
mod writer;

pub use atomic::AtomicFile;
pub use parts::{PartSink, Parts};
pub use reader::{CheckedMetadata, ParquetReader, ReaderBuilder};
pub use writer::{ParquetWriter, WriterBuilder, DEFAULT_MAX_ROW_GROUP_BYTES};
