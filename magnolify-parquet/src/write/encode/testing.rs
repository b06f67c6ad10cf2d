//! The differential harness of the encoder's tests: random columns (every
//! type, layout and shape of values) and writer properties, written
//! through the `parquet` crate's `ColumnWriter` and through our types.

use std::cmp::Ordering;
use std::ops::Range;

use parquet::basic::{BoundaryOrder, ConvertedType, LogicalType, Type as PhysicalType};
use parquet::data_type::{AsBytes, ByteArray, FixedLenByteArray, Int96};
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::statistics::Statistics;
use parquet::schema::types::{ColumnDescPtr, ColumnDescriptor};

use crate::values::{ByteBuffer, ColumnValues};

use std::sync::{Arc, Mutex};

use parquet::basic::{Encoding, PageType, Repetition, TimeUnit};
use parquet::bloom_filter::Sbbf;
use parquet::column::page::{CompressedPage, PageWriteSpec, PageWriter};
use parquet::column::writer::{get_column_writer, ColumnCloseResult, ColumnWriter};
use parquet::file::page_index::column_index::ColumnIndexMetaData as Index;
use parquet::file::properties::{WriterPropertiesBuilder, WriterVersion};
use parquet::schema::types::{ColumnPath, Type};

use super::bloom::BloomWriter;
use super::stats::order::{decimal_cmp, f16_is_nan, f16_key};
use super::stats::{ColumnIndexWriter, ValueStats};

/// A seeded SplitMix64 generator: the cases are the same on every run.
#[derive(Clone)]
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let z = (self.0 ^ (self.0 >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        let z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// In `0..n` (0 if `n` is 0).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    pub(crate) fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    pub(crate) fn pick<T: Clone>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())].clone()
    }
}

/// How a case's values are made.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Gen {
    Bool,
    I32,
    I64,
    Int96,
    F32,
    F64,
    /// FLOAT16 bits.
    F16,
    /// Bytes of a binary alphabet rich in 0x00, 0x80 and 0xFF, short or
    /// long (past the default 64-byte cut).
    Binary,
    /// Text with 1- to 4-byte characters, some at the largest code point
    /// of their width, and now and then bytes that are not UTF-8.
    Text,
    /// DECIMAL bytes: few distinct bytes, so that sign extensions make
    /// equal numbers of different lengths.
    Decimal,
}

/// A column type under test.
#[derive(Debug, Clone)]
pub(crate) struct Spec {
    pub(crate) name: &'static str,
    physical: PhysicalType,
    logical: Option<LogicalType>,
    converted: ConvertedType,
    length: i32,
    decimal: Option<(i32, i32)>,
    pub(crate) gen: Gen,
}

fn spec(name: &'static str, physical: PhysicalType, gen: Gen) -> Spec {
    Spec { name, physical, logical: None, converted: ConvertedType::NONE, length: -1, decimal: None, gen }
}

impl Spec {
    fn logical(self, logical: LogicalType) -> Self {
        Spec { logical: Some(logical), ..self }
    }
    fn converted(self, converted: ConvertedType) -> Self {
        Spec { converted, ..self }
    }
    fn length(self, length: i32) -> Self {
        Spec { length, ..self }
    }
    fn decimal(self, precision: i32, scale: i32) -> Self {
        Spec { decimal: Some((precision, scale)), ..self }
    }
}

