//! Writes Parquet files with the library's default settings, each with the
//! JSON of the values written beside it (the format of
//! `tests/fixtures/*.expected.json`), for `tests/peer/check_peers.py` to read
//! back with pyarrow and DuckDB:
//!
//! ```text
//! cargo run -p tests --example peer_write -- OUTDIR
//! ```
//!
//! * `wide.parquet`: every supported type, nulls at every level, nested
//!   lists and maps (empty and absent), several row groups, ZSTD;
//! * `wide.snappy-small-pages.parquet`, `wide.lz4-raw-plain.parquet`,
//!   `wide.v2-gzip.parquet`: the same rows with other settings: Snappy,
//!   pages of a few hundred bytes and a dictionary that overflows into PLAIN
//!   mid-chunk; LZ4_RAW without dictionaries; data pages v2 with gzip (its
//!   integer and byte array columns are DELTA encoded by the `parquet`
//!   crate, the others by the library's own encoder);
//! * `nested.three-level.parquet` and `nested.two-level.parquet`: the seed
//!   `Nested` record in the default layout and in parquet-avro's 2-level one;
//! * `enums.parquet`: an enum with data as a top-level and an optional
//!   field (the group of a `variant` tag and one optional field per variant
//!   with data), which the peer check also filters on the tag in SQL, and a
//!   unit enum annotated ENUM (`annotation = "enum"`);
//! * `variant.parquet`: JSON documents in a VARIANT column (`VariantValue`),
//!   which the peer check reads back as JSON with DuckDB and Spark, and
//!   queries with Spark's `variant_get`;
//! * `std_types.parquet`: the standard library's other types (`usize`,
//!   `isize`, `i128` and `u128` as DECIMAL(38,0), `NonZero`, `char` and IP
//!   addresses as text, sets and arrays as lists, `SystemTime`);
//! * `sales.dataset/`: a dataset partitioned by a date and a string (with
//!   values to escape and nulls), by the dataset writer on 2 threads in
//!   files of at most 3 records, with `sales.dataset.expected.json` beside
//!   it: the rows, sorted by id, as `[id, amount, note, day, region]`.
#![forbid(unsafe_code)]

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::str::FromStr;

use apache_avro::BigDecimal;
use chrono::{DateTime, NaiveDate, NaiveDateTime, NaiveTime, Utc};
use half::f16;
use magnolify_parquet::parquet::basic::{Compression, GzipLevel, ZstdLevel};
use magnolify_parquet::parquet::file::properties::WriterVersion;
use magnolify_parquet::{OwnedRecord, ParquetType, WriterBuilder};
use rust_decimal::Decimal;
use serde_json::Value;
use test_kit::json::{self, Fmt, ToJson};
use test_kit::seed::three_level::Nested;
use test_kit::seed::two_level::Nested as NestedTwoLevel;
use test_kit::seed::Required as Inner;
use test_kit::to_json_struct;
use uuid::Uuid;

// ---------------------------------------------------------------------------
// Deterministic data
// ---------------------------------------------------------------------------

/// A small xorshift generator: the files are the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    fn i32(&mut self) -> i32 {
        self.next() as i32
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

/// Text that trips up encoders: empty, multi-byte, astral, combining,
/// control characters, quotes.
const STRINGS: &[&str] = &[
    "",
    "a",
    "héllo wörld",
    "日本語テキスト",
    "🦀 crab",
    "emoji 👍🏽 with skin tone",
    "مرحبا بالعالم",
    "Ελληνικά",
    "tab\tand\nnewline",
    "quote \" and back\\slash",
    "e\u{301} combining",
    "\u{a0}nbsp\u{2028}ls",
    "𝕳𝖊𝖑𝖑𝖔 astral",
    "null",
];

fn text(rng: &mut Rng) -> String {
    if rng.chance(60) {
        return (*rng.pick(STRINGS)).to_owned();
    }
    let len = rng.below(20) + 1;
    (0..len).map(|_| *rng.pick(&['a', 'z', '0', '9', ' ', '_', '-', 'é', '字'])).collect()
}

// ---------------------------------------------------------------------------
// The seed record, in both list layouts (test_kit::seed's)
// ---------------------------------------------------------------------------

fn inner(rng: &mut Rng) -> Inner {
    Inner { b: rng.chance(50), i: rng.i32(), s: text(rng) }
}

