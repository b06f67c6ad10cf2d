//! The standard library's other types: `usize`/`isize`, `i128`/`u128`,
//! `NonZero*`, `Arc`, `VecDeque`, `BTreeSet`/`HashSet`, `[T; N]`,
//! `SystemTime`, the IP address types and `char`: their schema, exact
//! round trips at their extremes, the errors for values they cannot hold,
//! and predicates on them.

use std::collections::{BTreeSet, HashSet, VecDeque};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::num::NonZero;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use magnolify_parquet::parquet::basic::Compression;
use magnolify_parquet::{schema, ParquetRecord, ParquetType, ReadOptions, ReaderBuilder, WriterBuilder};
use test_kit::io::{via_file, via_store, write_read};

const MAX_38: i128 = 10i128.pow(38) - 1;

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Everything {
    id: usize,
    offset: isize,
    big: i128,
    huge: u128,
    count: NonZero<u32>,
    delta: Option<NonZero<i64>>,
    small: NonZero<u8>,
    shared: Arc<String>,
    local: Arc<Vec<i32>>,
    queue: VecDeque<String>,
    ordered: BTreeSet<i64>,
    hashed: HashSet<u16>,
    rgb: [f32; 3],
    words: [String; 2],
    #[parquet(timestamp = "nanos")]
    at: SystemTime,
    seen: Option<SystemTime>,
    client: IpAddr,
    v4: Ipv4Addr,
    v6: Option<Ipv6Addr>,
    grade: char,
    initials: Vec<char>,
}

const SCHEMA: &str = "message Everything {
  REQUIRED INT64 id (INTEGER(64,false));
  REQUIRED INT64 offset (INTEGER(64,true));
  REQUIRED FIXED_LEN_BYTE_ARRAY (16) big (DECIMAL(38,0));
  REQUIRED FIXED_LEN_BYTE_ARRAY (16) huge (DECIMAL(38,0));
  REQUIRED INT32 count (INTEGER(32,false));
  OPTIONAL INT64 delta (INTEGER(64,true));
  REQUIRED INT32 small (INTEGER(8,false));
  REQUIRED BYTE_ARRAY shared (STRING);
  REQUIRED group local (LIST) {
    REPEATED group list {
      REQUIRED INT32 element (INTEGER(32,true));
    }
  }
  REQUIRED group queue (LIST) {
    REPEATED group list {
      REQUIRED BYTE_ARRAY element (STRING);
    }
  }
  REQUIRED group ordered (LIST) {
    REPEATED group list {
      REQUIRED INT64 element (INTEGER(64,true));
    }
  }
  REQUIRED group hashed (LIST) {
    REPEATED group list {
      REQUIRED INT32 element (INTEGER(16,false));
    }
  }
  REQUIRED group rgb (LIST) {
    REPEATED group list {
      REQUIRED FLOAT element;
    }
  }
  REQUIRED group words (LIST) {
    REPEATED group list {
      REQUIRED BYTE_ARRAY element (STRING);
    }
  }
  REQUIRED INT64 at (TIMESTAMP(NANOS,true));
  OPTIONAL INT64 seen (TIMESTAMP(MICROS,true));
  REQUIRED BYTE_ARRAY client (STRING);
  REQUIRED BYTE_ARRAY v4 (STRING);
  OPTIONAL BYTE_ARRAY v6 (STRING);
  REQUIRED BYTE_ARRAY grade (STRING);
  REQUIRED group initials (LIST) {
    REPEATED group list {
      REQUIRED BYTE_ARRAY element (STRING);
    }
  }
}
";

#[test]
fn the_schema_gives_each_type_its_documented_form() {
    assert_eq!(schema::to_text(&Everything::message().expect("a schema")), SCHEMA);
}

/// A `NonZero` of a value known not to be 0.
fn nz<T, N: TryFrom<T, Error = std::num::TryFromIntError>>(v: T) -> N {
    N::try_from(v).expect("not zero")
}

