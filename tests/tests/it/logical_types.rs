//! The logical types behind features: chrono dates, times and timestamps in
//! every unit, INT96, UUID, FLOAT16, rust_decimal DECIMALs in every
//! physical type and Spark's DECIMAL(38, 10) as a BigDecimal. Schemas are compared with exact text, values read back
//! exactly (and checked in the raw column as the `parquet` crate decodes
//! it), every refused case returns its error naming the column, and files
//! written by other means (legacy converted types, INT96, wide decimals,
//! unannotated UUIDs) are written here with the `parquet` crate's own
//! low-level writer.
//!
//! Most tests go through `One<T>`, a converter written by hand over the
//! runtime (no derive), which lets each test pick the field's options at
//! run time; one derived record covers every type at once.

use std::sync::Arc;

use bytes::Bytes;
use chrono::{DateTime, NaiveDate, NaiveDateTime, NaiveTime, Utc};
use half::f16;
use magnolify_parquet::convert::{OneField, RecordSchema};
use magnolify_parquet::mem::MemPageStore;
use magnolify_parquet::parquet::basic::{ConvertedType, LogicalType, Repetition, TimeUnit as PqUnit, Type as Physical};
use magnolify_parquet::parquet::column::reader::get_typed_column_reader;
use magnolify_parquet::parquet::data_type::{
    ByteArray, ByteArrayType, DataType, FixedLenByteArray, FixedLenByteArrayType, Int32Type, Int64Type, Int96,
    Int96Type,
};
use magnolify_parquet::parquet::file::reader::{FileReader, SerializedFileReader};
use magnolify_parquet::parquet::file::writer::SerializedFileWriter;
use magnolify_parquet::parquet::schema::types::{SchemaDescriptor, Type};
use magnolify_parquet::{
    schema, DecimalPhysical, Error, FieldOptions, ParquetReadOwned, ParquetReader, ParquetRecord, ParquetType,
    ParquetWrite, ParquetWriter, ReadOptions, ReaderBuilder, TimeUnit,
};
use rust_decimal::Decimal;
use uuid::Uuid;

use bigdecimal::BigDecimal;

// ---------------------------------------------------------------------------
// One-field records over the runtime, with options chosen at run time.

fn one<T>(name: &'static str, opts: FieldOptions) -> OneField<T> {
    OneField::new(name, opts)
}

const DEFAULT: FieldOptions = FieldOptions::new();
const MILLIS: FieldOptions = FieldOptions::new().timestamp(TimeUnit::Millis);
const MICROS: FieldOptions = FieldOptions::new().timestamp(TimeUnit::Micros);
const NANOS: FieldOptions = FieldOptions::new().timestamp(TimeUnit::Nanos);
const EXACT_MICROS: FieldOptions = MICROS.exact_time();
const EXACT_MILLIS: FieldOptions = MILLIS.exact_time();
const UNITS: [(TimeUnit, FieldOptions); 3] =
    [(TimeUnit::Millis, MILLIS), (TimeUnit::Micros, MICROS), (TimeUnit::Nanos, NANOS)];

fn dec(precision: u8, scale: u8) -> FieldOptions {
    FieldOptions::new().decimal(precision, scale)
}

/// Writes `values` as field `name` into a file.
fn write_file<T: ParquetWrite>(name: &'static str, opts: FieldOptions, values: &[T]) -> Result<Bytes, Error> {
    let mut writer = ParquetWriter::with_converter(one::<T>(name, opts), Vec::new())?;
    for v in values {
        writer.write(v)?;
    }
    Ok(Bytes::from(writer.into_inner()?))
}

/// Reads field `name` of every record of `file`.
fn read_file<T: ParquetReadOwned + Send + 'static>(
    name: &'static str,
    opts: FieldOptions,
    file: &Bytes,
) -> Result<Vec<T>, Error> {
    ParquetReader::with_converter(one::<T>(name, opts), file.clone())?.collect()
}

/// The same values through the page store and through a file, read back
/// with the same options; both must give `values` exactly.
fn round_trip<T: ParquetReadOwned + ParquetWrite + PartialEq + Send + 'static + std::fmt::Debug>(
    name: &'static str,
    opts: FieldOptions,
    values: &[T],
) {
    let mut writer = MemPageStore::writer(one::<T>(name, opts)).expect("store writer");
    for v in values {
        writer.write(v).unwrap_or_else(|e| panic!("store write of {v:?}: {e}"));
    }
    let store = writer.close().expect("store");
    let back: Vec<T> =
        store.reader(one::<T>(name, opts)).expect("store reader").collect::<Result<_, _>>().expect("store read");
    assert_eq!(back, values, "through the page store");
    let file = write_file(name, opts, values).expect("file write");
    assert_eq!(read_file::<T>(name, opts, &file).expect("file read"), values, "through a file");
}

/// The error of writing `value`, which must fail.
fn write_error<T: ParquetWrite + std::fmt::Debug>(name: &'static str, opts: FieldOptions, value: T) -> Error {
    match write_file(name, opts, &[value]) {
        Ok(_) => panic!("writing field {name} with {opts:?} should fail"),
        Err(e) => e,
    }
}

/// The error of reading `file` as `T`, which must fail.
fn read_error<T: ParquetReadOwned + Send + 'static + std::fmt::Debug>(
    name: &'static str,
    opts: FieldOptions,
    file: &Bytes,
) -> Error {
    match read_file::<T>(name, opts, file) {
        Ok(v) => panic!("reading field {name} should fail, read {v:?}"),
        Err(e) => e,
    }
}

/// Checks the error's kind, that it names `column`, and that its message
/// holds every one of `words`.
fn assert_error(e: &Error, kind: &str, column: &str, words: &[&str]) {
    let text = e.to_string();
    let actual_kind = match e {
        Error::Schema { .. } => "schema",
        Error::Mismatch { .. } => "resolve",
        Error::Value { .. } => "value",
        Error::Null { .. } => "null",
        _ => "other",
    };
    assert_eq!(actual_kind, kind, "{text}");
    let location = e.location().expect("a location");
    assert_eq!(location.column.as_deref().or(location.field.as_deref()), Some(column), "{text}");
    assert!(text.contains(&format!("`{column}`")), "{text}");
    for w in words {
        assert!(text.contains(w), "{text:?} should contain {w:?}");
    }
}

// ---------------------------------------------------------------------------
// Files written by the parquet crate's low-level writer, and raw reads.

/// A one-column file holding `field` with `values` (`def` levels when optional).
fn low_level_file<D: DataType>(field: Type, values: &[D::T], def: Option<&[i16]>) -> Bytes {
    let root = Type::group_type_builder("m").with_fields(vec![Arc::new(field)]).build().expect("root");
    let mut writer = SerializedFileWriter::new(Vec::new(), Arc::new(root), Default::default()).expect("writer");
    let mut group = writer.next_row_group().expect("row group");
    let mut column = group.next_column().expect("column").expect("one column");
    column.typed::<D>().write_batch(values, def, None).expect("write batch");
    column.close().expect("close column");
    group.close().expect("close row group");
    Bytes::from(writer.into_inner().expect("into inner"))
}

fn leaf(name: &str, physical: Physical) -> magnolify_parquet::parquet::schema::types::PrimitiveTypeBuilder<'_> {
    Type::primitive_type_builder(name, physical).with_repetition(Repetition::REQUIRED)
}

/// The dense values of the first column of `file`, as the parquet crate decodes them.
fn raw_values<D: DataType>(file: &Bytes) -> Vec<D::T> {
    let reader = SerializedFileReader::new(file.clone()).expect("file reader");
    let group = reader.get_row_group(0).expect("row group");
    let mut column = get_typed_column_reader::<D>(group.get_column_reader(0).expect("column reader"));
    let (mut values, mut def) = (Vec::new(), Vec::new());
    column.read_records(usize::MAX, Some(&mut def), None, &mut values).expect("read records");
    values
}

