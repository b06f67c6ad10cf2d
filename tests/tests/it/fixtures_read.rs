//! Reads every file of `tests/fixtures` (apache/parquet-testing, and files
//! written by pyarrow and DuckDB) into hand-written structs and compares every
//! row with the file's `*.expected.json`, exactly: integers by value, floats
//! bit for bit, decimals with their scale, timestamps to the file's unit.
//!
//! Damaged files (`bad_data/`) and files no Rust type can express must give a
//! clear error naming the column, and never a panic.

use std::collections::{BTreeMap, HashMap};
use std::fs::File;

use apache_avro::BigDecimal;
use chrono::{DateTime, NaiveDate, NaiveDateTime, NaiveTime, Utc};
use magnolify_parquet::{Error, OwnedRecord, ParquetReader, ParquetType, ReadOptions, ReaderBuilder};
use rust_decimal::Decimal;
use serde_json::Value;
use test_kit::fixtures::{rows, with_expected as fixture};
use test_kit::io::until_error;
use test_kit::json::{check_rows, Fmt, ToJson};
use test_kit::to_json_struct;
use uuid::Uuid;

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

fn open<T: OwnedRecord>(name: &str) -> Result<ParquetReader<T, File>, Error> {
    open_in_batches(name, 1024)
}

fn open_in_batches<T: OwnedRecord>(name: &str, batch: usize) -> Result<ParquetReader<T, File>, Error> {
    let (path, _) = fixture(name);
    let file = File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    ReaderBuilder::new(file)?.build(ReadOptions::default().batch_size(batch))
}

/// Reads fixture `name` into `T` and compares every row with its expectation.
pub(crate) fn check<T: OwnedRecord + ToJson>(name: &str) -> Vec<T> {
    let (_, doc) = fixture(name);
    let reader =
        open::<T>(name).unwrap_or_else(|e| panic!("{name}: cannot open as {}: {e}", std::any::type_name::<T>()));
    let got: Vec<T> = reader.collect::<Result<_, _>>().unwrap_or_else(|e| panic!("{name}: read error: {e}"));
    if let Err(diff) = check_rows(&got, rows(&doc)) {
        panic!("{name}: {diff}");
    }
    got
}

/// `#[test] fn $test`: [`check`] of fixture `$name` as `$ty`.
macro_rules! fixture_test {
    ($test:ident, $ty:ty, $name:literal) => {
        #[test]
        fn $test() {
            check::<$ty>($name);
        }
    };
}

/// Fixture `name` must fail as `T` (see [`expect_error`]), naming `column`.
fn refused_at<T: OwnedRecord>(name: &str, column: &str) -> Error {
    let e = expect_error::<T>(name);
    assert_eq!(e.column(), Some(column), "{e:?}");
    e
}

/// Reads fixture `name` until the first error: the records and the error.
/// One record per batch, so that the records before a failing one come out
/// (the reader drops a whole batch when one of its records fails).
fn read_until_error<T: OwnedRecord>(name: &str) -> (Vec<T>, Option<Error>) {
    match open_in_batches::<T>(name, 1) {
        Ok(reader) => until_error(reader),
        Err(e) => (Vec::new(), Some(e)),
    }
}

/// Fixture `name` must fail (at open or while reading) without a panic.
fn expect_error<T: OwnedRecord>(name: &str) -> Error {
    match open::<T>(name).and_then(|r| r.collect::<Result<Vec<T>, _>>()) {
        Err(e) => e,
        Ok(rows) => panic!("{name}: read {} rows as {} without an error", rows.len(), std::any::type_name::<T>()),
    }
}

// ---------------------------------------------------------------------------
// Flat files: alltypes, decimals, encodings
// ---------------------------------------------------------------------------

#[derive(ParquetType, Debug)]
struct AllTypes {
    id: Option<i32>,
    bool_col: Option<bool>,
    tinyint_col: Option<i32>,
    smallint_col: Option<i32>,
    int_col: Option<i32>,
    bigint_col: Option<i64>,
    float_col: Option<f32>,
    double_col: Option<f64>,
    // Impala wrote the strings without a UTF8 annotation: bytes.
    date_string_col: Option<Vec<u8>>,
    string_col: Option<Vec<u8>>,
    timestamp_col: Option<NaiveDateTime>,
}
to_json_struct!(AllTypes {
    "id" => id, "bool_col" => bool_col, "tinyint_col" => tinyint_col, "smallint_col" => smallint_col,
    "int_col" => int_col, "bigint_col" => bigint_col, "float_col" => float_col, "double_col" => double_col,
    "date_string_col" => date_string_col, "string_col" => string_col, "timestamp_col" => timestamp_col @ Fmt::INT96,
});

#[test]
fn alltypes_plain() {
    let rows = check::<AllTypes>("parquet-testing/alltypes_plain");
    assert_eq!(rows.len(), 8);
}

fixture_test!(alltypes_plain_snappy, AllTypes, "parquet-testing/alltypes_plain.snappy");

fixture_test!(alltypes_dictionary, AllTypes, "parquet-testing/alltypes_dictionary");

#[derive(ParquetType, Debug)]
struct AllTypesAsText {
    date_string_col: Option<String>,
    timestamp_col: Option<DateTime<Utc>>,
}

#[test]
fn alltypes_unannotated_bytes_read_as_strings_and_int96_as_instants() {
    let rows: Vec<AllTypesAsText> =
        open("parquet-testing/alltypes_plain").and_then(|r| r.collect()).expect("read as text and instants");
    assert_eq!(rows[0].date_string_col.as_deref(), Some("03/01/09"));
    let ts = rows[0].timestamp_col.expect("timestamp");
    assert_eq!(ts.to_json(Fmt::NANOS), Value::from("2009-03-01T00:00:00.000000000Z"));
}

#[derive(ParquetType, Debug)]
struct DecimalValue {
    // Every decimal fixture but one has scale 2 and at most 25 digits.
    #[parquet(decimal(precision = 28, scale = 2))]
    value: Option<Decimal>,
}
to_json_struct!(DecimalValue { "value" => value });

#[derive(ParquetType, Debug)]
struct BigDecimalValue {
    #[parquet(decimal(precision = 38, scale = 2))]
    value: Option<BigDecimal>,
}
to_json_struct!(BigDecimalValue { "value" => value });

/// Every decimal encoding (INT32, INT64, FIXED_LEN_BYTE_ARRAY, its legacy
/// form, BYTE_ARRAY), into `Decimal` and into `BigDecimal`.
#[test]
fn decimals() {
    for file in
        ["int32_decimal", "int64_decimal", "fixed_length_decimal", "fixed_length_decimal_legacy", "byte_array_decimal"]
    {
        let name = format!("parquet-testing/{file}");
        check::<DecimalValue>(&name);
        check::<BigDecimalValue>(&name);
    }
}

