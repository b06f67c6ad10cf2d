//! Counts since the epoch as chrono dates and times, with the last day's
//! date remembered per thread.
//!
//! chrono turns a day count into a date through its 400-year cycle table and
//! the year's flags: 15 % of the flat bench's read went there (and into the
//! division of the count into days). The dates of a column come in runs
//! (log lines of one day, sorted keys, the rows of one partition), so each
//! thread keeps the last day count it converted and its date: a run costs
//! one comparison per value after its first. The result is chrono's own
//! for every count (the cache remembers what chrono said); the tests compare
//! every day of years -9999..=9999 and each unit's extremes with chrono.

use std::cell::Cell;

use chrono::{NaiveDate, NaiveDateTime, NaiveTime};

const SECONDS_PER_DAY: i64 = 86_400;

thread_local! {
    /// The last day count converted on this thread, and its date.
    static LAST_DAY: Cell<(i64, NaiveDate)> = const { Cell::new((0, NaiveDate::from_ymd_opt(1970, 1, 1).unwrap())) };
}

/// The date `days` days after 1970-01-01 (before it, when negative), if
/// chrono can hold it.
#[inline]
pub(super) fn date(days: i64) -> Option<NaiveDate> {
    LAST_DAY.with(|last| match last.get() {
        (last_days, last_date) if last_days == days => Some(last_date),
        _ => convert_and_remember(last, days),
    })
}

/// A day not remembered: chrono's date for it, remembered. Out of line, so
/// that the remembered day's path stays small where it is inlined.
#[cold]
#[inline(never)]
fn convert_and_remember(last: &Cell<(i64, NaiveDate)>, days: i64) -> Option<NaiveDate> {
    let date = NaiveDate::from_epoch_days(i32::try_from(days).ok()?)?;
    last.set((days, date));
    Some(date)
}

/// `units` counts of `1 / PER` second since 1970-01-01 00:00:00, if chrono
/// can hold it. A constant `PER` makes each division one by a constant.
#[inline]
pub(super) fn datetime<const PER: i64>(units: i64) -> Option<NaiveDateTime> {
    let (secs, sub) = (units.div_euclid(PER), units.rem_euclid(PER));
    let (days, second_of_day) = (secs.div_euclid(SECONDS_PER_DAY), secs.rem_euclid(SECONDS_PER_DAY));
    // Both fit u32: the remainders are below 86 400 and 10^9.
    let nanos = (sub * (1_000_000_000 / PER)) as u32;
    let time = NaiveTime::from_num_seconds_from_midnight_opt(second_of_day as u32, nanos)?;
    Some(date(days)?.and_time(time))
}

#[cfg(test)]
mod tests {
    use chrono::{DateTime, Datelike, NaiveDate};

    use super::{date, datetime};

    fn epoch_days(y: i32, m: u32, d: u32) -> i64 {
        i64::from(NaiveDate::from_ymd_opt(y, m, d).unwrap().to_epoch_days())
    }

    #[test]
    fn every_day_of_years_minus_9999_to_9999_is_chronos_date() {
        let (first, last) = (epoch_days(-9999, 1, 1), epoch_days(9999, 12, 31));
        for days in first..=last {
            let expected = NaiveDate::from_epoch_days(days as i32);
            assert_eq!(date(days), expected, "day {days}");
            // Again, from the cache.
            assert_eq!(date(days), expected, "day {days}, remembered");
        }
        // Every value a different day: the cache follows each change.
        for days in (first..=last).step_by(997) {
            assert_eq!(date(-days), NaiveDate::from_epoch_days(-days as i32), "day {}", -days);
            assert_eq!(date(days), NaiveDate::from_epoch_days(days as i32), "day {days} after {}", -days);
        }
        assert_eq!(date(first).unwrap().year(), -9999);
        assert_eq!(date(last).unwrap().year(), 9999);
    }

    #[test]
    fn counts_chrono_cannot_hold_are_none() {
        for days in [i64::MIN, i64::from(i32::MIN), i64::from(i32::MAX), i64::MAX] {
            assert_eq!(date(days), None, "day {days}");
        }
        let max = i64::from(NaiveDate::MAX.to_epoch_days());
        let min = i64::from(NaiveDate::MIN.to_epoch_days());
        assert_eq!((date(max), date(max + 1)), (Some(NaiveDate::MAX), None));
        assert_eq!((date(min), date(min - 1)), (Some(NaiveDate::MIN), None));
    }

    #[test]
    fn timestamps_are_chronos_at_every_units_extremes_and_around_the_epoch() {
        let mut counts = vec![i64::MIN, i64::MIN + 1, -1, 0, 1, i64::MAX - 1, i64::MAX];
        counts.extend((-3..=3).flat_map(|k| [k * 86_400_000, k * 86_400_000 - 1, k * 999_999_999_999]));
        for units in counts {
            let millis = DateTime::from_timestamp_millis(units).map(|t| t.naive_utc());
            let micros = DateTime::from_timestamp_micros(units).map(|t| t.naive_utc());
            let nanos = Some(DateTime::from_timestamp_nanos(units).naive_utc());
            assert_eq!(datetime::<1_000>(units), millis, "{units} ms");
            assert_eq!(datetime::<1_000_000>(units), micros, "{units} us");
            assert_eq!(datetime::<1_000_000_000>(units), nanos, "{units} ns");
        }
    }

    #[test]
    fn timestamps_are_chronos_on_every_day_of_years_minus_9999_to_9999() {
        let (first, last) = (epoch_days(-9999, 1, 1), epoch_days(9999, 12, 31));
        // Each day at a time that moves through the day and the second.
        for (k, days) in (first..=last).enumerate() {
            let k = k as i64;
            let millis = days * 86_400_000 + (k * 7_919_993) % 86_400_000;
            let expected = DateTime::from_timestamp_millis(millis).map(|t| t.naive_utc());
            assert_eq!(datetime::<1_000>(millis), expected, "{millis} ms");
            let micros = millis * 1_000 + k % 1_000;
            let expected = DateTime::from_timestamp_micros(micros).map(|t| t.naive_utc());
            assert_eq!(datetime::<1_000_000>(micros), expected, "{micros} us");
        }
    }
}