fn raw_bytes(file: &Bytes) -> Vec<Vec<u8>> {
    let reader = SerializedFileReader::new(file.clone()).expect("file reader");
    match reader.metadata().file_metadata().schema_descr().column(0).physical_type() {
        Physical::FIXED_LEN_BYTE_ARRAY => {
            raw_values::<FixedLenByteArrayType>(file).iter().map(|v| v.data().to_vec()).collect()
        }
        _ => raw_values::<ByteArrayType>(file).iter().map(|v| v.data().to_vec()).collect(),
    }
}

/// The schema text of the first column of `file`.
fn column_text(file: &Bytes) -> String {
    let reader = SerializedFileReader::new(file.clone()).expect("file reader");
    let descr = reader.metadata().file_metadata().schema_descr().column(0);
    schema::to_text(descr.self_type()).trim().to_owned()
}

fn dt(y: i32, mo: u32, d: u32, h: u32, mi: u32, s: u32, nanos: u32) -> NaiveDateTime {
    NaiveDate::from_ymd_opt(y, mo, d).and_then(|date| date.and_hms_nano_opt(h, mi, s, nanos)).expect("valid date")
}

fn t(h: u32, mi: u32, s: u32, nanos: u32) -> NaiveTime {
    NaiveTime::from_hms_nano_opt(h, mi, s, nanos).expect("valid time")
}