fn nested_rows() -> Vec<Nested> {
    let mut rng = Rng(0x5eed_1234);
    let edge = |i: i32, s: &str| Inner { b: i % 2 == 0, i, s: s.to_owned() };
    let mut rows = vec![
        Nested { b: false, i: i32::MIN, s: String::new(), r: edge(i32::MIN, ""), o: None, l: vec![] },
        Nested {
            b: true,
            i: i32::MAX,
            s: "🦀".into(),
            r: edge(i32::MAX, "max"),
            o: Some(edge(0, "")),
            l: vec![edge(-1, "a"), edge(1, "")],
        },
        Nested {
            b: true,
            i: 0,
            s: "tab\tand\nnewline".into(),
            r: edge(0, "\u{0}nul"),
            o: Some(edge(-1, "x")),
            l: vec![edge(7, "b")],
        },
    ];
    for _ in rows.len()..50 {
        let b = rng.chance(50);
        let i = rng.i32();
        let s = text(&mut rng);
        let r = inner(&mut rng);
        let o = (!rng.chance(20)).then(|| inner(&mut rng));
        let n = if rng.chance(25) { 0 } else { rng.below(5) + 1 };
        let l = (0..n).map(|_| inner(&mut rng)).collect();
        rows.push(Nested { b, i, s, r, o, l });
    }
    rows
}

// ---------------------------------------------------------------------------
// The wide record
// ---------------------------------------------------------------------------

/// A unit-only enum: a STRING column of its symbols.
#[derive(ParquetType, Debug, Clone, Copy)]
enum Colour {
    Red,
    Green,
    Blue,
}

impl ToJson for Colour {
    fn to_json(&self, _f: Fmt) -> Value {
        Value::from(match self {
            Colour::Red => "Red",
            Colour::Green => "Green",
            Colour::Blue => "Blue",
        })
    }
}

#[derive(ParquetType, Debug, Clone)]
struct Point {
    x: f64,
    y: Option<f32>,
    tags: Vec<String>,
}
to_json_struct!(Point { "x" => x, "y" => y, "tags" => tags });

#[derive(ParquetType, Debug, Clone)]
struct Wide {
    id: u32,
    flag: bool,
    i8: i8,
    i16: i16,
    i32: i32,
    i64: i64,
    u8: u8,
    u16: u16,
    u64: u64,
    opt_u32: Option<u32>,
    f32: f32,
    f64: f64,
    f16: Option<f16>,
    name: String,
    nickname: Option<String>,
    payload: Vec<u8>,
    opt_payload: Option<Vec<u8>>,
    fixed: [u8; 4],
    uuid: Uuid,
    colour: Colour,
    date: NaiveDate,
    #[parquet(timestamp = "millis")]
    time_ms: NaiveTime,
    time_us: Option<NaiveTime>,
    #[parquet(timestamp = "nanos")]
    time_ns: NaiveTime,
    #[parquet(timestamp = "millis")]
    local_ms: NaiveDateTime,
    local_us: Option<NaiveDateTime>,
    #[parquet(timestamp = "nanos")]
    local_ns: NaiveDateTime,
    #[parquet(timestamp = "millis")]
    utc_ms: Option<DateTime<Utc>>,
    utc_us: DateTime<Utc>,
    #[parquet(timestamp = "nanos")]
    utc_ns: DateTime<Utc>,
    #[parquet(decimal(precision = 9, scale = 2))]
    dec_i32: Decimal,
    #[parquet(decimal(precision = 18, scale = 4))]
    dec_i64: Option<Decimal>,
    #[parquet(decimal(precision = 28, scale = 10))]
    dec_fixed: Decimal,
    #[parquet(decimal(precision = 20, scale = 3, physical = "binary"))]
    dec_binary: Decimal,
    #[parquet(decimal(precision = 38, scale = 10))]
    dec_big: Option<BigDecimal>,
    ints: Vec<i32>,
    opt_ints: Option<Vec<i64>>,
    sparse: Vec<Option<String>>,
    opt_sparse: Option<Vec<Option<u16>>>,
    matrix: Vec<Vec<i64>>,
    points: Vec<Point>,
    opt_point: Option<Point>,
    counts: BTreeMap<String, i32>,
    labels: Option<BTreeMap<i32, Option<String>>>,
    by_name: HashMap<String, Point>,
    list_of_maps: Vec<BTreeMap<String, Vec<Option<bool>>>>,
}
to_json_struct!(Wide {
    "id" => id, "flag" => flag, "i8" => i8, "i16" => i16, "i32" => i32, "i64" => i64,
    "u8" => u8, "u16" => u16, "u64" => u64, "opt_u32" => opt_u32,
    "f32" => f32, "f64" => f64, "f16" => f16, "name" => name, "nickname" => nickname,
    "payload" => payload, "opt_payload" => opt_payload, "fixed" => fixed, "uuid" => uuid, "colour" => colour,
    "date" => date, "time_ms" => time_ms @ Fmt::MILLIS, "time_us" => time_us @ Fmt::MICROS,
    "time_ns" => time_ns @ Fmt::NANOS, "local_ms" => local_ms @ Fmt::MILLIS, "local_us" => local_us @ Fmt::MICROS,
    "local_ns" => local_ns @ Fmt::NANOS, "utc_ms" => utc_ms @ Fmt::MILLIS, "utc_us" => utc_us @ Fmt::MICROS,
    "utc_ns" => utc_ns @ Fmt::NANOS, "dec_i32" => dec_i32, "dec_i64" => dec_i64, "dec_fixed" => dec_fixed,
    "dec_binary" => dec_binary, "dec_big" => dec_big, "ints" => ints, "opt_ints" => opt_ints, "sparse" => sparse,
    "opt_sparse" => opt_sparse, "matrix" => matrix, "points" => points, "opt_point" => opt_point,
    "counts" => counts, "labels" => labels, "by_name" => by_name, "list_of_maps" => list_of_maps,
});

