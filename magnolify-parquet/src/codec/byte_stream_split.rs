//! BYTE_STREAM_SPLIT values: for values of `K` bytes, the first bytes of
//! all the values, then all their second bytes, and so on, `K` streams of
//! `n` bytes each. Nothing says how many values there are: the values
//! section of the page holds exactly `K * n` bytes.

use crate::values::{ByteBuffer, ColumnValues};

/// Decodes the BYTE_STREAM_SPLIT values of `buf` (the whole values section
/// of a page) into `out`, whose variant gives the values' width: FLOAT and
/// INT32 4 bytes, DOUBLE and INT64 8, FIXED_LEN_BYTE_ARRAY its length.
/// Returns how many values it appended; a length that is not a multiple
/// of the width is an error.
pub(crate) fn decode_byte_stream_split(buf: &[u8], out: &mut ColumnValues) -> Result<usize, String> {
    match out {
        ColumnValues::F32(v) => gather(buf, v, f32::from_le_bytes),
        ColumnValues::I32(v) => gather(buf, v, i32::from_le_bytes),
        ColumnValues::F64(v) => gather(buf, v, f64::from_le_bytes),
        ColumnValues::I64(v) => gather(buf, v, i64::from_le_bytes),
        ColumnValues::Fixed(b, width) => gather_fixed(buf, *width, b),
        other => Err(format!("BYTE_STREAM_SPLIT values in a column of {}", other.kind())),
    }
}

/// How many values of `width` bytes `len` bytes hold.
fn count(len: usize, width: usize) -> Result<usize, String> {
    if width == 0 {
        return Err("BYTE_STREAM_SPLIT values of 0 bytes".to_owned());
    }
    if !len.is_multiple_of(width) {
        return Err(format!("{len} bytes of BYTE_STREAM_SPLIT values, not a multiple of their {width} bytes"));
    }
    Ok(len / width)
}

/// Values are put together a block at a time: each stream's bytes of the
/// block are read in order, and the block stays in the cache.
const BLOCK: usize = 64;

/// Appends the values of `K` bytes each, built by `from`.
fn gather<const K: usize, T>(buf: &[u8], out: &mut Vec<T>, from: fn([u8; K]) -> T) -> Result<usize, String> {
    let n = count(buf.len(), K)?;
    if n == 0 {
        return Ok(0);
    }
    let mut streams: [&[u8]; K] = [&[]; K];
    streams.iter_mut().zip(buf.chunks_exact(n)).for_each(|(s, chunk)| *s = chunk);
    // `n` values take `K * n` bytes of the page: the reservation is bounded
    // by the input.
    out.reserve(n);
    let mut block = [[0u8; K]; BLOCK];
    for start in (0..n).step_by(BLOCK) {
        let len = BLOCK.min(n - start);
        for (k, stream) in streams.iter().enumerate() {
            let bytes = stream.get(start..start + len).unwrap_or_default();
            block.iter_mut().zip(bytes).for_each(|(value, byte)| value[k] = *byte);
        }
        out.extend(block[..len].iter().map(|bytes| from(*bytes)));
    }
    Ok(n)
}

/// Appends the values of `width` bytes each.
fn gather_fixed(buf: &[u8], width: usize, out: &mut ByteBuffer) -> Result<usize, String> {
    let n = count(buf.len(), width)?;
    if n == 0 {
        return Ok(0);
    }
    // The values, one after the other: as many bytes as the page's.
    let mut values = vec![0u8; buf.len()];
    for start in (0..n).step_by(BLOCK) {
        let len = BLOCK.min(n - start);
        let block = values.get_mut(start * width..(start + len) * width).unwrap_or_default();
        for (k, stream) in buf.chunks_exact(n).enumerate() {
            let bytes = stream.get(start..start + len).unwrap_or_default();
            block.chunks_exact_mut(width).zip(bytes).for_each(|(value, byte)| value[k] = *byte);
        }
    }
    out.extend_fixed(&values, width);
    Ok(n)
}

#[cfg(test)]
mod tests {
    use parquet::basic::{Encoding, Type as PhysicalType};
    use parquet::data_type::{
        ByteArray, DataType, DoubleType, FixedLenByteArray, FixedLenByteArrayType, FloatType, Int32Type, Int64Type,
    };
    use parquet::file::properties::WriterVersion;

    use super::super::test_pages::{data_pages, props, Rng};
    use super::*;

