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

/// The field of `FileMetaData` that lists the column orders.
const COLUMN_ORDERS: i16 = 7;

/// A `ColumnOrder` union's field header (delta 2 from field 0, a struct)
/// for `IEEE754TotalOrder`, and the one for `TypeDefinedOrder` (delta 1).
const IEEE_754_TOTAL_ORDER: u8 = 0x2C;
const TYPE_DEFINED_ORDER: u8 = 0x1C;

/// Declares the type-defined order for the float columns of the serialized
/// `FileMetaData` in `metadata`; returns how many entries changed, or why
/// the bytes are not a footer this knows (they are then left as they were).
pub(crate) fn type_defined_floats(metadata: &mut [u8]) -> Result<usize, &'static str> {
    let mut at = Cursor { bytes: metadata, pos: 0 };
    let mut last = 0i16;
    let mut changed = Vec::new();
    loop {
        let (id, kind) = match at.field_header(last)? {
            None => break,
            Some(field) => field,
        };
        last = id;
        if id != COLUMN_ORDERS || kind != LIST {
            at.skip(kind, 0)?;
            continue;
        }
        let (count, element) = at.list_header()?;
        if element != STRUCT {
            return Err("column orders that are not structs");
        }
        for _ in 0..count {
            // Each union: one field header, its empty struct, the stop.
            if at.peek()? == IEEE_754_TOTAL_ORDER {
                changed.push(at.pos);
            }
            at.skip(STRUCT, 0)?;
        }
    }
    if at.pos != metadata.len() {
        return Err("bytes after the footer's metadata");
    }
    for &pos in &changed {
        metadata[pos] = TYPE_DEFINED_ORDER;
    }
    Ok(changed.len())
}

/// Thrift compact protocol types.
const BOOL_TRUE: u8 = 1;
const BOOL_FALSE: u8 = 2;
const BYTE: u8 = 3;
const I16: u8 = 4;
const I32: u8 = 5;
const I64: u8 = 6;
const DOUBLE: u8 = 7;
const BINARY: u8 = 8;
const LIST: u8 = 9;
const SET: u8 = 10;
const MAP: u8 = 11;
const STRUCT: u8 = 12;

/// Deeper than any footer nests.
const MAX_DEPTH: usize = 64;

/// A reading position in serialized Thrift.
struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Result<u8, &'static str> {
        self.bytes.get(self.pos).copied().ok_or("the metadata ends early")
    }

    fn byte(&mut self) -> Result<u8, &'static str> {
        let b = self.peek()?;
        self.pos += 1;
        Ok(b)
    }

    fn varint(&mut self) -> Result<u64, &'static str> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            value |= u64::from(b & 0x7F) << shift;
            if b & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err("a varint of more than 10 bytes")
    }

    /// A struct's next field (its id and type), `None` at its stop.
    fn field_header(&mut self, last: i16) -> Result<Option<(i16, u8)>, &'static str> {
        let b = self.byte()?;
        if b == 0 {
            return Ok(None);
        }
        let (delta, kind) = (b >> 4, b & 0x0F);
        let id = match delta {
            0 => {
                let zigzag = self.varint()?;
                i16::try_from((zigzag >> 1) as i64 ^ -((zigzag & 1) as i64)).map_err(|_| "a field id out of range")?
            }
            delta => last.checked_add(i16::from(delta)).ok_or("a field id out of range")?,
        };
        Ok(Some((id, kind)))
    }

    /// A list's (or set's) length and element type.
    fn list_header(&mut self) -> Result<(u64, u8), &'static str> {
        let b = self.byte()?;
        let count = match b >> 4 {
            15 => self.varint()?,
            short => u64::from(short),
        };
        Ok((count, b & 0x0F))
    }

    /// Passes over one value of type `kind`.
    fn skip(&mut self, kind: u8, depth: usize) -> Result<(), &'static str> {
        if depth > MAX_DEPTH {
            return Err("values nested too deep");
        }
        match kind {
            // In a struct a boolean is its field header; in a list, a byte.
            BOOL_TRUE | BOOL_FALSE if depth == 0 => {}
            BOOL_TRUE | BOOL_FALSE | BYTE => self.pos += 1,
            I16 | I32 | I64 => {
                self.varint()?;
            }
            DOUBLE => self.pos += 8,
            BINARY => {
                let len = usize::try_from(self.varint()?).map_err(|_| "a binary too long")?;
                self.pos = self.pos.checked_add(len).ok_or("a binary too long")?;
            }
            LIST | SET => {
                let (count, element) = self.list_header()?;
                for _ in 0..count {
                    self.skip(element, depth + 1)?;
                }
            }
            MAP => {
                let count = self.varint()?;
                if count > 0 {
                    let types = self.byte()?;
                    for _ in 0..count {
                        self.skip(types >> 4, depth + 1)?;
                        self.skip(types & 0x0F, depth + 1)?;
                    }
                }
            }
            STRUCT => {
                let mut last = 0;
                while let Some((id, field)) = self.field_header(last)? {
                    last = id;
                    // A boolean field holds its value in its header.
                    if !matches!(field, BOOL_TRUE | BOOL_FALSE) {
                        self.skip(field, depth + 1)?;
                    }
                }
            }
            _ => return Err("an unknown Thrift type"),
        }
        if self.pos > self.bytes.len() {
            return Err("the metadata ends early");
        }
        Ok(())
    }
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
        assert_eq!(type_defined_floats(&mut cut), Err("the metadata ends early"));
        assert_eq!(cut, [0x79, 0x2C, 0x2C, 0x00]);
        let mut longer = vec![0x79, 0x1C, 0x2C, 0x00, 0x00, 0x00, 0x07];
        assert_eq!(type_defined_floats(&mut longer), Err("bytes after the footer's metadata"));
        assert_eq!(longer[2], 0x2C);
    }
}
