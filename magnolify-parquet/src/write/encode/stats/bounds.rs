//! The min and max of values in the column's order, folded batch by
//! batch: vectorizable reductions for fixed-width values, copies of byte
//! arrays only when a bound changes.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::ops::Range;

use parquet::data_type::{AsBytes, Int96};

use crate::values::ByteBuffer;

use super::order::{f16_bits, f16_is_nan, int96_key, Order, TotalOrder};

/// The min and max folded in so far, typed like the column's values.
#[derive(Debug, Clone, Default)]
pub(super) enum Bounds {
    /// No value yet.
    #[default]
    Empty,
    Bool(bool, bool),
    I32(i32, i32),
    I64(i64, i64),
    Int96(Int96, Int96),
    F32(f32, f32),
    F64(f64, f64),
    Bytes(Vec<u8>, Vec<u8>),
}

/// The least and greatest `key` of `values`, `None` if there are none.
///
/// A plain fold of both reductions: the loop vectorizer turns it into
/// vector min/max instructions for integer keys.
#[inline(always)]
pub(super) fn min_max<T: Copy, K: Copy + Ord>(values: &[T], key: impl Fn(T) -> K) -> Option<(K, K)> {
    let first = key(*values.first()?);
    Some(values.iter().fold((first, first), |(min, max), &v| (min.min(key(v)), max.max(key(v)))))
}

/// The min and max of integers under `order`: the first of `[signed,
/// unsigned]` orders them as numbers, the second (the unsigned logical
/// types) as the unsigned numbers their bits are; any other order has none.
/// `sign` is the type's `MIN`, its sign bit.
#[inline(always)]
pub(super) fn int_min_max<T>(values: &[T], order: Order, [signed, unsigned]: [Order; 2], sign: T) -> Option<(T, T)>
where
    T: Copy + Ord + std::ops::BitXor<Output = T>,
{
    if order == signed {
        min_max(values, |v| v)
    } else if order == unsigned {
        // With its sign bit flipped, a value orders as a signed number the
        // way its bits order as an unsigned one.
        min_max(values, |v| v ^ sign).map(|(min, max)| (min ^ sign, max ^ sign))
    } else {
        None
    }
}

/// The min, max and NaN count of float `values`, `None` if there are none.
///
/// NaN is skipped (it folds in as the identity of each reduction, without a
/// branch, so that the loop vectorizes) unless all values are NaN: then, as
/// in the crate, the min and max are the least and greatest NaN in total
/// order.
#[inline(always)]
pub(super) fn float_min_max<F: TotalOrder>(values: &[F]) -> Option<(F, F, u64)> {
    let (min, max) = values.iter().fold((F::ABOVE, F::BELOW), |(min, max), &v| {
        let nan = v.nan();
        (min.min(if nan { F::ABOVE } else { v.key() }), max.max(if nan { F::BELOW } else { v.key() }))
    });
    let nans = values.iter().filter(|v| v.nan()).count();
    let (min, max) = if nans == values.len() { min_max(values, F::key)? } else { (min, max) };
    Some((F::from_key(min), F::from_key(max), nans as u64))
}

/// Whether `new` displaces `current` as the min (`wanted` is `Less`) or the
/// max (`Greater`), `new_vs_current` being their order.
///
/// A NaN never displaces a number and a number always displaces a NaN: a NaN
/// bound stands only while nothing else was seen. Otherwise only a strictly
/// smaller (greater) value displaces, so that of equal values the first is
/// kept (equal DECIMALs may differ in their bytes).
#[inline(always)]
pub(super) fn displaces(current_nan: bool, new_nan: bool, new_vs_current: Ordering, wanted: Ordering) -> bool {
    match (current_nan, new_nan) {
        (false, true) => false,
        (true, false) => true,
        _ => new_vs_current == wanted,
    }
}

