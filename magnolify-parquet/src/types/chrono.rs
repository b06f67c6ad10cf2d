//! chrono dates, times and timestamps (feature `chrono`):
//!
//! | Rust | Parquet written |
//! |---|---|
//! | `NaiveDate` | `INT32 (DATE)`: days since 1970-01-01 |
//! | `NaiveTime` | `TIME(false, unit)`: `INT32` for millis, `INT64` for micros and nanos |
//! | `NaiveDateTime` | `INT64 (TIMESTAMP(false, unit))`: local wall-clock time |
//! | `DateTime<Utc>` | `INT64 (TIMESTAMP(true, unit))`: an instant |
//!
//! The unit is the field's `#[parquet(timestamp = "millis" | "micros" | "nanos")]`,
//! micros by default.
//!
//! * **Writing** truncates digits finer than the unit toward the past (the
//!   floor: 12:00:00.123456789 is written as 12:00:00.123456 in micros, and
//!   a value before 1970 goes down too, so a written value is never later
//!   than the original), so that `Utc::now()`, which carries nanoseconds,
//!   writes with the defaults. `#[parquet(timestamp = "micros", exact)]`
//!   makes finer digits an error naming the column instead. Whatever the
//!   setting, a nanosecond timestamp outside about 1677-09-21 to 2262-04-11
//!   never wraps, and leap seconds (which Parquet's 86 400-second days
//!   cannot express) are refused.
//! * **Reading** accepts TIME and TIMESTAMP columns of any unit, the legacy
//!   `TIME_*`/`TIMESTAMP_*`/`DATE` converted types, and INT96 timestamps
//!   (Impala, Spark). A coarser file unit is widened to the field's unit by
//!   checked multiplication; a finer one is refused when the file is opened,
//!   since its values could carry digits the field's unit does not hold.
//!   INT96 carries no unit: its value is read exactly, to the nanosecond.
//! * `DateTime<Utc>` reads instants only (`isAdjustedToUTC = true`, or a
//!   legacy converted type, which the format says is UTC); a local timestamp
//!   is refused, read it into `NaiveDateTime`, which reads both.

use chrono::{DateTime, NaiveDate, NaiveDateTime, NaiveTime, Timelike, Utc};
use parquet::basic::{LogicalType, Repetition, Type as PhysicalType};
use parquet::data_type::Int96;
use parquet::schema::types::Type;

use super::{civil, not_repeated, LeafPlan, ListElement};
use crate::assemble::{FileNode, RecordSource, Resolver};
use crate::error::Result;
use crate::field::{Accepts, ParquetRead, ParquetSchema, ParquetWrite};
use crate::logical::Annotation;
use crate::options::{FieldOptions, TimeUnit};
use crate::schema;
use crate::shred::{ColumnSink, WriteAt};

const NANOS_PER_SECOND: i64 = 1_000_000_000;
const SECONDS_PER_DAY: i64 = 86_400;
/// Julian day number of 1970-01-01, the epoch of INT96 timestamps.
const JULIAN_DAY_OF_EPOCH: i64 = 2_440_588;

/// Nanoseconds in one `unit`.
const fn unit_nanos(unit: TimeUnit) -> i64 {
    NANOS_PER_SECOND / unit.per_second()
}

/// The unit's name as the format spells it.
const fn unit_name(unit: TimeUnit) -> &'static str {
    match unit {
        TimeUnit::Millis => "MILLIS",
        TimeUnit::Micros => "MICROS",
        TimeUnit::Nanos => "NANOS",
    }
}

/// The attribute value that selects `unit`.
const fn unit_attr(unit: TimeUnit) -> &'static str {
    match unit {
        TimeUnit::Millis => "millis",
        TimeUnit::Micros => "micros",
        TimeUnit::Nanos => "nanos",
    }
}

