//! Every Avro type and logical type through `AvroConverter`: into a
//! `MemPageStore` and into files and back, in both list layouts; nulls,
//! empty arrays and maps, records in arrays in maps; values that do not fit
//! the schema give errors naming their path.

use std::collections::HashMap;

use apache_avro::types::Value;
use apache_avro::{BigDecimal, Days, Decimal, Duration, Millis, Months, Schema, Uuid};
use avro_baseline::{AvroConverter, AvroOptions, ListLayout, AVRO_SCHEMA_KEY};
use magnolify_parquet::convert::ColumnSink;
use magnolify_parquet::convert::RecordSource;
use magnolify_parquet::convert::{RecordRead, RecordReadOwned, RecordSchema, RecordWrite};
use magnolify_parquet::mem::MemPageStore;
use magnolify_parquet::parquet::file::metadata::KeyValue;
use magnolify_parquet::parquet::schema::types::{SchemaDescriptor, TypePtr};
use magnolify_parquet::{schema, ParquetReader, ReaderBuilder};
use test_kit::json::sorted_keys;

/// Every Avro type: primitives, logical types, unions, records used twice,
/// arrays and maps of each.
const ALL: &str = include_str!("data/all.avsc");

/// The Parquet schema of `ALL` in parquet-avro's two-level layout.
const ALL_TWO_LEVEL: &str = include_str!("data/all.two-level.txt");

fn all_schema() -> Schema {
    Schema::parse_str(ALL).unwrap()
}

fn converter(layout: ListLayout) -> AvroConverter {
    AvroConverter::new(all_schema(), AvroOptions::new().list_layout(layout)).unwrap()
}

fn s(v: &str) -> Value {
    Value::String(v.to_owned())
}

fn some(branch: u32, v: Value) -> Value {
    Value::Union(branch, Box::new(v))
}

fn null(branch: u32) -> Value {
    Value::Union(branch, Box::new(Value::Null))
}

fn inner(x: i32, y: Option<&str>) -> Value {
    Value::Record(vec![("x".into(), Value::Int(x)), ("y".into(), y.map_or(null(0), |y| some(1, s(y))))])
}

fn map(entries: Vec<(&str, Value)>) -> Value {
    Value::Map(entries.into_iter().map(|(k, v)| (k.to_owned(), v)).collect::<HashMap<_, _>>())
}

