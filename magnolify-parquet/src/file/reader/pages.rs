//! Checks of each decompressed page before the `parquet` crate's decoders
//! see it, against counts that would make them allocate far more than the
//! page holds:
//!
//! * a dictionary page's `num_values` is reserved up front (`resize`), so it
//!   must fit in the page's bytes;
//! * a DELTA_LENGTH_BYTE_ARRAY or DELTA_BYTE_ARRAY page's own header counts
//!   (in the data, not the page header) are reserved up front too, so they
//!   must not exceed the page's values;
//! * the levels a batch pulls from one column are capped: a record is read
//!   whole, and run-length encoding lets a few bytes stand for billions of
//!   levels of one giant record.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use parquet::basic::{Encoding, Type as PhysicalType};
use parquet::column::page::{Page, PageMetadata, PageReader};
use parquet::errors::{ParquetError, Result as ParquetResult};
use parquet::schema::types::ColumnDescriptor;

use super::Limits;

/// A page reader that checks every page it hands on.
pub(super) struct CheckedPages<P> {
    inner: P,
    physical: PhysicalType,
    type_length: i32,
    max_def: i16,
    max_rep: i16,
    max_levels: u64,
    /// Levels handed on since the reader last reset it (before each batch).
    levels: Arc<AtomicU64>,
    /// Whether a dictionary page came: the crate panics on a dictionary-encoded
    /// data page without one.
    dictionary: bool,
}

impl<P: PageReader> CheckedPages<P> {
    pub(super) fn new(inner: P, descr: &ColumnDescriptor, limits: &Limits, levels: Arc<AtomicU64>) -> Self {
        CheckedPages {
            inner,
            physical: descr.physical_type(),
            type_length: descr.type_length(),
            max_def: descr.max_def_level(),
            max_rep: descr.max_rep_level(),
            max_levels: limits.max_levels,
            levels,
            dictionary: false,
        }
    }

    fn check(&mut self, page: &Page) -> Result<(), String> {
        if let Page::DataPage { encoding, .. } | Page::DataPageV2 { encoding, .. } = page {
            #[allow(deprecated)]
            let by_dictionary = matches!(encoding, Encoding::RLE_DICTIONARY | Encoding::PLAIN_DICTIONARY);
            if by_dictionary && !self.dictionary {
                return Err(format!("a {encoding} data page without a dictionary page before it"));
            }
        }
        match page {
            Page::DictionaryPage { buf, num_values, .. } => {
                let bits = u64::from(*num_values) * min_value_bits(self.physical, self.type_length);
                if bits > buf.len() as u64 * 8 {
                    return Err(format!("a dictionary page claims {num_values} values in {} bytes", buf.len()));
                }
                if self.physical == PhysicalType::BYTE_ARRAY {
                    check_plain_byte_arrays(buf, *num_values)?;
                }
                self.dictionary = true;
                Ok(())
            }
            Page::DataPage { buf, num_values, encoding, def_level_encoding, rep_level_encoding, .. } => {
                self.count_levels(*num_values)?;
                let start = self.v1_values_start(buf, *num_values, *rep_level_encoding, *def_level_encoding);
                match start.and_then(|s| buf.get(s..)) {
                    Some(values) => check_delta_counts(values, *encoding, *num_values),
                    None => Ok(()),
                }
            }
            Page::DataPageV2 { buf, num_values, encoding, def_levels_byte_len, rep_levels_byte_len, .. } => {
                self.count_levels(*num_values)?;
                let start = *def_levels_byte_len as usize + *rep_levels_byte_len as usize;
                match buf.get(start..) {
                    Some(values) => check_delta_counts(values, *encoding, *num_values),
                    None => Ok(()),
                }
            }
        }
    }

    fn count_levels(&self, page_levels: u32) -> Result<(), String> {
        let before = self.levels.fetch_add(u64::from(page_levels), Ordering::Relaxed);
        let total = before + u64::from(page_levels);
        if total > self.max_levels {
            return Err(format!(
                "one batch of records needs more than {} levels of this column (a giant or corrupt record); \
                 raise ReaderBuilder::with_max_levels if the file is sound",
                self.max_levels
            ));
        }
        Ok(())
    }

