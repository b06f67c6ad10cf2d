//! Avro files written by another implementation (fastavro, see
//! tests/fixtures/avro/PROVENANCE.md) go to Parquet and back through
//! `AvroConverter`, in both list layouts, and come back equal: unions,
//! enums, fixed, maps, decimals, timestamps.

use apache_avro::types::Value;
use apache_avro::{Decimal, Reader, Schema, Uuid, Writer};
use avro_baseline::{AvroConverter, AvroOptions, ListLayout};
use magnolify_parquet::mem::MemPageStore;
use magnolify_parquet::{ParquetReader, ParquetWriter};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/avro/");

/// The writer schema and the records of a fixture, as apache-avro reads
/// them; there must be `count` records.
fn load(name: &str, count: usize) -> (Schema, Vec<Value>) {
    let file = std::fs::File::open(format!("{DIR}{name}")).unwrap();
    let reader = Reader::new(std::io::BufReader::new(file)).unwrap();
    let schema = reader.writer_schema().clone();
    let values = reader.collect::<Result<Vec<_>, _>>().unwrap();
    assert_eq!(values.len(), count);
    (schema, values)
}

fn field<'a>(record: &'a Value, name: &str) -> &'a Value {
    match record {
        Value::Record(fields) => &fields.iter().find(|(n, _)| n == name).unwrap().1,
        other => panic!("not a record: {other:?}"),
    }
}

/// Whether an array anywhere in the value has a null element.
fn has_null_element(value: &Value) -> bool {
    match value {
        Value::Array(items) => items.iter().any(|v| is_null(v) || has_null_element(v)),
        Value::Record(fields) => fields.iter().any(|(_, v)| has_null_element(v)),
        Value::Map(entries) => entries.values().any(has_null_element),
        Value::Union(_, v) => has_null_element(v),
        _ => false,
    }
}

fn is_null(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Union(_, inner) => is_null(inner),
        _ => false,
    }
}

/// Converts the fixture to Parquet (store and file) and back in `layout`;
/// returns how many records the layout could not hold.
fn round_trip(schema: &Schema, values: &[Value], layout: ListLayout) -> usize {
    let conv = AvroConverter::new(schema.clone(), AvroOptions::new().list_layout(layout)).unwrap();
    // Only null array elements may fail, and only in the layouts without room for them.
    let mut kept = Vec::new();
    let mut mem = MemPageStore::writer(conv.clone()).unwrap();
    let mut file = ParquetWriter::with_converter(conv.clone(), Vec::new()).unwrap();
    for v in values {
        match mem.write(v) {
            Ok(()) => {
                file.write(v).unwrap();
                kept.push(v.clone());
            }
            Err(e) => {
                assert!(layout != ListLayout::ThreeLevel && has_null_element(v), "{layout:?}: {e}");
                assert!(e.to_string().contains("ListLayout::ThreeLevel"), "{e}");
                assert!(file.write(v).is_err());
            }
        }
    }
    let store = mem.close().unwrap();
    let back = store.reader(conv.clone()).unwrap().collect::<Result<Vec<_>, _>>().unwrap();
    assert_eq!(back, kept, "{layout:?} through the page store");

    let bytes = bytes::Bytes::from(file.into_inner().unwrap());
    let meta = ParquetReader::with_converter(conv, bytes.clone()).unwrap().metadata().clone();
    let for_file = AvroConverter::for_file(&meta, AvroOptions::default()).unwrap();
    assert_eq!(for_file.avro_schema(), schema);
    let back = ParquetReader::with_converter(for_file, bytes).unwrap().collect::<Result<Vec<_>, _>>().unwrap();
    assert_eq!(back, kept, "{layout:?} through a file");

    // And on to an Avro container again, as parquet2avro does.
    let mut writer = Writer::new(schema, Vec::new());
    writer.extend(back.iter().cloned()).unwrap();
    let avro = writer.into_inner().unwrap();
    let again = Reader::new(avro.as_slice()).unwrap().collect::<Result<Vec<_>, _>>().unwrap();
    assert_eq!(again, kept, "{layout:?} back to Avro");
    values.len() - kept.len()
}