/// Record `k` of the test set. Null array elements only where the layout holds them.
fn record(k: i32, null_elements: bool) -> Value {
    let full = k % 2 == 0;
    let fields: Vec<(&str, Value)> = vec![
        ("b", Value::Boolean(full)),
        ("i", Value::Int(if full { i32::MIN + k } else { i32::MAX - k })),
        ("l", Value::Long(i64::MIN + i64::from(k))),
        ("f", Value::Float(1.5 * k as f32)),
        ("d", Value::Double(-2.25 * f64::from(k))),
        ("by", Value::Bytes(if full { vec![0, 1, 2, 255] } else { vec![] })),
        ("s", s(if full { "héllo" } else { "" })),
        ("e", Value::Enum((k % 3) as u32, ["RED", "GREEN", "BLUE"][(k % 3) as usize].into())),
        ("fx", Value::Fixed(4, vec![k as u8, 0xFF, 0, 7])),
        ("dec_b", Value::Decimal(Decimal::from(if full { vec![0x01, 0xE2, 0x40] } else { vec![0xFF, 0x85] }))),
        ("dec_f", Value::Decimal(Decimal::from((-12345678901i64 * i64::from(k + 1)).to_be_bytes()))),
        ("big", Value::BigDecimal(format!("-{k}12345678901234567890.0001").parse::<BigDecimal>().unwrap())),
        ("id", Value::Uuid(Uuid::from_u128(0x0123_4567_89ab_cdef_0123_4567_89ab_cdef ^ k as u128))),
        ("day", Value::Date(19_000 + k)),
        ("tmil", Value::TimeMillis(86_399_999 - k)),
        ("tmic", Value::TimeMicros(86_399_999_999 - i64::from(k))),
        ("tsm", Value::TimestampMillis(1_700_000_000_000 + i64::from(k))),
        ("tsu", Value::TimestampMicros(-1_700_000_000_000_000 + i64::from(k))),
        ("tsn", Value::TimestampNanos(1_700_000_000_000_000_000 + i64::from(k))),
        ("ltsm", Value::LocalTimestampMillis(i64::from(k))),
        ("ltsu", Value::LocalTimestampMicros(-i64::from(k))),
        ("ltsn", Value::LocalTimestampNanos(i64::MAX - i64::from(k))),
        ("dur", Value::Duration(Duration::new(Months::new(k as u32), Days::new(2), Millis::new(u32::MAX)))),
        ("ns", if full { some(1, s("present")) } else { null(0) }),
        ("sn", if full { null(1) } else { some(0, s("first")) }),
        ("u", [null(0), some(1, Value::Int(-k)), some(2, s("text"))][(k % 3) as usize].clone()),
        ("nothing", Value::Null),
        ("r", inner(k, if full { Some("y") } else { None })),
        ("u2", if full { some(0, Value::Int(k)) } else { some(1, inner(-k, Some("in union"))) }),
        ("or", if full { some(1, inner(7, None)) } else { null(0) }),
        ("arr", Value::Array(if full { vec![Value::Int(1), Value::Int(2), Value::Int(3)] } else { vec![] })),
        (
            "arr_n",
            Value::Array(if null_elements {
                vec![some(1, Value::Long(1)), null(0), some(1, Value::Long(3))]
            } else {
                vec![some(1, Value::Long(1)), some(1, Value::Long(3))]
            }),
        ),
        ("arr_r", Value::Array(if full { vec![inner(1, None), inner(2, Some("b"))] } else { vec![] })),
        (
            "arr_arr",
            Value::Array(vec![Value::Array(vec![]), Value::Array(vec![s("a"), s("b")]), Value::Array(vec![s("c")])]),
        ),
        ("m", if full { map(vec![("one", Value::Int(1)), ("two", Value::Int(2))]) } else { map(vec![]) }),
        ("m_n", map(vec![("set", some(1, s("v"))), ("unset", null(0))])),
        (
            "m_r",
            map(vec![
                ("empty", Value::Array(vec![])),
                ("two", Value::Array(vec![inner(1, Some("a")), inner(2, None)])),
            ]),
        ),
        ("om", if full { some(1, map(vec![])) } else { some(1, map(vec![("k", Value::Long(9))])) }),
        ("oarr", if full { null(0) } else { some(1, Value::Array(vec![s("x")])) }),
    ];
    Value::Record(fields.into_iter().map(|(n, v)| (n.to_owned(), v)).collect())
}

fn records(null_elements: bool) -> Vec<Value> {
    (0..7).map(|k| record(k, null_elements)).collect()
}

#[test]
fn test_records_validate_against_the_schema() {
    let schema = all_schema();
    for r in records(true) {
        assert!(r.validate(&schema), "{r:?}");
    }
}

#[test]
fn parquet_schema_follows_parquet_avro_two_level() {
    let text = schema::to_text(&converter(ListLayout::TwoLevel).parquet_schema());
    assert_eq!(text, ALL_TWO_LEVEL);
}

#[test]
fn parquet_schema_three_level() {
    let text = schema::to_text(&converter(ListLayout::ThreeLevel).parquet_schema());
    for expected in [
        "  REQUIRED group arr (LIST) {\n    REPEATED group list {\n      REQUIRED INT32 element;\n    }\n  }\n",
        "  REQUIRED group arr_n (LIST) {\n    REPEATED group list {\n      OPTIONAL INT64 element;\n    }\n  }\n",
        "  REQUIRED group arr_arr (LIST) {\n    REPEATED group list {\n      REQUIRED group element (LIST) {\n        REPEATED group list {\n          REQUIRED BYTE_ARRAY element (STRING);\n",
        "  OPTIONAL group oarr (LIST) {\n    REPEATED group list {\n      REQUIRED BYTE_ARRAY element (STRING);\n",
    ] {
        assert!(text.contains(expected), "missing\n{expected}\nin\n{text}");
    }
}

#[test]
fn options_change_the_parquet_form() {
    let opts = AvroOptions::new().parquet_uuid(true).nanos_timestamps(false).integer_annotations(true);
    let text = schema::to_text(&AvroConverter::new(all_schema(), opts).unwrap().parquet_schema());
    for expected in [
        "REQUIRED FIXED_LEN_BYTE_ARRAY (16) id (UUID);",
        "REQUIRED INT64 tsn;",
        "REQUIRED INT64 ltsn;",
        "REQUIRED INT32 i (INTEGER(32,true));",
        "REQUIRED INT64 l (INTEGER(64,true));",
    ] {
        assert!(text.contains(expected), "missing {expected} in\n{text}");
    }
}

