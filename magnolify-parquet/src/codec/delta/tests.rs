//! The DELTA decoders against the `parquet` crate's writer and reader, on
//! streams built here, and on damaged and random input.

use std::time::Instant;

use parquet::basic::{Encoding, Type as PhysicalType};
use parquet::data_type::{
    ByteArray, ByteArrayType, DataType, FixedLenByteArray, FixedLenByteArrayType, Int32Type, Int64Type,
};
use parquet::file::properties::{DeltaBinaryPackedEncoderOptions, WriterProperties, WriterVersion};

use super::super::test_pages::{data_pages, props, props_builder, Rng};
use super::binary_packed::read_header;
use super::*;
use crate::values::ByteBuffer;

// ---- A DELTA_BINARY_PACKED encoder from the spec, for hand-built streams.

/// How a test stream is laid out.
#[derive(Clone, Copy)]
struct Layout {
    block: usize,
    miniblocks: usize,
    /// The bit width written for the last block's unused miniblocks.
    unused_width: u8,
    /// Whether the last miniblock is written without its padding.
    cut_padding: bool,
}

const LAYOUT: Layout = Layout { block: 128, miniblocks: 4, unused_width: 0, cut_padding: false };

fn put_uleb(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

/// Appends `values` of `width` bits, least significant bit first.
fn pack(out: &mut Vec<u8>, values: &[u64], width: u32) {
    let (mut acc, mut bits) = (0u128, 0u32);
    for &v in values {
        acc |= u128::from(v) << bits;
        bits += width;
        while bits >= 8 {
            out.push(acc as u8);
            acc >>= 8;
            bits -= 8;
        }
    }
    if bits > 0 {
        out.push(acc as u8);
    }
}

/// Encodes `values`, of `bits` bits (32 or 64, their deltas wrapping
/// at that width), as the spec says, laid out as `layout` says.
fn encode(values: &[i64], bits: u32, layout: Layout) -> Vec<u8> {
    let cut = |v: u64| if bits == 32 { v & 0xffff_ffff } else { v };
    let signed = |v: u64| if bits == 32 { i64::from(v as i32) } else { v as i64 };
    let mut out = Vec::new();
    put_uleb(&mut out, layout.block as u64);
    put_uleb(&mut out, layout.miniblocks as u64);
    put_uleb(&mut out, values.len() as u64);
    put_uleb(&mut out, zigzag(values.first().map_or(0, |v| signed(*v as u64))));
    let deltas: Vec<i64> = values.windows(2).map(|w| signed(cut((w[1] as u64).wrapping_sub(w[0] as u64)))).collect();
    let per_miniblock = layout.block / layout.miniblocks;
    for block in deltas.chunks(layout.block) {
        let min = *block.iter().min().unwrap();
        put_uleb(&mut out, zigzag(min));
        let relative: Vec<u64> = block.iter().map(|d| cut((*d as u64).wrapping_sub(min as u64))).collect();
        let miniblocks: Vec<&[u64]> = relative.chunks(per_miniblock).collect();
        let widths: Vec<u32> = miniblocks.iter().map(|m| 64 - m.iter().max().unwrap().leading_zeros()).collect();
        for i in 0..layout.miniblocks {
            out.push(widths.get(i).map_or(layout.unused_width, |w| *w as u8));
        }
        for (m, width) in miniblocks.iter().zip(&widths) {
            let mut padded = m.to_vec();
            padded.resize(per_miniblock, 0);
            pack(&mut out, &padded, *width);
        }
    }
    if layout.cut_padding && !deltas.is_empty() {
        // Drop the bytes of the last miniblock past its last value.
        let last = deltas.len() % per_miniblock;
        let last = if last == 0 { per_miniblock } else { last };
        let relative_bits = {
            let block = deltas.chunks(layout.block).last().unwrap();
            let min = *block.iter().min().unwrap();
            let m = block.chunks(per_miniblock).last().unwrap();
            m.iter().map(|d| 64 - cut((*d as u64).wrapping_sub(min as u64)).leading_zeros()).max().unwrap() as usize
        };
        let padding = (per_miniblock - last) * relative_bits / 8;
        out.truncate(out.len() - padding);
    }
    out
}

fn decode_i32(buf: &[u8], max_values: usize) -> Result<(Vec<i32>, usize), String> {
    let mut out = Vec::new();
    let taken = decode_binary_packed_i32(buf, max_values, &mut out)?;
    Ok((out, taken))
}

fn decode_i64(buf: &[u8], max_values: usize) -> Result<(Vec<i64>, usize), String> {
    let mut out = Vec::new();
    let taken = decode_binary_packed_i64(buf, max_values, &mut out)?;
    Ok((out, taken))
}

fn round_trip_i32(values: &[i32], layout: Layout) {
    let wide: Vec<i64> = values.iter().map(|v| i64::from(*v)).collect();
    let mut buf = encode(&wide, 32, layout);
    let len = buf.len();
    buf.extend_from_slice(b"trailing");
    let (out, taken) = decode_i32(&buf, values.len()).unwrap();
    assert_eq!(out, values);
    assert_eq!(taken, len);
}

fn round_trip_i64(values: &[i64], layout: Layout) {
    let mut buf = encode(values, 64, layout);
    let len = buf.len();
    buf.extend_from_slice(b"trailing");
    let (out, taken) = decode_i64(&buf, values.len()).unwrap();
    assert_eq!(out, values);
    assert_eq!(taken, len);
}

/// The value sets of the integer tests, each as `i64`.
fn integer_cases(rng: &mut Rng, bits: u32) -> Vec<Vec<i64>> {
    let (min, max) = if bits == 32 { (i64::from(i32::MIN), i64::from(i32::MAX)) } else { (i64::MIN, i64::MAX) };
    let random = |rng: &mut Rng, n: usize| -> Vec<i64> {
        (0..n).map(|_| if bits == 32 { i64::from(rng.next_u64() as i32) } else { rng.next_u64() as i64 }).collect()
    };
    let mut cases = Vec::new();
    for n in [1, 2, 3, 31, 32, 33, 127, 128, 129, 130, 255, 256, 257, 4097, 5000] {
        cases.push(random(rng, n));
    }
    // Extremes, whose deltas wrap both ways.
    let extremes = [min, max, min, max, 0, -1, 1, min, min, max, max, 0, min + 1, max - 1];
    cases.push(extremes.iter().copied().cycle().take(1000).collect());
    cases.push(vec![max, min]);
    cases.push(vec![min, max]);
    // Constant runs (widths of 0), a progression (widths of 0, a min
    // delta that is not), small noise and a jump.
    cases.push(vec![42; 3000]);
    cases.push(vec![min; 129]);
    cases.push((0..2000).map(|i| i * 7 - 5000).collect());
    cases.push((0..2000).map(|i| if i == 1500 { max } else { (rng.next_u64() % 5) as i64 }).collect());
    cases.push((0..700).map(|i| if i % 2 == 0 { min } else { max }).collect());
    cases
}

// ---- DELTA_BINARY_PACKED against the parquet crate's writer.

const LAYOUTS: [(usize, usize); 5] = [(128, 4), (128, 1), (256, 2), (256, 8), (1024, 8)];

fn options(block: usize, miniblocks: usize) -> DeltaBinaryPackedEncoderOptions {
    DeltaBinaryPackedEncoderOptions::try_new(block, miniblocks).unwrap()
}

/// Every writer setting the integer tests use: both page versions, one
/// page or many, the default layout and others.
fn writer_settings() -> Vec<WriterProperties> {
    let mut all = Vec::new();
    for version in [WriterVersion::PARQUET_1_0, WriterVersion::PARQUET_2_0] {
        for page_rows in [usize::MAX, 1000] {
            all.push(props(Encoding::DELTA_BINARY_PACKED, version, page_rows));
        }
        for (block, miniblocks) in LAYOUTS {
            all.push(
                props_builder(Encoding::DELTA_BINARY_PACKED, version, 700)
                    .set_delta_binary_packed_encoder_options(options(block, miniblocks))
                    .build(),
            );
        }
    }
    all
}

/// The parquet crate's DELTA_BINARY_PACKED pages of `values`, under every
/// writer setting, each decode by `decode` to exactly the whole page.
fn crate_pages_decode<T: DataType>(
    physical: PhysicalType,
    values: &[T::T],
    decode: impl Fn(&[u8], usize, &mut Vec<T::T>) -> Result<usize, String>,
) where
    T::T: PartialEq + std::fmt::Debug,
{
    for props in writer_settings() {
        let mut decoded = Vec::new();
        for (encoding, buf) in data_pages::<T>(physical, 0, props, values) {
            assert_eq!(encoding, Encoding::DELTA_BINARY_PACKED);
            let taken = decode(&buf, values.len(), &mut decoded).unwrap();
            assert_eq!(taken, buf.len(), "the stream is the whole values section");
        }
        assert_eq!(decoded, values, "{} values", values.len());
    }
}

#[test]
fn int32_pages_of_the_parquet_crate_decode() {
    let mut rng = Rng::new(1);
    for case in integer_cases(&mut rng, 32) {
        let values: Vec<i32> = case.iter().map(|v| *v as i32).collect();
        crate_pages_decode::<Int32Type>(PhysicalType::INT32, &values, decode_binary_packed_i32);
    }
}

#[test]
fn int64_pages_of_the_parquet_crate_decode() {
    let mut rng = Rng::new(2);
    for values in integer_cases(&mut rng, 64) {
        crate_pages_decode::<Int64Type>(PhysicalType::INT64, &values, decode_binary_packed_i64);
    }
}

// ---- DELTA_BINARY_PACKED streams built here.

#[test]
fn streams_of_every_layout_round_trip() {
    let mut rng = Rng::new(3);
    let layouts = [(128, 4), (128, 1), (128, 2), (256, 8), (512, 16), (1024, 1), (4096, 32)];
    for (i, case) in integer_cases(&mut rng, 64).into_iter().enumerate() {
        for (block, miniblocks) in layouts {
            // Arbitrary widths for the unused miniblocks, as readers must accept.
            let unused_width = [0, 1, 33, 65, 0xff][i % 5];
            let layout = Layout { block, miniblocks, unused_width, cut_padding: false };
            round_trip_i64(&case, layout);
            let narrow: Vec<i32> = case.iter().map(|v| *v as i32).collect();
            round_trip_i32(&narrow, layout);
        }
    }
}

#[test]
fn every_bit_width_decodes() {
    let mut rng = Rng::new(4);
    for width in 0..=64u32 {
        // Deltas in 0..2^width above a min delta of 0: values are their sums.
        let mut values = vec![0i64];
        for _ in 0..300 {
            let delta = rng.next_u64().checked_shr(64 - width).unwrap_or(0);
            values.push(values.last().unwrap().wrapping_add(delta as i64));
        }
        round_trip_i64(&values, LAYOUT);
        if width <= 32 {
            round_trip_i32(&values.iter().map(|v| *v as i32).collect::<Vec<_>>(), LAYOUT);
        }
    }
}

#[test]
fn zero_and_one_values_have_no_blocks() {
    // Header: block 128, 4 miniblocks, count, first value.
    let (out, taken) = decode_i32(&[0x80, 0x01, 4, 0, 0, 0xaa], 0).unwrap();
    assert_eq!((out, taken), (vec![], 5));
    let (out, taken) = decode_i64(&[0x80, 0x01, 4, 1, 0x03, 0xaa, 0xbb], 1).unwrap();
    assert_eq!((out, taken), (vec![-2], 5));
    // A count of 0 in a page that holds none is not an error.
    assert_eq!(decode_i64(&[0x80, 0x01, 4, 0, 0], 0).unwrap().0, Vec::<i64>::new());
}

#[test]
fn the_first_value_takes_every_width() {
    for v in [0, 1, -1, i64::MIN, i64::MAX] {
        let buf = encode(&[v], 64, LAYOUT);
        assert_eq!(decode_i64(&buf, 1).unwrap().0, [v]);
    }
    for v in [i32::MIN, i32::MAX] {
        let buf = encode(&[i64::from(v)], 32, LAYOUT);
        assert_eq!(decode_i32(&buf, 1).unwrap().0, [v]);
    }
}

#[test]
fn a_last_miniblock_without_its_padding_is_read() {
    for n in [3, 30, 33, 100, 129, 200] {
        let values: Vec<i64> = (0..n).map(|i| i * i * 1000 - 7).collect();
        let layout = Layout { cut_padding: true, ..LAYOUT };
        let buf = encode(&values, 64, layout);
        let (out, taken) = decode_i64(&buf, n as usize).unwrap();
        assert_eq!(out, values);
        assert_eq!(taken, buf.len());
        // Without the last value's own bits it is an error.
        let err = decode_i64(&buf[..buf.len() - 1], n as usize).unwrap_err();
        assert!(err.contains("runs past the stream's end"), "{err}");
    }
}

#[test]
fn the_example_of_the_format_decodes() {
    // Example 2 of the format with a valid block size: 7 5 3 1 2 3 4 5,
    // min delta -2, relative deltas 0 0 0 3 3 3 3 on 2 bits.
    let mut buf = vec![0x80, 0x01, 1, 8, 14, 3, 2];
    pack(&mut buf, &[0, 0, 0, 3, 3, 3, 3], 2);
    buf.resize(buf.len() + (128 * 2 / 8 - 2), 0);
    assert_eq!(decode_i32(&buf, 8).unwrap(), (vec![7, 5, 3, 1, 2, 3, 4, 5], buf.len()));
}

// ---- Damaged DELTA_BINARY_PACKED streams.

fn err_i32(buf: &[u8], max_values: usize) -> String {
    let mut out = vec![9];
    let err = decode_binary_packed_i32(buf, max_values, &mut out).unwrap_err();
    assert_eq!(out, [9], "the values are left as they were");
    err
}

fn err_i64(buf: &[u8], max_values: usize) -> String {
    let mut out = vec![9];
    let err = decode_binary_packed_i64(buf, max_values, &mut out).unwrap_err();
    assert_eq!(out, [9], "the values are left as they were");
    err
}

#[track_caller]
fn assert_err(err: String, expected: &str) {
    assert!(err.contains(expected), "{err:?} does not say {expected:?}");
}

#[test]
fn bad_headers_are_errors() {
    assert_err(err_i32(&[], 1), "the stream ends inside the block size");
    assert_err(err_i32(&[0x80, 0x01, 4, 2], 9), "the stream ends inside the first value");
    assert_err(err_i32(&[0, 4, 2, 0], 9), "a block size of 0 values, not a positive multiple of 128");
    assert_err(err_i32(&[100, 4, 2, 0], 9), "a block size of 100 values, not a positive multiple of 128");
    assert_err(err_i32(&[0x80, 0x01, 0, 2, 0], 9), "0 miniblocks do not divide a block of 128 values");
    assert_err(err_i32(&[0x80, 0x01, 3, 2, 0], 9), "3 miniblocks do not divide a block of 128 values");
    assert_err(err_i32(&[0x80, 0x01, 8, 2, 0], 9), "miniblocks of 16 values, not a multiple of 32");
    assert_err(err_i32(&[0x80, 0x01, 4, 10, 0], 9), "the stream declares 10 values, but the page holds at most 9");
    // Varints longer than their type, or with bits past it.
    assert_err(err_i32(&[0x80, 0x81, 0x80, 0x80, 0x80, 0], 9), "the block size is a varint longer than 5 bytes");
    assert_err(err_i32(&[0x80, 0x80, 0x80, 0x80, 0x10], 9), "the block size does not fit in 32 bits");
    assert_err(err_i32(&[0x80, 0x01, 4, 0xff, 0xff, 0xff, 0xff, 0x7f, 0], 9), "the value count does not fit");
    assert_err(
        err_i32(&[0x80, 0x01, 4, 1, 0x80, 0x80, 0x80, 0x80, 0x10], 9),
        "the first value does not fit in 32 bits",
    );
    let mut long = vec![0x80, 0x01, 4, 1];
    long.extend_from_slice(&[0xff; 9]);
    long.push(0x02);
    assert_err(err_i64(&long, 9), "the first value does not fit in 64 bits");
    long[13] = 0x81;
    long.push(0);
    assert_err(err_i64(&long, 9), "the first value is a varint longer than 10 bytes");
    // The largest values of each width are fine.
    long.truncate(13);
    long.push(0x01);
    assert_eq!(decode_i64(&long, 1).unwrap().0, [i64::MIN]);
    assert_eq!(decode_i32(&[0x80, 0x01, 4, 1, 0xff, 0xff, 0xff, 0xff, 0x0f], 1).unwrap().0, [i32::MIN]);
}

#[test]
fn bad_blocks_are_errors() {
    let header = [0x80, 0x01, 4, 40, 0];
    let with = |block: &[u8]| [&header[..], block].concat();
    assert_err(err_i32(&header, 99), "39 deltas in blocks of 4 miniblocks need at least 5 bytes, but 0 are left");
    assert_err(err_i32(&with(&[0x80, 0x80, 0, 0, 0]), 99), "the stream ends inside a block's 4 bit widths");
    assert_err(err_i32(&with(&[0x80, 0x80, 0x80, 0x80, 0x80]), 99), "a block's min delta is a varint longer");
    assert_err(err_i32(&with(&[0, 33, 0, 0, 0]), 99), "a miniblock bit width of 33, more than 32");
    assert_err(err_i64(&with(&[0, 65, 0, 0, 0]), 99), "a miniblock bit width of 65, more than 64");
    // 39 deltas: a whole first miniblock of 32 (4 bytes at 1 bit), then 7.
    assert_err(err_i32(&with(&[0, 1, 1, 0, 0, 0xff, 0xff, 0xff]), 99), "a miniblock of 4 bytes runs past");
    // The last miniblock needs 7 bits of its 32, one byte: none is there.
    assert_err(err_i32(&with(&[0, 1, 1, 0, 0, 0xff, 0xff, 0xff, 0xff]), 99), "a miniblock of 4 bytes runs past");
    let ok = with(&[0, 1, 1, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x7f]);
    let (values, taken) = decode_i32(&ok, 99).unwrap();
    assert_eq!(values, (0..40).collect::<Vec<_>>());
    assert_eq!(taken, ok.len());
    // A min delta of more than 32 bits in an INT32 stream.
    assert_err(
        err_i32(&with(&[0x80, 0x80, 0x80, 0x80, 0x10, 0, 0, 0, 0]), 99),
        "a block's min delta does not fit in 32",
    );
}

#[test]
fn sums_wrap_as_the_format_says() {
    // i32::MAX then a delta of +1 (min delta 1, width 0): i32::MIN.
    let buf = [0x80, 0x01, 4, 3, 0xfe, 0xff, 0xff, 0xff, 0x0f, 0x02, 0, 0, 0, 0];
    assert_eq!(decode_i32(&buf, 3).unwrap().0, [i32::MAX, i32::MIN, i32::MIN + 1]);
    // i64::MIN, then a min delta of -1 and deltas of 0 and u64::MAX (64 bits).
    let mut buf = vec![0x80, 0x01, 4, 3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0x01, 64, 0, 0, 0];
    pack(&mut buf, &[0, u64::MAX], 64);
    buf.resize(buf.len() + 30 * 8, 0);
    assert_eq!(decode_i64(&buf, 3).unwrap().0, [i64::MIN, i64::MAX, i64::MAX - 2]);
}

// ---- DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY.

fn byte_cases(rng: &mut Rng) -> Vec<Vec<Vec<u8>>> {
    let mut cases: Vec<Vec<Vec<u8>>> = vec![
        vec![vec![]],
        vec![vec![]; 300],
        vec![b"a".to_vec()],
        vec![vec![7; 100_000], vec![], vec![8; 70_000]],
        vec![b"same".to_vec(); 1000],
    ];
    for n in [2, 127, 128, 129, 3000] {
        cases.push(
            (0..n)
                .map(|_| {
                    let len = rng.below(40);
                    rng.bytes(len)
                })
                .collect(),
        );
    }
    // Shared prefixes: sorted words of a small alphabet.
    let mut words: Vec<Vec<u8>> =
        (0..2500).map(|_| (0..rng.below(12)).map(|_| b"abc"[rng.below(3)]).collect()).collect();
    words.sort();
    cases.push(words);
    // Values that are prefixes of the one before, and longer ones.
    cases.push((0..400).map(|i| b"abcdefghijklmnopqrstuvwxyz".repeat(3)[..(i * 7) % 78].to_vec()).collect());
    cases
}

fn split(b: &ByteBuffer) -> Vec<Vec<u8>> {
    b.split().into_iter().map(<[u8]>::to_vec).collect()
}

/// The parquet crate's pages of random byte arrays in `encoding`, in both
/// page versions, each decode by `decode` to exactly the whole page.
fn crate_byte_pages_decode(
    seed: u64,
    encoding: Encoding,
    decode: impl Fn(&[u8], usize, &mut ByteBuffer) -> Result<usize, String>,
) {
    let mut rng = Rng::new(seed);
    for values in byte_cases(&mut rng) {
        let arrays: Vec<ByteArray> = values.iter().map(|v| ByteArray::from(v.clone())).collect();
        for version in [WriterVersion::PARQUET_1_0, WriterVersion::PARQUET_2_0] {
            let mut out = ByteBuffer::default();
            let props = props(encoding, version, 1000);
            for (written, buf) in data_pages::<ByteArrayType>(PhysicalType::BYTE_ARRAY, 0, props, &arrays) {
                assert_eq!(written, encoding);
                assert_eq!(decode(&buf, values.len(), &mut out).unwrap(), buf.len());
            }
            assert_eq!(split(&out), values);
        }
    }
}

#[test]
fn delta_length_byte_array_pages_of_the_parquet_crate_decode() {
    crate_byte_pages_decode(5, Encoding::DELTA_LENGTH_BYTE_ARRAY, decode_length_byte_array);
}

#[test]
fn delta_byte_array_pages_of_the_parquet_crate_decode() {
    crate_byte_pages_decode(6, Encoding::DELTA_BYTE_ARRAY, |buf, n, out| decode_byte_array(buf, n, None, out));
}

#[test]
fn fixed_len_delta_byte_array_pages_of_the_parquet_crate_decode() {
    let mut rng = Rng::new(7);
    for width in [1usize, 3, 16] {
        let mut sorted: Vec<Vec<u8>> = (0..3000).map(|_| (0..width).map(|_| b"xyz"[rng.below(3)]).collect()).collect();
        sorted.sort();
        let random: Vec<Vec<u8>> = (0..129).map(|_| rng.bytes(width)).collect();
        for values in [sorted, random, vec![vec![0xee; width]; 500]] {
            let arrays: Vec<FixedLenByteArray> =
                values.iter().map(|v| FixedLenByteArray::from(ByteArray::from(v.clone()))).collect();
            for version in [WriterVersion::PARQUET_1_0, WriterVersion::PARQUET_2_0] {
                let props = props(Encoding::DELTA_BYTE_ARRAY, version, 1000);
                let physical = PhysicalType::FIXED_LEN_BYTE_ARRAY;
                let mut out = ByteBuffer::default();
                for (encoding, buf) in data_pages::<FixedLenByteArrayType>(physical, width as i32, props, &arrays) {
                    assert_eq!(encoding, Encoding::DELTA_BYTE_ARRAY);
                    assert_eq!(decode_byte_array(&buf, values.len(), Some(width), &mut out).unwrap(), buf.len());
                }
                assert_eq!(split(&out), values);
                // The same stream in a column of another length is refused.
                let wrong = decode_byte_array(&encode_dba(&values, LAYOUT), values.len(), Some(width + 1), &mut out);
                assert_err(
                    wrong.unwrap_err(),
                    &format!("value 0 is {width} bytes long in a column of {}-byte", width + 1),
                );
            }
        }
    }
}

/// A DELTA_LENGTH_BYTE_ARRAY stream of `lengths` (which may lie) and `data`.
fn dlba(lengths: &[i64], data: &[u8], layout: Layout) -> Vec<u8> {
    [encode(lengths, 32, layout), data.to_vec()].concat()
}

/// A DELTA_BYTE_ARRAY stream of `values`, built here.
fn encode_dba(values: &[Vec<u8>], layout: Layout) -> Vec<u8> {
    let mut previous: &[u8] = &[];
    let (mut prefixes, mut suffixes, mut data) = (vec![], vec![], vec![]);
    for v in values {
        let prefix = previous.iter().zip(v).take_while(|(a, b)| a == b).count();
        prefixes.push(prefix as i64);
        suffixes.push((v.len() - prefix) as i64);
        data.extend_from_slice(&v[prefix..]);
        previous = v;
    }
    [encode(&prefixes, 32, layout), dlba(&suffixes, &data, layout)].concat()
}

#[test]
fn the_byte_array_examples_of_the_format_decode() {
    let buf = dlba(&[5, 5, 6, 6], b"HelloWorldFoobarABCDEF", LAYOUT);
    let mut out = ByteBuffer::default();
    assert_eq!(decode_length_byte_array(&buf, 4, &mut out).unwrap(), buf.len());
    assert_eq!(out.split(), [&b"Hello"[..], b"World", b"Foobar", b"ABCDEF"]);
    let buf = [encode(&[0, 2, 0, 3], 32, LAYOUT), dlba(&[4, 2, 6, 5], b"axislebabbleyhood", LAYOUT)].concat();
    let mut out = ByteBuffer::default();
    assert_eq!(decode_byte_array(&buf, 4, None, &mut out).unwrap(), buf.len());
    assert_eq!(out.split(), [&b"axis"[..], b"axle", b"babble", b"babyhood"]);
}

#[test]
fn byte_array_streams_built_here_round_trip() {
    let mut rng = Rng::new(8);
    let layout = Layout { block: 256, miniblocks: 8, unused_width: 0x7f, cut_padding: false };
    for values in byte_cases(&mut rng) {
        let mut buf = encode_dba(&values, layout);
        let len = buf.len();
        buf.extend_from_slice(b"trailing");
        let mut out = ByteBuffer::default();
        out.push(b"a value of an earlier page");
        assert_eq!(decode_byte_array(&buf, values.len(), None, &mut out).unwrap(), len);
        assert_eq!(split(&out)[1..], values, "the first value has no prefix, whatever came before");
    }
}

/// Runs a byte array decoder on `buf`, expecting an error that leaves
/// the values as they were.
fn bytes_err(decode: impl Fn(&mut ByteBuffer) -> Result<usize, String>) -> String {
    let mut out = ByteBuffer::default();
    out.push(b"kept");
    let err = decode(&mut out).unwrap_err();
    assert_eq!(out.split(), [b"kept"]);
    err
}

#[test]
fn bad_delta_length_byte_arrays_are_errors() {
    let decode = |buf: Vec<u8>, max| bytes_err(move |out| decode_length_byte_array(&buf, max, out));
    assert_err(decode(dlba(&[1, -1], b"ab", LAYOUT), 2), "value 1 has a negative length, -1");
    assert_err(decode(dlba(&[1, 2], b"ab", LAYOUT), 2), "byte arrays of 3 bytes in all, but 2 bytes are left");
    assert_err(
        decode(dlba(&[1, 1, 0], b"ab", LAYOUT), 2),
        "lengths: the stream declares 3 values, but the page holds at most 2",
    );
    assert_err(decode(dlba(&[i64::from(i32::MAX); 2], b"ab", LAYOUT), 2), "byte arrays of 4294967294 bytes in all");
    assert_err(decode(vec![0x80, 0x01], 2), "lengths: the stream ends inside the miniblock count");
}

#[test]
fn bad_delta_byte_arrays_are_errors() {
    let decode = |buf: Vec<u8>, max| bytes_err(move |out| decode_byte_array(&buf, max, None, out));
    let stream = |prefixes: &[i64], suffixes: &[i64], data: &[u8]| {
        [encode(prefixes, 32, LAYOUT), dlba(suffixes, data, LAYOUT)].concat()
    };
    assert_err(
        decode(stream(&[1], &[1], b"a"), 1),
        "value 0 takes a prefix of 1 bytes from a previous value of 0 bytes",
    );
    assert_err(
        decode(stream(&[0, 3], &[2, 1], b"abc"), 2),
        "value 1 takes a prefix of 3 bytes from a previous value of 2",
    );
    assert_err(decode(stream(&[0, -1], &[2, 1], b"abc"), 2), "value 1 has a negative prefix length, -1");
    assert_err(decode(stream(&[0, 0], &[2, -1], b"abc"), 2), "value 1 has a negative suffix length, -1");
    assert_err(decode(stream(&[0, 0], &[2, 2], b"abc"), 2), "suffixes of 4 bytes in all, but 3 bytes are left");
    assert_err(decode(stream(&[0, 0], &[2], b"abc"), 2), "2 prefix lengths but 1 suffix lengths");
    assert_err(decode(stream(&[0], &[2, 1], b"abc"), 2), "1 prefix lengths but 2 suffix lengths");
    assert_err(decode(stream(&[0, 0, 0], &[1, 1, 1], b"abc"), 2), "prefix lengths: the stream declares 3 values");
    assert_err(decode(encode(&[0, 0], 32, LAYOUT), 2), "suffix lengths: the stream ends inside the block size");
}

#[test]
fn the_fuzz_crash_is_an_error_without_a_large_allocation() {
    let buf = [0, 32, 0, 71, 0, 1, 206, 206, 206, 206, 206, 0, 0, 0, 0, 0, 0, 0, 26];
    let started = Instant::now();
    let mut out = ByteBuffer::default();
    let err = decode_byte_array(&buf, 2062, Some(3), &mut out).unwrap_err();
    assert_err(err, "prefix lengths: a block size of 0 values");
    assert_eq!(out.take_data(0).capacity(), 0);
    // With the first stream mended, the second's count is refused.
    let huge_counts: [&[u8]; 2] =
        [&[0x80, 0x01, 1, 206, 206, 206, 206, 206, 0, 0], &[0x80, 0x01, 1, 0xff, 0xff, 0xff, 0xff, 0x0f, 0]];
    for (suffixes, expected) in huge_counts.into_iter().zip([
        "suffix lengths: the value count does not fit in 32 bits",
        "suffix lengths: the stream declares 4294967295 values, but the page holds at most 2062",
    ]) {
        let buf = [&[0x80, 0x01, 4, 0, 0][..], suffixes].concat();
        let err = decode_byte_array(&buf, 2062, Some(3), &mut out).unwrap_err();
        assert_err(err, expected);
        assert_eq!(out.take_data(0).capacity(), 0);
    }
    assert!(started.elapsed().as_millis() < 100, "{:?}", started.elapsed());
}

use super::super::test_pages::{crate_decode, mutate};
use crate::values::ColumnValues;

/// Each value's bytes, to compare values of any type.
fn as_bytes(v: &ColumnValues) -> Vec<Vec<u8>> {
    match v {
        ColumnValues::I32(v) => v.iter().map(|x| x.to_le_bytes().to_vec()).collect(),
        ColumnValues::I64(v) => v.iter().map(|x| x.to_le_bytes().to_vec()).collect(),
        ColumnValues::Bytes(b) | ColumnValues::Fixed(b, _) => split(b),
        _ => panic!("type"),
    }
}

/// Decodes `buf` as `encoding` into a fresh `ColumnValues` of `physical` type.
fn ours(
    encoding: Encoding,
    physical: PhysicalType,
    length: usize,
    buf: &[u8],
    n: usize,
) -> Result<ColumnValues, String> {
    let mut out = ColumnValues::new(physical, length as i32);
    match (&mut out, encoding) {
        (ColumnValues::I32(v), _) => decode_binary_packed_i32(buf, n, v),
        (ColumnValues::I64(v), _) => decode_binary_packed_i64(buf, n, v),
        (ColumnValues::Bytes(b), Encoding::DELTA_LENGTH_BYTE_ARRAY) => decode_length_byte_array(buf, n, b),
        (ColumnValues::Bytes(b), _) => decode_byte_array(buf, n, None, b),
        (ColumnValues::Fixed(b, len), _) => decode_byte_array(buf, n, Some(*len), b),
        _ => unreachable!(),
    }?;
    Ok(out)
}

/// Whether the crate's decoders can be given `buf` without allocating
/// what a damaged count declares: its byte array decoders reserve the
/// counts of the stream headers.
fn safe_for_the_crate(encoding: Encoding, buf: &[u8], n: usize) -> bool {
    match encoding {
        Encoding::DELTA_BINARY_PACKED => true,
        Encoding::DELTA_LENGTH_BYTE_ARRAY => read_header(buf, 32, n).is_ok(),
        _ => {
            let Ok(end) = decode_binary_packed_i32(buf, n, &mut Vec::new()) else { return false };
            read_header(&buf[end..], 32, n).is_ok()
        }
    }
}

/// Seeds for the random tests: valid streams of `encoding` for a
/// column of `physical` type (`length` bytes for FIXED_LEN_BYTE_ARRAY),
/// each with its count of values.
fn seeds(rng: &mut Rng, encoding: Encoding, physical: PhysicalType, length: usize) -> Vec<(Vec<u8>, usize)> {
    let mut seeds = Vec::new();
    for n in [1usize, 2, 5, 40, 130] {
        let buf = match (encoding, physical) {
            (Encoding::DELTA_BINARY_PACKED, PhysicalType::INT32) => {
                encode(&(0..n).map(|_| i64::from(rng.next_u64() as i32 % 1000)).collect::<Vec<_>>(), 32, LAYOUT)
            }
            (Encoding::DELTA_BINARY_PACKED, _) => {
                encode(&(0..n).map(|_| rng.next_u64() as i64 >> rng.below(64)).collect::<Vec<_>>(), 64, LAYOUT)
            }
            (Encoding::DELTA_LENGTH_BYTE_ARRAY, _) => {
                let lengths: Vec<i64> = (0..n).map(|_| rng.below(5) as i64).collect();
                dlba(&lengths, &rng.bytes(lengths.iter().sum::<i64>() as usize), LAYOUT)
            }
            _ => {
                let len = |rng: &mut Rng| if length > 0 { length } else { rng.below(6) };
                let mut words: Vec<Vec<u8>> =
                    (0..n).map(|_| (0..len(rng)).map(|_| b"ab"[rng.below(2)]).collect()).collect();
                words.sort();
                encode_dba(&words, LAYOUT)
            }
        };
        seeds.push((buf, n));
    }
    seeds
}

const ENCODINGS: [(Encoding, PhysicalType, usize); 5] = [
    (Encoding::DELTA_BINARY_PACKED, PhysicalType::INT32, 0),
    (Encoding::DELTA_BINARY_PACKED, PhysicalType::INT64, 0),
    (Encoding::DELTA_LENGTH_BYTE_ARRAY, PhysicalType::BYTE_ARRAY, 0),
    (Encoding::DELTA_BYTE_ARRAY, PhysicalType::BYTE_ARRAY, 0),
    (Encoding::DELTA_BYTE_ARRAY, PhysicalType::FIXED_LEN_BYTE_ARRAY, 3),
];

/// What this module refuses on purpose where the crate reads on: a
/// block size of 0 (the crate accepts it when no block is read), value
/// counts above the page's (it reads the page's count and ignores the
/// rest), varints with bits past their type (it drops them), prefix and
/// suffix counts that differ (it repeats the last suffix, or drops the
/// extra ones) and FIXED_LEN_BYTE_ARRAY values of another length (it
/// does not check them).
const ON_PURPOSE: [&str; 6] = [
    "a block size of 0 values",
    "values, but the page holds at most",
    "does not fit in",
    "is a varint longer than",
    "prefix lengths but",
    "bytes long in a column of",
];

#[test]
fn mutated_streams_decode_like_the_parquet_crate() {
    let mut rng = Rng::new(77);
    for (encoding, physical, length) in ENCODINGS {
        let seeds = seeds(&mut rng, encoding, physical, length);
        for _ in 0..10_000 {
            let (seed, n) = &seeds[rng.below(seeds.len())];
            let buf = mutate(&mut rng, seed);
            let ours = ours(encoding, physical, length, &buf, *n);
            if !safe_for_the_crate(encoding, &buf, *n) {
                assert!(ours.is_err(), "{encoding} {buf:?}");
                continue;
            }
            let theirs = crate_decode(encoding, physical, length as i32, &buf, *n as u32);
            match (&ours, &theirs) {
                (Ok(a), Ok(b)) => assert_eq!(as_bytes(a), as_bytes(b), "{encoding} {buf:?}"),
                (Err(_), Err(_)) => {}
                // Fewer values than the page's: the crate's reader says so.
                (Ok(a), Err(_)) if a.len() != *n => {}
                // A lengths stream cut inside its last miniblock's padding,
                // which the crate's byte array decoders slice past.
                (Ok(_), Err(e)) if encoding != Encoding::DELTA_BINARY_PACKED && e.contains("panicked") => {}
                (Ok(_), Err(e)) => panic!("{encoding} {buf:?}: the crate refuses with {e}"),
                (Err(e), Ok(_)) => {
                    assert!(ON_PURPOSE.iter().any(|p| e.contains(p)), "{encoding} {buf:?}: we refuse with {e}")
                }
            }
        }
    }
}

#[test]
fn random_input_never_panics_nor_reserves_past_its_bound() {
    let mut rng = Rng::new(99);
    for (encoding, physical, length) in ENCODINGS {
        let seeds = seeds(&mut rng, encoding, physical, length);
        for round in 0..10_000 {
            let buf = if round % 4 == 0 {
                let len = rng.below(64);
                rng.bytes(len)
            } else {
                let seed = &seeds[rng.below(seeds.len())].0;
                mutate(&mut rng, seed)
            };
            let max_values = [0, 1, 5, 130, 2062, 100_000][rng.below(6)];
            let mut out = ColumnValues::new(physical, length as i32);
            let result = match &mut out {
                ColumnValues::I32(v) => decode_binary_packed_i32(&buf, max_values, v).inspect(|_| {
                    assert!(v.capacity() <= max_values.max(8));
                }),
                ColumnValues::I64(v) => decode_binary_packed_i64(&buf, max_values, v).inspect(|_| {
                    assert!(v.capacity() <= max_values.max(8));
                }),
                ColumnValues::Bytes(b) if encoding == Encoding::DELTA_LENGTH_BYTE_ARRAY => {
                    decode_length_byte_array(&buf, max_values, b).inspect(|_| {
                        assert!(b.take_data(0).capacity() <= buf.len().max(8));
                    })
                }
                ColumnValues::Bytes(b) | ColumnValues::Fixed(b, _) => {
                    let fixed = (length > 0).then_some(length);
                    decode_byte_array(&buf, max_values, fixed, b).inspect(|_| {
                        // Each value is at most all the suffixes' bytes.
                        assert!(b.take_data(0).capacity() <= (max_values * buf.len()).max(8));
                    })
                }
                _ => unreachable!(),
            };
            match result {
                Ok(taken) => {
                    assert!(taken <= buf.len());
                    assert!(out.len() <= max_values);
                }
                Err(e) => {
                    assert!(!e.is_empty());
                    assert_eq!(out.len(), 0, "nothing is left behind");
                }
            }
        }
    }
}
