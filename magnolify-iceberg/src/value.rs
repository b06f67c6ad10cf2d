//! Field values as Iceberg [`Datum`]s, and which transforms each type
//! allows.

use chrono::{DateTime, NaiveDate, NaiveDateTime, NaiveTime, Timelike, Utc};
use iceberg::spec::{Datum, PrimitiveType};

mod sealed {
    pub trait Sealed {}
}

/// A field type whose values can be a partition's source: its value as a
/// [`Datum`] of the column's Iceberg type.
#[diagnostic::on_unimplemented(
    message = "a table cannot be partitioned by a `{Self}` field",
    label = "not a partition source",
    note = "partition sources are integers, booleans, floats, strings, bytes, dates, times and timestamps"
)]
pub trait IcebergValue: sealed::Sealed + 'static {
    /// The value as a Datum of `ty` (the table column's type), `None` if
    /// the value has no form in that type.
    #[doc(hidden)]
    fn datum(&self, ty: &PrimitiveType) -> Option<Datum>;
}

/// Types Iceberg's `bucket[N]` hashes: integers, dates, times,
/// timestamps, strings and bytes.
#[diagnostic::on_unimplemented(
    message = "Iceberg's bucket transform does not take a `{Self}`",
    label = "not an integer, date, time, timestamp, string or bytes"
)]
pub trait Bucketable: IcebergValue {}
/// Types Iceberg's `truncate[W]` cuts: integers, strings and bytes.
#[diagnostic::on_unimplemented(
    message = "Iceberg's truncate transform does not take a `{Self}`",
    label = "not an integer, string or bytes"
)]
pub trait Truncatable: IcebergValue {}
/// Dates and timestamps: `year`, `month`, `day`.
#[diagnostic::on_unimplemented(
    message = "Iceberg's year, month and day transforms do not take a `{Self}`",
    label = "not a date or timestamp"
)]
pub trait Temporal: IcebergValue {}
/// Timestamps: `hour` too.
#[diagnostic::on_unimplemented(
    message = "Iceberg's hour transform does not take a `{Self}`",
    label = "not a timestamp"
)]
pub trait Hourly: Temporal {}

macro_rules! small_int {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl IcebergValue for $t {
            fn datum(&self, ty: &PrimitiveType) -> Option<Datum> {
                match ty {
                    PrimitiveType::Int => Some(Datum::int(i32::from(*self))),
                    PrimitiveType::Long => Some(Datum::long(i64::from(*self))),
                    _ => None,
                }
            }
        }
        impl Bucketable for $t {}
        impl Truncatable for $t {}
    )*};
}
small_int!(i8, i16, i32, u8, u16);

impl sealed::Sealed for i64 {}
impl IcebergValue for i64 {
    fn datum(&self, ty: &PrimitiveType) -> Option<Datum> {
        matches!(ty, PrimitiveType::Long).then(|| Datum::long(*self))
    }
}
impl Bucketable for i64 {}
impl Truncatable for i64 {}

impl sealed::Sealed for bool {}
impl IcebergValue for bool {
    fn datum(&self, ty: &PrimitiveType) -> Option<Datum> {
        matches!(ty, PrimitiveType::Boolean).then(|| Datum::bool(*self))
    }
}

impl sealed::Sealed for f32 {}
impl IcebergValue for f32 {
    fn datum(&self, ty: &PrimitiveType) -> Option<Datum> {
        matches!(ty, PrimitiveType::Float).then(|| Datum::float(*self))
    }
}

impl sealed::Sealed for f64 {}
impl IcebergValue for f64 {
    fn datum(&self, ty: &PrimitiveType) -> Option<Datum> {
        matches!(ty, PrimitiveType::Double).then(|| Datum::double(*self))
    }
}

impl sealed::Sealed for String {}
impl IcebergValue for String {
    fn datum(&self, ty: &PrimitiveType) -> Option<Datum> {
        matches!(ty, PrimitiveType::String).then(|| Datum::string(self))
    }
}
impl Bucketable for String {}
impl Truncatable for String {}

impl sealed::Sealed for Vec<u8> {}
impl IcebergValue for Vec<u8> {
    fn datum(&self, ty: &PrimitiveType) -> Option<Datum> {
        match ty {
            PrimitiveType::Binary => Some(Datum::binary(self.iter().copied())),
            PrimitiveType::Fixed(n) if *n == self.len() as u64 => Some(Datum::fixed(self.iter().copied())),
            _ => None,
        }
    }
}
impl Bucketable for Vec<u8> {}
impl Truncatable for Vec<u8> {}

impl sealed::Sealed for NaiveDate {}
impl IcebergValue for NaiveDate {
    fn datum(&self, ty: &PrimitiveType) -> Option<Datum> {
        // As the writer writes it: chrono's range is well inside i32 days.
        matches!(ty, PrimitiveType::Date).then(|| Datum::date(self.to_epoch_days()))
    }
}
impl Bucketable for NaiveDate {}
impl Temporal for NaiveDate {}

impl sealed::Sealed for NaiveTime {}
impl IcebergValue for NaiveTime {
    fn datum(&self, ty: &PrimitiveType) -> Option<Datum> {
        let micros = i64::from(self.num_seconds_from_midnight()) * 1_000_000 + i64::from(self.nanosecond() / 1_000);
        matches!(ty, PrimitiveType::Time).then(|| Datum::time_micros(micros).ok()).flatten()
    }
}
impl Bucketable for NaiveTime {}

impl sealed::Sealed for NaiveDateTime {}
impl IcebergValue for NaiveDateTime {
    fn datum(&self, ty: &PrimitiveType) -> Option<Datum> {
        let utc = self.and_utc();
        match ty {
            PrimitiveType::Timestamp => Some(Datum::timestamp_micros(utc.timestamp_micros())),
            PrimitiveType::TimestampNs => utc.timestamp_nanos_opt().map(Datum::timestamp_nanos),
            _ => None,
        }
    }
}
impl Bucketable for NaiveDateTime {}
impl Temporal for NaiveDateTime {}
impl Hourly for NaiveDateTime {}

impl sealed::Sealed for DateTime<Utc> {}
impl IcebergValue for DateTime<Utc> {
    fn datum(&self, ty: &PrimitiveType) -> Option<Datum> {
        match ty {
            PrimitiveType::Timestamptz => Some(Datum::timestamptz_micros(self.timestamp_micros())),
            PrimitiveType::TimestamptzNs => self.timestamp_nanos_opt().map(Datum::timestamptz_nanos),
            _ => None,
        }
    }
}
impl Bucketable for DateTime<Utc> {}
impl Temporal for DateTime<Utc> {}
impl Hourly for DateTime<Utc> {}
