//! Cross-compatibility of the derive and the Avro baseline, in the spirit of
//! magnolify's `AvroParquetSuite`: the seed record `Nested` written by one
//! and read by the other gives equal values, in both list layouts, and the
//! Parquet schema the baseline makes from Nested's Avro schema is the
//! derive's.

use apache_avro::types::Value;
use apache_avro::Schema;
use avro_baseline::{AvroConverter, AvroOptions, ListLayout};
use magnolify_parquet::mem::MemPageStore;
use magnolify_parquet::{schema, ParquetReader, ParquetRecord, ParquetWriter, ReaderBuilder};

// The seed record with the default (three-level) lists, and with
// parquet-avro's two-level lists under the same message name.
use test_kit::seed::three_level::{Nested, Required};
use test_kit::seed::two_level::Nested as NestedTwoLevel;

/// Nested's Avro schema, as magnolify-avro derives it.
const NESTED_AVRO: &str = r#"{
  "type": "record", "name": "Nested",
  "fields": [
    {"name": "b", "type": "boolean"},
    {"name": "i", "type": "int"},
    {"name": "s", "type": "string"},
    {"name": "r", "type": {"type": "record", "name": "Required", "fields": [
      {"name": "b", "type": "boolean"}, {"name": "i", "type": "int"}, {"name": "s", "type": "string"}
    ]}},
    {"name": "o", "type": ["null", "Required"], "default": null},
    {"name": "l", "type": {"type": "array", "items": "Required"}}
  ]
}"#;

fn avro(layout: ListLayout) -> AvroConverter {
    AvroConverter::from_json(NESTED_AVRO, AvroOptions::new().list_layout(layout)).unwrap()
}

fn required(k: i32) -> Required {
    Required { b: k % 2 == 0, i: k.wrapping_mul(7919) - 40_000, s: format!("r{k}-é😀") }
}

/// A deterministic set covering absent and present options, empty and long lists.
fn seeds() -> Vec<Nested> {
    (0..9)
        .map(|k| Nested {
            b: k % 3 == 0,
            i: if k == 0 { i32::MIN } else { k * 1_000_003 },
            s: "x".repeat(k as usize),
            r: required(k),
            o: (k % 2 == 1).then(|| required(-k)),
            l: (0..(k % 4) * 2).map(|j| required(k * 10 + j)).collect(),
        })
        .collect()
}

fn two_level(n: &Nested) -> NestedTwoLevel {
    n.clone().into()
}

fn required_value(r: &Required) -> Value {
    Value::Record(vec![
        ("b".into(), Value::Boolean(r.b)),
        ("i".into(), Value::Int(r.i)),
        ("s".into(), Value::String(r.s.clone())),
    ])
}

/// The Avro value of a seed, as the Avro schema above describes it.
fn value(n: &Nested) -> Value {
    Value::Record(vec![
        ("b".into(), Value::Boolean(n.b)),
        ("i".into(), Value::Int(n.i)),
        ("s".into(), Value::String(n.s.clone())),
        ("r".into(), required_value(&n.r)),
        (
            "o".into(),
            n.o.as_ref()
                .map_or(Value::Union(0, Box::new(Value::Null)), |r| Value::Union(1, Box::new(required_value(r)))),
        ),
        ("l".into(), Value::Array(n.l.iter().map(required_value).collect())),
    ])
}

#[test]
fn seed_values_validate_against_the_avro_schema() {
    let schema = Schema::parse_str(NESTED_AVRO).unwrap();
    for n in seeds() {
        assert!(value(&n).validate(&schema), "{n:?}");
    }
}

#[test]
fn the_baseline_makes_the_derives_schema() {
    let annotated = |layout| {
        let opts = AvroOptions::new().list_layout(layout).integer_annotations(true);
        schema::to_text(&AvroConverter::from_json(NESTED_AVRO, opts).unwrap().parquet_schema())
    };
    assert_eq!(annotated(ListLayout::TwoLevel), schema::to_text(&NestedTwoLevel::message().unwrap()));
    assert_eq!(annotated(ListLayout::ThreeLevel), schema::to_text(&Nested::message().unwrap()));
    // With parquet-avro's exact defaults the only difference is the INTEGER
    // annotation the derive puts on i32 (parquet-avro writes a plain int32).
    let plain = schema::to_text(&avro(ListLayout::TwoLevel).parquet_schema());
    let derived = schema::to_text(&NestedTwoLevel::message().unwrap());
    assert_eq!(plain, derived.replace(" (INTEGER(32,true))", ""));
    assert_eq!(
        plain,
        "message Nested {
  REQUIRED BOOLEAN b;
  REQUIRED INT32 i;
  REQUIRED BYTE_ARRAY s (STRING);
  REQUIRED group r {
    REQUIRED BOOLEAN b;
    REQUIRED INT32 i;
    REQUIRED BYTE_ARRAY s (STRING);
  }
  OPTIONAL group o {
    REQUIRED BOOLEAN b;
    REQUIRED INT32 i;
    REQUIRED BYTE_ARRAY s (STRING);
  }
  REQUIRED group l (LIST) {
    REPEATED group array {
      REQUIRED BOOLEAN b;
      REQUIRED INT32 i;
      REQUIRED BYTE_ARRAY s (STRING);
    }
  }
}
"
    );
}

