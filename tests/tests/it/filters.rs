//! Typed predicates: a filtered read returns exactly the records of a full
//! read that pass the predicate, in order, for every field type and
//! operator, on random data and random predicates; row groups are skipped
//! only where their statistics rule out every record, and the reader's
//! counts say so.

use std::sync::atomic::{AtomicU64, Ordering};

use bytes::Bytes;
use chrono::{DateTime, NaiveDate, NaiveTime, Utc};
use magnolify_parquet::filter::Predicate;
use magnolify_parquet::parquet::file::properties::EnabledStatistics;
use magnolify_parquet::{ParquetType, ReadOptions, ReaderBuilder, WriterBuilder};
use proptest::prelude::*;
use rust_decimal::Decimal;
use test_kit::rng::XorShift;

#[derive(ParquetType, Debug, Clone, Copy, PartialEq, PartialOrd)]
enum Color {
    Red,
    Green,
    Blue,
}

#[derive(ParquetType, Debug, Clone, Copy, PartialEq, PartialOrd)]
struct UserId(u32);

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Inner {
    a: i32,
    s: Option<String>,
}

/// One field of each kind of order: signed and unsigned integers of each
/// width, floats with NaN and both zeros, strings and bytes (one column
/// with high bytes), fixed bytes, dates, times, timestamps, UUIDs,
/// decimals on INT32 and FIXED_LEN_BYTE_ARRAY, FLOAT16, an enum, a
/// newtype, and fields inside an optional group.
#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Row {
    /// Grows with the record: what pruning finds ranges in.
    seq: i64,
    small: i8,
    medium: i16,
    int: Option<i32>,
    byte: u8,
    word: u16,
    unsigned: u32,
    large: Option<u64>,
    single: f32,
    double: Option<f64>,
    flag: bool,
    name: String,
    code: Option<String>,
    raw: Vec<u8>,
    fixed: [u8; 3],
    day: NaiveDate,
    #[parquet(timestamp = "millis")]
    at: DateTime<Utc>,
    tod: Option<NaiveTime>,
    id: uuid::Uuid,
    #[parquet(decimal(precision = 9, scale = 2))]
    price: Decimal,
    #[parquet(decimal(precision = 24, scale = 3))]
    amount: Option<Decimal>,
    half: half::f16,
    color: Color,
    user: UserId,
    inner: Option<Inner>,
    /// A repeated column, passed over record by record.
    tags: Vec<String>,
}

/// Draws from small domains, so that predicates' values hit records.
struct Draw(XorShift);

impl Draw {
    fn pick<T: Clone>(&mut self, from: &[T]) -> T {
        from[self.0.below(from.len() as u64) as usize].clone()
    }
    fn int(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.0.below((hi - lo + 1) as u64) as i64
    }
    fn maybe<T>(&mut self, value: impl FnOnce(&mut Self) -> T) -> Option<T> {
        (self.0.below(4) != 0).then(|| value(self))
    }
    fn text(&mut self) -> String {
        self.pick(&["", "a", "ab", "abc", "b", "ba", "z", "é", "éa", "\u{7f}", "中"]).to_owned()
    }
    fn bytes(&mut self) -> Vec<u8> {
        self.pick(&[&[][..], &[0], &[0, 1], &[1], &[0x7f], &[0x80], &[0xff], &[0xff, 0]]).to_vec()
    }
    fn f32(&mut self) -> f32 {
        self.pick(&[-2.5, -1.0, -0.0, 0.0, 0.5, 1.0, 3.0, f32::NAN, f32::INFINITY])
    }
    fn f64(&mut self) -> f64 {
        self.pick(&[-7.25, -1.0, -0.0, 0.0, 2.0, 9.5, f64::NAN, f64::NEG_INFINITY])
    }
    fn day(&mut self, base: i64) -> NaiveDate {
        NaiveDate::from_ymd_opt(2024, 1, 1).unwrap() + chrono::Duration::days(base / 4 + self.int(-3, 3))
    }
    fn at(&mut self, base: i64) -> DateTime<Utc> {
        DateTime::from_timestamp_millis(1_700_000_000_000 + base * 1_000 + self.int(0, 999)).unwrap()
    }
    fn tod(&mut self) -> NaiveTime {
        NaiveTime::from_num_seconds_from_midnight_opt(self.int(0, 5) as u32 * 3600, self.int(0, 2) as u32 * 1_000)
            .unwrap()
    }
    fn uuid(&mut self) -> uuid::Uuid {
        uuid::Uuid::from_u128(self.pick(&[0, 1, 0xff, u128::MAX, 1 << 127]))
    }
    fn price(&mut self, base: i64) -> Decimal {
        Decimal::new(base * 10 + self.int(-5, 5), 2)
    }
    fn amount(&mut self) -> Decimal {
        Decimal::new(self.int(-2_000, 2_000), 3)
    }
    fn half(&mut self) -> half::f16 {
        half::f16::from_f32(self.pick(&[-1.5, -0.0, 0.0, 0.25, 2.0, f32::NAN]))
    }
    fn color(&mut self) -> Color {
        self.pick(&[Color::Red, Color::Green, Color::Blue])
    }

