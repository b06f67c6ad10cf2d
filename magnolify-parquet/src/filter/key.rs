//! Values in a column's sort order: what a predicate's value and a column
//! chunk's statistics are both turned into, so that they compare.

use std::cmp::Ordering;

use parquet::basic::Type as Physical;
use parquet::schema::types::ColumnDescriptor;

use crate::logical::Annotation;
#[cfg(feature = "chrono")]
use crate::options::TimeUnit;

/// A value in the sort order of the column it is compared with: numbers
/// by value (integers of any width and sign, dates, times and timestamps
/// in the column's unit, decimals unscaled at the column's scale), floats
/// by value, byte strings as unsigned bytes.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Key {
    /// BOOLEAN: false before true.
    Bool(bool),
    /// Any integer, or a count of the column's unit, or an unscaled decimal.
    Int(i128),
    /// FLOAT, DOUBLE or FLOAT16, never NaN.
    Float(f64),
    /// STRING, ENUM, JSON, UUID and other byte strings, as unsigned bytes.
    Bytes(Vec<u8>),
}

impl Key {
    /// The order of two keys of the same kind; `None` for keys of different
    /// kinds (a value that does not fit the column), which never prune.
    pub(crate) fn compare(&self, other: &Key) -> Option<Ordering> {
        match (self, other) {
            (Key::Bool(a), Key::Bool(b)) => Some(a.cmp(b)),
            (Key::Int(a), Key::Int(b)) => Some(a.cmp(b)),
            (Key::Float(a), Key::Float(b)) => a.partial_cmp(b),
            (Key::Bytes(a), Key::Bytes(b)) => Some(a.cmp(b)),
            _ => None,
        }
    }
}

/// A field type whose values can be compared with a column's statistics.
///
/// [`key`](FilterValue::key) turns a value into the sort order of the
/// column the field reads (`None` when the value has no exact form there:
/// a timestamp finer than the column's unit, a decimal with more digits
/// after the point than the column's scale). Pruning uses keys; the exact
/// test after assembly uses the Rust value's own `PartialEq`/`PartialOrd`,
/// which must agree with the keys' order (it does for every type here).
pub trait FilterValue: Send + Sync + 'static {
    /// The value as a key of `column`, or `None` when it has none.
    fn key(&self, column: &ColumnDescriptor) -> Option<Key>;

    /// The largest key of `column` not above the value, and whether it is
    /// the value itself: a timestamp between two of the column's units, or
    /// a decimal with more digits than its scale, still bounds ranges (no
    /// record equals it). By default, [`key`](Self::key), exact.
    fn floor_key(&self, column: &ColumnDescriptor) -> Option<(Key, bool)> {
        self.key(column).map(|key| (key, true))
    }

    /// Whether the type's `PartialOrd` is the keys' order, so that `lt`,
    /// `le`, `gt` and `ge` may prune (an enum's declaration order is not
    /// its symbols' byte order: `false` there).
    fn ordered(&self) -> bool {
        true
    }
}

/// The column's physical type and annotation.
fn kind(column: &ColumnDescriptor) -> (Physical, Annotation) {
    (column.physical_type(), Annotation::of(column.self_type()))
}

macro_rules! integer_keys {
    ($($t:ty),*) => {$(
        impl FilterValue for $t {
            fn key(&self, column: &ColumnDescriptor) -> Option<Key> {
                match kind(column) {
                    (Physical::INT32 | Physical::INT64, Annotation::None | Annotation::Integer { .. }) => {
                        // Every integer type here widens to i128 without loss.
                        Some(Key::Int(*self as i128))
                    }
                    _ => None,
                }
            }
        }

        impl FilterValue for std::num::NonZero<$t> {
            fn key(&self, column: &ColumnDescriptor) -> Option<Key> {
                self.get().key(column)
            }
        }
    )*};
}
integer_keys!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

