//! The schemas `#[derive(ParquetType)]` produces, compared with exact text
//! written by hand from the format's rules: the seed record in the three
//! list layouts, renames, field ids, skipped fields, enums, newtypes,
//! generics, nested collections, the options each attribute sets, and doc
//! comments in the footer.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};

use magnolify_parquet::convert::{ColumnSink, WriteAt};
use magnolify_parquet::convert::{FileNode, RecordSource, Resolver};
use magnolify_parquet::parquet::basic::Repetition;
use magnolify_parquet::parquet::schema::types::Type;
use magnolify_parquet::{
    schema, Accepts, DecimalPhysical, DecimalSpec, FieldOptions, ListLayout, ParquetRead, ParquetReader, ParquetRecord,
    ParquetSchema, ParquetType, ParquetWrite, ParquetWriter, TimeUnit, DOCS_KEY,
};

fn text<T: ParquetRecord>() -> String {
    match T::message() {
        Ok(message) => schema::to_text(&message),
        Err(e) => panic!("schema of {}: {e}", T::MESSAGE),
    }
}

use test_kit::io::footer_entries;
use test_kit::seed::{repeated, three_level, two_level};

use crate::derive_roundtrip::{Status, UserId};

/// The seed record's text in each layout is written out by hand in
/// `test_kit::seed` (`three_level::MESSAGE`, ...).
#[test]
fn seed_three_level() {
    assert_eq!(text::<three_level::Nested>(), three_level::MESSAGE);
}

#[test]
fn seed_two_level_is_avro_compatible() {
    assert_eq!(text::<two_level::Nested>(), two_level::MESSAGE);
}

#[test]
fn seed_repeated() {
    assert_eq!(text::<repeated::Nested>(), repeated::MESSAGE);
}

#[test]
fn seed_leaf_count() {
    assert_eq!(<three_level::Nested as ParquetSchema>::LEAVES, 12);
    assert_eq!(<two_level::Required as ParquetSchema>::LEAVES, 3);
    assert_eq!(three_level::Nested::MESSAGE, "Nested");
}

#[derive(ParquetType)]
#[parquet(rename = "renamed.Record", rename_all = "camelCase")]
struct Renamed {
    user_id: u64,
    #[parquet(rename = "EXPLICIT")]
    explicit_name: String,
    r#type: i16,
    inner_group: Inner,
}

#[derive(ParquetType)]
#[parquet(rename_all = "SCREAMING-KEBAB-CASE")]
struct Inner {
    first_value: f32,
}

#[test]
fn renames() {
    let expected = "\
message renamed.Record {
  REQUIRED INT64 userId (INTEGER(64,false));
  REQUIRED BYTE_ARRAY EXPLICIT (STRING);
  REQUIRED INT32 type (INTEGER(16,true));
  REQUIRED group innerGroup {
    REQUIRED FLOAT FIRST-VALUE;
  }
}
";
    assert_eq!(text::<Renamed>(), expected);
    assert_eq!(Renamed::MESSAGE, "renamed.Record");
}

#[derive(ParquetType)]
struct WithIds {
    #[parquet(field_id = 1)]
    id: i64,
    #[parquet(field_id = 2, rename = "payload")]
    body: Option<Inner>,
    #[parquet(field_id = 2147483647)]
    tags: Vec<String>,
    no_id: bool,
}

#[test]
fn field_ids() {
    let expected = "\
message WithIds {
  REQUIRED INT64 id [1] (INTEGER(64,true));
  OPTIONAL group payload [2] {
    REQUIRED FLOAT FIRST-VALUE;
  }
  REQUIRED group tags [2147483647] (LIST) {
    REPEATED group list {
      REQUIRED BYTE_ARRAY element (STRING);
    }
  }
  REQUIRED BOOLEAN no_id;
}
";
    assert_eq!(text::<WithIds>(), expected);
}