fn mem_round_trip(conv: &AvroConverter, values: &[Value]) -> Vec<Value> {
    let mut w = MemPageStore::writer(conv.clone()).unwrap();
    for v in values {
        w.write(v).unwrap();
    }
    let store = w.close().unwrap();
    assert_eq!(store.num_rows(), values.len());
    store.reader(conv.clone()).unwrap().collect::<Result<Vec<_>, _>>().unwrap()
}

fn file_bytes<C: for<'a> RecordWrite<Record<'a> = Value>>(conv: C, values: &[Value]) -> bytes::Bytes {
    let mut w = magnolify_parquet::WriterBuilder::with_converter(conv)
        .max_row_group_rows(3)
        .batch_size(2)
        .build(Vec::new())
        .unwrap();
    for v in values {
        w.write(v).unwrap();
    }
    bytes::Bytes::from(w.into_inner().unwrap())
}

#[test]
fn every_type_round_trips_through_the_mem_store_two_level() {
    let values = records(false);
    assert_eq!(mem_round_trip(&converter(ListLayout::TwoLevel), &values), values);
}

#[test]
fn every_type_round_trips_through_the_mem_store_three_level() {
    let values = records(true);
    assert_eq!(mem_round_trip(&converter(ListLayout::ThreeLevel), &values), values);
}

#[test]
fn every_type_round_trips_through_files_in_both_layouts() {
    for (layout, null_elements) in [(ListLayout::TwoLevel, false), (ListLayout::ThreeLevel, true)] {
        let values = records(null_elements);
        let file = file_bytes(converter(layout), &values);
        let reader = ParquetReader::with_converter(converter(layout), file.clone()).unwrap();
        assert_eq!(reader.metadata().num_row_groups(), 3, "{layout:?}");
        let back = reader.collect::<Result<Vec<_>, _>>().unwrap();
        assert_eq!(back, values, "{layout:?}");

        // The footer carries the Avro schema; a converter made from it reads the same values.
        let meta = ParquetReader::with_converter(converter(layout), file.clone()).unwrap().metadata().clone();
        let kv = meta.file_metadata().key_value_metadata().unwrap();
        let stored = kv.iter().find(|kv| kv.key == AVRO_SCHEMA_KEY).and_then(|kv| kv.value.clone()).unwrap();
        assert_eq!(Schema::parse_str(&stored).unwrap(), all_schema());
        assert!(kv.iter().any(|kv| kv.key == "writer.model.name" && kv.value.as_deref() == Some("avro")));
        let for_file = AvroConverter::for_file(&meta, AvroOptions::default()).unwrap();
        assert_eq!(for_file.avro_schema(), &all_schema());
        let back = ParquetReader::with_converter(for_file, file).unwrap().collect::<Result<Vec<_>, _>>().unwrap();
        assert_eq!(back, values, "{layout:?} via for_file");
    }
}

#[test]
fn a_file_in_one_layout_reads_with_a_converter_of_the_other() {
    let values = records(false);
    let file = file_bytes(converter(ListLayout::TwoLevel), &values);
    let back = ParquetReader::with_converter(converter(ListLayout::ThreeLevel), file).unwrap();
    assert_eq!(back.collect::<Result<Vec<_>, _>>().unwrap(), values);
    let file = file_bytes(converter(ListLayout::ThreeLevel), &values);
    let back = ParquetReader::with_converter(converter(ListLayout::TwoLevel), file).unwrap();
    assert_eq!(back.collect::<Result<Vec<_>, _>>().unwrap(), values);
}

#[test]
fn sorted_map_keys_give_identical_files() {
    let opts = AvroOptions::new().sort_map_keys(true);
    let conv = AvroConverter::new(all_schema(), opts).unwrap();
    let values = records(false);
    assert_eq!(mem_round_trip(&conv, &values), values);
    // HashMaps with the same entries, built in different orders (and different hash seeds).
    let a = file_bytes(conv.clone(), &values);
    let b = file_bytes(conv, &records(false));
    assert_eq!(a, b);
}

