//! Pages in the encodings this library leaves to the `parquet` crate
//! (DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY,
//! BYTE_STREAM_SPLIT, and the deprecated BIT_PACKED levels): the crate's
//! column reader decodes the whole page, levels and values, and the result
//! is read like a page decoded here. Such pages are rare in the files of
//! the common writers, so their extra copy does not matter.
//!
//! The crate's DELTA decoders reserve the value counts their data declares
//! before decoding, so those counts are checked against the page's values
//! first: a few bytes must not make them allocate gigabytes.

use std::collections::VecDeque;

use parquet::basic::Encoding;
use parquet::column::page::{Page, PageReader};
use parquet::column::reader::{get_column_reader, ColumnReader};
use parquet::schema::types::ColumnDescPtr;

use super::page_queue::PageQueue;
use crate::guard::catch;
use crate::values::{ByteBuffer, ColumnValues};

/// Decodes `page` (with the chunk's `dictionary` page, which old pages with
/// BIT_PACKED levels may refer to) into `def`, `rep` and the values it returns.
pub(crate) fn decode_page(
    descr: &ColumnDescPtr,
    dictionary: Option<&Page>,
    page: Page,
    def: &mut Vec<i16>,
    rep: &mut Vec<i16>,
) -> Result<ColumnValues, String> {
    check_delta_counts(descr, &page)?;
    let pages: VecDeque<Page> = dictionary.cloned().into_iter().chain([page]).collect();
    read_all(descr, Box::new(PageQueue { pages }), def, rep)
}

/// Decodes every page of `pages` with the crate's column reader, appending
/// levels to `def` and `rep` (for a column that has them) and returning the
/// values.
pub(crate) fn read_all(
    descr: &ColumnDescPtr,
    pages: Box<dyn PageReader>,
    def: &mut Vec<i16>,
    rep: &mut Vec<i16>,
) -> Result<ColumnValues, String> {
    let reader = get_column_reader(descr.clone(), pages);
    let def = (descr.max_def_level() > 0).then_some(def);
    let rep = (descr.max_rep_level() > 0).then_some(rep);
    let width = usize::try_from(descr.type_length()).unwrap_or(0);
    macro_rules! read {
        ($r:ident, $buffer:expr) => {{
            let mut values = $buffer;
            let mut r = $r;
            catch(|| r.read_records(usize::MAX, def, rep, &mut values))?.map_err(|e| e.to_string())?;
            values
        }};
    }
    let bytes = |values: Vec<_>| {
        values.iter().fold(ByteBuffer::default(), |mut b, v: &parquet::data_type::ByteArray| {
            b.push(v.data());
            b
        })
    };
    Ok(match reader {
        ColumnReader::BoolColumnReader(r) => ColumnValues::Bool(read!(r, Vec::new())),
        ColumnReader::Int32ColumnReader(r) => ColumnValues::I32(read!(r, Vec::new())),
        ColumnReader::Int64ColumnReader(r) => ColumnValues::I64(read!(r, Vec::new())),
        ColumnReader::Int96ColumnReader(r) => ColumnValues::I96(read!(r, Vec::new())),
        ColumnReader::FloatColumnReader(r) => ColumnValues::F32(read!(r, Vec::new())),
        ColumnReader::DoubleColumnReader(r) => ColumnValues::F64(read!(r, Vec::new())),
        ColumnReader::ByteArrayColumnReader(r) => ColumnValues::Bytes(bytes(read!(r, Vec::new()))),
        ColumnReader::FixedLenByteArrayColumnReader(r) => {
            let values: Vec<parquet::data_type::FixedLenByteArray> = read!(r, Vec::new());
            ColumnValues::Fixed(bytes(values.into_iter().map(Into::into).collect()), width)
        }
    })
}

/// Checks the counts the DELTA data of `page` declares (see the module docs).
fn check_delta_counts(descr: &ColumnDescPtr, page: &Page) -> Result<(), String> {
    let (buf, num_values, encoding, start) = match page {
        Page::DataPage { buf, num_values, encoding, def_level_encoding, rep_level_encoding, .. } => {
            let levels = [(descr.max_rep_level(), *rep_level_encoding), (descr.max_def_level(), *def_level_encoding)];
            (buf, *num_values, *encoding, v1_values_start(buf, *num_values, levels))
        }
        Page::DataPageV2 { buf, num_values, encoding, def_levels_byte_len, rep_levels_byte_len, .. } => {
            (buf, *num_values, *encoding, Some(*def_levels_byte_len as usize + *rep_levels_byte_len as usize))
        }
        Page::DictionaryPage { .. } => return Ok(()),
    };
    match start.and_then(|s| buf.get(s..)) {
        Some(values) => check_delta_data(values, encoding, num_values),
        None => Ok(()),
    }
}

/// Offset of the values in a v1 page: after the repetition and then the
/// definition levels (each `(max level, encoding)`), each RLE (with a
/// 4-byte length) or BIT_PACKED. `None` when the levels do not parse; the
/// crate reports that itself.
fn v1_values_start(buf: &[u8], num_values: u32, levels: [(i16, Encoding); 2]) -> Option<usize> {
    let mut at = 0usize;
    for (max, encoding) in levels {
        if max == 0 {
            continue;
        }
        at = at.checked_add(match encoding {
            Encoding::RLE => {
                let len = buf.get(at..at.checked_add(4)?)?;
                4usize.checked_add(u32::from_le_bytes(len.try_into().ok()?) as usize)?
            }
            #[allow(deprecated)]
            Encoding::BIT_PACKED => {
                let width = u64::from(16 - max.leading_zeros());
                usize::try_from((u64::from(num_values) * width).div_ceil(8)).ok()?
            }
            _ => return None,
        })?;
    }
    Some(at)
}

