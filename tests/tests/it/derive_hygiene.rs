//! The derive's output must not depend on what the caller has in scope: this
//! module shadows the prelude's types, traits, variants and `vec!`, defines
//! lower-case constants named like the parameters generated code could
//! use, and a local `magnolify_parquet` module; the derives inside it still
//! compile and round-trip.
#![allow(non_upper_case_globals, non_snake_case, non_camel_case_types, dead_code, unused_macros, clippy::all)]

mod shadowed {
    pub struct Option;
    pub struct Vec;
    pub struct Result;
    pub struct String;
    pub struct Box;
    pub trait Default {}
    pub trait From {}
    pub trait ToOwned {}
    pub trait Into {}
    pub trait Iterator {}
    pub fn Ok() {}
    pub fn Err() {}
    pub fn Some() {}
    pub const None: u8 = 0;

    // Parameters and locals a careless expansion would bind.
    pub const name: u8 = 0;
    pub const repetition: u8 = 0;
    pub const opts: u8 = 0;
    pub const sink: u8 = 0;
    pub const at: u8 = 0;
    pub const node: u8 = 0;
    pub const resolver: u8 = 0;
    pub const plan: u8 = 0;
    pub const src: u8 = 0;
    pub const prefix: u8 = 0;
    pub const out: u8 = 0;
    pub const child: u8 = 0;
    pub const null_check: u8 = 0;
    pub const fields: u8 = 0;
    pub const p: u8 = 0;
    pub const v: u8 = 0;
    pub const e: u8 = 0;

    macro_rules! vec {
        ($($t:tt)*) => {
            compile_error!("the derive must not call vec!")
        };
    }

    mod magnolify_parquet {}

    pub trait ParquetSchema {}
    pub struct FieldOptions;
    pub struct StructPlan;
    pub struct Slot;

    /// Docs travel too.
    #[derive(::magnolify_parquet::ParquetType, Debug, PartialEq)]
    pub struct Record {
        /// The id.
        pub id: i32,
        pub name: std::string::String,
        pub tags: std::vec::Vec<std::string::String>,
        pub maybe: std::option::Option<Inner>,
        pub boxed: std::boxed::Box<Inner>,
        pub state: State,
        pub code: Code,
        #[parquet(default)]
        pub defaulted: u16,
        #[parquet(skip)]
        pub skipped: std::vec::Vec<u8>,
        #[parquet(with = "as_i64")]
        pub converted: u32,
        pub generic: Generic<u8>,
    }

    #[derive(::magnolify_parquet::ParquetType, Debug, PartialEq)]
    pub struct Inner {
        /// Nested doc.
        pub x: f64,
    }

    #[derive(::magnolify_parquet::ParquetType, Debug, PartialEq)]
    pub enum State {
        On,
        Off,
    }

    #[derive(::magnolify_parquet::ParquetType, Debug, PartialEq)]
    pub struct Code(pub std::string::String);

    #[derive(::magnolify_parquet::ParquetType, Debug, PartialEq)]
    pub struct Generic<T> {
        pub value: std::option::Option<T>,
    }

    pub mod as_i64 {
        pub type Repr = i64;

        pub fn to_parquet(value: &u32) -> std::result::Result<i64, std::convert::Infallible> {
            std::result::Result::Ok(i64::from(*value))
        }

        pub fn from_parquet(repr: i64) -> std::result::Result<u32, std::num::TryFromIntError> {
            u32::try_from(repr)
        }
    }
}

use magnolify_parquet::mem::MemPageStore;
use magnolify_parquet::{ParquetReader, ParquetRecord, ParquetWriter, DOCS_KEY};
use shadowed::{Code, Generic, Inner, Record, State};
use test_kit::io::footer_entries;

fn record(id: i32) -> Record {
    Record {
        id,
        name: format!("n{id}"),
        tags: vec!["a".to_owned()],
        maybe: if id % 2 == 0 { Some(Inner { x: 1.5 }) } else { None },
        boxed: Box::new(Inner { x: -0.5 }),
        state: if id % 2 == 0 { State::On } else { State::Off },
        code: Code("c".to_owned()),
        defaulted: 3,
        skipped: Vec::new(),
        converted: u32::MAX,
        generic: Generic { value: Some(7) },
    }
}

#[test]
fn shadowed_names_compile_and_round_trip() {
    let rows = vec![record(0), record(1)];
    let store = MemPageStore::write_all::<Record>(&rows).expect("write");
    let back: Vec<Record> = store.read::<Record>().expect("read").collect::<Result<_, _>>().expect("rows");
    assert_eq!(back, rows);

    let mut writer = ParquetWriter::<Record, _>::new(Vec::new()).expect("writer");
    writer.write_all(&rows).expect("write");
    let file = bytes::Bytes::from(writer.into_inner().expect("close"));
    let reader = ParquetReader::<Record, _>::new(file).expect("reader");
    let docs: Vec<String> = footer_entries(reader.metadata(), DOCS_KEY).into_iter().map(|(key, _)| key).collect();
    assert_eq!(docs.len(), 4, "{docs:?}");
    let back: Vec<Record> = reader.collect::<Result<_, _>>().expect("rows");
    assert_eq!(back, rows);
    assert_eq!(Record::MESSAGE, "Record");
    assert_eq!(Record::DOC, Some("Docs travel too."));
}
