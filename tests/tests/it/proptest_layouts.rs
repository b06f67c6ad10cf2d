//! Arbitrary values of wide derived types round-trip exactly, through the
//! in-memory page store and through files written with every codec, both
//! dictionary settings, data pages v1 and v2, and every list layout the
//! types can take, with row groups of 3 records, pages of 2 and tiny page
//! and dictionary size limits, so that every record crosses boundaries.
//!
//! Floats compare by their bits (NaN payloads and the sign of zero
//! included); maps compare as maps.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Debug;

use bytes::Bytes;
use magnolify_parquet::mem::{MemPageStore, MemWriter};
use magnolify_parquet::parquet::basic::{Compression, GzipLevel, ZstdLevel};
use magnolify_parquet::parquet::file::properties::{WriterProperties, WriterVersion};
use magnolify_parquet::{Derived, OwnedRecord, ParquetRecord, ParquetType, ReadOptions, ReaderBuilder, WriterBuilder};
use proptest::prelude::*;

/// An `f64` compared by its bits.
#[derive(ParquetType, Debug, Clone, Copy)]
struct Bits64(f64);

impl PartialEq for Bits64 {
    fn eq(&self, other: &Self) -> bool {
        self.0.to_bits() == other.0.to_bits()
    }
}

/// An `f32` compared by its bits.
#[derive(ParquetType, Debug, Clone, Copy)]
struct Bits32(f32);

impl PartialEq for Bits32 {
    fn eq(&self, other: &Self) -> bool {
        self.0.to_bits() == other.0.to_bits()
    }
}