fn date(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap_or(NaiveDate::MIN)
}

fn time(h: u32, m: u32, s: u32, nanos: u32) -> NaiveTime {
    NaiveTime::from_hms_nano_opt(h, m, s, nanos).unwrap_or(NaiveTime::MIN)
}

fn big(text: &str) -> BigDecimal {
    BigDecimal::from_str(text).unwrap_or_default()
}

/// A `count`-digit decimal string of random digits with `scale` of them after the point.
fn digits(rng: &mut Rng, count: u32, scale: u32) -> String {
    let mut s: String = (0..count).map(|_| char::from(b'0' + rng.below(10) as u8)).collect();
    s.insert(usize::try_from(count - scale).unwrap_or(0), '.');
    if rng.chance(50) {
        s.insert(0, '-');
    }
    s
}

fn point(rng: &mut Rng) -> Point {
    Point {
        x: (rng.i32() as f64) / 64.0,
        y: (!rng.chance(20)).then(|| rng.i32() as f32 / 3.0),
        tags: (0..rng.below(3)).map(|_| text(rng)).collect(),
    }
}

/// Row 0: minimum and edge values; row 1: maximum values; row 2: zeros and
/// empties with every optional field absent; then seeded random rows.
fn wide_rows() -> Vec<Wide> {
    let epoch = date(1970, 1, 1).and_time(NaiveTime::MIN);
    let min_ns = DateTime::from_timestamp_nanos(i64::MIN);
    let max_ns = DateTime::from_timestamp_nanos(i64::MAX);
    let mut rows = vec![
        Wide {
            id: 0,
            flag: false,
            i8: i8::MIN,
            i16: i16::MIN,
            i32: i32::MIN,
            i64: i64::MIN,
            u8: 0,
            u16: 0,
            u64: 0,
            opt_u32: Some(0),
            f32: f32::MIN,
            f64: f64::MIN_POSITIVE / 4.0, // subnormal
            f16: Some(f16::MIN),
            name: String::new(),
            nickname: Some(String::new()),
            payload: Vec::new(),
            opt_payload: Some(vec![0]),
            fixed: [0; 4],
            uuid: Uuid::nil(),
            colour: Colour::Red,
            date: date(1, 1, 1),
            time_ms: NaiveTime::MIN,
            time_us: Some(NaiveTime::MIN),
            time_ns: NaiveTime::MIN,
            local_ms: date(1, 1, 1).and_time(NaiveTime::MIN),
            local_us: Some(date(1, 1, 1).and_time(NaiveTime::MIN)),
            local_ns: min_ns.naive_utc(),
            utc_ms: Some(date(1, 1, 1).and_time(NaiveTime::MIN).and_utc()),
            utc_us: date(1, 1, 1).and_time(NaiveTime::MIN).and_utc(),
            utc_ns: min_ns,
            dec_i32: Decimal::new(-999_999_999, 2),
            dec_i64: Some(Decimal::new(-999_999_999_999_999_999, 4)),
            dec_fixed: Decimal::from_str("-999999999999999999.9999999999").unwrap_or_default(),
            dec_binary: Decimal::from_str("-99999999999999999.999").unwrap_or_default(),
            dec_big: Some(big("-9999999999999999999999999999.9999999999")),
            ints: vec![i32::MIN, -1, 0],
            opt_ints: Some(vec![i64::MIN]),
            sparse: vec![None, Some(String::new()), None],
            opt_sparse: Some(vec![None]),
            matrix: vec![vec![], vec![i64::MIN], vec![]],
            points: vec![Point { x: f64::NEG_INFINITY, y: Some(f32::NAN), tags: vec![String::new()] }],
            opt_point: Some(Point { x: -0.0, y: None, tags: vec![] }),
            counts: BTreeMap::from([(String::new(), i32::MIN)]),
            labels: Some(BTreeMap::from([(i32::MIN, None), (0, Some(String::new()))])),
            by_name: HashMap::from([("a".into(), Point { x: f64::NAN, y: Some(-0.0), tags: vec!["t".into()] })]),
            list_of_maps: vec![BTreeMap::new(), BTreeMap::from([("k".into(), vec![None, Some(true)])])],
        },
        Wide {
            id: 1,
            flag: true,
            i8: i8::MAX,
            i16: i16::MAX,
            i32: i32::MAX,
            i64: i64::MAX,
            u8: u8::MAX,
            u16: u16::MAX,
            u64: u64::MAX,
            opt_u32: Some(u32::MAX),
            f32: f32::MAX,
            f64: f64::INFINITY,
            f16: Some(f16::MAX),
            name: "𝕳𝖊𝖑𝖑𝖔 🦀 日本語".into(),
            nickname: Some("emoji 👍🏽 with skin tone".into()),
            payload: vec![0xff; 32],
            opt_payload: Some(vec![0, 1, 2, 0xfe]),
            fixed: [0xff; 4],
            uuid: Uuid::max(),
            colour: Colour::Blue,
            date: date(9999, 12, 31),
            time_ms: time(23, 59, 59, 999_000_000),
            time_us: Some(time(23, 59, 59, 999_999_000)),
            time_ns: time(23, 59, 59, 999_999_999),
            local_ms: date(9999, 12, 31).and_time(time(23, 59, 59, 999_000_000)),
            local_us: Some(date(9999, 12, 31).and_time(time(23, 59, 59, 999_999_000))),
            local_ns: max_ns.naive_utc(),
            utc_ms: Some(date(9999, 12, 31).and_time(time(23, 59, 59, 999_000_000)).and_utc()),
            utc_us: date(9999, 12, 31).and_time(time(23, 59, 59, 999_999_000)).and_utc(),
            utc_ns: max_ns,
            dec_i32: Decimal::new(999_999_999, 2),
            dec_i64: Some(Decimal::new(999_999_999_999_999_999, 4)),
            dec_fixed: Decimal::from_str("999999999999999999.9999999999").unwrap_or_default(),
            dec_binary: Decimal::from_str("99999999999999999.999").unwrap_or_default(),
            dec_big: Some(big("9999999999999999999999999999.9999999999")),
            ints: vec![i32::MAX],
            opt_ints: Some(vec![i64::MAX, 0, -1]),
            sparse: vec![Some("𝕳".into())],
            opt_sparse: Some(vec![Some(u16::MAX), None, Some(0)]),
            matrix: vec![vec![i64::MAX, 1], vec![2]],
            points: vec![
                Point { x: f64::MAX, y: Some(f32::INFINITY), tags: vec!["a".into(), "b".into()] },
                Point { x: f64::MIN, y: Some(f32::NEG_INFINITY), tags: vec![] },
            ],
            opt_point: Some(Point { x: f64::EPSILON, y: Some(f32::MIN_POSITIVE), tags: vec!["ελ".into()] }),
            counts: BTreeMap::from([("max".into(), i32::MAX), ("z".into(), -1)]),
            labels: Some(BTreeMap::from([(i32::MAX, Some("max".into()))])),
            by_name: HashMap::new(),
            list_of_maps: vec![BTreeMap::from([("a".into(), vec![]), ("b".into(), vec![Some(false)])])],
        },
        Wide {
            id: 2,
            flag: false,
            i8: 0,
            i16: 0,
            i32: 0,
            i64: 0,
            u8: 0,
            u16: 0,
            u64: 0,
            opt_u32: None,
            f32: -0.0,
            f64: -0.0,
            f16: None,
            name: String::new(),
            nickname: None,
            payload: Vec::new(),
            opt_payload: None,
            fixed: [0; 4],
            uuid: Uuid::nil(),
            colour: Colour::Green,
            date: date(1970, 1, 1),
            time_ms: NaiveTime::MIN,
            time_us: None,
            time_ns: NaiveTime::MIN,
            local_ms: epoch,
            local_us: None,
            local_ns: epoch,
            utc_ms: None,
            utc_us: epoch.and_utc(),
            utc_ns: epoch.and_utc(),
            dec_i32: Decimal::new(0, 2),
            dec_i64: None,
            dec_fixed: Decimal::new(0, 10),
            dec_binary: Decimal::new(0, 3),
            dec_big: None,
            ints: vec![],
            opt_ints: None,
            sparse: vec![],
            opt_sparse: None,
            matrix: vec![],
            points: vec![],
            opt_point: None,
            counts: BTreeMap::new(),
            labels: None,
            by_name: HashMap::new(),
            list_of_maps: vec![],
        },
    ];
    let mut rng = Rng(0xdead_beef_cafe);
    for id in rows.len() as u32..60 {
        let secs = rng.next() as i64 % 200_000_000_000; // about ±6 000 years
        let nanos = rng.below(1_000_000_000) as u32;
        let instant = DateTime::from_timestamp(secs, nanos).unwrap_or_default();
        let ns_instant = DateTime::from_timestamp_nanos(rng.next() as i64);
        let millis = |t: DateTime<Utc>| DateTime::from_timestamp_millis(t.timestamp_millis()).unwrap_or_default();
        let micros = |t: DateTime<Utc>| DateTime::from_timestamp_micros(t.timestamp_micros()).unwrap_or_default();
        let day_nanos = rng.below(86_400 * 1_000_000_000);
        let tod = |unit: u64| {
            let n = day_nanos / unit * unit;
            time(
                (n / 3_600_000_000_000) as u32,
                (n / 60_000_000_000 % 60) as u32,
                (n / 1_000_000_000 % 60) as u32,
                (n % 1_000_000_000) as u32,
            )
        };
        rows.push(Wide {
            id,
            flag: rng.chance(50),
            i8: rng.next() as i8,
            i16: rng.next() as i16,
            i32: rng.i32(),
            i64: rng.next() as i64,
            u8: rng.next() as u8,
            u16: rng.next() as u16,
            u64: rng.next(),
            opt_u32: (!rng.chance(15)).then(|| rng.next() as u32),
            f32: f32::from_bits(rng.next() as u32 & 0xbf7f_ffff), // finite, any sign
            f64: (rng.i32() as f64) * 1e-3,
            f16: (!rng.chance(15)).then(|| f16::from_f32(rng.i32() as f32 / 1e6)),
            name: text(&mut rng),
            nickname: (!rng.chance(15)).then(|| text(&mut rng)),
            payload: (0..rng.below(20)).map(|_| rng.next() as u8).collect(),
            opt_payload: (!rng.chance(15)).then(|| (0..rng.below(5)).map(|_| rng.next() as u8).collect()),
            fixed: (rng.next() as u32).to_be_bytes(),
            uuid: Uuid::from_u128(u128::from(rng.next()) << 64 | u128::from(rng.next())),
            colour: *rng.pick(&[Colour::Red, Colour::Green, Colour::Blue]),
            date: instant.date_naive(),
            time_ms: tod(1_000_000),
            time_us: (!rng.chance(15)).then(|| tod(1_000)),
            time_ns: tod(1),
            local_ms: millis(instant).naive_utc(),
            local_us: (!rng.chance(15)).then(|| micros(instant).naive_utc()),
            local_ns: ns_instant.naive_utc(),
            utc_ms: (!rng.chance(15)).then(|| millis(instant)),
            utc_us: micros(instant),
            utc_ns: ns_instant,
            dec_i32: Decimal::new(i64::from(rng.i32()) % 1_000_000_000, 2),
            dec_i64: (!rng.chance(15)).then(|| Decimal::new(rng.next() as i64 % 1_000_000_000_000_000_000, 4)),
            dec_fixed: Decimal::from_str(&digits(&mut rng, 28, 10)).unwrap_or_default(),
            dec_binary: Decimal::from_str(&digits(&mut rng, 20, 3)).unwrap_or_default(),
            dec_big: (!rng.chance(15)).then(|| big(&digits(&mut rng, 38, 10))),
            ints: (0..rng.below(5)).map(|_| rng.i32()).collect(),
            opt_ints: (!rng.chance(15)).then(|| (0..rng.below(4)).map(|_| rng.next() as i64).collect()),
            sparse: (0..rng.below(4)).map(|_| (!rng.chance(30)).then(|| text(&mut rng))).collect(),
            opt_sparse: (!rng.chance(15))
                .then(|| (0..rng.below(4)).map(|_| (!rng.chance(30)).then(|| rng.next() as u16)).collect()),
            matrix: (0..rng.below(3)).map(|_| (0..rng.below(3)).map(|_| rng.next() as i64).collect()).collect(),
            points: (0..rng.below(3)).map(|_| point(&mut rng)).collect(),
            opt_point: (!rng.chance(30)).then(|| point(&mut rng)),
            counts: (0..rng.below(4)).map(|_| (text(&mut rng), rng.i32())).collect(),
            labels: (!rng.chance(15))
                .then(|| (0..rng.below(4)).map(|_| (rng.i32(), (!rng.chance(30)).then(|| text(&mut rng)))).collect()),
            by_name: (0..rng.below(3)).map(|_| (text(&mut rng), point(&mut rng))).collect(),
            list_of_maps: (0..rng.below(3))
                .map(|_| {
                    (0..rng.below(3))
                        .map(|_| {
                            (
                                text(&mut rng),
                                (0..rng.below(3)).map(|_| (!rng.chance(30)).then(|| rng.chance(50))).collect(),
                            )
                        })
                        .collect()
                })
                .collect(),
        });
    }
    rows
}