fn d(s: &str) -> Decimal {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn big(s: &str) -> BigDecimal {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// `v` with the digits below `unit` dropped: the extremes a unit holds exactly.
fn floor_to(v: NaiveDateTime, unit: TimeUnit) -> NaiveDateTime {
    use chrono::Timelike;
    let step = 1_000_000_000 / unit.per_second() as u32;
    v.with_nanosecond(v.nanosecond() / step * step).expect("nanosecond in range")
}

// ---------------------------------------------------------------------------
// A derived record with every logical type.

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Logical {
    date: NaiveDate,
    #[parquet(timestamp = "millis")]
    time_ms: NaiveTime,
    time_us: NaiveTime,
    #[parquet(timestamp = "nanos")]
    time_ns: NaiveTime,
    #[parquet(timestamp = "millis")]
    local_ms: NaiveDateTime,
    local_us: NaiveDateTime,
    #[parquet(timestamp = "nanos")]
    local_ns: NaiveDateTime,
    #[parquet(timestamp = "millis")]
    utc_ms: DateTime<Utc>,
    #[parquet(timestamp = "micros")]
    utc_us: DateTime<Utc>,
    #[parquet(timestamp = "nanos")]
    utc_ns: DateTime<Utc>,
    id: Uuid,
    half: f16,
    #[parquet(decimal(precision = 9, scale = 2))]
    dec_int32: Decimal,
    #[parquet(decimal(precision = 18, scale = 4))]
    dec_int64: Decimal,
    #[parquet(decimal(precision = 28, scale = 10))]
    dec_fixed: Decimal,
    #[parquet(decimal(precision = 20, scale = 3, physical = "binary"))]
    dec_binary: Decimal,
    #[parquet(decimal(precision = 5, scale = 2, physical = "fixed"))]
    dec_small_fixed: Decimal,
    #[parquet(decimal(precision = 4, scale = 0, physical = "int64"))]
    dec_forced_int64: Decimal,
    #[parquet(decimal(precision = 38, scale = 10))]
    spark: BigDecimal,
    maybe_date: Option<NaiveDate>,
    #[parquet(timestamp = "millis")]
    events: Vec<DateTime<Utc>>,
    ids: Vec<Uuid>,
    #[parquet(decimal(precision = 9, scale = 2))]
    amounts: Vec<Option<Decimal>>,
}

#[test]
fn schema_of_every_logical_type_in_every_unit() {
    let expected = "\
message Logical {
  REQUIRED INT32 date (DATE);
  REQUIRED INT32 time_ms (TIME(MILLIS,false));
  REQUIRED INT64 time_us (TIME(MICROS,false));
  REQUIRED INT64 time_ns (TIME(NANOS,false));
  REQUIRED INT64 local_ms (TIMESTAMP(MILLIS,false));
  REQUIRED INT64 local_us (TIMESTAMP(MICROS,false));
  REQUIRED INT64 local_ns (TIMESTAMP(NANOS,false));
  REQUIRED INT64 utc_ms (TIMESTAMP(MILLIS,true));
  REQUIRED INT64 utc_us (TIMESTAMP(MICROS,true));
  REQUIRED INT64 utc_ns (TIMESTAMP(NANOS,true));
  REQUIRED FIXED_LEN_BYTE_ARRAY (16) id (UUID);
  REQUIRED FIXED_LEN_BYTE_ARRAY (2) half (FLOAT16);
  REQUIRED INT32 dec_int32 (DECIMAL(9,2));
  REQUIRED INT64 dec_int64 (DECIMAL(18,4));
  REQUIRED FIXED_LEN_BYTE_ARRAY (12) dec_fixed (DECIMAL(28,10));
  REQUIRED BYTE_ARRAY dec_binary (DECIMAL(20,3));
  REQUIRED FIXED_LEN_BYTE_ARRAY (3) dec_small_fixed (DECIMAL(5,2));
  REQUIRED INT64 dec_forced_int64 (DECIMAL(4,0));
  REQUIRED FIXED_LEN_BYTE_ARRAY (16) spark (DECIMAL(38,10));
  OPTIONAL INT32 maybe_date (DATE);
  REQUIRED group events (LIST) {
    REPEATED group list {
      REQUIRED INT64 element (TIMESTAMP(MILLIS,true));
    }
  }
  REQUIRED group ids (LIST) {
    REPEATED group list {
      REQUIRED FIXED_LEN_BYTE_ARRAY (16) element (UUID);
    }
  }
  REQUIRED group amounts (LIST) {
    REPEATED group list {
      OPTIONAL INT32 element (DECIMAL(9,2));
    }
  }
}
";
    let message = Logical::message().expect("schema");
    assert_eq!(schema::to_text(&message), expected);
    // The legacy annotations old readers need are there too (TIME/TIMESTAMP
    // MILLIS and MICROS, DATE, DECIMAL with precision and scale).
    let descr = SchemaDescriptor::new(message);
    let converted: Vec<_> = descr.columns().iter().map(|c| c.converted_type()).collect();
    use ConvertedType as C;
    assert_eq!(
        converted,
        [
            C::DATE,
            C::TIME_MILLIS,
            C::TIME_MICROS,
            C::NONE,
            C::TIMESTAMP_MILLIS,
            C::TIMESTAMP_MICROS,
            C::NONE,
            C::TIMESTAMP_MILLIS,
            C::TIMESTAMP_MICROS,
            C::NONE,
            C::NONE,
            C::NONE,
            C::DECIMAL,
            C::DECIMAL,
            C::DECIMAL,
            C::DECIMAL,
            C::DECIMAL,
            C::DECIMAL,
            C::DECIMAL,
            C::DATE,
            C::TIMESTAMP_MILLIS,
            C::NONE,
            C::DECIMAL,
        ]
    );
    let dec = descr.column(14);
    assert_eq!((dec.type_precision(), dec.type_scale(), dec.type_length()), (28, 10, 12));
}

fn logical_rows() -> Vec<Logical> {
    let utc = |v: NaiveDateTime| v.and_utc();
    vec![
        Logical {
            date: NaiveDate::from_ymd_opt(2024, 2, 29).expect("date"),
            time_ms: t(23, 59, 59, 999_000_000),
            time_us: t(23, 59, 59, 999_999_000),
            time_ns: t(23, 59, 59, 999_999_999),
            local_ms: dt(1969, 12, 31, 23, 59, 59, 999_000_000),
            local_us: dt(1900, 1, 1, 0, 0, 0, 1_000),
            local_ns: dt(2262, 4, 11, 23, 47, 16, 854_775_807),
            utc_ms: utc(floor_to(NaiveDateTime::MAX, TimeUnit::Millis)),
            utc_us: utc(floor_to(NaiveDateTime::MIN, TimeUnit::Micros)),
            utc_ns: utc(dt(1677, 9, 21, 0, 12, 43, 145_224_192)),
            id: Uuid::parse_str("00112233-4455-6677-8899-aabbccddeeff").expect("uuid"),
            half: f16::from_f32(-2.5),
            dec_int32: d("-9999999.99"),
            dec_int64: d("99999999999999.9999"),
            dec_fixed: d("-999999999999999999.9999999999"),
            dec_binary: d("12345678901234567.890"),
            dec_small_fixed: d("-999.99"),
            dec_forced_int64: d("-9999"),
            spark: big("-9999999999999999999999999999.9999999999"),
            maybe_date: None,
            events: vec![utc(dt(1, 1, 1, 0, 0, 0, 0)), utc(dt(9999, 12, 31, 23, 59, 59, 999_000_000))],
            ids: vec![Uuid::nil(), Uuid::max()],
            amounts: vec![Some(d("0.01")), None, Some(d("-0.01"))],
        },
        Logical {
            date: NaiveDate::MIN,
            time_ms: NaiveTime::MIN,
            time_us: NaiveTime::MIN,
            time_ns: NaiveTime::MIN,
            local_ms: floor_to(NaiveDateTime::MIN, TimeUnit::Millis),
            local_us: floor_to(NaiveDateTime::MAX, TimeUnit::Micros),
            local_ns: dt(1970, 1, 1, 0, 0, 0, 0),
            utc_ms: DateTime::UNIX_EPOCH,
            utc_us: DateTime::UNIX_EPOCH,
            utc_ns: DateTime::UNIX_EPOCH,
            id: Uuid::max(),
            half: f16::NEG_ZERO,
            dec_int32: Decimal::ZERO,
            dec_int64: d("-0.0001"),
            dec_fixed: d("0.0000000001"),
            dec_binary: d("-99999999999999999.999"),
            dec_small_fixed: d("0"),
            dec_forced_int64: d("9999"),
            spark: big("0.0000000001"),
            maybe_date: Some(NaiveDate::MAX),
            events: vec![],
            ids: vec![],
            amounts: vec![],
        },
    ]
}

#[test]
fn derived_record_round_trips_through_the_store_and_a_file() {
    let rows = logical_rows();
    let store = MemPageStore::write_all::<Logical>(&rows).expect("store");
    let back: Vec<Logical> = store.read::<Logical>().expect("reader").collect::<Result<_, _>>().expect("read");
    assert_eq!(back, rows);
    // -0.0 equals 0.0: compare its bits (NaN payloads: see the f16 test).
    assert_eq!(back[1].half.to_bits(), f16::NEG_ZERO.to_bits());

    let mut writer = ParquetWriter::<Logical, _>::new(Vec::new()).expect("writer");
    writer.write_all(&rows).expect("write");
    let file = Bytes::from(writer.into_inner().expect("file"));
    let back: Vec<Logical> =
        ParquetReader::<Logical, _>::new(file).expect("reader").collect::<Result<_, _>>().expect("read");
    assert_eq!(back, rows);
    assert_eq!(back[1].half.to_bits(), f16::NEG_ZERO.to_bits());
}

// ---------------------------------------------------------------------------
// Timestamps.

#[test]
fn timestamps_at_each_units_limits_round_trip_exactly() {
    for (unit, opts) in UNITS {
        let (min, max) = match unit {
            // i64 nanoseconds since the epoch: about 1677-09-21 to 2262-04-11.
            TimeUnit::Nanos => (dt(1677, 9, 21, 0, 12, 43, 145_224_192), dt(2262, 4, 11, 23, 47, 16, 854_775_807)),
            // Millis and micros hold chrono's whole range.
            _ => (floor_to(NaiveDateTime::MIN, unit), floor_to(NaiveDateTime::MAX, unit)),
        };
        let local = vec![min, max, dt(1969, 12, 31, 23, 59, 59, 999_000_000), dt(1970, 1, 1, 0, 0, 0, 0)];
        round_trip("ts", opts, &local);
        let instants: Vec<DateTime<Utc>> = local.iter().map(|v| v.and_utc()).collect();
        round_trip("ts", opts, &instants);
        round_trip("ts", opts, &local.iter().map(|v| Some(*v)).chain([None]).collect::<Vec<_>>());
        round_trip("ts", opts, &[instants.clone(), vec![], instants[..1].to_vec()]);

        // The raw INT64 values are the counts of the unit since the epoch.
        let file = write_file("ts", opts, &local).expect("write");
        let raw = raw_values::<Int64Type>(&file);
        let per_milli = unit.per_second() / 1000;
        assert_eq!(&raw[2..], [-per_milli, 0], "{unit:?}");
        if unit == TimeUnit::Nanos {
            assert_eq!(&raw[..2], [i64::MIN, i64::MAX]);
        } else {
            assert_eq!(raw[0], NaiveDateTime::MIN.and_utc().timestamp() * unit.per_second());
        }
    }
}

#[test]
fn pre_epoch_timestamps_keep_their_fraction() {
    // 1900-01-01 is 2 208 988 800 s before the epoch; one microsecond after it.
    let file = write_file("ts", MICROS, &[dt(1900, 1, 1, 0, 0, 0, 1_000)]).expect("write");
    assert_eq!(raw_values::<Int64Type>(&file), [-2_208_988_800_000_000 + 1]);
    assert_eq!(read_file::<NaiveDateTime>("ts", MICROS, &file).expect("read"), [dt(1900, 1, 1, 0, 0, 0, 1_000)]);
    // Half a second before the epoch, in millis: -500.
    let file = write_file("ts", MILLIS, &[dt(1969, 12, 31, 23, 59, 59, 500_000_000).and_utc()]).expect("write");
    assert_eq!(raw_values::<Int64Type>(&file), [-500]);
}

#[test]
fn nanosecond_timestamps_outside_i64_are_refused_not_wrapped() {
    let past_max = dt(2262, 4, 11, 23, 47, 16, 854_775_808);
    let before_min = dt(1677, 9, 21, 0, 12, 43, 145_224_191);
    for v in [past_max, before_min, dt(2300, 1, 1, 0, 0, 0, 0), NaiveDateTime::MIN] {
        let e = write_error("ts", NANOS, v);
        assert_error(&e, "value", "ts", &["outside the range of TIMESTAMP(NANOS)", "1677-09-21", "2262-04-11"]);
        let e = write_error("ts", NANOS, v.and_utc());
        assert_error(&e, "value", "ts", &["outside the range of TIMESTAMP(NANOS)"]);
    }
}

#[test]
fn digits_finer_than_the_unit_are_truncated_toward_the_past() {
    // One nanosecond past 2024-01-01 in the default micros: the micros of the second.
    let file = write_file("ts", DEFAULT, &[dt(2024, 1, 1, 0, 0, 0, 1)]).expect("write");
    assert_eq!(raw_values::<Int64Type>(&file), [1_704_067_200_000_000]);
    assert_eq!(read_file::<NaiveDateTime>("ts", DEFAULT, &file).expect("read"), [dt(2024, 1, 1, 0, 0, 0, 0)]);
    // Before the epoch the floor goes down: 1 ns before it is -1 ms, not 0.
    let before = dt(1969, 12, 31, 23, 59, 59, 999_999_999).and_utc();
    let file = write_file("ts", MILLIS, &[before]).expect("write");
    assert_eq!(raw_values::<Int64Type>(&file), [-1]);
    let file = write_file("ts", MICROS, &[dt(1969, 12, 31, 23, 59, 58, 123_456_789)]).expect("write");
    assert_eq!(raw_values::<Int64Type>(&file), [-1_876_544]);
    let file = write_file("at", MILLIS, &[t(12, 0, 0, 1_999_999)]).expect("write");
    assert_eq!(raw_values::<Int32Type>(&file), [43_200_001]);
    let file = write_file("at", MICROS, &[t(23, 59, 59, 999_999_999)]).expect("write");
    assert_eq!(raw_values::<Int64Type>(&file), [86_399_999_999]);
}

#[test]
fn digits_finer_than_an_exact_unit_are_refused() {
    let e = write_error("ts", EXACT_MICROS, dt(2024, 1, 1, 0, 0, 0, 1));
    assert_error(&e, "value", "ts", &["2024-01-01 00:00:00.000000001", "TIMESTAMP(MICROS)", "1 ns past the second"]);
    let e = write_error("ts", EXACT_MILLIS, dt(2024, 1, 1, 0, 0, 0, 1_000).and_utc());
    assert_error(&e, "value", "ts", &["TIMESTAMP(MILLIS)", "timestamp = \"nanos\"", "drop `exact`"]);
    let e = write_error("at", EXACT_MILLIS, t(12, 0, 0, 1_000));
    assert_error(&e, "value", "at", &["time 12:00:00.000001", "TIME(MILLIS)"]);
    let e = write_error("at", EXACT_MICROS, t(12, 0, 0, 1));
    assert_error(&e, "value", "at", &["TIME(MICROS)"]);
    let e = write_error("ts", EXACT_MILLIS, Some(dt(1969, 12, 31, 23, 59, 59, 999_999_999)));
    assert_error(&e, "value", "ts", &["TIMESTAMP(MILLIS)"]);
    // Inside a list, the error still names the leaf column.
    let e = write_error("ts", EXACT_MILLIS, vec![dt(2000, 1, 1, 0, 0, 0, 0), dt(2000, 1, 1, 0, 0, 0, 1)]);
    assert_error(&e, "value", "ts.list.element", &["TIMESTAMP(MILLIS)"]);
}

/// The logging case: `Utc::now()` carries nanoseconds on Linux, and a
/// derived record writes it with the defaults (micros), truncated.
#[test]
fn utc_now_writes_with_the_default_settings() {
    #[derive(ParquetType, Debug, PartialEq)]
    struct Event {
        at: DateTime<Utc>,
        local: NaiveDateTime,
        of_day: NaiveTime,
    }
    let now = Utc::now();
    let events: Vec<Event> = (0..3)
        .map(|i| {
            let at = now + chrono::Duration::nanoseconds(i * 1_001);
            Event { at, local: at.naive_utc(), of_day: at.time() }
        })
        .collect();
    let mut writer = ParquetWriter::<Event, _>::new(Vec::new()).expect("writer");
    writer.write_all(&events).expect("Utc::now() with defaults");
    let file = Bytes::from(writer.into_inner().expect("close"));
    let back: Vec<Event> =
        ParquetReader::<Event, _>::new(file).expect("reader").collect::<Result<_, _>>().expect("read");
    // What chrono gives for the same instants cut to whole microseconds.
    let micros = |v: DateTime<Utc>| DateTime::from_timestamp_micros(v.timestamp_micros()).expect("in range");
    let expected: Vec<Event> = events
        .iter()
        .map(|e| Event { at: micros(e.at), local: micros(e.at).naive_utc(), of_day: micros(e.at).time() })
        .collect();
    assert_eq!(back, expected);
}

/// `#[parquet(exact)]` on a derived field: the same instant is refused.
#[test]
fn an_exact_derived_field_refuses_finer_digits() {
    #[derive(ParquetType, Debug, PartialEq)]
    struct Strict {
        #[parquet(timestamp = "micros", exact)]
        at: DateTime<Utc>,
    }
    let at = DateTime::from_timestamp(1_700_000_000, 1_001).expect("in range");
    let mut writer = ParquetWriter::<Strict, _>::new(Vec::new()).expect("writer");
    let e = writer.write(&Strict { at }).expect_err("finer than micros");
    assert_error(&e, "value", "at", &["TIMESTAMP(MICROS)", "1001 ns past the second", "the field is exact"]);
    writer
        .write(&Strict { at: DateTime::from_timestamp(1_700_000_000, 1_000).expect("in range") })
        .expect("whole micros");
    writer.discard();
}

#[test]
fn a_refused_value_leaves_the_writer_usable() {
    let mut writer = MemPageStore::writer(one::<NaiveDateTime>("ts", EXACT_MILLIS)).expect("writer");
    writer.write(&dt(2000, 1, 1, 0, 0, 0, 0)).expect("good row");
    assert!(writer.write(&dt(2000, 1, 1, 0, 0, 0, 1)).is_err());
    writer.write(&dt(2001, 1, 1, 0, 0, 0, 0)).expect("good row after a refused one");
    let store = writer.close().expect("store");
    let back: Vec<_> =
        store.reader(one::<NaiveDateTime>("ts", MILLIS)).expect("reader").collect::<Result<_, _>>().expect("read");
    assert_eq!(back, [dt(2000, 1, 1, 0, 0, 0, 0), dt(2001, 1, 1, 0, 0, 0, 0)]);
}

#[test]
fn leap_seconds_are_refused() {
    let leap = dt(2016, 12, 31, 23, 59, 59, 1_500_000_000);
    assert_error(&write_error("ts", NANOS, leap), "value", "ts", &["leap second"]);
    assert_error(&write_error("ts", MICROS, leap.and_utc()), "value", "ts", &["leap second"]);
    assert_error(&write_error("at", MILLIS, t(23, 59, 59, 1_000_000_000)), "value", "at", &["leap second"]);
}

#[test]
fn coarser_file_units_widen_exactly() {
    let values =
        [dt(1969, 7, 20, 20, 17, 40, 123_000_000), dt(2024, 1, 1, 0, 0, 0, 0), dt(2262, 4, 11, 0, 0, 0, 1_000_000)];
    let millis = write_file("ts", MILLIS, &values).expect("write millis");
    assert_eq!(read_file::<NaiveDateTime>("ts", MICROS, &millis).expect("millis into micros"), values);
    assert_eq!(read_file::<NaiveDateTime>("ts", NANOS, &millis).expect("millis into nanos"), values);
    let micros = write_file("ts", MICROS, &values.map(|v| v.and_utc())).expect("write micros");
    assert_eq!(
        read_file::<DateTime<Utc>>("ts", NANOS, &micros).expect("micros into nanos"),
        values.map(|v| v.and_utc())
    );
    // UTC files read into NaiveDateTime too, as UTC wall-clock time.
    assert_eq!(read_file::<NaiveDateTime>("ts", MICROS, &micros).expect("utc into naive"), values);

    let times = [t(0, 0, 0, 0), t(12, 34, 56, 789_000_000), t(23, 59, 59, 999_000_000)];
    let file = write_file("at", MILLIS, &times).expect("write times");
    assert_eq!(column_text(&file), "REQUIRED INT32 at (TIME(MILLIS,false));");
    assert_eq!(raw_values::<Int32Type>(&file), [0, 45_296_789, 86_399_999]);
    assert_eq!(read_file::<NaiveTime>("at", MICROS, &file).expect("INT32 millis into micros"), times);
    assert_eq!(read_file::<NaiveTime>("at", NANOS, &file).expect("INT32 millis into nanos"), times);
}

#[test]
fn finer_file_units_are_refused_when_the_file_is_opened() {
    let nanos = write_file("ts", NANOS, &[dt(2024, 1, 1, 0, 0, 0, 1)]).expect("write");
    let e = read_error::<NaiveDateTime>("ts", MILLIS, &nanos);
    assert_error(&e, "resolve", "ts", &["NANOS", "MILLIS", "timestamp = \"nanos\""]);
    let e = read_error::<NaiveDateTime>("ts", MICROS, &nanos);
    assert_error(&e, "resolve", "ts", &["NANOS", "MICROS"]);
    let micros = write_file("ts", MICROS, &[dt(2024, 1, 1, 0, 0, 0, 0).and_utc()]).expect("write");
    let e = read_error::<DateTime<Utc>>("ts", MILLIS, &micros);
    assert_error(&e, "resolve", "ts", &["MICROS", "MILLIS"]);
    let time = write_file("at", NANOS, &[t(1, 2, 3, 4)]).expect("write");
    let e = read_error::<NaiveTime>("at", MICROS, &time);
    assert_error(&e, "resolve", "at", &["NANOS", "MICROS"]);
}

#[test]
fn widening_past_the_fields_range_is_a_value_error() {
    // Year 1500 fits millis but not i64 nanoseconds.
    let file = write_file("ts", MILLIS, &[dt(2000, 1, 1, 0, 0, 0, 0), dt(1500, 1, 1, 0, 0, 0, 0)]).expect("write");
    let e = read_error::<NaiveDateTime>("ts", NANOS, &file);
    assert_error(&e, "value", "ts", &["record 1", "overflows", "NANOS"]);
}

#[test]
fn local_timestamps_are_not_instants() {
    let file = write_file("ts", MICROS, &[dt(2024, 1, 1, 0, 0, 0, 0)]).expect("write");
    let e = read_error::<DateTime<Utc>>("ts", MICROS, &file);
    assert_error(&e, "resolve", "ts", &["isAdjustedToUTC", "NaiveDateTime"]);
    assert_eq!(
        read_file::<NaiveDateTime>("ts", MICROS, &file).expect("naive reads local"),
        [dt(2024, 1, 1, 0, 0, 0, 0)]
    );
}

#[test]
fn legacy_converted_types_are_read() {
    let ts = |name, c| leaf(name, Physical::INT64).with_converted_type(c).build().expect("type");
    let values = [-1i64, 0, 1_704_067_200_123];
    let file = low_level_file::<Int64Type>(ts("ts", ConvertedType::TIMESTAMP_MILLIS), &values, None);
    // The file really has no logical type: only the converted one.
    let reader = SerializedFileReader::new(file.clone()).expect("reader");
    let column = reader.metadata().file_metadata().schema_descr().column(0);
    assert_eq!((column.logical_type_ref(), column.converted_type()), (None, ConvertedType::TIMESTAMP_MILLIS));
    let expected =
        [dt(1969, 12, 31, 23, 59, 59, 999_000_000), dt(1970, 1, 1, 0, 0, 0, 0), dt(2024, 1, 1, 0, 0, 0, 123_000_000)];
    // A converted type alone means UTC: DateTime<Utc> reads it.
    assert_eq!(read_file::<DateTime<Utc>>("ts", MICROS, &file).expect("utc"), expected.map(|v| v.and_utc()));
    assert_eq!(read_file::<NaiveDateTime>("ts", MILLIS, &file).expect("naive"), expected);

    let file = low_level_file::<Int64Type>(ts("ts", ConvertedType::TIMESTAMP_MICROS), &[-1, 86_400_000_001], None);
    assert_eq!(
        read_file::<NaiveDateTime>("ts", NANOS, &file).expect("micros"),
        [dt(1969, 12, 31, 23, 59, 59, 999_999_000), dt(1970, 1, 2, 0, 0, 0, 1_000)]
    );
    assert_error(&read_error::<NaiveDateTime>("ts", MILLIS, &file), "resolve", "ts", &["MICROS", "MILLIS"]);

    let time = leaf("at", Physical::INT32).with_converted_type(ConvertedType::TIME_MILLIS).build().expect("type");
    let file = low_level_file::<Int32Type>(time, &[45_296_789], None);
    assert_eq!(read_file::<NaiveTime>("at", MILLIS, &file).expect("time millis"), [t(12, 34, 56, 789_000_000)]);
    let time = leaf("at", Physical::INT64).with_converted_type(ConvertedType::TIME_MICROS).build().expect("type");
    let file = low_level_file::<Int64Type>(time, &[45_296_789_012], None);
    assert_eq!(read_file::<NaiveTime>("at", NANOS, &file).expect("time micros"), [t(12, 34, 56, 789_012_000)]);

    let date = leaf("day", Physical::INT32).with_converted_type(ConvertedType::DATE).build().expect("type");
    let file = low_level_file::<Int32Type>(date, &[-1, 0, 10_957], None);
    assert_eq!(
        read_file::<NaiveDate>("day", DEFAULT, &file).expect("date"),
        [(1969, 12, 31), (1970, 1, 1), (2000, 1, 1)].map(|(y, m, d)| NaiveDate::from_ymd_opt(y, m, d).expect("date"))
    );
}

/// An INT96 as Impala and Spark write it: nanoseconds of the day, then the Julian day.
fn int96(julian_day: i32, nanos_of_day: i64) -> Int96 {
    let nanos = nanos_of_day.to_le_bytes();
    let mut v = Int96::new();
    v.set_data(
        u32::from_le_bytes([nanos[0], nanos[1], nanos[2], nanos[3]]),
        u32::from_le_bytes([nanos[4], nanos[5], nanos[6], nanos[7]]),
        u32::from_le_bytes(julian_day.to_le_bytes()),
    );
    v
}

#[test]
fn int96_timestamps_read_exactly() {
    const HOUR: i64 = 3_600_000_000_000;
    let field = Type::primitive_type_builder("ts", Physical::INT96)
        .with_repetition(Repetition::OPTIONAL)
        .build()
        .expect("type");
    let values = [
        // 2000-01-01 is Julian day 2 451 545.
        int96(2_451_545, 0),
        int96(2_440_588, 20 * HOUR + 34 * 60_000_000_000 + 56_123_456_789),
        // The day before the epoch, one nanosecond before midnight.
        int96(2_440_587, 24 * HOUR - 1),
        int96(2_415_021, 1_000),
        // Spark's 9999-12-31T03:00:00.
        int96(5_373_484, 3 * HOUR),
    ];
    let def = [1, 1, 0, 1, 1, 1];
    let file = low_level_file::<Int96Type>(field, &values, Some(&def));
    let expected = [
        Some(dt(2000, 1, 1, 0, 0, 0, 0)),
        Some(dt(1970, 1, 1, 20, 34, 56, 123_456_789)),
        None,
        Some(dt(1969, 12, 31, 23, 59, 59, 999_999_999)),
        Some(dt(1900, 1, 1, 0, 0, 0, 1_000)),
        Some(dt(9999, 12, 31, 3, 0, 0, 0)),
    ];
    // INT96 has no unit: nanoseconds survive whatever the field's unit.
    for opts in [DEFAULT, MILLIS, NANOS] {
        assert_eq!(read_file::<Option<NaiveDateTime>>("ts", opts, &file).expect("naive"), expected);
        let utc: Vec<_> = expected.iter().map(|v| v.map(|v| v.and_utc())).collect();
        assert_eq!(read_file::<Option<DateTime<Utc>>>("ts", opts, &file).expect("utc"), utc);
    }
    // The parquet crate's own (wrapping) conversion agrees where nothing wraps.
    for (v, e) in values.iter().zip(expected.iter().flatten()) {
        assert_eq!(v.to_nanos(), e.and_utc().timestamp_nanos_opt().unwrap_or(v.to_nanos()));
        assert_eq!(v.to_micros(), e.and_utc().timestamp_micros());
    }
}

#[test]
fn int96_outside_chronos_range_is_a_value_error() {
    let field = leaf("ts", Physical::INT96).build().expect("type");
    // Julian day 0 is 4714 BC, -4713-11-24 proleptic Gregorian (fine); day 200 000 000 is about year 543 000.
    let file = low_level_file::<Int96Type>(field, &[int96(0, 0), int96(200_000_000, 0)], None);
    let e = read_error::<NaiveDateTime>("ts", DEFAULT, &file);
    assert_error(&e, "value", "ts", &["record 1", "INT96", "out of chrono's range"]);
    // One record at a time, the first one is read before the error.
    let reader = ReaderBuilder::new(file)
        .and_then(|b| b.build_with(one::<NaiveDateTime>("ts", DEFAULT), ReadOptions::default().batch_size(1)));
    let mut reader = reader.expect("reader");
    assert_eq!(reader.next().map(|r| r.ok()), Some(Some(dt(-4713, 11, 24, 0, 0, 0, 0))));
    assert!(matches!(reader.next(), Some(Err(Error::Value { .. }))));
}

// ---------------------------------------------------------------------------
// Times and dates.

#[test]
fn times_round_trip_in_every_unit() {
    for (unit, opts) in UNITS {
        let last = floor_to(dt(2000, 1, 1, 23, 59, 59, 999_999_999), unit).time();
        let times = vec![NaiveTime::MIN, t(0, 0, 0, 1_000_000), t(12, 0, 0, 0), last];
        round_trip("at", opts, &times);
        round_trip("at", opts, &[Some(last), None]);
        round_trip("at", opts, &[times.clone(), vec![]]);
        let file = write_file("at", opts, &times).expect("write");
        let raw: Vec<i64> = if unit == TimeUnit::Millis {
            raw_values::<Int32Type>(&file).into_iter().map(i64::from).collect()
        } else {
            raw_values::<Int64Type>(&file)
        };
        let per = unit.per_second();
        assert_eq!(raw, [0, per / 1000, 43_200 * per, 86_400 * per - 1], "{unit:?}");
    }
}

#[test]
fn dates_round_trip_with_days_since_the_epoch() {
    let dates = vec![
        NaiveDate::MIN,
        NaiveDate::from_ymd_opt(1969, 12, 31).expect("date"),
        NaiveDate::from_ymd_opt(1970, 1, 1).expect("date"),
        NaiveDate::from_ymd_opt(2000, 1, 1).expect("date"),
        NaiveDate::MAX,
    ];
    round_trip("day", DEFAULT, &dates);
    round_trip("day", DEFAULT, &[Some(dates[0]), None]);
    let file = write_file("day", DEFAULT, &dates).expect("write");
    assert_eq!(column_text(&file), "REQUIRED INT32 day (DATE);");
    let raw = raw_values::<Int32Type>(&file);
    assert_eq!(&raw[1..4], [-1, 0, 10_957]);
    assert!(raw[0] < -95_000_000 && raw[4] > 95_000_000, "{raw:?}");
}

#[test]
fn dates_out_of_chronos_range_are_value_errors() {
    let date = leaf("day", Physical::INT32).with_logical_type(Some(LogicalType::Date)).build().expect("type");
    let file = low_level_file::<Int32Type>(date, &[0, i32::MAX], None);
    assert_error(&read_error::<NaiveDate>("day", DEFAULT, &file), "value", "day", &["record 1", "2147483647 days"]);
}

#[test]
fn time_of_day_out_of_range_is_a_value_error() {
    let time = leaf("at", Physical::INT64)
        .with_logical_type(Some(LogicalType::time(true, PqUnit::MICROS)))
        .build()
        .expect("type");
    let file = low_level_file::<Int64Type>(time, &[86_399_999_999, 86_400_000_000], None);
    assert_error(&read_error::<NaiveTime>("at", MICROS, &file), "value", "at", &["record 1", "not a time of day"]);
}

#[test]
fn null_into_a_required_logical_type_is_an_error() {
    let file = write_file("day", DEFAULT, &[Some(NaiveDate::MIN), None]).expect("write");
    assert_error(&read_error::<NaiveDate>("day", DEFAULT, &file), "null", "day", &["record 1"]);
}

#[test]
fn columns_of_other_types_are_refused() {
    let ints = write_file("v", DEFAULT, &[1i32]).expect("write");
    assert_error(
        &read_error::<NaiveDate>("v", DEFAULT, &ints),
        "resolve",
        "v",
        &["`NaiveDate` reads DATE columns", "read it into `i32`"],
    );
    assert_error(
        &read_error::<NaiveTime>("v", DEFAULT, &ints),
        "resolve",
        "v",
        &["`NaiveTime` reads TIME columns", "read it into `i32`"],
    );
    assert_error(
        &read_error::<NaiveDateTime>("v", DEFAULT, &ints),
        "resolve",
        "v",
        &["reads TIMESTAMP or INT96 columns", "read it into `i32`"],
    );
    assert_error(
        &read_error::<Decimal>("v", dec(9, 2), &ints),
        "resolve",
        "v",
        &["`rust_decimal::Decimal` reads DECIMAL columns", "read it into `i32`"],
    );
    let dates = write_file("v", DEFAULT, &[NaiveDate::MIN]).expect("write");
    assert_error(&read_error::<i32>("v", DEFAULT, &dates), "resolve", "v", &["Date"]);
    assert_error(&read_error::<DateTime<Utc>>("v", DEFAULT, &dates), "resolve", "v", &["TIMESTAMP"]);
    let fixed8 = write_file("v", DEFAULT, &[[0u8; 8]]).expect("write");
    assert_error(
        &read_error::<Uuid>("v", DEFAULT, &fixed8),
        "resolve",
        "v",
        &["FIXED_LEN_BYTE_ARRAY(16)", "FIXED_LEN_BYTE_ARRAY (8)", "read it into `[u8; 8]`"],
    );
    let decimal16 = write_file("v", dec(38 - 10, 0), &[Decimal::ONE]).expect("write");
    assert_error(&read_error::<Uuid>("v", DEFAULT, &decimal16), "resolve", "v", &["UUID"]);
}

// ---------------------------------------------------------------------------
// UUID and FLOAT16.

#[test]
fn uuids_are_big_endian_in_canonical_order() {
    let ids = vec![Uuid::parse_str("00112233-4455-6677-8899-aabbccddeeff").expect("uuid"), Uuid::nil(), Uuid::max()];
    round_trip("id", DEFAULT, &ids);
    round_trip("id", DEFAULT, &[Some(ids[0]), None]);
    round_trip("id", DEFAULT, &[ids.clone(), vec![]]);
    let file = write_file("id", DEFAULT, &ids).expect("write");
    assert_eq!(column_text(&file), "REQUIRED FIXED_LEN_BYTE_ARRAY (16) id (UUID);");
    let raw = raw_bytes(&file);
    assert_eq!(
        raw[0],
        [0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff]
    );
    assert_eq!(raw[2], [0xff; 16]);
}

#[test]
fn uuids_without_the_annotation_are_read() {
    let bytes = [[0x12u8; 16], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]];
    let file = write_file("id", DEFAULT, &bytes).expect("write");
    assert_eq!(column_text(&file), "REQUIRED FIXED_LEN_BYTE_ARRAY (16) id;");
    let ids = read_file::<Uuid>("id", DEFAULT, &file).expect("read");
    assert_eq!(ids, bytes.map(Uuid::from_bytes));
    assert_eq!(ids[1].to_string(), "00010203-0405-0607-0809-0a0b0c0d0e0f");
}