/// A file unit read into a field of unit `field`: the factor that widens
/// file values, or an error when the file's unit is finer than the field's.
fn widening(node: &FileNode<'_>, file: TimeUnit, field: TimeUnit) -> Result<i64> {
    if file > field {
        return Err(node.error(format!(
            "the file holds {} values ({}), finer than the field's unit {}: reading them would drop digits; \
             declare #[parquet(timestamp = \"{}\")]",
            unit_name(file),
            node.describe(),
            unit_name(field),
            unit_attr(file)
        )));
    }
    Ok(field.per_second() / file.per_second())
}

/// Seconds (floored) and nanoseconds past them since a reference as a
/// count of the field's units, finer digits dropped unless the field is
/// `exact`: the error says why the value has no form in that unit.
fn to_units(secs: i64, nanos: u32, opts: &FieldOptions, what: &str) -> Result<i64, String> {
    let (unit, nanos) = (opts.unit(), i64::from(nanos));
    if nanos >= NANOS_PER_SECOND {
        return Err("is in a leap second, which Parquet (86 400 seconds a day) cannot store".to_owned());
    }
    let step = unit_nanos(unit);
    if opts.exact_time && nanos % step != 0 {
        return Err(format!(
            "has digits finer than {what}({}) can hold ({nanos} ns past the second), and the field is exact; \
             declare #[parquet(timestamp = \"nanos\")], or drop `exact` to truncate them",
            unit_name(unit)
        ));
    }
    // `nanos / step` floors: `secs` is floored and `nanos` counts forward
    // from it, so truncation goes toward the past before 1970 as after.
    // i128: the product alone can leave i64 where the sum does not (i64::MIN nanos).
    let units = i128::from(secs) * i128::from(unit.per_second()) + i128::from(nanos / step);
    i64::try_from(units).map_err(|_| {
        format!(
            "is outside the range of {what}({}): nanosecond timestamps span 1677-09-21 to 2262-04-11; \
             declare a coarser unit",
            unit_name(unit)
        )
    })
}

/// A count of `unit`s since the epoch as an instant, if chrono can hold it.
///
/// One arm per unit, so that each divides by a constant (a run-time divisor
/// showed in read profiles); the date comes from [`civil`], which remembers
/// the last day.
#[inline(always)]
fn from_units(units: i64, unit: TimeUnit) -> Option<DateTime<Utc>> {
    match unit {
        TimeUnit::Millis => civil::datetime::<1_000>(units),
        TimeUnit::Micros => civil::datetime::<1_000_000>(units),
        TimeUnit::Nanos => civil::datetime::<1_000_000_000>(units),
    }
    .map(|t| t.and_utc())
}

/// The Julian day and the nanoseconds of the day of an INT96 value: 8 bytes
/// little-endian nanoseconds, then 4 bytes little-endian day (parquet gives
/// them as `[nanos low, nanos high, day]`).
fn int96_parts(v: &Int96) -> Option<(i32, i64)> {
    let &[lo, hi, day] = v.data() else { return None };
    let nanos_of_day = i64::from_le_bytes(((u64::from(hi) << 32) | u64::from(lo)).to_le_bytes());
    Some((i32::from_le_bytes(day.to_le_bytes()), nanos_of_day))
}

/// An INT96 value as an instant, exactly: i128 holds any INT96, so nothing
/// wraps (Spark's wrapping only differs for values chrono cannot hold anyway).
fn int96_instant(v: &Int96) -> Result<DateTime<Utc>, String> {
    let (day, nanos_of_day) = int96_parts(v).ok_or_else(|| format!("malformed INT96 value {:?}", v.data()))?;
    let nanos = (i128::from(day) - i128::from(JULIAN_DAY_OF_EPOCH)) * i128::from(SECONDS_PER_DAY * NANOS_PER_SECOND)
        + i128::from(nanos_of_day);
    let secs = i64::try_from(nanos.div_euclid(i128::from(NANOS_PER_SECOND))).ok();
    let sub = u32::try_from(nanos.rem_euclid(i128::from(NANOS_PER_SECOND))).ok();
    secs.zip(sub).and_then(|(secs, sub)| DateTime::from_timestamp(secs, sub)).ok_or_else(|| {
        format!("INT96 timestamp (Julian day {day}, {nanos_of_day} ns into the day) is out of chrono's range")
    })
}

