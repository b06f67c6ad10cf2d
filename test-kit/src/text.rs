//! The text of Parquet leaf values in JSON, as the CLI's `cat` prints them
//! (it re-exports this module as `magnolify_parquet_cli::json`) and as the
//! fixtures' `*.expected.json` hold them (`tests/fixtures/README.md`):
//!
//! | value | text |
//! |---|---|
//! | DATE | `YYYY-MM-DD` ([`date_text`]) |
//! | TIME | `HH:MM:SS.fff`, 3, 6 or 9 fraction digits by unit ([`time_text`]) |
//! | TIMESTAMP | `YYYY-MM-DDTHH:MM:SS.ffffff`, digits by unit, `Z` for instants ([`datetime_text`]) |
//! | INT96 | a timestamp with 9 digits and no `Z` ([`int96_nanos`]) |
//! | DECIMAL | plain notation, exactly `scale` fraction digits ([`decimal_text`], [`unscaled_text`]) |
//! | bytes | lowercase [`hex`], or [`base64`] on request |
//! | FLOAT, DOUBLE, FLOAT16 | the shortest text of the double; NaN and infinities as strings ([`float`]) |
//!
//! Years outside 0000..=9999 get a sign and at least four digits
//! (`+290000-12-30`), so every value a file can hold has a text: the
//! functions work on plain integers (days, nanoseconds), never on a date
//! library's types, whose range is smaller than INT96's or INT64
//! nanoseconds'.

use std::fmt::Write as _;

use magnolify_parquet::TimeUnit;
pub use serde_json::Value;

/// Nanoseconds in a day.
pub const NANOS_PER_DAY: i128 = 86_400 * 1_000_000_000;

/// Julian day number of 1970-01-01, the epoch of INT96 timestamps' days.
const JULIAN_EPOCH_DAY: i64 = 2_440_588;

/// Fraction digits of TIME and TIMESTAMP text in `unit`: 3, 6 or 9.
pub fn time_digits(unit: TimeUnit) -> u8 {
    match unit {
        TimeUnit::Millis => 3,
        TimeUnit::Micros => 6,
        TimeUnit::Nanos => 9,
    }
}

/// Nanoseconds in one `unit`.
pub fn nanos_per(unit: TimeUnit) -> i128 {
    i128::from(1_000_000_000 / unit.per_second())
}

/// A year: four digits within 0000..=9999, else a sign and at least four
/// digits (`+290000`, `-0005`), as ISO 8601's expanded form.
pub fn year_text(year: i64) -> String {
    if (0..=9999).contains(&year) {
        format!("{year:04}")
    } else {
        let sign = if year < 0 { '-' } else { '+' };
        format!("{sign}{:04}", year.unsigned_abs())
    }
}

/// The proleptic Gregorian (year, month, day) of `days` since 1970-01-01
/// (Howard Hinnant's `civil_from_days`).
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = i128::from(days) + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 { shifted_month + 3 } else { shifted_month - 9 };
    let year = year_of_era + era * 400 + i128::from(month <= 2);
    // |days| < 2^63 keeps the year far inside i64; month and day are small.
    (year as i64, month as u32, day as u32)
}

/// A DATE: `days` since 1970-01-01 as `YYYY-MM-DD`.
///
/// ```
/// use test_kit::text::date_text;
/// assert_eq!(date_text(19_723), "2024-01-01");
/// assert_eq!(date_text(-1), "1969-12-31");
/// ```
pub fn date_text(days: i64) -> String {
    let (year, month, day) = civil_from_days(days);
    format!("{}-{month:02}-{day:02}", year_text(year))
}

/// A time of day, `nanos` since midnight (below [`NANOS_PER_DAY`]), as
/// `HH:MM:SS` and `digits` fraction digits (0 for none, at most 9).
///
/// ```
/// use test_kit::text::time_text;
/// assert_eq!(time_text(3_723_004_000_000, 3), "01:02:03.004");
/// assert_eq!(time_text(1, 9), "00:00:00.000000001");
/// ```
pub fn time_text(nanos: u64, digits: u8) -> String {
    let seconds = nanos / 1_000_000_000;
    let mut out = format!("{:02}:{:02}:{:02}", seconds / 3600, seconds / 60 % 60, seconds % 60);
    let digits = u32::from(digits.min(9));
    if digits > 0 {
        let fraction = nanos % 1_000_000_000 / 10u64.pow(9 - digits);
        let _ = write!(out, ".{fraction:0width$}", width = digits as usize);
    }
    out
}

