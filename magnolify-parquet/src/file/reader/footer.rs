//! Reading a file's footer with every claim it makes checked against the
//! file before the `parquet` crate acts on it.
//!
//! The crate checks the footer length against the file, but it trusts the
//! schema's shape: a group claiming 2^31 children makes it reserve that many
//! slots (an allocation of 16 GiB that aborts the process), and a schema
//! nested a hundred thousand deep overflows the stack of its recursive
//! decoder. Both take only a few bytes of footer, so they are checked here,
//! on the raw Thrift bytes, before the crate decodes them.

use parquet::file::metadata::{ParquetMetaData, ParquetMetaDataReader};
use parquet::file::reader::ChunkReader;

use super::thrift::Input;
use crate::error::{Error, Location, Result};
use crate::guard::crate_call;

/// Deepest schema accepted (the root counts as level 1). Arrow C++ uses the
/// same order of magnitude; no real schema comes near it, and it keeps every
/// recursive walk of the schema (the crate's and ours) far from the stack's end.
pub(super) const MAX_SCHEMA_DEPTH: usize = 100;

const MAGIC: &[u8; 4] = b"PAR1";
const MAGIC_ENCRYPTED_FOOTER: &[u8; 4] = b"PARE";
/// Leading magic, metadata length and trailing magic.
const FRAME: u64 = 12;

fn corrupt(message: impl Into<String>) -> Error {
    Error::damaged(Location::footer(), message)
}

fn bytes<R: ChunkReader>(reader: &R, start: u64, length: usize) -> Result<bytes::Bytes> {
    crate_call(Location::footer, || reader.get_bytes(start, length).map_err(|e| Error::parquet(Location::footer(), e)))
}

/// Reads and decodes the footer of `reader`.
///
/// With `head` false the leading magic is not read: an object store's
/// reader fetches only the end of the object first.
pub(super) fn read_metadata<R: ChunkReader>(reader: &R, head: bool) -> Result<ParquetMetaData> {
    let len = reader.len();
    if len < FRAME {
        return Err(corrupt(format!(
            "the file has {len} bytes, fewer than the {FRAME} of an empty Parquet file: it was cut short, or its \
             writer was never closed (a `ParquetWriter` writes its footer at `close()`)"
        )));
    }
    if head && bytes(reader, 0, 4)?.as_ref() != MAGIC {
        return Err(corrupt("the file does not start with the Parquet magic `PAR1`"));
    }
    let tail = bytes(reader, len - 8, 8)?;
    match &tail[4..] {
        m if m == MAGIC => {}
        m if m == MAGIC_ENCRYPTED_FOOTER => return Err(corrupt("the footer is encrypted, which is not supported")),
        _ => {
            return Err(corrupt(
                "the file does not end with the Parquet magic `PAR1`: it may be cut short (copied in part, or still \
                 being written) or not be a Parquet file",
            ))
        }
    }
    let claimed = u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]);
    if u64::from(claimed) > len - FRAME {
        return Err(corrupt(format!(
            "the footer claims {claimed} bytes of metadata, but only {} bytes lie between the magics",
            len - FRAME
        )));
    }
    // At most the file's own size: the claim was checked just above.
    let metadata = bytes(reader, len - 8 - u64::from(claimed), claimed as usize)?;
    check_schema_shape(&metadata)?;
    crate_call(Location::footer, || {
        ParquetMetaDataReader::decode_metadata(&metadata).map_err(|e| corrupt(e.to_string()))
    })
}

