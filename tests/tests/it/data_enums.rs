//! Enums with data: the group of a `variant` tag and one optional field per
//! variant with data, in every position a struct can be; parquet-avro's
//! union layout (`union = "avro"`); `other`; the errors for records whose
//! fields do not match their tag.

use std::collections::BTreeMap;

use chrono::NaiveDate;
use magnolify_parquet::{schema, ParquetRecord, ParquetType};
use test_kit::io::{via_file, write_read};

/// How an order was paid.
#[derive(ParquetType, Debug, Clone, PartialEq)]
enum Payment {
    /// By card.
    Card {
        last4: String,
        expiry: NaiveDate,
    },
    Transfer(String),
    Cash,
    Voucher {
        code: Option<String>,
        #[parquet(skip)]
        cached: u32,
        amounts: Vec<i64>,
    },
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Order {
    id: u32,
    payment: Payment,
    refund: Option<Payment>,
    history: Vec<Payment>,
    by_shop: BTreeMap<String, Payment>,
    inner: Inner,
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Inner {
    last: Option<Payment>,
}

fn card(last4: &str) -> Payment {
    Payment::Card { last4: last4.into(), expiry: NaiveDate::from_ymd_opt(2029, 2, 28).expect("a date") }
}

fn orders() -> Vec<Order> {
    let voucher = Payment::Voucher { code: Some("V-1".into()), cached: 0, amounts: vec![5, -2] };
    vec![
        Order {
            id: 1,
            payment: card("4242"),
            refund: None,
            history: vec![],
            by_shop: BTreeMap::new(),
            inner: Inner { last: None },
        },
        Order {
            id: 2,
            payment: Payment::Transfer("DE89".into()),
            refund: Some(Payment::Cash),
            history: vec![Payment::Cash, card("0001"), voucher.clone()],
            by_shop: BTreeMap::from([("a".into(), Payment::Cash), ("b".into(), Payment::Transfer("x".into()))]),
            inner: Inner { last: Some(voucher.clone()) },
        },
        Order {
            id: 3,
            payment: Payment::Cash,
            refund: Some(Payment::Voucher { code: None, cached: 0, amounts: vec![] }),
            history: vec![Payment::Transfer(String::new())],
            by_shop: BTreeMap::from([("c".into(), card("9999"))]),
            inner: Inner { last: Some(Payment::Cash) },
        },
    ]
}

#[test]
fn the_layout_is_a_tag_and_one_optional_field_per_variant_with_data_sorted_by_name() {
    let text = schema::to_text(&Inner::message().expect("a schema"));
    assert_eq!(
        text,
        "message Inner {
  OPTIONAL group last {
    REQUIRED BYTE_ARRAY variant (STRING);
    OPTIONAL group Card {
      REQUIRED BYTE_ARRAY last4 (STRING);
      REQUIRED INT32 expiry (DATE);
    }
    OPTIONAL BYTE_ARRAY Transfer (STRING);
    OPTIONAL group Voucher {
      OPTIONAL BYTE_ARRAY code (STRING);
      REQUIRED group amounts (LIST) {
        REPEATED group list {
          REQUIRED INT64 element (INTEGER(64,true));
        }
      }
    }
  }
}
"
    );
}

#[test]
fn every_position_a_struct_can_be_in_round_trips() {
    let rows = orders();
    assert_eq!(via_file(&rows).expect("round trip"), rows);
}

// The same group written by hand: what another writer (or a bad file)
// could hold.
#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Raw {
    id: u32,
    payment: RawPayment,
}