fn everything() -> Vec<Everything> {
    let before_epoch = UNIX_EPOCH - Duration::new(86_400 * 365 * 100, 123_456_789);
    let after_epoch = UNIX_EPOCH + Duration::new(1_765_000_000, 987_654_321);
    vec![
        Everything {
            id: usize::MAX,
            offset: isize::MIN,
            big: MAX_38,
            huge: MAX_38 as u128,
            count: nz(u32::MAX),
            delta: Some(nz(i64::MIN)),
            small: nz(1u8),
            shared: Arc::new("shared".into()),
            local: Arc::new(vec![1, -2]),
            queue: VecDeque::from(["b".to_owned(), "a".to_owned()]),
            ordered: BTreeSet::from([-5, 7, 9]),
            hashed: HashSet::from([3, 1, 2]),
            rgb: [0.25, -1.0, f32::MAX],
            words: ["é".into(), String::new()],
            at: before_epoch,
            seen: Some(UNIX_EPOCH - Duration::from_micros(1)),
            client: IpAddr::V6("::ffff:1.2.3.4".parse().expect("an address")),
            v4: Ipv4Addr::BROADCAST,
            v6: Some(Ipv6Addr::LOCALHOST),
            grade: '🦀',
            initials: vec!['a', 'ß', '\u{0}'],
        },
        Everything {
            id: 0,
            offset: isize::MAX,
            big: -MAX_38,
            huge: 0,
            count: nz(1u32),
            delta: None,
            small: nz(u8::MAX),
            shared: Arc::new(String::new()),
            local: Arc::new(vec![]),
            queue: VecDeque::new(),
            ordered: BTreeSet::new(),
            hashed: HashSet::new(),
            rgb: [0.0; 3],
            words: ["x".into(), "y".into()],
            at: after_epoch,
            seen: None,
            client: IpAddr::V4(Ipv4Addr::new(1, 2, 3, 4)),
            v4: Ipv4Addr::UNSPECIFIED,
            v6: None,
            grade: 'A',
            initials: vec![],
        },
    ]
}

#[test]
fn every_type_round_trips_at_its_extremes() {
    let rows = everything();
    assert_eq!(via_store(&rows).expect("through the page store"), rows);
    assert_eq!(via_file(&rows).expect("through a file"), rows);
    // The IPv4-mapped address stays IPv6, and the IPv4 one IPv4.
    assert!(rows[0].client.is_ipv6() && rows[1].client.is_ipv4());
}

/// The same columns as `Everything`'s, with the forms' own Rust types, to
/// write what `Everything` cannot hold.
mod raw {
    use magnolify_parquet::ParquetType;

    #[derive(ParquetType, Debug, Clone, PartialEq)]
    #[parquet(rename = "Row")]
    pub struct Ints {
        pub signed: i64,
        pub count: u32,
    }

    #[derive(ParquetType, Debug, Clone, PartialEq)]
    #[parquet(rename = "Row")]
    pub struct Lists {
        pub set: Vec<i64>,
        pub rgb: Vec<f32>,
    }

    #[derive(ParquetType, Debug, Clone, PartialEq)]
    #[parquet(rename = "Row")]
    pub struct Texts {
        pub grade: String,
        pub client: String,
    }

