//! Schema evolution and projection: a file written with one version of a
//! type, read with another; and every list and map layout of the format,
//! written with the `parquet` crate's low-level API and read into `Vec`s and
//! maps.
//!
//! Legal changes read exactly the values written; illegal ones are refused
//! when the file is opened (or at the first offending value) with an error
//! that names the column.

use std::collections::{BTreeMap, HashMap};
use std::str::FromStr;
use std::sync::Arc;

use apache_avro::BigDecimal;
use bytes::Bytes;
use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};
use magnolify_parquet::{Error, OwnedRecord, ParquetReader, ParquetType, ReadOptions};
use parquet::data_type::{BoolType, ByteArray, ByteArrayType, DoubleType, Int32Type, Int64Type};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
use rust_decimal::Decimal;

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

/// Writes `rows` with the library's default settings.
fn write<T: OwnedRecord>(rows: &[T]) -> Bytes {
    test_kit::io::file_of(rows).expect("write")
}

/// Opens `file` as `T` and reads it to the end.
fn read<T: OwnedRecord>(file: &Bytes) -> Result<Vec<T>, Error> {
    ParquetReader::<T, _>::new(file.clone())?.collect()
}

/// The error of opening `file` as `T` (the type must be refused at open).
fn open_error<T: OwnedRecord>(file: &Bytes) -> Error {
    match ParquetReader::<T, _>::new(file.clone()) {
        Ok(_) => panic!("{} was accepted", std::any::type_name::<T>()),
        Err(e) => e,
    }
}

/// Reads records until the first error: the records and the error.
fn read_until_error<T: OwnedRecord>(file: &Bytes) -> (Vec<T>, Option<Error>) {
    read_until_error_in_batches(file, None)
}

/// [`read_until_error`] with the reader's batch size set.
fn read_until_error_in_batches<T: OwnedRecord>(file: &Bytes, batch: Option<usize>) -> (Vec<T>, Option<Error>) {
    test_kit::io::read_until_error(file.clone(), batch)
}

/// The record an error happened at.
fn record_of(e: &Error) -> Option<u64> {
    e.location().and_then(|l| l.record)
}

/// Values of one leaf column for [`write_raw`].
enum Values<'a> {
    Bool(&'a [bool]),
    I32(&'a [i32]),
    I64(&'a [i64]),
    F64(&'a [f64]),
    Str(&'a [&'a str]),
}

/// One leaf column: dense values and one definition and repetition level per
/// triplet (empty slices when the column has no such levels).
struct Col<'a> {
    values: Values<'a>,
    def: &'a [i16],
    rep: &'a [i16],
}

fn col<'a>(values: Values<'a>, def: &'a [i16], rep: &'a [i16]) -> Col<'a> {
    Col { values, def, rep }
}