#[derive(ParquetType, Default)]
struct Skips {
    #[parquet(skip)]
    cache: Vec<String>,
    kept: u8,
    #[parquet(skip)]
    scratch: Option<NotParquet>,
}

/// A type with no Parquet form: a skipped field may hold anything with a default.
#[derive(Default, Debug, PartialEq)]
struct NotParquet(char);

#[test]
fn skipped_fields_are_not_in_the_schema() {
    assert_eq!(text::<Skips>(), "message Skips {\n  REQUIRED INT32 kept (INTEGER(8,false));\n}\n");
    assert_eq!(<Skips as ParquetSchema>::LEAVES, 1);
    let _ = Skips::default().cache;
    let _ = Skips::default().scratch;
}

/// Annotated ENUM, as parquet-avro writes Avro enums.
#[derive(ParquetType)]
#[parquet(rename_all = "SCREAMING_SNAKE_CASE", annotation = "enum")]
enum Priority {
    VeryHigh,
    Low,
}

/// An enum with data whose tag is annotated ENUM.
#[derive(ParquetType)]
#[parquet(annotation = "enum")]
enum Step {
    Wait(u32),
    Done,
}

#[derive(ParquetType)]
struct Enums {
    status: Status,
    maybe: Option<Status>,
    history: Vec<Status>,
    priority: Priority,
    step: Step,
}

#[test]
fn unit_enums_are_strings_or_annotated_enum() {
    let expected = "\
message Enums {
  REQUIRED BYTE_ARRAY status (STRING);
  OPTIONAL BYTE_ARRAY maybe (STRING);
  REQUIRED group history (LIST) {
    REPEATED group list {
      REQUIRED BYTE_ARRAY element (STRING);
    }
  }
  REQUIRED BYTE_ARRAY priority (ENUM);
  REQUIRED group step {
    REQUIRED BYTE_ARRAY variant (ENUM);
    OPTIONAL INT32 Wait (INTEGER(32,false));
  }
}
";
    assert_eq!(text::<Enums>(), expected);
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Blob(Vec<u8>);

#[derive(ParquetType)]
struct Newtypes {
    user: UserId,
    friends: Vec<UserId>,
    referrer: Option<UserId>,
    blobs: Vec<Blob>,
}

#[test]
fn newtypes_are_transparent() {
    let expected = "\
message Newtypes {
  REQUIRED INT64 user (INTEGER(64,false));
  REQUIRED group friends (LIST) {
    REPEATED group list {
      REQUIRED INT64 element (INTEGER(64,false));
    }
  }
  OPTIONAL INT64 referrer (INTEGER(64,false));
  REQUIRED group blobs (LIST) {
    REPEATED group list {
      REQUIRED BYTE_ARRAY element;
    }
  }
}
";
    assert_eq!(text::<Newtypes>(), expected);
    assert_eq!(<UserId as ParquetSchema>::LEAVES, 1);
    const { assert!(!<UserId as ParquetSchema>::NULLABLE) };
    const { assert!(<Option<UserId> as ParquetSchema>::NULLABLE) };
    assert_eq!(<Option<UserId> as ParquetRead<'_>>::missing(), Some(None));
    assert_eq!(<Blob as ParquetRead<'_>>::missing(), None);
}

#[derive(ParquetType)]
struct Pair<A, B> {
    first: A,
    rest: Vec<B>,
    count: u32,
}

#[derive(ParquetType)]
struct Wrapper<T>(Option<T>);

#[derive(ParquetType)]
struct Generic<T: Clone> {
    pair: Pair<T, String>,
    wrapped: Wrapper<i16>,
    many: Vec<Pair<bool, T>>,
}

/// Const generics, an explicit where-clause, and a type parameter used only
/// by a skipped field.
#[derive(ParquetType)]
struct Digest<const N: usize, T, M>
where
    T: Copy,
{
    hash: [u8; N],
    seen: Option<T>,
    #[parquet(skip)]
    marker: std::marker::PhantomData<M>,
}

#[test]
fn generic_structs() {
    assert_eq!(
        text::<Digest<16, u16, char>>(),
        "message Digest {\n  REQUIRED FIXED_LEN_BYTE_ARRAY (16) hash;\n  OPTIONAL INT32 seen (INTEGER(16,false));\n}\n"
    );
    let expected = "\
message Pair {
  REQUIRED BOOLEAN first;
  REQUIRED group rest (LIST) {
    REPEATED group list {
      REQUIRED DOUBLE element;
    }
  }
  REQUIRED INT32 count (INTEGER(32,false));
}
";
    assert_eq!(text::<Pair<bool, f64>>(), expected);
    let expected = "\
message Generic {
  REQUIRED group pair {
    REQUIRED INT64 first (INTEGER(64,true));
    REQUIRED group rest (LIST) {
      REPEATED group list {
        REQUIRED BYTE_ARRAY element (STRING);
      }
    }
    REQUIRED INT32 count (INTEGER(32,false));
  }
  OPTIONAL INT32 wrapped (INTEGER(16,true));
  REQUIRED group many (LIST) {
    REPEATED group list {
      REQUIRED group element {
        REQUIRED BOOLEAN first;
        REQUIRED group rest (LIST) {
          REPEATED group list {
            REQUIRED INT64 element (INTEGER(64,true));
          }
        }
        REQUIRED INT32 count (INTEGER(32,false));
      }
    }
  }
}
";
    assert_eq!(text::<Generic<i64>>(), expected);
    assert_eq!(<Generic<i64> as ParquetSchema>::LEAVES, 7);
}

