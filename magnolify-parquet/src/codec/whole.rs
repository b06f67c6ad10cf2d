//! What the column decoder decodes a whole page at a time: the levels, and
//! the values of the DELTA encodings and BYTE_STREAM_SPLIT.

use std::ops::Range;

use parquet::basic::Encoding;

use super::byte_stream_split::decode_byte_stream_split;
use super::delta;
use super::hybrid::{bit_width, Hybrid};
use crate::values::ColumnValues;

/// Decodes a whole page's values in `encoding` (one of the DELTA encodings
/// or BYTE_STREAM_SPLIT) into `values`, an empty buffer of the column's
/// type; the page holds at most `max_values` values.
#[allow(deprecated)]
pub(super) fn decode_whole(
    encoding: Encoding,
    section: &[u8],
    max_values: usize,
    mut values: ColumnValues,
) -> Result<ColumnValues, String> {
    match (encoding, &mut values) {
        (Encoding::DELTA_BINARY_PACKED, ColumnValues::I32(v)) => {
            delta::decode_binary_packed_i32(section, max_values, v)?;
        }
        (Encoding::DELTA_BINARY_PACKED, ColumnValues::I64(v)) => {
            delta::decode_binary_packed_i64(section, max_values, v)?;
        }
        (Encoding::DELTA_LENGTH_BYTE_ARRAY, ColumnValues::Bytes(b)) => {
            delta::decode_length_byte_array(section, max_values, b)?;
        }
        (Encoding::DELTA_BYTE_ARRAY, ColumnValues::Bytes(b)) => {
            delta::decode_byte_array(section, max_values, None, b)?;
        }
        (Encoding::DELTA_BYTE_ARRAY, ColumnValues::Fixed(b, len)) => {
            delta::decode_byte_array(section, max_values, Some(*len), b)?;
        }
        (
            Encoding::BYTE_STREAM_SPLIT,
            ColumnValues::I32(_)
            | ColumnValues::I64(_)
            | ColumnValues::F32(_)
            | ColumnValues::F64(_)
            | ColumnValues::Fixed(..),
        ) => {
            decode_byte_stream_split(section, &mut values)?;
        }
        (encoding, values) => return Err(format!("{} values in {encoding}", values.kind())),
    }
    Ok(values)
}

/// The little-endian `u32` at `at`.
pub(super) fn u32_at(buf: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(buf.get(at..at.checked_add(4)?)?.try_into().ok()?))
}

/// Decodes `n` levels of at most `max` from the hybrid stream in
/// `start..end` and checks them: the bit width allows values above `max`.
pub(super) fn decode_levels(
    buf: &[u8],
    range: Range<usize>,
    n: usize,
    (max, kind): (i16, &str),
    into: &mut Vec<i16>,
) -> Result<(), String> {
    Hybrid::new(range.start, range.end, bit_width(max as u32))?
        .decode_into(buf, n, into, |v| v as i16)
        .map_err(|e| format!("{kind} levels: {e}"))?;
    check_levels(into, max, kind)
}

/// Checks that every level lies in `0..=max`.
fn check_levels(levels: &[i16], max: i16, kind: &str) -> Result<(), String> {
    match levels.iter().find(|l| **l < 0 || **l > max) {
        Some(l) => Err(format!("{kind} level {l} outside 0..={max}")),
        None => Ok(()),
    }
}
