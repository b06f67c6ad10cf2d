//! The Avro side: the schemas of the bench records and their generic
//! `apache_avro::types::Value` forms, built before any timing (as
//! magnolify's benchmark builds its `GenericRecord` in setup).

use apache_avro::types::Value;
use avro_baseline::{AvroConverter, AvroOptions};
use magnolify_parquet::mem::MemPageStore;

use crate::flat::{time_to_millis, Flat};
use crate::nested::{Nested, Required};

/// `Nested` as magnolify-avro describes it (`magnolify.test.Simple.Nested`).
pub const NESTED_SCHEMA: &str = r#"{
  "type": "record", "name": "Nested", "namespace": "magnolify.test.Simple",
  "fields": [
    {"name": "b", "type": "boolean"},
    {"name": "i", "type": "int"},
    {"name": "s", "type": "string"},
    {"name": "r", "type": {"type": "record", "name": "Required", "fields": [
      {"name": "b", "type": "boolean"},
      {"name": "i", "type": "int"},
      {"name": "s", "type": "string"}
    ]}},
    {"name": "o", "type": ["null", "Required"], "default": null},
    {"name": "l", "type": {"type": "array", "items": "Required"}}
  ]
}"#;

/// `Flat` in Avro: optional fields are `["null", T]` unions, the timestamp
/// a `local-timestamp-millis` (wall-clock, like `NaiveDateTime`).
pub const FLAT_SCHEMA: &str = r#"{
  "type": "record", "name": "Flat",
  "fields": [
    {"name": "id", "type": "long"},
    {"name": "score", "type": "double"},
    {"name": "name", "type": "string"},
    {"name": "active", "type": "boolean"},
    {"name": "maybe", "type": ["null", "int"], "default": null},
    {"name": "note", "type": ["null", "string"], "default": null},
    {"name": "ts", "type": {"type": "long", "logicalType": "local-timestamp-millis"}},
    {"name": "payload", "type": "bytes"}
  ]
}"#;

/// parquet-avro's defaults (2-level lists), with the `INTEGER` annotations
/// typed writers put on ints, so both converters write the same Parquet
/// schema and read the same pages.
pub const OPTIONS: AvroOptions = AvroOptions::new().integer_annotations(true);

/// The converter of [`NESTED_SCHEMA`].
pub fn nested_converter() -> magnolify_parquet::Result<AvroConverter> {
    AvroConverter::from_json(NESTED_SCHEMA, OPTIONS)
}

/// The converter of [`FLAT_SCHEMA`].
pub fn flat_converter() -> magnolify_parquet::Result<AvroConverter> {
    AvroConverter::from_json(FLAT_SCHEMA, OPTIONS)
}

fn field(name: &str, value: Value) -> (String, Value) {
    (name.to_owned(), value)
}

fn required(r: &Required) -> Value {
    Value::Record(vec![
        field("b", Value::Boolean(r.b)),
        field("i", Value::Int(r.i)),
        field("s", Value::String(r.s.clone())),
    ])
}

/// A nullable value as Avro holds it: branch 0 is `null`, branch 1 the value.
fn nullable(value: Option<Value>) -> Value {
    match value {
        Some(v) => Value::Union(1, Box::new(v)),
        None => Value::Union(0, Box::new(Value::Null)),
    }
}

/// The generic record of a `Nested`.
pub fn nested_value(n: &Nested) -> Value {
    Value::Record(vec![
        field("b", Value::Boolean(n.b)),
        field("i", Value::Int(n.i)),
        field("s", Value::String(n.s.clone())),
        field("r", required(&n.r)),
        field("o", nullable(n.o.as_ref().map(required))),
        field("l", Value::Array(n.l.iter().map(required).collect())),
    ])
}

/// The generic record of a `Flat`.
pub fn flat_value(f: &Flat) -> Value {
    Value::Record(vec![
        field("id", Value::Long(f.id)),
        field("score", Value::Double(f.score)),
        field("name", Value::String(f.name.clone())),
        field("active", Value::Boolean(f.active)),
        field("maybe", nullable(f.maybe.map(Value::Int))),
        field("note", nullable(f.note.clone().map(Value::String))),
        field("ts", Value::LocalTimestampMillis(time_to_millis(&f.ts))),
        field("payload", Value::Bytes(f.payload.clone())),
    ])
}

/// Writes `values` into a new in-memory store through `converter`.
pub fn write_store(converter: AvroConverter, values: &[Value]) -> magnolify_parquet::Result<MemPageStore> {
    let mut writer = MemPageStore::writer(converter)?;
    for value in values {
        writer.write(value)?;
    }
    writer.close()
}
