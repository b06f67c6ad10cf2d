//! This library's own column chunk encoder: dictionary, PLAIN and RLE
//! pages, statistics, page index and bloom filters, byte-compatible with
//! what the `parquet` crate's column writer makes of the same values.

mod bloom;
mod chunk;
#[cfg(test)]
mod chunk_tests;
mod compress;
mod dictionary;
mod hybrid;
mod page;
mod plain;
mod stats;
#[cfg(test)]
mod testing;

pub(crate) use chunk::ChunkEncoder;
pub(crate) use compress::Compressor;
pub(crate) use hybrid::HybridEncoder;
