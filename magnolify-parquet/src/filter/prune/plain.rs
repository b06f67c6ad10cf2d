//! The PLAIN bytes a value of a column is stored as: what a writer hashes
//! into a bloom filter and writes into a dictionary page, so that both are
//! looked up without decoding what they hold.

use parquet::basic::Type as Physical;
use parquet::schema::types::ColumnDescriptor;

use crate::filter::key::Key;
use crate::logical::Annotation;

/// Every PLAIN form a value equal to `key` may have in `column` (both
/// zeros of a float); empty when none is known (a key out of the column's
/// range, booleans, decimals of varying width, FLOAT16, INT96), which looks
/// nothing up.
pub(super) fn plain_forms(key: &Key, column: &ColumnDescriptor) -> Vec<Vec<u8>> {
    let annotation = Annotation::of(column.self_type());
    let unsigned = matches!(annotation, Annotation::Integer { signed: false, .. });
    match (key, column.physical_type()) {
        (Key::Int(v), Physical::INT32) if unsigned => {
            u32::try_from(*v).map(|v| vec![v.to_le_bytes().to_vec()]).unwrap_or_default()
        }
        (Key::Int(v), Physical::INT32) => i32::try_from(*v).map(|v| vec![v.to_le_bytes().to_vec()]).unwrap_or_default(),
        (Key::Int(v), Physical::INT64) if unsigned => {
            u64::try_from(*v).map(|v| vec![v.to_le_bytes().to_vec()]).unwrap_or_default()
        }
        (Key::Int(v), Physical::INT64) => i64::try_from(*v).map(|v| vec![v.to_le_bytes().to_vec()]).unwrap_or_default(),
        (Key::Int(v), Physical::FIXED_LEN_BYTE_ARRAY) if matches!(annotation, Annotation::Decimal { .. }) => {
            let width = usize::try_from(column.type_length()).unwrap_or(0);
            let bytes = v.to_be_bytes();
            match width {
                1..=16 => vec![bytes[16 - width..].to_vec()],
                _ => Vec::new(),
            }
        }
        (Key::Float(v), Physical::DOUBLE) if *v == 0.0 => {
            vec![0f64.to_le_bytes().to_vec(), (-0f64).to_le_bytes().to_vec()]
        }
        (Key::Float(v), Physical::DOUBLE) => vec![v.to_le_bytes().to_vec()],
        (Key::Float(v), Physical::FLOAT) if *v == 0.0 => {
            vec![0f32.to_le_bytes().to_vec(), (-0f32).to_le_bytes().to_vec()]
        }
        (Key::Float(v), Physical::FLOAT) => vec![(*v as f32).to_le_bytes().to_vec()],
        (Key::Bytes(b), Physical::BYTE_ARRAY | Physical::FIXED_LEN_BYTE_ARRAY) => vec![b.clone()],
        // Booleans, decimals of varying width, FLOAT16, INT96: not known.
        _ => Vec::new(),
    }
}