const SMALL: &str = r#"{
  "type": "record", "name": "Nested",
  "fields": [
    {"name": "b", "type": "boolean"},
    {"name": "o", "type": ["null", {"type": "record", "name": "Required", "fields": [
      {"name": "b", "type": "boolean"}, {"name": "i", "type": "int"}, {"name": "s", "type": "string"}
    ]}], "default": null},
    {"name": "l", "type": {"type": "array", "items": ["null", "int"]}},
    {"name": "u", "type": ["null", "int", "string"], "default": null},
    {"name": "st", "type": ["null", "string"], "default": null},
    {"name": "e", "type": {"type": "enum", "name": "E", "symbols": ["A", "B"]}},
    {"name": "fx", "type": {"type": "fixed", "name": "F", "size": 2}},
    {"name": "dec", "type": {"type": "fixed", "name": "D", "size": 2, "logicalType": "decimal", "precision": 4, "scale": 0}},
    {"name": "uuid", "type": {"type": "string", "logicalType": "uuid"}}
  ]
}"#;

fn small(o: Value, l: Vec<Value>, u: Value) -> Value {
    Value::Record(vec![
        ("b".into(), Value::Boolean(true)),
        ("o".into(), o),
        ("l".into(), Value::Array(l)),
        ("u".into(), u),
        ("st".into(), null(0)),
        ("e".into(), Value::Enum(1, "B".into())),
        ("fx".into(), Value::Fixed(2, vec![1, 2])),
        ("dec".into(), Value::Decimal(Decimal::from([0x01, 0x00]))),
        ("uuid".into(), Value::Uuid(Uuid::nil())),
    ])
}

/// `small` with no option, list or union, and field `index` set to `value`.
fn small_with(index: usize, value: Value) -> Value {
    let mut record = small(null(0), vec![], null(0));
    if let Value::Record(fields) = &mut record {
        fields[index].1 = value;
    }
    record
}

fn required(s: Value) -> Value {
    Value::Record(vec![("b".into(), Value::Boolean(false)), ("i".into(), Value::Int(1)), ("s".into(), s)])
}

/// Writes `bad` into a store and returns the error text; checks the store then
/// holds exactly the good records written around it.
fn write_error(layout: ListLayout, bad: Value) -> String {
    let conv = AvroConverter::new(Schema::parse_str(SMALL).unwrap(), AvroOptions::new().list_layout(layout)).unwrap();
    let good = small(null(0), vec![], null(0));
    let mut w = MemPageStore::writer(conv.clone()).unwrap();
    w.write(&good).unwrap();
    let err = w.write(&bad).expect_err("the value does not fit").to_string();
    w.write(&good).unwrap();
    let store = w.close().unwrap();
    let back = store.reader(conv).unwrap().collect::<Result<Vec<_>, _>>().unwrap();
    assert_eq!(back, [good.clone(), good]);
    err
}

#[test]
fn bad_values_are_errors_with_their_path() {
    let three = ListLayout::ThreeLevel;
    let err = write_error(three, small(some(1, required(Value::Int(3))), vec![], null(0)));
    assert!(err.contains("`o.s`") && err.contains("expected string, found Int(3)"), "{err}");

    let short = Value::Record(vec![("b".into(), Value::Boolean(true))]);
    let err = write_error(three, short);
    assert!(err.contains("record Nested has 9 fields, the value has 1"), "{err}");

    let err = write_error(three, small(null(0), vec![Value::String("x".into())], null(0)));
    assert!(err.contains("`l[]`") && err.contains("expected int, found String(\"x\")"), "{err}");

    let err = write_error(three, small(null(0), vec![], some(7, Value::Int(1))));
    assert!(err.contains("`u`") && err.contains("union branch 7 does not exist"), "{err}");

    let err = write_error(three, small(null(0), vec![], Value::Boolean(true)));
    assert!(err.contains("`u`") && err.contains("found Boolean(true)"), "{err}");

    let err = write_error(three, small(some(0, required(s("x"))), vec![], null(0)));
    assert!(err.contains("`o`") && err.contains("null in the null branch"), "{err}");

    let err = write_error(three, small_with(6, Value::Fixed(3, vec![1, 2, 3])));
    assert!(err.contains("`fx`") && err.contains("3 bytes for a fixed(2)"), "{err}");

    let err = write_error(three, small_with(5, s("C")));
    assert!(err.contains("`e`") && err.contains("\"C\" is not a symbol"), "{err}");

    let err = write_error(three, small_with(7, Value::Decimal(Decimal::from([0x01, 0x00, 0x00]))));
    assert!(err.contains("`dec`") && err.contains("does not fit fixed(2)"), "{err}");

    let err = write_error(three, small_with(8, s("not-a-uuid")));
    assert!(err.contains("`uuid`") && err.contains("is not a UUID"), "{err}");

    // The two-level layout has no room for a null element, as in parquet-avro.
    let err = write_error(ListLayout::TwoLevel, small(null(0), vec![some(1, Value::Int(1)), null(0)], null(0)));
    assert!(err.contains("`l[]`") && err.contains("ListLayout::ThreeLevel"), "{err}");
}

