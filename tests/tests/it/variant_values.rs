//! VARIANT columns (feature `variant`): `VariantValue` written and read
//! back, Spark 4.3's columns unshredded and shredded, DuckDB 2.0's (which
//! shreds on its own), and the errors for bytes that are not Variant values.

use magnolify_parquet::{schema, ParquetReader, ParquetRecord, ParquetType, ParquetWriter, VariantValue};
use serde_json::{json, Value};

#[derive(ParquetType, Debug, Clone, PartialEq)]
pub(crate) struct Event {
    pub(crate) id: i32,
    pub(crate) v: Option<VariantValue>,
}

/// The fixtures' documents, by id (`tests/fixtures/variant/events.expected.json`).
fn expected_documents() -> Vec<(i32, Value)> {
    let text = std::fs::read_to_string(test_kit::fixtures::dir().join("variant/events.expected.json"))
        .expect("the expectations");
    let doc: Value = serde_json::from_str(&text).expect("JSON");
    doc["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|row| (row["id"].as_i64().expect("an id") as i32, row["v"].clone()))
        .collect()
}

/// The documents of a fixture, by id (`None` for a SQL null).
fn read_fixture(name: &str) -> Vec<(i32, Option<Value>)> {
    let path = test_kit::fixtures::dir().join("variant").join(name);
    let reader = ParquetReader::<Event, _>::open(&path).expect("a reader");
    reader
        .map(|event| {
            let event = event.expect("a record");
            (event.id, event.v.map(|v| v.to_json().expect("JSON")))
        })
        .collect()
}

#[test]
fn spark_writes_variants_unshredded_and_shredded_and_both_read() {
    let expected: Vec<(i32, Option<Value>)> = expected_documents().into_iter().map(|(id, v)| (id, Some(v))).collect();
    assert_eq!(expected.len(), 8);
    assert_eq!(read_fixture("events.spark.parquet"), expected);
    assert_eq!(read_fixture("events.spark-shredded.parquet"), expected);
}

#[test]
fn duckdb_shreds_variants_on_its_own_and_they_read() {
    // DuckDB casts the JSON document `null` (id 7) to a SQL NULL.
    let expected: Vec<(i32, Option<Value>)> =
        expected_documents().into_iter().map(|(id, v)| (id, (!v.is_null()).then_some(v))).collect();
    assert_eq!(expected[7], (7, None));
    assert_eq!(read_fixture("events.duckdb.parquet"), expected);
}

#[test]
fn variants_round_trip_with_the_types_json_lacks() {
    let date = chrono::NaiveDate::from_ymd_opt(2026, 12, 6).expect("a date");
    let values = [
        VariantValue::from_json(&json!({"a": 1, "b": [true, null, "x"], "c": {"d": -2.5}})).expect("a value"),
        VariantValue::from_variant(date).expect("a value"),
        VariantValue::from_variant(&b"\x00\xffbytes"[..]).expect("a value"),
        VariantValue::from_json(&json!(null)).expect("a value"),
    ];
    let rows: Vec<Event> = values
        .iter()
        .enumerate()
        .map(|(i, v)| Event { id: i as i32, v: Some(v.clone()) })
        .chain([Event { id: 9, v: None }])
        .collect();
    let mut writer = ParquetWriter::<Event, _>::new(Vec::new()).expect("a writer");
    for row in &rows {
        writer.write(row).expect("a record");
    }
    let file = bytes::Bytes::from(writer.into_inner().expect("a file"));
    let read: Vec<Event> = ParquetReader::new(file).expect("a reader").collect::<Result<_, _>>().expect("records");
    assert_eq!(read, rows);
    assert_eq!(read[1].v.as_ref().expect("a value").variant().expect("a variant").as_naive_date(), Some(date));
    assert_eq!(read[2].v.as_ref().expect("a value").to_json().expect("JSON"), json!("AP9ieXRlcw=="));
}

#[test]
fn the_schema_is_the_variant_group() {
    let text = schema::to_text(&Event::message().expect("a schema"));
    assert!(
        text.contains("OPTIONAL group v (VARIANT(Some(1))) {\n    REQUIRED BYTE_ARRAY metadata;\n    REQUIRED BYTE_ARRAY value;\n  }"),
        "{text}"
    );
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
#[parquet(rename = "Event")]
pub(crate) struct RawEvent {
    pub(crate) id: i32,
    pub(crate) v: Option<RawVariant>,
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
pub(crate) struct RawVariant {
    pub(crate) metadata: Vec<u8>,
    pub(crate) value: Vec<u8>,
}

#[test]
fn bytes_that_are_no_variant_are_an_error_naming_the_column_and_the_record() {
    let good = VariantValue::from_json(&json!({"k": 1})).expect("a value");
    let raw = |id: i32, metadata: &[u8], value: &[u8]| RawEvent {
        id,
        v: Some(RawVariant { metadata: metadata.to_vec(), value: value.to_vec() }),
    };
    let rows = [raw(0, good.metadata(), good.value()), raw(1, good.metadata(), &[0xff, 0x01])];
    let message = test_kit::io::write_read::<RawEvent, Event>(&rows).expect_err("a bad value").to_string();
    assert!(message.contains("not a Variant value"), "{message}");
    assert!(message.contains("column `v`") && message.contains("record 1"), "{message}");
    assert!(VariantValue::from_parts(vec![1], vec![0xff]).is_err());
}

// Shredded layouts written by hand, for what the fixtures do not hold.
#[derive(ParquetType, Debug, Clone, PartialEq)]
#[parquet(rename = "Event")]
struct ShreddedEvent {
    id: i32,
    v: ShreddedObject,
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct ShreddedObject {
    metadata: Vec<u8>,
    value: Option<Vec<u8>>,
    typed_value: Option<ObjectFields>,
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct ObjectFields {
    a: ShreddedInt,
    list: ShreddedList,
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct ShreddedInt {
    value: Option<Vec<u8>>,
    typed_value: Option<i64>,
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct ShreddedList {
    value: Option<Vec<u8>>,
    typed_value: Option<Vec<ShreddedInt>>,
}

fn shredded(id: i32, residual: Option<Value>, a: Option<i64>, list: Option<Vec<Option<i64>>>) -> ShreddedEvent {
    // One metadata for every value, which the residual objects refer to.
    let encode = |doc: &Value| {
        let mut builder = parquet_variant::VariantBuilder::new().with_field_names(["a", "b"]);
        parquet_variant_json::append_json(doc, &mut builder).expect("a document");
        builder.finish()
    };
    let (metadata, _) = encode(&json!(null));
    let residual = residual.map(|doc| {
        let (residual_metadata, value) = encode(&doc);
        assert_eq!(residual_metadata, metadata);
        value
    });
    let element = |x: Option<i64>| ShreddedInt { value: None, typed_value: x };
    ShreddedEvent {
        id,
        v: ShreddedObject {
            metadata,
            value: residual,
            typed_value: Some(ObjectFields {
                a: element(a),
                list: ShreddedList { value: None, typed_value: list.map(|xs| xs.into_iter().map(element).collect()) },
            }),
        },
    }
}

#[test]
fn shredded_objects_merge_their_residual_and_missing_list_elements_are_null() {
    let rows = [
        shredded(0, None, Some(5), Some(vec![Some(1), None, Some(3)])),
        shredded(1, Some(json!({"b": 0})), None, None),
        shredded(2, Some(json!({"a": 0, "b": 0})), Some(1), None),
    ];
    let file = test_kit::io::file_of(&rows).expect("a file");
    let (events, error) = test_kit::io::read_until_error::<Event, _>(file, Some(1));
    let docs: Vec<Value> = events.iter().map(|e| e.v.as_ref().expect("a value").to_json().expect("JSON")).collect();
    assert_eq!(docs, [json!({"a": 5, "list": [1, null, 3]}), json!({"b": 0})]);
    // `a` both shredded and in the residual object: an error, not one of them kept.
    let message = error.expect("an error").to_string();
    assert!(message.contains("field `a` is both shredded and in the object's `value`"), "{message}");
    assert!(message.contains("column `v`") && message.contains("record 2"), "{message}");
}