#[test]
fn f16_bits_round_trip_little_endian() {
    let bits = [0x7e01u16, 0xfe55, 0x7c01, 0x8000, 0x0000, 0x7c00, 0xfc00, 0x0001, 0x7bff, 0x3c00, 0xc000];
    let values: Vec<f16> = bits.iter().map(|b| f16::from_bits(*b)).collect();
    let file = write_file("h", DEFAULT, &values).expect("write");
    let back = read_file::<f16>("h", DEFAULT, &file).expect("read");
    assert_eq!(back.iter().map(|v| v.to_bits()).collect::<Vec<_>>(), bits);
    assert_eq!(column_text(&file), "REQUIRED FIXED_LEN_BYTE_ARRAY (2) h (FLOAT16);");
    let raw = raw_bytes(&file);
    assert_eq!(raw.iter().map(|b| u16::from_le_bytes([b[0], b[1]])).collect::<Vec<_>>(), bits);
    let store = MemPageStore::writer(one::<Vec<f16>>("h", DEFAULT)).and_then(|mut w| {
        w.write(&values)?;
        w.close()
    });
    let back: Vec<Vec<f16>> = store
        .expect("store")
        .reader(one::<Vec<f16>>("h", DEFAULT))
        .expect("reader")
        .collect::<Result<_, _>>()
        .expect("read");
    assert_eq!(back[0].iter().map(|v| v.to_bits()).collect::<Vec<_>>(), bits);
    round_trip("h", DEFAULT, &[Some(f16::ONE), None]);
}