#[derive(ParquetType)]
struct Collections {
    maybe_list: Option<Vec<Option<i32>>>,
    matrix: Vec<Vec<i64>>,
    by_name: HashMap<String, Vec<i32>>,
    sparse: BTreeMap<i32, Option<String>>,
    #[parquet(list = "two-level")]
    legacy: Vec<Vec<u16>>,
}

#[test]
fn nested_options_lists_and_maps() {
    let expected = "\
message Collections {
  OPTIONAL group maybe_list (LIST) {
    REPEATED group list {
      OPTIONAL INT32 element (INTEGER(32,true));
    }
  }
  REQUIRED group matrix (LIST) {
    REPEATED group list {
      REQUIRED group element (LIST) {
        REPEATED group list {
          REQUIRED INT64 element (INTEGER(64,true));
        }
      }
    }
  }
  REQUIRED group by_name (MAP) {
    REPEATED group key_value {
      REQUIRED BYTE_ARRAY key (STRING);
      REQUIRED group value (LIST) {
        REPEATED group list {
          REQUIRED INT32 element (INTEGER(32,true));
        }
      }
    }
  }
  REQUIRED group sparse (MAP) {
    REPEATED group key_value {
      REQUIRED INT32 key (INTEGER(32,true));
      OPTIONAL BYTE_ARRAY value (STRING);
    }
  }
  REQUIRED group legacy (LIST) {
    REPEATED group array (LIST) {
      REPEATED INT32 array (INTEGER(16,false));
    }
  }
}
";
    assert_eq!(text::<Collections>(), expected);
}

#[derive(ParquetType)]
struct Fixed {
    hash: [u8; 4],
    raw: Vec<u8>,
    bytes: bytes::Bytes,
    boxed: Box<str>,
    shared: std::sync::Arc<str>,
    small: i8,
    boxed_value: Box<Option<f64>>,
}

#[test]
fn leaves_of_every_simple_type() {
    let expected = "\
message Fixed {
  REQUIRED FIXED_LEN_BYTE_ARRAY (4) hash;
  REQUIRED BYTE_ARRAY raw;
  REQUIRED BYTE_ARRAY bytes;
  REQUIRED BYTE_ARRAY boxed (STRING);
  REQUIRED BYTE_ARRAY shared (STRING);
  REQUIRED INT32 small (INTEGER(8,true));
  OPTIONAL DOUBLE boxed_value;
}
";
    assert_eq!(text::<Fixed>(), expected);
}