#[derive(ParquetType, Debug, Clone, PartialEq, Default)]
struct RawPayment {
    variant: String,
    #[parquet(rename = "Transfer")]
    transfer: Option<String>,
    #[parquet(rename = "Card")]
    card: Option<RawCard>,
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct RawCard {
    last4: String,
    expiry: NaiveDate,
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Paid {
    id: u32,
    payment: Payment,
}

fn raw(id: u32, variant: &str, transfer: Option<&str>, card: bool) -> Raw {
    let expiry = NaiveDate::from_ymd_opt(2030, 1, 1).expect("a date");
    Raw {
        id,
        payment: RawPayment {
            variant: variant.into(),
            transfer: transfer.map(str::to_owned),
            card: card.then(|| RawCard { last4: "1234".into(), expiry }),
        },
    }
}

#[test]
fn a_file_written_in_another_field_order_and_without_newer_variants_reads() {
    // `RawPayment` lists `Transfer` before `Card` and has no `Voucher`: an
    // older enum, or another writer.
    let rows = [raw(0, "Transfer", Some("T"), false), raw(1, "Card", None, true), raw(2, "Cash", None, false)];
    let read: Vec<Paid> = write_read(&rows).expect("reads");
    let expiry = NaiveDate::from_ymd_opt(2030, 1, 1).expect("a date");
    assert_eq!(
        read,
        [
            Paid { id: 0, payment: Payment::Transfer("T".into()) },
            Paid { id: 1, payment: Payment::Card { last4: "1234".into(), expiry } },
            Paid { id: 2, payment: Payment::Cash },
        ]
    );
}

#[test]
fn fields_that_do_not_match_the_tag_are_an_error_naming_the_group_and_the_record() {
    let cases = [
        (raw(5, "Card", None, false), "the variant is `Card` but its field `Card` is null"),
        (raw(5, "Cash", Some("T"), false), "the variant is `Cash` but [\"Transfer\"] hold values"),
        (raw(5, "Transfer", Some("T"), true), "the variant is `Transfer` but [\"Card\", \"Transfer\"] hold values"),
        (
            raw(5, "Card", Some("T"), false),
            "the variant is `Card` but its field `Card` is null and [\"Transfer\"] hold values",
        ),
    ];
    for (bad, expected) in cases {
        let rows = [raw(0, "Cash", None, false), raw(1, "Cash", None, false), raw(2, "Cash", None, false)];
        let mut rows = rows.to_vec();
        rows.push(bad);
        let message = write_read::<Raw, Paid>(&rows).expect_err("a mismatch").to_string();
        assert!(message.contains(expected), "{message}");
        assert!(message.contains("column `payment`"), "{message}");
        assert!(message.contains("record 3"), "{message}");
    }
}

#[test]
fn an_unknown_variant_is_an_error_that_says_to_add_it_or_mark_other() {
    let message =
        write_read::<Raw, Paid>(&[raw(0, "Crypto", None, false)]).expect_err("an unknown variant").to_string();
    assert!(message.contains("unknown variant \"Crypto\" of enum `Payment`"), "{message}");
    assert!(message.contains("#[parquet(other)]"), "{message}");
    assert!(message.contains("column `payment.variant`"), "{message}");
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
enum Tolerant {
    Transfer(String),
    #[parquet(other)]
    Unknown,
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct TolerantRow {
    id: u32,
    payment: Tolerant,
}

#[derive(ParquetType, Debug, Clone, Copy, PartialEq)]
enum Level {
    Low,
    #[parquet(other)]
    Unknown,
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Levels {
    level: Level,
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Texts {
    level: String,
}

#[test]
fn other_reads_the_variants_the_enum_lacks() {
    let rows = [raw(0, "Crypto", None, false), raw(1, "Transfer", Some("T"), false), raw(2, "Card", None, true)];
    // `Card` is no variant of `Tolerant`: its group is not read, and the
    // record reads as `Unknown`.
    let read: Vec<TolerantRow> = write_read(&rows).expect("reads");
    let transfer = Tolerant::Transfer("T".into());
    assert_eq!(
        read,
        [
            TolerantRow { id: 0, payment: Tolerant::Unknown },
            TolerantRow { id: 1, payment: transfer },
            TolerantRow { id: 2, payment: Tolerant::Unknown }
        ]
    );
    // A field of a variant the enum has, set under an unknown tag, is a mismatch.
    let message = write_read::<Raw, TolerantRow>(&[raw(0, "Crypto", Some("T"), false)])
        .expect_err("a field set under an unknown tag")
        .to_string();
    assert!(message.contains("the variant is `Unknown` but [\"Transfer\"] hold values"), "{message}");
    let levels: Vec<Levels> =
        write_read(&[Texts { level: "High".into() }, Texts { level: "Low".into() }]).expect("reads");
    assert_eq!(levels, [Levels { level: Level::Unknown }, Levels { level: Level::Low }]);
}

/// An Avro union of non-null branches, in parquet-avro's layout.
#[derive(ParquetType, Debug, Clone, PartialEq)]
#[parquet(union = "avro")]
pub(crate) enum Num {
    Int(i32),
    Text(String),
    Point { x: f64, y: f64 },
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
#[parquet(rename = "Measure")]
struct Measure {
    id: i32,
    maybe: Option<Num>,
    always: Num,
}

const MEASURE_AVRO: &str = r#"{"type": "record", "name": "Measure", "fields": [
    {"name": "id", "type": "int"},
    {"name": "maybe", "type": ["null", "int", "string",
        {"type": "record", "name": "Point", "fields": [{"name": "x", "type": "double"}, {"name": "y", "type": "double"}]}]},
    {"name": "always", "type": ["int", "string", "Point"]}
]}"#;

fn measures() -> Vec<Measure> {
    vec![
        Measure { id: 0, maybe: None, always: Num::Int(7) },
        Measure { id: 1, maybe: Some(Num::Text("seven".into())), always: Num::Point { x: 1.5, y: -2.0 } },
        Measure { id: 2, maybe: Some(Num::Point { x: 0.0, y: 3.25 }), always: Num::Text(String::new()) },
        Measure { id: 3, maybe: Some(Num::Int(-1)), always: Num::Int(i32::MIN) },
    ]
}

/// The Avro values of `measures()`.
fn measure_values() -> Vec<apache_avro::types::Value> {
    use apache_avro::types::Value;
    let point = |x: f64, y: f64| Value::Record(vec![("x".into(), Value::Double(x)), ("y".into(), Value::Double(y))]);
    let u = |branch: u32, v: Value| Value::Union(branch, Box::new(v));
    let row = |id: i32, maybe: Value, always: Value| {
        Value::Record(vec![("id".into(), Value::Int(id)), ("maybe".into(), maybe), ("always".into(), always)])
    };
    vec![
        row(0, u(0, Value::Null), u(0, Value::Int(7))),
        row(1, u(2, Value::String("seven".into())), u(2, point(1.5, -2.0))),
        row(2, u(3, point(0.0, 3.25)), u(1, Value::String(String::new()))),
        row(3, u(1, Value::Int(-1)), u(0, Value::Int(i32::MIN))),
    ]
}

fn measure_converter() -> avro_baseline::AvroConverter {
    let schema = apache_avro::Schema::parse_str(MEASURE_AVRO).expect("an Avro schema");
    avro_baseline::AvroConverter::new(schema, avro_baseline::AvroOptions::default()).expect("a converter")
}

#[test]
fn the_avro_union_layout_matches_the_avro_baselines_schema() {
    let ours = schema::to_text(&Measure::message().expect("a schema"));
    let theirs =
        schema::to_text(&magnolify_parquet::convert::RecordSchema::schema(&measure_converter()).expect("a schema"));
    // The same layout; parquet-avro leaves a 32-bit int unannotated, which
    // reads the same as INTEGER(32, true).
    assert_eq!(ours.replace(" (INTEGER(32,true))", ""), theirs);
    assert!(ours.contains("OPTIONAL group maybe {\n    OPTIONAL INT32 member0"), "{ours}");
}

#[test]
fn enums_read_the_unions_the_avro_baseline_writes_and_write_what_it_reads() {
    let mut writer =
        magnolify_parquet::ParquetWriter::with_converter(measure_converter(), Vec::new()).expect("a writer");
    for value in measure_values() {
        writer.write(&value).expect("an Avro record");
    }
    let file = bytes::Bytes::from(writer.into_inner().expect("a file"));
    let read: Vec<Measure> =
        magnolify_parquet::ParquetReader::new(file).expect("a reader").collect::<Result<_, _>>().expect("records");
    assert_eq!(read, measures());

    let ours = test_kit::io::file_of(&measures()).expect("a file");
    let values: Vec<apache_avro::types::Value> =
        magnolify_parquet::ParquetReader::with_converter(measure_converter(), ours)
            .expect("a reader")
            .collect::<Result<_, _>>()
            .expect("Avro records");
    assert_eq!(values, measure_values());
}

#[test]
fn a_union_with_no_member_or_two_set_is_an_error() {
    #[derive(ParquetType, Debug, Clone, PartialEq)]
    #[parquet(rename = "Measure")]
    struct RawMeasure {
        always: RawUnion,
    }
    #[derive(ParquetType, Debug, Clone, PartialEq)]
    struct RawUnion {
        member0: Option<i32>,
        member1: Option<String>,
    }
    #[derive(ParquetType, Debug, Clone, PartialEq)]
    struct Always {
        always: Num,
    }
    let cases = [
        (RawUnion { member0: None, member1: None }, "no member of the union is set"),
        (
            RawUnion { member0: Some(1), member1: Some("x".into()) },
            "members [\"member0\", \"member1\"] of the union are all set",
        ),
    ];
    for (bad, expected) in cases {
        let rows = [RawMeasure { always: RawUnion { member0: Some(3), member1: None } }, RawMeasure { always: bad }];
        let message = write_read::<RawMeasure, Always>(&rows).expect_err("a bad union").to_string();
        assert!(message.contains(expected), "{message}");
        assert!(message.contains("column `always`") && message.contains("record 1"), "{message}");
    }
}

/// Orders in row groups of 10, sorted by variant (Card, Cash, Transfer,
/// Voucher: 10 of each), so the tag's statistics rule row groups out.
fn sorted_orders() -> Vec<Order> {
    let mut rows = Vec::new();
    for id in 0..40u32 {
        let payment = match id / 10 {
            0 => card(&format!("{:04}", id)),
            1 => Payment::Cash,
            2 => Payment::Transfer(format!("DE{id}")),
            _ => {
                Payment::Voucher { code: (id % 2 == 0).then(|| format!("V{id}")), cached: 0, amounts: vec![id.into()] }
            }
        };
        let refund = (id % 3 == 0).then_some(Payment::Cash);
        let inner = Inner { last: None };
        rows.push(Order { id, payment, refund, history: vec![], by_shop: BTreeMap::new(), inner });
    }
    rows
}

fn filtered(
    rows: &[Order],
    predicate: magnolify_parquet::filter::Predicate<Order>,
) -> (Vec<u32>, magnolify_parquet::filter::FilterCounts) {
    let file = test_kit::io::file_with(magnolify_parquet::WriterBuilder::<Order>::new().max_row_group_rows(10), rows)
        .expect("a file");
    let options = magnolify_parquet::ReadOptions::default().filter(predicate);
    let mut reader =
        magnolify_parquet::ReaderBuilder::new(file).expect("a reader").build::<Order>(options).expect("a reader");
    let ids = reader.by_ref().map(|r| r.map(|o| o.id)).collect::<Result<Vec<_>, _>>().expect("records");
    (ids, reader.counts())
}

#[test]
fn predicates_address_the_tag_and_each_variants_data() {
    let rows = sorted_orders();
    let fields = Order::fields();
    let cases: Vec<(magnolify_parquet::filter::Predicate<Order>, Vec<u32>, usize)> = vec![
        // The tag, as SQL compares it: only the row group of cash payments is read.
        (fields.payment.variant.eq("Cash"), (10..20).collect(), 3),
        (fields.payment.variant.is_in(["Card", "Voucher"]), (0..10).chain(30..40).collect(), 2),
        // A newtype variant's value, null in the other variants' records.
        (fields.payment.Transfer.eq("DE25"), vec![25], 3),
        // (The row group of transfers has no null there: its null count rules it out.)
        (fields.payment.Transfer.is_null(), (0..20).chain(30..40).collect(), 1),
        // A struct variant's fields.
        (fields.payment.Card.last4.ge("0007"), vec![7, 8, 9], 3),
        (fields.payment.Voucher.code.starts_with("V3"), vec![30, 32, 34, 36, 38], 3),
        // The tag of an optional enum is nullable.
        (fields.refund.variant.is_null(), rows.iter().filter(|o| o.id % 3 != 0).map(|o| o.id).collect(), 0),
        (fields.refund.variant.eq("Cash"), rows.iter().filter(|o| o.id % 3 == 0).map(|o| o.id).collect(), 0),
    ];
    for (predicate, expected, skipped) in cases {
        let text = format!("{predicate:?}");
        let in_memory: Vec<u32> = rows.iter().filter(|o| predicate.test(o)).map(|o| o.id).collect();
        assert_eq!(in_memory, expected, "{text} in memory");
        let (ids, counts) = filtered(&rows, predicate);
        assert_eq!(ids, expected, "{text}");
        assert_eq!(counts.row_groups_skipped, skipped, "{text}: {counts:?}");
        assert_eq!(counts.row_groups_read + counts.row_groups_skipped, 4, "{text}");
    }
}

#[derive(ParquetType, Debug, PartialEq)]
struct PaidRef<'a> {
    id: u32,
    note: &'a str,
    payment: Payment,
}

#[test]
fn lending_readers_test_the_tag_and_variant_data_on_their_columns() {
    let rows: Vec<PaidRef<'_>> = sorted_orders()
        .into_iter()
        .map(|o| PaidRef { id: o.id, note: if o.id % 2 == 0 { "even" } else { "odd" }, payment: o.payment })
        .collect();
    let mut writer = magnolify_parquet::WriterBuilder::<PaidRef<'_>>::new()
        .max_row_group_rows(10)
        .data_page_rows(3)
        .build(Vec::new())
        .expect("a writer");
    for row in &rows {
        writer.write(row).expect("a record");
    }
    let file = bytes::Bytes::from(writer.into_inner().expect("a file"));
    let fields = PaidRef::fields();
    let predicates = [
        fields.payment.variant.eq("Transfer").and(fields.note.eq("odd")),
        fields.payment.Card.last4.le("0003"),
        fields.payment.Voucher.code.is_null().or(fields.payment.variant.eq("Cash")),
    ];
    for predicate in predicates {
        let text = format!("{predicate:?}");
        let expected: Vec<u32> = rows.iter().filter(|r| predicate.test(r)).map(|r| r.id).collect();
        assert!(!expected.is_empty(), "{text}");
        for threads in [1, 2] {
            let options =
                magnolify_parquet::ReadOptions::default().threads(threads).batch_size(4).filter(predicate.clone());
            let mut reader = magnolify_parquet::ReaderBuilder::new(file.clone())
                .expect("a reader")
                .build_borrowed::<PaidRef<'_>>(options)
                .expect("a reader");
            let mut ids = Vec::new();
            while let Some(batch) = reader.next_batch().expect("a batch") {
                ids.extend(batch.iter().map(|r| r.id));
            }
            assert_eq!(ids, expected, "{text} on {threads} threads");
        }
    }
}

mod cents {
    pub type Repr = i64;
    pub fn to_parquet(value: &f64) -> Result<i64, String> {
        Ok((value * 100.0).round() as i64)
    }
    pub fn from_parquet(repr: i64) -> Result<f64, std::convert::Infallible> {
        Ok(repr as f64 / 100.0)
    }
}

/// Struct variants take every field attribute: `with`, `default`, `skip`.
#[derive(ParquetType, Debug, Clone, PartialEq)]
enum Priced {
    Item {
        #[parquet(with = "cents")]
        price: f64,
        #[parquet(default)]
        note: String,
        #[parquet(rename = "qty", field_id = 3)]
        quantity: u16,
    },
    Free,
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct PricedRow {
    priced: Priced,
}

#[test]
fn struct_variants_take_with_default_and_rename() {
    let rows = [
        PricedRow { priced: Priced::Item { price: 2.5, note: "n".into(), quantity: 3 } },
        PricedRow { priced: Priced::Free },
    ];
    assert_eq!(via_file(&rows).expect("round trip"), rows);
    let text = schema::to_text(&PricedRow::message().expect("a schema"));
    assert!(text.contains("REQUIRED INT64 price (INTEGER(64,true));"), "{text}");
    assert!(text.contains("REQUIRED INT32 qty [3] (INTEGER(16,false));"), "{text}");
}

#[test]
fn a_filter_on_the_other_variant_prunes_nothing_and_tests_what_the_records_hold() {
    // Row groups of 10: "High" (no variant of `Level`: read as `Unknown`), then "Low".
    let texts: Vec<Texts> =
        (0..20).map(|i| Texts { level: if i < 10 { "High".into() } else { "Low".into() } }).collect();
    let file = test_kit::io::file_with(magnolify_parquet::WriterBuilder::<Texts>::new().max_row_group_rows(10), &texts)
        .expect("a file");
    for (predicate, read, skipped) in [
        (Levels::fields().level.eq(Level::Unknown), 10, 0),
        (Levels::fields().level.eq(Level::Low), 10, 1),
        (Levels::fields().level.ne(Level::Unknown), 10, 0),
    ] {
        let text = format!("{predicate:?}");
        for lending in [false, true] {
            let options = magnolify_parquet::ReadOptions::default().filter(predicate.clone());
            let builder = magnolify_parquet::ReaderBuilder::new(file.clone()).expect("a reader");
            let (levels, counts) = if lending {
                let mut reader = builder.build_borrowed::<Levels>(options).expect("a reader");
                let mut levels = Vec::new();
                while let Some(batch) = reader.next_batch().expect("a batch") {
                    levels.extend(batch.iter().map(|l| l.level));
                }
                (levels, reader.counts())
            } else {
                let mut reader = builder.build::<Levels>(options).expect("a reader");
                let levels =
                    reader.by_ref().map(|l| l.map(|l| l.level)).collect::<Result<Vec<_>, _>>().expect("records");
                (levels, reader.counts())
            };
            assert_eq!(levels.len(), read, "{text}, lending {lending}");
            assert!(levels.iter().all(|l| predicate.test(&Levels { level: *l })), "{text}");
            assert_eq!(counts.row_groups_skipped, skipped, "{text}, lending {lending}");
        }
    }
}
