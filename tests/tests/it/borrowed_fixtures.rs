//! Files from other writers (apache/parquet-testing, pyarrow, DuckDB, Spark)
//! read into structs that borrow their strings and bytes from the batch:
//! every row equals the file's `*.expected.json`, exactly as the owned
//! structs of `fixtures_read` do, lent in batches of 1, 7 and 1,024 records
//! on 1 and 2 threads. Between them the files hold PLAIN, dictionary and
//! DELTA_BYTE_ARRAY strings, v1 and v2 pages, no codec and Snappy, page
//! checksums, and several row groups (`borrowed_reads` covers the other
//! encodings and codecs on files of this library's writer).

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::fs::File;

use chrono::{DateTime, NaiveDate, NaiveDateTime, NaiveTime, Utc};
use magnolify_parquet::{Derived, ParquetRecord, ParquetType, ReadOptions, ReaderBuilder, RecordRead};
use rust_decimal::Decimal;
use test_kit::fixtures::{rows, with_expected as fixture};
use test_kit::json::{check_rows, Fmt, ToJson, Value};
use test_kit::to_json_struct;
use uuid::Uuid;

/// Lends every batch of fixture `name` as `T`, each record turned into JSON
/// while its batch lives, and compares the rows with the file's expectation.
fn check_borrowed<T: ParquetRecord>(name: &str)
where
    Derived<T>: RecordRead,
    for<'a> <Derived<T> as RecordRead>::Record<'a>: ToJson,
{
    let (path, doc) = fixture(name);
    for threads in [1, 2] {
        for batch in [1, 7, 1024] {
            let at = format!("{name} on {threads} threads, batches of {batch}");
            let file = File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let options = ReadOptions::default().batch_size(batch).threads(threads);
            let mut reader = ReaderBuilder::new(file)
                .and_then(|b| b.build_borrowed::<T>(options))
                .unwrap_or_else(|e| panic!("{at}: cannot open: {e}"));
            let mut got: Vec<Value> = Vec::new();
            while let Some(records) = reader.next_batch().unwrap_or_else(|e| panic!("{at}: {e}")) {
                assert!(records.len() <= batch, "{at}: a batch of {}", records.len());
                got.extend(records.iter().map(|r| r.to_json(Fmt::DEFAULT)));
            }
            if let Err(diff) = check_rows(&got, rows(&doc)) {
                panic!("{at}: {diff}");
            }
        }
    }
}

/// `#[test] fn $test`: [`check_borrowed`] of fixture `$name` as `$ty`.
macro_rules! borrowed_fixture_test {
    ($test:ident, $ty:ty, $($name:literal),+) => {
        #[test]
        fn $test() {
            $(check_borrowed::<$ty>($name);)+
        }
    };
}

// Impala's strings carry no UTF8 annotation: bytes.
#[derive(ParquetType, Debug)]
struct AllTypes<'a> {
    id: Option<i32>,
    bool_col: Option<bool>,
    tinyint_col: Option<i32>,
    smallint_col: Option<i32>,
    int_col: Option<i32>,
    bigint_col: Option<i64>,
    float_col: Option<f32>,
    double_col: Option<f64>,
    date_string_col: Option<&'a [u8]>,
    string_col: Option<&'a [u8]>,
    timestamp_col: Option<NaiveDateTime>,
}
to_json_struct!(AllTypes<'_> {
    "id" => id, "bool_col" => bool_col, "tinyint_col" => tinyint_col, "smallint_col" => smallint_col,
    "int_col" => int_col, "bigint_col" => bigint_col, "float_col" => float_col, "double_col" => double_col,
    "date_string_col" => date_string_col, "string_col" => string_col, "timestamp_col" => timestamp_col @ Fmt::INT96,
});

borrowed_fixture_test!(
    alltypes_plain_snappy_and_dictionary,
    AllTypes,
    "parquet-testing/alltypes_plain",
    "parquet-testing/alltypes_plain.snappy",
    "parquet-testing/alltypes_dictionary"
);

#[derive(ParquetType, Debug)]
struct DataPageV2<'a> {
    a: Option<&'a str>,
    b: i32,
    c: f64,
    d: bool,
    e: Option<Vec<i32>>,
}
to_json_struct!(DataPageV2<'_> { "a" => a, "b" => b, "c" => c, "d" => d, "e" => e });

borrowed_fixture_test!(datapage_v2_snappy, DataPageV2, "parquet-testing/datapage_v2.snappy");

// DELTA_BYTE_ARRAY: values rebuilt from prefixes, so they live in the
// batch's own buffer; `Cow` borrows them from there too.
#[derive(ParquetType, Debug)]
struct DeltaByteArray<'a> {
    c_customer_id: Option<&'a str>,
    c_salutation: Option<&'a str>,
    c_first_name: Option<&'a str>,
    c_last_name: Option<&'a str>,
    c_preferred_cust_flag: Option<&'a str>,
    c_birth_country: Option<Cow<'a, str>>,
    c_login: Option<&'a str>,
    c_email_address: Option<Cow<'a, str>>,
    c_last_review_date: Option<&'a str>,
}
to_json_struct!(DeltaByteArray<'_> {
    "c_customer_id" => c_customer_id, "c_salutation" => c_salutation, "c_first_name" => c_first_name,
    "c_last_name" => c_last_name, "c_preferred_cust_flag" => c_preferred_cust_flag,
    "c_birth_country" => c_birth_country, "c_login" => c_login, "c_email_address" => c_email_address,
    "c_last_review_date" => c_last_review_date,
});

