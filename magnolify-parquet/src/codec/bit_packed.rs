//! The deprecated BIT_PACKED encoding of levels in data pages of the first
//! version: `n` levels of `bit_width(max)` bits each, back to back from the
//! most significant bit of each byte (the reverse of the hybrid encoding's
//! order), with no length before them; the last byte is padded.

use super::hybrid::bit_width;

/// Decodes `n` BIT_PACKED levels of at most `max` at the start of `buf`
/// into `out`; returns the bytes they take, `ceil(n * width / 8)`. Bytes
/// too few for `n` levels, or a level above `max`, are errors (and leave
/// `out` as it was). With `max` 0 the levels take no bytes: `n`, which the
/// caller bounds (a page's value count), is then all that limits `out`.
pub(crate) fn decode_bit_packed_levels(buf: &[u8], n: usize, max: i16, out: &mut Vec<i16>) -> Result<usize, String> {
    let max_level = u16::try_from(max).map_err(|_| format!("a negative maximum level, {max}"))?;
    let width = bit_width(u32::from(max_level));
    let bytes = n.checked_mul(usize::from(width)).map(|bits| bits.div_ceil(8));
    let bytes = bytes
        .filter(|b| *b <= buf.len())
        .ok_or_else(|| format!("{n} levels of {width} bits need more than the {} bytes left in the page", buf.len()))?;
    let before = out.len();
    out.reserve(n);
    if width == 0 {
        out.resize(before + n, 0);
        return Ok(0);
    }
    unpack(buf, width, n, out);
    if let Some(bad) = out[before..].iter().position(|l| *l > max) {
        let level = out[before + bad];
        out.truncate(before);
        return Err(format!("level {level} (index {bad}) is above the maximum {max}"));
    }
    Ok(bytes)
}

