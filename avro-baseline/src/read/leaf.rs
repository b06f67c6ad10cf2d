//! Leaf conversions: which file columns an Avro primitive or logical type
//! reads (resolved once), and turning one triplet into a `Value`.

use std::sync::Arc;

use apache_avro::types::Value;
use apache_avro::{Duration, Uuid};
use magnolify_parquet::convert::{FileNode, RecordSource};
use magnolify_parquet::parquet::basic::Type as Physical;
use magnolify_parquet::parquet::schema::types::{ColumnDescriptor, Type};
use magnolify_parquet::Result;

use crate::bytes::{big_decimal_from, decimal_from};
use crate::plan::Leaf;
use magnolify_parquet::convert::Annotation;
use magnolify_parquet::TimeUnit as Unit;

/// How a column's values become `Value`s. Numeric conversions are plain
/// function pointers (a `Value` variant's constructor, or a widening).
#[derive(Clone, Debug)]
pub(crate) enum Conv {
    Bool,
    I32(fn(i32) -> Value),
    I64(fn(i64) -> Value),
    F32(fn(f32) -> Value),
    F64(fn(f64) -> Value),
    Bytes,
    String,
    /// FIXED_LEN_BYTE_ARRAY(16) (UUID) read as an Avro string: the canonical text.
    StringFromUuid,
    Enum(Arc<[String]>),
    Fixed(usize),
    /// INT96 read as Avro `fixed(12)`: its 12 little-endian bytes.
    FixedFromInt96,
    /// Unscaled bytes, sign-extended to the Avro `fixed` size when given.
    Decimal(Option<usize>),
    DecimalFromI32(Option<usize>),
    DecimalFromI64(Option<usize>),
    BigDecimal,
    UuidFromText,
    UuidFromBytes,
    Duration,
}