/// `i128` and `u128`: integer columns and DECIMAL columns of scale 0,
/// whose statistics are unscaled integers.
macro_rules! wide_keys {
    ($($t:ty),*) => {$(
        impl FilterValue for $t {
            fn key(&self, column: &ColumnDescriptor) -> Option<Key> {
                match kind(column) {
                    (Physical::INT32 | Physical::INT64, Annotation::None | Annotation::Integer { .. })
                    | (_, Annotation::Decimal { scale: 0, .. }) => i128::try_from(*self).ok().map(Key::Int),
                    _ => None,
                }
            }
        }
    )*};
}
wide_keys!(i128, u128);

impl FilterValue for bool {
    fn key(&self, column: &ColumnDescriptor) -> Option<Key> {
        (column.physical_type() == Physical::BOOLEAN).then_some(Key::Bool(*self))
    }
}

macro_rules! float_keys {
    ($($t:ty),*) => {$(
        impl FilterValue for $t {
            fn key(&self, column: &ColumnDescriptor) -> Option<Key> {
                match kind(column) {
                    (Physical::FLOAT | Physical::DOUBLE, Annotation::None) if !self.is_nan() => {
                        Some(Key::Float(f64::from(*self)))
                    }
                    _ => None,
                }
            }
        }
    )*};
}
float_keys!(f32, f64);

/// A byte string's key (for generated code): any BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY column but
/// the ones ordered otherwise (decimals, FLOAT16, INTERVAL).
pub fn bytes_key(bytes: &[u8], column: &ColumnDescriptor) -> Option<Key> {
    match kind(column) {
        (Physical::BYTE_ARRAY | Physical::FIXED_LEN_BYTE_ARRAY, annotation) => match annotation {
            Annotation::Decimal { .. } | Annotation::Float16 | Annotation::Interval | Annotation::Other(_) => None,
            _ => Some(Key::Bytes(bytes.to_vec())),
        },
        _ => None,
    }
}

macro_rules! byte_keys {
    ($($t:ty => $bytes:expr),*) => {$(
        impl FilterValue for $t {
            fn key(&self, column: &ColumnDescriptor) -> Option<Key> {
                let bytes: fn(&$t) -> &[u8] = $bytes;
                bytes_key(bytes(self), column)
            }
        }
    )*};
}
byte_keys!(
    String => |s| s.as_bytes(),
    Box<str> => |s| s.as_bytes(),
    std::sync::Arc<str> => |s| s.as_bytes(),
    Vec<u8> => |b| b,
    Box<[u8]> => |b| b,
    bytes::Bytes => |b| b
);

impl FilterValue for char {
    fn key(&self, column: &ColumnDescriptor) -> Option<Key> {
        // UTF-8's byte order is the order of code points: `char`'s own.
        bytes_key(self.encode_utf8(&mut [0; 4]).as_bytes(), column)
    }
}

/// IP addresses are stored as text, whose order is not the addresses':
/// only equality prunes, and only where the text has one spelling. An
/// IPv4 address has one (`1.2.3.4`: no leading zeros, which reads
/// refuse); an IPv6 address has many that read as the same value
/// (`2001:DB8::1`, `2001:0db8:0:0:0:0:0:1`), so another writer's column
/// may hold one its key would rule out: none prunes.
fn address_key(address: std::net::IpAddr, column: &ColumnDescriptor) -> Option<Key> {
    match address {
        std::net::IpAddr::V4(v4) => bytes_key(v4.to_string().as_bytes(), column),
        std::net::IpAddr::V6(_) => None,
    }
}

macro_rules! address_keys {
    ($($t:ty),*) => {$(
        impl FilterValue for $t {
            fn key(&self, column: &ColumnDescriptor) -> Option<Key> {
                address_key((*self).into(), column)
            }

            fn ordered(&self) -> bool {
                false
            }
        }
    )*};
}
address_keys!(std::net::IpAddr, std::net::Ipv4Addr, std::net::Ipv6Addr);

impl<const N: usize> FilterValue for [u8; N] {
    fn key(&self, column: &ColumnDescriptor) -> Option<Key> {
        bytes_key(self, column)
    }
}