#[test]
fn f16_needs_the_annotation() {
    let file = write_file("h", DEFAULT, &[[0u8, 0x3c]]).expect("write");
    assert_error(&read_error::<f16>("h", DEFAULT, &file), "resolve", "h", &["FLOAT16"]);
}

// ---------------------------------------------------------------------------
// rust_decimal::Decimal.

#[test]
fn decimals_round_trip_in_every_physical_type() {
    let cases: [(FieldOptions, &str, &[&str]); 7] = [
        (dec(9, 2), "REQUIRED INT32 v (DECIMAL(9,2));", &["9999999.99", "-9999999.99", "0", "-0.01", "1.5"]),
        (dec(18, 4), "REQUIRED INT64 v (DECIMAL(18,4));", &["99999999999999.9999", "-99999999999999.9999", "0.0001"]),
        (
            dec(28, 10),
            "REQUIRED FIXED_LEN_BYTE_ARRAY (12) v (DECIMAL(28,10));",
            &["999999999999999999.9999999999", "-999999999999999999.9999999999", "-0.0000000001", "0"],
        ),
        (
            dec(28, 0).decimal_physical(DecimalPhysical::Binary),
            "REQUIRED BYTE_ARRAY v (DECIMAL(28,0));",
            &["9999999999999999999999999999", "-9999999999999999999999999999", "0", "-1", "127", "128", "-128", "-129"],
        ),
        (
            dec(4, 4).decimal_physical(DecimalPhysical::Fixed),
            "REQUIRED FIXED_LEN_BYTE_ARRAY (2) v (DECIMAL(4,4));",
            &["0.9999", "-0.9999", "0"],
        ),
        (
            dec(9, 0).decimal_physical(DecimalPhysical::Int64),
            "REQUIRED INT64 v (DECIMAL(9,0));",
            &["999999999", "-999999999"],
        ),
        (dec(1, 0).decimal_physical(DecimalPhysical::Int32), "REQUIRED INT32 v (DECIMAL(1,0));", &["9", "-9", "0"]),
    ];
    for (opts, text, values) in cases {
        let values: Vec<Decimal> = values.iter().map(|v| d(v)).collect();
        round_trip("v", opts, &values);
        round_trip("v", opts, &values.iter().map(|v| Some(*v)).chain([None]).collect::<Vec<_>>());
        round_trip("v", opts, &[values.clone(), vec![]]);
        let file = write_file("v", opts, &values).expect("write");
        assert_eq!(column_text(&file), text);
        // Read back at the declared scale: the same digits after the point.
        let scale = opts.decimal.map(|s| u32::from(s.scale));
        for v in read_file::<Decimal>("v", opts, &file).expect("read") {
            assert_eq!(Some(v.scale()), scale, "{v}");
        }
    }
}