/// The conversion of Avro `leaf` from the file's column `node`.
pub(crate) fn resolve(leaf: &Leaf, node: &FileNode<'_>, descr: &ColumnDescriptor) -> Result<Conv> {
    let ann = Annotation::of(node.ty());
    let length = match node.ty() {
        Type::PrimitiveType { type_length, .. } => usize::try_from(*type_length).ok(),
        Type::GroupType { .. } => None,
    };
    let physical = descr.physical_type();
    let unsigned32 = matches!(ann, Annotation::Integer { bits: 32, signed: false });
    let mismatch = || node.error(format!("Avro {} cannot read {}", describe_leaf(leaf), node.describe()));
    // A time unit the file states must be the one the Avro type means:
    // the values are not rescaled.
    let timed = |expected: Unit, conv: Conv| match &ann {
        Annotation::Time { unit, .. } | Annotation::Timestamp { unit, .. } if *unit != expected => {
            Err(node.error(format!("Avro {} cannot read {}: the time units differ", leaf.avro_name(), node.describe())))
        }
        _ => Ok(conv),
    };
    use Physical::*;
    Ok(match (leaf, physical) {
        (Leaf::Boolean, BOOLEAN) => Conv::Bool,
        (Leaf::Int, INT32) => Conv::I32(Value::Int),
        (Leaf::Long, INT64) => Conv::I64(Value::Long),
        (Leaf::Long, INT32) if unsigned32 => Conv::I32(|v| Value::Long(i64::from(v as u32))),
        (Leaf::Long, INT32) => Conv::I32(|v| Value::Long(i64::from(v))),
        (Leaf::Float, FLOAT) => Conv::F32(Value::Float),
        (Leaf::Float, INT32) => Conv::I32(|v| Value::Float(v as f32)),
        (Leaf::Float, INT64) => Conv::I64(|v| Value::Float(v as f32)),
        (Leaf::Double, DOUBLE) => Conv::F64(Value::Double),
        (Leaf::Double, FLOAT) => Conv::F32(|v| Value::Double(f64::from(v))),
        (Leaf::Double, INT32) => Conv::I32(|v| Value::Double(f64::from(v))),
        (Leaf::Double, INT64) => Conv::I64(|v| Value::Double(v as f64)),
        (Leaf::Bytes, BYTE_ARRAY | FIXED_LEN_BYTE_ARRAY) => Conv::Bytes,
        (Leaf::String, BYTE_ARRAY) => Conv::String,
        (Leaf::String, FIXED_LEN_BYTE_ARRAY) if ann == Annotation::Uuid => Conv::StringFromUuid,
        (Leaf::Enum(symbols), BYTE_ARRAY) => Conv::Enum(symbols.clone()),
        (Leaf::Fixed(size), FIXED_LEN_BYTE_ARRAY) if length == Some(*size) => Conv::Fixed(*size),
        (Leaf::Fixed(size), BYTE_ARRAY) => Conv::Fixed(*size),
        (Leaf::Fixed(12), INT96) => Conv::FixedFromInt96,
        (Leaf::Decimal { scale, fixed, .. }, BYTE_ARRAY | FIXED_LEN_BYTE_ARRAY | INT32 | INT64) => {
            if let Annotation::Decimal { scale: file_scale, .. } = ann {
                if usize::try_from(file_scale).ok() != Some(*scale) {
                    return Err(node.error(format!(
                        "Avro decimal with scale {scale} cannot read {}: the scales differ",
                        node.describe()
                    )));
                }
            }
            match physical {
                INT32 => Conv::DecimalFromI32(*fixed),
                INT64 => Conv::DecimalFromI64(*fixed),
                _ => Conv::Decimal(*fixed),
            }
        }
        (Leaf::BigDecimal, BYTE_ARRAY) => Conv::BigDecimal,
        (Leaf::Uuid { .. }, BYTE_ARRAY) => Conv::UuidFromText,
        (Leaf::Uuid { .. }, FIXED_LEN_BYTE_ARRAY) if length == Some(16) => Conv::UuidFromBytes,
        (Leaf::Date, INT32) => Conv::I32(Value::Date),
        (Leaf::TimeMillis, INT32) => timed(Unit::Millis, Conv::I32(Value::TimeMillis))?,
        (Leaf::TimeMicros, INT64) => timed(Unit::Micros, Conv::I64(Value::TimeMicros))?,
        (Leaf::TimestampMillis, INT64) => timed(Unit::Millis, Conv::I64(Value::TimestampMillis))?,
        (Leaf::TimestampMicros, INT64) => timed(Unit::Micros, Conv::I64(Value::TimestampMicros))?,
        (Leaf::TimestampNanos, INT64) => timed(Unit::Nanos, Conv::I64(Value::TimestampNanos))?,
        (Leaf::LocalTimestampMillis, INT64) => timed(Unit::Millis, Conv::I64(Value::LocalTimestampMillis))?,
        (Leaf::LocalTimestampMicros, INT64) => timed(Unit::Micros, Conv::I64(Value::LocalTimestampMicros))?,
        (Leaf::LocalTimestampNanos, INT64) => timed(Unit::Nanos, Conv::I64(Value::LocalTimestampNanos))?,
        (Leaf::Duration, FIXED_LEN_BYTE_ARRAY) if length == Some(12) => Conv::Duration,
        _ => return Err(mismatch()),
    })
}

fn describe_leaf(leaf: &Leaf) -> String {
    match leaf {
        Leaf::Fixed(size) => format!("fixed({size})"),
        Leaf::Decimal { precision, scale, fixed: None } => format!("bytes decimal({precision},{scale})"),
        Leaf::Decimal { precision, scale, fixed: Some(size) } => format!("fixed({size}) decimal({precision},{scale})"),
        other => other.avro_name().to_owned(),
    }
}