#[derive(ParquetType, Debug)]
struct DecimalAsInt {
    value: Option<i32>,
}

#[test]
fn decimal_into_an_integer_is_refused() {
    let e = refused_at::<DecimalAsInt>("parquet-testing/int32_decimal", "value");
    assert!(matches!(e, Error::Mismatch { .. }), "{e:?}");
}

#[derive(ParquetType, Debug)]
struct Int96 {
    a: Option<DateTime<Utc>>,
}
to_json_struct!(Int96 { "a" => a @ Fmt::INT96 });

#[test]
fn int96_from_spark() {
    // Row 5 is in the year 290000, past chrono's ±262 143 years: rows 0..5
    // read with Spark's values, then a clear error names the column and row.
    let name = "parquet-testing/int96_from_spark";
    let (_, doc) = fixture(name);
    let (got, err) = read_until_error::<Int96>(name);
    check_rows(&got, &rows(&doc)[..5]).unwrap_or_else(|d| panic!("{name}: {d}"));
    match err {
        Some(e @ Error::Value { .. }) if e.location().and_then(|l| l.record) == Some(5) => {
            assert_eq!(e.column(), Some("a"), "{e}")
        }
        other => panic!("{name}: expected a value error at row 5, got {other:?}"),
    }
}

#[derive(ParquetType, Debug)]
struct DataPageV2 {
    a: Option<String>,
    b: i32,
    c: f64,
    d: bool,
    e: Option<Vec<i32>>,
}
to_json_struct!(DataPageV2 { "a" => a, "b" => b, "c" => c, "d" => d, "e" => e });

fixture_test!(datapage_v2_snappy, DataPageV2, "parquet-testing/datapage_v2.snappy");

/// `delta_binary_packed`: 65 INT64 columns `bitwidth0..=64` and `int_value`.
macro_rules! delta_binary_packed {
    ($($f:ident),*) => {
        #[derive(ParquetType, Debug)]
        struct DeltaBinaryPacked {
            $($f: Option<i64>,)*
            int_value: Option<i32>,
        }
        to_json_struct!(DeltaBinaryPacked { $(stringify!($f) => $f,)* "int_value" => int_value });
    };
}
delta_binary_packed!(
    bitwidth0, bitwidth1, bitwidth2, bitwidth3, bitwidth4, bitwidth5, bitwidth6, bitwidth7, bitwidth8, bitwidth9,
    bitwidth10, bitwidth11, bitwidth12, bitwidth13, bitwidth14, bitwidth15, bitwidth16, bitwidth17, bitwidth18,
    bitwidth19, bitwidth20, bitwidth21, bitwidth22, bitwidth23, bitwidth24, bitwidth25, bitwidth26, bitwidth27,
    bitwidth28, bitwidth29, bitwidth30, bitwidth31, bitwidth32, bitwidth33, bitwidth34, bitwidth35, bitwidth36,
    bitwidth37, bitwidth38, bitwidth39, bitwidth40, bitwidth41, bitwidth42, bitwidth43, bitwidth44, bitwidth45,
    bitwidth46, bitwidth47, bitwidth48, bitwidth49, bitwidth50, bitwidth51, bitwidth52, bitwidth53, bitwidth54,
    bitwidth55, bitwidth56, bitwidth57, bitwidth58, bitwidth59, bitwidth60, bitwidth61, bitwidth62, bitwidth63,
    bitwidth64
);

fixture_test!(delta_binary_packed, DeltaBinaryPacked, "parquet-testing/delta_binary_packed");

#[derive(ParquetType, Debug)]
struct DeltaByteArray {
    c_customer_id: Option<String>,
    c_salutation: Option<String>,
    c_first_name: Option<String>,
    c_last_name: Option<String>,
    c_preferred_cust_flag: Option<String>,
    c_birth_country: Option<String>,
    c_login: Option<String>,
    c_email_address: Option<String>,
    c_last_review_date: Option<String>,
}
to_json_struct!(DeltaByteArray {
    "c_customer_id" => c_customer_id, "c_salutation" => c_salutation, "c_first_name" => c_first_name,
    "c_last_name" => c_last_name, "c_preferred_cust_flag" => c_preferred_cust_flag,
    "c_birth_country" => c_birth_country, "c_login" => c_login, "c_email_address" => c_email_address,
    "c_last_review_date" => c_last_review_date,
});

fixture_test!(delta_byte_array, DeltaByteArray, "parquet-testing/delta_byte_array");

#[derive(ParquetType, Debug)]
struct ByteStreamSplit {
    f32: Option<f32>,
    f64: Option<f64>,
}
to_json_struct!(ByteStreamSplit { "f32" => f32, "f64" => f64 });

fixture_test!(byte_stream_split_zstd, ByteStreamSplit, "parquet-testing/byte_stream_split.zstd");

// ---------------------------------------------------------------------------
// Nesting: lists, maps, structs in every writer's layout
// ---------------------------------------------------------------------------

/// A nullable list of nullable elements (Spark's and Impala's default).
type OptList<T> = Option<Vec<Option<T>>>;

#[derive(ParquetType, Debug)]
struct NestedLists {
    a: OptList<OptList<OptList<String>>>,
    b: i32,
}
to_json_struct!(NestedLists { "a" => a, "b" => b });

fixture_test!(nested_lists_snappy, NestedLists, "parquet-testing/nested_lists.snappy");

#[derive(ParquetType, Debug)]
struct NestedMaps {
    a: Option<BTreeMap<String, Option<HashMap<i32, bool>>>>,
    b: i32,
    c: f64,
}
to_json_struct!(NestedMaps { "a" => a, "b" => b, "c" => c });

fixture_test!(nested_maps_snappy, NestedMaps, "parquet-testing/nested_maps.snappy");

#[derive(ParquetType, Debug)]
struct ListColumns {
    int64_list: Option<Vec<Option<i64>>>,
    utf8_list: Option<Vec<Option<String>>>,
}
to_json_struct!(ListColumns { "int64_list" => int64_list, "utf8_list" => utf8_list });

fixture_test!(list_columns, ListColumns, "parquet-testing/list_columns");

#[derive(ParquetType, Debug)]
struct OldListStructure {
    a: Vec<Vec<i32>>,
}
to_json_struct!(OldListStructure { "a" => a });

fixture_test!(old_list_structure, OldListStructure, "parquet-testing/old_list_structure");

#[derive(ParquetType, Debug)]
struct Phone {
    number: i64,
    kind: Option<String>,
}
to_json_struct!(Phone { "number" => number, "kind" => kind });

#[derive(ParquetType, Debug)]
struct PhoneNumbers {
    phone: Vec<Phone>,
}
to_json_struct!(PhoneNumbers { "phone" => phone });

