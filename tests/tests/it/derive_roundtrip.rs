//! Derived types written and read back, through the in-memory page store
//! and through Parquet files: the seed record in every list layout, a wide
//! struct covering every runtime type (fixed extremes and a property test),
//! and what the field attributes do on the read side (`skip`, `default`,
//! `with`, `rename`).

use std::collections::{BTreeMap, HashMap};
use std::fmt::Debug;
use std::sync::Arc;

use bytes::Bytes;
use magnolify_parquet::mem::MemPageStore;
use magnolify_parquet::{OwnedRecord, ParquetType};
use proptest::prelude::*;
use test_kit::io::{via_file, via_store, write_read};

fn assert_round_trips<T: OwnedRecord + PartialEq + Debug>(rows: &[T]) {
    assert_eq!(via_store(rows).expect("page store round trip"), rows);
    assert_eq!(via_file(rows).expect("file round trip"), rows);
}

use test_kit::seed::{repeated, three_level, two_level};

#[test]
fn seed_three_level() {
    assert_round_trips(&three_level::rows());
}

#[test]
fn seed_two_level() {
    assert_round_trips(&two_level::rows());
}

#[test]
fn seed_repeated() {
    assert_round_trips(&repeated::rows());
}

#[test]
fn seed_many_rows_cross_pages_and_row_groups() {
    let rows: Vec<_> = (0..40).flat_map(|_| three_level::rows()).collect();
    assert_round_trips(&rows);
}

#[test]
fn seed_read_across_layouts() {
    // The reader follows the file's layout, whatever the type's.
    let two: Vec<three_level::Nested> = write_read::<two_level::Nested, _>(&two_level::rows()).expect("2 → 3");
    assert_eq!(format!("{two:?}"), format!("{:?}", three_level::rows()));
    let one: Vec<two_level::Nested> = write_read::<repeated::Nested, _>(&repeated::rows()).expect("1 → 2");
    assert_eq!(format!("{one:?}"), format!("{:?}", two_level::rows()));
}

/// Floats, compared bit for bit so that NaNs (and their payloads) and the
/// sign of zero count.
#[derive(ParquetType, Debug, Clone)]
struct Floats {
    single: f32,
    double: f64,
    maybe: Option<f64>,
    list: Vec<f32>,
}