#[test]
fn decimal_bytes_are_big_endian_twos_complement() {
    let fixed = write_file("v", dec(28, 2), &[d("-0.01"), d("1.00"), d("0")]).expect("write");
    let raw = raw_bytes(&fixed);
    assert_eq!(raw[0], [0xff; 12]);
    assert_eq!(raw[1], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 100]);
    assert_eq!(raw[2], [0; 12]);
    let binary = dec(20, 0).decimal_physical(DecimalPhysical::Binary);
    let file = write_file("v", binary, &[d("0"), d("-1"), d("127"), d("128"), d("-128"), d("-129"), d("65535")])
        .expect("write");
    let expected: [&[u8]; 7] = [&[0], &[0xff], &[0x7f], &[0x00, 0x80], &[0x80], &[0xff, 0x7f], &[0x00, 0xff, 0xff]];
    assert_eq!(raw_bytes(&file), expected);
    let int = write_file("v", dec(9, 2), &[d("-9999999.99"), d("1.5")]).expect("write");
    assert_eq!(raw_values::<Int32Type>(&int), [-999_999_999, 150]);
}

#[test]
fn decimals_are_rescaled_exactly_on_write() {
    // 1.5 at scale 2 is 150; 2 is 200; 1.230 (scale 3, trailing zero) is 123.
    let file = write_file("v", dec(9, 2), &[d("1.5"), d("2"), d("1.230")]).expect("write");
    assert_eq!(raw_values::<Int32Type>(&file), [150, 200, 123]);
    let back = read_file::<Decimal>("v", dec(9, 2), &file).expect("read");
    assert_eq!(back.iter().map(|v| v.to_string()).collect::<Vec<_>>(), ["1.50", "2.00", "1.23"]);

    let e = write_error("price", dec(9, 2), d("1.005"));
    assert_error(&e, "value", "price", &["1.005", "more than 2 fraction digits"]);
    let e = write_error("price", dec(5, 2), d("1000.00"));
    assert_error(&e, "value", "price", &["1000.00", "does not fit DECIMAL(5, 2)"]);
    let e = write_error("price", dec(28, 10), d("-1000000000000000000"));
    assert_error(&e, "value", "price", &["DECIMAL(28, 10)"]);
    let e = write_error("price", dec(9, 2), vec![d("1"), d("0.001")]);
    assert_error(&e, "value", "price.list.element", &["0.001"]);
}