    fn row(&mut self, seq: i64) -> Row {
        Row {
            seq,
            small: self.int(-3, 3) as i8,
            medium: (seq / 2) as i16 - 20,
            int: self.maybe(|d| d.0.below(20) as i32 - 10),
            byte: self.pick(&[0, 1, 127, 128, 255]),
            word: (seq * 3) as u16,
            unsigned: self.pick(&[0, 7, 1 << 31, u32::MAX]),
            large: self.maybe(|d| d.pick(&[0, 5, 1 << 63, u64::MAX])),
            single: self.f32(),
            double: self.maybe(Self::f64),
            flag: self.0.below(2) == 0,
            name: self.text(),
            code: self.maybe(|_| format!("c{}", seq / 5)),
            raw: self.bytes(),
            fixed: [self.pick(&[0, 0x80, 0xff]), 1, 2],
            day: self.day(seq),
            at: self.at(seq),
            tod: self.maybe(Self::tod),
            id: self.uuid(),
            price: self.price(seq),
            amount: self.maybe(Self::amount),
            half: self.half(),
            color: self.color(),
            user: UserId(seq as u32 / 3),
            inner: self.maybe(|d| Inner { a: d.int(-5, 5) as i32, s: d.maybe(Self::text) }),
            tags: (0..self.0.below(4)).map(|_| self.text()).collect(),
        }
    }

    /// A random test on one field, its value drawn like the data's.
    fn leaf(&mut self, n: i64) -> Predicate<Row> {
        let f = Row::fields();
        let seq = self.int(-2, n + 2);
        macro_rules! ordered {
            ($field:expr, $value:expr) => {{
                match self.0.below(8) {
                    0 => $field.eq($value),
                    1 => $field.ne($value),
                    2 => $field.lt($value),
                    3 => $field.le($value),
                    4 => $field.gt($value),
                    5 => $field.ge($value),
                    6 => {
                        let (a, b) = ($value, $value);
                        $field.between(a, b)
                    }
                    _ => {
                        let values = vec![$value, $value];
                        $field.is_in(values)
                    }
                }
            }};
        }
        match self.0.below(30) {
            0 => ordered!(f.seq, seq),
            1 => ordered!(f.small, self.int(-4, 4) as i8),
            2 => ordered!(f.medium, (seq / 2) as i16 - 20),
            3 => ordered!(f.int, self.int(-11, 11) as i32),
            4 => ordered!(f.byte, self.pick(&[0, 1, 127, 128, 200, 255])),
            5 => ordered!(f.word, (seq * 3) as u16),
            6 => ordered!(f.unsigned, self.pick(&[0, 7, 8, 1 << 31, u32::MAX])),
            7 => ordered!(f.large, self.pick(&[0, 5, 6, 1 << 63, u64::MAX])),
            8 => ordered!(f.single, self.f32()),
            9 => ordered!(f.double, self.f64()),
            10 => ordered!(f.flag, self.0.below(2) == 0),
            11 => ordered!(f.name, self.text()),
            12 => ordered!(f.code, format!("c{}", seq / 5)),
            13 => ordered!(f.raw, self.bytes()),
            14 => ordered!(f.fixed, [self.pick(&[0, 0x80, 0xff]), 1, self.pick(&[1, 2, 3])]),
            15 => ordered!(f.day, self.day(seq)),
            // Sometimes finer than the column's millis: no record equals it,
            // ranges are bounded by its floor.
            16 => ordered!(f.at, self.at(seq) + chrono::Duration::nanoseconds(self.int(0, 1) * self.int(1, 999_999))),
            17 => ordered!(f.tod, self.tod() + chrono::Duration::nanoseconds(self.int(0, 1) * self.int(1, 999))),
            18 => ordered!(f.id, self.uuid()),
            // Sometimes with more digits than the column's scale of 2.
            19 => ordered!(f.price, self.price(seq) + Decimal::new(self.int(-9, 9), 3)),
            20 => ordered!(f.amount, self.amount()),
            21 => ordered!(f.half, self.half()),
            22 => ordered!(f.color, self.color()),
            // A newtype's handle is its inner type's, and takes the newtype too.
            23 => match self.0.below(2) {
                0 => ordered!(f.user, seq as u32 / 3),
                _ => ordered!(f.user, UserId(seq as u32 / 3)),
            },
            24 => ordered!(f.inner.a, self.int(-6, 6) as i32),
            25 => ordered!(f.inner.s, self.text()),
            26 => match self.0.below(3) {
                0 => f.name.starts_with(&self.text()),
                1 => f.code.starts_with(&format!("c{}", seq / 50)),
                _ => f.inner.s.starts_with(&self.text()),
            },
            27 => match self.0.below(4) {
                0 => f.int.is_null(),
                1 => f.double.is_not_null(),
                2 => f.inner.a.is_not_null(),
                _ => f.inner.s.is_not_null(),
            },
            28 => match self.0.below(3) {
                0 => f.tod.is_null(),
                1 => f.amount.is_not_null(),
                _ => f.inner.a.is_null(),
            },
            _ => f.large.is_null(),
        }
    }