/// `with` takes the schema of the module's `Repr`.
#[derive(ParquetType)]
struct Converted {
    #[parquet(with = "as_text")]
    addr: std::net::Ipv4Addr,
    #[parquet(with = "as_optional_text", field_id = 9)]
    fallback: Option<std::net::Ipv4Addr>,
}

/// Any `Display + FromStr` value as a STRING.
mod as_text {
    pub type Repr = String;

    pub fn to_parquet<T: ToString>(value: &T) -> Result<String, std::convert::Infallible> {
        Ok(value.to_string())
    }

    pub fn from_parquet<T: std::str::FromStr>(repr: String) -> Result<T, T::Err> {
        repr.parse()
    }
}

/// An optional `Display + FromStr` value as an optional STRING.
mod as_optional_text {
    pub type Repr = Option<String>;

    pub fn to_parquet<T: ToString>(value: &Option<T>) -> Result<Option<String>, std::convert::Infallible> {
        Ok(value.as_ref().map(T::to_string))
    }

    pub fn from_parquet<T: std::str::FromStr>(repr: Option<String>) -> Result<Option<T>, T::Err> {
        repr.map(|s| s.parse()).transpose()
    }
}

#[test]
fn with_uses_the_repr_schema() {
    let expected = "\
message Converted {
  REQUIRED BYTE_ARRAY addr (STRING);
  OPTIONAL BYTE_ARRAY fallback [9] (STRING);
}
";
    assert_eq!(text::<Converted>(), expected);
}

thread_local! {
    /// (field name, options) for each `Probe` schema built on this thread.
    static SEEN: RefCell<Vec<(String, FieldOptions)>> = const { RefCell::new(Vec::new()) };
}

/// An `i32` that records the options it is given, to check what each
/// attribute turns into.
#[derive(Default)]
struct Probe(i32);

impl ParquetSchema for Probe {
    const LEAVES: usize = 1;
    // It takes every attribute, to show what each one turns into.
    const ACCEPTS: Accepts = Accepts { timestamp: true, decimal: true, list: true, json: true };

    type ReadPlan = <i32 as ParquetSchema>::ReadPlan;

    fn schema(name: &str, repetition: Repetition, opts: &FieldOptions) -> magnolify_parquet::Result<Type> {
        SEEN.with(|s| s.borrow_mut().push((name.to_owned(), *opts)));
        <i32 as ParquetSchema>::schema(name, repetition, opts)
    }
}

impl ParquetWrite for Probe {
    fn write(&self, sink: &mut ColumnSink, at: WriteAt, opts: &FieldOptions) -> magnolify_parquet::Result<()> {
        self.0.write(sink, at, opts)
    }
}

impl<'de> ParquetRead<'de> for Probe {
    fn resolve(
        node: &FileNode<'_>,
        opts: &FieldOptions,
        resolver: &mut Resolver<'_>,
    ) -> magnolify_parquet::Result<Self::ReadPlan> {
        <i32 as ParquetRead<'de>>::resolve(node, opts, resolver)
    }

    fn read(plan: &Self::ReadPlan, source: &mut RecordSource<'de>) -> magnolify_parquet::Result<Self> {
        <i32 as ParquetRead<'de>>::read(plan, source).map(Probe)
    }
}

#[derive(ParquetType)]
#[parquet(list = "two-level")]
struct Options {
    plain: Probe,
    #[parquet(list = "three-level")]
    own_list: Probe,
    #[parquet(timestamp = "millis")]
    millis: Probe,
    #[parquet(timestamp = "nanos", list = "repeated")]
    nanos: Probe,
    #[parquet(decimal(precision = 9, scale = 2))]
    dec: Probe,
    #[parquet(decimal(precision = 76, scale = 76, physical = "fixed"))]
    wide: Probe,
    #[parquet(decimal(scale = 3, precision = 18, physical = "int64"))]
    long: Probe,
    #[parquet(decimal(precision = 5))]
    whole: Probe,
    #[parquet(decimal(precision = 30, scale = 0, physical = "binary"))]
    #[parquet(default)]
    #[parquet(field_id = 4, rename = "both")]
    both: Probe,
    #[parquet(decimal(precision = 9, physical = "int32"))]
    narrow: Probe,
}

