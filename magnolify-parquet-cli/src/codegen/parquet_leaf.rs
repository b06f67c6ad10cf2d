//! The leaves of the Parquet front-end: a primitive column's Rust type by
//! its annotation, then its physical type, as the runtime resolves them;
//! the notes on what the type does not keep of the column (an annotation,
//! a time zone flag, a physical width), which a write would lose; and the
//! placeholders of the columns no type reads.

use magnolify_parquet::convert::{Annotation, FileNode};
use parquet::basic::Type as Physical;
use parquet::schema::types::Type;

use super::common::{self, FieldCx};
use super::model::{DecimalPhysical, RustType, Scalar, TimeUnit};
use super::names::comment_text;

/// Arrays up to this length implement `Default`, which a `skip` field needs.
const MAX_DEFAULT_ARRAY_LEN: usize = 32;

/// The schema text of a leaf, for notes: `REQUIRED FIXED_LEN_BYTE_ARRAY (12) d (INTERVAL)`.
fn describe(node: &FileNode<'_>) -> String {
    comment_text(&node.describe())
}

/// The type of a leaf, by its annotation, then its physical type; what it
/// does not keep of the column is noted.
pub fn leaf(node: &FileNode<'_>, cx: &mut FieldCx) -> RustType {
    let Type::PrimitiveType { physical_type, type_length, .. } = node.ty() else {
        return RustType::Scalar(Scalar::Bool);
    };
    let (physical, length) = (*physical_type, *type_length);
    let unsupported = |cx: &mut FieldCx, why: &str| {
        cx.unsupported(format!("no magnolify-parquet type reads `{}` ({why})", describe(node)));
        RustType::Scalar(placeholder(physical, length))
    };
    let annotation = Annotation::of(node.ty());
    let bytes_column = matches!(physical, Physical::BYTE_ARRAY | Physical::FIXED_LEN_BYTE_ARRAY);
    let scalar = match annotation {
        Annotation::None => return plain(physical, length, cx),
        Annotation::Unknown => {
            // Option<T> reads an UNKNOWN column as None without looking at T.
            let placeholder = placeholder(physical, length);
            cx.notes.push(format!(
                "Always null (UNKNOWN): reads as None. Not kept: the UNKNOWN annotation (written back as nulls of \
                 `{}`).",
                placeholder.path()
            ));
            return RustType::Option(Box::new(RustType::Scalar(placeholder)));
        }
        Annotation::Integer { bits, signed } => match int_scalar(i32::from(bits), signed, physical) {
            // No width is lost: parquet refuses INTEGER(<64) on INT64 when it builds the schema.
            Some(s) => s,
            None => return unsupported(cx, "an integer width the physical type does not hold"),
        },
        Annotation::String if physical == Physical::BYTE_ARRAY => {
            cx.texts.push(false);
            Scalar::String
        }
        Annotation::Enum if physical == Physical::BYTE_ARRAY => {
            cx.texts.push(false);
            cx.notes.push(
                "ENUM: the Parquet schema does not list its symbols, so it reads as String. Not kept: the ENUM \
                 annotation (written back as STRING). With the writer's Avro schema, `codegen --avro` generates \
                 an enum."
                    .to_owned(),
            );
            Scalar::String
        }
        // Kept by `#[parquet(json)]` where all the field's text is JSON.
        Annotation::Json if physical == Physical::BYTE_ARRAY => {
            cx.texts.push(true);
            Scalar::String
        }
        Annotation::Bson if physical == Physical::BYTE_ARRAY => {
            cx.notes.push("Not kept: the BSON annotation (read as its bytes, written back unannotated).".to_owned());
            Scalar::Bytes
        }
        Annotation::Uuid if physical == Physical::FIXED_LEN_BYTE_ARRAY && length == 16 => Scalar::Uuid,
        Annotation::Float16 if physical == Physical::FIXED_LEN_BYTE_ARRAY && length == 2 => Scalar::F16,
        Annotation::Date if physical == Physical::INT32 => Scalar::Date,
        Annotation::Time { unit, utc } => match time_unit(unit, physical) {
            Some(unit) => {
                if utc {
                    cx.notes.push(
                        "Not kept: isAdjustedToUTC=true (NaiveTime is a time of day in no time zone; written back \
                         as TIME with isAdjustedToUTC=false)."
                            .to_owned(),
                    );
                }
                cx.units.push(unit);
                Scalar::Time
            }
            None => return unsupported(cx, "a TIME unit its physical type does not hold"),
        },
        Annotation::Timestamp { unit, utc } if physical == Physical::INT64 => {
            cx.units.push(unit);
            if utc {
                Scalar::UtcTimestamp
            } else {
                Scalar::LocalTimestamp
            }
        }
        Annotation::Decimal { precision, scale } => return decimal(precision, scale, (physical, length), node, cx),
        Annotation::Interval => return unsupported(cx, "INTERVAL is not supported"),
        // The runtime's byte types read byte columns of any non-numeric annotation.
        Annotation::Float16 => return unsupported(cx, "FLOAT16 on other than FIXED_LEN_BYTE_ARRAY(2)"),
        _ if bytes_column => {
            cx.notes.push(format!("Read as raw bytes, written back unannotated: `{}`.", describe(node)));
            common::bytes(fixed_length(physical, length), cx)
        }
        Annotation::Other(_) => return unsupported(cx, "a logical type with no Rust counterpart"),
        _ => return unsupported(cx, "an annotation its physical type does not take"),
    };
    RustType::Scalar(scalar)
}

