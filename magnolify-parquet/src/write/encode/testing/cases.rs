//! Random cases: the values (of every type and shape), the levels, and
//! the writer properties of one column chunk.

use std::cmp::Ordering;

use parquet::basic::Type as PhysicalType;
use parquet::data_type::Int96;
use parquet::file::properties::{EnabledStatistics, WriterProperties, WriterPropertiesBuilder, WriterVersion};
use parquet::schema::types::{ColumnDescPtr, ColumnPath};

use super::specs::{descriptor, Gen, Layout, Rng, Spec};
use crate::values::{ByteBuffer, ColumnValues};
use crate::write::encode::stats::order::{decimal_cmp, f16_key};

/// One column chunk to write both ways.
pub(crate) struct Case {
    pub(crate) descr: ColumnDescPtr,
    pub(crate) props: WriterProperties,
    /// Definition and repetition levels (empty where the column has none).
    pub(crate) def: Vec<i16>,
    pub(crate) rep: Vec<i16>,
    /// The values of the levels at the maximum definition level.
    pub(crate) values: ColumnValues,
}

impl Case {
    pub(crate) fn levels(&self) -> usize {
        if self.descr.max_def_level() > 0 {
            self.def.len()
        } else {
            self.values.len()
        }
    }
}

/// How the values of a case follow each other.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Shape {
    Random,
    Ascending,
    Descending,
    Constant,
    /// Each value repeated up to 40 times: pages of one value (all NaN).
    Runs,
}

fn pick_bytes(rng: &mut Rng, alphabet: &[u8], len: usize) -> Vec<u8> {
    (0..len).map(|_| rng.pick(alphabet)).collect()
}

const BINARY: [u8; 8] = [0x00, 0x01, 0x61, 0x62, 0x7F, 0x80, 0xFE, 0xFF];

fn binary_value(rng: &mut Rng, width: Option<usize>) -> Vec<u8> {
    let len = width.unwrap_or_else(|| match rng.below(4) {
        0 => rng.below(4),
        1 => rng.below(13),
        2 => 60 + rng.below(40),
        _ => rng.below(80),
    });
    match rng.below(6) {
        // No increment possible at any cut.
        0 => vec![0xFF; len],
        // A prefix then 0xFF: the increment carries.
        1 => {
            let prefix = len.min(rng.below(6));
            let mut v = pick_bytes(rng, &BINARY, prefix);
            v.resize(len, 0xFF);
            v
        }
        2 => (0..len).map(|_| rng.next() as u8).collect(),
        _ => pick_bytes(rng, &BINARY, len),
    }
}

const CHARS: [char; 14] =
    ['a', 'b', 'z', '\u{7F}', 'é', '\u{7FF}', '€', '\u{D7FF}', '\u{E000}', '\u{FFFF}', '𝄞', '\u{10FFFF}', '0', ' '];

fn text_value(rng: &mut Rng) -> Vec<u8> {
    if rng.chance(5) {
        // Not UTF-8: cut as bytes even in a STRING column.
        let mut v = binary_value(rng, None);
        v.insert(0, 0xFF);
        return v;
    }
    let len = if rng.chance(50) { rng.below(5) } else { rng.below(45) };
    let text: String = if rng.chance(20) {
        std::iter::repeat_n(rng.pick(&CHARS), len.max(1) * 2).collect()
    } else {
        (0..len).map(|_| rng.pick(&CHARS)).collect()
    };
    text.into_bytes()
}

fn decimal_value(rng: &mut Rng, width: Option<usize>) -> Vec<u8> {
    let len = width.unwrap_or_else(|| rng.below(7));
    (0..len)
        .map(|_| if rng.chance(15) { rng.next() as u8 } else { rng.pick(&[0x00, 0xFF, 0x80, 0x7F, 0x01, 0xFE]) })
        .collect()
}

fn i32_value(rng: &mut Rng) -> i32 {
    match rng.below(4) {
        0 => rng.below(7) as i32 - 3,
        1 => rng.pick(&[i32::MIN, i32::MIN + 1, -1, 0, 1, i32::MAX - 1, i32::MAX, 255, 256, 65535]),
        2 => rng.next() as i32,
        _ => rng.below(2000) as i32 - 1000,
    }
}

fn i64_value(rng: &mut Rng) -> i64 {
    match rng.below(4) {
        0 => rng.below(7) as i64 - 3,
        1 => rng.pick(&[i64::MIN, i64::MIN + 1, -1, 0, 1, i64::MAX - 1, i64::MAX, u32::MAX as i64]),
        2 => rng.next() as i64,
        _ => rng.below(2000) as i64 - 1000,
    }
}

fn int96_value(rng: &mut Rng) -> Int96 {
    let mut word = || match rng.below(3) {
        0 => rng.pick(&[0, 1, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF]),
        1 => rng.below(3) as u32,
        _ => rng.next() as u32,
    };
    let mut v = Int96::new();
    v.set_data(word(), word(), word());
    v
}