/// Every column type the tests cover, by group.
pub(crate) fn specs(group: &str) -> Vec<Spec> {
    use PhysicalType as P;
    let all = vec![
        ("bool", spec("BOOLEAN", P::BOOLEAN, Gen::Bool)),
        ("i32", spec("INT32", P::INT32, Gen::I32)),
        ("i32", spec("INT32 DATE", P::INT32, Gen::I32).logical(LogicalType::Date)),
        ("i32", spec("INT32 TIME(MILLIS)", P::INT32, Gen::I32).logical(LogicalType::time(true, TimeUnit::MILLIS))),
        ("i32", spec("INT32 INTEGER(8, signed)", P::INT32, Gen::I32).logical(LogicalType::integer(8, true))),
        ("i32", spec("INT32 INT_16", P::INT32, Gen::I32).converted(ConvertedType::INT_16)),
        ("i32", spec("INT32 DECIMAL(9, 2)", P::INT32, Gen::I32).logical(LogicalType::decimal(2, 9)).decimal(9, 2)),
        ("i32", spec("INT32 legacy DECIMAL", P::INT32, Gen::I32).converted(ConvertedType::DECIMAL).decimal(5, 1)),
        ("u32", spec("INT32 UINT_8", P::INT32, Gen::I32).converted(ConvertedType::UINT_8)),
        ("u32", spec("INT32 UINT_16", P::INT32, Gen::I32).converted(ConvertedType::UINT_16)),
        ("u32", spec("INT32 UINT_32", P::INT32, Gen::I32).converted(ConvertedType::UINT_32)),
        ("u32", spec("INT32 INTEGER(8, unsigned)", P::INT32, Gen::I32).logical(LogicalType::integer(8, false))),
        ("u32", spec("INT32 INTEGER(16, unsigned)", P::INT32, Gen::I32).logical(LogicalType::integer(16, false))),
        ("u32", spec("INT32 INTEGER(32, unsigned)", P::INT32, Gen::I32).logical(LogicalType::integer(32, false))),
        ("i64", spec("INT64", P::INT64, Gen::I64)),
        (
            "i64",
            spec("INT64 TIMESTAMP(MICROS)", P::INT64, Gen::I64).logical(LogicalType::timestamp(true, TimeUnit::MICROS)),
        ),
        ("i64", spec("INT64 TIME(NANOS)", P::INT64, Gen::I64).logical(LogicalType::time(false, TimeUnit::NANOS))),
        ("i64", spec("INT64 TIMESTAMP_MILLIS", P::INT64, Gen::I64).converted(ConvertedType::TIMESTAMP_MILLIS)),
        ("i64", spec("INT64 DECIMAL(18, 3)", P::INT64, Gen::I64).logical(LogicalType::decimal(3, 18)).decimal(18, 3)),
        ("i64", spec("INT64 UINT_64", P::INT64, Gen::I64).converted(ConvertedType::UINT_64)),
        ("i64", spec("INT64 INTEGER(64, unsigned)", P::INT64, Gen::I64).logical(LogicalType::integer(64, false))),
        ("i96", spec("INT96", P::INT96, Gen::Int96)),
        ("f32", spec("FLOAT", P::FLOAT, Gen::F32)),
        ("f64", spec("DOUBLE", P::DOUBLE, Gen::F64)),
        ("binary", spec("BYTE_ARRAY", P::BYTE_ARRAY, Gen::Binary)),
        ("binary", spec("BYTE_ARRAY ENUM", P::BYTE_ARRAY, Gen::Text).logical(LogicalType::Enum)),
        ("binary", spec("BYTE_ARRAY JSON", P::BYTE_ARRAY, Gen::Text).logical(LogicalType::Json)),
        ("binary", spec("BYTE_ARRAY BSON", P::BYTE_ARRAY, Gen::Binary).logical(LogicalType::Bson)),
        ("text", spec("BYTE_ARRAY STRING", P::BYTE_ARRAY, Gen::Text).logical(LogicalType::String)),
        ("text", spec("BYTE_ARRAY UTF8", P::BYTE_ARRAY, Gen::Text).converted(ConvertedType::UTF8)),
        (
            "decimal",
            spec("BYTE_ARRAY DECIMAL(20, 2)", P::BYTE_ARRAY, Gen::Decimal)
                .logical(LogicalType::decimal(2, 20))
                .decimal(20, 2),
        ),
        (
            "decimal",
            spec("BYTE_ARRAY legacy DECIMAL", P::BYTE_ARRAY, Gen::Decimal)
                .converted(ConvertedType::DECIMAL)
                .decimal(10, 0),
        ),
        (
            "decimal",
            spec("FLBA(3) DECIMAL(6, 1)", P::FIXED_LEN_BYTE_ARRAY, Gen::Decimal)
                .length(3)
                .logical(LogicalType::decimal(1, 6))
                .decimal(6, 1),
        ),
        (
            "decimal",
            spec("FLBA(9) legacy DECIMAL", P::FIXED_LEN_BYTE_ARRAY, Gen::Decimal)
                .length(9)
                .converted(ConvertedType::DECIMAL)
                .decimal(20, 4),
        ),
        ("f16", spec("FLBA(2) FLOAT16", P::FIXED_LEN_BYTE_ARRAY, Gen::F16).length(2).logical(LogicalType::Float16)),
        ("fixed", spec("FLBA(16) UUID", P::FIXED_LEN_BYTE_ARRAY, Gen::Binary).length(16).logical(LogicalType::Uuid)),
        (
            "fixed",
            spec("FLBA(12) INTERVAL", P::FIXED_LEN_BYTE_ARRAY, Gen::Binary)
                .length(12)
                .converted(ConvertedType::INTERVAL),
        ),
        ("fixed", spec("FLBA(1)", P::FIXED_LEN_BYTE_ARRAY, Gen::Binary).length(1)),
        ("fixed", spec("FLBA(5)", P::FIXED_LEN_BYTE_ARRAY, Gen::Binary).length(5)),
        ("fixed", spec("FLBA(70)", P::FIXED_LEN_BYTE_ARRAY, Gen::Binary).length(70)),
        ("geo", spec("BYTE_ARRAY GEOMETRY", P::BYTE_ARRAY, Gen::Binary).logical(LogicalType::geometry(None))),
    ];
    all.into_iter().filter(|(g, _)| *g == group || group == "all").map(|(_, s)| s).collect()
}