#[test]
fn field_names_are_checked_only_on_request() {
    let renamed = |v: Value| match v {
        Value::Record(mut fields) => {
            fields[0].0 = "renamed".into();
            Value::Record(fields)
        }
        other => other,
    };
    let value = renamed(small(null(0), vec![], null(0)));
    let opts = AvroOptions::new().list_layout(ListLayout::ThreeLevel);
    let conv = AvroConverter::new(Schema::parse_str(SMALL).unwrap(), opts).unwrap();
    let mut w = MemPageStore::writer(conv).unwrap();
    w.write(&value).unwrap();

    let conv = AvroConverter::new(Schema::parse_str(SMALL).unwrap(), opts.check_field_names(true)).unwrap();
    let mut w = MemPageStore::writer(conv).unwrap();
    let err = w.write(&value).unwrap_err().to_string();
    assert!(err.contains("`b`") && err.contains("field `renamed` found at its position"), "{err}");
}

#[test]
fn bare_values_are_accepted_and_read_back_as_unions() {
    let opts = AvroOptions::new().list_layout(ListLayout::ThreeLevel);
    let conv = AvroConverter::new(Schema::parse_str(SMALL).unwrap(), opts).unwrap();
    let bare = Value::Record(vec![
        ("b".into(), Value::Boolean(true)),
        ("o".into(), required(s("plain"))),
        ("l".into(), Value::Array(vec![Value::Int(4), Value::Null])),
        ("u".into(), s("second member")),
        ("st".into(), Value::Null),
        ("e".into(), s("A")),
        ("fx".into(), Value::Bytes(vec![9, 9])),
        ("dec".into(), Value::Fixed(2, vec![0xFF, 0xFE])),
        ("uuid".into(), s("67e55044-10b1-426f-9247-bb680e5fe0c8")),
    ]);
    let expected = Value::Record(vec![
        ("b".into(), Value::Boolean(true)),
        ("o".into(), some(1, required(s("plain")))),
        ("l".into(), Value::Array(vec![some(1, Value::Int(4)), null(0)])),
        ("u".into(), some(2, s("second member"))),
        ("st".into(), null(0)),
        ("e".into(), Value::Enum(0, "A".into())),
        ("fx".into(), Value::Fixed(2, vec![9, 9])),
        ("dec".into(), Value::Decimal(Decimal::from([0xFF, 0xFE]))),
        ("uuid".into(), Value::Uuid(Uuid::parse_str("67e55044-10b1-426f-9247-bb680e5fe0c8").unwrap())),
    ]);
    assert_eq!(mem_round_trip(&conv, &[bare]), [expected]);
}