/// Appends `n` values of `width` bits (1 to 15) from `buf`, which holds
/// them, most significant bit first.
fn unpack(buf: &[u8], width: u8, n: usize, out: &mut Vec<i16>) {
    // 8 values of `width` bits are `width` whole bytes: each group is read
    // as one big-endian word whose top bits are the first value.
    let group_bytes = usize::from(width);
    let mask = (1u128 << width) - 1;
    let mut left = n;
    for group in buf.chunks(group_bytes) {
        if left == 0 {
            break;
        }
        let mut word = [0u8; 16];
        word.iter_mut().zip(group).for_each(|(w, b)| *w = *b);
        let word = u128::from_be_bytes(word);
        let take = left.min(8);
        out.extend((1..=take).map(|k| ((word >> (128 - k * usize::from(width))) & mask) as i16));
        left -= take;
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_pages::Rng;
    use super::*;

    /// Packs `values` of `width` bits from the most significant bit, as the
    /// format's BIT_PACKED section describes.
    fn pack(values: &[i16], width: u32) -> Vec<u8> {
        let mut out = vec![0u8; (values.len() * width as usize).div_ceil(8)];
        for (i, v) in values.iter().enumerate() {
            for b in 0..width {
                if (*v as u16) >> (width - 1 - b) & 1 == 1 {
                    let bit = i * width as usize + b as usize;
                    out[bit / 8] |= 0x80 >> (bit % 8);
                }
            }
        }
        out
    }

    fn decode(buf: &[u8], n: usize, max: i16) -> Result<(Vec<i16>, usize), String> {
        let mut out = Vec::new();
        let bytes = decode_bit_packed_levels(buf, n, max, &mut out)?;
        Ok((out, bytes))
    }

    #[test]
    fn the_example_of_the_format_decodes() {
        // 0 to 7 on 3 bits: 000 001 010 011 100 101 110 111.
        let buf = [0b0000_0101, 0b0011_1001, 0b0111_0111];
        assert_eq!(decode(&buf, 8, 7).unwrap(), ((0..8).collect(), 3));
        assert_eq!(pack(&(0..8).collect::<Vec<_>>(), 3), buf);
        // The hybrid encoding's bytes for the same values read otherwise.
        assert_ne!(decode(&[0x88, 0xc6, 0xfa], 8, 7).unwrap().0, (0..8).collect::<Vec<_>>());
        // 30 levels of 2 bits (a maximum of 3) take 8 bytes.
        let levels: Vec<i16> = (0..30).map(|i| i % 4).collect();
        let mut buf = pack(&levels, 2);
        assert_eq!(buf.len(), 8);
        buf.extend_from_slice(&[0xff; 3]);
        assert_eq!(decode(&buf, 30, 3).unwrap(), (levels, 8));
    }

    #[test]
    fn every_width_round_trips() {
        let mut rng = Rng::new(21);
        for max in [1i16, 2, 3, 4, 7, 8, 100, 255, 256, 1000, 16384, i16::MAX] {
            let width = u32::from(bit_width(max as u32));
            for n in [0, 1, 7, 8, 9, 30, 1001] {
                let levels: Vec<i16> = (0..n).map(|_| rng.below(max as usize + 1) as i16).collect();
                let buf = pack(&levels, width);
                let mut out = vec![-5];
                assert_eq!(decode_bit_packed_levels(&buf, n, max, &mut out).unwrap(), buf.len());
                assert_eq!(out[1..], levels, "max {max}, {n} levels");
            }
        }
    }

    #[test]
    fn a_maximum_of_zero_takes_no_bytes() {
        assert_eq!(decode(&[], 5, 0).unwrap(), (vec![0; 5], 0));
        assert_eq!(decode(&[0xff], 0, 1).unwrap(), (vec![], 0));
    }

    #[test]
    fn bad_levels_are_errors() {
        let err = |buf: &[u8], n, max| {
            let mut out = vec![1];
            let err = decode_bit_packed_levels(buf, n, max, &mut out).unwrap_err();
            assert_eq!(out, [1]);
            err
        };
        assert_eq!(err(&[0; 3], 9, 7), "9 levels of 3 bits need more than the 3 bytes left in the page");
        assert_eq!(
            err(&[], usize::MAX, 1),
            format!("{} levels of 1 bits need more than the 0 bytes left in the page", usize::MAX)
        );
        assert_eq!(err(&[], 1, -1), "a negative maximum level, -1");
        // Two bits hold a 3 where the maximum is 2.
        assert_eq!(err(&[0b1011_0000], 3, 2), "level 3 (index 1) is above the maximum 2");
    }

    #[test]
    fn random_input_never_panics_nor_reserves_past_its_bound() {
        let mut rng = Rng::new(22);
        for _ in 0..5000 {
            let len = rng.below(40);
            let buf = rng.bytes(len);
            let n = rng.below(400);
            let max = [-1, 0, 1, 2, 3, 5, 100, i16::MAX][rng.below(8)];
            let mut out = Vec::new();
            match decode_bit_packed_levels(&buf, n, max, &mut out) {
                Ok(bytes) => {
                    assert!(bytes <= len);
                    assert_eq!(out.len(), n);
                    assert!(out.iter().all(|l| (0..=max).contains(l)));
                }
                Err(e) => {
                    assert!(!e.is_empty());
                    assert!(out.is_empty());
                }
            }
            // `n` levels at most, which the caller bounds.
            assert!(out.capacity() <= n.max(8));
        }
    }

    /// The `parquet` crate reads BIT_PACKED levels least significant bit
    /// first, the order of the hybrid encoding, where the format and
    /// parquet-java read them most significant bit first: files with such
    /// levels decode differently here than through the crate.
    #[test]
    #[allow(deprecated)]
    fn the_parquet_crate_reads_them_in_the_other_bit_order() {
        use std::sync::Arc;

        use bytes::Bytes;
        use parquet::basic::{Encoding, Repetition, Type as PhysicalType};
        use parquet::column::page::Page;
        use parquet::schema::types::{ColumnDescriptor, ColumnPath, Type as SchemaType};

        let leaf = SchemaType::primitive_type_builder("v", PhysicalType::INT32).with_repetition(Repetition::OPTIONAL);
        let path = ColumnPath::new(vec!["v".to_owned()]);
        let descr = Arc::new(ColumnDescriptor::new(Arc::new(leaf.build().unwrap()), 1, 0, path));
        // Levels 1 1 0 0 0 0 0 0, then two PLAIN values.
        let buf = [&[0b1100_0000][..], &7i32.to_le_bytes(), &8i32.to_le_bytes()].concat();
        assert_eq!(decode(&buf, 8, 1).unwrap(), (vec![1, 1, 0, 0, 0, 0, 0, 0], 1));
        let page = Page::DataPage {
            buf: Bytes::from(buf),
            num_values: 8,
            encoding: Encoding::PLAIN,
            def_level_encoding: Encoding::BIT_PACKED,
            rep_level_encoding: Encoding::RLE,
            statistics: None,
        };
        let pages = super::super::page_queue::PageQueue::new([page]);
        let mut def = Vec::new();
        super::super::reference::read_all(&descr, Box::new(pages), &mut def, &mut Vec::new()).unwrap();
        assert_eq!(def, [0, 0, 0, 0, 0, 0, 1, 1]);
    }
}
