//! One leaf column of `cat`'s plan, and the JSON of its values by
//! annotation, in the text of [`crate::json`].

use magnolify_parquet::convert::{Annotation, FileNode, RecordSource, Resolver};
use magnolify_parquet::{Result, TimeUnit};
use parquet::basic::{Repetition, Type as Physical};
use parquet::schema::types::Type;
use serde_json::Value;

use super::bytes_format::BytesFormat;
use crate::json;

/// Largest DECIMAL scale printed: a scale is a count of digits written for
/// every value, and a damaged footer can claim billions.
const MAX_SCALE: i32 = 1000;

/// Longest unscaled decimal value converted to digits, in bytes (about
/// 2,400 digits): conversion time grows with the square of the length.
const MAX_DECIMAL_BYTES: usize = 1024;

/// One column and how its values are written.
#[derive(Debug)]
pub(super) struct Leaf {
    cursor: usize,
    physical: Physical,
    kind: Kind,
    /// Optional in the file: a null is `null`, not an error.
    nullable: bool,
}

/// How a leaf's values are written, by annotation.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    /// The physical value as it is (BOOLEAN, signed integers, FLOAT, DOUBLE).
    Plain,
    /// INTEGER(_, false): the bits as unsigned.
    Unsigned,
    Date,
    Time(TimeUnit),
    Timestamp(TimeUnit, bool),
    /// DECIMAL with this scale, on any physical type.
    Decimal(i32),
    /// STRING, ENUM, JSON: UTF-8 text.
    Text,
    /// UUID: 32 hex digits.
    Uuid,
    Float16,
    /// Other bytes: hex or base64.
    Bytes,
}

pub(super) fn leaf(node: &FileNode<'_>, r: &mut Resolver<'_>) -> Result<Leaf> {
    let (cursor, descr) = r.leaf(&node.as_required())?;
    let physical = descr.physical_type();
    let length = match node.ty() {
        Type::PrimitiveType { type_length, .. } => *type_length,
        Type::GroupType { .. } => 0,
    };
    use Physical::*;
    let kind = match (Annotation::of(node.ty()), physical) {
        (_, BOOLEAN | INT96 | FLOAT | DOUBLE) => Kind::Plain,
        (Annotation::Integer { signed: false, .. }, INT32 | INT64) => Kind::Unsigned,
        (Annotation::Date, INT32) => Kind::Date,
        (Annotation::Time { unit, .. }, INT32 | INT64) => Kind::Time(unit),
        (Annotation::Timestamp { unit, utc }, INT64) => Kind::Timestamp(unit, utc),
        (Annotation::Decimal { scale, .. }, _) => {
            if !(0..=MAX_SCALE).contains(&scale) {
                return Err(node.error(format!("DECIMAL scale {scale} outside 0..={MAX_SCALE}: {}", node.describe())));
            }
            Kind::Decimal(scale)
        }
        (_, INT32 | INT64) => Kind::Plain,
        (a, BYTE_ARRAY) if a.is_text() => Kind::Text,
        (Annotation::Uuid, FIXED_LEN_BYTE_ARRAY) if length == 16 => Kind::Uuid,
        (Annotation::Float16, FIXED_LEN_BYTE_ARRAY) if length == 2 => Kind::Float16,
        (_, BYTE_ARRAY | FIXED_LEN_BYTE_ARRAY) => Kind::Bytes,
    };
    Ok(Leaf { cursor, physical, kind, nullable: node.repetition() == Repetition::OPTIONAL })
}

impl Leaf {
    /// The next value of the column.
    pub(super) fn read(&self, src: &mut RecordSource, bytes: BytesFormat) -> Result<Value> {
        let c = self.cursor;
        let value = match self.physical {
            Physical::BOOLEAN => src.take_bool(c)?.map(Value::Bool),
            Physical::INT32 => match src.take_i32(c)? {
                Some(v) if self.kind == Kind::Unsigned => Some(Value::from(v as u32)),
                Some(v) => Some(self.integer(src, i64::from(v))?),
                None => None,
            },
            Physical::INT64 => match src.take_i64(c)? {
                Some(v) if self.kind == Kind::Unsigned => Some(Value::from(v as u64)),
                Some(v) => Some(self.integer(src, v)?),
                None => None,
            },
            Physical::INT96 => src.take_i96(c)?.map(|v| {
                let [a, b, c] = v.data() else { return Value::Null };
                Value::from(json::datetime_text(json::int96_nanos([*a, *b, *c]), 9, false))
            }),
            Physical::FLOAT => src.take_f32(c)?.map(|v| json::float(f64::from(v))),
            Physical::DOUBLE => src.take_f64(c)?.map(json::float),
            Physical::BYTE_ARRAY | Physical::FIXED_LEN_BYTE_ARRAY => {
                match src.take_bytes(c)?.map(|b| self.bytes(b, bytes)) {
                    Some(Ok(v)) => Some(v),
                    Some(Err(message)) => return Err(src.value_error(c, message)),
                    None => None,
                }
            }
        };
        match value {
            Some(v) => Ok(v),
            None if self.nullable => Ok(Value::Null),
            None => Err(src.null_error(c)),
        }
    }

    /// An INT32 or INT64 value (widened) by annotation.
    fn integer(&self, src: &RecordSource, v: i64) -> Result<Value> {
        Ok(match self.kind {
            Kind::Date => Value::from(json::date_text(v)),
            Kind::Time(unit) => {
                let nanos = i128::from(v) * json::nanos_per(unit);
                if !(0..json::NANOS_PER_DAY).contains(&nanos) {
                    return Err(src.value_error(self.cursor, format!("{v} is not a time of day in {unit:?}")));
                }
                Value::from(json::time_text(nanos as u64, json::time_digits(unit)))
            }
            Kind::Timestamp(unit, utc) => {
                Value::from(json::datetime_text(i128::from(v) * json::nanos_per(unit), json::time_digits(unit), utc))
            }
            Kind::Decimal(scale) => Value::from(json::decimal_text(&v.to_string(), i64::from(scale))),
            _ => Value::from(v),
        })
    }

    /// A BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY value by annotation.
    fn bytes(&self, b: &[u8], format: BytesFormat) -> std::result::Result<Value, String> {
        Ok(match self.kind {
            Kind::Text => match std::str::from_utf8(b) {
                Ok(s) => Value::from(s),
                Err(e) => return Err(format!("invalid UTF-8 in a text column: {e}")),
            },
            Kind::Decimal(scale) => {
                if b.len() > MAX_DECIMAL_BYTES {
                    return Err(format!("a decimal of {} bytes (at most {MAX_DECIMAL_BYTES} are printed)", b.len()));
                }
                Value::from(json::decimal_text(&json::unscaled_text(b), i64::from(scale)))
            }
            Kind::Uuid => Value::from(json::hex(b)),
            Kind::Float16 => match b {
                [lo, hi] => json::float(magnolify_parquet::convert::float16_to_f64(u16::from_le_bytes([*lo, *hi]))),
                _ => return Err(format!("{} bytes in a FLOAT16 column", b.len())),
            },
            _ => Value::from(match format {
                BytesFormat::Hex => json::hex(b),
                BytesFormat::Base64 => json::base64(b),
            }),
        })
    }
}