    /// A random tree of up to `depth` levels.
    fn predicate(&mut self, n: i64, depth: u32) -> Predicate<Row> {
        if depth == 0 || self.0.below(3) == 0 {
            return self.leaf(n);
        }
        match self.0.below(3) {
            0 => self.predicate(n, depth - 1).and(self.predicate(n, depth - 1)),
            1 => self.predicate(n, depth - 1).or(self.predicate(n, depth - 1)),
            _ => self.predicate(n, depth - 1).not(),
        }
    }
}

/// `rows` in row groups of `group` records and pages of at most
/// `page_rows` records or `page_bytes` bytes: the byte limit cuts each
/// column's pages at rows of its own.
fn file(rows: &[Row], group: usize, page_rows: usize, page_bytes: usize, statistics: EnabledStatistics) -> Bytes {
    let mut w = WriterBuilder::<Row>::new()
        // Plain pages, whose sizes grow with each value.
        .dictionary(page_bytes > 64)
        .max_row_group_rows(group)
        .data_page_rows(page_rows)
        .data_page_size(page_bytes)
        // Page limits are checked after every record.
        .properties(|p| p.set_write_batch_size(1))
        .statistics(statistics)
        .threads(1)
        .build(Vec::new())
        .expect("writer");
    w.write_all(rows).expect("rows");
    Bytes::from(w.into_inner().expect("file"))
}

/// Row groups skipped over every case, so that the property is seen to
/// exercise pruning (asserted by the test that follows it).
static SKIPPED: AtomicU64 = AtomicU64::new(0);
static CASES: AtomicU64 = AtomicU64::new(0);
/// Records and pages passed over inside the row groups read (page index).
static RECORDS_SKIPPED: AtomicU64 = AtomicU64::new(0);
static PAGES_SKIPPED: AtomicU64 = AtomicU64::new(0);