#[test]
fn decimal_schema_errors_name_the_field() {
    let schema_error = |opts: FieldOptions| match one::<Decimal>("price", opts).schema() {
        Ok(s) => panic!("schema should fail: {}", schema::to_text(&s)),
        Err(e) => e,
    };
    let e = schema_error(DEFAULT);
    assert_error(&e, "schema", "price", &["#[parquet(decimal(precision = P, scale = S))]"]);
    assert_error(
        &schema_error(dec(29, 2)),
        "schema",
        "price",
        &["DECIMAL(29, 2)", "28 digits", "bigdecimal::BigDecimal"],
    );
    assert_error(&schema_error(dec(5, 6)), "schema", "price", &["scale cannot exceed the precision"]);
    assert_error(&schema_error(dec(0, 0)), "schema", "price", &["1 to 28 digits"]);
    let e = schema_error(dec(10, 2).decimal_physical(DecimalPhysical::Int32));
    assert_error(&e, "schema", "price", &["INT32 holds at most 9 digits", "DECIMAL(10, 2)"]);
    let e = schema_error(dec(19, 2).decimal_physical(DecimalPhysical::Int64));
    assert_error(&e, "schema", "price", &["INT64 holds at most 18 digits"]);
    // Writing without a spec fails the same way when the schema is made.
    assert!(matches!(write_file("price", DEFAULT, &[Decimal::ONE]), Err(Error::Schema { .. })));
}