/// Where a column sits: its levels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Layout {
    Required,
    Optional,
    /// A list that may be null or empty, of elements that may be null:
    /// definition levels 0 (null list) to 3 (a value), repetition 0/1.
    Repeated,
}

pub(crate) fn descriptor(spec: &Spec, layout: Layout) -> ColumnDescPtr {
    let (repetition, max_def, max_rep) = match layout {
        Layout::Required => (Repetition::REQUIRED, 0, 0),
        Layout::Optional => (Repetition::OPTIONAL, 1, 0),
        Layout::Repeated => (Repetition::OPTIONAL, 3, 1),
    };
    let mut builder = Type::primitive_type_builder("v", spec.physical)
        .with_repetition(repetition)
        .with_logical_type(spec.logical.clone())
        .with_converted_type(spec.converted)
        .with_length(spec.length);
    if let Some((precision, scale)) = spec.decimal {
        builder = builder.with_precision(precision).with_scale(scale);
    }
    let ty = builder.build().unwrap_or_else(|e| panic!("{}: {e}", spec.name));
    Arc::new(ColumnDescriptor::new(Arc::new(ty), max_def, max_rep, ColumnPath::from("v")))
}

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

fn f32_value(rng: &mut Rng) -> f32 {
    match rng.below(6) {
        0 => (rng.below(200) as f32 - 100.0) / 8.0,
        1 => rng.pick(&[
            0.0,
            -0.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::MIN,
            f32::MAX,
            f32::MIN_POSITIVE,
            -f32::MIN_POSITIVE,
            f32::from_bits(1),
            f32::from_bits(0x8000_0001),
        ]),
        2 => f32::from_bits(rng.pick(&F32_NANS)),
        3 => f32::from_bits(rng.next() as u32),
        4 => rng.pick(&[0.0, -0.0]),
        _ => rng.below(5) as f32,
    }
}

fn f64_value(rng: &mut Rng) -> f64 {
    match rng.below(6) {
        0 => (rng.below(200) as f64 - 100.0) / 8.0,
        1 => rng.pick(&[
            0.0,
            -0.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MIN,
            f64::MAX,
            f64::MIN_POSITIVE,
            f64::from_bits(1),
            f64::from_bits(0x8000_0000_0000_0001),
        ]),
        2 => f64::from_bits(rng.pick(&F64_NANS)),
        3 => f64::from_bits(rng.next()),
        4 => rng.pick(&[0.0, -0.0]),
        _ => rng.below(5) as f64,
    }
}

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

/// A data or dictionary page the crate wrote.
#[derive(Debug, Clone)]
pub(crate) struct KeptPage {
    kind: PageType,
    encoding: Encoding,
    /// Levels of a data page.
    levels: usize,
    statistics: Option<Statistics>,
}

/// A `PageWriter` that keeps what the tests need of the pages.
struct KeepPages {
    pages: Arc<Mutex<Vec<KeptPage>>>,
    offset: u64,
}

impl PageWriter for KeepPages {
    fn write_page(&mut self, page: CompressedPage) -> parquet::errors::Result<PageWriteSpec> {
        let spec = crate::write::page_spec(&page, &mut self.offset);
        let kept = KeptPage {
            kind: page.page_type(),
            encoding: page.encoding(),
            levels: page.num_values() as usize,
            statistics: page.compressed_page().statistics().cloned(),
        };
        self.pages.lock().map_err(|e| parquet::errors::ParquetError::General(e.to_string()))?.push(kept);
        Ok(spec)
    }

