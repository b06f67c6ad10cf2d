//! The parts of an object fetched from a store, read as a file: what the
//! one file reader decodes once the footer and the needed column chunks
//! have come.

use std::sync::Arc;

use bytes::{Buf, Bytes};
use parquet::errors::{ParquetError, Result as ParquetResult};
use parquet::file::reader::{ChunkReader, Length};

/// Byte ranges of an object of `len` bytes, fetched; reading outside them
/// is an error (the reader asked for bytes it did not plan for).
#[derive(Clone, Debug)]
pub struct FetchedRanges {
    len: u64,
    /// Sorted by start, not overlapping.
    ranges: Arc<Vec<(u64, Bytes)>>,
}

impl FetchedRanges {
    /// `ranges` (start, bytes) of an object of `len` bytes; ranges that
    /// touch or overlap are joined, so a read may span them.
    pub(crate) fn new(len: u64, mut ranges: Vec<(u64, Bytes)>) -> Self {
        ranges.sort_by_key(|(start, _)| *start);
        let mut joined: Vec<(u64, Bytes)> = Vec::with_capacity(ranges.len());
        for (start, bytes) in ranges {
            match joined.last_mut() {
                Some((s, b)) if start <= *s + b.len() as u64 => {
                    let end = start + bytes.len() as u64;
                    if end > *s + b.len() as u64 {
                        let mut both = b.to_vec();
                        both.extend_from_slice(&bytes[(*s + b.len() as u64 - start) as usize..]);
                        *b = Bytes::from(both);
                    }
                }
                _ => joined.push((start, bytes)),
            }
        }
        FetchedRanges { len, ranges: Arc::new(joined) }
    }

    /// These ranges and `more`.
    pub(crate) fn with(&self, more: Vec<(u64, Bytes)>) -> Self {
        let mut all = self.ranges.as_ref().clone();
        all.extend(more);
        FetchedRanges::new(self.len, all)
    }

    /// Bytes fetched, all ranges together.
    pub fn fetched_bytes(&self) -> u64 {
        self.ranges.iter().map(|(_, b)| b.len() as u64).sum()
    }

    /// Whether every byte of `range` was fetched.
    pub(crate) fn covers(&self, range: &std::ops::Range<u64>) -> bool {
        self.from(range.start).is_ok_and(|bytes| range.end - range.start <= bytes.len() as u64)
    }

    /// The fetched bytes from `start` to the end of the range holding it.
    fn from(&self, start: u64) -> ParquetResult<Bytes> {
        let i = self.ranges.partition_point(|(s, _)| *s <= start);
        let found = i.checked_sub(1).map(|i| &self.ranges[i]);
        match found {
            Some((s, bytes))
                if start - s < bytes.len() as u64 || (start - s == bytes.len() as u64 && start == self.len) =>
            {
                Ok(bytes.slice((start - s) as usize..))
            }
            _ => Err(ParquetError::General(format!("byte {start} of the object was not fetched"))),
        }
    }
}

impl Length for FetchedRanges {
    fn len(&self) -> u64 {
        self.len
    }
}

impl ChunkReader for FetchedRanges {
    type T = bytes::buf::Reader<Bytes>;

    fn get_read(&self, start: u64) -> ParquetResult<Self::T> {
        Ok(self.from(start)?.reader())
    }

    fn get_bytes(&self, start: u64, length: usize) -> ParquetResult<Bytes> {
        let bytes = self.from(start)?;
        if bytes.len() < length {
            return Err(ParquetError::General(format!(
                "bytes {start}..{} of the object were not fetched",
                start + length as u64
            )));
        }
        Ok(bytes.slice(..length))
    }
}

/// A reader of the fetched bytes (for `Read` users in tests).
#[cfg(test)]
fn read_all(mut r: impl std::io::Read) -> Vec<u8> {
    let mut out = Vec::new();
    r.read_to_end(&mut out).unwrap();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_fetched_ranges_read() {
        let f = FetchedRanges::new(100, vec![(90, Bytes::from_static(&[9; 10])), (10, Bytes::from_static(&[1, 2, 3]))]);
        assert_eq!(f.get_bytes(11, 2).unwrap().as_ref(), [2, 3]);
        assert_eq!(read_all(f.get_read(10).unwrap()), [1, 2, 3]);
        assert_eq!(f.get_bytes(92, 8).unwrap().len(), 8);
        assert!(f.get_bytes(12, 2).is_err());
        assert!(f.get_bytes(0, 1).is_err());
        assert!(f.get_bytes(50, 1).is_err());
        assert_eq!(f.fetched_bytes(), 13);
        assert!(f.covers(&(10..13)) && f.covers(&(91..100)) && f.covers(&(11..11)));
        assert!(!f.covers(&(10..14)) && !f.covers(&(9..12)) && !f.covers(&(50..51)));
        // Ranges that touch or overlap are read as one.
        let f = f.with(vec![(13, Bytes::from_static(&[4, 5])), (14, Bytes::from_static(&[5, 6]))]);
        assert_eq!(f.get_bytes(10, 6).unwrap().as_ref(), [1, 2, 3, 4, 5, 6]);
        assert_eq!(f.fetched_bytes(), 16);
    }
}