/// A TIMESTAMP: `nanos` since 1970-01-01T00:00:00 as
/// `YYYY-MM-DDTHH:MM:SS` with `digits` fraction digits, and a `Z` when
/// `zulu` (an instant, `isAdjustedToUTC`).
///
/// ```
/// use test_kit::text::datetime_text;
/// assert_eq!(datetime_text(1_700_000_000_123_000_000, 3, true), "2023-11-14T22:13:20.123Z");
/// assert_eq!(datetime_text(-1_000, 6, false), "1969-12-31T23:59:59.999999");
/// ```
pub fn datetime_text(nanos: i128, digits: u8, zulu: bool) -> String {
    let days = nanos.div_euclid(NANOS_PER_DAY);
    let of_day = nanos.rem_euclid(NANOS_PER_DAY);
    // An i128 of nanoseconds spans far fewer than 2^63 days.
    let mut out = format!("{}T{}", date_text(days as i64), time_text(of_day as u64, digits));
    if zulu {
        out.push('Z');
    }
    out
}

/// The nanoseconds since the epoch of an INT96 timestamp, from its three
/// little-endian words: nanoseconds of the day (words 0 and 1), then the
/// Julian day (word 2). Print it with `datetime_text(n, 9, false)`.
///
/// Computed as Spark does, in microseconds that wrap around i64, plus the
/// nanoseconds below the microsecond: Spark writes instants past
/// i64-microsecond Julian dates (year 292,000 and beyond) with that
/// wrapped arithmetic, and this reads them back to the value Spark wrote
/// (parquet-testing's `int96_from_spark` has one). For every other value
/// it is the exact sum.
///
/// ```
/// use test_kit::text::{datetime_text, int96_nanos};
/// // Julian day 2440589 is 1970-01-02.
/// assert_eq!(datetime_text(int96_nanos([1, 0, 2_440_589]), 9, false), "1970-01-02T00:00:00.000000001");
/// ```
pub fn int96_nanos(words: [u32; 3]) -> i128 {
    let of_day = (u64::from(words[1]) << 32 | u64::from(words[0])) as i64;
    let days = i64::from(words[2] as i32) - JULIAN_EPOCH_DAY;
    let micros = days.wrapping_mul(86_400_000_000).wrapping_add(of_day / 1000);
    i128::from(micros) * 1000 + i128::from(of_day % 1000)
}

/// A decimal in plain notation: the integer `unscaled` (decimal digits,
/// with a leading `-` when negative) times 10^-`scale`, with exactly
/// `scale` fraction digits; a negative scale appends zeros instead.
///
/// ```
/// use test_kit::text::decimal_text;
/// assert_eq!(decimal_text("-999999999", 2), "-9999999.99");
/// assert_eq!(decimal_text("5", 3), "0.005");
/// assert_eq!(decimal_text("-5", 3), "-0.005");
/// assert_eq!(decimal_text("0", 4), "0.0000");
/// assert_eq!(decimal_text("12", -2), "1200");
/// ```
pub fn decimal_text(unscaled: &str, scale: i64) -> String {
    let (negative, magnitude) = match unscaled.strip_prefix('-') {
        Some(m) => (true, m),
        None => (false, unscaled),
    };
    let mut out = String::with_capacity(magnitude.len() + 3);
    if negative {
        out.push('-');
    }
    if scale <= 0 {
        out.push_str(magnitude);
        if magnitude != "0" {
            out.extend(std::iter::repeat_n('0', scale.unsigned_abs() as usize));
        }
        return out;
    }
    let scale = scale as usize;
    match magnitude.len().checked_sub(scale) {
        Some(int_len) if int_len > 0 => {
            out.push_str(&magnitude[..int_len]);
            out.push('.');
            out.push_str(&magnitude[int_len..]);
        }
        _ => {
            out.push_str("0.");
            out.extend(std::iter::repeat_n('0', scale - magnitude.len()));
            out.push_str(magnitude);
        }
    }
    out
}