/// Writes a one-row-group file of `schema` (message text) with explicit
/// levels, as other writers lay it out: the library's writer is not involved.
fn write_raw(schema: &str, cols: &[Col<'_>]) -> Bytes {
    let schema = Arc::new(parse_message_type(schema).expect("schema text"));
    let props = Arc::new(WriterProperties::builder().build());
    let mut out = Vec::new();
    {
        let mut file = SerializedFileWriter::new(&mut out, schema, props).expect("file writer");
        let mut group = file.next_row_group().expect("row group");
        for c in cols {
            let mut w = group.next_column().expect("column").expect("as many columns as leaves");
            let def = (!c.def.is_empty()).then_some(c.def);
            let rep = (!c.rep.is_empty()).then_some(c.rep);
            match c.values {
                Values::Bool(v) => w.typed::<BoolType>().write_batch(v, def, rep),
                Values::I32(v) => w.typed::<Int32Type>().write_batch(v, def, rep),
                Values::I64(v) => w.typed::<Int64Type>().write_batch(v, def, rep),
                Values::F64(v) => w.typed::<DoubleType>().write_batch(v, def, rep),
                Values::Str(v) => {
                    let v: Vec<ByteArray> = v.iter().map(|s| ByteArray::from(*s)).collect();
                    w.typed::<ByteArrayType>().write_batch(&v, def, rep)
                }
            }
            .expect("write_batch");
            w.close().expect("close column");
        }
        assert!(group.next_column().expect("column").is_none(), "every leaf written");
        group.close().expect("close row group");
        file.close().expect("close file");
    }
    Bytes::from(out)
}

/// Opening `file` as `T` fails at `column`, with a message that holds
/// each of `words`.
fn refused<T: OwnedRecord>(file: &Bytes, column: &str, words: &[&str]) {
    let e = open_error::<T>(file);
    assert_eq!(e.column(), Some(column), "{e}");
    let msg = message_of(&e);
    for word in words {
        assert!(msg.contains(word), "{msg}");
    }
}

fn message_of(e: &Error) -> String {
    e.to_string()
}

// ---------------------------------------------------------------------------
// V1 → V2
// ---------------------------------------------------------------------------

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct InnerV1 {
    a: i32,
    b: String,
    c: Vec<f64>,
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct V1 {
    id: i64,
    name: String,
    score: Option<f64>,
    maybe: Option<i32>,
    inner: InnerV1,
    tags: Vec<String>,
}

fn v1_rows() -> Vec<V1> {
    (0..5i32)
        .map(|i| V1 {
            id: i64::from(i) * 1_000_000_007,
            name: format!("name {i}"),
            score: (i % 2 == 0).then_some(f64::from(i) / 4.0),
            maybe: (i != 3).then_some(i * 10),
            inner: InnerV1 { a: -i, b: "x".repeat(i as usize), c: (0..i).map(f64::from).collect() },
            tags: (0..i % 3).map(|t| format!("t{t}")).collect(),
        })
        .collect()
}

fn v1_file() -> Bytes {
    write(&v1_rows())
}

/// The V1 file read as `T` gives `expected` of each V1 row.
fn assert_v1_reads_as<T: OwnedRecord + PartialEq + std::fmt::Debug>(expected: impl FnMut(V1) -> T) {
    let got: Vec<T> = read(&v1_file()).expect("read");
    let want: Vec<T> = v1_rows().into_iter().map(expected).collect();
    assert_eq!(got, want);
}

#[derive(ParquetType, Debug, PartialEq)]
struct V2Added {
    id: i64,
    name: String,
    extra: Option<String>,
    items: Vec<i32>,
    attrs: BTreeMap<String, i32>,
    hashed: HashMap<i32, String>,
    maybe_items: Option<Vec<i32>>,
    nested: Option<InnerV1>,
}

#[test]
fn added_fields_read_as_none_or_empty() {
    assert_v1_reads_as(|r| V2Added {
        id: r.id,
        name: r.name,
        extra: None,
        items: Vec::new(),
        attrs: BTreeMap::new(),
        hashed: HashMap::new(),
        maybe_items: None,
        nested: None,
    });
}

#[derive(ParquetType, Debug, PartialEq)]
struct V2RemovedReordered {
    tags: Vec<String>,
    name: String,
    id: i64,
}

#[test]
fn removed_and_reordered_fields() {
    assert_v1_reads_as(|r| V2RemovedReordered { tags: r.tags, name: r.name, id: r.id });
    // Only the three columns named are decoded.
    let reader = ParquetReader::<V2RemovedReordered, _>::new(v1_file()).expect("open");
    assert_eq!(reader.projected_columns().len(), 3, "{:?}", reader.projected_columns());
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct InnerProjected {
    c: Vec<f64>,
    a: i32,
}

#[derive(ParquetType, Debug, PartialEq)]
struct V2Nested {
    inner: InnerProjected,
}

#[test]
fn nested_projection() {
    assert_v1_reads_as(|r| V2Nested { inner: InnerProjected { c: r.inner.c, a: r.inner.a } });
}

#[derive(ParquetType, Debug, PartialEq)]
struct V2Widened {
    id: Option<i64>,
    inner: Option<InnerV1>,
    tags: Option<Vec<String>>,
    name: Option<String>,
}

#[test]
fn required_fields_widen_to_optional() {
    assert_v1_reads_as(|r| V2Widened { id: Some(r.id), inner: Some(r.inner), tags: Some(r.tags), name: Some(r.name) });
}

#[derive(ParquetType, Debug, PartialEq)]
struct V2Narrowed {
    id: i64,
    maybe: i32,
}

/// Reads V1's file as [`V2Narrowed`] with `batch`: rows 0..3 come out, then
/// an error at row 3 (where `maybe` is None) that names the column and row.
fn narrowed_until_the_null(batch: Option<usize>) {
    let (rows, err) = read_until_error_in_batches::<V2Narrowed>(&v1_file(), batch);
    match err {
        Some(e @ Error::Null { .. }) => {
            assert_eq!(e.column(), Some("maybe"), "{e}");
            assert_eq!(record_of(&e), Some(3), "{e}");
        }
        other => panic!("expected a null error at row 3, got {other:?}"),
    }
    let want: Vec<V2Narrowed> =
        v1_rows().into_iter().take(3).map(|r| V2Narrowed { id: r.id, maybe: r.maybe.unwrap_or(-1) }).collect();
    assert_eq!(rows, want, "the records before the null are read");
}

#[test]
fn optional_column_into_required_field_fails_at_the_first_null() {
    narrowed_until_the_null(Some(1));
}

#[test]
fn optional_column_into_required_field_keeps_the_records_before_the_null_in_a_batch() {
    // With the default batch (1024 records) the reader drops the whole batch
    // when record 3 fails, so records 0..3 are never returned.
    narrowed_until_the_null(None);
}

// ---------------------------------------------------------------------------
// Illegal projections
// ---------------------------------------------------------------------------

#[derive(ParquetType, Debug)]
struct MissingRequired {
    id: i64,
    email: String,
}

#[test]
fn missing_required_field_lists_the_available_fields() {
    let e = open_error::<MissingRequired>(&v1_file());
    assert!(matches!(e, Error::Mismatch { .. }), "{e:?}");
    let msg = message_of(&e);
    assert!(msg.contains("`email`"), "{msg}");
    for field in ["id", "name", "score", "maybe", "inner", "tags"] {
        assert!(msg.contains(field), "{msg} should list {field}");
    }
}

#[derive(ParquetType, Debug)]
struct MissingNested {
    inner: MissingNestedInner,
}

#[derive(ParquetType, Debug)]
struct MissingNestedInner {
    a: i32,
    z: bool,
}

#[test]
fn missing_required_nested_field_names_its_group() {
    refused::<MissingNested>(&v1_file(), "inner", &["`z`", "[a, b, c]"]);
}

#[derive(ParquetType, Debug)]
struct StringAsInt {
    name: i32,
}

#[derive(ParquetType, Debug)]
struct IntAsString {
    id: String,
}

#[derive(ParquetType, Debug)]
struct IntAsDouble {
    maybe: Option<f64>,
}

#[test]
fn physical_type_mismatch_names_both_types() {
    let file = v1_file();
    refused::<StringAsInt>(&file, "name", &["integer", "BYTE_ARRAY"]);

    refused::<IntAsString>(&file, "id", &["string", "INT64"]);

    refused::<IntAsDouble>(&file, "maybe", &["DOUBLE", "INT32"]);
}

#[derive(ParquetType, Debug)]
struct LongAsInt {
    id: i32,
}

#[derive(ParquetType, Debug)]
struct SignedAsUnsigned {
    maybe: Option<u32>,
}

#[test]
fn narrowing_integers_is_refused() {
    let file = v1_file();
    refused::<LongAsInt>(&file, "id", &["i32"]);
    // Signed INT32 may hold negatives: never read into u32.
    refused::<SignedAsUnsigned>(&file, "maybe", &[]);
}

#[derive(ParquetType, Debug)]
struct StructAsScalar {
    inner: i32,
}

#[derive(ParquetType, Debug)]
struct ScalarAsStruct {
    name: InnerProjected,
}

#[derive(ParquetType, Debug)]
struct ListAsScalar {
    tags: String,
}

#[test]
fn shape_mismatches_are_refused() {
    let file = v1_file();
    refused::<StructAsScalar>(&file, "inner", &[]);
    refused::<ScalarAsStruct>(&file, "name", &[]);
    refused::<ListAsScalar>(&file, "tags", &[]);
}

// ---------------------------------------------------------------------------
// Layout changes between writer and reader
// ---------------------------------------------------------------------------

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct TwoLevelWritten {
    #[parquet(list = "two-level")]
    xs: Vec<i32>,
    #[parquet(list = "two-level")]
    groups: Vec<InnerProjected>,
    #[parquet(list = "repeated")]
    bare: Vec<String>,
}

#[derive(ParquetType, Debug, PartialEq)]
struct ThreeLevelRead {
    xs: Vec<i32>,
    groups: Option<Vec<InnerProjected>>,
    bare: Vec<Option<String>>,
}

#[test]
fn two_level_and_bare_files_read_by_three_level_types() {
    let rows: Vec<TwoLevelWritten> = (0..4)
        .map(|i| TwoLevelWritten {
            xs: (0..i).collect(),
            groups: (0..i % 3).map(|j| InnerProjected { c: vec![f64::from(j)], a: j }).collect(),
            bare: (0..(3 - i)).map(|j| format!("{i}{j}")).collect(),
        })
        .collect();
    let file = write(&rows);
    let text = magnolify_parquet::schema::to_text(
        ParquetReader::<TwoLevelWritten, _>::new(file.clone()).expect("open").metadata().file_metadata().schema(),
    );
    assert!(text.contains("REPEATED INT32 array ("), "{text}");
    assert!(text.contains("REPEATED BYTE_ARRAY bare ("), "{text}");

    let got: Vec<ThreeLevelRead> = read(&file).expect("read");
    let want: Vec<ThreeLevelRead> = rows
        .iter()
        .map(|r| ThreeLevelRead {
            xs: r.xs.clone(),
            groups: Some(r.groups.iter().map(|g| InnerProjected { c: g.c.clone(), a: g.a }).collect()),
            bare: r.bare.iter().cloned().map(Some).collect(),
        })
        .collect();
    assert_eq!(got, want);
    // And the writer's own type reads it back too.
    assert_eq!(read::<TwoLevelWritten>(&file).expect("read"), rows);
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct MillisWritten {
    #[parquet(timestamp = "millis")]
    local: NaiveDateTime,
    #[parquet(timestamp = "millis")]
    instant: Option<DateTime<Utc>>,
}

#[derive(ParquetType, Debug, PartialEq)]
struct MicrosRead {
    local: NaiveDateTime,
    instant: Option<DateTime<Utc>>,
}

#[derive(ParquetType, Debug, PartialEq)]
struct NanosRead {
    #[parquet(timestamp = "nanos")]
    local: NaiveDateTime,
}

#[test]
fn millis_timestamps_read_into_micros_and_nanos_fields_exactly() {
    let base = NaiveDate::from_ymd_opt(1969, 12, 31).and_then(|d| d.and_hms_milli_opt(23, 59, 59, 999)).expect("date");
    let rows: Vec<MillisWritten> = (0..4i64)
        .map(|i| {
            let t = base + chrono::Duration::milliseconds(i * 86_400_001);
            MillisWritten { local: t, instant: (i != 2).then_some(t.and_utc()) }
        })
        .collect();
    let file = write(&rows);
    let got: Vec<MicrosRead> = read(&file).expect("read");
    let want: Vec<MicrosRead> = rows.iter().map(|r| MicrosRead { local: r.local, instant: r.instant }).collect();
    assert_eq!(got, want);
    let got: Vec<NanosRead> = read(&file).expect("read");
    assert_eq!(got, rows.iter().map(|r| NanosRead { local: r.local }).collect::<Vec<_>>());
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct NanosWritten {
    #[parquet(timestamp = "nanos")]
    local: NaiveDateTime,
}

#[derive(ParquetType, Debug, PartialEq)]
struct LocalAsInstant {
    #[parquet(timestamp = "nanos")]
    local: DateTime<Utc>,
}

#[test]
fn finer_or_local_timestamps_are_refused() {
    let t = NaiveDate::from_ymd_opt(2024, 2, 29).and_then(|d| d.and_hms_nano_opt(1, 2, 3, 456_789_123)).expect("date");
    let file = write(&[NanosWritten { local: t }]);
    // NANOS into a micros field would drop digits.
    refused::<MicrosRead>(&file, "local", &["NANOS"]);
    // A local timestamp is not an instant.
    refused::<LocalAsInstant>(&file, "local", &[]);
    assert_eq!(read::<NanosRead>(&file).expect("read"), [NanosRead { local: t }]);
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct DecimalScale3 {
    #[parquet(decimal(precision = 9, scale = 3))]
    d: Decimal,
}

#[derive(ParquetType, Debug, PartialEq)]
struct DecimalAsFile {
    #[parquet(decimal(precision = 9, scale = 3))]
    d: Decimal,
}

#[derive(ParquetType, Debug, PartialEq)]
struct BigDecimalAsFile {
    #[parquet(decimal(precision = 9, scale = 3))]
    d: BigDecimal,
}

#[derive(ParquetType, Debug, PartialEq)]
struct DecimalScale5 {
    #[parquet(decimal(precision = 12, scale = 5))]
    d: Decimal,
}

#[derive(ParquetType, Debug, PartialEq)]
struct DecimalScale2 {
    #[parquet(decimal(precision = 9, scale = 2))]
    d: Decimal,
}

#[derive(ParquetType, Debug, PartialEq)]
struct DecimalTooNarrow {
    #[parquet(decimal(precision = 3, scale = 3))]
    d: Decimal,
}

fn decimal_file() -> Bytes {
    let rows: Vec<DecimalScale3> =
        [1250, -2100, 3125].into_iter().map(|v| DecimalScale3 { d: Decimal::new(v, 3) }).collect();
    write(&rows)
}

#[test]
fn decimals_keep_the_file_scale_or_rescale_exactly() {
    let file = decimal_file();
    // Declared at the file's scale: digits kept ("1.250", not "1.25").
    let got: Vec<DecimalAsFile> = read(&file).expect("read");
    let text: Vec<String> = got.iter().map(|r| r.d.to_string()).collect();
    assert_eq!(text, ["1.250", "-2.100", "3.125"]);
    let got: Vec<BigDecimalAsFile> = read(&file).expect("read");
    let want: Vec<BigDecimal> =
        ["1.250", "-2.100", "3.125"].iter().map(|t| BigDecimal::from_str(t).expect("literal")).collect();
    assert_eq!(got.iter().map(|r| r.d.clone()).collect::<Vec<_>>(), want);
    // The scale is the file's: 3 digits, not the fewest that show the value.
    assert!(got.iter().all(|r| r.d.as_bigint_and_exponent().1 == 3), "{got:?}");
    // A larger scale: multiplied up, exactly.
    let got: Vec<DecimalScale5> = read(&file).expect("read");
    let text: Vec<String> = got.iter().map(|r| r.d.to_string()).collect();
    assert_eq!(text, ["1.25000", "-2.10000", "3.12500"]);
}

#[test]
fn decimal_scale_mismatch_that_drops_digits_is_an_error() {
    // Scale 3 into scale 2: 1.250 and -2.100 fit, 3.125 would lose a digit.
    let (rows, err) = read_until_error_in_batches::<DecimalScale2>(&decimal_file(), Some(1));
    let text: Vec<String> = rows.iter().map(|r| r.d.to_string()).collect();
    assert_eq!(text, ["1.25", "-2.10"]);
    match err {
        Some(e @ Error::Value { .. }) if record_of(&e) == Some(2) => {
            assert_eq!(e.column(), Some("d"), "{e}");
            assert!(e.to_string().contains("fraction digits"), "{e}");
        }
        other => panic!("expected a value error at row 2, got {other:?}"),
    }
    // Too few integer digits: DECIMAL(3, 3) holds no 1.250.
    let (rows, err) = read_until_error::<DecimalTooNarrow>(&decimal_file());
    assert!(rows.is_empty());
    let e = err.expect("an error");
    assert_eq!(e.column(), Some("d"), "{e}");
}

// ---------------------------------------------------------------------------
// Every list layout
// ---------------------------------------------------------------------------

#[derive(ParquetType, Debug, PartialEq)]
struct NullableElements {
    xs: Option<Vec<Option<i32>>>,
}

#[derive(ParquetType, Debug, PartialEq)]
struct NonNullList {
    xs: Vec<Option<i32>>,
}

#[derive(ParquetType, Debug, PartialEq)]
struct NonNullElements {
    xs: Option<Vec<i32>>,
}

/// Spark's `containsNull = true` array: 3-level, optional list, optional elements.
fn spark_list_file() -> Bytes {
    write_raw(
        "message spark_schema {
           optional group xs (LIST) { repeated group list { optional int32 element; } }
         }",
        // [1, null, 3], null, [], [null]
        &[col(Values::I32(&[1, 3]), &[3, 2, 3, 0, 1, 2], &[0, 1, 1, 0, 0, 0])],
    )
}

#[test]
fn three_level_list_with_optional_elements() {
    let file = spark_list_file();
    let got: Vec<NullableElements> = read(&file).expect("read");
    assert_eq!(
        got,
        [
            NullableElements { xs: Some(vec![Some(1), None, Some(3)]) },
            NullableElements { xs: None },
            NullableElements { xs: Some(vec![]) },
            NullableElements { xs: Some(vec![None]) },
        ]
    );
    // A null list where the type has none: error at row 1 (batches of one
    // record, so that row 0 comes out first).
    let (rows, err) = read_until_error_in_batches::<NonNullList>(&file, Some(1));
    assert_eq!(rows, [NonNullList { xs: vec![Some(1), None, Some(3)] }]);
    match err {
        Some(e @ Error::Null { .. }) if record_of(&e) == Some(1) => {
            assert!(e.column().is_some_and(|p| p.starts_with("xs")), "{e}")
        }
        other => panic!("expected a null error at row 1, got {other:?}"),
    }
    // A null element where the type has none: error at row 0.
    let (rows, err) = read_until_error::<NonNullElements>(&file);
    assert!(rows.is_empty());
    match err {
        Some(e @ Error::Null { .. }) if record_of(&e) == Some(0) => {
            assert_eq!(e.column(), Some("xs.list.element"), "{e}")
        }
        other => panic!("expected a null error at row 0, got {other:?}"),
    }
}

#[derive(ParquetType, Debug, PartialEq)]
struct Pt {
    x: i32,
    label: Option<String>,
}

#[derive(ParquetType, Debug, PartialEq)]
struct AvroTwoLevel {
    xs: Vec<i32>,
    pts: Option<Vec<Pt>>,
}

#[test]
fn two_level_array_lists() {
    // parquet-avro's old layout: the repeated field named `array` is the element.
    let file = write_raw(
        "message avro {
           required group xs (LIST) { repeated int32 array; }
           optional group pts (LIST) { repeated group array { required int32 x; optional binary label (UTF8); } }
         }",
        &[
            col(Values::I32(&[1, 2, 7]), &[1, 1, 0, 1], &[0, 1, 0, 0]),
            col(Values::I32(&[1, 2]), &[2, 2, 0, 1], &[0, 1, 0, 0]),
            col(Values::Str(&["a"]), &[3, 2, 0, 1], &[0, 1, 0, 0]),
        ],
    );
    let got: Vec<AvroTwoLevel> = read(&file).expect("read");
    assert_eq!(
        got,
        [
            AvroTwoLevel {
                xs: vec![1, 2],
                pts: Some(vec![Pt { x: 1, label: Some("a".into()) }, Pt { x: 2, label: None }])
            },
            AvroTwoLevel { xs: vec![], pts: None },
            AvroTwoLevel { xs: vec![7], pts: Some(vec![]) },
        ]
    );
}

#[derive(ParquetType, Debug, PartialEq)]
struct Named {
    name: String,
}

#[derive(ParquetType, Debug, PartialEq)]
struct TupleLists {
    names: Vec<Named>,
    wrapped: Vec<String>,
}

#[test]
fn tuple_named_two_level_lists_and_single_field_three_level_lists() {
    // `names_tuple` (parquet-thrift) is the element itself, a struct of one
    // field; a single-field repeated group with another name is a 3-level
    // wrapper whose field is the element.
    let file = write_raw(
        "message thrift {
           required group names (LIST) { repeated group names_tuple { required binary name (UTF8); } }
           required group wrapped (LIST) { repeated group bag { required binary name (UTF8); } }
         }",
        &[col(Values::Str(&["a", "b"]), &[1, 1, 0], &[0, 1, 0]), col(Values::Str(&["p"]), &[1, 0], &[0, 0])],
    );
    let got: Vec<TupleLists> = read(&file).expect("read");
    assert_eq!(
        got,
        [
            TupleLists {
                names: vec![Named { name: "a".into() }, Named { name: "b".into() }],
                wrapped: vec!["p".into()]
            },
            TupleLists { names: vec![], wrapped: vec![] },
        ]
    );
}

#[derive(ParquetType, Debug, PartialEq)]
struct Xy {
    x: i32,
    y: i32,
}

#[derive(ParquetType, Debug, PartialEq)]
struct TagGroup {
    tags: Vec<String>,
}

#[derive(ParquetType, Debug, PartialEq)]
struct Bare {
    ids: Vec<i32>,
    pts: Vec<Xy>,
    g: TagGroup,
}

#[test]
fn one_level_bare_repeated_fields() {
    let file = write_raw(
        "message bare {
           repeated int32 ids;
           repeated group pts { required int32 x; required int32 y; }
           required group g { repeated binary tags (UTF8); }
         }",
        &[
            col(Values::I32(&[1, 2, 3, 4]), &[1, 1, 1, 0, 1], &[0, 1, 1, 0, 0]),
            col(Values::I32(&[1, 3, 5]), &[1, 0, 1, 1], &[0, 0, 0, 1]),
            col(Values::I32(&[2, 4, 6]), &[1, 0, 1, 1], &[0, 0, 0, 1]),
            col(Values::Str(&["a", "b", "c"]), &[1, 1, 0, 1], &[0, 1, 0, 0]),
        ],
    );
    let got: Vec<Bare> = read(&file).expect("read");
    assert_eq!(
        got,
        [
            Bare {
                ids: vec![1, 2, 3],
                pts: vec![Xy { x: 1, y: 2 }],
                g: TagGroup { tags: vec!["a".into(), "b".into()] }
            },
            Bare { ids: vec![], pts: vec![], g: TagGroup { tags: vec![] } },
            Bare {
                ids: vec![4],
                pts: vec![Xy { x: 3, y: 4 }, Xy { x: 5, y: 6 }],
                g: TagGroup { tags: vec!["c".into()] }
            },
        ]
    );
}

#[derive(ParquetType, Debug)]
struct BareAsOption {
    ids: Option<i32>,
}

#[test]
fn bare_repeated_field_into_a_single_value_is_refused() {
    let file = write_raw("message bare { repeated int32 ids; }", &[col(Values::I32(&[1]), &[1], &[0])]);
    refused::<BareAsOption>(&file, "ids", &["repeated"]);
}

// ---------------------------------------------------------------------------
// Every map layout
// ---------------------------------------------------------------------------

type Inner = Option<Vec<Option<i32>>>;

#[derive(ParquetType, Debug, PartialEq)]
struct ListMapList {
    lml: Option<Vec<Option<BTreeMap<String, Inner>>>>,
}

#[test]
fn list_inside_map_inside_list() {
    let file = write_raw(
        "message nested {
           optional group lml (LIST) {
             repeated group list {
               optional group element (MAP) {
                 repeated group key_value {
                   required binary key (UTF8);
                   optional group value (LIST) { repeated group list { optional int32 element; } }
                 }
               }
             }
           }
         }",
        // [{a: [1, null], b: null, c: []}, null, {}], null, [], [{z: [5]}]
        &[
            col(Values::Str(&["a", "b", "c", "z"]), &[4, 4, 4, 2, 3, 0, 1, 4], &[0, 2, 2, 1, 1, 0, 0, 0]),
            col(Values::I32(&[1, 5]), &[7, 6, 4, 5, 2, 3, 0, 1, 7], &[0, 3, 2, 2, 1, 1, 0, 0, 0]),
        ],
    );
    let got: Vec<ListMapList> = read(&file).expect("read");
    let first: BTreeMap<String, Inner> =
        [("a".into(), Some(vec![Some(1), None])), ("b".into(), None), ("c".into(), Some(vec![]))].into();
    assert_eq!(
        got,
        [
            ListMapList { lml: Some(vec![Some(first), None, Some(BTreeMap::new())]) },
            ListMapList { lml: None },
            ListMapList { lml: Some(vec![]) },
            ListMapList { lml: Some(vec![Some([("z".into(), Some(vec![Some(5)]))].into())]) },
        ]
    );
}

#[derive(ParquetType, Debug, PartialEq)]
struct Hive {
    m: Option<BTreeMap<String, Option<i32>>>,
    n: HashMap<i32, String>,
}

#[test]
fn map_key_value_annotated_maps() {
    // Old Hive/parquet-mr forms: MAP_KEY_VALUE on the outer group, or on the
    // repeated key/value group under MAP.
    let file = write_raw(
        "message hive {
           optional group m (MAP_KEY_VALUE) {
             repeated group map { required binary key (UTF8); optional int32 value; }
           }
           required group n (MAP) {
             repeated group map (MAP_KEY_VALUE) { required int32 key; required binary value (UTF8); }
           }
         }",
        &[
            col(Values::Str(&["x", "y"]), &[2, 2, 0, 1], &[0, 1, 0, 0]),
            col(Values::I32(&[1]), &[3, 2, 0, 1], &[0, 1, 0, 0]),
            col(Values::I32(&[1, 2, 3]), &[1, 0, 1, 1], &[0, 0, 0, 1]),
            col(Values::Str(&["one", "two", "three"]), &[1, 0, 1, 1], &[0, 0, 0, 1]),
        ],
    );
    let got: Vec<Hive> = read(&file).expect("read");
    assert_eq!(
        got,
        [
            Hive { m: Some([("x".into(), Some(1)), ("y".into(), None)].into()), n: [(1, "one".into())].into() },
            Hive { m: None, n: HashMap::new() },
            Hive { m: Some(BTreeMap::new()), n: [(2, "two".into()), (3, "three".into())].into() },
        ]
    );
}

