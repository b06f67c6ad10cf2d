//! Checks of a column chunk before the `parquet` crate reads it: its byte
//! range lies in the file, every page header in it claims sizes the chunk
//! and the reader's limits allow, and every page that carries a CRC32
//! checksum matches it.
//!
//! The crate reserves a page's claimed uncompressed size before
//! decompressing it (and the Snappy codec zero-fills it), and `std::fs::File`
//! reserves a claimed read length before reading, so a few bytes of header
//! could otherwise make it allocate gigabytes.

use std::io::Read;

use parquet::file::metadata::ColumnChunkMetaData;
use parquet::file::reader::ChunkReader;

use super::thrift::Input;
use crate::error::{Error, Location, Result};
use crate::read::Limits;

/// Where a column chunk lies in the file, checked: `(start, length)`.
pub(super) fn byte_range(chunk: &ColumnChunkMetaData, file_len: u64, path: &str) -> Result<(u64, u64)> {
    let start = chunk.dictionary_page_offset().unwrap_or_else(|| chunk.data_page_offset());
    let length = chunk.compressed_size();
    let (Ok(start), Ok(length)) = (u64::try_from(start), u64::try_from(length)) else {
        return Err(Error::damaged(
            Location::column(path),
            format!("column chunk at offset {start} with {length} bytes"),
        ));
    };
    match start.checked_add(length) {
        Some(end) if end <= file_len => Ok((start, length)),
        _ => Err(Error::damaged(
            Location::column(path),
            format!("column chunk of {length} bytes at offset {start} ends beyond the file's {file_len} bytes"),
        )),
    }
}

/// What a page header claims, as far as the checks need.
#[derive(Debug, Default, PartialEq)]
struct Header {
    page_type: Option<i32>,
    uncompressed: Option<i32>,
    compressed: Option<i32>,
    /// `num_values` of the data, dictionary or v2 header.
    values: Option<i32>,
    /// `num_rows` of a v2 header.
    rows: Option<i32>,
    /// The CRC32 of the page's bytes as stored, when the writer wrote one.
    crc: Option<i32>,
}

const DATA_PAGE: i32 = 0;
const DICTIONARY_PAGE: i32 = 2;
const DATA_PAGE_V2: i32 = 3;

fn scan_header<R: Read>(input: &mut Input<R>) -> Option<Header> {
    let mut header = Header::default();
    let mut last = 0;
    while let Some((id, ty)) = input.field(&mut last)? {
        match id {
            1..=3 if Input::<R>::is_int(ty) => {
                let v = Some(input.int(ty)?);
                match id {
                    1 => header.page_type = v,
                    2 => header.uncompressed = v,
                    _ => header.compressed = v,
                }
            }
            4 if Input::<R>::is_int(ty) => header.crc = Some(input.int(ty)?),
            // data_page_header, dictionary_page_header, data_page_header_v2:
            // num_values is field 1 of each, num_rows field 3 of v2.
            5 | 7 | 8 if Input::<R>::is_struct(ty) => {
                let mut inner_last = 0;
                while let Some((inner, inner_ty)) = input.field(&mut inner_last)? {
                    match inner {
                        1 if Input::<R>::is_int(inner_ty) => header.values = Some(input.int(inner_ty)?),
                        3 if id == 8 && Input::<R>::is_int(inner_ty) => header.rows = Some(input.int(inner_ty)?),
                        _ => input.skip_value(inner_ty)?,
                    }
                }
            }
            _ => input.skip_value(ty)?,
        }
    }
    Some(header)
}

/// The dictionary page at the start of `bytes`, checked: its header reads
/// as a dictionary page's, its body lies within `bytes`, and it matches its
/// CRC32 checksum when it has one. `(values, uncompressed size)`; `None`
/// for anything else.
pub(super) fn dictionary_header(bytes: &[u8]) -> Option<(i32, i32)> {
    let mut input = Input::new(bytes, bytes.len() as u64);
    let header = scan_header(&mut input)?;
    let start = usize::try_from(input.consumed()).ok()?;
    let end = start.checked_add(usize::try_from(header.compressed?).ok()?)?;
    let body = bytes.get(start..end)?;
    let intact = header.crc.is_none_or(|stored| crc32fast::hash(body) == stored as u32);
    (header.page_type? == DICTIONARY_PAGE && intact).then_some((header.values?, header.uncompressed?))
}

/// What `check_pages` checks a column chunk against.
pub(super) struct ChunkChecks<'a> {
    /// The column's dotted path, for messages.
    pub(super) path: &'a str,
    /// Whether the column is repeated (a value count may exceed the rows).
    pub(super) repeated: bool,
    /// Rows of the row group.
    pub(super) rows: u64,
    /// The values (levels) of the chunk, as its metadata in the footer
    /// counts them: the data pages' counts must add up to it.
    pub(super) values: i64,
    pub(super) limits: &'a Limits,
    /// Whether to compare each page's CRC32 checksum, when it has one.
    pub(super) verify_checksums: bool,
}