    fn close(&mut self) -> parquet::errors::Result<()> {
        Ok(())
    }
}

/// What the crate's `ColumnWriter` made of a case.
pub(crate) struct Theirs {
    pub(crate) close: ColumnCloseResult,
    /// Its data pages, in order.
    pub(crate) pages: Vec<KeptPage>,
}

fn byte_arrays(buf: &ByteBuffer) -> Vec<Vec<u8>> {
    buf.split().into_iter().map(<[u8]>::to_vec).collect()
}

/// Writes a case through the crate, in batches of whole records.
pub(crate) fn write_theirs(case: &Case, rng: &mut Rng) -> Theirs {
    let pages = Arc::new(Mutex::new(Vec::new()));
    let page_writer = Box::new(KeepPages { pages: pages.clone(), offset: 0 });
    let mut writer = get_column_writer(case.descr.clone(), Arc::new(case.props.clone()), page_writer);
    let max_def = case.descr.max_def_level();
    let (levels, mut level, mut value) = (case.levels(), 0, 0);
    while level < levels {
        let mut end = (level + 1 + rng.below(200)).min(levels);
        while case.rep.get(end).is_some_and(|&r| r != 0) {
            end += 1;
        }
        let def = (max_def > 0).then(|| &case.def[level..end]);
        let rep = (case.descr.max_rep_level() > 0).then(|| &case.rep[level..end]);
        let n = def.map_or(end - level, |d| d.iter().filter(|&&d| d == max_def).count());
        let vs = value..value + n;
        let written = match (&mut writer, &case.values) {
            (ColumnWriter::BoolColumnWriter(w), ColumnValues::Bool(v)) => w.write_batch(&v[vs], def, rep),
            (ColumnWriter::Int32ColumnWriter(w), ColumnValues::I32(v)) => w.write_batch(&v[vs], def, rep),
            (ColumnWriter::Int64ColumnWriter(w), ColumnValues::I64(v)) => w.write_batch(&v[vs], def, rep),
            (ColumnWriter::Int96ColumnWriter(w), ColumnValues::I96(v)) => w.write_batch(&v[vs], def, rep),
            (ColumnWriter::FloatColumnWriter(w), ColumnValues::F32(v)) => w.write_batch(&v[vs], def, rep),
            (ColumnWriter::DoubleColumnWriter(w), ColumnValues::F64(v)) => w.write_batch(&v[vs], def, rep),
            (ColumnWriter::ByteArrayColumnWriter(w), ColumnValues::Bytes(b)) => {
                let v: Vec<ByteArray> = byte_arrays(b)[vs].iter().cloned().map(ByteArray::from).collect();
                w.write_batch(&v, def, rep)
            }
            (ColumnWriter::FixedLenByteArrayColumnWriter(w), ColumnValues::Fixed(b, _)) => {
                let v: Vec<FixedLenByteArray> =
                    byte_arrays(b)[vs].iter().cloned().map(FixedLenByteArray::from).collect();
                w.write_batch(&v, def, rep)
            }
            _ => panic!("values of the wrong type"),
        };
        assert_eq!(written.expect("the crate writes the batch"), n);
        (level, value) = (end, value + n);
    }
    let close = writer.close().expect("the crate closes the chunk");
    let pages = pages.lock().expect("pages").clone();
    let data = pages.into_iter().filter(|p| matches!(p.kind, PageType::DATA_PAGE | PageType::DATA_PAGE_V2));
    Theirs { close, pages: data.collect() }
}

/// What our types made of a case, split at the crate's pages.
pub(crate) struct Ours {
    pub(crate) chunk: Option<Statistics>,
    pub(crate) page_headers: Vec<Option<Statistics>>,
    pub(crate) index: Option<Index>,
    pub(crate) bloom: Option<Sbbf>,
    pub(crate) page_bytes: Vec<Option<i64>>,
    pub(crate) chunk_bytes: Option<i64>,
    /// The pages' level histograms summed: what the chunk metadata holds.
    pub(crate) rep_histogram: Option<Vec<i64>>,
    pub(crate) def_histogram: Option<Vec<i64>>,
}

