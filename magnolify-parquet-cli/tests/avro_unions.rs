//! Avro unions of several non-null branches, both ways: `avro2parquet`
//! converts fastavro's `nested.avro` (parquet-avro's `member0..memberN`
//! layout) and Rust enums with `#[parquet(union = "avro")]` read its union
//! columns; records written from those enums convert back with
//! `parquet2avro` into the same Avro union values.

mod common;

use apache_avro::types::Value;
use apache_avro::Reader;
use common::{fixtures_dir, run, temp_dir};
use magnolify_parquet::parquet::file::metadata::KeyValue;
use magnolify_parquet::{ParquetReader, ParquetType, WriterBuilder};

/// The Avro schema of `Unions`: `nested.avsc`'s fields `id`, `choice` and
/// `either`.
const UNIONS_AVRO: &str = r#"{"type": "record", "name": "Nested", "namespace": "peer.fastavro", "fields": [
    {"name": "id", "type": "long"},
    {"name": "choice", "type": ["null", "int", "string",
        {"type": "record", "name": "Point", "fields": [{"name": "x", "type": "double"}, {"name": "y", "type": "double"}]}]},
    {"name": "either", "type": ["string", "long"]}
]}"#;

/// `choice: ["null", "int", "string", "Point"]`.
#[derive(ParquetType, Debug, Clone, PartialEq)]
#[parquet(union = "avro")]
enum Choice {
    Int(i32),
    Text(String),
    Point { x: f64, y: f64 },
}

/// `either: ["string", "long"]`.
#[derive(ParquetType, Debug, Clone, PartialEq)]
#[parquet(union = "avro")]
enum Either {
    Text(String),
    Long(i64),
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
#[parquet(rename = "Nested")]
struct Unions {
    id: i64,
    choice: Option<Choice>,
    either: Either,
}

fn avro_values(path: &std::path::Path) -> Vec<Value> {
    let file = std::fs::File::open(path).expect("open the Avro file");
    Reader::new(std::io::BufReader::new(file)).expect("an Avro file").map(|v| v.expect("a record")).collect()
}

fn field<'a>(record: &'a Value, name: &str) -> &'a Value {
    match record {
        Value::Record(fields) => &fields.iter().find(|(n, _)| n == name).expect("the field").1,
        other => panic!("not a record: {other:?}"),
    }
}

/// The record's unions as the enums hold them.
fn unions_of(record: &Value) -> Unions {
    let id = match field(record, "id") {
        Value::Long(id) => *id,
        other => panic!("id {other:?}"),
    };
    let choice = match field(record, "choice") {
        Value::Union(0, _) => None,
        Value::Union(1, v) => match v.as_ref() {
            Value::Int(i) => Some(Choice::Int(*i)),
            other => panic!("branch 1 {other:?}"),
        },
        Value::Union(2, v) => match v.as_ref() {
            Value::String(s) => Some(Choice::Text(s.clone())),
            other => panic!("branch 2 {other:?}"),
        },
        Value::Union(3, point) => match (field(point, "x"), field(point, "y")) {
            (Value::Double(x), Value::Double(y)) => Some(Choice::Point { x: *x, y: *y }),
            other => panic!("branch 3 {other:?}"),
        },
        other => panic!("choice {other:?}"),
    };
    let either = match field(record, "either") {
        Value::Union(0, v) => match v.as_ref() {
            Value::String(s) => Either::Text(s.clone()),
            other => panic!("branch 0 {other:?}"),
        },
        Value::Union(1, v) => match v.as_ref() {
            Value::Long(l) => Either::Long(*l),
            other => panic!("branch 1 {other:?}"),
        },
        other => panic!("either {other:?}"),
    };
    Unions { id, choice, either }
}

fn convert(args: &[&std::ffi::OsStr]) {
    let out = run(args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn enums_read_the_unions_avro2parquet_converts_and_write_what_parquet2avro_converts_back() {
    let avro = fixtures_dir().join("avro").join("nested.avro");
    let expected: Vec<Unions> = avro_values(&avro).iter().map(unions_of).collect();
    assert_eq!(expected.len(), 60);
    // Every branch is there to be read.
    let branches = |f: &dyn Fn(&Unions) -> bool| expected.iter().filter(|u| f(u)).count();
    assert!(branches(&|u| u.choice.is_none()) > 0);
    assert!(branches(&|u| matches!(u.choice, Some(Choice::Int(_)))) > 0);
    assert!(branches(&|u| matches!(u.choice, Some(Choice::Text(_)))) > 0);
    assert!(branches(&|u| matches!(u.choice, Some(Choice::Point { .. }))) > 0);
    assert!(branches(&|u| matches!(u.either, Either::Text(_))) > 0);
    assert!(branches(&|u| matches!(u.either, Either::Long(_))) > 0);

    let dir = temp_dir("unions");
    let parquet = dir.path().join("nested.parquet");
    convert(&["avro2parquet".as_ref(), avro.as_os_str(), parquet.as_os_str(), "--three-level".as_ref()]);
    let read: Vec<Unions> =
        ParquetReader::open(&parquet).expect("a reader").collect::<Result<_, _>>().expect("the records");
    assert_eq!(read, expected);

    // Written from the enums, converted back to Avro with the unions' Avro
    // schema in the footer (as parquet-avro writes it): the same union values.
    let ours = dir.path().join("unions.parquet");
    let key_value = KeyValue::new("parquet.avro.schema".to_owned(), UNIONS_AVRO.to_owned());
    let mut writer = WriterBuilder::<Unions>::new()
        .properties(|p| p.set_key_value_metadata(Some(vec![key_value])))
        .create(&ours)
        .expect("a writer");
    for u in &expected {
        writer.write(u).expect("a record");
    }
    writer.close().expect("the file");
    let back = dir.path().join("unions.avro");
    convert(&["parquet2avro".as_ref(), ours.as_os_str(), back.as_os_str()]);
    let again: Vec<Unions> = avro_values(&back).iter().map(unions_of).collect();
    assert_eq!(again, expected);
}