/// Where the values of a timestamp column come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimestampSource {
    /// INT64 in a file unit; multiplying by `factor` gives the field's unit.
    Int64 {
        /// The file's unit.
        file: TimeUnit,
        /// Field units per file unit (1, 1000 or 1 000 000).
        factor: i64,
    },
    /// INT96 (Impala/Spark), exact to the nanosecond whatever the field's unit.
    Int96,
}

/// How to read a timestamp column into a field of unit `unit`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimestampConv {
    /// The column's values.
    pub source: TimestampSource,
    /// The field's unit.
    pub unit: TimeUnit,
}

/// Checks that `node` is a timestamp a field of unit `unit` can read;
/// `instant` refuses local (`isAdjustedToUTC = false`) timestamps.
fn resolve_timestamp(
    node: &FileNode<'_>,
    opts: &FieldOptions,
    resolver: &mut Resolver<'_>,
    what: &str,
    instant: bool,
) -> Result<LeafPlan<TimestampConv>> {
    not_repeated(node, what)?;
    let (cursor, descr) = resolver.leaf(node)?;
    let unit = opts.unit();
    let physical = descr.physical_type();
    // A legacy annotation alone means UTC, as the format says (the one view
    // of annotations reads it so).
    let file_unit = match (Annotation::of(node.ty()), physical) {
        (Annotation::Timestamp { unit, utc }, PhysicalType::INT64) => {
            if instant && !utc {
                return Err(node.mismatch(
                    "`DateTime<Utc>` reads instants (isAdjustedToUTC = true), not local timestamps with no time zone",
                ));
            }
            Some(unit)
        }
        (Annotation::None, PhysicalType::INT96) => None,
        _ => return Err(node.mismatch("a timestamp type reads TIMESTAMP or INT96 columns")),
    };
    let source = match file_unit {
        Some(file) => TimestampSource::Int64 { file, factor: widening(node, file, unit)? },
        None => TimestampSource::Int96,
    };
    Ok(LeafPlan { cursor, conv: TimestampConv { source, unit } })
}

/// Reads one timestamp as an instant (local timestamps as if at UTC).
/// Inlined whole into the record's read: out of line, `perf annotate`
/// showed its result going back through the stack as two 4-byte halves
/// read as one 8-byte word (a store-forwarding stall per value); inlined,
/// the owned flat read measured 1 to 5 % faster (docs/benchmarks.md).
#[inline(always)]
fn read_timestamp(plan: &LeafPlan<TimestampConv>, src: &mut RecordSource) -> Result<DateTime<Utc>> {
    let c = plan.cursor;
    let unit = plan.conv.unit;
    // The value is returned straight from the fast path and each error
    // built out of line: an `Option<Result<_, String>>` in between was a
    // stack round trip per value (8 % of a flat read).
    match plan.conv.source {
        TimestampSource::Int64 { file, factor } => {
            let Some(v) = src.take_i64(c)? else { return Err(src.null_error(c)) };
            match v.checked_mul(factor).and_then(|units| from_units(units, unit)) {
                Some(t) => Ok(t),
                None => Err(src.value_error(c, int64_timestamp_error(v, file, factor, unit))),
            }
        }
        TimestampSource::Int96 => match src.take_i96(c)? {
            Some(v) => int96_instant(&v).map_err(|e| src.value_error(c, e)),
            None => Err(src.null_error(c)),
        },
    }
}

/// Why `v` counts of `file` units is no instant in `unit`s.
#[cold]
#[inline(never)]
fn int64_timestamp_error(v: i64, file: TimeUnit, factor: i64, unit: TimeUnit) -> String {
    match v.checked_mul(factor) {
        None => format!(
            "{v} {} since the epoch overflows a 64-bit count of {}, the field's unit",
            unit_name(file),
            unit_name(unit)
        ),
        Some(units) => format!("{units} {} since the epoch is out of chrono's range", unit_name(unit)),
    }
}