/// `range` cut into random pieces.
fn pieces(rng: &mut Rng, range: Range<usize>) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut at = range.start;
    while at < range.end {
        let end = (at + 1 + rng.below(40)).min(range.end);
        out.push(at..end);
        at = end;
    }
    if out.is_empty() || rng.chance(10) {
        // Empty batches change nothing.
        out.push(range.end..range.end);
    }
    out
}

fn histogram(levels: &[i16], max: i16) -> Option<Vec<i64>> {
    (max > 0).then(|| {
        let mut h = vec![0; max as usize + 1];
        for &l in levels {
            h[l as usize] += 1;
        }
        h
    })
}

fn add(sum: &mut Option<Vec<i64>>, page: Option<&Vec<i64>>) {
    if let Some(page) = page {
        let sum = sum.get_or_insert_with(|| vec![0; page.len()]);
        sum.iter_mut().zip(page).for_each(|(s, p)| *s += p);
    }
}

/// Runs a case through our types, the values split at `pages`.
pub(crate) fn write_ours(case: &Case, pages: &[KeptPage], rng: &mut Rng) -> Ours {
    let (descr, props) = (&case.descr, &case.props);
    let (max_def, max_rep) = (descr.max_def_level(), descr.max_rep_level());
    let mut chunk = ValueStats::new(descr);
    let mut page = ValueStats::new(descr);
    let mut index = ColumnIndexWriter::new(descr, props);
    let mut bloom = BloomWriter::new(descr, props).expect("valid bloom filter props");
    let mut ours = Ours {
        chunk: None,
        page_headers: Vec::new(),
        index: None,
        bloom: None,
        page_bytes: Vec::new(),
        chunk_bytes: None,
        // The chunk's histograms are there (zeros) even without pages.
        rep_histogram: histogram(&[], max_rep),
        def_histogram: histogram(&[], max_def),
    };
    let (mut level, mut value) = (0, 0);
    for kept in pages {
        let levels = level..level + kept.levels;
        let def = case.def.get(levels.clone()).unwrap_or_default();
        let rep = case.rep.get(levels.clone()).unwrap_or_default();
        let n = if max_def > 0 { def.iter().filter(|&&d| d == max_def).count() } else { kept.levels };
        let rows = if max_rep > 0 { rep.iter().filter(|&&r| r == 0).count() } else { kept.levels };
        for piece in pieces(rng, value..value + n) {
            page.update(&case.values, piece);
        }
        let nulls = (kept.levels - n) as u64;
        let first = rng.below(nulls as usize + 1) as u64;
        page.add_nulls(first);
        page.add_nulls(nulls - first);
        if let Some(bloom) = &mut bloom {
            for piece in pieces(rng, value..value + n) {
                bloom.insert(&case.values, piece.clone());
                if rng.chance(20) {
                    bloom.insert(&case.values, piece);
                }
            }
        }
        let (rep_h, def_h) = (histogram(rep, max_rep), histogram(def, max_def));
        ours.page_headers.push(page.page_statistics(props));
        ours.page_bytes.push(page.unencoded_byte_array_data_bytes(props));
        chunk.merge(&page);
        if let Some(index) = &mut index {
            index.append_page(&page, rows as u64, rep_h.as_deref(), def_h.as_deref());
        }
        add(&mut ours.rep_histogram, rep_h.as_ref());
        add(&mut ours.def_histogram, def_h.as_ref());
        page.clear();
        (level, value) = (levels.end, value + n);
    }
    assert_eq!((level, value), (case.levels(), case.values.len()), "the crate's pages hold every level");
    ours.chunk = chunk.chunk_statistics(props);
    ours.chunk_bytes = chunk.unencoded_byte_array_data_bytes(props).filter(|_| !pages.is_empty());
    let only_dictionary =
        pages.iter().all(|p| matches!(p.encoding, Encoding::PLAIN_DICTIONARY | Encoding::RLE_DICTIONARY));
    ours.bloom = bloom.and_then(|b| b.finish(only_dictionary));
    ours.index = index.and_then(ColumnIndexWriter::finish);
    ours
}

/// Every field of statistics that a file holds, NaN bounds by their bits.
type StatsView = (PhysicalType, Option<Vec<u8>>, Option<Vec<u8>>, Option<u64>, Option<u64>, Option<u64>, [bool; 4]);