#[test]
fn derive_writes_baseline_reads() {
    let seeds = seeds();
    let expected: Vec<Value> = seeds.iter().map(value).collect();
    for reader_layout in [ListLayout::TwoLevel, ListLayout::ThreeLevel] {
        // Through the page store.
        let store = MemPageStore::write_all::<Nested>(&seeds).unwrap();
        let back = store.reader(avro(reader_layout)).unwrap().collect::<Result<Vec<_>, _>>().unwrap();
        assert_eq!(back, expected, "three-level store, reader {reader_layout:?}");
        let two: Vec<NestedTwoLevel> = seeds.iter().map(two_level).collect();
        let store = MemPageStore::write_all::<NestedTwoLevel>(&two).unwrap();
        let back = store.reader(avro(reader_layout)).unwrap().collect::<Result<Vec<_>, _>>().unwrap();
        assert_eq!(back, expected, "two-level store, reader {reader_layout:?}");

        // Through files.
        let mut w = ParquetWriter::<NestedTwoLevel, _>::new(Vec::new()).unwrap();
        w.write_all(&two).unwrap();
        let file = bytes::Bytes::from(w.into_inner().unwrap());
        let back = ParquetReader::with_converter(avro(reader_layout), file).unwrap().collect::<Result<Vec<_>, _>>();
        assert_eq!(back.unwrap(), expected, "two-level file, reader {reader_layout:?}");
    }
}

#[test]
fn baseline_writes_derive_reads() {
    let seeds = seeds();
    let values: Vec<Value> = seeds.iter().map(value).collect();
    for layout in [ListLayout::TwoLevel, ListLayout::ThreeLevel] {
        let mut w = MemPageStore::writer(avro(layout)).unwrap();
        for v in &values {
            w.write(v).unwrap();
        }
        let store = w.close().unwrap();
        let back: Vec<Nested> = store.read::<Nested>().unwrap().collect::<Result<_, _>>().unwrap();
        assert_eq!(back, seeds, "{layout:?} into the three-level type");
        let back: Vec<NestedTwoLevel> = store.read::<NestedTwoLevel>().unwrap().collect::<Result<_, _>>().unwrap();
        assert_eq!(back, seeds.iter().map(two_level).collect::<Vec<_>>(), "{layout:?} into the two-level type");

        let mut w = ParquetWriter::with_converter(avro(layout), Vec::new()).unwrap();
        for v in &values {
            w.write(v).unwrap();
        }
        let file = bytes::Bytes::from(w.into_inner().unwrap());
        let back: Vec<Nested> = ParquetReader::<Nested, _>::new(file).unwrap().collect::<Result<_, _>>().unwrap();
        assert_eq!(back, seeds, "{layout:?} file");
    }
}

#[test]
fn derive_files_read_with_a_derived_avro_schema() {
    let seeds = seeds();
    let expected: Vec<Value> = seeds.iter().map(value).collect();
    let mut w = ParquetWriter::<Nested, _>::new(Vec::new()).unwrap();
    w.write_all(&seeds).unwrap();
    let file = bytes::Bytes::from(w.into_inner().unwrap());
    let builder = ReaderBuilder::new(file.clone()).unwrap();
    // No Avro schema in a derive's footer: one is made from the Parquet schema.
    let converter = AvroConverter::for_file(builder.metadata(), AvroOptions::default()).unwrap();
    let json: serde_json::Value = serde_json::from_str(converter.avro_schema_json()).unwrap();
    assert_eq!(json["name"], "Nested");
    assert_eq!(json["fields"][4]["type"][0], "null");
    assert_eq!(json["fields"][5]["type"]["type"], "array");
    let back = ParquetReader::with_converter(converter, file).unwrap().collect::<Result<Vec<_>, _>>().unwrap();
    assert_eq!(back, expected);
}