fn check(seed: u64, n: usize, group: usize, page_rows: usize) -> Result<(), TestCaseError> {
    let mut draw = Draw(XorShift::new(seed));
    let rows: Vec<Row> = (0..n as i64).map(|i| draw.row(i)).collect();
    let statistics = draw.pick(&[EnabledStatistics::Page, EnabledStatistics::Chunk, EnabledStatistics::None]);
    let page_bytes = draw.pick(&[8, 24, 64, 1 << 20]);
    let bytes = file(&rows, group, page_rows, page_bytes, statistics);
    for _ in 0..8 {
        let predicate = draw.predicate(n as i64, 3);
        let expected: Vec<&Row> = rows.iter().filter(|r| predicate.test(r)).collect();
        // Batches that end inside the selected ranges, on 1 or 2 threads.
        let (threads, batch) = (draw.pick(&[1, 2]), draw.pick(&[1, 3, 1024]));
        let mut reader = ReaderBuilder::new(bytes.clone())
            .unwrap()
            .build(ReadOptions::default().threads(threads).batch_size(batch).filter(predicate.clone()))
            .unwrap();
        let got: Vec<Row> = reader.by_ref().collect::<Result<_, _>>().unwrap();
        let counts = reader.counts();
        // Compared as text: records with a NaN are not `==` to themselves.
        let (got, expected): (Vec<String>, Vec<String>) =
            (got.iter().map(|r| format!("{r:?}")).collect(), expected.iter().map(|r| format!("{r:?}")).collect());
        prop_assert_eq!(&got, &expected, "{:?}", predicate);
        prop_assert_eq!(counts.records_passed, expected.len() as u64);
        prop_assert_eq!(counts.row_groups_read + counts.row_groups_skipped, n.div_ceil(group));
        if statistics == EnabledStatistics::None {
            prop_assert_eq!(counts.row_groups_skipped, 0, "{:?}: no statistics, nothing to skip by", predicate);
        }
        SKIPPED.fetch_add(counts.row_groups_skipped as u64, Ordering::Relaxed);
        RECORDS_SKIPPED.fetch_add(counts.records_skipped, Ordering::Relaxed);
        PAGES_SKIPPED.fetch_add(counts.pages_skipped, Ordering::Relaxed);
        if statistics != EnabledStatistics::Page {
            prop_assert_eq!(
                counts.records_skipped,
                0,
                "{:?}: no page index, nothing to skip inside a group",
                predicate
            );
        }
        CASES.fetch_add(1, Ordering::Relaxed);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn a_filtered_read_is_a_full_read_then_filtered(
        seed in any::<u64>(),
        n in 1usize..120,
        group in 1usize..25,
        page_rows in 1usize..8,
    ) {
        check(seed, n, group, page_rows)?;
    }
}

#[test]
fn the_property_prunes() {
    for seed in 0..24 {
        check(seed, 100, 10, 3).unwrap();
    }
    let (skipped, cases) = (SKIPPED.load(Ordering::Relaxed), CASES.load(Ordering::Relaxed));
    let (records, pages) = (RECORDS_SKIPPED.load(Ordering::Relaxed), PAGES_SKIPPED.load(Ordering::Relaxed));
    eprintln!(
        "{skipped} row groups skipped in {cases} predicates; inside those read, {records} records and {pages} pages"
    );
    assert!(records > 0 && pages > 0, "the page index is not exercised");
    assert!(skipped * 10 > cases, "{skipped} row groups skipped in {cases} predicates: pruning is not exercised");
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct DottedInner {
    b: i64,
}

/// A column named `a.b` and a group `a` holding `b`: two columns whose
/// dotted paths are the same text.
#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Dotted {
    #[parquet(rename = "a.b")]
    flat: i64,
    a: DottedInner,
}

/// A predicate on `a.b` (the group's field) is pruned by that column's
/// statistics, not by those of the column named `a.b`.
#[test]
fn columns_are_found_by_their_names_not_their_dotted_paths() {
    let rows: Vec<Dotted> = (0..30).map(|n| Dotted { flat: n, a: DottedInner { b: 1000 + n } }).collect();
    let mut w = WriterBuilder::<Dotted>::new().max_row_group_rows(10).build(Vec::new()).unwrap();
    w.write_all(&rows).unwrap();
    let file = Bytes::from(w.into_inner().unwrap());
    let f = Dotted::fields();
    let read = |p: Predicate<Dotted>| {
        let mut reader = ReaderBuilder::new(file.clone()).unwrap().build(ReadOptions::default().filter(p)).unwrap();
        let n = reader.by_ref().collect::<Result<Vec<_>, _>>().unwrap().len();
        (reader.counts().row_groups_skipped, n)
    };
    assert_eq!(read(f.a.b.ge(1025)), (2, 5));
    assert_eq!(read(f.flat.ge(25)), (2, 5));
    assert_eq!(read(f.a.b.lt(1000)), (3, 0));
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Named {
    n: i64,
    s: String,
}

/// A file of three row groups that says it was written by `created_by`,
/// without dictionaries (which would rule out row groups whatever the
/// statistics).
fn named_file(created_by: &str) -> Bytes {
    let rows: Vec<Named> = (0..30).map(|n| Named { n, s: format!("s{:02}", n) }).collect();
    let builder = WriterBuilder::<Named>::new().max_row_group_rows(10).created_by(created_by);
    let mut w = builder.properties(|p| p.set_dictionary_enabled(false)).build(Vec::new()).unwrap();
    w.write_all(&rows).unwrap();
    Bytes::from(w.into_inner().unwrap())
}

/// (row groups skipped, records passed)
fn skipped_and_passed(file: Bytes, predicate: Predicate<Named>) -> (usize, u64) {
    let mut reader = ReaderBuilder::new(file).unwrap().build(ReadOptions::default().filter(predicate)).unwrap();
    let passed = reader.by_ref().collect::<Result<Vec<_>, _>>().unwrap().len() as u64;
    let counts = reader.counts();
    assert_eq!(counts.records_passed, passed);
    (counts.row_groups_skipped, passed)
}

/// parquet-mr before 1.8.0 ordered byte-array bounds as signed bytes
/// (PARQUET-251): their statistics are not used, their integers' are.
#[test]
fn byte_array_statistics_of_parquet_mr_before_1_8_are_not_trusted() {
    let f = Named::fields();
    for (created_by, trusted) in [
        ("parquet-mr version 1.6.0 (build 6aa21f8)", false),
        ("parquet-mr", false),
        ("parquet-mr version 1.8.1 (build 4aba4dae)", true),
        ("parquet-cpp-arrow version 26.0.1", true),
    ] {
        let file = named_file(created_by);
        let expected = if trusted { 3 } else { 0 };
        assert_eq!(skipped_and_passed(file.clone(), f.s.gt("t")), (expected, 0), "{created_by}");
        assert_eq!(skipped_and_passed(file.clone(), f.s.eq("s15")), (if trusted { 2 } else { 0 }, 1), "{created_by}");
        assert_eq!(
            skipped_and_passed(file.clone(), f.s.starts_with("s2")),
            (if trusted { 2 } else { 0 }, 10),
            "{created_by}"
        );
        // Integers are ordered the same either way.
        assert_eq!(skipped_and_passed(file, f.n.ge(25)), (2, 5), "{created_by}");
        // Bounds equal for a whole row group are no exception: parquet-mr's
        // bug left the last value in both.
        let same: Vec<Named> = (0..20).map(|n| Named { n, s: if n < 10 { "a".into() } else { "b".into() } }).collect();
        let builder = WriterBuilder::<Named>::new().max_row_group_rows(10).created_by(created_by);
        let mut w = builder.properties(|p| p.set_dictionary_enabled(false)).build(Vec::new()).unwrap();
        w.write_all(&same).unwrap();
        let file = Bytes::from(w.into_inner().unwrap());
        assert_eq!(skipped_and_passed(file, f.s.eq("c")), (if trusted { 2 } else { 0 }, 0), "{created_by}");
    }
}

/// Only the row groups that hold matches are read, on data sorted by the
/// field compared: a range, an equality, a set, their negation.
#[test]
fn only_row_groups_with_matches_are_read() {
    let f = Named::fields();
    let file = named_file("magnolify-parquet-rs test");
    assert_eq!(skipped_and_passed(file.clone(), f.n.between(12, 17)), (2, 6));
    assert_eq!(skipped_and_passed(file.clone(), f.n.is_in([3, 27])), (1, 2));
    assert_eq!(skipped_and_passed(file.clone(), f.n.lt(0).or(f.n.gt(29))), (3, 0));
    // `not` prunes where its operand holds for every record.
    assert_eq!(skipped_and_passed(file.clone(), f.n.ge(10).not()), (2, 10));
    assert_eq!(skipped_and_passed(file, f.n.ne(5)), (0, 29));
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Address {
    #[parquet(bloom_filter(fpp = 0.01, ndv = 1000))]
    zip: String,
    city: String,
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Customer {
    id: u64,
    #[parquet(bloom_filter)]
    email: String,
    #[parquet(bloom_filter)]
    tags: Vec<String>,
    home: Option<Address>,
}

fn customers(n: u64) -> Vec<Customer> {
    (0..n)
        .map(|id| Customer {
            id,
            // Spread over every row group's range: only a bloom filter rules a group out.
            email: format!("{}@x.org", (id * 7919) % n),
            tags: vec![format!("t{}", id % 5)],
            home: (id % 4 > 0).then(|| Address { zip: format!("{:05}", (id * 31) % n), city: "Oslo".into() }),
        })
        .collect()
}

/// `#[parquet(bloom_filter)]` writes a filter on the field's column (of a
/// nested struct too, with its settings; of a list's elements), and an
/// equality on such a field skips the row groups whose filter lacks the value.
#[test]
fn bloom_filter_attributes_write_filters_that_prune_equalities() {
    let rows = customers(400);
    let mut w = WriterBuilder::<Customer>::new().max_row_group_rows(100).build(Vec::new()).unwrap();
    w.write_all(&rows).unwrap();
    let file = Bytes::from(w.into_inner().unwrap());
    let builder = ReaderBuilder::new(file.clone()).unwrap();
    let with_filters: Vec<String> = builder
        .metadata()
        .row_group(0)
        .columns()
        .iter()
        .filter(|c| c.bloom_filter_offset().is_some())
        .map(|c| c.column_path().string())
        .collect();
    assert_eq!(with_filters, ["email", "tags.list.element", "home.zip"]);

    let f = Customer::fields();
    let read = |predicate: Predicate<Customer>| {
        let expected: Vec<&Customer> = rows.iter().filter(|r| predicate.test(r)).collect();
        let mut reader =
            ReaderBuilder::new(file.clone()).unwrap().build(ReadOptions::default().filter(predicate)).unwrap();
        let got: Vec<Customer> = reader.by_ref().collect::<Result<_, _>>().unwrap();
        assert!(got.iter().eq(expected.iter().copied()));
        let c = reader.counts();
        (c.row_groups_read, c.row_groups_skipped_by_bloom_filters, got.len())
    };
    // Every row group's emails span "0@x.org" to "99@x.org": min and max
    // rule nothing out, the filters three groups.
    assert_eq!(read(f.email.eq("123@x.org")), (1, 3, 1));
    assert_eq!(read(f.email.is_in(["5@x.org", "6@x.org"])), (2, 2, 2));
    assert_eq!(read(f.home.zip.eq("00031")), (1, 3, 1));
    // No filter on `city`: nothing skipped; none on an absent value's
    // negation either.
    assert_eq!(read(f.home.city.eq("Lima")).1, 0);
    assert_eq!(read(f.email.ne("123@x.org")), (4, 0, 399));
}

/// A `bloom_filter` on a field of several columns is refused when the
/// writer is made, naming the field.
#[test]
fn a_bloom_filter_on_a_group_is_refused() {
    #[derive(ParquetType, Debug)]
    struct Bad {
        #[parquet(bloom_filter)]
        home: Address,
    }
    let Err(error) = WriterBuilder::<Bad>::new().build(Vec::new()) else { panic!("a group has no bloom filter") };
    assert_eq!(
        error.to_string(),
        "unsupported type at field `home`: `bloom_filter` on `home`, which is a group of 2 columns: put \
         `bloom_filter` on one of its fields"
    );
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Timed {
    #[parquet(timestamp = "millis")]
    at: DateTime<Utc>,
    #[parquet(decimal(precision = 9, scale = 2))]
    price: Decimal,
}

/// A value between two of the column's values (a time finer than its unit,
/// a decimal longer than its scale) equals no record and bounds ranges by
/// its floor: the row group whose min or max is that floor is read exactly
/// when it holds matches.
#[test]
fn values_finer_than_the_column_bound_ranges_by_their_floor() {
    let rows: Vec<Timed> =
        (0..30).map(|k| Timed { at: DateTime::from_timestamp_millis(k).unwrap(), price: Decimal::new(k, 2) }).collect();
    let mut w = WriterBuilder::<Timed>::new().max_row_group_rows(10).build(Vec::new()).unwrap();
    w.write_all(&rows).unwrap();
    let file = Bytes::from(w.into_inner().unwrap());
    let f = Timed::fields();
    let half_ms = |k: i64| DateTime::from_timestamp_millis(k).unwrap() + chrono::Duration::microseconds(500);
    // (skipped, passed)
    let read = |p: Predicate<Timed>| {
        let expected = rows.iter().filter(|r| p.test(r)).count() as u64;
        let mut reader = ReaderBuilder::new(file.clone()).unwrap().build(ReadOptions::default().filter(p)).unwrap();
        let got: Vec<Timed> = reader.by_ref().collect::<Result<_, _>>().unwrap();
        assert_eq!(got.len() as u64, expected);
        (reader.counts().row_groups_skipped, expected)
    };
    assert_eq!(read(f.at.lt(half_ms(10))), (1, 11));
    assert_eq!(read(f.at.le(half_ms(10))), (1, 11));
    assert_eq!(read(f.at.gt(half_ms(19))), (2, 10));
    assert_eq!(read(f.at.ge(half_ms(19))), (2, 10));
    assert_eq!(read(f.at.eq(half_ms(5))), (3, 0));
    assert_eq!(read(f.at.ne(half_ms(5))), (0, 30));
    assert_eq!(read(f.at.is_in([half_ms(5), half_ms(25)])), (3, 0));
    assert_eq!(read(f.price.le(Decimal::new(105, 3))), (1, 11));
    assert_eq!(read(f.price.gt(Decimal::new(195, 3))), (2, 10));
    assert_eq!(read(f.price.eq(Decimal::new(-5, 3))), (3, 0));
}