/// Folds the bounds `lo`, `hi` of more values into `min`, `max`.
#[inline(always)]
pub(super) fn fold_pair<T: Copy>(
    (min, max): (&mut T, &mut T),
    (lo, hi): (T, T),
    cmp: impl Fn(T, T) -> Ordering,
    nan: impl Fn(T) -> bool,
) {
    if displaces(nan(*min), nan(lo), cmp(lo, *min), Ordering::Less) {
        *min = lo;
    }
    if displaces(nan(*max), nan(hi), cmp(hi, *max), Ordering::Greater) {
        *max = hi;
    }
}

/// Folds the bounds `lo`, `hi` of more byte array values into `min`, `max`,
/// copying a value only when it displaces a bound.
pub(super) fn fold_byte_pair(order: Order, min: &mut Vec<u8>, max: &mut Vec<u8>, lo: &[u8], hi: &[u8]) {
    let replace = |bound: &mut Vec<u8>, value: &[u8]| {
        bound.clear();
        bound.extend_from_slice(value);
    };
    if displaces(order.nan_bytes(min), order.nan_bytes(lo), order.cmp_bytes(lo, min), Ordering::Less) {
        replace(min, lo);
    }
    if displaces(order.nan_bytes(max), order.nan_bytes(hi), order.cmp_bytes(hi, max), Ordering::Greater) {
        replace(max, hi);
    }
}

/// Values `range` of a byte buffer, nothing if the range is not in it.
pub(super) fn byte_values(buf: &ByteBuffer, range: Range<usize>) -> impl Iterator<Item = &[u8]> {
    let ends = buf.ends();
    let start = match range.start.checked_sub(1) {
        Some(before) => ends.get(before).copied().unwrap_or(0),
        None => 0,
    };
    let data = buf.data();
    let mut from = start;
    ends.get(range).unwrap_or_default().iter().map(move |&end| {
        let value = data.get(from..end).unwrap_or_default();
        from = end;
        value
    })
}

/// Bytes of values `range` of a byte buffer (0 if the range is not in it).
pub(super) fn byte_span(buf: &ByteBuffer, range: Range<usize>) -> usize {
    let ends = buf.ends();
    let start = match range.start.checked_sub(1) {
        Some(before) => ends.get(before).copied(),
        None => Some(0),
    };
    let end = range.end.checked_sub(1).and_then(|last| ends.get(last)).copied();
    match (start, end) {
        (Some(start), Some(end)) if range.start < range.end => end.saturating_sub(start),
        _ => 0,
    }
}

impl Bounds {
    /// Folds `other`'s bounds (of values seen after these) into these.
    pub(super) fn fold(&mut self, order: Order, other: &Bounds) {
        match (&mut *self, other) {
            (_, Bounds::Empty) => {}
            (Bounds::Bool(min, max), &Bounds::Bool(lo, hi)) => {
                fold_pair((min, max), (lo, hi), |a, b| a.cmp(&b), |_| false)
            }
            (Bounds::I32(min, max), &Bounds::I32(lo, hi)) => {
                fold_pair((min, max), (lo, hi), |a, b| order.cmp_i32(a, b), |_| false)
            }
            (Bounds::I64(min, max), &Bounds::I64(lo, hi)) => {
                fold_pair((min, max), (lo, hi), |a, b| order.cmp_i64(a, b), |_| false)
            }
            (Bounds::Int96(min, max), &Bounds::Int96(lo, hi)) => {
                fold_pair((min, max), (lo, hi), |a, b| int96_key(&a).cmp(&int96_key(&b)), |_| false)
            }
            (Bounds::F32(min, max), &Bounds::F32(lo, hi)) => {
                fold_pair((min, max), (lo, hi), |a: f32, b| a.total_cmp(&b), f32::is_nan)
            }
            (Bounds::F64(min, max), &Bounds::F64(lo, hi)) => {
                fold_pair((min, max), (lo, hi), |a: f64, b| a.total_cmp(&b), f64::is_nan)
            }
            (Bounds::Bytes(min, max), Bounds::Bytes(lo, hi)) => fold_byte_pair(order, min, max, lo, hi),
            // The first values: their bounds are the bounds.
            (bounds, other) => bounds.clone_from(other),
        }
    }