/// Writes an instant as a count of the field's units.
#[inline]
fn write_timestamp(
    value: &DateTime<Utc>,
    shown: &dyn std::fmt::Display,
    sink: &mut ColumnSink,
    at: WriteAt,
    opts: &FieldOptions,
) -> Result<()> {
    match to_units(value.timestamp(), value.timestamp_subsec_nanos(), opts, "TIMESTAMP") {
        Ok(units) => sink.push_i64(at, units),
        Err(e) => Err(sink.value_error(at.leaf(), format!("timestamp {shown} {e}"))),
    }
}

/// `NaiveDateTime`: a local (wall-clock) timestamp, `TIMESTAMP(false, unit)`,
/// the unit set by `#[parquet(timestamp = "millis" | "micros" | "nanos")]`
/// (micros by default).
///
/// Writing truncates digits finer than the unit toward the past (an error
/// instead with `#[parquet(exact)]`); a leap second, or (in nanos) a date
/// outside 1677-09-21..2262-04-11, is an error naming the column: values
/// never wrap. Reading
/// accepts TIMESTAMP columns of either UTC flag, the legacy
/// `TIMESTAMP_MILLIS`/`TIMESTAMP_MICROS`, and INT96 (read to the nanosecond
/// whatever the unit); a file unit finer than the field's is refused when
/// the file is opened, a coarser one is widened with overflow checks.
///
/// ```
/// use chrono::NaiveDateTime;
/// use magnolify_parquet::{FieldOptions, ParquetSchema, TimeUnit, schema};
/// use parquet::basic::Repetition;
///
/// let opts = FieldOptions::new().timestamp(TimeUnit::Millis);
/// let node = NaiveDateTime::schema("at", Repetition::REQUIRED, &opts).unwrap();
/// assert_eq!(schema::to_text(&node).trim(), "REQUIRED INT64 at (TIMESTAMP(MILLIS,false));");
/// ```
impl ParquetSchema for NaiveDateTime {
    const LEAVES: usize = 1;
    type ReadPlan = LeafPlan<TimestampConv>;
    const ACCEPTS: Accepts = Accepts::TIMESTAMP;

    fn schema(name: &str, repetition: Repetition, opts: &FieldOptions) -> Result<Type> {
        timestamp_schema(name, repetition, opts, false)
    }
}

impl ParquetWrite for NaiveDateTime {
    #[inline]
    fn write(&self, sink: &mut ColumnSink, at: WriteAt, opts: &FieldOptions) -> Result<()> {
        write_timestamp(&self.and_utc(), self, sink, at, opts)
    }
}

impl<'de> ParquetRead<'de> for NaiveDateTime {
    fn resolve(node: &FileNode<'_>, opts: &FieldOptions, resolver: &mut Resolver<'_>) -> Result<Self::ReadPlan> {
        resolve_timestamp(node, opts, resolver, "a NaiveDateTime", false)
    }

    #[inline(always)]
    fn read(plan: &Self::ReadPlan, src: &mut RecordSource<'de>) -> Result<Self> {
        read_timestamp(plan, src).map(|v| v.naive_utc())
    }
}

/// `DateTime<Utc>`: an instant, `TIMESTAMP(true, unit)`, with the same
/// units and truncation rules as `NaiveDateTime`. Reads instants only
/// (`isAdjustedToUTC = true`, the legacy converted types, which mean UTC,
/// and INT96); a local timestamp is refused: read it into `NaiveDateTime`.
///
/// ```
/// use chrono::{DateTime, Utc};
/// use magnolify_parquet::{FieldOptions, ParquetSchema, schema};
/// use parquet::basic::Repetition;
///
/// let node = DateTime::<Utc>::schema("at", Repetition::OPTIONAL, &FieldOptions::DEFAULT).unwrap();
/// assert_eq!(schema::to_text(&node).trim(), "OPTIONAL INT64 at (TIMESTAMP(MICROS,true));");
/// ```
impl ParquetSchema for DateTime<Utc> {
    const LEAVES: usize = 1;
    type ReadPlan = LeafPlan<TimestampConv>;
    const ACCEPTS: Accepts = Accepts::TIMESTAMP;