// ---------------------------------------------------------------------------
// Three-level lists (the default): every shape, nullable elements, maps in lists
// ---------------------------------------------------------------------------

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Sub {
    a: Option<i16>,
    names: Option<Vec<String>>,
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Part {
    key: String,
    attrs: BTreeMap<String, Vec<u16>>,
    sub: Option<Sub>,
    weights: Vec<Bits64>,
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Inner {
    level: u8,
    deep: Option<Vec<Option<Vec<Option<i64>>>>>,
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Wide {
    id: i64,
    small: i8,
    count: u32,
    big: u64,
    x: Bits32,
    y: Bits64,
    flag: bool,
    name: String,
    note: Option<String>,
    blob: Vec<u8>,
    fixed: [u8; 3],
    maybe: Option<Vec<Option<i32>>>,
    grid: Vec<Vec<Option<String>>>,
    parts: Vec<Part>,
    optional_parts: Vec<Option<Part>>,
    inner: Option<Inner>,
    lookup: Option<BTreeMap<String, Option<i64>>>,
    by_id: HashMap<i32, Vec<String>>,
    list_of_maps: Vec<BTreeMap<String, bool>>,
}

// ---------------------------------------------------------------------------
// Two-level lists (parquet-avro's layout): elements cannot be null
// ---------------------------------------------------------------------------

#[derive(ParquetType, Debug, Clone, PartialEq)]
#[parquet(list = "two-level")]
struct Part2 {
    key: String,
    values: Vec<u16>,
    attrs: BTreeMap<String, Vec<i32>>,
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
#[parquet(list = "two-level")]
struct Wide2 {
    id: i64,
    maybe: Option<Vec<i32>>,
    grid: Vec<Vec<String>>,
    parts: Vec<Part2>,
    deep: Option<Vec<Vec<Vec<i64>>>>,
    weights: Vec<Bits64>,
    tagged: BTreeMap<String, Vec<bool>>,
}

// ---------------------------------------------------------------------------
// Repeated (1-level) fields: neither the list nor its elements can be null
// ---------------------------------------------------------------------------

#[derive(ParquetType, Debug, Clone, PartialEq)]
#[parquet(list = "repeated")]
struct PartR {
    k: String,
    vs: Vec<i64>,
    note: Option<String>,
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
#[parquet(list = "repeated")]
struct WideR {
    id: i64,
    xs: Vec<i32>,
    names: Vec<String>,
    parts: Vec<PartR>,
    opt: Option<String>,
    attrs: BTreeMap<String, i32>,
    #[parquet(list = "three-level")]
    mixed: Option<Vec<Option<u8>>>,
}

// ---------------------------------------------------------------------------
// Strategies
// ---------------------------------------------------------------------------

pub(crate) fn text() -> impl Strategy<Value = String> {
    "\\PC{0,6}"
}

pub(crate) fn small_vec<T: Debug>(s: impl Strategy<Value = T>) -> impl Strategy<Value = Vec<T>> {
    prop::collection::vec(s, 0..4)
}

fn bits64() -> impl Strategy<Value = Bits64> {
    any::<u64>().prop_map(|b| Bits64(f64::from_bits(b)))
}

fn sub() -> impl Strategy<Value = Sub> {
    (any::<Option<i16>>(), prop::option::of(small_vec(text()))).prop_map(|(a, names)| Sub { a, names })
}

fn part() -> impl Strategy<Value = Part> {
    (
        text(),
        prop::collection::btree_map(text(), small_vec(any::<u16>()), 0..3),
        prop::option::of(sub()),
        small_vec(bits64()),
    )
        .prop_map(|(key, attrs, sub, weights)| Part { key, attrs, sub, weights })
}

fn inner() -> impl Strategy<Value = Inner> {
    (any::<u8>(), prop::option::of(small_vec(prop::option::of(small_vec(any::<Option<i64>>())))))
        .prop_map(|(level, deep)| Inner { level, deep })
}

fn wide() -> impl Strategy<Value = Wide> {
    let scalars = (
        any::<i64>(),
        any::<i8>(),
        any::<u32>(),
        any::<u64>(),
        any::<u32>().prop_map(|b| Bits32(f32::from_bits(b))),
        bits64(),
        any::<bool>(),
        text(),
        prop::option::of(text()),
        small_vec(any::<u8>()),
        any::<[u8; 3]>(),
    );
    let nested = (
        prop::option::of(small_vec(any::<Option<i32>>())),
        small_vec(small_vec(prop::option::of(text()))),
        small_vec(part()),
        small_vec(prop::option::of(part())),
        prop::option::of(inner()),
        prop::option::of(prop::collection::btree_map(text(), any::<Option<i64>>(), 0..3)),
        prop::collection::hash_map(any::<i32>(), small_vec(text()), 0..3),
        small_vec(prop::collection::btree_map(text(), any::<bool>(), 0..3)),
    );
    (scalars, nested).prop_map(
        |(
            (id, small, count, big, x, y, flag, name, note, blob, fixed),
            (maybe, grid, parts, optional_parts, inner, lookup, by_id, list_of_maps),
        )| Wide {
            id,
            small,
            count,
            big,
            x,
            y,
            flag,
            name,
            note,
            blob,
            fixed,
            maybe,
            grid,
            parts,
            optional_parts,
            inner,
            lookup,
            by_id,
            list_of_maps,
        },
    )
}

fn wide2() -> impl Strategy<Value = Wide2> {
    let part2 = (text(), small_vec(any::<u16>()), prop::collection::btree_map(text(), small_vec(any::<i32>()), 0..3))
        .prop_map(|(key, values, attrs)| Part2 { key, values, attrs });
    (
        any::<i64>(),
        prop::option::of(small_vec(any::<i32>())),
        small_vec(small_vec(text())),
        small_vec(part2),
        prop::option::of(small_vec(small_vec(small_vec(any::<i64>())))),
        small_vec(bits64()),
        prop::collection::btree_map(text(), small_vec(any::<bool>()), 0..3),
    )
        .prop_map(|(id, maybe, grid, parts, deep, weights, tagged)| Wide2 {
            id,
            maybe,
            grid,
            parts,
            deep,
            weights,
            tagged,
        })
}

fn wide_r() -> impl Strategy<Value = WideR> {
    let part_r =
        (text(), small_vec(any::<i64>()), prop::option::of(text())).prop_map(|(k, vs, note)| PartR { k, vs, note });
    (
        any::<i64>(),
        small_vec(any::<i32>()),
        small_vec(text()),
        small_vec(part_r),
        prop::option::of(text()),
        prop::collection::btree_map(text(), any::<i32>(), 0..3),
        prop::option::of(small_vec(any::<Option<u8>>())),
    )
        .prop_map(|(id, xs, names, parts, opt, attrs, mixed)| WideR { id, xs, names, parts, opt, attrs, mixed })
}

// ---------------------------------------------------------------------------
// Round trips
// ---------------------------------------------------------------------------

fn codecs() -> [Compression; 5] {
    [
        Compression::UNCOMPRESSED,
        Compression::SNAPPY,
        Compression::GZIP(GzipLevel::default()),
        Compression::LZ4_RAW,
        Compression::ZSTD(ZstdLevel::default()),
    ]
}

const VERSIONS: [WriterVersion; 2] = [WriterVersion::PARQUET_1_0, WriterVersion::PARQUET_2_0];

/// Writes `records` with every codec, dictionary setting and page version,
/// in row groups of 3 records and pages of 2 records or 64 bytes, and reads
/// them back; then through the page store.
pub(crate) fn round_trip<T: OwnedRecord + Clone + PartialEq + Debug + Send>(
    records: &[T],
) -> Result<(), TestCaseError> {
    for codec in codecs() {
        for dictionary in [true, false] {
            for version in VERSIONS {
                let mut w = WriterBuilder::<T>::new()
                    .compression(codec)
                    .dictionary(dictionary)
                    .writer_version(version)
                    .max_row_group_rows(3)
                    .data_page_rows(2)
                    .data_page_size(64)
                    .batch_size(2)
                    .properties(|p| p.set_dictionary_page_size_limit(48))
                    .build(Vec::new())
                    .map_err(|e| TestCaseError::fail(format!("writer: {e}")))?;
                w.write_all(records).map_err(|e| TestCaseError::fail(format!("write: {e}")))?;
                let file = Bytes::from(w.into_inner().map_err(|e| TestCaseError::fail(format!("close: {e}")))?);
                let back: Vec<T> = ReaderBuilder::new(file)
                    .and_then(|b| b.build::<T>(ReadOptions::default().batch_size(2))?.collect())
                    .map_err(|e| {
                        TestCaseError::fail(format!("{codec:?}, dictionary {dictionary}, {version:?}: {e}"))
                    })?;
                prop_assert_eq!(&back, &records.to_vec(), "{:?}, dictionary {}, {:?}", codec, dictionary, version);
            }
        }
    }
    for dictionary in [true, false] {
        for version in VERSIONS {
            let props = WriterProperties::builder()
                .set_dictionary_enabled(dictionary)
                .set_writer_version(version)
                .set_data_page_row_count_limit(2)
                .set_write_batch_size(2)
                .build();
            let mut w = MemWriter::new(Derived::<T>::new(), props).map_err(|e| TestCaseError::fail(e.to_string()))?;
            for r in records {
                w.write(r).map_err(|e| TestCaseError::fail(e.to_string()))?;
            }
            let store: MemPageStore = w.close().map_err(|e| TestCaseError::fail(e.to_string()))?;
            let back: Vec<T> =
                store.read::<T>().and_then(|r| r.collect()).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(&back, &records.to_vec(), "page store, dictionary {}, {:?}", dictionary, version);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, max_shrink_iters: 200, ..ProptestConfig::default() })]

    #[test]
    fn three_level_lists_round_trip(records in prop::collection::vec(wide(), 0..8)) {
        round_trip(&records)?;
    }

    #[test]
    fn two_level_lists_round_trip(records in prop::collection::vec(wide2(), 0..8)) {
        round_trip(&records)?;
    }

    #[test]
    fn repeated_fields_round_trip(records in prop::collection::vec(wide_r(), 0..8)) {
        round_trip(&records)?;
    }
}

/// The layouts really differ: the same data under the three layouts gives
/// three schemas (a guard against the attributes being ignored).
#[test]
fn the_three_layouts_are_distinct() {
    let text = |ty: magnolify_parquet::parquet::schema::types::TypePtr| magnolify_parquet::schema::to_text(&ty);
    let wide2 = text(Wide2::message().expect("schema"));
    let wide_r = text(WideR::message().expect("schema"));
    assert!(wide2.contains("REPEATED INT32 array"), "{wide2}");
    assert!(wide_r.contains("REPEATED INT32 xs"), "{wide_r}");
    assert!(wide_r.contains("REPEATED group list"), "{wide_r}");
    let wide = text(Wide::message().expect("schema"));
    assert!(wide.contains("REPEATED group list"), "{wide}");
    assert!(!wide.contains(" array"), "{wide}");
}
