//! Whole column chunks decoded at once into one comparable form, by this
//! library's decoders and by the `parquet` crate's: what the differential
//! test compares on every fixture file and what the page-decoder fuzz
//! target drives. Not a public API (re-exported hidden as `__decode`).

use parquet::column::page::PageReader;
use parquet::schema::types::ColumnDescPtr;

use super::{reference, ColumnDecoder};
use crate::error::{Error, Location, Result};
use crate::values::{ColumnValues, LeafBatch};

/// A column chunk's levels (for a column that has them) and values, each
/// value as bytes: fixed-width values little-endian, booleans one byte,
/// INT96 its 12 bytes, byte arrays as they are.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct DecodedChunk {
    /// Definition levels.
    pub def: Vec<i16>,
    /// Repetition levels.
    pub rep: Vec<i16>,
    /// The values of the defined levels.
    pub values: Vec<Vec<u8>>,
}

/// Decodes all of `pages` with this library's decoders, whose pages hold
/// at most `max_levels` levels in all.
pub fn decode_chunk(descr: ColumnDescPtr, pages: Box<dyn PageReader>, max_levels: u64) -> Result<DecodedChunk> {
    let mut batch = LeafBatch::new(descr.physical_type(), descr.type_length());
    ColumnDecoder::new(descr, pages, max_levels).fill(usize::MAX, &mut batch)?;
    let values = (0..batch.len()).filter_map(|i| batch.locate(i)).map(|(v, i)| value_bytes(v, i)).collect();
    Ok(DecodedChunk { def: batch.def, rep: batch.rep, values })
}

/// Decodes all of `pages` with the `parquet` crate's column reader.
pub fn decode_chunk_with_crate(descr: ColumnDescPtr, pages: Box<dyn PageReader>) -> Result<DecodedChunk> {
    let mut chunk = DecodedChunk::default();
    let values = reference::read_all(&descr, pages, &mut chunk.def, &mut chunk.rep)
        .map_err(|e| Error::damaged(Location::column(descr.path().string()), e))?;
    chunk.values = (0..values.len()).map(|i| value_bytes(&values, i)).collect();
    Ok(chunk)
}

fn value_bytes(values: &ColumnValues, i: usize) -> Vec<u8> {
    let bytes = match values {
        ColumnValues::Bool(v) => v.get(i).map(|b| vec![u8::from(*b)]),
        ColumnValues::I32(v) => v.get(i).map(|x| x.to_le_bytes().to_vec()),
        ColumnValues::I64(v) => v.get(i).map(|x| x.to_le_bytes().to_vec()),
        ColumnValues::I96(v) => v.get(i).map(|x| x.data().iter().flat_map(|w| w.to_le_bytes()).collect()),
        ColumnValues::F32(v) => v.get(i).map(|x| x.to_le_bytes().to_vec()),
        ColumnValues::F64(v) => v.get(i).map(|x| x.to_le_bytes().to_vec()),
        ColumnValues::Bytes(b) | ColumnValues::Fixed(b, _) => b.get(i).map(<[u8]>::to_vec),
    };
    bytes.unwrap_or_default()
}