const F32_NANS: [u32; 6] = [0x7FC0_0000, 0xFFC0_0000, 0x7FC0_0001, 0xFFFF_FFFF, 0x7F80_0001, 0xFF80_0001];
const F64_NANS: [u64; 5] =
    [0x7FF8_0000_0000_0000, 0xFFF8_0000_0000_0000, 0x7FF8_0000_0000_0001, 0xFFFF_FFFF_FFFF_FFFF, 0x7FF0_0000_0000_0001];

/// A float drawn from the cases its statistics must get right: small exact
/// numbers, the edges (zeros, infinities, extremes, the least normal and
/// subnormal numbers of both signs), NaNs of several signs and payloads, any
/// bits, and zeros of both signs.
macro_rules! float_value {
    ($name:ident, $float:ident, $nans:expr, $least_negative_subnormal:expr) => {
        fn $name(rng: &mut Rng) -> $float {
            match rng.below(6) {
                0 => (rng.below(200) as $float - 100.0) / 8.0,
                1 => rng.pick(&[
                    0.0,
                    -0.0,
                    $float::INFINITY,
                    $float::NEG_INFINITY,
                    $float::MIN,
                    $float::MAX,
                    $float::MIN_POSITIVE,
                    -$float::MIN_POSITIVE,
                    $float::from_bits(1),
                    $float::from_bits($least_negative_subnormal),
                ]),
                2 => $float::from_bits(rng.pick(&$nans)),
                3 => $float::from_bits(rng.next() as _),
                4 => rng.pick(&[0.0, -0.0]),
                _ => rng.below(5) as $float,
            }
        }
    };
}

float_value!(f32_value, f32, F32_NANS, 0x8000_0001);
float_value!(f64_value, f64, F64_NANS, 0x8000_0000_0000_0001);

fn f16_value(rng: &mut Rng) -> Vec<u8> {
    let bits: u16 = match rng.below(4) {
        0 => {
            rng.pick(&[0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0xFE00, 0x7C01, 0xFFFF, 0x0001, 0x8001, 0x7BFF, 0xFBFF])
        }
        1 => rng.next() as u16,
        _ => rng.pick(&[0x3C00, 0xBC00, 0x4000, 0xC000, 0x3800, 0x0000]),
    };
    bits.to_le_bytes().to_vec()
}

/// `n` values shaped by `shape`, `cmp` being the plain order of the
/// generated type (not necessarily the column's: shapes only make
/// ascending and descending pages likely).
fn shaped<T: Clone>(
    rng: &mut Rng,
    n: usize,
    shape: Shape,
    mut make: impl FnMut(&mut Rng) -> T,
    cmp: impl Fn(&T, &T) -> Ordering,
) -> Vec<T> {
    let mut values: Vec<T> = Vec::with_capacity(n);
    while values.len() < n {
        let v = make(rng);
        let copies = if shape == Shape::Runs { 1 + rng.below(40) } else { 1 };
        values.extend(std::iter::repeat_n(v, copies.min(n - values.len())));
    }
    match shape {
        Shape::Ascending => values.sort_by(&cmp),
        Shape::Descending => values.sort_by(|a, b| cmp(b, a)),
        Shape::Constant => {
            if let Some(first) = values.first().cloned() {
                values.fill(first);
            }
        }
        Shape::Random | Shape::Runs => {}
    }
    values
}

fn buffer(values: Vec<Vec<u8>>) -> ByteBuffer {
    let mut buf = ByteBuffer::default();
    for v in values {
        buf.push(&v);
    }
    buf
}

fn gen_values(rng: &mut Rng, spec: &Spec, n: usize, shape: Shape) -> ColumnValues {
    let width = (spec.physical == PhysicalType::FIXED_LEN_BYTE_ARRAY).then_some(spec.length as usize);
    let bytes = |values: Vec<Vec<u8>>| match width {
        Some(w) => ColumnValues::Fixed(buffer(values), w),
        None => ColumnValues::Bytes(buffer(values)),
    };
    match spec.gen {
        Gen::Bool => ColumnValues::Bool(shaped(rng, n, shape, |r| r.chance(50), bool::cmp)),
        Gen::I32 => ColumnValues::I32(shaped(rng, n, shape, i32_value, i32::cmp)),
        Gen::I64 => ColumnValues::I64(shaped(rng, n, shape, i64_value, i64::cmp)),
        Gen::Int96 => ColumnValues::I96(shaped(rng, n, shape, int96_value, |a, b| a.data().cmp(b.data()))),
        Gen::F32 => ColumnValues::F32(shaped(rng, n, shape, f32_value, f32::total_cmp)),
        Gen::F64 => ColumnValues::F64(shaped(rng, n, shape, f64_value, f64::total_cmp)),
        Gen::F16 => bytes(shaped(rng, n, shape, f16_value, |a, b| f16_key(a).cmp(&f16_key(b)))),
        Gen::Binary => bytes(shaped(rng, n, shape, |r| binary_value(r, width), Vec::cmp)),
        Gen::Text => bytes(shaped(rng, n, shape, text_value, Vec::cmp)),
        Gen::Decimal => bytes(shaped(rng, n, shape, |r| decimal_value(r, width), |a, b| decimal_cmp(a, b))),
    }
}