    /// Writes `values` with the `parquet` crate in BYTE_STREAM_SPLIT pages
    /// of both versions, and decodes each page into a fresh `empty`.
    fn crate_pages<T: DataType>(
        physical: PhysicalType,
        length: i32,
        values: &[T::T],
        empty: ColumnValues,
    ) -> Vec<ColumnValues> {
        let mut decoded = Vec::new();
        for version in [WriterVersion::PARQUET_1_0, WriterVersion::PARQUET_2_0] {
            let mut out = empty.clone();
            let props = props(Encoding::BYTE_STREAM_SPLIT, version, 1000);
            for (encoding, buf) in data_pages::<T>(physical, length, props, values) {
                assert_eq!(encoding, Encoding::BYTE_STREAM_SPLIT);
                let before = out.len();
                assert_eq!(decode_byte_stream_split(&buf, &mut out).unwrap(), out.len() - before);
            }
            decoded.push(out);
        }
        decoded
    }

    #[test]
    fn pages_of_the_parquet_crate_decode() {
        let mut rng = Rng::new(11);
        for n in [1, 2, 127, 128, 129, 3001] {
            let bits: Vec<u64> = (0..n).map(|_| rng.next_u64()).collect();
            let mut floats: Vec<f32> = bits.iter().map(|b| f32::from_bits(*b as u32)).collect();
            let mut doubles: Vec<f64> = bits.iter().map(|b| f64::from_bits(*b)).collect();
            if n > 5 {
                floats[..5].copy_from_slice(&[f32::NAN, -0.0, f32::INFINITY, f32::MIN_POSITIVE, f32::MAX]);
                doubles[..5].copy_from_slice(&[f64::NAN, -0.0, f64::NEG_INFINITY, f64::MIN_POSITIVE, f64::MIN]);
            }
            // Floats compare by their bits: NaN is not equal to itself.
            for out in crate_pages::<FloatType>(PhysicalType::FLOAT, 0, &floats, ColumnValues::F32(vec![])) {
                let ColumnValues::F32(v) = out else { panic!("type") };
                assert!(v.iter().map(|f| f.to_bits()).eq(floats.iter().map(|f| f.to_bits())));
            }
            for out in crate_pages::<DoubleType>(PhysicalType::DOUBLE, 0, &doubles, ColumnValues::F64(vec![])) {
                let ColumnValues::F64(v) = out else { panic!("type") };
                assert!(v.iter().map(|f| f.to_bits()).eq(doubles.iter().map(|f| f.to_bits())));
            }
            let ints: Vec<i32> = bits.iter().map(|b| *b as i32).collect();
            for out in crate_pages::<Int32Type>(PhysicalType::INT32, 0, &ints, ColumnValues::I32(vec![])) {
                let ColumnValues::I32(v) = out else { panic!("type") };
                assert_eq!(v, ints);
            }
            let longs: Vec<i64> = bits.iter().map(|b| *b as i64).collect();
            for out in crate_pages::<Int64Type>(PhysicalType::INT64, 0, &longs, ColumnValues::I64(vec![])) {
                let ColumnValues::I64(v) = out else { panic!("type") };
                assert_eq!(v, longs);
            }
            for width in [1, 3, 16] {
                let values: Vec<Vec<u8>> = (0..n).map(|_| rng.bytes(width)).collect();
                let arrays: Vec<FixedLenByteArray> =
                    values.iter().map(|v| FixedLenByteArray::from(ByteArray::from(v.clone()))).collect();
                let empty = ColumnValues::Fixed(ByteBuffer::default(), width);
                let physical = PhysicalType::FIXED_LEN_BYTE_ARRAY;
                for out in crate_pages::<FixedLenByteArrayType>(physical, width as i32, &arrays, empty) {
                    let ColumnValues::Fixed(b, _) = out else { panic!("type") };
                    assert_eq!(b.split(), values.iter().map(Vec::as_slice).collect::<Vec<_>>());
                }
            }
        }
    }

