//! `rust_decimal::Decimal` (feature `decimal`): DECIMAL(precision, scale)
//! with precision up to 28, the most digits a `Decimal` holds.

use parquet::basic::Repetition;
use parquet::schema::types::Type;
use rust_decimal::Decimal;

use super::decimal_column as column;

use super::{LeafPlan, ListElement};
use crate::assemble::{FileNode, RecordSource, Resolver};
use crate::error::Result;
use crate::field::{Accepts, ParquetRead, ParquetSchema, ParquetWrite};
use crate::options::FieldOptions;
use crate::shred::{ColumnSink, WriteAt};
use column::{DecimalConv, DecimalSource, Inexact, Limits, Storage, MAX_FIXED_LEN};

const LIMITS: Limits = Limits {
    name: "rust_decimal::Decimal",
    max_precision: 28,
    wider: "; use bigdecimal::BigDecimal (feature `bigdecimal`) for more",
};

/// 10^k, if an i128 holds it (k ≤ 38).
fn pow10(k: u64) -> Option<i128> {
    10i128.checked_pow(u32::try_from(k).ok()?)
}

/// `unscaled` × 10^shift exactly: multiplied up, or divided down only when
/// no digit is lost.
fn rescale(unscaled: i128, shift: i64) -> Result<i128, Inexact> {
    if unscaled == 0 || shift == 0 {
        return Ok(unscaled);
    }
    if shift > 0 {
        return pow10(shift.unsigned_abs()).and_then(|f| unscaled.checked_mul(f)).ok_or(Inexact::TooManyDigits);
    }
    // A nonzero i128 has at most 39 digits: a larger power never divides it.
    match pow10(shift.unsigned_abs()) {
        Some(f) if unscaled % f == 0 => Ok(unscaled / f),
        _ => Err(Inexact::FractionLost),
    }
}

/// `unscaled` × 10^shift with at most `precision` digits.
fn convert(unscaled: i128, shift: i64, precision: Option<u32>) -> Result<i128, Inexact> {
    let v = rescale(unscaled, shift)?;
    match precision {
        Some(p) if !fits(v, p) => Err(Inexact::TooManyDigits),
        _ => Ok(v),
    }
}

/// Whether `unscaled` has at most `precision` digits.
fn fits(unscaled: i128, precision: u32) -> bool {
    pow10(u64::from(precision)).is_none_or(|bound| unscaled.unsigned_abs() < bound.unsigned_abs())
}

/// A big-endian two's complement value as an i128, if it fits.
fn decode(bytes: &[u8]) -> Result<i128, String> {
    if bytes.is_empty() {
        return Err("empty DECIMAL value".to_owned());
    }
    let bytes = crate::decimal_bytes::minimal(bytes);
    let mut buf = [0; MAX_FIXED_LEN];
    match column::extend_to(bytes, 16, &mut buf).and_then(|b| <[u8; 16]>::try_from(b).ok()) {
        Some(b) => Ok(i128::from_be_bytes(b)),
        None => Err(format!("a {}-byte DECIMAL value has more digits than {} holds", bytes.len(), LIMITS.name)),
    }
}

/// Written as `DECIMAL(P, S)` from the field's
/// `#[parquet(decimal(precision = P, scale = S))]`, which writing requires:
/// INT32 for P ≤ 9, INT64 for P ≤ 18, else the shortest
/// FIXED_LEN_BYTE_ARRAY, unless the attribute forces a physical type.
///
/// Values are rescaled to S exactly: one with more fraction digits than S,
/// or more than P digits in all, is an error naming the column, never
/// rounded. Reading accepts DECIMAL columns of any physical type, precision
/// and scale, and converts every value exactly to the field's scale, with
/// the same errors; without a declared spec it keeps the file's scale.
///
/// ```
/// use magnolify_parquet::{FieldOptions, ParquetSchema, schema};
/// use parquet::basic::Repetition;
///
/// let opts = FieldOptions::new().decimal(12, 2);
/// let node = rust_decimal::Decimal::schema("price", Repetition::REQUIRED, &opts).unwrap();
/// assert_eq!(schema::to_text(&node).trim(), "REQUIRED INT64 price (DECIMAL(12,2));");
/// ```
impl ParquetSchema for Decimal {
    const LEAVES: usize = 1;
    type ReadPlan = LeafPlan<DecimalConv>;
    const ACCEPTS: Accepts = Accepts::DECIMAL;
    const NEEDS_DECIMAL: bool = true;