// ---------------------------------------------------------------------------
// An enum with data
// ---------------------------------------------------------------------------

#[derive(ParquetType, Debug, Clone)]
enum Payment {
    Card { last4: String, expiry: NaiveDate },
    Transfer(String),
    Cash,
}

impl ToJson for Payment {
    /// The group as engines read it: the tag, and each variant's field,
    /// null but for the variant's.
    fn to_json(&self, f: Fmt) -> Value {
        let (variant, card, transfer) = match self {
            Payment::Card { last4, expiry } => {
                let card = json::object(vec![("last4", last4.to_json(f)), ("expiry", expiry.to_json(f))]);
                ("Card", card, Value::Null)
            }
            Payment::Transfer(iban) => ("Transfer", Value::Null, iban.to_json(f)),
            Payment::Cash => ("Cash", Value::Null, Value::Null),
        };
        json::object(vec![("variant", Value::from(variant)), ("Card", card), ("Transfer", transfer)])
    }
}

/// A unit-only enum annotated ENUM, as parquet-avro writes Avro enums.
#[derive(ParquetType, Debug, Clone, Copy)]
#[parquet(annotation = "enum")]
enum Channel {
    Web,
    Store,
}

impl ToJson for Channel {
    fn to_json(&self, _f: Fmt) -> Value {
        Value::from(match self {
            Channel::Web => "Web",
            Channel::Store => "Store",
        })
    }
}