    fn schema(name: &str, repetition: Repetition, opts: &FieldOptions) -> Result<Type> {
        timestamp_schema(name, repetition, opts, true)
    }
}

impl ParquetWrite for DateTime<Utc> {
    #[inline]
    fn write(&self, sink: &mut ColumnSink, at: WriteAt, opts: &FieldOptions) -> Result<()> {
        write_timestamp(self, self, sink, at, opts)
    }
}

impl<'de> ParquetRead<'de> for DateTime<Utc> {
    fn resolve(node: &FileNode<'_>, opts: &FieldOptions, resolver: &mut Resolver<'_>) -> Result<Self::ReadPlan> {
        resolve_timestamp(node, opts, resolver, "a DateTime<Utc>", true)
    }

    #[inline(always)]
    fn read(plan: &Self::ReadPlan, src: &mut RecordSource<'de>) -> Result<Self> {
        read_timestamp(plan, src)
    }
}

/// An INT64 TIMESTAMP leaf in the field's unit, an instant when `utc`.
fn timestamp_schema(name: &str, repetition: Repetition, opts: &FieldOptions, utc: bool) -> Result<Type> {
    let logical = LogicalType::timestamp(utc, opts.unit().to_parquet());
    schema::primitive(name, repetition, PhysicalType::INT64, Some(logical))
}

/// How to read a TIME column: INT32 or INT64 values times `factor` are
/// counts of the field's `unit`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeConv {
    /// The column is INT32 (millis), else INT64.
    pub int32: bool,
    /// Field units per file unit.
    pub factor: i64,
    /// The field's unit.
    pub unit: TimeUnit,
}

/// `NaiveTime`: the time of day, `TIME(false, unit)`: INT32 for millis,
/// INT64 for micros (the default) and nanos. Digits finer than the unit are
/// truncated on write (refused with `#[parquet(exact)]`) and leap seconds
/// refused, as for timestamps. Reads TIME columns
/// of either UTC flag (a time of day has no date to shift) and the legacy
/// `TIME_MILLIS`/`TIME_MICROS`, widening coarser units exactly.
impl ParquetSchema for NaiveTime {
    const LEAVES: usize = 1;
    type ReadPlan = LeafPlan<TimeConv>;
    const ACCEPTS: Accepts = Accepts::TIMESTAMP;

    fn schema(name: &str, repetition: Repetition, opts: &FieldOptions) -> Result<Type> {
        let unit = opts.unit();
        let physical = if unit == TimeUnit::Millis { PhysicalType::INT32 } else { PhysicalType::INT64 };
        schema::primitive(name, repetition, physical, Some(LogicalType::time(false, unit.to_parquet())))
    }
}

impl ParquetWrite for NaiveTime {
    #[inline]
    fn write(&self, sink: &mut ColumnSink, at: WriteAt, opts: &FieldOptions) -> Result<()> {
        let unit = opts.unit();
        let units = match to_units(i64::from(self.num_seconds_from_midnight()), self.nanosecond(), opts, "TIME") {
            Ok(units) => units,
            Err(e) => return Err(sink.value_error(at.leaf(), format!("time {self} {e}"))),
        };
        if unit == TimeUnit::Millis {
            // A day has 86 400 000 ms: always an i32.
            let millis =
                i32::try_from(units).map_err(|_| sink.value_error(at.leaf(), format!("time {self} exceeds a day")))?;
            sink.push_i32(at, millis)
        } else {
            sink.push_i64(at, units)
        }
    }
}