#[test]
fn schemas_without_a_parquet_form_are_rejected() {
    let cases = [
        (r#"{"type": "array", "items": "int"}"#, "must be a record"),
        (r#"{"type": "record", "name": "E", "fields": []}"#, "no non-null field"),
        (r#"{"type": "record", "name": "N", "fields": [{"name": "n", "type": "null"}]}"#, "no non-null field"),
        (
            r#"{"type": "record", "name": "L", "fields": [{"name": "next", "type": ["null", "L"]}, {"name": "v", "type": "int"}]}"#,
            "recursive",
        ),
    ];
    for (json, expected) in cases {
        let err = AvroConverter::from_json(json, AvroOptions::default()).unwrap_err().to_string();
        assert!(err.contains(expected), "{json}: {err}");
    }
    // A nullable array cannot use the bare repeated layout.
    let json = r#"{"type": "record", "name": "R", "fields": [{"name": "xs", "type": ["null", {"type": "array", "items": "int"}]}]}"#;
    let err = AvroConverter::from_json(json, AvroOptions::new().list_layout(ListLayout::Repeated)).unwrap_err();
    assert!(err.to_string().contains("xs"), "{err}");
}

#[test]
fn repeated_layout_round_trips() {
    let json = r#"{"type": "record", "name": "R", "fields": [
        {"name": "xs", "type": {"type": "array", "items": "int"}},
        {"name": "rs", "type": {"type": "array", "items": {"type": "record", "name": "P", "fields": [{"name": "v", "type": "string"}]}}}
    ]}"#;
    let conv = AvroConverter::from_json(json, AvroOptions::new().list_layout(ListLayout::Repeated)).unwrap();
    let text = schema::to_text(&conv.parquet_schema());
    assert_eq!(
        text,
        "message R {\n  REPEATED INT32 xs;\n  REPEATED group rs {\n    REQUIRED BYTE_ARRAY v (STRING);\n  }\n}\n"
    );
    let p = |v: &str| Value::Record(vec![("v".into(), s(v))]);
    let values = vec![
        Value::Record(vec![("xs".into(), Value::Array(vec![])), ("rs".into(), Value::Array(vec![p("a")]))]),
        Value::Record(vec![
            ("xs".into(), Value::Array(vec![Value::Int(1), Value::Int(2)])),
            ("rs".into(), Value::Array(vec![])),
        ]),
    ];
    assert_eq!(mem_round_trip(&conv, &values), values);
}

/// The converter without its footer entries: a file as another writer would make it.
struct NoFooter(AvroConverter);

impl RecordSchema for NoFooter {
    fn schema(&self) -> magnolify_parquet::Result<TypePtr> {
        self.0.schema()
    }
    fn key_value_metadata(&self) -> Vec<KeyValue> {
        Vec::new()
    }
}

impl RecordWrite for NoFooter {
    type Record<'a> = Value;
    fn write(&self, record: &Value, sink: &mut ColumnSink) -> magnolify_parquet::Result<()> {
        self.0.write(record, sink)
    }
}

impl RecordRead for NoFooter {
    type Record<'de> = Value;
    type ReadPlan = avro_baseline::ReadPlan;
    fn resolve(&self, file: &SchemaDescriptor) -> magnolify_parquet::Result<(Self::ReadPlan, Vec<usize>)> {
        self.0.resolve(file)
    }
    fn read<'de>(&self, plan: &Self::ReadPlan, source: &mut RecordSource<'de>) -> magnolify_parquet::Result<Value> {
        self.0.read(plan, source)
    }
}

impl RecordReadOwned for NoFooter {
    type Owned = Value;
}

#[test]
fn files_without_an_avro_schema_read_with_a_derived_one() {
    for layout in [ListLayout::TwoLevel, ListLayout::ThreeLevel] {
        let conv =
            AvroConverter::new(Schema::parse_str(SMALL).unwrap(), AvroOptions::new().list_layout(layout)).unwrap();
        let value = small(some(1, required(s("r"))), vec![some(1, Value::Int(5))], some(2, s("t")));
        let file = file_bytes(NoFooter(conv), std::slice::from_ref(&value));
        let meta = ParquetReader::with_converter(converter(layout), file.clone()).map(|r| r.metadata().clone());
        // `converter(layout)` is the wrong schema for this file: resolution fails, naming a field.
        assert!(meta.is_err());
        let builder = ReaderBuilder::new(file.clone()).unwrap();
        let derived = AvroConverter::for_file(builder.metadata(), AvroOptions::default()).unwrap();
        let json: serde_json::Value = serde_json::from_str(derived.avro_schema_json()).unwrap();
        let types: Vec<String> =
            json["fields"].as_array().unwrap().iter().map(|f| sorted_keys(&f["type"]).to_string()).collect();
        assert_eq!(types[0], "\"boolean\"");
        assert!(types[1].starts_with("[\"null\",{\"fields\":[{\"name\":\"b\""), "{}", types[1]);
        // Two-level elements are never null; three-level ones are optional, as written.
        let (items, element) = match layout {
            ListLayout::TwoLevel => ("\"int\"", Value::Int(5)),
            _ => ("[\"null\",\"int\"]", some(1, Value::Int(5))),
        };
        assert_eq!(types[2], format!("{{\"items\":{items},\"type\":\"array\"}}"), "{layout:?}");
        assert!(types[3].contains("\"name\":\"member0\""), "{}", types[3]);
        assert_eq!(types[5], "\"string\"");
        assert!(types[7].contains("\"logicalType\":\"decimal\""), "{}", types[7]);
        assert_eq!(types[8], "\"string\"");

        let back = ParquetReader::with_converter(derived, file).unwrap().collect::<Result<Vec<_>, _>>().unwrap();
        let member =
            |m0: Value, m1: Value| some(1, Value::Record(vec![("member0".into(), m0), ("member1".into(), m1)]));
        let expected = Value::Record(vec![
            ("b".into(), Value::Boolean(true)),
            ("o".into(), some(1, required(s("r")))),
            ("l".into(), Value::Array(vec![element.clone()])),
            ("u".into(), member(null(0), some(1, s("t")))),
            ("st".into(), null(0)),
            ("e".into(), s("B")),
            ("fx".into(), Value::Fixed(2, vec![1, 2])),
            ("dec".into(), Value::Decimal(Decimal::from([0x01, 0x00]))),
            ("uuid".into(), s("00000000-0000-0000-0000-000000000000")),
        ]);
        assert_eq!(back, [expected], "{layout:?}");
    }
}