fn stats_view(s: &Statistics) -> StatsView {
    (
        s.physical_type(),
        s.min_bytes_opt().map(<[u8]>::to_vec),
        s.max_bytes_opt().map(<[u8]>::to_vec),
        s.distinct_count_opt(),
        s.null_count_opt(),
        s.nan_count_opt(),
        [s.min_is_exact(), s.max_is_exact(), s.is_min_max_deprecated(), s.is_min_max_backwards_compatible()],
    )
}

/// Whether `x == x`, which a NaN bound inside makes false.
fn no_nan_inside<T: PartialEq>(x: &T) -> bool {
    PartialEq::eq(x, x)
}

#[track_caller]
pub(crate) fn assert_same_stats(ours: Option<&Statistics>, theirs: Option<&Statistics>, what: &str) {
    assert_eq!(ours.map(stats_view), theirs.map(stats_view), "{what}");
    // `==` too, where no NaN bound makes it false for equal statistics.
    if no_nan_inside(&theirs) {
        assert_eq!(ours, theirs, "{what}");
    }
}

type PageView = (bool, Vec<u8>, Vec<u8>, Option<Vec<i64>>, Option<Vec<i64>>);
type IndexView = (Option<BoundaryOrder>, Option<Vec<i64>>, Option<Vec<i64>>, Vec<PageView>);

/// Every field of a column index, min and max by their bytes.
pub(crate) fn index_view(index: &Index) -> IndexView {
    fn primitive<T: AsBytes>(values: &[T], i: usize) -> Vec<u8> {
        values.get(i).map(|v| v.as_bytes().to_vec()).unwrap_or_default()
    }
    let bounds = |i: usize| match index {
        Index::BOOLEAN(x) => (primitive(x.min_values(), i), primitive(x.max_values(), i)),
        Index::INT32(x) => (primitive(x.min_values(), i), primitive(x.max_values(), i)),
        Index::INT64(x) => (primitive(x.min_values(), i), primitive(x.max_values(), i)),
        Index::INT96(x) => (primitive(x.min_values(), i), primitive(x.max_values(), i)),
        Index::FLOAT(x) => (primitive(x.min_values(), i), primitive(x.max_values(), i)),
        Index::DOUBLE(x) => (primitive(x.min_values(), i), primitive(x.max_values(), i)),
        Index::BYTE_ARRAY(x) | Index::FIXED_LEN_BYTE_ARRAY(x) => (
            x.min_value(i).map(<[u8]>::to_vec).unwrap_or_default(),
            x.max_value(i).map(<[u8]>::to_vec).unwrap_or_default(),
        ),
    };
    let pages = (0..index.num_pages() as usize)
        .map(|i| {
            let (min, max) = bounds(i);
            let rep = index.repetition_level_histogram(i).map(<[i64]>::to_vec);
            let def = index.definition_level_histogram(i).map(<[i64]>::to_vec);
            (index.is_null_page(i), min, max, rep, def)
        })
        .collect();
    (index.get_boundary_order(), index.null_counts().cloned(), index.nan_counts().cloned(), pages)
}

pub(crate) fn bitset(filter: &Sbbf) -> Vec<u8> {
    let mut bytes = Vec::new();
    filter.write_bitset(&mut bytes).expect("bitset");
    bytes
}

/// What a run of cases covered, to assert that the cases reach the
/// rules under test.
#[derive(Debug, Default)]
pub(crate) struct Coverage {
    pub(crate) cases: usize,
    pub(crate) pages: usize,
    pub(crate) chunk_statistics: usize,
    pub(crate) chunk_nan_bounds: usize,
    pub(crate) page_headers: usize,
    pub(crate) inexact: usize,
    /// Bounds longer than the cut but exact: nothing to increment (or no
    /// character boundary to cut at).
    pub(crate) long_exact: usize,
    pub(crate) indexes: usize,
    /// Page statistics, yet no column index.
    pub(crate) invalid_indexes: usize,
    pub(crate) null_pages: usize,
    pub(crate) ascending: usize,
    pub(crate) descending: usize,
    pub(crate) unordered: usize,
    pub(crate) blooms: usize,
    pub(crate) dropped_blooms: usize,
}

