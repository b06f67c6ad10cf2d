//! What the two decimal types (`rust_decimal::Decimal`, `bigdecimal::BigDecimal`)
//! share: checking a field's `decimal(precision, scale)`, the DECIMAL schema
//! node it writes, writing a value to it, the file column it reads, and two's
//! complement bytes.

use parquet::basic::{LogicalType, Repetition, Type as PhysicalType};
use parquet::schema::types::Type;

use crate::assemble::{FileNode, RecordSource, Resolver};
use crate::error::{Error, Result};
use crate::logical::Annotation;
use crate::options::{DecimalPhysical, DecimalSpec, FieldOptions};
use crate::schema;
use crate::shred::{ColumnSink, WriteAt};
use crate::types::{not_repeated, LeafPlan};

/// The schema and read halves of a decimal type whose limits are
/// `$limits`: a DECIMAL column of the field's `decimal(precision, scale)`,
/// resolved into a `DecimalConv` and read by `$read`.
macro_rules! decimal_schema_read {
    ($(#[$doc:meta])* $t:ty, limits: $limits:expr, read: $read:path) => {
        const _: () = {
            use crate::assemble::{FileNode, RecordSource, Resolver};
            use crate::error::Result;
            use crate::field::{Accepts, ParquetRead, ParquetSchema};
            use crate::options::FieldOptions;
            use crate::types::decimal_column::{decimal_schema, resolve_decimal, DecimalConv};
            use crate::types::{LeafPlan, ListElement};
            use parquet::{basic::Repetition, schema::types::Type};

            $(#[$doc])*
            impl ParquetSchema for $t {
                const LEAVES: usize = 1;
                type ReadPlan = LeafPlan<DecimalConv>;
                const ACCEPTS: Accepts = Accepts::DECIMAL;
                const NEEDS_DECIMAL: bool = true;

                fn schema(name: &str, repetition: Repetition, opts: &FieldOptions) -> Result<Type> {
                    decimal_schema(name, repetition, opts, $limits)
                }
            }

            impl<'de> ParquetRead<'de> for $t {
                fn resolve(node: &FileNode<'_>, opts: &FieldOptions, resolver: &mut Resolver<'_>) -> Result<Self::ReadPlan> {
                    resolve_decimal(node, opts, resolver, $limits)
                }

                #[inline]
                fn read(plan: &Self::ReadPlan, src: &mut RecordSource<'de>) -> Result<Self> {
                    $read(plan, src)
                }
            }

            impl ListElement for $t {}
        };
    };
}

/// Digits a FIXED_LEN_BYTE_ARRAY(n) holds, for n = 1..=32:
/// `floor(log10(2^(8n-1) - 1))`. 32 bytes hold the 76 digits of the largest
/// precision supported.
const FIXED_DIGITS: [u32; 32] = [
    2, 4, 6, 9, 11, 14, 16, 18, 21, 23, 26, 28, 31, 33, 35, 38, 40, 43, 45, 47, 50, 52, 55, 57, 59, 62, 64, 67, 69, 71,
    74, 76,
];

/// The widest FIXED_LEN_BYTE_ARRAY a decimal is ever written to.
pub(crate) const MAX_FIXED_LEN: usize = FIXED_DIGITS.len();

/// The physical form of a DECIMAL column written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Storage {
    Int32,
    Int64,
    /// FIXED_LEN_BYTE_ARRAY of this many bytes.
    Fixed(usize),
    Binary,
}

/// What a Rust decimal type can hold.
pub(crate) struct Limits {
    /// The type's name, for messages.
    pub(crate) name: &'static str,
    /// The most digits it holds.
    pub(crate) max_precision: u32,
    /// What to use for more digits (empty when nothing holds more).
    pub(crate) wider: &'static str,
}

/// Why a value has no exact form at the field's scale and precision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Inexact {
    /// More digits than the precision (or the Rust type) holds.
    TooManyDigits,
    /// Nonzero digits below the scale.
    FractionLost,
}

impl Inexact {
    /// How a value of the type of `limits` misses DECIMAL(`p`, `s`) (`p`
    /// unknown: the type's own bound), for the end of a message.
    pub(crate) fn describe(self, p: Option<u32>, s: u32, limits: &Limits) -> String {
        match (self, p) {
            (Inexact::TooManyDigits, Some(p)) => format!("does not fit DECIMAL({p}, {s}): too many digits"),
            (Inexact::TooManyDigits, None) => format!("has more digits than {} holds", limits.name),
            (Inexact::FractionLost, _) => format!("has more than {s} fraction digits: converting it would drop some"),
        }
    }
}