#[derive(ParquetType, Debug, Clone)]
struct Paid {
    id: i32,
    payment: Payment,
    refund: Option<Payment>,
    channel: Channel,
}
to_json_struct!(Paid { "id" => id, "payment" => payment, "refund" => refund, "channel" => channel });

fn paid_rows() -> Vec<Paid> {
    (0..30)
        .map(|i| {
            let payment = match i % 3 {
                0 => Payment::Card {
                    last4: format!("{:04}", i * 37 % 10_000),
                    expiry: NaiveDate::from_ymd_opt(2027 + i % 5, 1 + (i % 12) as u32, 28).expect("a date"),
                },
                1 => Payment::Transfer(format!("DE{i:02}")),
                _ => Payment::Cash,
            };
            let refund =
                (i % 4 == 0).then(|| if i % 8 == 0 { Payment::Cash } else { Payment::Transfer(String::new()) });
            let channel = if i % 5 == 0 { Channel::Store } else { Channel::Web };
            Paid { id: i, payment, refund, channel }
        })
        .collect()
}

// ---------------------------------------------------------------------------
// VARIANT
// ---------------------------------------------------------------------------

#[derive(ParquetType, Debug, Clone)]
struct Doc {
    id: i32,
    v: Option<magnolify_parquet::VariantValue>,
}