    #[test]
    fn the_example_of_the_format_decodes() {
        let buf = [0xaa, 0x00, 0xa3, 0xbb, 0x11, 0xb4, 0xcc, 0x22, 0xc5, 0xdd, 0x33, 0xd6];
        let mut out = ColumnValues::I32(vec![7]);
        assert_eq!(decode_byte_stream_split(&buf, &mut out).unwrap(), 3);
        let ColumnValues::I32(v) = out else { panic!("type") };
        let expected = [[0xaa, 0xbb, 0xcc, 0xdd], [0x00, 0x11, 0x22, 0x33], [0xa3, 0xb4, 0xc5, 0xd6]];
        assert_eq!(v, [7].into_iter().chain(expected.map(i32::from_le_bytes)).collect::<Vec<_>>());
        let mut out = ColumnValues::F32(vec![]);
        decode_byte_stream_split(&buf, &mut out).unwrap();
        let ColumnValues::F32(v) = out else { panic!("type") };
        assert!(v.iter().map(|f| f.to_bits()).eq(expected.map(u32::from_le_bytes)));
        // Six values of two bytes, or two of six.
        let mut out = ColumnValues::Fixed(ByteBuffer::default(), 2);
        assert_eq!(decode_byte_stream_split(&buf, &mut out).unwrap(), 6);
        let ColumnValues::Fixed(b, _) = &out else { panic!("type") };
        assert_eq!(b.get(0), Some(&[0xaa, 0xcc][..]));
        assert_eq!(b.get(5), Some(&[0xb4, 0xd6][..]));
        let mut out = ColumnValues::Fixed(ByteBuffer::default(), 6);
        assert_eq!(decode_byte_stream_split(&buf, &mut out).unwrap(), 2);
        let ColumnValues::Fixed(b, _) = &out else { panic!("type") };
        assert_eq!(b.split(), [&[0xaa, 0xa3, 0x11, 0xcc, 0xc5, 0x33][..], &[0x00, 0xbb, 0xb4, 0x22, 0xdd, 0xd6]]);
    }

    #[test]
    fn an_empty_section_holds_no_values() {
        for mut out in [ColumnValues::F64(vec![]), ColumnValues::Fixed(ByteBuffer::default(), 5)] {
            assert_eq!(decode_byte_stream_split(&[], &mut out).unwrap(), 0);
            assert_eq!(out.len(), 0);
        }
    }

    #[test]
    fn bad_sections_are_errors() {
        let err = |buf: &[u8], mut out: ColumnValues| {
            let err = decode_byte_stream_split(buf, &mut out).unwrap_err();
            assert_eq!(out.len(), 0);
            err
        };
        assert_eq!(
            err(&[0; 10], ColumnValues::F32(vec![])),
            "10 bytes of BYTE_STREAM_SPLIT values, not a multiple of their 4 bytes"
        );
        assert_eq!(
            err(&[0; 12], ColumnValues::I64(vec![])),
            "12 bytes of BYTE_STREAM_SPLIT values, not a multiple of their 8 bytes"
        );
        assert_eq!(
            err(&[0; 7], ColumnValues::Fixed(ByteBuffer::default(), 3)),
            "7 bytes of BYTE_STREAM_SPLIT values, not a multiple of their 3 bytes"
        );
        assert_eq!(err(&[], ColumnValues::Fixed(ByteBuffer::default(), 0)), "BYTE_STREAM_SPLIT values of 0 bytes");
        assert_eq!(err(&[0; 4], ColumnValues::Bool(vec![])), "BYTE_STREAM_SPLIT values in a column of BOOLEAN");
        assert_eq!(err(&[0; 12], ColumnValues::I96(vec![])), "BYTE_STREAM_SPLIT values in a column of INT96");
        assert_eq!(
            err(&[0; 4], ColumnValues::Bytes(ByteBuffer::default())),
            "BYTE_STREAM_SPLIT values in a column of BYTE_ARRAY"
        );
    }

    #[test]
    fn random_input_never_panics_nor_reserves_past_its_length() {
        let mut rng = Rng::new(12);
        for _ in 0..5000 {
            let len = rng.below(100);
            let buf = rng.bytes(len);
            let width = rng.below(20);
            let mut out = match rng.below(5) {
                0 => ColumnValues::F32(vec![]),
                1 => ColumnValues::F64(vec![]),
                2 => ColumnValues::I32(vec![]),
                3 => ColumnValues::I64(vec![]),
                _ => ColumnValues::Fixed(ByteBuffer::default(), width),
            };
            match decode_byte_stream_split(&buf, &mut out) {
                Ok(n) => assert_eq!(n, out.len()),
                Err(e) => assert!(e.contains("BYTE_STREAM_SPLIT"), "{e}"),
            }
            let capacity = match &mut out {
                ColumnValues::F32(v) => v.capacity() * 4,
                ColumnValues::I32(v) => v.capacity() * 4,
                ColumnValues::F64(v) => v.capacity() * 8,
                ColumnValues::I64(v) => v.capacity() * 8,
                ColumnValues::Fixed(b, _) => b.take_data(0).capacity(),
                _ => unreachable!(),
            };
            assert!(capacity <= len.max(32), "{capacity} bytes reserved for {len}");
        }
    }
}