/// The decimal digits of a big-endian two's complement integer of any
/// length (the unscaled value of a DECIMAL on BYTE_ARRAY or
/// FIXED_LEN_BYTE_ARRAY); empty input is 0.
///
/// ```
/// use test_kit::text::unscaled_text;
/// assert_eq!(unscaled_text(&[0xff, 0x80]), "-128");
/// assert_eq!(unscaled_text(&[0x01, 0, 0, 0, 0, 0, 0, 0, 0]), "18446744073709551616");
/// ```
pub fn unscaled_text(be: &[u8]) -> String {
    let negative = be.first().is_some_and(|b| b & 0x80 != 0);
    if be.len() <= 16 {
        let fill = if negative { 0xff } else { 0 };
        let mut buf = [fill; 16];
        buf[16 - be.len()..].copy_from_slice(be);
        return i128::from_be_bytes(buf).to_string();
    }
    // The magnitude in 32-bit limbs, most significant first.
    let mut bytes = be.to_vec();
    if negative {
        // Two's complement negation: invert, then add one.
        bytes.iter_mut().for_each(|b| *b = !*b);
        for b in bytes.iter_mut().rev() {
            let (sum, carry) = b.overflowing_add(1);
            *b = sum;
            if !carry {
                break;
            }
        }
    }
    let pad = (4 - bytes.len() % 4) % 4;
    let mut limbs: Vec<u32> = std::iter::repeat_n(0u8, pad)
        .chain(bytes)
        .collect::<Vec<u8>>()
        .chunks(4)
        .map(|c| u32::from_be_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    // Repeated division by 10^9 gives the digits nine at a time.
    let mut groups = Vec::new();
    while limbs.iter().any(|&l| l != 0) {
        let mut rem = 0u64;
        for limb in &mut limbs {
            let cur = rem << 32 | u64::from(*limb);
            *limb = (cur / 1_000_000_000) as u32;
            rem = cur % 1_000_000_000;
        }
        groups.push(rem);
    }
    let mut out = String::from(if negative { "-" } else { "" });
    match groups.split_last() {
        None => out.push('0'),
        Some((top, rest)) => {
            let _ = write!(out, "{top}");
            for g in rest.iter().rev() {
                let _ = write!(out, "{g:09}");
            }
        }
    }
    out
}

/// Lowercase hexadecimal, two digits a byte (`""` for no bytes).
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 0x0f)]));
    }
    out
}

/// Standard base64 (RFC 4648, `+/` and `=` padding).
///
/// ```
/// use test_kit::text::base64;
/// assert_eq!(base64(b"Man"), "TWFu");
/// assert_eq!(base64(b"Ma"), "TWE=");
/// assert_eq!(base64(b""), "");
/// ```
pub fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |acc, (i, &b)| acc | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i) & 0x3f) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// A double: a JSON number (shortest text that reads back exactly), or
/// the strings `"NaN"`, `"Infinity"`, `"-Infinity"`, which JSON has no
/// numbers for. A FLOAT is printed as its exact widening.
pub fn float(x: f64) -> Value {
    match serde_json::Number::from_f64(x) {
        Some(n) => Value::Number(n),
        None if x.is_nan() => Value::from("NaN"),
        None if x > 0.0 => Value::from("Infinity"),
        None => Value::from("-Infinity"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn years_outside_four_digits_get_a_sign() {
        assert_eq!(year_text(2024), "2024");
        assert_eq!(year_text(5), "0005");
        assert_eq!(year_text(-5), "-0005");
        assert_eq!(year_text(290_000), "+290000");
        assert_eq!(datetime_text(int96_nanos([0, 0, 2_440_589]), 9, false), "1970-01-02T00:00:00.000000000");
        // The year-290000 row of parquet-testing's int96_from_spark, as Spark wrote it (wrapped).
        let spark = int96_nanos([3_350_814_720, 4_294_959_726, 4_189_105_064]);
        assert_eq!(datetime_text(spark, 9, false), "+290000-12-30T23:00:00.000000000");
        assert_eq!(date_text(105_200_851), "+290000-02-24");
    }

    #[test]
    fn long_unscaled_values() {
        let mut be = vec![0u8; 20];
        be[0] = 0x80;
        assert_eq!(unscaled_text(&be), "-730750818665451459101842416358141509827966271488");
        assert_eq!(unscaled_text(&[0xff; 20]), "-1");
        assert_eq!(unscaled_text(&[0; 20]), "0");
        assert_eq!(unscaled_text(&[]), "0");
        let mut one_e_nine = vec![0u8; 17];
        one_e_nine[13..].copy_from_slice(&1_000_000_000u32.to_be_bytes());
        assert_eq!(unscaled_text(&one_e_nine), "1000000000");
    }

    #[test]
    fn floats_and_halves() {
        assert_eq!(float(f64::NAN), Value::from("NaN"));
        assert_eq!(float(f64::NEG_INFINITY), Value::from("-Infinity"));
        assert_eq!(float(-0.0).to_string(), "-0.0");
        assert_eq!(float(f64::from(1.1f32)).to_string(), "1.100000023841858");
    }

    #[test]
    fn bytes() {
        assert_eq!(hex(&[0xde, 0xad, 0x01]), "dead01");
        assert_eq!(base64(&[0xff, 0xfe, 0xfd, 0xfc]), "//79/A==");
    }
}