impl ToJson for Doc {
    /// The document as JSON text (`null` for a SQL null), which the check
    /// compares with what DuckDB and Spark give back.
    fn to_json(&self, _f: Fmt) -> Value {
        let doc = self.v.as_ref().map(|v| v.to_json().expect("a document this example made"));
        json::object(vec![("id", Value::from(self.id)), ("v", doc.unwrap_or(Value::Null))])
    }
}

fn doc_rows() -> Result<Vec<Doc>, magnolify_parquet::Error> {
    let docs = [
        serde_json::json!({"a": 1, "b": "x", "c": [1, 2, 3]}),
        serde_json::json!({"a": -7, "b": "", "nested": {"deep": [true, null]}}),
        serde_json::json!([1, "two", {"three": 3}]),
        serde_json::json!("just text"),
        serde_json::json!(12345678901234_i64),
    ];
    let mut rows = Vec::new();
    for (id, doc) in docs.iter().enumerate() {
        rows.push(Doc { id: id as i32, v: Some(magnolify_parquet::VariantValue::from_json(doc)?) });
    }
    rows.push(Doc { id: docs.len() as i32, v: None });
    Ok(rows)
}

// ---------------------------------------------------------------------------
// The standard library's other types
// ---------------------------------------------------------------------------

#[derive(ParquetType, Debug, Clone)]
struct StdTypes {
    id: usize,
    offset: isize,
    big: i128,
    huge: Option<u128>,
    count: std::num::NonZero<u32>,
    client: std::net::IpAddr,
    v4: Option<std::net::Ipv4Addr>,
    grade: char,
    tags: std::collections::BTreeSet<String>,
    rgb: [f32; 3],
    at: std::time::SystemTime,
}