/// The value counts that DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY data
/// declare in their own headers must not exceed the page's values.
fn check_delta_data(values: &[u8], encoding: Encoding, page_values: u32) -> Result<(), String> {
    let limit = u64::from(page_values);
    let too_many =
        |what: &str, n: u64| format!("{encoding} data declares {n} {what} in a page of {page_values} values");
    match encoding {
        Encoding::DELTA_LENGTH_BYTE_ARRAY => match DeltaHeader::parse(values) {
            Some(h) if h.total > limit => Err(too_many("lengths", h.total)),
            _ => Ok(()),
        },
        Encoding::DELTA_BYTE_ARRAY => {
            let Some(prefixes) = DeltaHeader::parse(values) else { return Ok(()) };
            if prefixes.total > limit {
                return Err(too_many("prefix lengths", prefixes.total));
            }
            // The suffixes' own header follows the prefix lengths.
            let suffixes = prefixes.end(values).and_then(|end| DeltaHeader::parse(values.get(end..)?));
            match suffixes {
                Some(h) if h.total > limit => Err(too_many("suffix lengths", h.total)),
                _ => Ok(()),
            }
        }
        _ => Ok(()),
    }
}

/// The header of a DELTA_BINARY_PACKED stream.
struct DeltaHeader {
    /// Values per block and miniblocks per block.
    block: u64,
    miniblocks: u64,
    total: u64,
    /// Bytes of the header.
    len: usize,
}

fn varint(bytes: &[u8], at: &mut usize) -> Option<u64> {
    let mut value = 0u64;
    for shift in (0..70).step_by(7) {
        let b = *bytes.get(*at)?;
        *at += 1;
        value |= u64::from(b & 0x7f).checked_shl(shift)?;
        if b & 0x80 == 0 {
            return Some(value);
        }
    }
    None
}

impl DeltaHeader {
    fn parse(bytes: &[u8]) -> Option<Self> {
        let mut at = 0;
        let block = varint(bytes, &mut at)?;
        let miniblocks = varint(bytes, &mut at)?;
        let total = varint(bytes, &mut at)?;
        varint(bytes, &mut at)?; // first value
        Some(DeltaHeader { block, miniblocks, total, len: at })
    }

    /// Where the stream ends: the header, then for each block a min delta,
    /// one bit width per miniblock and the packed miniblocks that hold values.
    /// `None` if the stream is malformed or runs out (the crate's decoder
    /// fails there first).
    fn end(&self, bytes: &[u8]) -> Option<usize> {
        if self.miniblocks == 0 || self.block == 0 || !self.block.is_multiple_of(self.miniblocks) {
            return None;
        }
        let per_miniblock = self.block / self.miniblocks;
        let miniblocks = usize::try_from(self.miniblocks).ok()?;
        let mut at = self.len;
        let mut left = self.total.saturating_sub(1);
        while left > 0 {
            varint(bytes, &mut at)?; // min delta
            let widths = bytes.get(at..at.checked_add(miniblocks)?)?;
            at += miniblocks;
            for &w in widths {
                if left > 0 {
                    let packed = usize::try_from(u64::from(w).checked_mul(per_miniblock)? / 8).ok()?;
                    at = at.checked_add(packed)?;
                    left = left.saturating_sub(per_miniblock);
                }
            }
            if at > bytes.len() {
                return None;
            }
        }
        Some(at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A DELTA_BINARY_PACKED header: block 128, 4 miniblocks, `total`, first value 0.
    fn header(total: u8) -> Vec<u8> {
        vec![0x80, 0x01, 0x04, total, 0x00]
    }

    #[test]
    fn delta_length_counts_beyond_the_page_are_refused() {
        assert!(check_delta_data(&header(3), Encoding::DELTA_LENGTH_BYTE_ARRAY, 3).is_ok());
        let err = check_delta_data(&header(100), Encoding::DELTA_LENGTH_BYTE_ARRAY, 3).unwrap_err();
        assert!(err.contains("declares 100 lengths in a page of 3 values"), "{err}");
    }

    #[test]
    fn the_suffix_header_of_delta_byte_array_is_found_and_checked() {
        // Prefixes: 3 values, one block: min delta 0, widths [1, 0, 0, 0], one
        // packed miniblock of 32 one-bit deltas (4 bytes). Then the suffixes.
        let mut data = header(3);
        data.extend_from_slice(&[0x00, 1, 0, 0, 0, 0, 0, 0, 0]);
        let prefixes = DeltaHeader::parse(&data).unwrap();
        assert_eq!(prefixes.end(&data), Some(data.len()));
        let mut bad = data.clone();
        bad.extend_from_slice(&header(90));
        let err = check_delta_data(&bad, Encoding::DELTA_BYTE_ARRAY, 3).unwrap_err();
        assert!(err.contains("declares 90 suffix lengths"), "{err}");
        data.extend_from_slice(&header(3));
        assert!(check_delta_data(&data, Encoding::DELTA_BYTE_ARRAY, 3).is_ok());
    }
}
