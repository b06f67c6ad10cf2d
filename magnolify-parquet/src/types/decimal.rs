//! `rust_decimal::Decimal` (feature `decimal`): DECIMAL(precision, scale)
//! with precision up to 28, the most digits a `Decimal` holds.

use rust_decimal::Decimal;

use super::decimal_column as column;

use super::LeafPlan;
use crate::assemble::RecordSource;
use crate::error::Result;
use crate::field::ParquetWrite;
use crate::options::FieldOptions;
use crate::shred::{ColumnSink, WriteAt};
use column::{DecimalConv, Inexact, Limits, MAX_FIXED_LEN};

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
    let bytes = crate::decimal_bytes::minimal(bytes);
    let mut buf = [0; MAX_FIXED_LEN];
    match column::extend_to(bytes, 16, &mut buf).and_then(|b| <[u8; 16]>::try_from(b).ok()) {
        Some(b) => Ok(i128::from_be_bytes(b)),
        None => Err(format!("a {}-byte DECIMAL value has more digits than {} holds", bytes.len(), LIMITS.name)),
    }
}

decimal_schema_read! {
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
Decimal, limits: &LIMITS, read: read_value
}

impl ParquetWrite for Decimal {
    #[inline]
    fn write(&self, sink: &mut ColumnSink, at: WriteAt, opts: &FieldOptions) -> Result<()> {
        column::write_decimal(sink, at, opts, &LIMITS, self, |p, s| {
            convert(self.mantissa(), i64::from(s) - i64::from(self.scale()), Some(p))
        })
    }
}

/// Reads one value of a resolved DECIMAL column at the field's scale.
#[inline]
fn read_value(plan: &LeafPlan<DecimalConv>, src: &mut RecordSource) -> Result<Decimal> {
    let (c, conv) = (plan.cursor, &plan.conv);
    let unscaled = column::read_unscaled(plan, src, decode)?;
    let shown = || column::show(&unscaled.to_string(), conv.file_scale);
    let value = convert(unscaled, conv.shift(), conv.precision)
        .map_err(|e| src.value_error(c, format!("{} {}", shown(), e.describe(conv.precision, conv.scale, &LIMITS))))?;
    Decimal::try_from_i128_with_scale(value, conv.scale)
        .map_err(|_| src.value_error(c, format!("{} has more digits than {} holds", shown(), LIMITS.name)))
}