#[derive(ParquetType, Debug)]
struct RepeatedNoAnnotation {
    id: i32,
    #[parquet(rename = "phoneNumbers")]
    phone_numbers: Option<PhoneNumbers>,
}
to_json_struct!(RepeatedNoAnnotation { "id" => id, "phoneNumbers" => phone_numbers });

#[test]
fn repeated_no_annotation() {
    // The footer says 0 rows; the row group holds 6.
    let rows = check::<RepeatedNoAnnotation>("parquet-testing/repeated_no_annotation");
    assert_eq!(rows.len(), 6);
}

#[derive(ParquetType, Debug)]
struct GroupOfLists {
    #[parquet(rename = "Int32_list_in_group")]
    int32_list_in_group: Vec<i32>,
    #[parquet(rename = "String_list_in_group")]
    string_list_in_group: Vec<String>,
}
to_json_struct!(GroupOfLists {
    "Int32_list_in_group" => int32_list_in_group,
    "String_list_in_group" => string_list_in_group,
});

#[derive(ParquetType, Debug)]
struct RepeatedPrimitiveNoList {
    #[parquet(rename = "Int32_list")]
    int32_list: Vec<i32>,
    #[parquet(rename = "String_list")]
    string_list: Vec<String>,
    group_of_lists: GroupOfLists,
}
to_json_struct!(RepeatedPrimitiveNoList {
    "Int32_list" => int32_list, "String_list" => string_list, "group_of_lists" => group_of_lists,
});

fixture_test!(repeated_primitive_no_list, RepeatedPrimitiveNoList, "parquet-testing/repeated_primitive_no_list");

#[derive(ParquetType, Debug)]
struct MapNoValue {
    my_map: BTreeMap<i32, Option<i32>>,
    // A key-only MAP reads as the list of its keys, as pyarrow reads it.
    my_map_no_v: Vec<i32>,
    my_list: Vec<i32>,
}
to_json_struct!(MapNoValue { "my_map" => my_map, "my_map_no_v" => my_map_no_v, "my_list" => my_list });

fixture_test!(map_no_value, MapNoValue, "parquet-testing/map_no_value");

#[derive(ParquetType, Debug, PartialEq)]
struct KeyOnlyMapAsMap {
    my_map_no_v: BTreeMap<i32, Option<String>>,
}

#[derive(ParquetType, Debug)]
struct KeyOnlyMapRequiredValues {
    my_map_no_v: BTreeMap<i32, i32>,
}

#[test]
fn map_no_value_key_only_map_as_a_map() {
    let name = "parquet-testing/map_no_value";
    let got: Vec<KeyOnlyMapAsMap> = open(name).and_then(|r| r.collect()).expect("read");
    let want: Vec<KeyOnlyMapAsMap> = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
        .iter()
        .map(|ks| KeyOnlyMapAsMap { my_map_no_v: ks.iter().map(|&k| (k, None)).collect() })
        .collect();
    assert_eq!(got, want);
    // Values the file does not have cannot be required.
    let e = refused_at::<KeyOnlyMapRequiredValues>(name, "my_map_no_v");
    assert!(matches!(e, Error::Mismatch { .. }), "{e:?}");
}

#[derive(ParquetType, Debug)]
struct NullList {
    emptylist: Option<Vec<Option<i32>>>,
}
to_json_struct!(NullList { "emptylist" => emptylist });

#[test]
fn null_list() {
    // The element is annotated UNKNOWN (Arrow's Null type): every value is
    // null, so any optional element type can hold them.
    check::<NullList>("parquet-testing/null_list");
}

#[derive(ParquetType, Debug)]
struct BStruct {
    b_c_int: Option<i32>,
}
to_json_struct!(BStruct { "b_c_int" => b_c_int });

#[derive(ParquetType, Debug)]
struct Nulls {
    b_struct: Option<BStruct>,
}
to_json_struct!(Nulls { "b_struct" => b_struct });

fixture_test!(nulls_snappy, Nulls, "parquet-testing/nulls.snappy");

// nullable.impala: every level optional.

#[derive(ParquetType, Debug)]
struct ImpalaEf {
    #[parquet(rename = "E")]
    e: Option<i32>,
    #[parquet(rename = "F")]
    f: Option<String>,
}
to_json_struct!(ImpalaEf { "E" => e, "F" => f });

#[derive(ParquetType, Debug)]
struct ImpalaC {
    d: Option<Vec<Option<Vec<Option<ImpalaEf>>>>>,
}
to_json_struct!(ImpalaC { "d" => d });

#[derive(ParquetType, Debug)]
struct ImpalaH {
    i: Option<Vec<Option<f64>>>,
}
to_json_struct!(ImpalaH { "i" => i });

#[derive(ParquetType, Debug)]
struct ImpalaG {
    #[parquet(rename = "H")]
    h: Option<ImpalaH>,
}
to_json_struct!(ImpalaG { "H" => h });

#[derive(ParquetType, Debug)]
struct ImpalaNested {
    #[parquet(rename = "A")]
    a: Option<i32>,
    b: Option<Vec<Option<i32>>>,
    #[parquet(rename = "C")]
    c: Option<ImpalaC>,
    g: Option<BTreeMap<String, Option<ImpalaG>>>,
}
to_json_struct!(ImpalaNested { "A" => a, "b" => b, "C" => c, "g" => g });

#[derive(ParquetType, Debug)]
struct NullableImpala {
    id: Option<i64>,
    int_array: Option<Vec<Option<i32>>>,
    #[parquet(rename = "int_array_Array")]
    int_array_array: Option<Vec<Option<Vec<Option<i32>>>>>,
    int_map: Option<BTreeMap<String, Option<i32>>>,
    #[parquet(rename = "int_Map_Array")]
    int_map_array: OptList<HashMap<String, Option<i32>>>,
    nested_struct: Option<ImpalaNested>,
}
to_json_struct!(NullableImpala {
    "id" => id, "int_array" => int_array, "int_array_Array" => int_array_array, "int_map" => int_map,
    "int_Map_Array" => int_map_array, "nested_struct" => nested_struct,
});

fixture_test!(nullable_impala, NullableImpala, "parquet-testing/nullable.impala");

// nonnullable.impala: the same shapes, every level required; maps annotated MAP_KEY_VALUE.

#[derive(ParquetType, Debug)]
struct ImpalaEfRequired {
    e: i32,
    f: String,
}
to_json_struct!(ImpalaEfRequired { "e" => e, "f" => f });

#[derive(ParquetType, Debug)]
struct ImpalaCRequired {
    #[parquet(rename = "D")]
    d: Vec<Vec<ImpalaEfRequired>>,
}
to_json_struct!(ImpalaCRequired { "D" => d });

#[derive(ParquetType, Debug)]
struct ImpalaHRequired {
    i: Vec<f64>,
}
to_json_struct!(ImpalaHRequired { "i" => i });