/// The length of a FIXED_LEN_BYTE_ARRAY column; `None` for other columns.
fn fixed_length(physical: Physical, length: i32) -> Option<usize> {
    (physical == Physical::FIXED_LEN_BYTE_ARRAY).then(|| usize::try_from(length).ok()).flatten()
}

/// A column with no annotation.
fn plain(physical: Physical, length: i32, cx: &mut FieldCx) -> RustType {
    let scalar = match physical {
        Physical::BOOLEAN => Scalar::Bool,
        Physical::INT32 => Scalar::I32,
        Physical::INT64 => Scalar::I64,
        Physical::INT96 => {
            // INT96 carries no unit and reads exactly to the nanosecond into
            // any unit; `nanos` keeps every digit when written back.
            cx.notes.push(
                "INT96 timestamp (Impala/Spark legacy): read to the nanosecond; written back as INT64 \
                 TIMESTAMP(NANOS), which holds 1677-09-21 to 2262-04-11 only."
                    .to_owned(),
            );
            cx.units.push(TimeUnit::Nanos);
            Scalar::LocalTimestamp
        }
        Physical::FLOAT => Scalar::F32,
        Physical::DOUBLE => Scalar::F64,
        Physical::BYTE_ARRAY | Physical::FIXED_LEN_BYTE_ARRAY => common::bytes(fixed_length(physical, length), cx),
    };
    RustType::Scalar(scalar)
}

/// A type for a skipped column: anything with `Default` will do, one close
/// to the column documents it best.
fn placeholder(physical: Physical, length: i32) -> Scalar {
    match physical {
        Physical::BOOLEAN => Scalar::Bool,
        Physical::INT32 => Scalar::I32,
        Physical::INT64 => Scalar::I64,
        Physical::FLOAT => Scalar::F32,
        Physical::DOUBLE => Scalar::F64,
        Physical::INT96 => Scalar::FixedBytes(12),
        Physical::FIXED_LEN_BYTE_ARRAY => match usize::try_from(length) {
            Ok(n) if n <= MAX_DEFAULT_ARRAY_LEN => Scalar::FixedBytes(n),
            _ => Scalar::Bytes,
        },
        Physical::BYTE_ARRAY => Scalar::Bytes,
    }
}

/// The type of a skipped field: `Default` is all it needs, so arrays longer
/// than 32 (which lack it) become `Vec<u8>`.
pub fn skip_placeholder(ty: RustType) -> RustType {
    match ty {
        RustType::Scalar(Scalar::FixedBytes(n)) if n > MAX_DEFAULT_ARRAY_LEN => RustType::Scalar(Scalar::Bytes),
        RustType::Option(t) => RustType::Option(Box::new(skip_placeholder(*t))),
        RustType::Vec(t) => RustType::Vec(Box::new(skip_placeholder(*t))),
        RustType::Map(k, v) => RustType::Map(Box::new(skip_placeholder(*k)), Box::new(skip_placeholder(*v))),
        other => other,
    }
}

/// The integer type for `INTEGER(width, signed)` on `physical`, as the
/// runtime's integer columns accept it.
fn int_scalar(width: i32, signed: bool, physical: Physical) -> Option<Scalar> {
    let bits = match physical {
        Physical::INT32 => 32,
        Physical::INT64 => 64,
        _ => return None,
    };
    if width > bits {
        return None;
    }
    Some(match (width, signed) {
        (8, true) => Scalar::I8,
        (16, true) => Scalar::I16,
        (32, true) => Scalar::I32,
        (64, true) => Scalar::I64,
        (8, false) => Scalar::U8,
        (16, false) => Scalar::U16,
        (32, false) => Scalar::U32,
        (64, false) => Scalar::U64,
        _ => return None,
    })
}

/// The unit of a TIME column, when its physical type is the one the unit
/// takes (INT32 for millis, INT64 for micros and nanos).
fn time_unit(unit: TimeUnit, physical: Physical) -> Option<TimeUnit> {
    match (unit, physical) {
        (TimeUnit::Millis, Physical::INT32) | (TimeUnit::Micros | TimeUnit::Nanos, Physical::INT64) => Some(unit),
        _ => None,
    }
}

/// A DECIMAL column of `(physical, length)`: its Rust type and `decimal`
/// attribute (see [`common::decimal`]), keeping the file's physical type.
fn decimal(
    precision: i32,
    scale: i32,
    (physical, length): (Physical, i32),
    node: &FileNode<'_>,
    cx: &mut FieldCx,
) -> RustType {
    let physical_kind = match physical {
        Physical::INT32 => DecimalPhysical::Int32,
        Physical::INT64 => DecimalPhysical::Int64,
        Physical::FIXED_LEN_BYTE_ARRAY => DecimalPhysical::Fixed,
        Physical::BYTE_ARRAY => DecimalPhysical::Binary,
        _ => {
            cx.unsupported(format!("DECIMAL cannot be stored in `{}`", describe(node)));
            return RustType::Scalar(placeholder(physical, 0));
        }
    };
    let checked = match (u32::try_from(precision), u32::try_from(scale)) {
        (Ok(p), Ok(s)) => common::decimal(p, s, physical_kind, fixed_length(physical, length), cx),
        _ => Err("its DECIMAL precision or scale is negative".to_owned()),
    };
    checked.unwrap_or_else(|why| {
        cx.unsupported(format!("`{}`: {why}", describe(node)));
        RustType::Scalar(placeholder(physical, 0))
    })
}
