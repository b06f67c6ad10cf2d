//! The footer's column orders, with the type-defined order for float
//! columns.
//!
//! The `parquet` crate (60) declares `IEEE_754_TOTAL_ORDER` for every FLOAT,
//! DOUBLE and FLOAT16 column, an order parquet-format added in 2.12: readers
//! that predate it (pyarrow 26, and pyiceberg's metrics through it) take it
//! for an unknown order and ignore those columns' min and max, so they
//! cannot prune by them. This library writes float statistics by the
//! type-defined order's rules (`Bounds::type_defined`), which every reader
//! knows, and says so here: in the serialized `FileMetaData` (Thrift's
//! compact protocol), each `ColumnOrder` union whose field is 2
//! (`IEEE754TotalOrder`) gets field 1 (`TypeDefinedOrder`) instead. Both
//! are empty structs written as one byte of field header, so the footer
//! keeps its length and every offset in it holds.

use super::reader::thrift::Input;

/// The field of `FileMetaData` that lists the column orders.
const COLUMN_ORDERS: i16 = 7;

/// A `ColumnOrder` union's field header (delta 2 from field 0, a struct)
/// for `IEEE754TotalOrder`, and the one for `TypeDefinedOrder` (delta 1).
const IEEE_754_TOTAL_ORDER: u8 = 0x2C;
const TYPE_DEFINED_ORDER: u8 = 0x1C;

/// The Thrift type of a struct (each `ColumnOrder` union).
const STRUCT: u8 = 12;

/// Declares the type-defined order for the float columns of the serialized
/// `FileMetaData` in `metadata`; returns how many entries changed, or why
/// the bytes are not a footer this knows (they are then left as they were).
/// The reader's Thrift scanner walks the fields (`file::reader::thrift`).
pub(crate) fn type_defined_floats(metadata: &mut [u8]) -> Result<usize, &'static str> {
    const MALFORMED: &str = "the metadata ends early or is not Thrift";
    let mut changed = Vec::new();
    let read = {
        let bytes: &[u8] = metadata;
        let mut at = Input::new(bytes, bytes.len() as u64);
        let mut last = 0i16;
        while let Some((id, kind)) = at.field(&mut last).ok_or(MALFORMED)? {
            if id != COLUMN_ORDERS {
                at.skip_value(kind).ok_or(MALFORMED)?;
                continue;
            }
            let (count, element) = at.list_header(kind).ok_or("column orders that are not a list")?;
            if !Input::<&[u8]>::elements_are_structs(element) {
                return Err("column orders that are not structs");
            }
            for _ in 0..count {
                // Each union: one field header, its empty struct, the stop.
                let pos = at.consumed() as usize;
                if bytes.get(pos) == Some(&IEEE_754_TOTAL_ORDER) {
                    changed.push(pos);
                }
                at.skip_value(STRUCT).ok_or(MALFORMED)?;
            }
        }
        at.consumed()
    };
    if read != metadata.len() as u64 {
        return Err("bytes after the footer's metadata");
    }
    for &pos in &changed {
        metadata[pos] = TYPE_DEFINED_ORDER;
    }
    Ok(changed.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_that_are_no_footer_are_left_as_they_are() {
        // Field 7 a list of 2 structs, each a union of field 2 (an empty
        // struct): the two are changed.
        let mut footer = vec![0x79, 0x2C, 0x2C, 0x00, 0x00, 0x1C, 0x00, 0x00, 0x00];
        assert_eq!(type_defined_floats(&mut footer), Ok(1));
        assert_eq!(footer, [0x79, 0x2C, 0x1C, 0x00, 0x00, 0x1C, 0x00, 0x00, 0x00]);
        // Cut short, or with bytes after it: an error, nothing changed.
        let mut cut = vec![0x79, 0x2C, 0x2C, 0x00];
        assert_eq!(type_defined_floats(&mut cut), Err("the metadata ends early or is not Thrift"));
        assert_eq!(cut, [0x79, 0x2C, 0x2C, 0x00]);
        let mut longer = vec![0x79, 0x1C, 0x2C, 0x00, 0x00, 0x00, 0x07];
        assert_eq!(type_defined_floats(&mut longer), Err("bytes after the footer's metadata"));
        assert_eq!(longer[2], 0x2C);
    }
}