#[derive(ParquetType, Debug)]
struct ImpalaGRequired {
    h: ImpalaHRequired,
}
to_json_struct!(ImpalaGRequired { "h" => h });

#[derive(ParquetType, Debug)]
struct ImpalaNestedRequired {
    a: i32,
    #[parquet(rename = "B")]
    b: Vec<i32>,
    c: ImpalaCRequired,
    #[parquet(rename = "G")]
    g: BTreeMap<String, ImpalaGRequired>,
}
to_json_struct!(ImpalaNestedRequired { "a" => a, "B" => b, "c" => c, "G" => g });

#[derive(ParquetType, Debug)]
struct NonNullableImpala {
    #[parquet(rename = "ID")]
    id: i64,
    #[parquet(rename = "Int_Array")]
    int_array: Vec<i32>,
    int_array_array: Vec<Vec<i32>>,
    #[parquet(rename = "Int_Map")]
    int_map: BTreeMap<String, i32>,
    int_map_array: Vec<BTreeMap<String, i32>>,
    #[parquet(rename = "nested_Struct")]
    nested_struct: ImpalaNestedRequired,
}
to_json_struct!(NonNullableImpala {
    "ID" => id, "Int_Array" => int_array, "int_array_array" => int_array_array, "Int_Map" => int_map,
    "int_map_array" => int_map_array, "nested_Struct" => nested_struct,
});

fixture_test!(nonnullable_impala, NonNullableImpala, "parquet-testing/nonnullable.impala");

#[derive(ParquetType, Debug)]
struct WrongCase {
    id: i64,
}

#[test]
fn field_names_are_case_sensitive() {
    // The file's column is `ID`: `id` is a different (missing, required) field.
    let e = expect_error::<WrongCase>("parquet-testing/nonnullable.impala");
    assert!(matches!(e, Error::Mismatch { .. }), "{e:?}");
    assert!(e.to_string().contains("ID"), "the error lists the file's fields: {e}");
}

// ---------------------------------------------------------------------------
// Files written by pyarrow and DuckDB (tests/fixtures/peers)
// ---------------------------------------------------------------------------

// The seed record, with three-level lists as the peers write them.
use test_kit::seed::three_level::Nested;

fixture_test!(peers_nested_pyarrow, Nested, "peers/nested.pyarrow");

fixture_test!(peers_nested_pyarrow_item_elements, Nested, "peers/nested.pyarrow-2level");

#[test]
fn peers_nested_duckdb_all_optional_into_required_fields() {
    let duck = check::<Nested>("peers/nested.duckdb");
    let arrow: Vec<Nested> = open("peers/nested.pyarrow").and_then(|r| r.collect()).expect("read");
    assert_eq!(duck, arrow);
}

#[derive(ParquetType, Debug)]
pub(crate) struct PeerStructC {
    x: Option<f64>,
}
to_json_struct!(PeerStructC { "x" => x });

#[derive(ParquetType, Debug)]
pub(crate) struct PeerStruct {
    a: Option<i32>,
    b: Option<String>,
    c: Option<PeerStructC>,
}
to_json_struct!(PeerStruct { "a" => a, "b" => b, "c" => c });

#[derive(ParquetType, Debug)]
pub(crate) struct PeerTypes {
    id: i32,
    i8: Option<i8>,
    i16: Option<i16>,
    i32: Option<i32>,
    i64: Option<i64>,
    u8: Option<u8>,
    u16: Option<u16>,
    u32: Option<u32>,
    u64: Option<u64>,
    f32: Option<f32>,
    f64: Option<f64>,
    bool: Option<bool>,
    str: Option<String>,
    bin: Option<Vec<u8>>,
    fsb16: Option<[u8; 16]>,
    uuid: Option<Uuid>,
    date32: Option<NaiveDate>,
    time32_ms: Option<NaiveTime>,
    time64_us: Option<NaiveTime>,
    #[parquet(timestamp = "nanos")]
    time64_ns: Option<NaiveTime>,
    ts_ms: Option<NaiveDateTime>,
    ts_us: Option<NaiveDateTime>,
    #[parquet(timestamp = "nanos")]
    ts_ns: Option<NaiveDateTime>,
    ts_ms_utc: Option<DateTime<Utc>>,
    ts_us_utc: Option<DateTime<Utc>>,
    #[parquet(timestamp = "nanos")]
    ts_ns_utc: Option<DateTime<Utc>>,
    #[parquet(decimal(precision = 9, scale = 2))]
    dec9_2: Option<Decimal>,
    #[parquet(decimal(precision = 18, scale = 4))]
    dec18_4: Option<Decimal>,
    #[parquet(decimal(precision = 38, scale = 10))]
    dec38_10: Option<BigDecimal>,
    list_i32: Option<Vec<Option<i32>>>,
    list_list_str: Option<Vec<Option<Vec<Option<String>>>>>,
    map_str_i64: Option<BTreeMap<String, Option<i64>>>,
    map_i32_str: Option<HashMap<i32, Option<String>>>,
    #[parquet(rename = "struct")]
    structure: Option<PeerStruct>,
}
to_json_struct!(PeerTypes {
    "id" => id, "i8" => i8, "i16" => i16, "i32" => i32, "i64" => i64,
    "u8" => u8, "u16" => u16, "u32" => u32, "u64" => u64, "f32" => f32, "f64" => f64,
    "bool" => bool, "str" => str, "bin" => bin, "fsb16" => fsb16, "uuid" => uuid, "date32" => date32,
    "time32_ms" => time32_ms @ Fmt::MILLIS, "time64_us" => time64_us @ Fmt::MICROS, "time64_ns" => time64_ns @ Fmt::NANOS,
    "ts_ms" => ts_ms @ Fmt::MILLIS, "ts_us" => ts_us @ Fmt::MICROS, "ts_ns" => ts_ns @ Fmt::NANOS,
    "ts_ms_utc" => ts_ms_utc @ Fmt::MILLIS, "ts_us_utc" => ts_us_utc @ Fmt::MICROS, "ts_ns_utc" => ts_ns_utc @ Fmt::NANOS,
    "dec9_2" => dec9_2, "dec18_4" => dec18_4, "dec38_10" => dec38_10,
    "list_i32" => list_i32, "list_list_str" => list_list_str, "map_str_i64" => map_str_i64,
    "map_i32_str" => map_i32_str, "struct" => structure,
});

#[test]
fn peers_types_pyarrow() {
    let rows = check::<PeerTypes>("peers/types.pyarrow");
    // Spot checks that do not go through JSON.
    assert_eq!(rows[2].u64, Some(u64::MAX));
    assert_eq!(rows[3].f64.map(f64::to_bits), Some((-0.0f64).to_bits()));
}

#[derive(ParquetType, Debug)]
struct NanosIntoMicros {
    ts_ns: Option<NaiveDateTime>,
}

