//! The crate's float statistics as this library writes them: by the
//! type-defined order's rules (no NaN bound, a zero min `-0.0` and max
//! `+0.0`; `Bounds::type_defined`), where the crate keeps the IEEE 754
//! total order's. What the harness expects of our writes, from theirs.

use parquet::basic::{LogicalType, Type as PhysicalType};
use parquet::data_type::FixedLenByteArray;
use parquet::file::statistics::{Statistics, ValueStatistics};
use parquet::schema::types::ColumnDescriptor;

use super::compare::IndexView;
use crate::write::encode::stats::order::f16_is_nan;

/// The float types, by their bytes.
#[derive(Clone, Copy)]
enum Float {
    F32,
    F64,
    F16,
}

fn float_of(descr: &ColumnDescriptor) -> Option<Float> {
    match descr.physical_type() {
        PhysicalType::FLOAT => Some(Float::F32),
        PhysicalType::DOUBLE => Some(Float::F64),
        PhysicalType::FIXED_LEN_BYTE_ARRAY if descr.logical_type_ref() == Some(&LogicalType::Float16) => {
            Some(Float::F16)
        }
        _ => None,
    }
}

impl Float {
    fn nan(self, v: &[u8]) -> bool {
        match self {
            Float::F32 => f32::from_le_bytes(v.try_into().expect("4 bytes")).is_nan(),
            Float::F64 => f64::from_le_bytes(v.try_into().expect("8 bytes")).is_nan(),
            Float::F16 => f16_is_nan(v),
        }
    }

    /// `v` widened if it is a zero: to `-0.0` as a min, `+0.0` as a max.
    fn widened(self, v: &[u8], min: bool) -> Vec<u8> {
        let zero = match self {
            Float::F32 => f32::from_le_bytes(v.try_into().expect("4 bytes")) == 0.0,
            Float::F64 => f64::from_le_bytes(v.try_into().expect("8 bytes")) == 0.0,
            Float::F16 => u16::from_le_bytes(v.try_into().expect("2 bytes")) & 0x7FFF == 0,
        };
        let sign = if min && zero { 0x80 } else { 0 };
        match (zero, self) {
            (false, _) => v.to_vec(),
            (true, Float::F32) => vec![0, 0, 0, sign],
            (true, Float::F64) => vec![0, 0, 0, 0, 0, 0, 0, sign],
            (true, Float::F16) => vec![0, sign],
        }
    }

    /// The bounds `min`, `max` as written: `None` for NaN bounds.
    fn bounds(self, min: &[u8], max: &[u8]) -> Option<(Vec<u8>, Vec<u8>)> {
        (!self.nan(min) && !self.nan(max)).then(|| (self.widened(min, true), self.widened(max, false)))
    }
}

/// The statistics `theirs` of a column as we write them.
pub(crate) fn expected_stats(descr: &ColumnDescriptor, theirs: Option<&Statistics>) -> Option<Statistics> {
    let (Some(float), Some(stats)) = (float_of(descr), theirs) else { return theirs.cloned() };
    let bounds = match (stats.min_bytes_opt(), stats.max_bytes_opt()) {
        (Some(min), Some(max)) => float.bounds(min, max),
        _ => None,
    };
    let (min, max) = bounds.unzip();
    fn rebuilt<T>(s: &ValueStatistics<T>, deprecated: bool, min: Option<T>, max: Option<T>) -> ValueStatistics<T> {
        ValueStatistics::new(min, max, s.distinct_count(), s.null_count_opt(), deprecated)
            .with_nan_count(s.nan_count_opt())
            .with_backwards_compatible_min_max(s.is_min_max_backwards_compatible())
    }
    let deprecated = stats.is_min_max_deprecated();
    let f32_of = |b: Vec<u8>| f32::from_le_bytes(b.try_into().expect("4 bytes"));
    let f64_of = |b: Vec<u8>| f64::from_le_bytes(b.try_into().expect("8 bytes"));
    Some(match stats {
        Statistics::Float(s) => Statistics::Float(rebuilt(s, deprecated, min.map(f32_of), max.map(f32_of))),
        Statistics::Double(s) => Statistics::Double(rebuilt(s, deprecated, min.map(f64_of), max.map(f64_of))),
        Statistics::FixedLenByteArray(s) => {
            let fixed = |b: Vec<u8>| FixedLenByteArray::from(b);
            Statistics::FixedLenByteArray(rebuilt(s, deprecated, min.map(fixed), max.map(fixed)))
        }
        other => other.clone(),
    })
}

/// The column index `theirs` (as a view) of a column as we write it: none
/// when a page that is not a null page has NaN bounds.
pub(crate) fn expected_index(descr: &ColumnDescriptor, theirs: Option<IndexView>) -> Option<IndexView> {
    let (Some(float), Some((order, nulls, nans, pages))) = (float_of(descr), theirs.clone()) else { return theirs };
    let pages = pages
        .into_iter()
        .map(|(null, min, max, rep, def)| match null {
            true => Some((null, min, max, rep, def)),
            false => float.bounds(&min, &max).map(|(min, max)| (null, min, max, rep, def)),
        })
        .collect::<Option<Vec<_>>>()?;
    Some((order, nulls, nans, pages))
}
