//! JSON columns: `serde_json::Value` fields (feature `json`) and
//! `#[parquet(json)]` text, both `BYTE_ARRAY (JSON)`; what they write, what
//! they read back, and the errors for text that is not JSON.

use std::borrow::Cow;
use std::collections::BTreeMap;

use bytes::Bytes;
use magnolify_parquet::{
    schema, Error, ParquetReader, ParquetRecord, ParquetType, ParquetWriter, ReadOptions, ReaderBuilder,
};
use serde_json::{json, Value};

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Event {
    id: u32,
    payload: Value,
    extra: Option<Value>,
    history: Vec<Value>,
    by_key: BTreeMap<String, Value>,
    #[parquet(json)]
    raw: String,
    #[parquet(json)]
    maybe_raw: Option<String>,
}

/// The same columns, borrowed where text can be.
#[derive(ParquetType, Debug)]
struct EventRef<'a> {
    id: u32,
    payload: Value,
    extra: Option<Value>,
    history: Vec<Value>,
    by_key: BTreeMap<String, Value>,
    #[parquet(json)]
    raw: &'a str,
    #[parquet(json)]
    maybe_raw: Option<Cow<'a, str>>,
}

fn events() -> Vec<Event> {
    let documents = [
        json!(null),
        json!(true),
        json!(-17),
        json!(u64::MAX),
        json!(1.5e-300),
        json!("névé ✓ \"quoted\" \n"),
        json!([1, "two", [3.25], {"four": null}]),
        json!({"user": {"name": "ada", "roles": ["admin", "dev"]}, "n": 0}),
        json!({}),
        json!([]),
    ];
    (0..40u32)
        .map(|id| {
            let doc = documents[id as usize % documents.len()].clone();
            Event {
                id,
                payload: doc.clone(),
                extra: (id % 3 != 0).then(|| json!({"id": id, "even": id % 2 == 0})),
                history: (0..id % 4).map(|k| documents[(id + k) as usize % documents.len()].clone()).collect(),
                by_key: (0..id % 3).map(|k| (format!("k{k}"), json!([k, id]))).collect(),
                raw: doc.to_string(),
                maybe_raw: (id % 2 == 0).then(|| format!("{{\"id\":{id}}}")),
            }
        })
        .collect()
}

fn write(rows: &[Event]) -> Bytes {
    let mut w = ParquetWriter::<Event, _>::new(Vec::new()).unwrap();
    for r in rows {
        w.write(r).unwrap();
    }
    Bytes::from(w.into_inner().unwrap())
}

#[test]
fn json_fields_are_byte_arrays_annotated_json() {
    let text = schema::to_text(&Event::message().unwrap());
    for line in [
        "REQUIRED BYTE_ARRAY payload (JSON);",
        "OPTIONAL BYTE_ARRAY extra (JSON);",
        "REQUIRED BYTE_ARRAY element (JSON);",
        "REQUIRED BYTE_ARRAY key (STRING);",
        "REQUIRED BYTE_ARRAY value (JSON);",
        "REQUIRED BYTE_ARRAY raw (JSON);",
        "OPTIONAL BYTE_ARRAY maybe_raw (JSON);",
    ] {
        assert!(text.contains(line), "{line} not in\n{text}");
    }
    // The same schema, borrowed.
    let borrowed = schema::to_text(&EventRef::message().unwrap());
    assert_eq!(borrowed.replacen("message EventRef", "message Event", 1), text);
}

#[test]
fn json_documents_read_back_as_written_owned_and_borrowed() {
    let rows = events();
    let file = write(&rows);
    let back: Vec<Event> = ParquetReader::new(file.clone()).unwrap().collect::<Result<_, _>>().unwrap();
    assert_eq!(back, rows);
    // The column holds the compact text of each document.
    #[derive(ParquetType, Debug, PartialEq)]
    struct Text {
        payload: String,
    }
    let texts: Vec<Text> = ParquetReader::new(file.clone()).unwrap().collect::<Result<_, _>>().unwrap();
    assert_eq!(texts[7].payload, r#"{"user":{"name":"ada","roles":["admin","dev"]},"n":0}"#);
    assert_eq!(texts[3].payload, "18446744073709551615");

    let mut reader = ReaderBuilder::new(file).unwrap().build_borrowed::<EventRef>(ReadOptions::default()).unwrap();
    let mut lent = Vec::new();
    while let Some(batch) = reader.next_batch().unwrap() {
        for e in &batch {
            assert!(matches!(e.maybe_raw, None | Some(Cow::Borrowed(_))));
            lent.push(Event {
                id: e.id,
                payload: e.payload.clone(),
                extra: e.extra.clone(),
                history: e.history.clone(),
                by_key: e.by_key.clone(),
                raw: e.raw.to_owned(),
                maybe_raw: e.maybe_raw.as_deref().map(str::to_owned),
            });
        }
    }
    assert_eq!(lent, rows);
}

#[test]
fn text_that_is_not_json_is_an_error_at_its_column_and_record() {
    #[derive(ParquetType)]
    struct Plain<'a> {
        id: u32,
        payload: &'a str,
    }
    #[derive(ParquetType, Debug)]
    struct Parsed {
        id: u32,
        payload: Value,
    }
    let mut w = ParquetWriter::<Plain, _>::new(Vec::new()).unwrap();
    for (id, payload) in [(0, "[1, 2]"), (1, "{\"a\": 1}"), (2, "{not json"), (3, "4")] {
        w.write(&Plain { id, payload }).unwrap();
    }
    let file = Bytes::from(w.into_inner().unwrap());
    // STRING columns read as documents too, up to the one that is not.
    let mut reader = ParquetReader::<Parsed, _>::new(file).unwrap();
    let first: Vec<Parsed> = reader.by_ref().take(2).collect::<Result<_, _>>().unwrap();
    assert_eq!((first[0].id, &first[0].payload, &first[1].payload), (0, &json!([1, 2]), &json!({"a": 1})));
    let e = reader.next().unwrap().unwrap_err();
    assert!(matches!(e, Error::Value { .. }), "{e:?}");
    let text = e.to_string();
    assert!(text.contains("payload") && text.contains("record 2") && text.contains("not a JSON document"), "{text}");
    assert!(reader.next().is_none(), "a record after the error");
}

#[test]
fn a_json_document_is_not_addressable_by_filters_but_json_text_is() {
    let rows = events();
    let file = write(&rows);
    let f = Event::fields();
    let wanted = ReadOptions::default().filter(f.raw.eq("true").and(f.maybe_raw.is_null()));
    let read: Vec<Event> = ReaderBuilder::new(file).unwrap().build(wanted).unwrap().collect::<Result<_, _>>().unwrap();
    let expected: Vec<Event> = rows.into_iter().filter(|r| r.raw == "true" && r.maybe_raw.is_none()).collect();
    assert_eq!(read.iter().map(|r| r.id).collect::<Vec<_>>(), [1, 11, 21, 31]);
    assert_eq!(read, expected);
}