#[derive(ParquetType, Debug)]
struct LocalIntoInstant {
    ts_us: Option<DateTime<Utc>>,
}

#[derive(ParquetType, Debug)]
struct WideDecimalIntoDecimal {
    #[parquet(decimal(precision = 28, scale = 10))]
    dec38_10: Option<Decimal>,
}

#[derive(ParquetType, Debug)]
struct UnsignedIntoSigned {
    u64: Option<i64>,
}

#[test]
fn peers_types_lossy_projections_are_refused() {
    let name = "peers/types.pyarrow";
    refused_at::<NanosIntoMicros>(name, "ts_ns");
    refused_at::<LocalIntoInstant>(name, "ts_us");
    refused_at::<WideDecimalIntoDecimal>(name, "dec38_10");
    refused_at::<UnsignedIntoSigned>(name, "u64");
}

// ---------------------------------------------------------------------------
// Nulls where the type has none: the error names the null node and the fix
// ---------------------------------------------------------------------------

#[derive(ParquetType, Debug)]
struct NullsS {
    a: Option<i32>,
}
to_json_struct!(NullsS { "a" => a });

#[derive(ParquetType, Debug)]
struct NullsPart {
    x: Option<i32>,
}
to_json_struct!(NullsPart { "x" => x });

#[derive(ParquetType, Debug)]
struct NullsAll {
    id: i32,
    s: Option<NullsS>,
    l: Option<Vec<Option<i32>>>,
    m: Option<BTreeMap<String, Option<i64>>>,
    parts: Option<Vec<Option<NullsPart>>>,
}
to_json_struct!(NullsAll { "id" => id, "s" => s, "l" => l, "m" => m, "parts" => parts });

#[derive(ParquetType, Debug)]
struct NullGroup {
    s: NullsS,
}

#[derive(ParquetType, Debug)]
struct NullLList {
    l: Vec<i32>,
}

#[derive(ParquetType, Debug)]
struct NullMap {
    m: HashMap<String, i64>,
}

#[derive(ParquetType, Debug)]
struct NullElement {
    parts: Option<Vec<NullsPart>>,
}

/// The error of reading `nulls.pyarrow` as `T`, after its record 0.
fn null_error_at_record_1<T: OwnedRecord>() -> Error {
    let name = "peers/nulls.pyarrow";
    let (rows, err) = read_until_error::<T>(name);
    assert_eq!(rows.len(), 1, "{name}: record 0 reads");
    let e = err.unwrap_or_else(|| panic!("{name}: record 1 must fail as {}", std::any::type_name::<T>()));
    assert!(matches!(e, Error::Null { .. }), "{e:?}");
    assert_eq!(e.location().and_then(|l| l.record), Some(1), "{e}");
    e
}

fixture_test!(peers_nulls_pyarrow, NullsAll, "peers/nulls.pyarrow");

#[test]
fn a_null_group_list_or_map_is_named_with_its_fix() {
    let e = null_error_at_record_1::<NullGroup>();
    assert_eq!(e.column(), Some("s"), "{e}");
    assert!(e.to_string().contains("the group `s` is null; make the field an `Option<_>`"), "{e}");

    let e = null_error_at_record_1::<NullLList>();
    assert_eq!(e.column(), Some("l"), "{e}");
    assert!(e.to_string().contains("the list `l` is null (not empty); make the field `Option<Vec<_>>`"), "{e}");

    let e = null_error_at_record_1::<NullMap>();
    assert_eq!(e.column(), Some("m"), "{e}");
    assert!(e.to_string().contains("the map `m` is null (not empty); make the field `Option<HashMap<_, _>>`"), "{e}");

    let e = null_error_at_record_1::<NullElement>();
    assert_eq!(e.column(), Some("parts.list.element"), "{e}");
    assert!(e.to_string().contains("an element of the list `parts` is null; make the list `Vec<Option<_>>`"), "{e}");
}

// ---------------------------------------------------------------------------
// bad_data: errors, never panics (ARROW-GH-43605 is valid)
// ---------------------------------------------------------------------------

#[derive(ParquetType, Debug)]
struct MinFl {
    min_fl: Option<u16>,
}
to_json_struct!(MinFl { "min_fl" => min_fl });

#[test]
fn bad_data_arrow_gh_43605_is_valid() {
    let rows = check::<MinFl>("parquet-testing/bad_data/ARROW-GH-43605");
    assert_eq!(rows.len(), 21186);
}

#[derive(ParquetType, Debug)]
struct AnyColumn {
    a: Option<i32>,
}

#[test]
fn bad_data_parquet_1481_corrupt_schema() {
    let e = expect_error::<AnyColumn>("parquet-testing/bad_data/PARQUET-1481");
    assert!(matches!(&e, Error::Damaged { location, .. } if location.footer), "the footer is rejected: {e:?}");
}

/// ARROW-RS-GH-6229-DICTHEADER's columns (also read in `damaged_files`).
#[derive(ParquetType, Debug)]
pub(crate) struct DictHeader {
    nation_key: Option<i32>,
    name: Option<Vec<u8>>,
    region_key: Option<i32>,
    comment_col: Option<Vec<u8>>,
}

#[test]
fn bad_data_arrow_rs_gh_6229_dictheader() {
    let e = expect_error::<DictHeader>("parquet-testing/bad_data/ARROW-RS-GH-6229-DICTHEADER");
    assert!(e.column().is_some(), "the error names the column: {e:?}");
}

#[derive(ParquetType, Debug)]
struct LevelsItem {
    c: Option<i32>,
}

#[derive(ParquetType, Debug)]
struct Levels {
    outer: Option<Vec<Option<LevelsItem>>>,
}

#[test]
fn bad_data_arrow_rs_gh_6229_levels() {
    // `c` is annotated UNKNOWN (Null). While the library refuses that
    // annotation (see `null_list`) the file fails at open on `outer.list.item.c`;
    // once it is accepted, the page's missing levels must fail instead.
    let e = expect_error::<Levels>("parquet-testing/bad_data/ARROW-RS-GH-6229-LEVELS");
    assert!(e.column().is_some_and(|p| p.starts_with("outer")), "the error names the column: {e:?}");
}

#[derive(ParquetType, Debug)]
struct Gh41321Int64 {
    int64: Option<i64>,
}

#[derive(ParquetType, Debug)]
struct Gh41321LargeBinary {
    large_binary: Option<Vec<u8>>,
}

#[derive(ParquetType, Debug)]
struct Gh41321ListFloat64 {
    fixed_size_list_float64: Option<Vec<Option<f64>>>,
}

#[derive(ParquetType, Debug)]
struct Gh41321MapFloat32 {
    map_float32: Option<BTreeMap<String, Option<f32>>>,
}