borrowed_fixture_test!(delta_byte_array, DeltaByteArray, "parquet-testing/delta_byte_array");

#[derive(ParquetType, Debug)]
struct ListColumns<'a> {
    int64_list: Option<Vec<Option<i64>>>,
    utf8_list: Option<Vec<Option<&'a str>>>,
}
to_json_struct!(ListColumns<'_> { "int64_list" => int64_list, "utf8_list" => utf8_list });

borrowed_fixture_test!(list_columns, ListColumns, "parquet-testing/list_columns");

/// A nullable list of nullable elements (Spark's and Impala's default).
type OptList<T> = Option<Vec<Option<T>>>;

#[derive(ParquetType, Debug)]
struct NestedLists<'a> {
    a: OptList<OptList<OptList<&'a str>>>,
    b: i32,
}
to_json_struct!(NestedLists<'_> { "a" => a, "b" => b });

borrowed_fixture_test!(nested_lists_snappy, NestedLists, "parquet-testing/nested_lists.snappy");

#[derive(ParquetType, Debug)]
struct NestedMaps<'a> {
    a: Option<BTreeMap<&'a str, Option<HashMap<i32, bool>>>>,
    b: i32,
    c: f64,
}
to_json_struct!(NestedMaps<'_> { "a" => a, "b" => b, "c" => c });

borrowed_fixture_test!(nested_maps_snappy, NestedMaps, "parquet-testing/nested_maps.snappy");

/// Spark (parquet-java), DuckDB and pyarrow wrote the same 4,096 events in
/// 9, 2 and 8 row groups; Spark and DuckDB with microsecond timestamps,
/// Spark's `size` a BIGINT (it has no unsigned types).
macro_rules! events {
    ($name:ident, $ts:expr, $size:ty) => {
        #[derive(ParquetType, Debug)]
        struct $name<'a> {
            id: i64,
            ts: DateTime<Utc>,
            name: &'a str,
            code: Cow<'a, str>,
            #[parquet(decimal(precision = 9, scale = 2))]
            amount: Decimal,
            size: $size,
            flag: Option<bool>,
        }
        to_json_struct!($name<'_> {
            "id" => id, "ts" => ts @ $ts, "name" => name, "code" => code, "amount" => amount,
            "size" => size, "flag" => flag,
        });
    };
}
events!(SparkEvents, Fmt::MICROS, i64);
events!(DuckDbEvents, Fmt::MICROS, u32);
events!(PyArrowEvents, Fmt::MILLIS, u32);

borrowed_fixture_test!(peers_events_spark, SparkEvents, "peers/events.spark");
borrowed_fixture_test!(peers_events_duckdb, DuckDbEvents, "peers/events.duckdb");
borrowed_fixture_test!(peers_events_pyarrow, PyArrowEvents, "peers/events.pyarrow");

/// The seed record, three-level lists, as the peers write it.
#[derive(ParquetType, Debug)]
struct Required<'a> {
    b: bool,
    i: i32,
    s: &'a str,
}
to_json_struct!(Required<'_> { "b" => b, "i" => i, "s" => s });

#[derive(ParquetType, Debug)]
struct Nested<'a> {
    b: bool,
    i: i32,
    s: &'a str,
    r: Required<'a>,
    o: Option<Required<'a>>,
    #[parquet(list = "three-level")]
    l: Vec<Required<'a>>,
}
to_json_struct!(Nested<'_> { "b" => b, "i" => i, "s" => s, "r" => r, "o" => o, "l" => l });

borrowed_fixture_test!(
    peers_nested,
    Nested,
    "peers/nested.pyarrow",
    "peers/nested.pyarrow-2level",
    "peers/nested.duckdb"
);

#[derive(ParquetType, Debug)]
struct PeerStructC {
    x: Option<f64>,
}
to_json_struct!(PeerStructC { "x" => x });

#[derive(ParquetType, Debug)]
struct PeerStruct<'a> {
    a: Option<i32>,
    b: Option<&'a str>,
    c: Option<PeerStructC>,
}
to_json_struct!(PeerStruct<'_> { "a" => a, "b" => b, "c" => c });

/// pyarrow's every type, with its strings, bytes, lists of strings and maps
/// borrowed.
#[derive(ParquetType, Debug)]
struct PeerTypes<'a> {
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
    str: Option<&'a str>,
    bin: Option<&'a [u8]>,
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
    dec38_10: Option<apache_avro::BigDecimal>,
    list_i32: Option<Vec<Option<i32>>>,
    list_list_str: Option<Vec<Option<Vec<Option<&'a str>>>>>,
    map_str_i64: Option<BTreeMap<&'a str, Option<i64>>>,
    map_i32_str: Option<HashMap<i32, Option<&'a str>>>,
    #[parquet(rename = "struct")]
    structure: Option<PeerStruct<'a>>,
}
to_json_struct!(PeerTypes<'_> {
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

borrowed_fixture_test!(
    peers_types_pyarrow_with_checksums_and_v2_pages,
    PeerTypes,
    "peers/types.pyarrow",
    "peers/types.pyarrow-crc-v1",
    "peers/types.pyarrow-crc-v2"
);