/// Walks the page headers of a chunk of `length` bytes at `start` and checks
/// each: the page fits in what is left of the chunk, its uncompressed size
/// is within the limits, its value count is plausible (never negative,
/// within the level limit, and for a column that is not repeated at most the
/// rows of the row group, since every row has exactly one value there), and
/// its bytes match its CRC32 checksum when it has one and `checks` asks; in
/// a chunk with checksums, the data pages' value counts must add up to the
/// chunk's in the footer.
pub(super) fn check_pages<R: ChunkReader>(
    reader: &R,
    (start, length): (u64, u64),
    checks: &ChunkChecks<'_>,
) -> Result<()> {
    let end = start + length;
    let mut offset = start;
    let mut page = 0;
    let mut values_seen: i64 = 0;
    let mut checksummed = false;
    while offset < end {
        let left = end - offset;
        let located = || Location::column(checks.path).with_page(page);
        let read = reader.get_read(offset).map_err(|e| Error::parquet(located(), e))?;
        let mut input = Input::new(read, left);
        let at = |message: String| Error::damaged(located(), format!("page at offset {offset}: {message}"));
        let header = scan_header(&mut input)
            .ok_or_else(|| at(format!("the page header cannot be read within the chunk's {left} remaining bytes")))?;
        let (Some(page_type), Some(uncompressed), Some(compressed)) =
            (header.page_type, header.uncompressed, header.compressed)
        else {
            return Err(at("the page header lacks its type or sizes".into()));
        };
        let header_len = input.consumed();
        let body = u64::try_from(compressed).map_err(|_| at(format!("compressed size {compressed}")))?;
        if body > left - header_len {
            return Err(at(format!("the page claims {body} bytes, the column chunk has {} left", left - header_len)));
        }
        let raw = u64::try_from(uncompressed).map_err(|_| at(format!("uncompressed size {uncompressed}")))?;
        if raw > checks.limits.max_page_bytes {
            return Err(at(format!(
                "the page claims {raw} uncompressed bytes, more than the reader's limit of {} \
                 (ReadOptions::max_page_bytes)",
                checks.limits.max_page_bytes
            )));
        }
        if matches!(page_type, DATA_PAGE | DICTIONARY_PAGE | DATA_PAGE_V2) {
            let values = header.values.ok_or_else(|| at("the page header lacks its value count".into()))?;
            let values = u64::try_from(values).map_err(|_| at(format!("{values} values")))?;
            if page_type != DICTIONARY_PAGE {
                check_levels(values, header.rows, checks.repeated, checks.rows, checks.limits).map_err(at)?;
                // `values` is at most 2^31: no overflow in a chunk of at most 2^63 bytes' pages.
                values_seen = values_seen.saturating_add(values as i64);
            }
        }
        checksummed |= header.crc.is_some();
        if let (Some(stored), true) = (header.crc, checks.verify_checksums) {
            // `body` fits in the chunk, which fits in the file: a usize.
            let len = usize::try_from(body).map_err(|_| at(format!("compressed size {body}")))?;
            let bytes = reader.get_bytes(offset + header_len, len).map_err(|e| Error::parquet(located(), e))?;
            let computed = crc32fast::hash(&bytes);
            // The format stores the checksum as a Thrift i32: the same 32 bits.
            if computed != stored as u32 {
                return Err(at(format!(
                    "the page's {body} bytes have CRC32 {computed:#010x}, its header says {:#010x}: the file is \
                     damaged (ReadOptions::verify_page_checksums(false) reads it without checking)",
                    stored as u32
                )));
            }
        }
        offset += header_len + body;
        page += 1;
    }
    // A page header's value count is not covered by the page's checksum; a
    // changed one would decode as fewer or more levels, and records split
    // elsewhere. The footer counts them too. Checked with the checksums only:
    // some old writers (parquet-cpp before 2016) counted no nulls there.
    if checksummed && checks.verify_checksums && values_seen != checks.values {
        return Err(Error::damaged(
            Location::column(checks.path),
            format!("the data pages hold {values_seen} values, the column chunk's metadata says {}", checks.values),
        ));
    }
    Ok(())
}

fn check_levels(values: u64, page_rows: Option<i32>, repeated: bool, rows: u64, limits: &Limits) -> Result<(), String> {
    if values > limits.max_levels {
        return Err(format!(
            "{values} values, more than the reader's limit of {} (ReadOptions::max_levels)",
            limits.max_levels
        ));
    }
    if !repeated && values > rows {
        return Err(format!("{values} values in a column that is not repeated, the row group has {rows} rows"));
    }
    if let Some(page_rows) = page_rows {
        match u64::try_from(page_rows) {
            Ok(r) if r <= rows && r <= values => {}
            _ => return Err(format!("{page_rows} rows in a page of {values} values, the row group has {rows} rows")),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_sizes_and_counts_of_a_v2_header() {
        // type=3, uncompressed=100, compressed=50, field 8 { num_values=7, num_nulls=0, num_rows=3 }
        let bytes = [0x15, 0x06, 0x15, 0xc8, 0x01, 0x15, 0x64, 0x5c, 0x15, 0x0e, 0x15, 0x00, 0x15, 0x06, 0x00, 0x00];
        let mut input = Input::new(&bytes[..], bytes.len() as u64);
        let header = scan_header(&mut input).unwrap();
        assert_eq!(
            header,
            Header {
                page_type: Some(3),
                uncompressed: Some(100),
                compressed: Some(50),
                values: Some(7),
                rows: Some(3),
                crc: None,
            }
        );
        assert_eq!(input.consumed(), bytes.len() as u64);
    }

    #[test]
    fn level_counts_are_checked() {
        let limits = Limits { max_page_bytes: 1 << 20, max_levels: 1000 };
        assert!(check_levels(10, None, false, 10, &limits).is_ok());
        assert!(check_levels(11, None, false, 10, &limits).unwrap_err().contains("row group has 10 rows"));
        assert!(check_levels(500, None, true, 10, &limits).is_ok());
        assert!(check_levels(1001, None, true, 10, &limits).unwrap_err().contains("ReadOptions::max_levels"));
        assert!(check_levels(5, Some(6), true, 10, &limits).is_err());
        assert!(check_levels(5, Some(-1), true, 10, &limits).is_err());
    }
}
