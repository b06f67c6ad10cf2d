//! The damaged-file suite (`damaged_files.rs`) on enum and VARIANT columns:
//! files the library writes with enums with data, an Avro union and a
//! VARIANT column, and the VARIANT files of Spark and DuckDB, truncated and
//! bit-flipped; and Variant values damaged inside well-formed files. Every
//! one is an error or well-formed records, never a panic; a damaged Variant
//! value is an error naming its column and record.

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};

use bytes::Bytes;
use chrono::NaiveDate;
use magnolify_parquet::{Derived, OwnedRecord, ParquetType, VariantValue};
use serde_json::{json, Value};

use crate::damaged_files::{check, configs, flips, read_with, truncations, written, Expect, Lcg, Raw, Tally, Variant};
use crate::data_enums::Num;
use crate::proptest_enums::Payment;
use crate::variant_values::{Event, RawEvent, RawVariant};

/// A record with an enum in every position, an Avro union and a VARIANT.
#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Order {
    id: u32,
    payment: Payment,
    refund: Option<Payment>,
    history: Vec<Payment>,
    by_shop: BTreeMap<String, Payment>,
    measure: Option<Num>,
    doc: Option<VariantValue>,
}

fn payment(g: &mut Lcg) -> Payment {
    match g.below(5) {
        0 => Payment::Card {
            last4: format!("{:04}", g.below(10_000)),
            expiry: NaiveDate::from_num_days_from_ce_opt(738_000 + g.below(3_000) as i32).expect("a date"),
        },
        1 => Payment::Transfer(format!("DE{}", g.below(1_000))),
        2 => Payment::Cash,
        3 => Payment::Split { parts: vec![Num::Int(g.below(9) as i32)], rest: (g.below(2) == 0).then(|| num(g)) },
        _ => Payment::Voucher {
            code: (g.below(2) == 0).then(|| format!("V-{}", g.below(50))),
            amounts: (0..g.below(3)).map(|_| g.below(1_000) as i64 - 500).collect(),
        },
    }
}

fn num(g: &mut Lcg) -> Num {
    match g.below(3) {
        0 => Num::Int(g.below(100) as i32 - 50),
        1 => Num::Text(format!("m{}", g.below(9))),
        _ => Num::Point { x: g.below(8) as f64 * 0.5, y: -(g.below(8) as f64) },
    }
}

/// A JSON document of up to `depth` levels of nesting.
fn document(g: &mut Lcg, depth: u32) -> Value {
    match g.below(if depth == 0 { 5 } else { 7 }) {
        0 => Value::Null,
        1 => json!(g.below(2) == 0),
        2 => json!(g.below(1 << 40) as i64 - (1 << 39)),
        3 => json!(g.below(1_000) as f64 / 8.0 - 60.0),
        4 => json!("é".repeat(g.below(3) as usize) + &"x".repeat(g.below(70) as usize)),
        5 => Value::Array((0..g.below(4)).map(|_| document(g, depth - 1)).collect()),
        _ => Value::Object((0..g.below(4)).map(|k| (format!("k{k}"), document(g, depth - 1))).collect()),
    }
}

fn orders(n: usize) -> Vec<Order> {
    let mut g = Lcg(7);
    (0..n)
        .map(|i| Order {
            id: i as u32,
            payment: payment(&mut g),
            refund: (g.below(2) == 0).then(|| payment(&mut g)),
            history: (0..g.below(3)).map(|_| payment(&mut g)).collect(),
            by_shop: (0..g.below(3)).map(|k| (format!("s{k}"), payment(&mut g))).collect(),
            measure: (g.below(4) > 0).then(|| num(&mut g)),
            doc: (g.below(4) > 0).then(|| VariantValue::from_json(&document(&mut g, 3)).expect("a value")),
        })
        .collect()
}

/// Every VARIANT value read decodes to JSON, or says why it cannot;
/// never a panic.
fn decode_all<'a>(what: &str, values: impl IntoIterator<Item = &'a VariantValue>) {
    for value in values {
        let decoded = catch_unwind(AssertUnwindSafe(|| value.to_json().map(drop)));
        assert!(decoded.is_ok(), "{what}: VariantValue::to_json panicked on a value the reader accepted");
    }
}

/// Reads every variant raw and as `T`, checks what it must give, and
/// decodes the VARIANT values of the records read.
fn run<T>(variants: &[Variant], values: impl Fn(&T) -> Vec<&VariantValue>) -> Tally
where
    T: OwnedRecord + Send + 'static,
{
    let mut tally = Tally::default();
    for v in variants {
        let raw = read_with(&v.what, Raw, v.bytes.clone(), None);
        check(v, "raw", &raw);
        tally.add(&raw);
        let typed = read_with(&v.what, Derived::<T>::new(), v.bytes.clone(), None);
        check(v, "typed", &typed);
        decode_all(&v.what, typed.records.iter().flat_map(&values));
        tally.add(&typed);
    }
    tally
}

fn order_values(order: &Order) -> Vec<&VariantValue> {
    order.doc.iter().collect()
}

fn event_values(event: &Event) -> Vec<&VariantValue> {
    event.v.iter().collect()
}

