//! Arbitrary values of a derived type that uses every supported field type
//! (primitives, strings, bytes, fixed bytes, options, lists in the three
//! layouts, lists of lists, maps, nested structs, enums, and the logical
//! types: dates, times, timestamps in three units, UUIDs, decimals of every
//! width, f16), written with arbitrary writer settings (codec, dictionary,
//! page sizes and row counts, page version, row-group size, batch size,
//! checksums, threads) and read back. Every record the writer accepts reads
//! back equal; one it refuses is refused with `Error::Value`, naming its
//! column or field (a value its type cannot hold: a decimal beyond its precision, a
//! timestamp outside its unit), and leaves the writer usable. Anything else
//! (another error, different records, a panic in this workspace) is a crash.
#![no_main]

use std::collections::BTreeMap;

use bigdecimal::BigDecimal;
use chrono::{DateTime, NaiveDate, NaiveDateTime, NaiveTime, Utc};
use half::f16;
use libfuzzer_sys::arbitrary::{self, Arbitrary, Unstructured};
use libfuzzer_sys::fuzz_target;
use magnolify_parquet::parquet::basic::{Compression, GzipLevel, ZstdLevel};
use magnolify_parquet::parquet::file::properties::WriterVersion;
use magnolify_parquet::{Error, ParquetType, ReadOptions, ReaderBuilder, WriterBuilder};
use magnolify_parquet_fuzz::install_panic_hook;
use rust_decimal::Decimal;
use uuid::Uuid;

#[derive(ParquetType, Debug, Clone, PartialEq, Arbitrary)]
enum Kind {
    Small,
    #[parquet(rename = "LARGE")]
    Large,
}

#[derive(ParquetType, Debug, Clone, PartialEq, Arbitrary)]
struct Inner {
    a: Option<i32>,
    s: String,
    tags: Vec<String>,
}

#[derive(ParquetType, Debug, Clone, PartialEq, Arbitrary)]
struct Signed {
    i8: i8,
    i16: i16,
    i32: i32,
    i64: i64,
}

#[derive(ParquetType, Debug, Clone, PartialEq, Arbitrary)]
struct Unsigned {
    u8: u8,
    u16: u16,
    u32: u32,
    u64: u64,
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Values {
    b: bool,
    signed: Signed,
    unsigned: Option<Unsigned>,
    #[parquet(list = "two-level")]
    two_level: Vec<u16>,
    f32: f32,
    f64: f64,
    h: f16,
    #[parquet(list = "repeated")]
    repeated: Vec<Inner>,
    s: String,
    bytes: Vec<u8>,
    fixed: [u8; 3],
    #[parquet(rename = "KIND")]
    kind: Kind,
    opt: Option<i64>,
    opt_s: Option<String>,
    list: Vec<Option<String>>,
    #[parquet(timestamp = "millis")]
    time: NaiveTime,
    nested: Vec<Vec<i16>>,
    map: BTreeMap<String, Option<u32>>,
    inner: Option<Inner>,
    #[parquet(timestamp = "millis")]
    ts_ms: NaiveDateTime,
    date: NaiveDate,
    ts_us: DateTime<Utc>,
    #[parquet(timestamp = "nanos")]
    ts_ns: Option<DateTime<Utc>>,
    uuid: Uuid,
    // Other specs than the tests use: INT32, INT64, FIXED(12), BINARY, FIXED(19).
    #[parquet(decimal(precision = 8, scale = 3))]
    dec_i32: Decimal,
    #[parquet(decimal(precision = 17, scale = 5))]
    dec_i64: Option<Decimal>,
    #[parquet(decimal(precision = 27, scale = 9))]
    dec_fixed: Decimal,
    #[parquet(decimal(precision = 22, scale = 2, physical = "binary"))]
    dec_binary: Decimal,
    #[parquet(decimal(precision = 45, scale = 7))]
    big: Option<BigDecimal>,
}

fn decimal(u: &mut Unstructured) -> arbitrary::Result<Decimal> {
    let mantissa = i128::from(u.arbitrary::<i64>()?) * i128::from(u.arbitrary::<i32>()?);
    Ok(Decimal::try_from_i128_with_scale(mantissa, u.int_in_range(0..=28)?).unwrap_or_default())
}

impl<'a> Arbitrary<'a> for Values {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let days = u.int_in_range(-800_000..=800_000)?;
        // Whole units of `step` nanoseconds: a finer value is refused (its
        // unit cannot hold it), which is tested, but should not be the rule.
        let instant = |u: &mut Unstructured, step: u32| -> arbitrary::Result<DateTime<Utc>> {
            let secs = u.int_in_range(-9_000_000_000i64..=9_000_000_000)?;
            let nanos = u.int_in_range(0..=999_999_999u32)?;
            let nanos = if u.ratio(1, 50)? { nanos } else { nanos - nanos % step };
            Ok(DateTime::from_timestamp(secs, nanos).unwrap_or_default())
        };
        Ok(Values {
            b: u.arbitrary()?,
            signed: u.arbitrary()?,
            unsigned: u.arbitrary()?,
            f32: u.arbitrary()?,
            f64: u.arbitrary()?,
            h: f16::from_bits(u.arbitrary()?),
            s: u.arbitrary()?,
            bytes: u.arbitrary()?,
            fixed: u.arbitrary()?,
            kind: u.arbitrary()?,
            opt: u.arbitrary()?,
            opt_s: u.arbitrary()?,
            list: u.arbitrary()?,
            two_level: u.arbitrary()?,
            repeated: u.arbitrary()?,
            nested: u.arbitrary()?,
            map: u.arbitrary()?,
            inner: u.arbitrary()?,
            date: NaiveDate::from_num_days_from_ce_opt(days).unwrap_or_default(),
            time: NaiveTime::from_num_seconds_from_midnight_opt(
                u.int_in_range(0..=86_399)?,
                u.int_in_range(0..=999)? * 1_000_000,
            )
            .unwrap_or_default(),
            ts_ms: instant(u, 1_000_000)?.naive_utc(),
            ts_us: instant(u, 1_000)?,
            ts_ns: if u.arbitrary()? { Some(instant(u, 1)?) } else { None },
            uuid: Uuid::from_bytes(u.arbitrary()?),
            dec_i32: decimal(u)?,
            dec_i64: if u.arbitrary()? { Some(decimal(u)?) } else { None },
            dec_fixed: decimal(u)?,
            dec_binary: decimal(u)?,
            big: if u.arbitrary()? {
                let digits: u128 = u.arbitrary()?;
                let scale = u.int_in_range(-10..=20)?;
                Some(BigDecimal::new(num_bigint::BigInt::from(digits) * i64::from(u.arbitrary::<i32>()?), scale))
            } else {
                None
            },
        })
    }
}