    #[derive(ParquetType, Debug, Clone, PartialEq)]
    #[parquet(rename = "Row")]
    pub struct Wide {
        pub value: i128,
    }
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
#[parquet(rename = "Row")]
struct Counted {
    signed: i64,
    count: NonZero<u32>,
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
#[parquet(rename = "Row")]
struct Unsigned {
    signed: usize,
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
#[parquet(rename = "Row")]
struct Collections {
    set: BTreeSet<i64>,
    rgb: [f32; 3],
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
#[parquet(rename = "Row")]
struct HashedCollections {
    set: HashSet<i64>,
    rgb: [f32; 3],
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
#[parquet(rename = "Row")]
struct Parsed {
    grade: char,
    client: IpAddr,
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
#[parquet(rename = "Row")]
struct WideUnsigned {
    value: u128,
}

fn error<W: magnolify_parquet::OwnedRecord, R: magnolify_parquet::OwnedRecord + std::fmt::Debug>(rows: &[W]) -> String {
    write_read::<W, R>(rows).expect_err("an error").to_string()
}

#[test]
fn values_the_type_cannot_hold_are_errors_naming_the_column_and_the_record() {
    let ints = |count| raw::Ints { signed: -1, count };
    let message = error::<_, Counted>(&[ints(4), ints(0)]);
    assert!(message.contains("0 cannot be a `NonZero<u32>`"), "{message}");
    assert!(message.contains("column `count`") && message.contains("record 1"), "{message}");
    // A signed column cannot be read into `usize`: found before any record.
    let message = error::<_, Unsigned>(&[ints(1)]);
    assert!(message.contains("`usize` cannot hold every value of the column"), "{message}");

    let lists = |set: &[i64], rgb: &[f32]| raw::Lists { set: set.to_vec(), rgb: rgb.to_vec() };
    let ok = lists(&[3, 1], &[1.0, 2.0, 3.0]);
    let read: Vec<Collections> = write_read(std::slice::from_ref(&ok)).expect("distinct elements, three floats");
    assert_eq!(read, [Collections { set: BTreeSet::from([1, 3]), rgb: [1.0, 2.0, 3.0] }]);
    for set_error in [error::<_, Collections>(&[ok.clone(), lists(&[2, 5, 2], &[0.0; 3])]), {
        error::<_, HashedCollections>(&[ok.clone(), lists(&[2, 5, 2], &[0.0; 3])])
    }] {
        assert!(set_error.contains("the list holds an element twice, which a set cannot"), "{set_error}");
        assert!(set_error.contains("column `set`") && set_error.contains("record 1"), "{set_error}");
    }
    for (rgb, found) in [(&[1.0, 2.0][..], "has 2 elements"), (&[1.0; 4][..], "has more than 3 elements")] {
        let message = error::<_, Collections>(&[ok.clone(), lists(&[], rgb)]);
        assert!(message.contains(found) && message.contains("column `rgb`"), "{message}");
        assert!(message.contains("record 1"), "{message}");
    }

    let texts = |grade: &str, client: &str| raw::Texts { grade: grade.into(), client: client.into() };
    let read: Vec<Parsed> = write_read(&[texts("é", "::1")]).expect("one character, an address");
    assert_eq!(read, [Parsed { grade: 'é', client: IpAddr::V6(Ipv6Addr::LOCALHOST) }]);
    for (grade, client, found) in [
        ("ab", "1.2.3.4", "\"ab\" is not one character"),
        ("", "1.2.3.4", "\"\" is not one character"),
        ("a", "1.2.3.256", "\"1.2.3.256\" is not an IP address"),
    ] {
        let message = error::<_, Parsed>(&[texts("a", "::"), texts(grade, client)]);
        assert!(message.contains(found) && message.contains("record 1"), "{message}");
    }

    let message = error::<_, WideUnsigned>(&[raw::Wide { value: 5 }, raw::Wide { value: -1 }]);
    assert!(message.contains("-1 is out of range for u128") && message.contains("record 1"), "{message}");
}

#[test]
fn integers_of_39_digits_are_write_errors() {
    for value in [MAX_38 + 1, -MAX_38 - 1, i128::MIN, i128::MAX] {
        let mut writer = WriterBuilder::<raw::Wide>::new().build(Vec::new()).expect("a writer");
        let message = writer.write(&raw::Wide { value }).expect_err("39 digits").to_string();
        assert!(message.contains(&format!("{value} has 39 digits")) && message.contains("`value`"), "{message}");
    }
    let mut writer = WriterBuilder::<WideUnsigned>::new().build(Vec::new()).expect("a writer");
    let message = writer.write(&WideUnsigned { value: u128::MAX }).expect_err("39 digits").to_string();
    assert!(message.contains("has 39 digits"), "{message}");
}

/// Reads `rows` written in row groups of 2 with `predicate`: the ids read
/// and the row groups skipped.
fn filtered(rows: &[Everything], predicate: magnolify_parquet::filter::Predicate<Everything>) -> (Vec<usize>, usize) {
    let builder = WriterBuilder::<Everything>::new().max_row_group_rows(2).compression(Compression::SNAPPY);
    let file = test_kit::io::file_with(builder, rows).expect("a file");
    let mut reader = ReaderBuilder::new(file)
        .expect("a reader")
        .build::<Everything>(ReadOptions::default().filter(predicate))
        .expect("a reader");
    let ids = reader.by_ref().map(|r| r.map(|e| e.id)).collect::<Result<Vec<_>, _>>().expect("records");
    (ids, reader.counts().row_groups_skipped)
}

#[test]
fn predicates_on_the_new_types_prune_by_statistics() {
    // Six rows in three row groups, each field growing with the id.
    let rows: Vec<Everything> = (0..6)
        .map(|i| {
            let mut row = everything()[1].clone();
            row.id = i;
            row.offset = i as isize - 3;
            row.big = i as i128 * (MAX_38 / 10);
            row.count = nz(i as u32 + 1);
            row.at = UNIX_EPOCH + Duration::from_secs(i as u64 * 1000);
            row.v4 = Ipv4Addr::new(10, 0, 0, i as u8);
            row.grade = char::from(b'a' + i as u8);
            row
        })
        .collect();
    let f = Everything::fields();
    let cases: Vec<(magnolify_parquet::filter::Predicate<Everything>, Vec<usize>, usize)> = vec![
        (f.id.ge(4), vec![4, 5], 2),
        (f.offset.lt(-1), vec![0, 1], 2),
        (f.big.eq(3 * (MAX_38 / 10)), vec![3], 2),
        (f.count.eq(nz::<u32, NonZero<u32>>(6)), vec![5], 2),
        (f.at.ge(UNIX_EPOCH + Duration::from_secs(2500)), vec![3, 4, 5], 1),
        (f.grade.is_in(['b', 'c']), vec![1, 2], 1),
        // Addresses are text: equality prunes, order does not.
        (f.v4.eq(Ipv4Addr::new(10, 0, 0, 5)), vec![5], 2),
        (f.v4.gt(Ipv4Addr::new(10, 0, 0, 3)), vec![4, 5], 0),
    ];
    for (predicate, expected, skipped) in cases {
        let text = format!("{predicate:?}");
        let in_memory: Vec<usize> = rows.iter().filter(|r| predicate.test(r)).map(|r| r.id).collect();
        assert_eq!(in_memory, expected, "{text} in memory");
        assert_eq!(filtered(&rows, predicate), (expected, skipped), "{text}");
    }
}

/// Another writer may spell an IPv6 address otherwise than `Display` does
/// (upper case, leading zeros): equality must still find it, so IPv6
/// values do not prune; IPv4 text has one spelling, and prunes.
#[test]
fn ipv6_addresses_in_another_spelling_are_found_by_equality() {
    let texts = |grade: &str, client: &str| raw::Texts { grade: grade.into(), client: client.into() };
    let rows = [texts("a", "10.0.0.1"), texts("b", "2001:DB8::1"), texts("c", "2001:0db8:0:0:0:0:0:2")];
    let file =
        test_kit::io::file_with(WriterBuilder::<raw::Texts>::new().max_row_group_rows(1), &rows).expect("a file");
    let f = Parsed::fields();
    let read = |predicate: magnolify_parquet::filter::Predicate<Parsed>| {
        let mut reader = ReaderBuilder::new(file.clone())
            .expect("a reader")
            .build::<Parsed>(ReadOptions::default().filter(predicate))
            .expect("a reader");
        let grades = reader.by_ref().map(|r| r.map(|p| p.grade)).collect::<Result<Vec<_>, _>>().expect("records");
        (grades, reader.counts().row_groups_skipped)
    };
    let v6 = |text: &str| text.parse::<IpAddr>().expect("an address");
    assert_eq!(read(f.client.eq(v6("2001:db8::1"))), (vec!['b'], 0));
    assert_eq!(read(f.client.is_in([v6("2001:db8::2"), v6("::1")])), (vec!['c'], 0));
    assert_eq!(read(f.client.eq(v6("10.0.0.1"))), (vec!['a'], 2));
}

/// `i128` and `u128` read integer columns and DECIMAL(P, 0) in an INT32,
/// not only their own FIXED_LEN_BYTE_ARRAY(16).
#[test]
fn wide_integers_read_integer_columns_and_unscaled_decimals_in_integers() {
    #[derive(ParquetType, Debug, Clone, PartialEq)]
    #[parquet(rename = "Row")]
    struct Wide {
        signed: i128,
        count: u128,
    }
    let read: Vec<Wide> = write_read(&[raw::Ints { signed: i64::MIN, count: u32::MAX }]).expect("integer columns");
    assert_eq!(read, [Wide { signed: i128::from(i64::MIN), count: u128::from(u32::MAX) }]);

    #[derive(ParquetType, Debug, Clone, PartialEq)]
    #[parquet(rename = "Row")]
    struct Decimal9 {
        #[parquet(decimal(precision = 9, scale = 0))]
        value: rust_decimal::Decimal,
    }
    let rows = [Decimal9 { value: 999_999_999.into() }, Decimal9 { value: (-5).into() }];
    let read: Vec<raw::Wide> = write_read(&rows).expect("DECIMAL(9, 0) in an INT32");
    assert_eq!(read, [raw::Wide { value: 999_999_999 }, raw::Wide { value: -5 }]);
    let message = error::<_, WideUnsigned>(&rows);
    assert!(message.contains("-5 is out of range for u128") && message.contains("record 1"), "{message}");
}
