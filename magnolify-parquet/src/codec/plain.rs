//! The PLAIN encoding: fixed-width values little-endian back to back,
//! booleans one bit each (least significant first), byte arrays as a 4-byte
//! length and the bytes, fixed-length byte arrays back to back.
//!
//! Decoding appends straight to a batch's [`ColumnValues`]: fixed-width
//! values in bulk, byte strings into the batch's one buffer. The number of
//! values is checked against the bytes left before anything is reserved.

use parquet::data_type::Int96;

use crate::values::{ColumnValues, SHORT};

/// Where the next PLAIN value of a page is: a byte offset, or for booleans
/// a bit offset.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Plain {
    pos: usize,
    end: usize,
}

/// Appends the fixed-width values of `bytes` (a whole number of `N`-byte
/// values) to `out`.
#[inline]
fn extend_le<T, const N: usize>(out: &mut Vec<T>, bytes: &[u8], from: fn([u8; N]) -> T) {
    out.extend(bytes.chunks_exact(N).map(|c| from(c.try_into().unwrap_or([0; N]))));
}

impl Plain {
    /// The values of `start..end` of the page.
    pub(crate) fn new(start: usize, end: usize) -> Self {
        Plain { pos: start, end }
    }

    /// The next `width * n` bytes, checked.
    fn take(&mut self, buf: &[u8], width: usize, n: usize) -> Result<std::ops::Range<usize>, String> {
        let bytes = width.checked_mul(n).ok_or("value count overflows")?;
        let left = self.end.saturating_sub(self.pos);
        if bytes > left || self.end > buf.len() {
            return Err(format!("{n} values of {width} bytes, but the page has {left} bytes left"));
        }
        let range = self.pos..self.pos + bytes;
        self.pos += bytes;
        Ok(range)
    }

    /// Decodes the next `n` values into `out`.
    pub(crate) fn decode(&mut self, buf: &[u8], n: usize, out: &mut ColumnValues) -> Result<(), String> {
        match out {
            ColumnValues::Bool(v) => {
                // `pos` counts bits for booleans.
                let left = (self.end * 8).saturating_sub(self.pos);
                if n > left || self.end > buf.len() {
                    return Err(format!("{n} booleans, but the page has {left} bits left"));
                }
                v.extend((self.pos..self.pos + n).map(|bit| buf[bit / 8] >> (bit % 8) & 1 == 1));
                self.pos += n;
            }
            ColumnValues::I32(v) => extend_le(v, &buf[self.take(buf, 4, n)?], i32::from_le_bytes),
            ColumnValues::I64(v) => extend_le(v, &buf[self.take(buf, 8, n)?], i64::from_le_bytes),
            ColumnValues::F32(v) => extend_le(v, &buf[self.take(buf, 4, n)?], f32::from_le_bytes),
            ColumnValues::F64(v) => extend_le(v, &buf[self.take(buf, 8, n)?], f64::from_le_bytes),
            ColumnValues::I96(v) => extend_le(v, &buf[self.take(buf, 12, n)?], |b: [u8; 12]| {
                let word = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
                let mut x = Int96::new();
                x.set_data(word(0), word(4), word(8));
                x
            }),
            ColumnValues::Fixed(b, len) => {
                let range = self.take(buf, *len, n)?;
                b.extend_fixed(&buf[range], *len);
            }
            ColumnValues::Bytes(b) => {
                let page = buf.get(..self.end).ok_or("the values lie beyond the page")?;
                let left = self.end.saturating_sub(self.pos);
                // Each value takes at least its 4-byte length: a count the
                // bytes cannot hold is refused before anything is reserved.
                if n > left / 4 {
                    return Err(format!("{n} byte arrays, but the page has {left} bytes left"));
                }
                // Room for the last value's block of `SHORT` bytes too.
                b.reserve(n, left - 4 * n + SHORT);
                let mut pos = self.pos;
                for _ in 0..n {
                    // Where the value after this one starts, if this one lies in the page.
                    let next = page.get(pos..pos + 4).and_then(|len| {
                        let len = u32::from_le_bytes(len.try_into().ok()?) as usize;
                        let start = pos + 4;
                        b.push_from(page, start..start.checked_add(len)?)?;
                        Some(start + len)
                    });
                    pos = next.ok_or_else(|| format!("a byte array runs past the page's end at byte {pos}"))?;
                }
                self.pos = pos;
            }
        }
        Ok(())
    }

    /// For booleans, `pos` counts bits: the values start at bit 0 of `start`.
    pub(crate) fn for_booleans(self) -> Self {
        Plain { pos: self.pos * 8, end: self.end }
    }
}

#[cfg(test)]
mod tests {
    use parquet::basic::Type as PhysicalType;

    use super::*;

    fn decode(physical: PhysicalType, len: i32, buf: &[u8], n: usize) -> Result<ColumnValues, String> {
        let mut out = ColumnValues::new(physical, len);
        let mut plain = Plain::new(0, buf.len());
        if physical == PhysicalType::BOOLEAN {
            plain = plain.for_booleans();
        }
        plain.decode(buf, n, &mut out)?;
        Ok(out)
    }

    #[test]
    fn every_physical_type_decodes() {
        let ColumnValues::I32(v) = decode(PhysicalType::INT32, 0, &[1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff], 2).unwrap()
        else {
            panic!("type")
        };
        assert_eq!(v, [1, -1]);
        let ColumnValues::Bool(v) = decode(PhysicalType::BOOLEAN, 0, &[0b101], 3).unwrap() else { panic!("type") };
        assert_eq!(v, [true, false, true]);
        let ColumnValues::Bytes(b) = decode(PhysicalType::BYTE_ARRAY, 0, &[1, 0, 0, 0, b'a', 0, 0, 0, 0], 2).unwrap()
        else {
            panic!("type")
        };
        assert_eq!(b.split(), [&b"a"[..], &b""[..]]);
        let ColumnValues::Fixed(b, _) = decode(PhysicalType::FIXED_LEN_BYTE_ARRAY, 2, b"abcd", 2).unwrap() else {
            panic!("type")
        };
        assert_eq!(b.split(), [&b"ab"[..], &b"cd"[..]]);
    }

    #[test]
    fn short_pages_are_errors() {
        assert!(decode(PhysicalType::INT64, 0, &[0; 12], 2).unwrap_err().contains("12 bytes left"));
        assert!(decode(PhysicalType::BOOLEAN, 0, &[0], 9).unwrap_err().contains("8 bits left"));
        assert!(decode(PhysicalType::BYTE_ARRAY, 0, &[9, 0, 0, 0, 1], 1)
            .unwrap_err()
            .contains("runs past the page's end"));
        assert!(decode(PhysicalType::BYTE_ARRAY, 0, &[0; 7], 2)
            .unwrap_err()
            .contains("2 byte arrays, but the page has 7"));
        assert!(decode(PhysicalType::INT32, 0, &[], usize::MAX).is_err());
    }
}