/// Levels of `rows` records: nulls (and empty lists, null elements) with
/// a probability chosen per case, or in runs (for all-null pages).
fn gen_levels(rng: &mut Rng, layout: Layout, rows: usize) -> (Vec<i16>, Vec<i16>) {
    let null_percent = rng.pick(&[0, 5, 30, 60, 95, 100]);
    let runs = rng.chance(30);
    let mut null_run = false;
    let mut null = move |rng: &mut Rng| {
        if runs {
            if rng.chance(10) {
                null_run = !null_run;
            }
            null_run
        } else {
            rng.chance(null_percent)
        }
    };
    let (mut def, mut rep) = (Vec::new(), Vec::new());
    for _ in 0..rows {
        match layout {
            Layout::Required => {}
            Layout::Optional => def.push(if null(rng) { 0 } else { 1 }),
            Layout::Repeated => {
                let elements = if null(rng) { 0 } else { 1 + rng.below(4) };
                if elements == 0 {
                    def.push(rng.below(2) as i16);
                    rep.push(0);
                }
                for i in 0..elements {
                    def.push(if null(rng) { 2 } else { 3 });
                    rep.push(i16::from(i > 0));
                }
            }
        }
    }
    (def, rep)
}

/// Props of small pages and batches, statistics, truncation and bloom
/// filters chosen at random, each setting file-wide or for the column.
pub(crate) fn random_props(rng: &mut Rng) -> WriterPropertiesBuilder {
    let path = ColumnPath::from("v");
    let lengths = [None, Some(1), Some(2), Some(3), Some(5), Some(8), Some(64)];
    let mut b = WriterProperties::builder()
        .set_writer_version(if rng.chance(30) { WriterVersion::PARQUET_2_0 } else { WriterVersion::PARQUET_1_0 })
        .set_data_page_size_limit(rng.pick(&[16, 64, 200, 1024, 1 << 20]))
        .set_write_batch_size(rng.pick(&[1, 2, 3, 7, 16, 64, 1024]))
        .set_data_page_row_count_limit(rng.pick(&[1, 2, 5, 13, 50, 20_000]))
        .set_dictionary_enabled(rng.chance(50))
        .set_dictionary_page_size_limit(rng.pick(&[16, 200, 1 << 20]))
        .set_statistics_truncate_length(rng.pick(&lengths))
        .set_column_index_truncate_length(rng.pick(&lengths))
        .set_offset_index_disabled(rng.chance(10))
        .set_bloom_filter_for_dictionary_encoded_chunks(rng.chance(70))
        .set_max_row_group_row_count(Some(rng.pick(&[100, 5000])));
    let levels = [EnabledStatistics::None, EnabledStatistics::Chunk, EnabledStatistics::Page];
    let statistics = if rng.chance(25) { rng.pick(&levels) } else { EnabledStatistics::Page };
    b = if rng.chance(50) {
        b.set_statistics_enabled(statistics)
    } else {
        b.set_statistics_enabled(rng.pick(&levels)).set_column_statistics_enabled(path.clone(), statistics)
    };
    let header = rng.chance(50);
    b = if rng.chance(50) {
        b.set_write_page_header_statistics(header)
    } else {
        b.set_write_page_header_statistics(!header).set_column_write_page_header_statistics(path.clone(), header)
    };
    if rng.chance(40) {
        let ndv = rng.pick(&[1, 10, 100, 1000, 5000]);
        let fpp = rng.pick(&[0.5, 0.1, 0.05, 0.01, 0.001]);
        b = match rng.below(5) {
            0 => b.set_bloom_filter_enabled(true),
            1 => b.set_bloom_filter_fpp(fpp).set_bloom_filter_max_ndv(ndv),
            2 => b.set_column_bloom_filter_fpp(path.clone(), fpp),
            3 => b.set_column_bloom_filter_enabled(path.clone(), true).set_column_bloom_filter_max_ndv(path, ndv),
            _ => b.set_bloom_filter_max_ndv(ndv).set_column_bloom_filter_enabled(path, true),
        };
    }
    b
}

/// A random case of a column type.
pub(crate) fn random_case(rng: &mut Rng, spec: &Spec, props: WriterProperties) -> Case {
    let layout = rng.pick(&[Layout::Required, Layout::Optional, Layout::Optional, Layout::Repeated]);
    let descr = descriptor(spec, layout);
    let rows = match rng.below(10) {
        0 => 0,
        1 => 1 + rng.below(3),
        _ => rng.below(300),
    };
    let (def, rep) = gen_levels(rng, layout, rows);
    let max_def = descr.max_def_level();
    let n = if max_def > 0 { def.iter().filter(|&&d| d == max_def).count() } else { rows };
    let shape =
        rng.pick(&[Shape::Random, Shape::Random, Shape::Ascending, Shape::Descending, Shape::Constant, Shape::Runs]);
    let values = gen_values(rng, spec, n, shape);
    Case { descr, props, def, rep, values }
}