#[test]
fn bad_data_arrow_gh_41321_corrupt_pages() {
    // Four columns are damaged in different ways; each must fail on its own.
    let name = "parquet-testing/bad_data/ARROW-GH-41321";
    refused_at::<Gh41321Int64>(name, "int64");
    refused_at::<Gh41321LargeBinary>(name, "large_binary");
    let e = expect_error::<Gh41321ListFloat64>(name);
    assert!(e.column().is_some_and(|p| p.starts_with("fixed_size_list_float64")), "{e:?}");
    let e = expect_error::<Gh41321MapFloat32>(name);
    assert!(e.column().is_some_and(|p| p.starts_with("map_float32")), "{e:?}");
}

#[derive(ParquetType, Debug)]
struct Gh41317 {
    boolean: Option<bool>,
    timestamp_us_no_tz: Option<NaiveDateTime>,
}

#[derive(ParquetType, Debug)]
struct Gh41317Alone {
    timestamp_us_no_tz: Option<NaiveDateTime>,
}

#[test]
fn bad_data_arrow_gh_41317_short_column() {
    // In row group 0, `timestamp_us_no_tz` has 0 values where the group has 3
    // rows. The footer itself is already refused: the `parquet` crate's Thrift
    // decoder finds a list of I16 where it expects I32 (pyarrow tolerates it),
    // so the file fails at open, before any column is read.
    let name = "parquet-testing/bad_data/ARROW-GH-41317";
    for e in [open::<Gh41317>(name).map(|_| ()), open::<Gh41317Alone>(name).map(|_| ())] {
        match e {
            Err(e @ Error::Damaged { .. }) => {
                assert!(e.location().is_some_and(|l| l.footer), "{e}");
                assert!(e.to_string().contains("I16"), "{e}");
            }
            other => panic!("{name}: expected the footer to be refused, got {other:?}"),
        }
    }
}

#[derive(ParquetType, Debug)]
struct Gh45185 {
    x: Vec<i32>,
}

#[test]
fn bad_data_arrow_gh_45185_record_starts_with_repetition() {
    let e = refused_at::<Gh45185>("parquet-testing/bad_data/ARROW-GH-45185", "x.list.element");
    assert!(matches!(e, Error::Damaged { .. }), "{e:?}");
}

#[derive(ParquetType, Debug)]
struct Gh47662 {
    flba_field: [u8; 4],
}

#[test]
fn bad_data_arrow_gh_47662_nulls_in_required_column() {
    refused_at::<Gh47662>("parquet-testing/bad_data/ARROW-GH-47662", "flba_field");
}

// ---------------------------------------------------------------------------
// Every fixture is covered
// ---------------------------------------------------------------------------

/// The fixtures the tests above read; a new file must get a test.
const COVERED: &[&str] = &[
    "parquet-testing/alltypes_dictionary",
    "parquet-testing/alltypes_plain",
    "parquet-testing/alltypes_plain.snappy",
    "parquet-testing/byte_array_decimal",
    "parquet-testing/byte_stream_split.zstd",
    "parquet-testing/datapage_v2.snappy",
    "parquet-testing/delta_binary_packed",
    "parquet-testing/delta_byte_array",
    "parquet-testing/fixed_length_decimal",
    "parquet-testing/fixed_length_decimal_legacy",
    "parquet-testing/int32_decimal",
    "parquet-testing/int64_decimal",
    "parquet-testing/int96_from_spark",
    "parquet-testing/list_columns",
    "parquet-testing/map_no_value",
    "parquet-testing/nested_lists.snappy",
    "parquet-testing/nested_maps.snappy",
    "parquet-testing/nonnullable.impala",
    "parquet-testing/null_list",
    "parquet-testing/nullable.impala",
    "parquet-testing/nulls.snappy",
    "parquet-testing/old_list_structure",
    "parquet-testing/datapage_v1-corrupt-checksum",
    "parquet-testing/datapage_v1-snappy-compressed-checksum",
    "parquet-testing/datapage_v1-uncompressed-checksum",
    "parquet-testing/plain-dict-uncompressed-checksum",
    "parquet-testing/rle-dict-snappy-checksum",
    "parquet-testing/rle-dict-uncompressed-corrupt-checksum",
    "parquet-testing/repeated_no_annotation",
    "parquet-testing/repeated_primitive_no_list",
    "parquet-testing/bad_data/ARROW-GH-41317",
    "parquet-testing/bad_data/ARROW-GH-41321",
    "parquet-testing/bad_data/ARROW-GH-43605",
    "parquet-testing/bad_data/ARROW-GH-45185",
    "parquet-testing/bad_data/ARROW-GH-47662",
    "parquet-testing/bad_data/ARROW-RS-GH-6229-DICTHEADER",
    "parquet-testing/bad_data/ARROW-RS-GH-6229-LEVELS",
    "parquet-testing/bad_data/PARQUET-1481",
    "peers/events.duckdb",
    "peers/events.pyarrow",
    "peers/events.spark",
    "peers/nested.duckdb",
    "peers/nested.pyarrow",
    "peers/nested.pyarrow-2level",
    "peers/nulls.pyarrow",
    "peers/types.pyarrow",
    "peers/types.pyarrow-crc-damaged",
    "peers/types.pyarrow-crc-v1",
    "peers/types.pyarrow-crc-v2",
];

#[test]
fn every_fixture_has_a_test() {
    let root = test_kit::fixtures::dir();
    let mut found = Vec::new();
    for dir in ["parquet-testing", "parquet-testing/bad_data", "peers"] {
        for entry in std::fs::read_dir(root.join(dir)).expect("fixture folder") {
            let name = entry.expect("entry").file_name().to_string_lossy().into_owned();
            if let Some(stem) = name.strip_suffix(".parquet") {
                found.push(format!("{dir}/{stem}"));
                assert!(
                    root.join(dir).join(format!("{stem}.expected.json")).exists(),
                    "{dir}/{stem} has no expectation"
                );
            }
        }
    }
    found.sort();
    let mut covered: Vec<String> = COVERED.iter().map(|s| (*s).to_owned()).collect();
    covered.sort();
    assert_eq!(found, covered);
}

// ---------------------------------------------------------------------------
// Typed predicates on a peer's statistics
// ---------------------------------------------------------------------------

/// `value` with the entries of every map (`{"$map": [[k, v], ...]}`) in
/// one order: a `HashMap` iterates in an order of its own.
fn sorted_maps(value: Value) -> Value {
    match value {
        Value::Array(items) => Value::Array(items.into_iter().map(sorted_maps).collect()),
        Value::Object(fields) => Value::Object(
            fields
                .into_iter()
                .map(|(k, v)| {
                    let v = match (k.as_str(), sorted_maps(v)) {
                        ("$map", Value::Array(mut entries)) => {
                            entries.sort_by_key(|e| e.to_string());
                            Value::Array(entries)
                        }
                        (_, v) => v,
                    };
                    (k, v)
                })
                .collect(),
        ),
        other => other,
    }
}