    /// Offset of the values in a v1 page: after the repetition and then the
    /// definition levels, each RLE (with a 4-byte length) or BIT_PACKED.
    /// `None` when the levels do not parse; the crate reports that itself.
    fn v1_values_start(&self, buf: &[u8], num_values: u32, rep: Encoding, def: Encoding) -> Option<usize> {
        let mut at = 0usize;
        for (max, encoding) in [(self.max_rep, rep), (self.max_def, def)] {
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
}

/// The fewest bits a PLAIN value of the type takes.
fn min_value_bits(physical: PhysicalType, type_length: i32) -> u64 {
    match physical {
        PhysicalType::BOOLEAN => 1,
        PhysicalType::INT32 | PhysicalType::FLOAT => 32,
        PhysicalType::INT64 | PhysicalType::DOUBLE => 64,
        PhysicalType::INT96 => 96,
        // A 4-byte length before each value.
        PhysicalType::BYTE_ARRAY => 32,
        PhysicalType::FIXED_LEN_BYTE_ARRAY => 8 * u64::try_from(type_length).unwrap_or(0).max(1),
    }
}

/// Walks `count` PLAIN byte arrays (a 4-byte length, then the bytes): the
/// crate's decoder panics on a length prefix cut short.
fn check_plain_byte_arrays(buf: &[u8], count: u32) -> Result<(), String> {
    let mut at = 0usize;
    for i in 0..count {
        let Some(prefix) = buf.get(at..at + 4) else {
            return Err(format!("dictionary entry {i} of {count} starts past the page's {} bytes", buf.len()));
        };
        let len = u32::from_le_bytes([prefix[0], prefix[1], prefix[2], prefix[3]]) as usize;
        at = match (at + 4).checked_add(len) {
            Some(end) if end <= buf.len() => end,
            _ => return Err(format!("dictionary entry {i} of {len} bytes runs past the page's {} bytes", buf.len())),
        };
    }
    Ok(())
}

/// The value counts that DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY data
/// declare in their own headers must not exceed the page's values.
fn check_delta_counts(values: &[u8], encoding: Encoding, page_values: u32) -> Result<(), String> {
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

impl<P: PageReader> PageReader for CheckedPages<P> {
    fn get_next_page(&mut self) -> ParquetResult<Option<Page>> {
        let page = self.inner.get_next_page()?;
        if let Some(page) = &page {
            self.check(page).map_err(ParquetError::General)?;
        }
        Ok(page)
    }

    fn peek_next_page(&mut self) -> ParquetResult<Option<PageMetadata>> {
        self.inner.peek_next_page()
    }

    fn skip_next_page(&mut self) -> ParquetResult<()> {
        self.inner.skip_next_page()
    }

    fn at_record_boundary(&mut self) -> ParquetResult<bool> {
        self.inner.at_record_boundary()
    }
}

impl<P: PageReader> Iterator for CheckedPages<P> {
    type Item = ParquetResult<Page>;

    fn next(&mut self) -> Option<Self::Item> {
        self.get_next_page().transpose()
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
        assert!(check_delta_counts(&header(3), Encoding::DELTA_LENGTH_BYTE_ARRAY, 3).is_ok());
        let err = check_delta_counts(&header(100), Encoding::DELTA_LENGTH_BYTE_ARRAY, 3).unwrap_err();
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
        let err = check_delta_counts(&bad, Encoding::DELTA_BYTE_ARRAY, 3).unwrap_err();
        assert!(err.contains("declares 90 suffix lengths"), "{err}");
        data.extend_from_slice(&header(3));
        assert!(check_delta_counts(&data, Encoding::DELTA_BYTE_ARRAY, 3).is_ok());
    }

    #[test]
    fn plain_byte_arrays_must_fit() {
        let buf = [1, 0, 0, 0, b'a', 2, 0, 0, 0, b'b', b'c'];
        assert!(check_plain_byte_arrays(&buf, 2).is_ok());
        assert!(check_plain_byte_arrays(&buf, 3).unwrap_err().contains("entry 2 of 3 starts past"));
        assert!(check_plain_byte_arrays(&buf[..10], 2).unwrap_err().contains("entry 1 of 2 bytes runs past"));
    }

    #[test]
    fn dictionary_sizes_bound_their_counts() {
        assert_eq!(min_value_bits(PhysicalType::BYTE_ARRAY, -1), 32);
        assert_eq!(min_value_bits(PhysicalType::FIXED_LEN_BYTE_ARRAY, 16), 128);
        assert_eq!(min_value_bits(PhysicalType::FIXED_LEN_BYTE_ARRAY, 0), 8);
        assert_eq!(min_value_bits(PhysicalType::BOOLEAN, -1), 1);
    }
}