    /// The min and the max compared with `other`'s, in the column's order
    /// (NaNs included, by total order), `None` if either has no values.
    pub(super) fn compare(&self, order: Order, other: &Bounds) -> Option<(Ordering, Ordering)> {
        Some(match (self, other) {
            (Bounds::Bool(a, b), Bounds::Bool(c, d)) => (a.cmp(c), b.cmp(d)),
            (&Bounds::I32(a, b), &Bounds::I32(c, d)) => (order.cmp_i32(a, c), order.cmp_i32(b, d)),
            (&Bounds::I64(a, b), &Bounds::I64(c, d)) => (order.cmp_i64(a, c), order.cmp_i64(b, d)),
            (Bounds::Int96(a, b), Bounds::Int96(c, d)) => {
                (int96_key(a).cmp(&int96_key(c)), int96_key(b).cmp(&int96_key(d)))
            }
            (Bounds::F32(a, b), Bounds::F32(c, d)) => (a.total_cmp(c), b.total_cmp(d)),
            (Bounds::F64(a, b), Bounds::F64(c, d)) => (a.total_cmp(c), b.total_cmp(d)),
            (Bounds::Bytes(a, b), Bounds::Bytes(c, d)) => (order.cmp_bytes(a, c), order.cmp_bytes(b, d)),
            _ => return None,
        })
    }

    /// These bounds as written, by the type-defined order's rules for
    /// floats (FLOAT, DOUBLE and FLOAT16), which the footer declares for
    /// them (see `file::column_orders`): a NaN is never a bound (NaN-only
    /// values have none), and a zero min is `-0.0`, a zero max `+0.0`, so
    /// that a reader comparing numbers keeps both zeros. The bounds are
    /// folded in total order, NaN aside, so they are the values' numeric
    /// extremes.
    pub(super) fn type_defined(&self, order: Order) -> Cow<'_, Bounds> {
        const F16_ZERO: [u8; 2] = [0x00, 0x00];
        const F16_NEGATIVE_ZERO: [u8; 2] = [0x00, 0x80];
        let f16_zero = |v: &[u8]| f16_bits(v) & 0x7FFF == 0;
        Cow::Owned(match self {
            Bounds::F32(min, max) if min.is_nan() || max.is_nan() => Bounds::Empty,
            &Bounds::F32(min, max) => {
                Bounds::F32(if min == 0.0 { -0.0 } else { min }, if max == 0.0 { 0.0 } else { max })
            }
            Bounds::F64(min, max) if min.is_nan() || max.is_nan() => Bounds::Empty,
            &Bounds::F64(min, max) => {
                Bounds::F64(if min == 0.0 { -0.0 } else { min }, if max == 0.0 { 0.0 } else { max })
            }
            Bounds::Bytes(min, max) if order == Order::F16 => {
                match (f16_is_nan(min) || f16_is_nan(max), f16_zero(min), f16_zero(max)) {
                    (true, _, _) => Bounds::Empty,
                    (false, false, false) => return Cow::Borrowed(self),
                    (false, min_zero, max_zero) => Bounds::Bytes(
                        if min_zero { F16_NEGATIVE_ZERO.to_vec() } else { min.clone() },
                        if max_zero { F16_ZERO.to_vec() } else { max.clone() },
                    ),
                }
            }
            _ => return Cow::Borrowed(self),
        })
    }

    /// The min and max as the crate writes them into a column index: the
    /// bytes of their PLAIN encoding (without a length for byte arrays).
    pub(super) fn as_bytes(&self) -> Option<(&[u8], &[u8])> {
        Some(match self {
            Bounds::Empty => return None,
            Bounds::Bool(a, b) => (a.as_bytes(), b.as_bytes()),
            Bounds::I32(a, b) => (a.as_bytes(), b.as_bytes()),
            Bounds::I64(a, b) => (a.as_bytes(), b.as_bytes()),
            Bounds::Int96(a, b) => (a.as_bytes(), b.as_bytes()),
            Bounds::F32(a, b) => (a.as_bytes(), b.as_bytes()),
            Bounds::F64(a, b) => (a.as_bytes(), b.as_bytes()),
            Bounds::Bytes(a, b) => (a.as_slice(), b.as_slice()),
        })
    }
}