impl Coverage {
    fn count_statistics(&mut self, s: &Statistics, limit: Option<usize>) {
        if !s.min_is_exact() && s.min_bytes_opt().is_some() || !s.max_is_exact() && s.max_bytes_opt().is_some() {
            self.inexact += 1;
        }
        let long = |b: Option<&[u8]>| b.is_some_and(|b| limit.is_some_and(|l| b.len() > l));
        if matches!(s, Statistics::ByteArray(_) | Statistics::FixedLenByteArray(_))
            && (long(s.max_bytes_opt()) && s.max_is_exact() || long(s.min_bytes_opt()) && s.min_is_exact())
        {
            self.long_exact += 1;
        }
        let nan = match s {
            Statistics::Float(s) => s.min_opt().is_some_and(|v| v.is_nan()),
            Statistics::Double(s) => s.min_opt().is_some_and(|v| v.is_nan()),
            Statistics::FixedLenByteArray(s) => {
                s.nan_count_opt().is_some() && s.min_opt().is_some_and(|v| f16_is_nan(v.data()))
            }
            _ => false,
        };
        self.chunk_nan_bounds += usize::from(nan);
    }
}

/// Writes a case both ways, asserts that everything agrees and counts
/// what it covered.
pub(crate) fn check_case(case: &Case, rng: &mut Rng, coverage: &mut Coverage) {
    let (ours, theirs) = check(case, rng);
    coverage.count(case, &ours, &theirs);
}

/// Writes a case both ways and asserts that everything agrees.
pub(crate) fn check(case: &Case, rng: &mut Rng) -> (Ours, Theirs) {
    let theirs = write_theirs(case, rng);
    let ours = write_ours(case, &theirs.pages, rng);
    let meta = &theirs.close.metadata;
    let what = format!("{:?} {:?}", case.descr.self_type(), case.props.statistics_enabled(case.descr.path()));
    assert_same_stats(ours.chunk.as_ref(), meta.statistics(), &format!("chunk statistics of {what}"));
    for (i, (ours, kept)) in ours.page_headers.iter().zip(&theirs.pages).enumerate() {
        assert_same_stats(ours.as_ref(), kept.statistics.as_ref(), &format!("page {i} header statistics of {what}"));
    }
    match (&ours.index, &theirs.close.column_index) {
        (Some(ours), Some(theirs)) => {
            assert_eq!(index_view(ours), index_view(theirs), "column index of {what}");
            if no_nan_inside(theirs) {
                assert_eq!(ours, theirs, "column index of {what}");
            }
        }
        (ours, theirs) => assert_eq!(ours.is_some(), theirs.is_some(), "whether {what} has a column index"),
    }
    assert_eq!(
        ours.bloom.as_ref().map(bitset),
        theirs.close.bloom_filter.as_ref().map(bitset),
        "bloom filter of {what}"
    );
    if let Some(offsets) = &theirs.close.offset_index {
        let bytes: Vec<i64> = ours.page_bytes.iter().flatten().copied().collect();
        let expected = (!bytes.is_empty()).then_some(bytes);
        assert_eq!(expected, offsets.unencoded_byte_array_data_bytes, "unencoded bytes of {what}'s pages");
    }
    assert_eq!(ours.chunk_bytes, meta.unencoded_byte_array_data_bytes(), "unencoded bytes of {what}");
    let histograms = meta.statistics().is_some();
    let hist = |h: &Option<Vec<i64>>| h.clone().filter(|_| histograms);
    assert_eq!(hist(&ours.rep_histogram).as_deref(), meta.repetition_level_histogram().map(|h| h.values()));
    assert_eq!(hist(&ours.def_histogram).as_deref(), meta.definition_level_histogram().map(|h| h.values()));
    (ours, theirs)
}

impl Coverage {
    fn count(&mut self, case: &Case, ours: &Ours, theirs: &Theirs) {
        self.cases += 1;
        self.pages += theirs.pages.len();
        self.page_headers += ours.page_headers.iter().filter(|s| s.is_some()).count();
        if let Some(s) = &ours.chunk {
            self.chunk_statistics += 1;
            self.count_statistics(s, case.props.statistics_truncate_length());
        }
        let page_statistics = case.props.statistics_enabled(case.descr.path()) == EnabledStatistics::Page;
        self.invalid_indexes += usize::from(page_statistics && ours.index.is_none());
        if let Some(index) = &ours.index {
            self.indexes += 1;
            self.null_pages += (0..index.num_pages() as usize).filter(|&i| index.is_null_page(i)).count();
            match index.get_boundary_order() {
                _ if index.num_pages() < 2 => {}
                Some(BoundaryOrder::ASCENDING) => self.ascending += 1,
                Some(BoundaryOrder::DESCENDING) => self.descending += 1,
                _ => self.unordered += 1,
            }
        }
        self.blooms += usize::from(ours.bloom.is_some());
        let bloom_set = case.props.bloom_filter_properties(case.descr.path()).is_some();
        self.dropped_blooms += usize::from(bloom_set && ours.bloom.is_none());
    }
}