#[derive(ParquetType, Debug, PartialEq)]
struct KeysAsList {
    s: Vec<i32>,
}

#[derive(ParquetType, Debug, PartialEq)]
struct KeysAsMap {
    s: BTreeMap<i32, Option<String>>,
}

#[derive(ParquetType, Debug, PartialEq)]
struct KeysAsRequiredMap {
    s: BTreeMap<i32, String>,
}

#[test]
fn key_only_maps() {
    let file = write_raw(
        "message keys { required group s (MAP) { repeated group key_value { required int32 key; } } }",
        &[col(Values::I32(&[1, 2, 3, 4]), &[1, 1, 1, 0, 1], &[0, 1, 1, 0, 0])],
    );
    let got: Vec<KeysAsList> = read(&file).expect("read");
    assert_eq!(got, [KeysAsList { s: vec![1, 2, 3] }, KeysAsList { s: vec![] }, KeysAsList { s: vec![4] }]);
    let got: Vec<KeysAsMap> = read(&file).expect("read");
    assert_eq!(
        got,
        [
            KeysAsMap { s: [(1, None), (2, None), (3, None)].into() },
            KeysAsMap { s: BTreeMap::new() },
            KeysAsMap { s: [(4, None)].into() },
        ]
    );
    refused::<KeysAsRequiredMap>(&file, "s", &["no values"]);
}

