//! Which min and max can be believed: parquet-format's `ColumnOrder` and
//! sort orders, the deprecated signed fields, and the known bugs of old
//! writers; and the bounds' PLAIN bytes as keys.

use parquet::basic::{ColumnOrder, SortOrder, Type as Physical};
use parquet::file::metadata::ParquetMetaData;
use parquet::file::statistics::Statistics;
use parquet::schema::types::ColumnDescriptor;

use crate::filter::key::Key;
use crate::logical::{float16_to_f64, Annotation};

/// The chunk's min and max as keys, when they can be trusted for this
/// column (parquet-format's `ColumnOrder` and sort orders, and the known
/// bugs of old writers).
pub(super) fn trusted_bounds(
    file: &ParquetMetaData,
    index: usize,
    column: &ColumnDescriptor,
    stats: &Statistics,
) -> Option<(Key, Key)> {
    let (min, max) = (stats.min_bytes_opt()?, stats.max_bytes_opt()?);
    trusted(file, index, column, min, max, stats.is_min_max_deprecated())
}

/// `min` and `max` (PLAIN bytes, from statistics or a column index) as
/// keys, when the column's order and writer let them be trusted;
/// `deprecated` says they come from the legacy signed fields.
pub(super) fn trusted(
    file: &ParquetMetaData,
    index: usize,
    column: &ColumnDescriptor,
    min: &[u8],
    max: &[u8],
    deprecated: bool,
) -> Option<(Key, Key)> {
    let annotation = Annotation::of(column.self_type());
    let physical = column.physical_type();
    let unsigned = matches!(annotation, Annotation::Integer { signed: false, .. });
    let decimal = matches!(annotation, Annotation::Decimal { .. });
    let bytes = matches!(physical, Physical::BYTE_ARRAY | Physical::FIXED_LEN_BYTE_ARRAY);
    // Orders that differ from the legacy signed one: unsigned integers,
    // decimals and byte strings.
    let order_sensitive = unsigned || decimal || bytes;
    let equal = min == max;
    match file.file_metadata().column_order(index) {
        ColumnOrder::TYPE_DEFINED_ORDER(SortOrder::UNDEFINED) => return None,
        ColumnOrder::TYPE_DEFINED_ORDER(_) => {}
        // Floats in total order (the `parquet` crate's files since 58, this
        // library's before it declared the type-defined order): a NaN bound
        // makes no key (below), and keys compare as numbers, so the two
        // zeros, which the total order tells apart, compare equal.
        ColumnOrder::IEEE_754_TOTAL_ORDER => {}
        ColumnOrder::INT96_TIMESTAMP_ORDER => return None,
        // No order in the footer: the legacy signed order, right for
        // signed types only.
        ColumnOrder::UNDEFINED if order_sensitive && !equal => return None,
        ColumnOrder::UNDEFINED => {}
        _ => return None,
    }
    // The deprecated min/max fields are signed-ordered.
    if deprecated && order_sensitive && !equal {
        return None;
    }
    // parquet-mr before 1.8.0 wrote byte-array bounds in the wrong order
    // (PARQUET-251).
    // (min == max too: its bug reused the value buffer, leaving the last value in both).
    if bytes && !trusted_writer(file.file_metadata().created_by()) {
        return None;
    }
    let key = |raw: &[u8]| key_of(raw, physical, &annotation, column);
    Some((key(min)?, key(max)?))
}

/// Whether `created_by` names a writer whose byte-array statistics are
/// sound: anything but a missing or unparsable name and parquet-mr before
/// 1.8.0 (or without a version).
fn trusted_writer(created_by: Option<&str>) -> bool {
    let Some(created_by) = created_by.filter(|c| !c.trim().is_empty()) else { return false };
    let Some((app, rest)) = created_by.split_once(" version ") else { return !created_by.starts_with("parquet-mr") };
    if app.trim() != "parquet-mr" {
        return true;
    }
    let version = rest.split([' ', '-']).next().unwrap_or("");
    let mut parts = version.split('.').map(|p| p.parse::<u32>().ok());
    match (parts.next().flatten(), parts.next().flatten()) {
        (Some(major), Some(minor)) => (major, minor) >= (1, 8),
        _ => false,
    }
}

/// A statistics value (PLAIN bytes, no length prefix) as a key.
pub(super) fn key_of(
    raw: &[u8],
    physical: Physical,
    annotation: &Annotation,
    column: &ColumnDescriptor,
) -> Option<Key> {
    let unsigned = matches!(annotation, Annotation::Integer { signed: false, .. });
    match physical {
        Physical::BOOLEAN => Some(Key::Bool(*raw.first()? != 0)),
        Physical::INT32 => {
            let v = i32::from_le_bytes(raw.try_into().ok()?);
            Some(Key::Int(if unsigned { i128::from(v as u32) } else { i128::from(v) }))
        }
        Physical::INT64 => {
            let v = i64::from_le_bytes(raw.try_into().ok()?);
            Some(Key::Int(if unsigned { i128::from(v as u64) } else { i128::from(v) }))
        }
        Physical::FLOAT => float_key(f64::from(f32::from_le_bytes(raw.try_into().ok()?))),
        Physical::DOUBLE => float_key(f64::from_le_bytes(raw.try_into().ok()?)),
        Physical::INT96 => None,
        Physical::BYTE_ARRAY | Physical::FIXED_LEN_BYTE_ARRAY => match annotation {
            Annotation::Decimal { .. } => signed_be(raw).map(Key::Int),
            Annotation::Float16 if column.type_length() == 2 => {
                float_key(float16_to_f64(u16::from_le_bytes(raw.try_into().ok()?)))
            }
            Annotation::Float16 | Annotation::Interval | Annotation::Other(_) => None,
            _ => Some(Key::Bytes(raw.to_vec())),
        },
    }
}

fn float_key(v: f64) -> Option<Key> {
    (!v.is_nan()).then_some(Key::Float(v))
}

/// A big-endian two's complement integer of 1 to 16 bytes.
fn signed_be(raw: &[u8]) -> Option<i128> {
    if raw.is_empty() || raw.len() > 16 {
        return None;
    }
    let fill = if raw[0] & 0x80 != 0 { 0xFF } else { 0 };
    let mut bytes = [fill; 16];
    bytes[16 - raw.len()..].copy_from_slice(raw);
    Some(i128::from_be_bytes(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writers_with_sound_byte_statistics() {
        assert!(trusted_writer(Some("parquet-mr version 1.8.0 (build abc)")));
        assert!(trusted_writer(Some("parquet-mr version 1.12.3")));
        assert!(trusted_writer(Some("parquet-cpp-arrow version 14.0.0")));
        assert!(trusted_writer(Some("magnolify-parquet-rs 0.1.0")));
        assert!(!trusted_writer(Some("parquet-mr version 1.7.9")));
        assert!(!trusted_writer(Some("parquet-mr")));
        assert!(!trusted_writer(Some("")));
        assert!(!trusted_writer(None));
    }

    #[test]
    fn decimal_bounds_decode() {
        assert_eq!(signed_be(&[0xFF, 0x38]), Some(-200));
        assert_eq!(signed_be(&[0x00, 0xC8]), Some(200));
        assert_eq!(signed_be(&[]), None);
    }
}
