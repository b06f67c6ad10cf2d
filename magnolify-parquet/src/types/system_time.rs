//! `std::time::SystemTime` (feature `chrono`): an instant, stored as
//! `DateTime<Utc>` is (TIMESTAMP(unit, true), micros unless the field's
//! `timestamp` attribute says otherwise), through chrono's exact
//! conversions, so that both follow one set of rules.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use chrono::{DateTime, Utc};
use parquet::basic::Repetition;
use parquet::schema::types::Type;

use super::ListElement;
use crate::assemble::{FileNode, RecordSource, Resolver};
use crate::error::Result;
use crate::field::{Accepts, ParquetRead, ParquetSchema, ParquetWrite};
use crate::options::FieldOptions;
use crate::shred::{ColumnSink, WriteAt};

impl ParquetSchema for SystemTime {
    const LEAVES: usize = 1;
    type ReadPlan = <DateTime<Utc> as ParquetSchema>::ReadPlan;
    const ACCEPTS: Accepts = Accepts::TIMESTAMP;

    fn schema(name: &str, repetition: Repetition, opts: &FieldOptions) -> Result<Type> {
        DateTime::<Utc>::schema(name, repetition, opts)
    }
}

impl ParquetWrite for SystemTime {
    #[inline]
    fn write(&self, sink: &mut ColumnSink, at: WriteAt, opts: &FieldOptions) -> Result<()> {
        // chrono's conversion panics beyond its ±262,000 years; none of
        // those fits a nanosecond or microsecond column, and checking
        // first keeps every input from panicking.
        let utc = checked_utc(*self)
            .ok_or_else(|| sink.value_error(at.leaf(), format!("{self:?} is beyond the years a TIMESTAMP holds")))?;
        utc.write(sink, at, opts)
    }
}

impl<'de> ParquetRead<'de> for SystemTime {
    fn resolve(node: &FileNode<'_>, opts: &FieldOptions, resolver: &mut Resolver<'_>) -> Result<Self::ReadPlan> {
        DateTime::<Utc>::resolve(node, opts, resolver)
    }

    #[inline]
    fn read(plan: &Self::ReadPlan, src: &mut RecordSource<'de>) -> Result<Self> {
        let utc = DateTime::<Utc>::read(plan, src)?;
        from_utc(&utc).ok_or_else(|| {
            src.value_error(plan.cursor, format!("{utc} is outside the instants a SystemTime holds on this platform"))
        })
    }
}

/// The instant as a `SystemTime`, when the platform's holds it (chrono's
/// own conversion panics where it does not: before 1601 on Windows).
fn from_utc(utc: &DateTime<Utc>) -> Option<SystemTime> {
    let (secs, nanos) = (utc.timestamp(), utc.timestamp_subsec_nanos());
    let whole = Duration::from_secs(secs.unsigned_abs());
    let second = if secs >= 0 { UNIX_EPOCH.checked_add(whole) } else { UNIX_EPOCH.checked_sub(whole) };
    // `nanos` may pass 1e9 in a leap second: the duration carries it.
    second?.checked_add(Duration::from_nanos(u64::from(nanos)))
}

impl ListElement for SystemTime {}

/// The instant as a `DateTime<Utc>`, when chrono's years hold it.
fn checked_utc(time: SystemTime) -> Option<DateTime<Utc>> {
    let (secs, nanos) = epoch_parts(time)?;
    DateTime::from_timestamp(secs, nanos)
}

/// Seconds since the epoch (rounded down) and nanoseconds past them
/// (0..1e9), when an i64 holds the seconds.
pub(crate) fn epoch_parts(time: SystemTime) -> Option<(i64, u32)> {
    Some(match time.duration_since(UNIX_EPOCH) {
        Ok(after) => (i64::try_from(after.as_secs()).ok()?, after.subsec_nanos()),
        Err(before) => {
            let before = before.duration();
            let secs = i64::try_from(before.as_secs()).ok()?;
            match before.subsec_nanos() {
                0 => (secs.checked_neg()?, 0),
                n => (secs.checked_neg()?.checked_sub(1)?, 1_000_000_000 - n),
            }
        }
    })
}