#[test]
fn attributes_become_field_options() {
    SEEN.with(|s| s.borrow_mut().clear());
    let _ = text::<Options>();
    let seen = SEEN.with(|s| s.borrow().clone());
    let two = FieldOptions::new().list(ListLayout::TwoLevel);
    let decimal = |precision, scale, physical| {
        let mut o = two;
        o.decimal = Some(DecimalSpec { precision, scale, physical });
        o
    };
    let expected = vec![
        ("plain".to_owned(), two),
        ("own_list".to_owned(), FieldOptions::new()),
        ("millis".to_owned(), two.timestamp(TimeUnit::Millis)),
        ("nanos".to_owned(), FieldOptions::new().list(ListLayout::Repeated).timestamp(TimeUnit::Nanos)),
        ("dec".to_owned(), decimal(9, 2, DecimalPhysical::Auto)),
        ("wide".to_owned(), decimal(76, 76, DecimalPhysical::Fixed)),
        ("long".to_owned(), decimal(18, 3, DecimalPhysical::Int64)),
        ("whole".to_owned(), decimal(5, 0, DecimalPhysical::Auto)),
        ("both".to_owned(), decimal(30, 0, DecimalPhysical::Binary)),
        ("narrow".to_owned(), decimal(9, 0, DecimalPhysical::Int32)),
    ];
    assert_eq!(seen, expected);
}

/// A documented record.
///
/// Second paragraph.
#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Documented {
    /// The key.
    id: u32,
    /// A nested part
    ///   over two lines.
    part: Part,
    parts: Vec<Part>,
    maybe: Option<Part>,
    undocumented: bool,
    #[parquet(rename = "alias")]
    /// Documented under its Parquet name.
    renamed: i32,
}

/// Nested struct docs are not collected: only the record's.
#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Part {
    /// Inside the part.
    x: f64,
}

#[test]
fn doc_comments_in_the_footer() {
    assert_eq!(Documented::DOC, Some("A documented record.\n\nSecond paragraph."));
    assert_eq!(Part::DOC, Some("Nested struct docs are not collected: only the record's."));

    let row = Documented {
        id: 1,
        part: Part { x: 0.5 },
        parts: vec![Part { x: -1.0 }],
        maybe: None,
        undocumented: true,
        renamed: -4,
    };
    let mut writer = ParquetWriter::<Documented, _>::new(Vec::new()).expect("writer");
    writer.write(&row).expect("write");
    let file = bytes::Bytes::from(writer.into_inner().expect("close"));
    let reader = ParquetReader::<Documented, _>::new(file).expect("reader");
    let mut docs = footer_entries(reader.metadata(), DOCS_KEY);
    docs.sort();
    let expected: Vec<(String, Option<String>)> = [
        ("magnolify.docs", "A documented record.\n\nSecond paragraph."),
        ("magnolify.docs.alias", "Documented under its Parquet name."),
        ("magnolify.docs.id", "The key."),
        ("magnolify.docs.maybe.x", "Inside the part."),
        ("magnolify.docs.part", "A nested part\nover two lines."),
        ("magnolify.docs.part.x", "Inside the part."),
        ("magnolify.docs.parts.x", "Inside the part."),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), Some(v.to_owned())))
    .collect();
    assert_eq!(docs, expected);
    let back: Vec<Documented> = reader.map(|r| r.expect("row")).collect();
    assert_eq!(back, [row]);
}

/// No field has docs, and neither has the newtype it holds.
#[derive(ParquetType)]
struct NoFieldDocs {
    id: UserId,
}