#[test]
fn the_undamaged_enum_and_variant_files_read_back_exactly() {
    let records = orders(40);
    for config in &configs() {
        let outcome = read_with(config.name, Derived::<Order>::new(), written(config, &records), None);
        assert!(outcome.error.is_none(), "{}: {:?}", config.name, outcome.error);
        assert_eq!(outcome.records, records, "{}", config.name);
    }
    // Every variant and both union members occur, and nulls where they can.
    let tags: std::collections::BTreeSet<String> = records
        .iter()
        .map(|o| format!("{:?}", o.payment).chars().take_while(char::is_ascii_alphabetic).collect())
        .collect();
    assert_eq!(tags.len(), 5, "{tags:?}");
    assert!(records.iter().any(|o| o.doc.is_none()) && records.iter().any(|o| o.measure.is_none()));
}

#[test]
fn truncated_enum_and_variant_files_are_errors() {
    let records = orders(16);
    let mut variants = Vec::new();
    for (i, config) in configs().iter().enumerate() {
        variants.extend(truncations(config.name, &written(config, &records), if i == 0 { 2 } else { 13 }));
    }
    run::<Order>(&variants, order_values).print("enum and variant files truncated");
    let mut fixtures = Vec::new();
    for name in ["events.spark.parquet", "events.spark-shredded.parquet", "events.duckdb.parquet"] {
        let file = test_kit::fixtures::bytes(&format!("variant/{name}"));
        fixtures.extend(truncations(name, &file, 2));
    }
    run::<Event>(&fixtures, event_values).print("variant fixtures truncated");
}

#[test]
fn flipped_bits_in_enum_and_variant_files_give_errors_or_records() {
    let records = orders(16);
    let mut tally = Tally::default();
    for (i, config) in configs().iter().enumerate() {
        let variants = flips(config.name, &written(config, &records), if i == 0 { 3 } else { 17 });
        let t = run::<Order>(&variants, order_values);
        tally.errors += t.errors;
        tally.records += t.records;
    }
    tally.print("enum and variant files with a bit flipped");
    let mut fixtures = Vec::new();
    for name in ["events.spark.parquet", "events.spark-shredded.parquet", "events.duckdb.parquet"] {
        fixtures.extend(flips(name, &test_kit::fixtures::bytes(&format!("variant/{name}")), 1));
    }
    run::<Event>(&fixtures, event_values).print("variant fixtures with a bit flipped");
}

/// A well-formed file of one record whose Variant value is `metadata` and
/// `value`, whatever they hold.
fn with_variant_bytes(metadata: &[u8], value: &[u8]) -> Bytes {
    let row = RawEvent { id: 0, v: Some(RawVariant { metadata: metadata.to_vec(), value: value.to_vec() }) };
    test_kit::io::file_of(&[row]).expect("a file")
}

/// Damaged Variant values inside well-formed files: every shorter value or
/// metadata is an error naming the column and the record; a flipped bit is
/// an error or a value that decodes; nothing panics.
#[test]
fn damaged_variant_values_are_errors_never_panics() {
    let mut g = Lcg(11);
    let date = NaiveDate::from_ymd_opt(2026, 12, 6).expect("a date");
    let mut values = vec![
        VariantValue::from_variant(date).expect("a value"),
        VariantValue::from_variant(&b"\x00\xffbytes"[..]).expect("a value"),
        VariantValue::from_json(&json!({"a": 1, "b": [true, null, "x"], "c": {"d": -2.5}})).expect("a value"),
    ];
    values.extend((0..12).map(|_| VariantValue::from_json(&document(&mut g, 3)).expect("a value")));
    let mut variants = Vec::new();
    for (i, value) in values.iter().enumerate() {
        let (m, v) = (value.metadata(), value.value());
        for n in 0..v.len() {
            variants.push(Variant {
                what: format!("value {i} cut to {n} of {} bytes", v.len()),
                bytes: with_variant_bytes(m, &v[..n]),
                expect: Expect::Error,
            });
        }
        for n in 0..m.len() {
            variants.push(Variant {
                what: format!("value {i} with its metadata cut to {n} of {} bytes", m.len()),
                bytes: with_variant_bytes(&m[..n], v),
                expect: Expect::Error,
            });
        }
        for (part, bytes) in [("value", v), ("metadata", m)] {
            for at in 0..bytes.len() {
                for bit in 0..8 {
                    let mut damaged = bytes.to_vec();
                    damaged[at] ^= 1 << bit;
                    let (m, v) = if part == "value" { (m, &damaged[..]) } else { (&damaged[..], v) };
                    variants.push(Variant {
                        what: format!("value {i} with bit {bit} of its {part}'s byte {at} flipped"),
                        bytes: with_variant_bytes(m, v),
                        expect: Expect::ErrorOrRecords,
                    });
                }
            }
        }
    }
    let mut tally = Tally::default();
    for v in &variants {
        let outcome = read_with(&v.what, Derived::<Event>::new(), v.bytes.clone(), None);
        check(v, "typed", &outcome);
        if let Some(error) = &outcome.error {
            let message = error.to_string();
            assert!(
                message.contains("not a Variant value")
                    && message.contains("column `v`")
                    && message.contains("record 0"),
                "{}: {message}",
                v.what
            );
        }
        decode_all(&v.what, outcome.records.iter().flat_map(event_values));
        tally.add(&outcome);
    }
    tally.print("damaged Variant values");
    assert!(tally.errors > variants.len() / 4, "{} errors of {}", tally.errors, variants.len());
}