impl ToJson for StdTypes {
    /// As engines read the forms: integers as numbers, DECIMAL(38,0) as
    /// its digits, text as text, lists as arrays, the instant as UTC.
    fn to_json(&self, f: Fmt) -> Value {
        let text = |v: &dyn std::fmt::Display| Value::from(v.to_string());
        json::object(vec![
            ("id", Value::from(self.id as u64)),
            ("offset", Value::from(self.offset as i64)),
            ("big", text(&self.big)),
            ("huge", self.huge.map_or(Value::Null, |v| text(&v))),
            ("count", self.count.get().to_json(f)),
            ("client", text(&self.client)),
            ("v4", self.v4.map_or(Value::Null, |v| text(&v))),
            ("grade", text(&self.grade)),
            ("tags", self.tags.iter().cloned().collect::<Vec<_>>().to_json(f)),
            ("rgb", self.rgb.to_vec().to_json(f)),
            ("at", DateTime::<Utc>::from(self.at).to_json(f)),
        ])
    }
}

fn std_rows() -> Vec<StdTypes> {
    let max_38 = 10i128.pow(38) - 1;
    (0..20)
        .map(|i: i64| {
            let n = i as i128;
            StdTypes {
                id: if i == 0 { usize::MAX } else { i as usize },
                offset: if i == 1 { isize::MIN } else { i as isize - 10 },
                big: match i {
                    0 => max_38,
                    1 => -max_38,
                    _ => n * n * n * 1_000_000_007 - 5,
                },
                huge: (i % 3 != 0).then(|| if i == 1 { max_38 as u128 } else { (n * 7) as u128 }),
                count: std::num::NonZero::new(i as u32 + 1).expect("not 0"),
                client: if i % 2 == 0 {
                    std::net::IpAddr::V4(std::net::Ipv4Addr::new(10, 0, i as u8, 1))
                } else {
                    format!("2001:db8::{i:x}").parse().expect("an address")
                },
                v4: (i % 4 != 0).then(|| std::net::Ipv4Addr::new(192, 168, 1, i as u8)),
                grade: ['A', 'é', '🦀', 'z'][i as usize % 4],
                tags: (0..i % 3).map(|k| format!("t{k}")).collect(),
                rgb: [i as f32 * 0.5, -1.0, 0.25],
                at: std::time::UNIX_EPOCH
                    + std::time::Duration::from_micros(1_765_000_000_000_000 + i as u64 * 1_234_567),
            }
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------

/// Writes `rows` to `dir/name.parquet` with `builder`, and their JSON to
/// `dir/name.expected.json`.
fn emit<T: OwnedRecord + ToJson>(
    dir: &Path,
    name: &str,
    rows: &[T],
    builder: WriterBuilder<T>,
) -> Result<(), Box<dyn std::error::Error>> {
    let file = dir.join(format!("{name}.parquet"));
    let mut writer = builder.create(&file)?;
    writer.write_all(rows.iter())?;
    let meta = writer.close()?;
    let json_rows: Vec<String> = rows.iter().map(|r| json::plain(r.to_json(Fmt::DEFAULT)).to_string()).collect();
    let doc = format!(
        "{{\n  \"file\": {},\n  \"source\": \"tests/examples/peer_write.rs\",\n  \"num_row_groups\": {},\n  \"rows\": [\n    {}\n  ]\n}}\n",
        Value::from(format!("{name}.parquet")),
        meta.num_row_groups(),
        json_rows.join(",\n    ")
    );
    std::fs::write(dir.join(format!("{name}.expected.json")), doc)?;
    println!("wrote {} ({} rows, {} row groups)", file.display(), rows.len(), meta.num_row_groups());
    Ok(())
}

/// The `sales` dataset: 60 rows over 3 days and 4 regions.
fn emit_dataset(dir: &Path) -> Result<(), Box<dyn std::error::Error>> {
    let rows = test_kit::sales::rows(60);
    let root = dir.join("sales.dataset");
    let f = test_kit::sales::Sale::fields();
    let mut writer = magnolify_parquet::dataset::DatasetWriter::builder(&root)
        .partition_by(&f.day)
        .partition_by(&f.region)
        .limits(|l| l.max_rows_per_file(3))
        .threads(2)
        .build()?;
    writer.write_all(&rows)?;
    let summary = writer.close()?;
    let json_rows: Vec<Value> = rows
        .iter()
        .map(|s| {
            Value::Array(vec![
                s.id.into(),
                s.amount.into(),
                s.note.clone().into(),
                s.day.to_string().into(),
                s.region.clone().into(),
            ])
        })
        .collect();
    std::fs::write(dir.join("sales.dataset.expected.json"), Value::Array(json_rows).to_string())?;
    println!("wrote {} ({} rows, {} files)", root.display(), summary.rows, summary.files.len());
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let Some(dir) = std::env::args_os().nth(1) else {
        return Err("usage: peer_write OUTDIR".into());
    };
    let dir = Path::new(&dir);
    std::fs::create_dir_all(dir)?;

    let wide = WriterBuilder::<Wide>::new().compression(Compression::ZSTD(ZstdLevel::default())).max_row_group_rows(16);
    let rows = wide_rows();
    emit(dir, "wide", &rows, wide)?;
    let small_pages = WriterBuilder::<Wide>::new()
        .compression(Compression::SNAPPY)
        .data_page_size(300)
        .data_page_rows(7)
        .properties(|p| p.set_dictionary_page_size_limit(200));
    emit(dir, "wide.snappy-small-pages", &rows, small_pages)?;
    let plain = WriterBuilder::<Wide>::new().compression(Compression::LZ4_RAW).dictionary(false);
    emit(dir, "wide.lz4-raw-plain", &rows, plain)?;
    let v2 = WriterBuilder::<Wide>::new()
        .compression(Compression::GZIP(GzipLevel::default()))
        .writer_version(WriterVersion::PARQUET_2_0)
        .max_row_group_rows(25);
    emit(dir, "wide.v2-gzip", &rows, v2)?;

    let nested = nested_rows();
    emit(dir, "nested.three-level", &nested, WriterBuilder::<Nested>::new())?;
    let two_level: Vec<NestedTwoLevel> = nested.into_iter().map(NestedTwoLevel::from).collect();
    emit(dir, "nested.two-level", &two_level, WriterBuilder::<NestedTwoLevel>::new())?;
    emit(dir, "enums", &paid_rows(), WriterBuilder::<Paid>::new().max_row_group_rows(16))?;
    emit(dir, "variant", &doc_rows()?, WriterBuilder::<Doc>::new())?;
    emit(dir, "std_types", &std_rows(), WriterBuilder::<StdTypes>::new().max_row_group_rows(8))?;
    emit_dataset(dir)?;
    Ok(())
}