#[derive(ParquetType, Debug, PartialEq)]
struct Flags {
    flags: BTreeMap<String, bool>,
    weights: Option<Vec<f64>>,
    big: Vec<i64>,
}

#[test]
fn map_and_list_of_other_primitives() {
    let file = write_raw(
        "message m {
           required group flags (MAP) { repeated group key_value { required binary key (STRING); required boolean value; } }
           optional group weights (LIST) { repeated group list { required double element; } }
           required group big (LIST) { repeated group list { required int64 element; } }
         }",
        &[
            col(Values::Str(&["on", "off"]), &[1, 1, 0], &[0, 1, 0]),
            col(Values::Bool(&[true, false]), &[1, 1, 0], &[0, 1, 0]),
            col(Values::F64(&[0.5, -0.0]), &[2, 2, 0], &[0, 1, 0]),
            col(Values::I64(&[i64::MIN, i64::MAX]), &[1, 1], &[0, 0]),
        ],
    );
    let got: Vec<Flags> = read(&file).expect("read");
    assert_eq!(got.len(), 2);
    assert_eq!(got[0].flags, BTreeMap::from([("on".into(), true), ("off".into(), false)]));
    assert_eq!(got[0].big, [i64::MIN]);
    let w = got[0].weights.as_deref().expect("weights");
    assert_eq!(w.iter().map(|v| v.to_bits()).collect::<Vec<_>>(), [0.5f64.to_bits(), (-0.0f64).to_bits()]);
    assert_eq!(got[1], Flags { flags: BTreeMap::new(), weights: None, big: vec![i64::MAX] });
}