impl PartialEq for Floats {
    fn eq(&self, other: &Self) -> bool {
        self.single.to_bits() == other.single.to_bits()
            && self.double.to_bits() == other.double.to_bits()
            && self.maybe.map(f64::to_bits) == other.maybe.map(f64::to_bits)
            && self.list.iter().map(|f| f.to_bits()).eq(other.list.iter().map(|f| f.to_bits()))
    }
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Leaf {
    name: String,
    weight: Option<i16>,
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Level1 {
    a: i32,
    level2: Level2,
    list2: Vec<Level2>,
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Level2 {
    b: Option<String>,
    level3: Option<Level3>,
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Level3 {
    c: Vec<Option<bool>>,
    d: u64,
}

/// A unit enum (an ENUM string; one symbol renamed), also in `derive_schema`.
#[derive(ParquetType, Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Status {
    Active,
    #[parquet(rename = "on-hold")]
    OnHold,
    Closed,
}

/// A newtype (transparent), also in `derive_schema`.
#[derive(ParquetType, Debug, Clone, PartialEq)]
pub(crate) struct UserId(pub(crate) u64);

/// Every type the runtime supports without a feature.
#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Wide {
    flag: bool,
    tiny: i8,
    small: i16,
    int: i32,
    long: i64,
    byte: u8,
    ushort: u16,
    uint: u32,
    ulong: u64,
    floats: Floats,
    text: String,
    boxed_str: Box<str>,
    arc_str: Arc<str>,
    binary: Vec<u8>,
    bytes: Bytes,
    fixed: [u8; 4],
    opt_int: Option<i64>,
    opt_text: Option<String>,
    ints: Vec<i32>,
    texts: Vec<String>,
    sparse: Vec<Option<u16>>,
    maybe_list: Option<Vec<String>>,
    deep: Option<Vec<Option<Leaf>>>,
    matrix: Vec<Vec<i8>>,
    blobs: Vec<Vec<u8>>,
    hash_map: HashMap<String, i32>,
    tree_map: BTreeMap<u32, Option<String>>,
    groups: BTreeMap<String, Vec<Leaf>>,
    level1: Level1,
    opt_level1: Option<Level1>,
    status: Status,
    opt_status: Option<Status>,
    statuses: Vec<Status>,
    id: UserId,
    ids: Vec<UserId>,
    opt_id: Option<UserId>,
    boxed: Box<Leaf>,
    boxed_opt: Option<Box<i32>>,
}

fn leaf(name: &str, weight: Option<i16>) -> Leaf {
    Leaf { name: name.to_owned(), weight }
}

/// Extremes and the empty/absent cases of every field.
fn wide_rows() -> Vec<Wide> {
    let level1 = Level1 {
        a: -5,
        level2: Level2 { b: Some("two".into()), level3: Some(Level3 { c: vec![Some(true), None, Some(false)], d: 9 }) },
        list2: vec![
            Level2 { b: None, level3: None },
            Level2 { b: Some(String::new()), level3: Some(Level3 { c: vec![], d: u64::MAX }) },
        ],
    };
    let max = Wide {
        flag: true,
        tiny: i8::MAX,
        small: i16::MAX,
        int: i32::MAX,
        long: i64::MAX,
        byte: u8::MAX,
        ushort: u16::MAX,
        uint: u32::MAX,
        ulong: u64::MAX,
        floats: Floats {
            single: f32::NAN,
            double: f64::from_bits(0x7ff8_0000_0000_0abc),
            maybe: Some(f64::NEG_INFINITY),
            list: vec![f32::INFINITY, -0.0, f32::MIN_POSITIVE / 2.0, -f32::NAN, f32::MAX],
        },
        text: "naïve café 🚀".into(),
        boxed_str: "boxed".into(),
        arc_str: "shared ✓".into(),
        binary: vec![0, 255, 128, 0],
        bytes: Bytes::from_static(b"\x00bytes\xff"),
        fixed: [0xde, 0xad, 0xbe, 0xef],
        opt_int: Some(i64::MIN),
        opt_text: Some(String::new()),
        ints: vec![i32::MIN, 0, i32::MAX],
        texts: vec![String::new(), "ü".into(), "x".repeat(300)],
        sparse: vec![None, Some(u16::MAX), None, Some(0)],
        maybe_list: Some(vec!["a".into()]),
        deep: Some(vec![Some(leaf("in", Some(i16::MIN))), None, Some(leaf("", None))]),
        matrix: vec![vec![1, 2], vec![], vec![i8::MIN]],
        blobs: vec![vec![], vec![1, 2, 3]],
        hash_map: HashMap::from([("k".into(), 1), (String::new(), -1), ("ключ".into(), i32::MAX)]),
        tree_map: BTreeMap::from([(0, None), (u32::MAX, Some("max".into())), (7, Some(String::new()))]),
        groups: BTreeMap::from([("g".into(), vec![leaf("a", Some(1)), leaf("b", None)]), ("empty".into(), vec![])]),
        level1: level1.clone(),
        opt_level1: Some(level1.clone()),
        status: Status::OnHold,
        opt_status: Some(Status::Closed),
        statuses: vec![Status::Active, Status::OnHold, Status::OnHold],
        id: UserId(u64::MAX),
        ids: vec![UserId(0), UserId(1)],
        opt_id: Some(UserId(17)),
        boxed: Box::new(leaf("boxed", Some(3))),
        boxed_opt: Some(Box::new(-1)),
    };
    let min = Wide {
        flag: false,
        tiny: i8::MIN,
        small: i16::MIN,
        int: i32::MIN,
        long: i64::MIN,
        byte: 0,
        ushort: 0,
        uint: 0,
        ulong: 0,
        floats: Floats { single: -0.0, double: f64::MIN_POSITIVE, maybe: None, list: vec![] },
        text: String::new(),
        boxed_str: "".into(),
        arc_str: "".into(),
        binary: vec![],
        bytes: Bytes::new(),
        fixed: [0; 4],
        opt_int: None,
        opt_text: None,
        ints: vec![],
        texts: vec![],
        sparse: vec![],
        maybe_list: None,
        deep: None,
        matrix: vec![],
        blobs: vec![],
        hash_map: HashMap::new(),
        tree_map: BTreeMap::new(),
        groups: BTreeMap::new(),
        level1: Level1 { a: 0, level2: Level2 { b: None, level3: None }, list2: vec![] },
        opt_level1: None,
        status: Status::Active,
        opt_status: None,
        statuses: vec![],
        id: UserId(0),
        ids: vec![],
        opt_id: None,
        boxed: Box::new(leaf("", None)),
        boxed_opt: None,
    };
    // Empty but present: distinct from absent.
    let empty = Wide {
        maybe_list: Some(vec![]),
        deep: Some(vec![]),
        opt_level1: Some(Level1 { a: 1, level2: Level2 { b: None, level3: None }, list2: vec![] }),
        sparse: vec![None],
        matrix: vec![vec![]],
        floats: Floats { single: 1.5, double: -2.25, maybe: Some(f64::NAN), list: vec![f32::NAN] },
        ..min.clone()
    };
    vec![max, min, empty]
}

#[test]
fn wide_extremes() {
    let rows = wide_rows();
    assert_round_trips(&rows);
    // None and Some(empty) are told apart.
    let back = via_store(&rows).expect("store");
    assert_eq!(back[1].maybe_list, None);
    assert_eq!(back[2].maybe_list, Some(vec![]));
    assert_eq!(back[2].deep, Some(vec![]));
    assert_eq!(back[0].floats.double.to_bits(), 0x7ff8_0000_0000_0abc);
}

fn floats() -> impl Strategy<Value = Floats> {
    (any::<f32>(), any::<f64>(), any::<Option<f64>>(), prop::collection::vec(any::<f32>(), 0..4))
        .prop_map(|(single, double, maybe, list)| Floats { single, double, maybe, list })
}

fn text() -> impl Strategy<Value = String> {
    ".{0,12}"
}

fn leaves() -> impl Strategy<Value = Leaf> {
    (text(), any::<Option<i16>>()).prop_map(|(name, weight)| Leaf { name, weight })
}

fn level2() -> impl Strategy<Value = Level2> {
    let level3 = (prop::collection::vec(any::<Option<bool>>(), 0..4), any::<u64>()).prop_map(|(c, d)| Level3 { c, d });
    (prop::option::of(text()), prop::option::of(level3)).prop_map(|(b, level3)| Level2 { b, level3 })
}

fn level1() -> impl Strategy<Value = Level1> {
    (any::<i32>(), level2(), prop::collection::vec(level2(), 0..3)).prop_map(|(a, level2, list2)| Level1 {
        a,
        level2,
        list2,
    })
}

fn status() -> impl Strategy<Value = Status> {
    prop_oneof![Just(Status::Active), Just(Status::OnHold), Just(Status::Closed)]
}

fn small_vec<S: Strategy>(element: S) -> prop::collection::VecStrategy<S> {
    prop::collection::vec(element, 0..4)
}

prop_compose! {
    fn wide()(
        (flag, tiny, small, int, long, byte, ushort, uint, ulong) in
            (any::<bool>(), any::<i8>(), any::<i16>(), any::<i32>(), any::<i64>(),
             any::<u8>(), any::<u16>(), any::<u32>(), any::<u64>()),
        floats in floats(),
        (text, boxed_str, arc_str, binary, bytes, fixed) in
            (text(), text(), text(), small_vec(any::<u8>()), small_vec(any::<u8>()), any::<[u8; 4]>()),
        (opt_int, opt_text, ints, texts, sparse, maybe_list) in
            (any::<Option<i64>>(), prop::option::of(text()), small_vec(any::<i32>()), small_vec(text()),
             small_vec(any::<Option<u16>>()), prop::option::of(small_vec(text()))),
        (deep, matrix, blobs) in
            (prop::option::of(small_vec(prop::option::of(leaves()))), small_vec(small_vec(any::<i8>())),
             small_vec(small_vec(any::<u8>()))),
        (hash_map, tree_map, groups) in
            (prop::collection::hash_map(text(), any::<i32>(), 0..4),
             prop::collection::btree_map(any::<u32>(), prop::option::of(text()), 0..4),
             prop::collection::btree_map(text(), small_vec(leaves()), 0..3)),
        (level1, opt_level1) in (level1(), prop::option::of(level1())),
        (status, opt_status, statuses) in (status(), prop::option::of(status()), small_vec(status())),
        (id, ids, opt_id) in (any::<u64>(), small_vec(any::<u64>()), any::<Option<u64>>()),
        (boxed, boxed_opt) in (leaves(), any::<Option<i32>>()),
    ) -> Wide {
        Wide {
            flag, tiny, small, int, long, byte, ushort, uint, ulong, floats,
            boxed_str: boxed_str.into(),
            arc_str: arc_str.into(),
            text, binary,
            bytes: Bytes::from(bytes),
            fixed, opt_int, opt_text, ints, texts, sparse, maybe_list, deep, matrix, blobs,
            hash_map, tree_map, groups, level1, opt_level1, status, opt_status, statuses,
            id: UserId(id),
            ids: ids.into_iter().map(UserId).collect(),
            opt_id: opt_id.map(UserId),
            boxed: Box::new(boxed),
            boxed_opt: boxed_opt.map(Box::new),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn wide_round_trips_through_the_store(rows in prop::collection::vec(wide(), 1..6)) {
        prop_assert_eq!(via_store(&rows).map_err(|e| TestCaseError::fail(e.to_string()))?, rows);
    }

    #[test]
    fn wide_round_trips_through_files(rows in prop::collection::vec(wide(), 1..12)) {
        prop_assert_eq!(via_file(&rows).map_err(|e| TestCaseError::fail(e.to_string()))?, rows);
    }
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Pair<A, B> {
    first: A,
    rest: Vec<B>,
}

#[test]
fn generic_struct() {
    let rows = vec![
        Pair { first: Some(Status::Closed), rest: vec![UserId(1), UserId(2)] },
        Pair { first: None, rest: vec![] },
    ];
    assert_round_trips(&rows);
}

#[derive(ParquetType, Debug, Clone, PartialEq, Default)]
struct WithSkip {
    id: u32,
    #[parquet(skip)]
    cache: Vec<String>,
    #[parquet(skip)]
    touched: Option<bool>,
}

#[test]
fn skipped_fields_read_as_default() {
    let rows = [WithSkip { id: 1, cache: vec!["not stored".into()], touched: Some(true) }];
    let expected = [WithSkip { id: 1, ..WithSkip::default() }];
    assert_eq!(via_store(&rows).expect("store"), expected);
    assert_eq!(via_file(&rows).expect("file"), expected);
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
#[parquet(rename = "Event")]
struct EventV1 {
    id: u64,
    #[parquet(rename = "label")]
    name: String,
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
#[parquet(rename = "Event")]
struct EventV2 {
    note: Option<String>,
    #[parquet(default)]
    count: u32,
    #[parquet(rename = "label")]
    title: String,
    #[parquet(default, rename = "tags")]
    labels: Vec<String>,
    id: u64,
}

#[derive(ParquetType, Debug)]
#[parquet(rename = "Event")]
struct EventNeedsCount {
    id: u64,
    count: u32,
}

#[test]
fn missing_columns_default_or_fail() {
    let v1 = [EventV1 { id: 3, name: "three".into() }, EventV1 { id: 4, name: String::new() }];
    let v2: Vec<EventV2> = write_read(&v1).expect("read v1 as v2");
    assert_eq!(
        v2,
        [
            EventV2 { note: None, count: 0, title: "three".into(), labels: vec![], id: 3 },
            EventV2 { note: None, count: 0, title: String::new(), labels: vec![], id: 4 },
        ]
    );
    let err = write_read::<EventV1, EventNeedsCount>(&v1).expect_err("count is required");
    let message = err.to_string();
    assert!(message.contains("required field `count` is not in the file"), "{message}");
    assert!(message.contains("[id, label]"), "{message}");
}

/// Percentages stored as a fraction in 0..=1, refusing values above 100.
mod percent {
    pub type Repr = f64;

    pub fn to_parquet(value: &u8) -> Result<f64, String> {
        if *value > 100 {
            return Err(format!("{value}% is more than 100%"));
        }
        Ok(f64::from(*value) / 100.0)
    }

    pub fn from_parquet(repr: f64) -> Result<u8, String> {
        let scaled = (repr * 100.0).round();
        if (0.0..=100.0).contains(&scaled) {
            Ok(scaled as u8)
        } else {
            Err(format!("{repr} is not a fraction"))
        }
    }
}

/// Socket addresses as optional text: an absent column reads as `None`.
mod maybe_addr {
    use std::net::SocketAddr;

    pub type Repr = Option<String>;

    pub fn to_parquet(value: &Option<SocketAddr>) -> Result<Option<String>, std::convert::Infallible> {
        Ok(value.map(|a| a.to_string()))
    }

    pub fn from_parquet(repr: Option<String>) -> Result<Option<SocketAddr>, std::net::AddrParseError> {
        repr.map(|s| s.parse()).transpose()
    }
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Gauge {
    name: String,
    #[parquet(with = "percent")]
    level: u8,
    #[parquet(with = "maybe_addr")]
    source: Option<std::net::SocketAddr>,
}

#[test]
fn with_converts_both_ways() {
    let rows = vec![
        Gauge { name: "a".into(), level: 0, source: None },
        Gauge { name: "b".into(), level: 100, source: Some("127.0.0.1:8080".parse().expect("addr")) },
        Gauge { name: "c".into(), level: 37, source: Some("[::1]:1".parse().expect("addr")) },
    ];
    assert_round_trips(&rows);
}

#[test]
fn with_write_error_names_the_field_and_drops_the_record() {
    let store = {
        let mut writer = MemPageStore::writer(magnolify_parquet::Derived::<Gauge>::new()).expect("writer");
        let err = writer.write(&Gauge { name: "bad".into(), level: 101, source: None }).expect_err("101%");
        let message = err.to_string();
        assert!(message.contains("conversion failed: 101% is more than 100%"), "{message}");
        assert!(message.contains("column `level`, field `level`, record 0"), "{message}");
        writer.write(&Gauge { name: "good".into(), level: 5, source: None }).expect("next record");
        writer.close().expect("close")
    };
    let back: Vec<Gauge> = store.read().expect("read").collect::<Result<_, _>>().expect("rows");
    assert_eq!(back, [Gauge { name: "good".into(), level: 5, source: None }]);
}

/// The same columns as `Gauge` with raw values.
#[derive(ParquetType)]
#[parquet(rename = "Gauge")]
struct RawGauge {
    name: String,
    level: f64,
    source: Option<String>,
}

#[test]
fn with_read_error_names_the_field() {
    let raw = [RawGauge { name: "x".into(), level: 2.5, source: None }];
    let err = write_read::<RawGauge, Gauge>(&raw).expect_err("250% is not readable");
    let message = err.to_string();
    assert!(message.contains("`level`"), "{message}");
    assert!(message.contains("conversion failed: 2.5 is not a fraction"), "{message}");

    let raw = [RawGauge { name: "x".into(), level: 0.5, source: Some("not an address".into()) }];
    let message = write_read::<RawGauge, Gauge>(&raw).expect_err("bad address").to_string();
    assert!(message.contains("`source`") && message.contains("conversion failed"), "{message}");
}

#[derive(ParquetType)]
#[parquet(rename = "Gauge")]
struct NameOnly {
    name: String,
}

#[test]
fn with_missing_column_reads_the_repr_missing_value() {
    // `source`'s Repr is Option<String>: absent reads from_parquet(None).
    // `level`'s Repr is f64, which has no missing value: an error.
    #[derive(ParquetType, Debug, PartialEq)]
    #[parquet(rename = "Gauge")]
    struct SourceOnly {
        name: String,
        #[parquet(with = "maybe_addr")]
        source: Option<std::net::SocketAddr>,
    }
    let rows: Vec<SourceOnly> = write_read(&[NameOnly { name: "n".into() }]).expect("source absent");
    assert_eq!(rows, [SourceOnly { name: "n".into(), source: None }]);
    let err = write_read::<NameOnly, Gauge>(&[NameOnly { name: "n".into() }]).expect_err("level absent");
    assert!(err.to_string().contains("required field `level` is not in the file"), "{err}");
}

#[derive(ParquetType)]
#[parquet(rename = "Row")]
struct TextStatus {
    status: String,
    statuses: Vec<String>,
}

#[derive(ParquetType, Debug, PartialEq)]
#[parquet(rename = "Row")]
struct EnumStatus {
    status: Status,
    statuses: Vec<Status>,
}

#[test]
fn enums_read_strings_and_reject_unknown_symbols() {
    let ok = [TextStatus { status: "on-hold".into(), statuses: vec!["Closed".into(), "Active".into()] }];
    let rows: Vec<EnumStatus> = write_read(&ok).expect("known symbols");
    assert_eq!(rows, [EnumStatus { status: Status::OnHold, statuses: vec![Status::Closed, Status::Active] }]);

    let bad = [TextStatus { status: "OnHold".into(), statuses: vec![] }];
    let message = write_read::<TextStatus, EnumStatus>(&bad).expect_err("unknown symbol").to_string();
    assert!(message.contains("column `status`"), "{message}");
    assert!(message.contains("unknown variant \"OnHold\" of enum `Status`"), "{message}");
    assert!(message.contains("#[parquet(other)]"), "{message}");
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
#[parquet(rename_all = "kebab-case", list = "two-level")]
struct Kebab {
    first_name: String,
    all_scores: Vec<Option<i32>>,
}

#[test]
fn container_list_layout_errors_are_reported_not_panicked() {
    // Nullable elements have no two-level form: building the schema fails.
    let err = via_store(&[Kebab { first_name: "a".into(), all_scores: vec![None] }]).expect_err("no form");
    assert!(err.to_string().contains("nullable list elements need the three-level list layout"), "{err}");
}

#[derive(ParquetType)]
#[parquet(rename = "Outer")]
struct OuterWritten {
    group: Option<GroupWritten>,
    after: Option<i32>,
}

#[derive(ParquetType)]
struct GroupWritten {
    x: i32,
}

#[derive(ParquetType, Debug, PartialEq)]
#[parquet(rename = "Outer")]
struct OuterRead {
    group: GroupRead,
    after: Option<i32>,
}

/// None of its fields is in the file.
#[derive(ParquetType, Debug, PartialEq)]
struct GroupRead {
    y: Option<i32>,
    zs: Vec<String>,
}

#[test]
fn struct_with_no_column_in_the_file_reads_missing_values() {
    // The file's group is optional, the type's required: with no column of
    // its own the struct cannot see the group's nulls, and must not look at
    // its sibling's column instead.
    let rows = [
        OuterWritten { group: None, after: None },
        OuterWritten { group: Some(GroupWritten { x: 1 }), after: Some(5) },
        OuterWritten { group: None, after: Some(6) },
    ];
    let back: Vec<OuterRead> = write_read(&rows).expect("read");
    let empty = || GroupRead { y: None, zs: vec![] };
    assert_eq!(
        back,
        [
            OuterRead { group: empty(), after: None },
            OuterRead { group: empty(), after: Some(5) },
            OuterRead { group: empty(), after: Some(6) },
        ]
    );
}

/// Borrowing structs with two lifetimes, one outliving the other, nested:
/// the writable form of the outer struct names the inner one at other
/// lifetimes, and it must still hold.
mod two_lifetimes {
    use magnolify_parquet::{ParquetReader, ParquetType, ParquetWriter};

    #[derive(ParquetType)]
    struct Label<'a, 'b: 'a> {
        text: &'a str,
        bytes: &'b [u8],
    }

    #[derive(ParquetType)]
    struct Labeled<'a, 'b: 'a> {
        id: u32,
        label: Label<'a, 'b>,
        tags: Vec<&'a str>,
    }

    #[derive(ParquetType, Debug, PartialEq)]
    struct LabelOwned {
        text: String,
        bytes: Vec<u8>,
    }

    #[derive(ParquetType, Debug, PartialEq)]
    struct LabeledOwned {
        id: u32,
        label: LabelOwned,
        tags: Vec<String>,
    }

    #[test]
    fn nested_borrowing_structs_with_two_lifetimes_write() {
        let (text, bytes) = (String::from("north"), vec![1u8, 2, 3]);
        let tags = [String::from("a"), String::from("b")];
        let record = Labeled {
            id: 7,
            label: Label { text: &text, bytes: &bytes },
            tags: tags.iter().map(String::as_str).collect(),
        };
        let mut w = ParquetWriter::<Labeled<'static, 'static>, _>::new(Vec::new()).unwrap();
        w.write(&record).unwrap();
        let file = bytes::Bytes::from(w.into_inner().unwrap());
        let back: Vec<LabeledOwned> = ParquetReader::new(file).unwrap().collect::<Result<_, _>>().unwrap();
        let label = LabelOwned { text: "north".into(), bytes: vec![1, 2, 3] };
        assert_eq!(back, [LabeledOwned { id: 7, label, tags: vec!["a".into(), "b".into()] }]);
    }
}