#[test]
fn decimal_reads_convert_to_the_declared_scale_exactly() {
    let file = write_file("v", dec(9, 2), &[d("1234567.89"), d("-0.01"), d("0")]).expect("write");
    // Up: exact multiplication.
    let back = read_file::<Decimal>("v", dec(12, 4), &file).expect("scale up");
    assert_eq!(back.iter().map(|v| v.to_string()).collect::<Vec<_>>(), ["1234567.8900", "-0.0100", "0.0000"]);
    // Without a declared spec the file's own scale is kept.
    let back = read_file::<Decimal>("v", DEFAULT, &file).expect("file scale");
    assert_eq!(back.iter().map(|v| v.to_string()).collect::<Vec<_>>(), ["1234567.89", "-0.01", "0.00"]);
    // Down: only when no digit is lost.
    let file = write_file("v", dec(9, 4), &[d("1.2300"), d("-5"), d("1.2345")]).expect("write");
    let e = read_error::<Decimal>("v", dec(9, 2), &file);
    assert_error(&e, "value", "v", &["record 2", "1.2345", "more than 2 fraction digits"]);
    let reader = ReaderBuilder::new(file)
        .and_then(|b| b.build_with(one::<Decimal>("v", dec(9, 2)), ReadOptions::default().batch_size(1)));
    let mut reader = reader.expect("reader");
    let first: Vec<String> = reader.by_ref().take(2).map(|r| r.expect("exact rows").to_string()).collect();
    assert_eq!(first, ["1.23", "-5.00"]);
    // The declared precision is checked on every value.
    let file = write_file("v", dec(9, 2), &[d("9999.99"), d("10000.00")]).expect("write");
    let e = read_error::<Decimal>("v", dec(6, 2), &file);
    assert_error(&e, "value", "v", &["record 1", "10000.00", "does not fit DECIMAL(6, 2)"]);
}

/// A FIXED_LEN_BYTE_ARRAY(16) DECIMAL(38, s) column, as Spark writes it.
fn wide_decimal_file(scale: i32, values: &[i128]) -> Bytes {
    let field = leaf("v", Physical::FIXED_LEN_BYTE_ARRAY)
        .with_length(16)
        .with_logical_type(Some(LogicalType::decimal(scale, 38)))
        .with_precision(38)
        .with_scale(scale)
        .build()
        .expect("type");
    let values: Vec<FixedLenByteArray> =
        values.iter().map(|v| FixedLenByteArray::from(v.to_be_bytes().to_vec())).collect();
    low_level_file::<FixedLenByteArrayType>(field, &values, None)
}

#[test]
fn wide_file_decimals_are_checked_per_value() {
    // DECIMAL(38, 10) is more than rust_decimal holds, but values that fit are read.
    let file = wide_decimal_file(10, &[-1, 99_999_999_999_999_999_999_999_999_990, 0]);
    let e = read_error::<Decimal>("v", DEFAULT, &file);
    assert_error(&e, "value", "v", &["record 1", "more digits than rust_decimal::Decimal holds"]);
    let e = read_error::<Decimal>("v", dec(28, 10), &file);
    assert_error(&e, "value", "v", &["record 1", "9999999999999999999.9999999990", "does not fit DECIMAL(28, 10)"]);
    let file = wide_decimal_file(10, &[-1, 12_345_000_000_000, 0]);
    let back = read_file::<Decimal>("v", dec(28, 10), &file).expect("fits");
    assert_eq!(
        back.iter().map(|v| v.to_string()).collect::<Vec<_>>(),
        ["-0.0000000001", "1234.5000000000", "0.0000000000"]
    );
    let back = read_file::<Decimal>("v", dec(6, 1), &wide_decimal_file(10, &[12_345_000_000_000])).expect("scale down");
    assert_eq!(back[0].to_string(), "1234.5");
    // Without a spec, the value itself must fit rust_decimal's 96 bits.
    let file = wide_decimal_file(0, &[i128::from(u64::MAX), 1 << 100]);
    let e = read_error::<Decimal>("v", DEFAULT, &file);
    assert_error(&e, "value", "v", &["record 1", "1267650600228229401496703205376", "rust_decimal::Decimal"]);
    // A scale beyond 28 needs a declared spec.
    let e = read_error::<Decimal>("v", DEFAULT, &wide_decimal_file(30, &[1]));
    assert_error(&e, "resolve", "v", &["DECIMAL(38, 30)", "BigDecimal"]);
    let back = read_file::<Decimal>("v", dec(10, 2), &wide_decimal_file(30, &[5 * 10i128.pow(29)])).expect("exact");
    assert_eq!(back[0].to_string(), "0.50");
}

#[test]
fn legacy_and_foreign_decimal_columns_are_read() {
    // Converted type only, precision and scale in the schema element.
    let field = leaf("v", Physical::INT64)
        .with_converted_type(ConvertedType::DECIMAL)
        .with_precision(10)
        .with_scale(3)
        .build()
        .expect("type");
    let file = low_level_file::<Int64Type>(field, &[-1_500, 9_999_999_999], None);
    let reader = SerializedFileReader::new(file.clone()).expect("reader");
    assert_eq!(reader.metadata().file_metadata().schema_descr().column(0).logical_type_ref(), None);
    let back = read_file::<Decimal>("v", dec(10, 3), &file).expect("legacy");
    assert_eq!(back.iter().map(|v| v.to_string()).collect::<Vec<_>>(), ["-1.500", "9999999.999"]);

    // BYTE_ARRAY with redundant sign bytes (longer than 16) and minimal ones.
    let field = leaf("v", Physical::BYTE_ARRAY)
        .with_logical_type(Some(LogicalType::decimal(2, 30)))
        .with_precision(30)
        .with_scale(2)
        .build()
        .expect("type");
    let mut long_negative = vec![0xff; 20];
    long_negative[19] = 0x9c; // -100
    let values: Vec<ByteArray> =
        [long_negative, vec![0x00; 18], vec![0x01, 0x00]].into_iter().map(ByteArray::from).collect();
    let file = low_level_file::<ByteArrayType>(field.clone(), &values, None);
    let back = read_file::<Decimal>("v", dec(5, 2), &file).expect("binary");
    assert_eq!(back.iter().map(|v| v.to_string()).collect::<Vec<_>>(), ["-1.00", "0.00", "2.56"]);
    // An empty value is not a number.
    let file =
        low_level_file::<ByteArrayType>(field, &[ByteArray::from(vec![1u8]), ByteArray::from(Vec::<u8>::new())], None);
    assert_error(&read_error::<Decimal>("v", dec(5, 2), &file), "value", "v", &["record 1", "empty DECIMAL value"]);
}

// ---------------------------------------------------------------------------
// bigdecimal::BigDecimal (more in the unit tests of its module).

#[test]
fn spark_decimal_38_10_round_trips_as_big_decimal() {
    let opts = dec(38, 10);
    let values: Vec<BigDecimal> = [
        "9999999999999999999999999999.9999999999",
        "-9999999999999999999999999999.9999999999",
        "0",
        "-0.0000000001",
        "1E+5",
    ]
    .map(big)
    .to_vec();
    round_trip("amount", opts, &values);
    let file = write_file("amount", opts, &values).expect("write");
    assert_eq!(column_text(&file), "REQUIRED FIXED_LEN_BYTE_ARRAY (16) amount (DECIMAL(38,10));");
    // The unscaled value of -0.0000000001 is -1: sixteen 0xff bytes.
    assert_eq!(raw_bytes(&file)[3], [0xff; 16]);
    let back = read_file::<BigDecimal>("amount", opts, &file).expect("read");
    assert_eq!(back[4].to_string(), "100000.0000000000");
    // The same file read by rust_decimal: values within 28 digits only.
    let small = write_file("amount", opts, &[big("1234.5"), big("-0.0000000001")]).expect("write");
    let back = read_file::<Decimal>("amount", dec(28, 10), &small).expect("read as rust_decimal");
    assert_eq!(back, [d("1234.5"), d("-0.0000000001")]);
    let e = read_error::<Decimal>("amount", dec(28, 10), &file);
    assert_error(&e, "value", "amount", &["record 0", "does not fit DECIMAL(28, 10)"]);
    let e = write_error("amount", opts, big("0.00000000001"));
    assert_error(&e, "value", "amount", &["more than 10 fraction digits"]);
    let e = match one::<BigDecimal>("amount", dec(38, 10).decimal_physical(DecimalPhysical::Int64)).schema() {
        Ok(_) => panic!("INT64 cannot hold 38 digits"),
        Err(e) => e,
    };
    assert_error(&e, "schema", "amount", &["INT64 holds at most 18 digits"]);
}