/// Writer settings, drawn from the input.
#[derive(Debug)]
struct Settings {
    codec: Compression,
    dictionary: bool,
    version: WriterVersion,
    page_bytes: usize,
    page_rows: usize,
    group_rows: usize,
    batch: usize,
    checksums: bool,
    threads: usize,
}

impl<'a> Arbitrary<'a> for Settings {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        Ok(Settings {
            codec: match u.int_in_range(0..=5u8)? {
                0 => Compression::UNCOMPRESSED,
                1 => Compression::SNAPPY,
                2 => Compression::GZIP(GzipLevel::default()),
                3 => Compression::ZSTD(ZstdLevel::default()),
                4 => Compression::LZ4_RAW,
                _ => Compression::LZ4,
            },
            dictionary: u.arbitrary()?,
            version: if u.arbitrary()? { WriterVersion::PARQUET_2_0 } else { WriterVersion::PARQUET_1_0 },
            page_bytes: u.int_in_range(1..=1 << 16)?,
            page_rows: u.int_in_range(1..=64)?,
            group_rows: u.int_in_range(1..=64)?,
            batch: u.int_in_range(1..=32)?,
            checksums: u.arbitrary()?,
            threads: u.int_in_range(1..=2)?,
        })
    }
}

/// Floats compared by their bits (NaN payloads and the sign of zero must
/// survive): the `Debug` forms of both sides, with floats shown as bits.
fn same(a: &[Values], b: &[Values]) -> bool {
    let bits = |v: &Values| (v.f32.to_bits(), v.f64.to_bits(), v.h.to_bits());
    let rest = |v: &Values| {
        let mut v = v.clone();
        (v.f32, v.f64, v.h) = (0.0, 0.0, f16::ZERO);
        v
    };
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| bits(x) == bits(y) && rest(x) == rest(y))
}

fuzz_target!(|input: (Settings, Vec<Values>)| {
    install_panic_hook();
    let (settings, values) = input;
    let mut writer = WriterBuilder::<Values>::new()
        .compression(settings.codec)
        .dictionary(settings.dictionary)
        .writer_version(settings.version)
        .data_page_size(settings.page_bytes)
        .data_page_rows(settings.page_rows)
        .max_row_group_rows(settings.group_rows)
        .batch_size(settings.batch)
        .page_checksums(settings.checksums)
        .threads(settings.threads)
        .build(Vec::new())
        .expect("a writer with valid settings");
    let mut accepted = Vec::new();
    for v in &values {
        match writer.write(v) {
            Ok(()) => accepted.push(v.clone()),
            Err(e @ Error::Value { .. }) => {
                assert!(e.location().is_some_and(|l| l.column.is_some() || l.field.is_some()), "{e}")
            }
            Err(e) => panic!("writing {v:?} with {settings:?}: {e}"),
        }
    }
    let file = bytes::Bytes::from(writer.into_inner().unwrap_or_else(|e| panic!("closing with {settings:?}: {e}")));
    let back: Vec<Values> = ReaderBuilder::new(file)
        .and_then(|b| b.build(ReadOptions::default().threads(settings.threads)))
        .and_then(|r| r.collect())
        .unwrap_or_else(|e| panic!("reading back what {settings:?} wrote: {e}"));
    assert!(same(&back, &accepted), "{settings:?}: read back {back:?}, wrote {accepted:?}");
});