#[cfg(feature = "chrono")]
/// The count of `unit` in `secs` seconds and `nanos` (0 to 1e9)
/// nanoseconds, rounded down, and whether it is exact.
pub(crate) fn units(secs: i64, nanos: u32, unit: TimeUnit) -> (i128, bool) {
    let per_second: i128 = match unit {
        TimeUnit::Millis => 1_000,
        TimeUnit::Micros => 1_000_000,
        TimeUnit::Nanos => 1_000_000_000,
    };
    if nanos >= 1_000_000_000 {
        // A leap second (chrono's 23:59:60.x): after the second's last unit,
        // before the next second.
        return (i128::from(secs) * per_second + per_second - 1, false);
    }
    let nanos_per_unit = 1_000_000_000 / per_second;
    let nanos = i128::from(nanos);
    (i128::from(secs) * per_second + nanos / nanos_per_unit, nanos % nanos_per_unit == 0)
}

#[cfg(feature = "chrono")]
mod chrono_keys {
    use chrono::{DateTime, NaiveDate, NaiveDateTime, NaiveTime, Timelike, Utc};

    use super::*;

    /// An instant's floor key in a TIMESTAMP column on INT64 (INT96 has
    /// no order).
    fn instant(secs: i64, nanos: u32, column: &ColumnDescriptor) -> Option<(Key, bool)> {
        match kind(column) {
            (Physical::INT64, Annotation::Timestamp { unit, .. }) => {
                let (count, exact) = units(secs, nanos, unit);
                Some((Key::Int(count), exact))
            }
            _ => None,
        }
    }

    /// The exact key of a floor key.
    fn exact(floor: Option<(Key, bool)>) -> Option<Key> {
        floor.and_then(|(key, exact)| exact.then_some(key))
    }

    impl FilterValue for DateTime<Utc> {
        fn key(&self, column: &ColumnDescriptor) -> Option<Key> {
            exact(self.floor_key(column))
        }

        fn floor_key(&self, column: &ColumnDescriptor) -> Option<(Key, bool)> {
            instant(self.timestamp(), self.timestamp_subsec_nanos(), column)
        }
    }

    impl FilterValue for std::time::SystemTime {
        fn key(&self, column: &ColumnDescriptor) -> Option<Key> {
            exact(self.floor_key(column))
        }

        fn floor_key(&self, column: &ColumnDescriptor) -> Option<(Key, bool)> {
            let (secs, nanos) = crate::types::epoch_parts(*self)?;
            instant(secs, nanos, column)
        }
    }

    impl FilterValue for NaiveDateTime {
        fn key(&self, column: &ColumnDescriptor) -> Option<Key> {
            exact(self.floor_key(column))
        }

        fn floor_key(&self, column: &ColumnDescriptor) -> Option<(Key, bool)> {
            let utc = self.and_utc();
            instant(utc.timestamp(), utc.timestamp_subsec_nanos(), column)
        }
    }

    impl FilterValue for NaiveDate {
        fn key(&self, column: &ColumnDescriptor) -> Option<Key> {
            let epoch = NaiveDate::from_ymd_opt(1970, 1, 1)?;
            match kind(column) {
                (Physical::INT32, Annotation::Date) => Some(Key::Int(i128::from((*self - epoch).num_days()))),
                _ => None,
            }
        }
    }

    impl FilterValue for NaiveTime {
        fn key(&self, column: &ColumnDescriptor) -> Option<Key> {
            exact(self.floor_key(column))
        }

        fn floor_key(&self, column: &ColumnDescriptor) -> Option<(Key, bool)> {
            match kind(column) {
                // A leap second (nanos past 1e9) has no form in a TIME column.
                (Physical::INT32 | Physical::INT64, Annotation::Time { unit, .. })
                    if self.nanosecond() < 1_000_000_000 =>
                {
                    let (count, exact) = units(i64::from(self.num_seconds_from_midnight()), self.nanosecond(), unit);
                    Some((Key::Int(count), exact))
                }
                _ => None,
            }
        }
    }
}

