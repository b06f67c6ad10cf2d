//! Statistics values shown by logical type: text as text, unsigned
//! integers as unsigned, decimals with their scale, dates, times and
//! timestamps in ISO-8601 (the text of [`crate::json`], whose arithmetic
//! holds any value a file can have), UUIDs in their usual form, other
//! bytes as hex.

use magnolify_parquet::convert::Annotation;
use magnolify_parquet::TimeUnit;
use parquet::data_type::Int96;
use parquet::file::statistics::Statistics;
use parquet::schema::types::ColumnDescriptor;

use crate::json;

/// Longest byte string shown in full; longer ones are cut (statistics of
/// long strings are often truncated by writers anyway).
const MAX_SHOWN_BYTES: usize = 64;

/// Longest unscaled decimal shown as a number (76 digits); longer ones are hex.
const MAX_DECIMAL_BYTES: usize = 32;

/// The min and max of `stats` for the column `descr`, when present.
pub fn min_max(stats: &Statistics, descr: &ColumnDescriptor) -> (Option<String>, Option<String>) {
    let kind = Kind::of(descr);
    match stats {
        Statistics::Boolean(s) => (s.min_opt().map(|v| v.to_string()), s.max_opt().map(|v| v.to_string())),
        Statistics::Int32(s) => {
            (s.min_opt().map(|v| kind.int(i64::from(*v), true)), s.max_opt().map(|v| kind.int(i64::from(*v), true)))
        }
        Statistics::Int64(s) => (s.min_opt().map(|v| kind.int(*v, false)), s.max_opt().map(|v| kind.int(*v, false))),
        Statistics::Int96(s) => (s.min_opt().map(int96), s.max_opt().map(int96)),
        // Debug: shortest round-trip digits, with an exponent for large and
        // small magnitudes (Display writes f32::MAX as 39 digits).
        Statistics::Float(s) => (s.min_opt().map(|v| format!("{v:?}")), s.max_opt().map(|v| format!("{v:?}"))),
        Statistics::Double(s) => (s.min_opt().map(|v| format!("{v:?}")), s.max_opt().map(|v| format!("{v:?}"))),
        Statistics::ByteArray(s) => {
            (s.min_opt().map(|v| kind.bytes(v.data())), s.max_opt().map(|v| kind.bytes(v.data())))
        }
        Statistics::FixedLenByteArray(s) => {
            (s.min_opt().map(|v| kind.bytes(v.data())), s.max_opt().map(|v| kind.bytes(v.data())))
        }
    }
}

/// How a column's values are shown.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Plain,
    Unsigned,
    Decimal(i32),
    Date,
    Time(TimeUnit),
    Timestamp(TimeUnit, bool),
    Text,
    Uuid,
    Float16,
}

impl Kind {
    fn of(descr: &ColumnDescriptor) -> Kind {
        match Annotation::of(descr.self_type()) {
            Annotation::Integer { signed: false, .. } => Kind::Unsigned,
            Annotation::Decimal { scale, .. } => Kind::Decimal(scale),
            Annotation::Date => Kind::Date,
            Annotation::Time { unit, .. } => Kind::Time(unit),
            Annotation::Timestamp { unit, utc } => Kind::Timestamp(unit, utc),
            a if a.is_text() => Kind::Text,
            Annotation::Uuid => Kind::Uuid,
            Annotation::Float16 => Kind::Float16,
            _ => Kind::Plain,
        }
    }

    /// An INT32 (`int32` true) or INT64 value.
    fn int(self, v: i64, int32: bool) -> String {
        match self {
            // Unsigned values are stored as the bits of the signed type.
            Kind::Unsigned if int32 => (v as i32 as u32).to_string(),
            Kind::Unsigned => (v as u64).to_string(),
            Kind::Decimal(scale) => json::decimal_text(&v.to_string(), i64::from(scale)),
            Kind::Date => json::date_text(v),
            Kind::Time(unit) => {
                let nanos = i128::from(v) * json::nanos_per(unit);
                if (0..json::NANOS_PER_DAY).contains(&nanos) {
                    json::time_text(nanos as u64, json::time_digits(unit))
                } else {
                    format!("{v} (not a time of day)")
                }
            }
            Kind::Timestamp(unit, utc) => {
                json::datetime_text(i128::from(v) * json::nanos_per(unit), json::time_digits(unit), utc)
            }
            _ => v.to_string(),
        }
    }

