//! One view of a node's annotation, whether the file wrote a `LogicalType`
//! or only a legacy `ConvertedType`: every reader of annotations (the field
//! types of this crate, the Avro baseline) asks this instead of matching
//! both enums itself.

use parquet::basic::{ConvertedType, LogicalType};
use parquet::schema::types::Type;

use crate::options::TimeUnit;

/// A node's annotation, normalised.
///
/// ```
/// use magnolify_parquet::convert::Annotation;
/// use magnolify_parquet::TimeUnit;
/// use parquet::schema::parser::parse_message_type;
///
/// let message = parse_message_type(
///     "message m { required int64 a (TIMESTAMP_MILLIS); required int64 b (TIMESTAMP(NANOS,false)); }",
/// ).unwrap();
/// let fields = message.get_fields();
/// assert_eq!(Annotation::of(&fields[0]), Annotation::Timestamp { unit: TimeUnit::Millis, utc: true });
/// assert_eq!(Annotation::of(&fields[1]), Annotation::Timestamp { unit: TimeUnit::Nanos, utc: false });
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Annotation {
    /// No annotation.
    None,
    /// STRING (UTF8).
    String,
    /// ENUM.
    Enum,
    /// JSON.
    Json,
    /// BSON.
    Bson,
    /// UUID.
    Uuid,
    /// FLOAT16.
    Float16,
    /// INTERVAL (legacy only).
    Interval,
    /// DATE.
    Date,
    /// UNKNOWN (always null).
    Unknown,
    /// DECIMAL(precision, scale), as the file states them.
    Decimal {
        /// Digits.
        precision: i32,
        /// Digits after the point.
        scale: i32,
    },
    /// TIME.
    Time {
        /// Unit.
        unit: TimeUnit,
        /// Adjusted to UTC.
        utc: bool,
    },
    /// TIMESTAMP.
    Timestamp {
        /// Unit.
        unit: TimeUnit,
        /// Adjusted to UTC (an instant) or not (a local date-time).
        utc: bool,
    },
    /// INTEGER(bits, signed).
    Integer {
        /// Width in bits.
        bits: i8,
        /// Signed or not.
        signed: bool,
    },
    /// LIST.
    List,
    /// MAP (or the legacy MAP_KEY_VALUE).
    Map,
    /// Anything else (variant, geometry, a logical type newer than this
    /// crate): named for messages.
    Other(String),
}

impl Annotation {
    /// The annotation of `ty`: its logical type, else its converted type.
    pub fn of(ty: &Type) -> Annotation {
        let info = ty.get_basic_info();
        if let Some(logical) = info.logical_type_ref() {
            return match logical {
                LogicalType::String => Annotation::String,
                LogicalType::Enum => Annotation::Enum,
                LogicalType::Json => Annotation::Json,
                LogicalType::Bson => Annotation::Bson,
                LogicalType::Uuid => Annotation::Uuid,
                LogicalType::Float16 => Annotation::Float16,
                LogicalType::Date => Annotation::Date,
                LogicalType::Unknown => Annotation::Unknown,
                LogicalType::Decimal(d) => Annotation::Decimal { precision: d.precision, scale: d.scale },
                LogicalType::Time(t) => match TimeUnit::from_parquet(&t.unit) {
                    Some(unit) => Annotation::Time { unit, utc: t.is_adjusted_to_u_t_c },
                    None => Annotation::Other(format!("{logical:?}")),
                },
                LogicalType::Timestamp(t) => match TimeUnit::from_parquet(&t.unit) {
                    Some(unit) => Annotation::Timestamp { unit, utc: t.is_adjusted_to_u_t_c },
                    None => Annotation::Other(format!("{logical:?}")),
                },
                LogicalType::Integer(i) => Annotation::Integer { bits: i.bit_width, signed: i.is_signed },
                LogicalType::List => Annotation::List,
                LogicalType::Map => Annotation::Map,
                other => Annotation::Other(format!("{other:?}")),
            };
        }
        let (precision, scale) = match ty {
            Type::PrimitiveType { precision, scale, .. } => (*precision, *scale),
            Type::GroupType { .. } => (0, 0),
        };
        match info.converted_type() {
            ConvertedType::NONE => Annotation::None,
            ConvertedType::UTF8 => Annotation::String,
            ConvertedType::ENUM => Annotation::Enum,
            ConvertedType::JSON => Annotation::Json,
            ConvertedType::BSON => Annotation::Bson,
            ConvertedType::INTERVAL => Annotation::Interval,
            ConvertedType::DATE => Annotation::Date,
            ConvertedType::DECIMAL => Annotation::Decimal { precision, scale },
            // The legacy time types are UTC-adjusted by the format's rules.
            ConvertedType::TIME_MILLIS => Annotation::Time { unit: TimeUnit::Millis, utc: true },
            ConvertedType::TIME_MICROS => Annotation::Time { unit: TimeUnit::Micros, utc: true },
            ConvertedType::TIMESTAMP_MILLIS => Annotation::Timestamp { unit: TimeUnit::Millis, utc: true },
            ConvertedType::TIMESTAMP_MICROS => Annotation::Timestamp { unit: TimeUnit::Micros, utc: true },
            ConvertedType::INT_8 => Annotation::Integer { bits: 8, signed: true },
            ConvertedType::INT_16 => Annotation::Integer { bits: 16, signed: true },
            ConvertedType::INT_32 => Annotation::Integer { bits: 32, signed: true },
            ConvertedType::INT_64 => Annotation::Integer { bits: 64, signed: true },
            ConvertedType::UINT_8 => Annotation::Integer { bits: 8, signed: false },
            ConvertedType::UINT_16 => Annotation::Integer { bits: 16, signed: false },
            ConvertedType::UINT_32 => Annotation::Integer { bits: 32, signed: false },
            ConvertedType::UINT_64 => Annotation::Integer { bits: 64, signed: false },
            ConvertedType::LIST => Annotation::List,
            ConvertedType::MAP | ConvertedType::MAP_KEY_VALUE => Annotation::Map,
        }
    }

    /// Whether the annotation marks text (STRING, ENUM or JSON).
    pub fn is_text(&self) -> bool {
        matches!(self, Annotation::String | Annotation::Enum | Annotation::Json)
    }
}

/// An IEEE 754 half-precision value (a FLOAT16 column's 2 bytes, read
/// little-endian) as the `f64` it equals exactly.
///
/// ```
/// use magnolify_parquet::convert::float16_to_f64;
/// assert_eq!(float16_to_f64(0x3C00), 1.0);
/// assert_eq!(float16_to_f64(0xC000), -2.0);
/// assert_eq!(float16_to_f64(0x0001), 2f64.powi(-24));
/// assert!(float16_to_f64(0x7E00).is_nan());
/// ```
pub fn float16_to_f64(bits: u16) -> f64 {
    let sign = if bits & 0x8000 == 0 { 1.0 } else { -1.0 };
    let exponent = i32::from((bits >> 10) & 0x1F);
    let fraction = f64::from(bits & 0x3FF);
    match exponent {
        0 => sign * fraction * 2f64.powi(-24),
        0x1F if fraction == 0.0 => sign * f64::INFINITY,
        0x1F => f64::NAN,
        e => sign * (1.0 + fraction / 1024.0) * 2f64.powi(e - 15),
    }
}