/// The shortest FIXED_LEN_BYTE_ARRAY that holds `precision` digits.
fn fixed_len(precision: u32) -> Option<usize> {
    FIXED_DIGITS.iter().position(|&d| d >= precision).map(|i| i + 1)
}

/// The field's DECIMAL(precision, scale), checked against what the type
/// holds; `None` when the field declares none.
pub(crate) fn spec(opts: &FieldOptions, limits: &Limits) -> Result<Option<DecimalSpec>, String> {
    let Some(spec) = opts.decimal else { return Ok(None) };
    let (p, s) = (u32::from(spec.precision), u32::from(spec.scale));
    if p == 0 || p > limits.max_precision {
        return Err(format!(
            "DECIMAL({p}, {s}): {} holds 1 to {} digits{}",
            limits.name, limits.max_precision, limits.wider
        ));
    }
    if s > p {
        return Err(format!("DECIMAL({p}, {s}): the scale cannot exceed the precision"));
    }
    Ok(Some(spec))
}

/// The field's spec, required for writing.
pub(crate) fn required_spec(opts: &FieldOptions, limits: &Limits) -> Result<DecimalSpec, String> {
    spec(opts, limits)?.ok_or_else(|| {
        format!("{} needs its precision and scale: add #[parquet(decimal(precision = P, scale = S))]", limits.name)
    })
}

/// The physical type a spec writes: by precision (Auto) or forced, checked
/// against the digits the physical type holds.
pub(crate) fn storage(spec: &DecimalSpec) -> Result<Storage, String> {
    let p = u32::from(spec.precision);
    let fixed = || {
        fixed_len(p).map(Storage::Fixed).ok_or_else(|| format!("DECIMAL precision {p} exceeds the 76 digits supported"))
    };
    let forced = |max: u32, kind: &str, storage: Storage| {
        if p <= max {
            Ok(storage)
        } else {
            Err(format!(
                "{kind} holds at most {max} digits, DECIMAL({p}, {}) needs more: choose Fixed or Binary",
                spec.scale
            ))
        }
    };
    match spec.physical {
        DecimalPhysical::Auto if p <= 9 => Ok(Storage::Int32),
        DecimalPhysical::Auto if p <= 18 => Ok(Storage::Int64),
        DecimalPhysical::Auto | DecimalPhysical::Fixed => fixed(),
        DecimalPhysical::Int32 => forced(9, "INT32", Storage::Int32),
        DecimalPhysical::Int64 => forced(18, "INT64", Storage::Int64),
        DecimalPhysical::Binary => Ok(Storage::Binary),
    }
}

/// The DECIMAL schema node of a field.
pub(crate) fn decimal_schema(name: &str, repetition: Repetition, opts: &FieldOptions, limits: &Limits) -> Result<Type> {
    let spec = required_spec(opts, limits).map_err(|e| Error::schema(name, e))?;
    let storage = storage(&spec).map_err(|e| Error::schema(name, e))?;
    let (p, s) = (i32::from(spec.precision), i32::from(spec.scale));
    let (physical, length) = match storage {
        Storage::Int32 => (PhysicalType::INT32, None),
        Storage::Int64 => (PhysicalType::INT64, None),
        Storage::Fixed(n) => (PhysicalType::FIXED_LEN_BYTE_ARRAY, Some(n)),
        Storage::Binary => (PhysicalType::BYTE_ARRAY, None),
    };
    schema::primitive_with(name, repetition, physical, Some(LogicalType::decimal(s, p)), |b| {
        let b = b.with_precision(p).with_scale(s);
        match length {
            // At most MAX_FIXED_LEN, so the conversion cannot fail.
            Some(n) => b.with_length(i32::try_from(n).unwrap_or(i32::MAX)),
            None => b,
        }
    })
}

/// Where the unscaled values of a file's DECIMAL column come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecimalSource {
    /// INT32.
    Int32,
    /// INT64.
    Int64,
    /// Big-endian two's complement in FIXED_LEN_BYTE_ARRAY or BYTE_ARRAY.
    Bytes,
}

/// How to read a file's DECIMAL column into a field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DecimalConv {
    /// The column's values.
    pub source: DecimalSource,
    /// The file's scale, for messages.
    pub file_scale: u32,
    /// The field's scale (the file's when the field declares none).
    pub scale: u32,
    /// The field's precision, checked on every value (none: the type's own limit).
    pub precision: Option<u32>,
}

