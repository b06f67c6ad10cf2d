//! One view of a Parquet node's annotation, whether the file wrote a
//! `LogicalType` or only a legacy `ConvertedType`.

use magnolify_parquet::parquet::basic::{ConvertedType, LogicalType, TimeUnit};
use magnolify_parquet::parquet::schema::types::Type;

/// Unit of a TIME or TIMESTAMP annotation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unit {
    Millis,
    Micros,
    Nanos,
}

/// A node's annotation.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Annotation {
    None,
    String,
    Enum,
    Json,
    Bson,
    Uuid,
    Float16,
    Interval,
    Date,
    Decimal {
        precision: i32,
        scale: i32,
    },
    Time {
        unit: Unit,
        utc: bool,
    },
    Timestamp {
        unit: Unit,
        utc: bool,
    },
    Integer {
        bits: i8,
        signed: bool,
    },
    List,
    Map,
    /// Anything else (variant, geometry, unknown): named for messages.
    Other(String),
}

fn unit(u: &TimeUnit) -> Unit {
    match u {
        TimeUnit::MILLIS => Unit::Millis,
        TimeUnit::MICROS => Unit::Micros,
        _ => Unit::Nanos,
    }
}

/// The annotation of `ty`.
pub(crate) fn annotation(ty: &Type) -> Annotation {
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
            LogicalType::Decimal(d) => Annotation::Decimal { precision: d.precision, scale: d.scale },
            LogicalType::Time(t) => Annotation::Time { unit: unit(&t.unit), utc: t.is_adjusted_to_u_t_c },
            LogicalType::Timestamp(t) => Annotation::Timestamp { unit: unit(&t.unit), utc: t.is_adjusted_to_u_t_c },
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
        ConvertedType::TIME_MILLIS => Annotation::Time { unit: Unit::Millis, utc: true },
        ConvertedType::TIME_MICROS => Annotation::Time { unit: Unit::Micros, utc: true },
        ConvertedType::TIMESTAMP_MILLIS => Annotation::Timestamp { unit: Unit::Millis, utc: true },
        ConvertedType::TIMESTAMP_MICROS => Annotation::Timestamp { unit: Unit::Micros, utc: true },
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