/// Every record survives both list layouts.
fn round_trips_whole(schema: &Schema, values: &[Value]) {
    for layout in [ListLayout::TwoLevel, ListLayout::ThreeLevel] {
        assert_eq!(round_trip(schema, values, layout), 0);
    }
}

#[test]
fn primitives_round_trip() {
    let (schema, values) = load("primitives.avro", 50);
    let first = &values[0];
    assert_eq!(field(first, "b"), &Value::Boolean(false));
    assert_eq!(field(first, "i"), &Value::Int(1_163_544_056));
    assert_eq!(field(first, "l"), &Value::Long(5_695_970_437_767_621_970));
    assert_eq!(field(first, "f"), &Value::Float(60598.375));
    assert_eq!(field(first, "s"), &Value::String("vj😀td€bnlxj".into()));
    assert_eq!(field(first, "ns"), &Value::Union(0, Box::new(Value::Null)));
    assert_eq!(field(first, "nl"), &Value::Union(0, Box::new(Value::Long(398))));
    assert_eq!(field(first, "color"), &Value::Enum(2, "BLUE".into()));
    assert_eq!(field(first, "hash"), &Value::Fixed(8, b"=\x00\x8d\x15\xe1\\\x82.".to_vec()));
    assert_eq!(field(first, "nothing"), &Value::Null);
    round_trips_whole(&schema, &values);
}

#[test]
fn logical_types_round_trip() {
    let (schema, values) = load("logical.avro", 40);
    let first = &values[0];
    assert_eq!(field(first, "price"), &Value::Decimal(Decimal::from(729_978_020_072i64.to_be_bytes())));
    assert_eq!(field(first, "rate"), &Value::Decimal(Decimal::from((-93_692_886_079_377_318_753i128).to_be_bytes())));
    assert_eq!(field(first, "day"), &Value::Date(-43_902));
    assert_eq!(field(first, "tmil"), &Value::TimeMillis(19_444_403));
    assert_eq!(field(first, "tsu"), &Value::TimestampMicros(1_007_581_812_276_469));
    assert_eq!(field(first, "tsm"), &Value::TimestampMillis(1_007_581_812_276));
    assert_eq!(field(first, "ltsu"), &Value::LocalTimestampMicros(1_007_581_812_276_469));
    assert_eq!(field(first, "tsn"), &Value::TimestampNanos(1_798_977_922_892_565_508));
    assert!(matches!(field(first, "dur"), Value::Duration(_)));
    assert_eq!(field(first, "id"), &Value::Uuid(Uuid::parse_str("5b8f0fed-b1fc-a007-2f0c-ad22d3f0a646").unwrap()));
    assert_eq!(field(first, "maybe_ts"), &Value::Union(1, Box::new(Value::TimestampMicros(1_007_581_812_276_469))));
    round_trips_whole(&schema, &values);
}

#[test]
fn nested_records_unions_and_maps_round_trip() {
    let (schema, values) = load("nested.avro", 60);
    let second = &values[1];
    assert_eq!(field(second, "choice"), &Value::Union(1, Box::new(Value::Int(4))));
    assert_eq!(field(second, "either"), &Value::Union(0, Box::new(Value::String("j".into()))));
    assert_eq!(
        field(second, "scores"),
        &Value::Array(vec![
            Value::Union(0, Box::new(Value::Null)),
            Value::Union(1, Box::new(Value::Double(0.14619467282863774)))
        ])
    );
    assert_eq!(field(second, "levels"), &Value::Array(vec![Value::Enum(0, "LOW".into())]));
    let Value::Map(paths) = field(second, "paths") else { panic!("paths is a map") };
    assert_eq!(paths.len(), 3);
    assert_eq!(paths["qysé"], Value::Array(vec![]));

    // Every record survives the standard layout.
    assert_eq!(round_trip(&schema, &values, ListLayout::ThreeLevel), 0);
    // The two-level layout cannot hold the null scores, as in parquet-avro.
    let with_nulls = values.iter().filter(|v| has_null_element(v)).count();
    assert!(with_nulls > 0 && with_nulls < values.len(), "{with_nulls}");
    assert_eq!(round_trip(&schema, &values, ListLayout::TwoLevel), with_nulls);
}