/// Runs `cases` random cases of each column type of `group`.
pub(crate) fn run(group: &str, seed: u64, cases: usize) -> Coverage {
    run_with(group, seed, cases, |props, _| props)
}

/// Runs `cases` random cases of each column type of `group`, their
/// props changed by `adjust`.
pub(crate) fn run_with(
    group: &str,
    seed: u64,
    cases: usize,
    adjust: impl Fn(WriterPropertiesBuilder, &mut Rng) -> WriterPropertiesBuilder,
) -> Coverage {
    let mut rng = Rng::new(seed);
    let mut coverage = Coverage::default();
    for spec in specs(group) {
        for _ in 0..cases {
            let props = random_props(&mut rng);
            let props = adjust(props, &mut rng).build();
            let case = random_case(&mut rng, &spec, props);
            check_case(&case, &mut rng, &mut coverage);
        }
    }
    coverage
}

#[track_caller]
fn assert_covered(c: &Coverage) {
    assert!(c.pages > 4 * c.cases, "{c:?}");
    assert!(c.chunk_statistics > 0 && c.page_headers > 0 && c.indexes > 0 && c.null_pages > 0, "{c:?}");
    assert!(c.ascending > 0 && c.descending > 0 && c.unordered > 0, "{c:?}");
    assert!(c.invalid_indexes > 0, "repeated pages of null elements only: {c:?}");
    assert!(c.blooms > 0 && c.dropped_blooms > 0, "{c:?}");
}

#[test]
fn booleans_match_the_crate() {
    assert_covered(&run("bool", 1, 600));
}

#[test]
fn signed_int32_types_match_the_crate() {
    assert_covered(&run("i32", 2, 100));
}

#[test]
fn unsigned_int32_types_match_the_crate() {
    assert_covered(&run("u32", 3, 100));
}

#[test]
fn int64_types_match_the_crate() {
    assert_covered(&run("i64", 4, 80));
}

#[test]
fn int96_matches_the_crate() {
    assert_covered(&run("i96", 5, 600));
}

#[test]
fn floats_match_the_crate() {
    let c = run("f32", 6, 800);
    assert_covered(&c);
    assert!(c.chunk_nan_bounds > 0, "all-NaN chunks: {c:?}");
}

#[test]
fn doubles_match_the_crate() {
    let c = run("f64", 7, 800);
    assert_covered(&c);
    assert!(c.chunk_nan_bounds > 0, "all-NaN chunks: {c:?}");
}

#[test]
fn float16_matches_the_crate() {
    let c = run("f16", 8, 800);
    assert_covered(&c);
    assert!(c.chunk_nan_bounds > 0, "all-NaN chunks: {c:?}");
}

#[test]
fn binary_types_match_the_crate() {
    let c = run("binary", 9, 150);
    assert_covered(&c);
    assert!(c.inexact > 0 && c.long_exact > 0, "{c:?}");
}

#[test]
fn strings_match_the_crate() {
    let c = run("text", 10, 300);
    assert_covered(&c);
    assert!(c.inexact > 0 && c.long_exact > 0, "{c:?}");
}

#[test]
fn decimal_byte_arrays_match_the_crate() {
    assert_covered(&run("decimal", 11, 150));
}

#[test]
fn fixed_len_byte_arrays_match_the_crate() {
    let c = run("fixed", 12, 120);
    assert!(c.inexact > 0 && c.long_exact > 0, "{c:?}");
    assert!(c.chunk_statistics > 0 && c.indexes > 0 && c.invalid_indexes > 0, "{c:?}");
}

#[test]
fn geospatial_types_get_no_min_max() {
    let c = run("geo", 13, 100);
    assert!(c.chunk_statistics > 0 && c.blooms > 0, "{c:?}");
}