/// pyarrow's statistics prune for every leaf type: `field > max` (the
/// file's largest value) skips the file's one row group and `field <= max`
/// reads it, and either way the records are those of a full read that pass.
#[test]
fn peers_types_pyarrow_statistics_prune_every_leaf_type() {
    use magnolify_parquet::filter::Predicate;
    let name = "peers/types.pyarrow";
    let (path, _) = fixture(name);
    let all: Vec<PeerTypes> = open(name).unwrap().collect::<Result<_, _>>().unwrap();
    // (row groups skipped, records passed)
    let read = |predicate: Predicate<PeerTypes>| -> (usize, u64) {
        let file = File::open(&path).unwrap();
        let mut reader =
            ReaderBuilder::new(file).unwrap().build(ReadOptions::default().filter(predicate.clone())).unwrap();
        let got: Vec<PeerTypes> = reader.by_ref().collect::<Result<_, _>>().unwrap();
        let expected: Vec<Value> = all.iter().filter(|r| predicate.test(r)).map(|r| r.to_json(Fmt::NANOS)).collect();
        let got: Vec<Value> = got.iter().map(|r| sorted_maps(r.to_json(Fmt::NANOS))).collect();
        let expected: Vec<Value> = expected.into_iter().map(sorted_maps).collect();
        assert!(got == expected, "{predicate:?}: {} records, expected {}", got.len(), expected.len());
        let counts = reader.counts();
        (counts.row_groups_skipped, counts.records_passed)
    };
    let f = PeerTypes::fields();
    let max_id = all.iter().map(|r| r.id).max().unwrap();
    assert_eq!(read(f.id.gt(max_id)), (1, 0));
    assert_eq!(read(f.id.le(max_id)), (0, all.len() as u64));
    macro_rules! leaves {
        ($($field:ident),*) => {$(
            #[allow(clippy::eq_op)]
            let max = all
                .iter()
                .filter_map(|r| r.$field.clone())
                .filter(|v| v == v)
                .reduce(|a, b| if b > a { b } else { a })
                .expect(stringify!($field));
            assert_eq!(read(f.$field.gt(max.clone())), (1, 0), "{} > {max:?}", stringify!($field));
            let (skipped, passed) = read(f.$field.le(max.clone()));
            assert!(skipped == 0 && passed > 0, "{} <= {max:?}: {skipped} skipped, {passed} passed", stringify!($field));
        )*};
    }
    leaves!(
        i8, i16, i32, i64, u8, u16, u32, u64, f32, f64, bool, str, bin, fsb16, uuid, date32, time32_ms, time64_us,
        time64_ns, ts_ms, ts_us, ts_ns, ts_ms_utc, ts_us_utc, ts_ns_utc, dec9_2, dec18_4, dec38_10
    );
    // Nulls: the file has some in every optional column.
    assert_eq!(read(f.i8.is_null().and(f.i8.is_not_null())).1, 0);
    assert!(read(f.str.is_null()).1 > 0);
    // Fields of a group, and lists and maps that are not addressable.
    let _: magnolify_parquet::filter::NotAddressable = f.list_i32;
    assert_eq!(read(f.structure.a.gt(i32::MAX)), (1, 0));
}

/// The events fixtures: 4096 records sorted by `ts` (and `id`), in 8 row
/// groups with a page index and a bloom filter on `code` (pyarrow), and in
/// 2 row groups with DuckDB's own bloom filters.
#[derive(ParquetType, Debug)]
pub(crate) struct Events {
    id: i64,
    ts: DateTime<Utc>,
    name: String,
    code: String,
    #[parquet(decimal(precision = 9, scale = 2))]
    amount: Decimal,
    size: u32,
    flag: Option<bool>,
}

/// Reads fixture `name` with `predicate`: the records equal a full read
/// filtered; returns (row groups read, of them holding matches, skipped by
/// bloom filters, records passed).
fn events_read(
    name: &str,
    all: &[Events],
    predicate: magnolify_parquet::filter::Predicate<Events>,
) -> (usize, usize, usize, usize) {
    let (path, _) = fixture(name);
    let builder = ReaderBuilder::new(File::open(&path).unwrap()).unwrap();
    let sizes: Vec<usize> = builder.metadata().row_groups().iter().map(|g| g.num_rows() as usize).collect();
    let mut start = 0;
    let mut with_matches = 0;
    for size in sizes {
        with_matches += usize::from(all[start..start + size].iter().any(|e| predicate.test(e)));
        start += size;
    }
    let expected: Vec<String> = all.iter().filter(|e| predicate.test(e)).map(|e| format!("{e:?}")).collect();
    let mut reader = builder.build(ReadOptions::default().filter(predicate.clone())).unwrap();
    let got: Vec<String> = reader.by_ref().map(|e| format!("{:?}", e.unwrap())).collect();
    assert_eq!(got, expected, "{name}: {predicate:?}");
    let counts = reader.counts();
    (counts.row_groups_read, with_matches, counts.row_groups_skipped_by_bloom_filters, got.len())
}

/// pyarrow's and DuckDB's files, sorted by time: ranges read only the row
/// groups that hold matches; every predicate gives the records of a full
/// read that pass.
#[test]
fn peers_events_are_pruned_and_filtered() {
    for name in ["peers/events.pyarrow", "peers/events.duckdb"] {
        let all: Vec<Events> = open(name).unwrap().collect::<Result<_, _>>().unwrap();
        assert_eq!(all.len(), 4096, "{name}");
        let f = Events::fields();
        let (t0, t1) = (all[1000].ts, all[1300].ts);
        for predicate in [f.ts.between(t0, t1), f.id.lt(100), f.id.ge(4000).or(f.id.lt(10))] {
            let (read, with_matches, _, passed) = events_read(name, &all, predicate.clone());
            assert_eq!(read, with_matches, "{name}: {predicate:?}");
            assert!(passed > 0, "{name}: {predicate:?}");
        }
        // pyarrow's page index (512-byte pages): inside the row groups read, the
        // pages outside the range are passed without being decompressed.
        if name == "peers/events.pyarrow" {
            let (path, _) = fixture(name);
            let builder = ReaderBuilder::new(File::open(&path).unwrap()).unwrap();
            let mut reader = builder.build(ReadOptions::default().filter(f.ts.between(t0, t1))).unwrap();
            assert_eq!(reader.by_ref().count(), 301);
            let counts = reader.counts();
            eprintln!("{name}: range: {counts:?}");
            assert!(counts.pages_skipped > 0 && counts.records_skipped > 0 && counts.pages_read > 0, "{counts:?}");
            assert!(counts.records_read < 512, "{counts:?}");
        }
        // Columns of every kind, for exact results whatever is pruned.
        let code = all[2500].code.clone();
        for predicate in [
            f.code.eq(code.clone()),
            f.code.starts_with(&code[..3]),
            f.name.is_in(["user7", "user1000"]),
            f.amount.gt(Decimal::new(99_000, 2)).or(f.amount.lt(Decimal::new(-99_000, 2))),
            f.size.ge(u32::MAX - 1),
            f.size.between(1, 5).and(f.flag.is_null()),
            f.flag.eq(true).not(),
            f.ts.gt(all[4095].ts),
        ] {
            events_read(name, &all, predicate);
        }
        // One code, in one row group: the others' min and max hold it, but
        // pyarrow's bloom filters on `code` rule them out.
        let (read, with_matches, by_bloom, passed) = events_read(name, &all, f.code.eq(code));
        eprintln!(
            "{name}: code: {read} row groups read, {with_matches} with matches, {by_bloom} skipped by bloom filters"
        );
        assert_eq!((with_matches, passed), (1, 1));
        if name == "peers/events.pyarrow" {
            assert_eq!((read, by_bloom), (1, 7), "{name}");
        }
        // A name in no row group, though within every one's min and max
        // ("user0" to "user99"): DuckDB's bloom filters on its dictionary
        // columns rule them all out; pyarrow wrote none on `name`, and its
        // dictionaries (every data page dictionary-encoded) rule them out.
        let absent = events_read(name, &all, f.name.eq("user1000"));
        eprintln!("{name}: absent name: {absent:?}");
        let expected = if name == "peers/events.pyarrow" { (0, 0, 0, 0) } else { (0, 0, 2, 0) };
        assert_eq!(absent, expected, "{name}");
    }
}