    fn schema(name: &str, repetition: Repetition, opts: &FieldOptions) -> Result<Type> {
        column::decimal_schema(name, repetition, opts, &LIMITS)
    }
}

impl ParquetWrite for Decimal {
    #[inline]
    fn write(&self, sink: &mut ColumnSink, at: WriteAt, opts: &FieldOptions) -> Result<()> {
        let spec = column::required_spec(opts, &LIMITS).map_err(|e| sink.value_error(at.leaf(), e))?;
        let storage = column::storage(&spec).map_err(|e| sink.value_error(at.leaf(), e))?;
        let (p, s) = (u32::from(spec.precision), u32::from(spec.scale));
        let shift = i64::from(s) - i64::from(self.scale());
        let unscaled = convert(self.mantissa(), shift, Some(p))
            .map_err(|e| sink.value_error(at.leaf(), format!("{self} {}", e.describe(Some(p), s, &LIMITS))))?;
        let overflow = || sink.value_error(at.leaf(), format!("{self} does not fit the DECIMAL({p}, {s}) column"));
        match storage {
            Storage::Int32 => {
                let v = i32::try_from(unscaled).map_err(|_| overflow())?;
                sink.push_i32(at, v)
            }
            Storage::Int64 => {
                let v = i64::try_from(unscaled).map_err(|_| overflow())?;
                sink.push_i64(at, v)
            }
            Storage::Fixed(len) => {
                let mut buf = [0; MAX_FIXED_LEN];
                let bytes = column::extend_to(&unscaled.to_be_bytes(), len, &mut buf).ok_or_else(overflow)?;
                sink.push_bytes(at, bytes)
            }
            Storage::Binary => sink.push_bytes(at, crate::decimal_bytes::minimal(&unscaled.to_be_bytes())),
        }
    }
}

impl ParquetRead for Decimal {
    fn resolve(node: &FileNode<'_>, opts: &FieldOptions, resolver: &mut Resolver<'_>) -> Result<Self::ReadPlan> {
        column::resolve_decimal(node, opts, resolver, &LIMITS)
    }

    #[inline]
    fn read(plan: &Self::ReadPlan, src: &mut RecordSource) -> Result<Self> {
        let c = plan.cursor;
        let conv = &plan.conv;
        let raw = match conv.source {
            DecimalSource::Int32 => src.take_i32(c)?.map(|v| Ok(i128::from(v))),
            DecimalSource::Int64 => src.take_i64(c)?.map(|v| Ok(i128::from(v))),
            DecimalSource::Bytes => src.take_byte_slice(c, decode)?,
        };
        let unscaled = match raw {
            Some(Ok(v)) => v,
            Some(Err(e)) => return Err(src.value_error(c, e)),
            None => return Err(src.null_error(c)),
        };
        let shown = || column::show(&unscaled.to_string(), conv.file_scale);
        let value = convert(unscaled, conv.shift(), conv.precision).map_err(|e| {
            src.value_error(c, format!("{} {}", shown(), e.describe(conv.precision, conv.scale, &LIMITS)))
        })?;
        Decimal::try_from_i128_with_scale(value, conv.scale)
            .map_err(|_| src.value_error(c, format!("{} has more digits than {} holds", shown(), LIMITS.name)))
    }
}

impl ListElement for Decimal {}