/// Walks the flat schema list of the footer's `FileMetaData` (field 2, a
/// list of `SchemaElement`s whose field 5 is `num_children`) and checks that
/// it describes a tree the decoder can build: every group's children exist
/// among the elements that follow, and the tree is at most
/// [`MAX_SCHEMA_DEPTH`] deep.
pub(super) fn check_schema_shape(metadata: &[u8]) -> Result<()> {
    let mut input = Input::new(metadata, metadata.len() as u64);
    let unreadable = || corrupt("the footer's schema cannot be read");
    let mut last = 0;
    while let Some((id, ty)) = input.field(&mut last).ok_or_else(unreadable)? {
        if id != 2 {
            input.skip_value(ty).ok_or_else(unreadable)?;
            continue;
        }
        let (count, element) = input.list_header(ty).ok_or_else(unreadable)?;
        if !Input::<&[u8]>::elements_are_structs(element) {
            return Err(corrupt("the footer's schema is not a list of schema elements"));
        }
        // Children still expected by each group on the path to the current
        // element: its length is the depth, bounded below.
        let mut open: Vec<u64> = Vec::new();
        for index in 0..count {
            let children = scan_element(&mut input).ok_or_else(unreadable)?;
            while open.last() == Some(&0) {
                open.pop();
            }
            match open.last_mut() {
                Some(left) => *left -= 1,
                None if index > 0 => return Err(corrupt(format!("schema element {index} lies outside the root"))),
                None => {}
            }
            if children < 0 {
                return Err(corrupt(format!("schema element {index} claims {children} children")));
            }
            if children > 0 {
                let following = count - index - 1;
                if children as u64 > following {
                    return Err(corrupt(format!(
                        "schema element {index} claims {children} children, but only {following} elements follow"
                    )));
                }
                open.push(children as u64);
                // The children of the innermost open group sit one level below it.
                if open.len() >= MAX_SCHEMA_DEPTH {
                    return Err(corrupt(format!("the schema is nested deeper than {MAX_SCHEMA_DEPTH} levels")));
                }
            }
        }
        // The schema is all the check needs; the crate decodes the rest.
        return Ok(());
    }
    Ok(())
}

/// `num_children` of one `SchemaElement` (0 when absent).
fn scan_element(input: &mut Input<&[u8]>) -> Option<i64> {
    let mut children = 0;
    let mut last = 0;
    while let Some((id, ty)) = input.field(&mut last)? {
        if id == 5 && Input::<&[u8]>::is_int(ty) {
            children = i64::from(input.int(ty)?);
        } else {
            input.skip_value(ty)?;
        }
    }
    Some(children)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Compact-protocol bytes of a `FileMetaData` holding only a schema list
    /// of elements with the given `num_children` (`None`: a leaf).
    fn footer(children: &[Option<i32>]) -> Vec<u8> {
        let mut out = vec![0x29]; // field 2, list
        if children.len() < 15 {
            out.push(((children.len() as u8) << 4) | 12);
        } else {
            out.push(0xf0 | 12);
            let mut n = children.len() as u64;
            while n >= 0x80 {
                out.push((n as u8) | 0x80);
                n >>= 7;
            }
            out.push(n as u8);
        }
        for c in children {
            out.extend_from_slice(&[0x48, 0x01, b'x']); // field 4: name "x"
            if let Some(c) = c {
                out.push(0x15); // field 5, i32
                let mut z = ((*c << 1) ^ (*c >> 31)) as u32;
                while z >= 0x80 {
                    out.push((z as u8) | 0x80);
                    z >>= 7;
                }
                out.push(z as u8);
            }
            out.push(0);
        }
        out.push(0);
        out
    }

    #[test]
    fn a_plausible_tree_passes() {
        assert!(check_schema_shape(&footer(&[Some(2), None, Some(1), None])).is_ok());
    }

    #[test]
    fn more_children_than_elements_is_refused() {
        let err = check_schema_shape(&footer(&[Some(i32::MAX), None])).unwrap_err();
        assert!(err.to_string().contains("claims 2147483647 children, but only 1 elements follow"), "{err}");
    }

    #[test]
    fn negative_children_are_refused() {
        let err = check_schema_shape(&footer(&[Some(-1), None])).unwrap_err();
        assert!(err.to_string().contains("claims -1 children"), "{err}");
    }

    #[test]
    fn depth_is_bounded() {
        let deep: Vec<Option<i32>> = (0..MAX_SCHEMA_DEPTH).map(|_| Some(1)).chain([None]).collect();
        let err = check_schema_shape(&footer(&deep)).unwrap_err();
        assert!(err.to_string().contains("deeper than 100"), "{err}");
        let ok: Vec<Option<i32>> = (0..MAX_SCHEMA_DEPTH - 1).map(|_| Some(1)).chain([None]).collect();
        assert!(check_schema_shape(&footer(&ok)).is_ok());
    }

    #[test]
    fn a_second_root_is_refused() {
        let err = check_schema_shape(&footer(&[Some(1), None, None])).unwrap_err();
        assert!(err.to_string().contains("outside the root"), "{err}");
    }
}