/// Reads one value of a leaf; a null is an error (nullable types check
/// their presence before reading the leaf).
#[inline]
pub(crate) fn read(cursor: usize, conv: &Conv, src: &mut RecordSource) -> Result<Value> {
    let value = match conv {
        Conv::I32(f) => src.take_i32(cursor)?.map(f),
        Conv::I64(f) => src.take_i64(cursor)?.map(f),
        Conv::Bool => src.take_bool(cursor)?.map(Value::Boolean),
        Conv::F32(f) => src.take_f32(cursor)?.map(f),
        Conv::F64(f) => src.take_f64(cursor)?.map(f),
        Conv::String => match src.take_str(cursor)? {
            Some(Ok(s)) => Some(Value::String(s.to_owned())),
            Some(Err(e)) => return Err(src.value_error(cursor, format!("invalid UTF-8: {e}"))),
            None => None,
        },
        Conv::Bytes => bytes(src, cursor, |b| Ok(Value::Bytes(b.to_vec())))?,
        Conv::FixedFromInt96 => src.take_i96(cursor)?.map(|v| {
            let mut out = Vec::with_capacity(12);
            for word in v.data() {
                out.extend_from_slice(&word.to_le_bytes());
            }
            Value::Fixed(12, out)
        }),
        Conv::DecimalFromI32(fixed) => match src.take_i32(cursor)? {
            Some(v) => Some(decimal_value(src, cursor, &v.to_be_bytes(), *fixed)?),
            None => None,
        },
        Conv::DecimalFromI64(fixed) => match src.take_i64(cursor)? {
            Some(v) => Some(decimal_value(src, cursor, &v.to_be_bytes(), *fixed)?),
            None => None,
        },
        other => read_bytes_leaf(cursor, other, src)?,
    };
    value.ok_or_else(|| src.null_error(cursor))
}

fn decimal_value(src: &RecordSource, cursor: usize, be: &[u8], fixed: Option<usize>) -> Result<Value> {
    decimal_from(be, fixed).map(Value::Decimal).map_err(|e| src.value_error(cursor, e))
}

/// The byte-array leaves other than strings and bytes.
fn read_bytes_leaf(cursor: usize, conv: &Conv, src: &mut RecordSource) -> Result<Option<Value>> {
    match conv {
        Conv::Enum(symbols) => bytes(src, cursor, |b| match symbols.iter().position(|s| s.as_bytes() == b) {
            Some(i) => Ok(Value::Enum(i as u32, symbols[i].clone())),
            None => Err(format!("unknown enum symbol {:?}; expected one of {symbols:?}", String::from_utf8_lossy(b))),
        }),
        Conv::Fixed(size) => bytes(src, cursor, |b| {
            if b.len() == *size {
                Ok(Value::Fixed(*size, b.to_vec()))
            } else {
                Err(format!("{} bytes where Avro fixed({size}) needs {size}", b.len()))
            }
        }),
        Conv::Decimal(fixed) => bytes(src, cursor, |b| decimal_from(b, *fixed).map(Value::Decimal)),
        Conv::BigDecimal => bytes(src, cursor, |b| big_decimal_from(b).map(Value::BigDecimal)),
        Conv::UuidFromText => bytes(src, cursor, |b| {
            Uuid::try_parse_ascii(b)
                .map(Value::Uuid)
                .map_err(|e| format!("{:?} is not a UUID: {e}", String::from_utf8_lossy(b)))
        }),
        Conv::UuidFromBytes => bytes(src, cursor, |b| {
            Uuid::from_slice(b).map(Value::Uuid).map_err(|e| format!("{} bytes are not a UUID: {e}", b.len()))
        }),
        Conv::StringFromUuid => bytes(src, cursor, |b| {
            Uuid::from_slice(b)
                .map(|u| Value::String(u.hyphenated().to_string()))
                .map_err(|e| format!("{} bytes are not a UUID: {e}", b.len()))
        }),
        Conv::Duration => bytes(src, cursor, |b| {
            <[u8; 12]>::try_from(b)
                .map(|a| Value::Duration(Duration::from(a)))
                .map_err(|_| format!("{} bytes where a duration needs 12", b.len()))
        }),
        Conv::Bool
        | Conv::I32(_)
        | Conv::I64(_)
        | Conv::F32(_)
        | Conv::F64(_)
        | Conv::Bytes
        | Conv::String
        | Conv::FixedFromInt96
        | Conv::DecimalFromI32(_)
        | Conv::DecimalFromI64(_) => Err(src.bug(cursor, "conversion dispatched to the wrong reader")),
    }
}

/// Converts the next byte value with `f`; its error becomes a value error at the column.
#[inline]
fn bytes(
    src: &mut RecordSource,
    cursor: usize,
    f: impl FnOnce(&[u8]) -> Result<Value, String>,
) -> Result<Option<Value>> {
    match src.take_bytes(cursor)?.map(f) {
        Some(Ok(v)) => Ok(Some(v)),
        Some(Err(message)) => Err(src.value_error(cursor, message)),
        None => Ok(None),
    }
}