#[test]
fn parquet_schemas_of_other_writers_map_to_avro() {
    use magnolify_parquet::parquet::schema::parser::parse_message_type;
    let parquet = parse_message_type(
        "message spark_schema {
            required int32 a (INTEGER(8,true));
            optional int32 u32 (INTEGER(32,false));
            required int64 d (DECIMAL(12,3));
            required int64 ts (TIMESTAMP(NANOS,false));
            required fixed_len_byte_array(16) id (UUID);
            required fixed_len_byte_array(12) iv (INTERVAL);
            required binary j (JSON);
            repeated int32 bare;
            optional group m (MAP) { repeated group key_value { required binary key (UTF8); } }
            optional group legacy (LIST) { repeated group bag { optional binary array_element (UTF8); } }
            required group r { required int32 x; }
            required group s { required group r { required int32 y; } }
        }",
    )
    .unwrap();
    let avro =
        avro_baseline::avro_schema_of(&SchemaDescriptor::new(std::sync::Arc::new(parquet)), &AvroOptions::default())
            .unwrap();
    let json = serde_json::to_value(&avro).unwrap();
    let ty = |i: usize| sorted_keys(&json["fields"][i]["type"]).to_string();
    assert_eq!(json["name"], "spark_schema");
    assert_eq!(ty(0), "\"int\"");
    assert_eq!(ty(1), "[\"null\",\"long\"]");
    assert_eq!(ty(2), "{\"logicalType\":\"decimal\",\"precision\":12,\"scale\":3,\"type\":\"bytes\"}");
    assert_eq!(ty(3), "{\"logicalType\":\"local-timestamp-nanos\",\"type\":\"long\"}");
    assert_eq!(ty(4), "{\"logicalType\":\"uuid\",\"type\":\"string\"}");
    assert!(ty(5).contains("\"logicalType\":\"duration\""), "{}", ty(5));
    assert_eq!(ty(6), "\"bytes\"");
    assert_eq!(ty(7), "{\"items\":\"int\",\"type\":\"array\"}");
    assert_eq!(json["fields"][7]["default"], serde_json::json!([]));
    assert_eq!(ty(8), "[\"null\",{\"type\":\"map\",\"values\":\"null\"}]");
    assert_eq!(ty(9), "[\"null\",{\"items\":[\"null\",\"string\"],\"type\":\"array\"}]");
    // Two records named `r`: the second gets a namespace, as parquet-avro does.
    assert!(ty(10).contains("\"name\":\"r\""), "{}", ty(10));
    assert!(ty(11).contains("\"name\":\"r\",\"namespace\":\"r2\""), "{}", ty(11));

    let int96 = parse_message_type("message m { required int96 t; }").unwrap();
    let descr = SchemaDescriptor::new(std::sync::Arc::new(int96));
    let err = avro_baseline::avro_schema_of(&descr, &AvroOptions::default()).unwrap_err().to_string();
    assert!(err.contains("`t`") && err.contains("read_int96_as_fixed"), "{err}");
    let avro = avro_baseline::avro_schema_of(&descr, &AvroOptions::new().read_int96_as_fixed(true)).unwrap();
    assert!(serde_json::to_string(&avro).unwrap().contains("\"size\":12"));
}