    /// A BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY value.
    fn bytes(self, b: &[u8]) -> String {
        match self {
            Kind::Text => match std::str::from_utf8(b) {
                Ok(s) => quoted(s),
                Err(_) => hex(b),
            },
            Kind::Decimal(scale) if !b.is_empty() && b.len() <= MAX_DECIMAL_BYTES => {
                json::decimal_text(&json::unscaled_text(b), i64::from(scale))
            }
            Kind::Uuid if b.len() == 16 => {
                let h = json::hex(b);
                format!("{}-{}-{}-{}-{}", &h[0..8], &h[8..12], &h[12..16], &h[16..20], &h[20..32])
            }
            Kind::Float16 if b.len() == 2 => {
                magnolify_parquet::convert::float16_to_f64(u16::from_le_bytes([b[0], b[1]])).to_string()
            }
            _ => hex(b),
        }
    }
}

/// Text in double quotes, cut to [`MAX_SHOWN_BYTES`] characters, with
/// control characters escaped so that the terminal shows them as text.
fn quoted(s: &str) -> String {
    let mut out = String::from("\"");
    for (i, c) in s.chars().enumerate() {
        if i == MAX_SHOWN_BYTES {
            out.push_str("\"...");
            return out;
        }
        if c.is_control() || c == '"' || c == '\\' {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    out.push('"');
    out
}

/// `0x` and the bytes in hex, cut to [`MAX_SHOWN_BYTES`] bytes.
fn hex(b: &[u8]) -> String {
    if b.len() > MAX_SHOWN_BYTES {
        return format!("0x{}... ({} bytes)", json::hex(&b[..MAX_SHOWN_BYTES]), b.len());
    }
    format!("0x{}", json::hex(b))
}

/// An INT96 timestamp (nanoseconds of the day, then the Julian day), as an instant.
fn int96(v: &Int96) -> String {
    let &[lo, hi, day] = v.data() else { return "?".to_owned() };
    json::datetime_text(json::int96_nanos([lo, hi, day]), 9, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals() {
        assert_eq!(Kind::Decimal(2).int(-5, true), "-0.05");
        assert_eq!(Kind::Decimal(2).bytes(&[0xcf, 0xc7]), "-123.45");
        assert_eq!(Kind::Decimal(0).bytes(&[0x01, 0, 0, 0, 0, 0, 0, 0, 0]), "18446744073709551616");
    }

    #[test]
    fn dates_and_times() {
        assert_eq!(Kind::Date.int(19_723, true), "2024-01-01");
        assert_eq!(Kind::Timestamp(TimeUnit::Millis, true).int(1_700_000_000_123, false), "2023-11-14T22:13:20.123Z");
        assert_eq!(Kind::Timestamp(TimeUnit::Micros, false).int(-1, false), "1969-12-31T23:59:59.999999");
        assert_eq!(Kind::Time(TimeUnit::Millis).int(3_723_004, true), "01:02:03.004");
        assert_eq!(Kind::Time(TimeUnit::Millis).int(-1, true), "-1 (not a time of day)");
        let mut v = Int96::new();
        v.set_data(0, 0, 2_440_589);
        assert_eq!(int96(&v), "1970-01-02T00:00:00.000000000Z");
    }

    #[test]
    fn other_values() {
        assert_eq!(Kind::Unsigned.int(-1, true), "4294967295");
        assert_eq!(Kind::Unsigned.int(-1, false), "18446744073709551615");
        assert_eq!(Kind::Text.bytes(b"a\"b\n"), "\"a\\\"b\\n\"");
        assert_eq!(Kind::Plain.bytes(&[0xde, 0xad]), "0xdead");
        assert_eq!(Kind::Float16.bytes(&0x3c00u16.to_le_bytes()), "1");
        assert_eq!(
            Kind::Uuid.bytes(&[
                0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0, 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0
            ]),
            "12345678-9abc-def0-1234-56789abcdef0"
        );
    }
}
