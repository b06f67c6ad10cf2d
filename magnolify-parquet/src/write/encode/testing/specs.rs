//! The column types under test, their descriptors, and the seeded random
//! generator every case is drawn from.

use std::sync::Arc;

use parquet::basic::{ConvertedType, LogicalType, Repetition, TimeUnit, Type as PhysicalType};
use parquet::schema::types::{ColumnDescPtr, ColumnDescriptor, ColumnPath, Type};

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
    pub(super) physical: PhysicalType,
    logical: Option<LogicalType>,
    converted: ConvertedType,
    pub(super) length: i32,
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