/// (row groups skipped, records passed) of fixture `name` read through
/// `predicate`, whose records equal a full read's that pass (as text).
fn skipped_and_passed<T: OwnedRecord + std::fmt::Debug>(
    name: &str,
    all: &[T],
    predicate: magnolify_parquet::filter::Predicate<T>,
) -> (usize, usize) {
    let (path, _) = fixture(name);
    let mut reader = ReaderBuilder::new(File::open(&path).unwrap())
        .unwrap()
        .build(ReadOptions::default().filter(predicate.clone()))
        .unwrap();
    let got: Vec<String> = reader.by_ref().map(|r| format!("{:?}", r.unwrap())).collect();
    let expected: Vec<String> = all.iter().filter(|r| predicate.test(r)).map(|r| format!("{r:?}")).collect();
    assert_eq!(got, expected, "{name}: {predicate:?}");
    (reader.counts().row_groups_skipped, got.len())
}

/// parquet-java's statistics. parquet-mr 1.8.2 wrote no column orders in
/// the footer (they came with parquet-format 2.4), so its decimals' bounds
/// (INT32, INT64, FIXED_LEN_BYTE_ARRAY) follow the legacy signed order: not
/// trusted for decimals (parquet-java does not use them either), so nothing
/// is skipped and the records are tested. parquet-mr 1.10's string bounds prune:
/// `value > max` skips the one row group, `value >= max` reads it.
#[test]
fn parquet_java_statistics_prune() {
    for name in [
        "parquet-testing/int32_decimal",
        "parquet-testing/int64_decimal",
        "parquet-testing/fixed_length_decimal",
        "parquet-testing/fixed_length_decimal_legacy",
    ] {
        let all: Vec<DecimalValue> = open(name).unwrap().collect::<Result<_, _>>().unwrap();
        let max = all.iter().filter_map(|r| r.value).max().unwrap();
        let f = DecimalValue::fields();
        assert_eq!(skipped_and_passed(name, &all, f.value.gt(max)), (0, 0), "{name}");
        assert_eq!(skipped_and_passed(name, &all, f.value.le(max)), (0, all.len()), "{name}");
    }
    let name = "parquet-testing/delta_byte_array";
    let all: Vec<DeltaByteArray> = open(name).unwrap().collect::<Result<_, _>>().unwrap();
    let f = DeltaByteArray::fields();
    let max = all.iter().filter_map(|r| r.c_customer_id.clone()).max().unwrap();
    assert_eq!(skipped_and_passed(name, &all, f.c_customer_id.gt(max.clone())), (1, 0));
    assert_eq!(skipped_and_passed(name, &all, f.c_customer_id.ge(max)).0, 0);
    assert_eq!(skipped_and_passed(name, &all, f.c_last_name.starts_with("\u{10FFFF}")), (1, 0));
}

/// The events written by Spark 4.3 (parquet-java 1.17): `size` is a
/// BIGINT, Spark having no unsigned types.
#[derive(ParquetType, Debug)]
pub(crate) struct SparkEvents {
    id: i64,
    ts: DateTime<Utc>,
    name: String,
    code: String,
    #[parquet(decimal(precision = 9, scale = 2))]
    amount: Decimal,
    size: i64,
    flag: Option<bool>,
}

/// Spark's file: 9 row groups sorted by time with parquet-java's page index
/// and a bloom filter on `code`. A range reads only the row groups and pages
/// that hold matches; one code is found through the bloom filters; every
/// predicate gives the records of a full read that pass.
#[test]
fn spark_events_are_pruned_and_filtered() {
    let name = "peers/events.spark";
    let all: Vec<SparkEvents> = open(name).unwrap().collect::<Result<_, _>>().unwrap();
    assert_eq!(all.len(), 4096);
    let (path, _) = fixture(name);
    let f = SparkEvents::fields();
    let read = |predicate: magnolify_parquet::filter::Predicate<SparkEvents>| {
        let mut reader = ReaderBuilder::new(File::open(&path).unwrap())
            .unwrap()
            .build(ReadOptions::default().filter(predicate.clone()))
            .unwrap();
        let got: Vec<String> = reader.by_ref().map(|r| format!("{:?}", r.unwrap())).collect();
        let expected: Vec<String> = all.iter().filter(|r| predicate.test(r)).map(|r| format!("{r:?}")).collect();
        assert_eq!(got, expected, "{predicate:?}");
        reader.counts()
    };
    let range = read(f.ts.between(all[1000].ts, all[1300].ts));
    assert_eq!((range.row_groups_read, range.records_passed), (1, 301), "{range:?}");
    // Its page index narrows the row group read to the pages that may match.
    assert!(range.records_skipped > 0 && range.records_read < 485, "{range:?}");
    let code = read(f.code.eq(all[2500].code.clone()));
    assert_eq!((code.row_groups_read, code.row_groups_skipped_by_bloom_filters, code.records_passed), (1, 8, 1));
    for predicate in [
        f.id.lt(10).or(f.id.ge(4090)),
        f.amount.ge(Decimal::new(99_000, 2)),
        f.size.eq(4_294_967_295),
        f.flag.is_null().and(f.name.starts_with("user1")),
        f.name.is_in(["user7".to_owned(), "user1000".to_owned()]).not(),
    ] {
        read(predicate);
    }
}