/// A type none of whose fields is in the file reads no column, and still gets
/// one record per row of the file (each of missing values), across row
/// groups, from files and from the store.
#[test]
fn a_type_with_no_field_in_the_file_reads_one_record_per_row() {
    #[derive(ParquetType, Debug, PartialEq, Clone)]
    struct Written {
        id: u32,
        name: String,
    }
    #[derive(ParquetType, Debug, PartialEq)]
    struct OnlyNew {
        comment: Option<String>,
        tags: Vec<String>,
        #[parquet(default)]
        score: i64,
    }
    let rows: Vec<Written> = (0..7).map(|id| Written { id, name: format!("n{id}") }).collect();
    let mut writer =
        magnolify_parquet::WriterBuilder::<Written>::new().max_row_group_rows(3).build(Vec::new()).unwrap();
    writer.write_all(&rows).unwrap();
    let file = bytes::Bytes::from(writer.into_inner().unwrap());
    let empty = || OnlyNew { comment: None, tags: vec![], score: 0 };

    let reader = magnolify_parquet::ReaderBuilder::new(file)
        .unwrap()
        .build::<OnlyNew>(ReadOptions::default().batch_size(2))
        .unwrap();
    assert_eq!(reader.metadata().num_row_groups(), 3);
    assert!(reader.projected_columns().is_empty());
    let got: Vec<OnlyNew> = reader.collect::<Result<_, _>>().unwrap();
    assert_eq!(got, (0..7).map(|_| empty()).collect::<Vec<_>>());

    let store = magnolify_parquet::mem::MemPageStore::write_all::<Written>(&rows).unwrap();
    let got: Vec<OnlyNew> = store.read::<OnlyNew>().unwrap().collect::<Result<_, _>>().unwrap();
    assert_eq!(got.len(), 7);
    assert!(got.iter().all(|r| *r == empty()));
}