#[test]
fn no_docs_no_footer_entries() {
    assert_eq!(NoDocs::DOC, None);
    let mut writer = ParquetWriter::<NoDocs, _>::new(Vec::new()).expect("writer");
    writer.write(&NoDocs { id: UserId(3) }).expect("write");
    let meta = writer.close().expect("close");
    let keys: Vec<&str> =
        meta.file_metadata().key_value_metadata().into_iter().flatten().map(|kv| kv.key.as_str()).collect();
    assert!(!keys.iter().any(|k| k.starts_with(DOCS_KEY)), "{keys:?}");
    let mut docs = Vec::new();
    <NoFieldDocs as ParquetSchema>::docs("", &mut docs);
    assert_eq!(docs, []);
}

#[derive(ParquetType)]
struct NoDocs {
    id: UserId,
}

/// serde's renames and skips beside ours: accepted where `#[parquet(..)]`
/// decides too, and the schema is ours; serde keys of one direction
/// (`skip_serializing_if`, `default`) are serde's alone.
#[test]
fn serde_attributes_decided_by_ours_are_accepted() {
    #[derive(ParquetType, serde::Serialize)]
    #[serde(rename_all = "camelCase")]
    #[parquet(rename_all = "camelCase")]
    #[allow(dead_code)]
    struct Event {
        user_id: u64,
        #[serde(rename = "kind")]
        #[parquet(rename = "event_kind")]
        kind_name: String,
        #[serde(skip)]
        #[parquet(skip)]
        cache: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none", default)]
        note: Option<String>,
    }
    assert_eq!(
        text::<Event>(),
        "message Event {\n  REQUIRED INT64 userId (INTEGER(64,false));\n  REQUIRED BYTE_ARRAY event_kind (STRING);\n  OPTIONAL BYTE_ARRAY note (STRING);\n}\n"
    );
    let json = serde_json::to_string(&Event { user_id: 1, kind_name: "k".into(), cache: None, note: None }).unwrap();
    assert_eq!(json, r#"{"userId":1,"kind":"k"}"#);
}

#[derive(ParquetType)]
enum Kind {
    #[parquet(rename = "say \"hi\"")]
    Greeting,
    Plain,
}

#[derive(ParquetType)]
enum Move {
    Walk { kind: Kind },
    Stay,
}

#[derive(ParquetType)]
struct Moves {
    kinds: Vec<Kind>,
    by_kind: std::collections::BTreeMap<String, Option<Kind>>,
    last: Option<Move>,
}

/// Every enum's symbols are in the footer, by field path: unit enums in
/// lists and map values, an enum with data's tag, and a unit enum inside
/// one of its variants; symbols escaped as JSON.
#[test]
fn enum_symbols_are_recorded_in_the_footer() {
    use magnolify_parquet::{ParquetWriter, ENUMS_KEY};
    let mut writer = ParquetWriter::<Moves, _>::new(Vec::new()).unwrap();
    writer.write(&Moves { kinds: vec![Kind::Plain], by_kind: Default::default(), last: Some(Move::Stay) }).unwrap();
    let metadata = writer.close().unwrap();
    let entries: Vec<(String, String)> = metadata
        .file_metadata()
        .key_value_metadata()
        .unwrap()
        .iter()
        .filter(|kv| kv.key.starts_with(ENUMS_KEY))
        .map(|kv| (kv.key.clone(), kv.value.clone().unwrap()))
        .collect();
    let kind = r#"["say \"hi\"","Plain"]"#.to_owned();
    assert_eq!(
        entries,
        [
            ("magnolify.enum.kinds".to_owned(), kind.clone()),
            ("magnolify.enum.by_kind".to_owned(), kind.clone()),
            ("magnolify.enum.last.variant".to_owned(), r#"["Walk","Stay"]"#.to_owned()),
            ("magnolify.enum.last.Walk.kind".to_owned(), kind),
        ]
    );
}