impl DecimalConv {
    /// Field scale minus file scale: the power of ten unscaled file values
    /// are multiplied by (divided by, exactly, when negative).
    pub fn shift(&self) -> i64 {
        i64::from(self.scale) - i64::from(self.file_scale)
    }
}

/// Resolves a DECIMAL column of any physical type (INT32, INT64,
/// FIXED_LEN_BYTE_ARRAY, BYTE_ARRAY), annotated with the logical type or the
/// legacy converted type. Values are checked one by one: any file precision
/// and scale are accepted as long as each value fits the field exactly.
pub(crate) fn resolve_decimal(
    node: &FileNode<'_>,
    opts: &FieldOptions,
    resolver: &mut Resolver<'_>,
    limits: &Limits,
) -> Result<LeafPlan<DecimalConv>> {
    not_repeated(node, limits.name)?;
    let spec = spec(opts, limits).map_err(|e| node.error(e))?;
    let (cursor, descr) = resolver.leaf(node)?;
    let (file_precision, file_scale) = match Annotation::of(node.ty()) {
        Annotation::Decimal { precision, scale } => (precision, scale),
        _ => return Err(node.mismatch(format_args!("`{}` reads DECIMAL columns", limits.name))),
    };
    let source = match descr.physical_type() {
        PhysicalType::INT32 => DecimalSource::Int32,
        PhysicalType::INT64 => DecimalSource::Int64,
        PhysicalType::FIXED_LEN_BYTE_ARRAY | PhysicalType::BYTE_ARRAY => DecimalSource::Bytes,
        other => {
            return Err(Error::damaged(
                node.location(),
                format!("DECIMAL cannot be stored in {other} ({})", node.describe()),
            ))
        }
    };
    let file_scale = match u32::try_from(file_scale) {
        Ok(s) if file_precision >= 1 => s,
        _ => {
            return Err(Error::damaged(
                node.location(),
                format!("invalid DECIMAL({file_precision}, {file_scale}) ({})", node.describe()),
            ))
        }
    };
    let (scale, precision) = match spec {
        Some(spec) => (u32::from(spec.scale), Some(u32::from(spec.precision))),
        // No declared spec: keep the file's scale, if the type can.
        None if file_scale <= limits.max_precision => (file_scale, None),
        None => {
            return Err(node.error(format!(
                "DECIMAL({file_precision}, {file_scale}) has more fraction digits than {} holds ({}): declare \
                 #[parquet(decimal(precision = P, scale = S))] to read it at a smaller scale{}",
                limits.name, limits.max_precision, limits.wider
            )))
        }
    };
    Ok(LeafPlan { cursor, conv: DecimalConv { source, file_scale, scale, precision } })
}

/// An unscaled decimal, in the integer type of one Rust decimal type, and
/// the forms the DECIMAL storages take of it.
pub(crate) trait Unscaled {
    /// Big-endian two's complement bytes, of any length.
    type Bytes: AsRef<[u8]>;

    fn to_i32(&self) -> Option<i32>;
    fn to_i64(&self) -> Option<i64>;
    fn be_bytes(&self) -> Self::Bytes;
}

impl Unscaled for i128 {
    type Bytes = [u8; 16];

    fn to_i32(&self) -> Option<i32> {
        i32::try_from(*self).ok()
    }

    fn to_i64(&self) -> Option<i64> {
        i64::try_from(*self).ok()
    }

    fn be_bytes(&self) -> [u8; 16] {
        self.to_be_bytes()
    }
}

/// Writes `value` to a DECIMAL column of the field's required
/// `decimal(precision, scale)`: `unscaled` gives its unscaled integer at
/// precision `p` and scale `s`, or why it has none. Errors show `value` and
/// name the column; nothing is ever rounded.
#[inline]
pub(crate) fn write_decimal<U: Unscaled>(
    sink: &mut ColumnSink,
    at: WriteAt,
    opts: &FieldOptions,
    limits: &Limits,
    value: &dyn std::fmt::Display,
    unscaled: impl FnOnce(u32, u32) -> Result<U, Inexact>,
) -> Result<()> {
    let spec = required_spec(opts, limits).map_err(|e| sink.value_error(at.leaf(), e))?;
    let storage = storage(&spec).map_err(|e| sink.value_error(at.leaf(), e))?;
    let (p, s) = (u32::from(spec.precision), u32::from(spec.scale));
    let unscaled = unscaled(p, s)
        .map_err(|e| sink.value_error(at.leaf(), format!("{value} {}", e.describe(Some(p), s, limits))))?;
    let overflow = || sink.value_error(at.leaf(), format!("{value} does not fit the DECIMAL({p}, {s}) column"));
    match storage {
        Storage::Int32 => {
            let v = unscaled.to_i32().ok_or_else(overflow)?;
            sink.push_i32(at, v)
        }
        Storage::Int64 => {
            let v = unscaled.to_i64().ok_or_else(overflow)?;
            sink.push_i64(at, v)
        }
        Storage::Fixed(len) => {
            let mut buf = [0; MAX_FIXED_LEN];
            let bytes = extend_to(unscaled.be_bytes().as_ref(), len, &mut buf).ok_or_else(overflow)?;
            sink.push_bytes(at, bytes)
        }
        Storage::Binary => sink.push_bytes(at, crate::decimal_bytes::minimal(unscaled.be_bytes().as_ref())),
    }
}