#[cfg(feature = "uuid")]
impl FilterValue for uuid::Uuid {
    fn key(&self, column: &ColumnDescriptor) -> Option<Key> {
        bytes_key(self.as_bytes(), column)
    }
}

#[cfg(feature = "half")]
impl FilterValue for half::f16 {
    fn key(&self, column: &ColumnDescriptor) -> Option<Key> {
        match kind(column) {
            (Physical::FIXED_LEN_BYTE_ARRAY, Annotation::Float16) if !self.is_nan() => Some(Key::Float(self.to_f64())),
            _ => None,
        }
    }
}

#[cfg(any(feature = "decimal", feature = "bigdecimal"))]
/// The decimal `mantissa` × 10^-`scale` unscaled at the column's scale,
/// rounded down, and whether exactly, when the column is a DECIMAL.
pub(crate) fn decimal_key(mantissa: i128, scale: i64, column: &ColumnDescriptor) -> Option<(Key, bool)> {
    let Annotation::Decimal { scale: to, .. } = Annotation::of(column.self_type()) else { return None };
    let shift = i64::from(to) - scale;
    let factor = 10i128.checked_pow(u32::try_from(shift.unsigned_abs()).ok()?)?;
    let (unscaled, exact) = if shift >= 0 {
        (mantissa.checked_mul(factor)?, true)
    } else {
        (mantissa.div_euclid(factor), mantissa.rem_euclid(factor) == 0)
    };
    Some((Key::Int(unscaled), exact))
}

#[cfg(feature = "decimal")]
impl FilterValue for rust_decimal::Decimal {
    fn key(&self, column: &ColumnDescriptor) -> Option<Key> {
        self.floor_key(column).and_then(|(key, exact)| exact.then_some(key))
    }

    fn floor_key(&self, column: &ColumnDescriptor) -> Option<(Key, bool)> {
        decimal_key(self.mantissa(), i64::from(self.scale()), column)
    }
}

#[cfg(feature = "bigdecimal")]
impl FilterValue for bigdecimal::BigDecimal {
    fn key(&self, column: &ColumnDescriptor) -> Option<Key> {
        self.floor_key(column).and_then(|(key, exact)| exact.then_some(key))
    }

    fn floor_key(&self, column: &ColumnDescriptor) -> Option<(Key, bool)> {
        let (mantissa, scale) = self.as_bigint_and_exponent();
        decimal_key(i128::try_from(mantissa).ok()?, scale, column)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(feature = "chrono")]
    fn units_round_down() {
        assert_eq!(units(1, 500_000_000, TimeUnit::Millis), (1_500, true));
        assert_eq!(units(-1, 0, TimeUnit::Micros), (-1_000_000, true));
        assert_eq!(units(0, 1, TimeUnit::Micros), (0, false));
        // Half a millisecond before the epoch: rounded down to -1 ms.
        assert_eq!(units(-1, 999_500_000, TimeUnit::Millis), (-1, false));
        assert_eq!(units(2, 7, TimeUnit::Nanos), (2_000_000_007, true));
        // 00:00:01 and a leap half second: after 00:00:01.999, not 00:00:02.500.
        assert_eq!(units(1, 1_500_000_000, TimeUnit::Millis), (1_999, false));
    }

    #[test]
    fn keys_compare_within_a_kind() {
        assert_eq!(Key::Int(-1).compare(&Key::Int(3)), Some(Ordering::Less));
        assert_eq!(Key::Bytes(b"b".to_vec()).compare(&Key::Bytes(b"ab".to_vec())), Some(Ordering::Greater));
        assert_eq!(Key::Bytes(vec![0x80]).compare(&Key::Bytes(vec![0x7f])), Some(Ordering::Greater));
        assert_eq!(Key::Int(1).compare(&Key::Float(1.0)), None);
    }
}
