//! Dictionary encoding: a dictionary page holds each distinct value once
//! (PLAIN), and data pages hold indices into it (`RLE_DICTIONARY`, or the
//! older `PLAIN_DICTIONARY` with the same layout): one byte of bit width,
//! then an RLE / bit-packed hybrid stream.

use super::plain::Plain;
use crate::values::ColumnValues;

/// Decodes a dictionary page of `count` PLAIN values into `values` (an empty
/// buffer of the column's physical type).
pub(crate) fn decode_dictionary(buf: &[u8], count: usize, mut values: ColumnValues) -> Result<ColumnValues, String> {
    let plain = Plain::new(0, buf.len());
    let mut plain = if matches!(values, ColumnValues::Bool(_)) { plain.for_booleans() } else { plain };
    plain.decode(buf, count, &mut values).map_err(|e| format!("dictionary page: {e}"))?;
    Ok(values)
}

/// Checks that every index names an entry of a dictionary of `len` entries.
pub(crate) fn check_indices(indices: &[u32], len: usize) -> Result<(), String> {
    // One pass without branches, then the error if any.
    match indices.iter().copied().max() {
        Some(max) if max as usize >= len => {
            Err(format!("dictionary index {max} beyond the dictionary's {len} entries"))
        }
        _ => Ok(()),
    }
}

/// Appends the dictionary entries `indices` name to `out`, after checking
/// the indices.
pub(crate) fn gather(dictionary: &ColumnValues, indices: &[u32], out: &mut ColumnValues) -> Result<(), String> {
    check_indices(indices, dictionary.len())?;
    macro_rules! gather {
        ($($variant:ident),*) => {
            match (dictionary, out) {
                $((ColumnValues::$variant(d), ColumnValues::$variant(o)) => {
                    o.extend(indices.iter().map(|&i| d[i as usize]))
                })*
                (ColumnValues::Bytes(d), ColumnValues::Bytes(o)) | (ColumnValues::Fixed(d, _), ColumnValues::Fixed(o, _)) => {
                    for &i in indices {
                        // Every index was checked to name an entry.
                        o.push_value_of(d, i as usize).unwrap_or_else(|| o.push(&[]));
                    }
                }
                (d, o) => return Err(format!("a {} dictionary for a {} column", d.kind(), o.kind())),
            }
        };
    }
    gather!(Bool, I32, I64, I96, F32, F64);
    Ok(())
}

#[cfg(test)]
mod tests {
    use parquet::basic::Type as PhysicalType;

    use super::*;

    #[test]
    fn indices_pick_entries() {
        let dict = decode_dictionary(
            &[1, 0, 0, 0, b'a', 2, 0, 0, 0, b'b', b'c'],
            2,
            ColumnValues::new(PhysicalType::BYTE_ARRAY, 0),
        )
        .unwrap();
        let mut out = ColumnValues::new(PhysicalType::BYTE_ARRAY, 0);
        gather(&dict, &[1, 0, 1], &mut out).unwrap();
        let ColumnValues::Bytes(b) = out else { panic!("type") };
        assert_eq!(b.split(), [&b"bc"[..], b"a", b"bc"]);
    }

    #[test]
    fn out_of_range_indices_and_short_pages_are_errors() {
        let dict = decode_dictionary(&[7, 0, 0, 0], 1, ColumnValues::new(PhysicalType::INT32, 0)).unwrap();
        let mut out = ColumnValues::new(PhysicalType::INT32, 0);
        assert!(gather(&dict, &[0, 1], &mut out).unwrap_err().contains("index 1 beyond the dictionary's 1"));
        gather(&dict, &[0, 0], &mut out).unwrap();
        let ColumnValues::I32(v) = &out else { panic!("type") };
        assert_eq!(v, &[7, 7]);
        let mut wrong = ColumnValues::new(PhysicalType::INT64, 0);
        assert!(gather(&dict, &[0], &mut wrong).unwrap_err().contains("INT32 dictionary for a INT64"));
        let err = decode_dictionary(&[7, 0, 0, 0], 2, ColumnValues::new(PhysicalType::INT32, 0)).unwrap_err();
        assert!(err.contains("dictionary page: 2 values of 4 bytes"), "{err}");
    }
}
