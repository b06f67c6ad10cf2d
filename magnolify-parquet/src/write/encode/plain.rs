//! PLAIN encoding of a batch's values into a page's value bytes: the
//! inverse of [`crate::codec`]'s PLAIN decoder. Booleans are packed one bit
//! each by [`BitPacker`], since a page's booleans arrive batch by batch.

use std::ops::Range;

use crate::values::{extend_from_range, ColumnValues, SHORT};

/// Appends the PLAIN bytes of `values[range]` (any type but BOOLEAN) to `out`.
pub(crate) fn encode(values: &ColumnValues, range: Range<usize>, out: &mut Vec<u8>) {
    fn fixed<T: Copy, const N: usize>(v: &[T], range: Range<usize>, out: &mut Vec<u8>, bytes: fn(T) -> [u8; N]) {
        let v = &v[range];
        out.reserve(v.len() * N);
        for x in v {
            out.extend_from_slice(&bytes(*x));
        }
    }
    match values {
        ColumnValues::I32(v) => fixed(v, range, out, i32::to_le_bytes),
        ColumnValues::I64(v) => fixed(v, range, out, i64::to_le_bytes),
        ColumnValues::F32(v) => fixed(v, range, out, f32::to_le_bytes),
        ColumnValues::F64(v) => fixed(v, range, out, f64::to_le_bytes),
        ColumnValues::I96(v) => {
            for x in &v[range] {
                for word in x.data() {
                    out.extend_from_slice(&word.to_le_bytes());
                }
            }
        }
        ColumnValues::Fixed(b, _) => {
            // Values of one length back to back: one copy of the run.
            let (start, end) = (bounds(b.ends(), range.start), bounds(b.ends(), range.end));
            out.extend_from_slice(&b.data()[start..end]);
        }
        ColumnValues::Bytes(b) => {
            let ends = b.ends();
            let (first, last) = (bounds(ends, range.start), bounds(ends, range.end));
            out.reserve(last - first + 4 * range.len() + SHORT);
            let data = b.data();
            let mut start = first;
            for &end in &ends[range] {
                out.extend_from_slice(&((end - start) as u32).to_le_bytes());
                // The ends lie in the data, in order: the slice is the old copy.
                extend_from_range(out, data, start..end).unwrap_or_else(|| out.extend_from_slice(&data[start..end]));
                start = end;
            }
        }
        ColumnValues::Bool(v) => {
            let mut packer = BitPacker::default();
            packer.extend(&v[range]);
            out.extend_from_slice(&packer.finish());
        }
    }
}

/// Where value `i` of a buffer with these `ends` starts.
fn bounds(ends: &[usize], i: usize) -> usize {
    if i == 0 {
        0
    } else {
        ends[i - 1]
    }
}

/// Packs booleans one bit each, least significant bit first.
#[derive(Debug, Default)]
pub(crate) struct BitPacker {
    bytes: Vec<u8>,
    bits: usize,
}

impl BitPacker {
    pub(crate) fn extend(&mut self, values: &[bool]) {
        self.bytes.reserve((self.bits + values.len()).div_ceil(8) - self.bytes.len());
        for &v in values {
            if self.bits.is_multiple_of(8) {
                self.bytes.push(0);
            }
            if v {
                let last = self.bytes.len() - 1;
                self.bytes[last] |= 1 << (self.bits % 8);
            }
            self.bits += 1;
        }
    }

    /// Bytes so far.
    pub(crate) fn len(&self) -> usize {
        self.bytes.len()
    }

    pub(crate) fn finish(&mut self) -> Vec<u8> {
        self.bits = 0;
        std::mem::take(&mut self.bytes)
    }
}

#[cfg(test)]
mod tests {
    use parquet::basic::Type as PhysicalType;

    use super::*;
    use crate::codec::plain::Plain;

    fn round_trip(values: &ColumnValues, range: Range<usize>) -> ColumnValues {
        let mut bytes = Vec::new();
        encode(values, range.clone(), &mut bytes);
        let mut out = match values {
            ColumnValues::Fixed(_, n) => ColumnValues::new(PhysicalType::FIXED_LEN_BYTE_ARRAY, *n as i32),
            ColumnValues::Bytes(_) => ColumnValues::new(PhysicalType::BYTE_ARRAY, 0),
            ColumnValues::Bool(_) => ColumnValues::new(PhysicalType::BOOLEAN, 0),
            ColumnValues::I32(_) => ColumnValues::new(PhysicalType::INT32, 0),
            ColumnValues::I64(_) => ColumnValues::new(PhysicalType::INT64, 0),
            ColumnValues::I96(_) => ColumnValues::new(PhysicalType::INT96, 0),
            ColumnValues::F32(_) => ColumnValues::new(PhysicalType::FLOAT, 0),
            ColumnValues::F64(_) => ColumnValues::new(PhysicalType::DOUBLE, 0),
        };
        let plain = Plain::new(0, bytes.len());
        let mut plain = if matches!(values, ColumnValues::Bool(_)) { plain.for_booleans() } else { plain };
        plain.decode(&bytes, range.len(), &mut out).unwrap();
        out
    }

    #[test]
    fn every_type_decodes_back() {
        let ints = ColumnValues::I32(vec![1, -2, 3, i32::MIN]);
        let ColumnValues::I32(v) = round_trip(&ints, 1..4) else { panic!("type") };
        assert_eq!(v, [-2, 3, i32::MIN]);
        let bools = ColumnValues::Bool((0..19).map(|i| i % 3 == 0).collect());
        let ColumnValues::Bool(v) = round_trip(&bools, 2..19) else { panic!("type") };
        assert_eq!(v, (2..19).map(|i| i % 3 == 0).collect::<Vec<_>>());
        let mut b = crate::values::ByteBuffer::default();
        for s in ["", "a", "bcd", "é"] {
            b.push(s.as_bytes());
        }
        let ColumnValues::Bytes(out) = round_trip(&ColumnValues::Bytes(b), 1..4) else { panic!("type") };
        assert_eq!(out.split(), [&b"a"[..], b"bcd", "é".as_bytes()]);
        let mut f = crate::values::ByteBuffer::default();
        f.extend_fixed(b"abcdef", 2);
        let ColumnValues::Fixed(out, _) = round_trip(&ColumnValues::Fixed(f, 2), 1..3) else { panic!("type") };
        assert_eq!(out.split(), [&b"cd"[..], b"ef"]);
    }
}