/// Reads the unscaled integer of one value of a resolved DECIMAL column, in
/// the file's scale: INT32 and INT64 values widened, byte values (never
/// empty) converted by `decode`, which says why one does not fit.
#[inline]
pub(crate) fn read_unscaled<U: From<i64>>(
    plan: &LeafPlan<DecimalConv>,
    src: &mut RecordSource,
    decode: impl FnOnce(&[u8]) -> Result<U, String>,
) -> Result<U> {
    let c = plan.cursor;
    let raw = match plan.conv.source {
        DecimalSource::Int32 => src.take_i32(c)?.map(|v| Ok(U::from(i64::from(v)))),
        DecimalSource::Int64 => src.take_i64(c)?.map(|v| Ok(U::from(v))),
        DecimalSource::Bytes => src.take_bytes(c)?.map(|b| match b {
            [] => Err("empty DECIMAL value".to_owned()),
            b => decode(b),
        }),
    };
    match raw {
        Some(Ok(v)) => Ok(v),
        Some(Err(e)) => Err(src.value_error(c, e)),
        None => Err(src.null_error(c)),
    }
}

/// Big-endian two's complement `bytes` sign-extended to exactly `len`
/// bytes in `buf`; `None` when the number needs more.
pub(crate) fn extend_to<'b>(bytes: &[u8], len: usize, buf: &'b mut [u8; MAX_FIXED_LEN]) -> Option<&'b [u8]> {
    let out = buf.get_mut(..len)?;
    crate::decimal_bytes::fit(bytes, out).then_some(out)
}

/// A decimal for messages: `unscaled` (with its sign) × 10^-scale in plain
/// notation, or `…E-scale` for absurd scales.
pub(crate) fn show(unscaled: &str, scale: u32) -> String {
    let (sign, digits) = match unscaled.strip_prefix('-') {
        Some(d) => ("-", d),
        None => ("", unscaled),
    };
    let scale = scale as usize;
    if scale == 0 {
        return unscaled.to_owned();
    }
    if scale > 100 {
        return format!("{unscaled}E-{scale}");
    }
    let digits = format!("{digits:0>width$}", width = scale + 1);
    let (int, frac) = digits.split_at(digits.len() - scale);
    format!("{sign}{int}.{frac}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_lengths_match_the_format_table() {
        assert_eq!(fixed_len(1), Some(1));
        assert_eq!(fixed_len(9), Some(4));
        assert_eq!(fixed_len(10), Some(5));
        assert_eq!(fixed_len(18), Some(8));
        assert_eq!(fixed_len(28), Some(12));
        assert_eq!(fixed_len(38), Some(16));
        assert_eq!(fixed_len(76), Some(32));
        assert_eq!(fixed_len(77), None);
    }

    #[test]
    fn two_complement_is_sign_extended() {
        let mut buf = [0; MAX_FIXED_LEN];
        assert_eq!(extend_to(&[0x80], 3, &mut buf), Some(&[0xff, 0xff, 0x80][..]));
        assert_eq!(extend_to(&[0, 0, 0, 1], 2, &mut buf), Some(&[0, 1][..]));
        assert_eq!(extend_to(&[1, 0, 0], 2, &mut buf), None);
        assert_eq!(extend_to(&[1], MAX_FIXED_LEN + 1, &mut buf), None);
    }

    #[test]
    fn shows_plain_decimals() {
        assert_eq!(show("-12345", 2), "-123.45");
        assert_eq!(show("5", 3), "0.005");
        assert_eq!(show("-5", 3), "-0.005");
        assert_eq!(show("7", 0), "7");
    }
}