impl<'de> ParquetRead<'de> for NaiveTime {
    fn resolve(node: &FileNode<'_>, opts: &FieldOptions, resolver: &mut Resolver<'_>) -> Result<Self::ReadPlan> {
        not_repeated(node, "a NaiveTime")?;
        let (cursor, descr) = resolver.leaf(node)?;
        let physical = descr.physical_type();
        let file_unit = match Annotation::of(node.ty()) {
            Annotation::Time { unit, .. } => Some(unit),
            _ => None,
        };
        let (int32, file_unit) = match (file_unit, physical) {
            (Some(TimeUnit::Millis), PhysicalType::INT32) => (true, TimeUnit::Millis),
            (Some(u @ (TimeUnit::Micros | TimeUnit::Nanos)), PhysicalType::INT64) => (false, u),
            _ => return Err(node.mismatch("`NaiveTime` reads TIME columns")),
        };
        let unit = opts.unit();
        let factor = widening(node, file_unit, unit)?;
        Ok(LeafPlan { cursor, conv: TimeConv { int32, factor, unit } })
    }

    #[inline]
    fn read(plan: &Self::ReadPlan, src: &mut RecordSource<'de>) -> Result<Self> {
        let c = plan.cursor;
        let TimeConv { int32, factor, unit } = plan.conv;
        let raw = if int32 { src.take_i32(c)?.map(i64::from) } else { src.take_i64(c)? };
        let Some(raw) = raw else { return Err(src.null_error(c)) };
        let per = unit.per_second();
        let time =
            raw.checked_mul(factor).filter(|units| (0..SECONDS_PER_DAY * per).contains(units)).and_then(|units| {
                let secs = u32::try_from(units / per).ok()?;
                let nanos = u32::try_from(units % per * unit_nanos(unit)).ok()?;
                NaiveTime::from_num_seconds_from_midnight_opt(secs, nanos)
            });
        time.ok_or_else(|| src.value_error(c, format!("{raw} is not a time of day (field unit {})", unit_name(unit))))
    }
}

/// `NaiveDate`: `INT32 (DATE)`, days since 1970-01-01 (negative before);
/// reads DATE columns and the legacy `DATE` converted type.
impl ParquetSchema for NaiveDate {
    const LEAVES: usize = 1;
    type ReadPlan = LeafPlan<()>;

    fn schema(name: &str, repetition: Repetition, _opts: &FieldOptions) -> Result<Type> {
        schema::primitive(name, repetition, PhysicalType::INT32, Some(LogicalType::Date))
    }
}

impl ParquetWrite for NaiveDate {
    #[inline]
    fn write(&self, sink: &mut ColumnSink, at: WriteAt, _opts: &FieldOptions) -> Result<()> {
        // chrono's whole range (±262 143 years) is well inside i32 days.
        sink.push_i32(at, self.to_epoch_days())
    }
}

impl<'de> ParquetRead<'de> for NaiveDate {
    fn resolve(node: &FileNode<'_>, _opts: &FieldOptions, resolver: &mut Resolver<'_>) -> Result<Self::ReadPlan> {
        not_repeated(node, "a NaiveDate")?;
        let (cursor, descr) = resolver.leaf(node)?;
        let date = Annotation::of(node.ty()) == Annotation::Date;
        if !date || descr.physical_type() != PhysicalType::INT32 {
            return Err(node.mismatch("`NaiveDate` reads DATE columns"));
        }
        Ok(LeafPlan { cursor, conv: () })
    }

    #[inline]
    fn read(plan: &Self::ReadPlan, src: &mut RecordSource<'de>) -> Result<Self> {
        let c = plan.cursor;
        let days = src.take_i32(c)?.ok_or_else(|| src.null_error(c))?;
        civil::date(i64::from(days))
            .ok_or_else(|| src.value_error(c, format!("{days} days since 1970-01-01 is out of chrono's range")))
    }
}

impl ListElement for NaiveDate {}
impl ListElement for NaiveTime {}
impl ListElement for NaiveDateTime {}
impl ListElement for DateTime<Utc> {}
