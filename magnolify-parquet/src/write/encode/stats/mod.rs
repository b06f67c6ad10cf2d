//! Statistics of a column chunk and of its pages, and the chunk's column
//! index, computed from the dense values as the `parquet` crate's
//! `ColumnWriter` computes them (its `column/writer/mod.rs`, `encoder.rs` and
//! `min_max.rs`), so that the files we write carry the same statistics.
//!
//! The crate's rules, in short:
//! - values compare in the column's order: signed or unsigned integers,
//!   `false < true`, INT96 by day then nanosecond, floats (and FLOAT16) in
//!   IEEE 754 total order (`-0.0 < +0.0`, no normalization), DECIMAL byte
//!   arrays as signed big-endian numbers, other byte arrays unsigned
//!   lexicographically; INTERVAL (and the geospatial types) get no min/max;
//! - a NaN is a float's min or max only when nothing but NaN was seen.
//!
//! One rule is ours: float bounds are written by the type-defined order's
//! rules, which the footer declares for float columns (`file::column_orders`)
//! and every reader knows, where the crate writes the IEEE 754 total
//! order's, which readers before parquet-format 2.12 ignore: no NaN bound
//! (a chunk or page of NaN only has none, and a column index with such a
//! page is not written), a zero min `-0.0` and a zero max `+0.0`
//! (`Bounds::type_defined`). The crate's rules, further:
//! - among equal values (DECIMALs of different lengths) the first is kept;
//! - binary min/max are cut to a length (the max then incremented) and marked
//!   inexact when cut, except DECIMAL and FLOAT16.

mod bounds;
mod column_index;
/// Also the order the tests' generators sort values by.
pub(super) mod order;
#[cfg(test)]
mod tests;
mod truncate;

use std::cmp::Ordering;
use std::ops::Range;

use parquet::basic::Type as PhysicalType;
use parquet::data_type::{ByteArray, FixedLenByteArray, Int96};
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::statistics::{Statistics, ValueStatistics};
use parquet::schema::types::ColumnDescPtr;

use crate::values::{ByteBuffer, ColumnValues};

use bounds::{byte_span, byte_values, displaces, float_min_max, fold_byte_pair, int_min_max, Bounds};
use order::{decimal_cmp, f16_is_nan, f16_key, int96_key, Kind, Order, TotalOrder};
use truncate::{lower_bound, upper_bound};

pub(crate) use column_index::ColumnIndexWriter;

/// Min, max and null count of the values of a page or a chunk, in the
/// column's sort order; also the NaN count of float columns and the bytes of
/// BYTE_ARRAY values.
///
/// A page's stats are folded in with [`update`](Self::update) and
/// [`add_nulls`](Self::add_nulls), merged into the chunk's with
/// [`merge`](Self::merge), then [`clear`](Self::clear)ed for the next page.
#[derive(Debug, Clone)]
pub(crate) struct ValueStats {
    /// The column: its path resolves the per-column properties.
    descr: ColumnDescPtr,
    kind: Kind,
    bounds: Bounds,
    /// Levels below the maximum definition level.
    nulls: u64,
    /// NaN values, for float columns only, and only once a value was seen
    /// (the crate writes no NaN count for a float chunk of nulls).
    nans: Option<u64>,
    /// Bytes of the BYTE_ARRAY values (without length prefixes).
    byte_array_bytes: i64,
    /// Buffers of byte array bounds kept across [`clear`](Self::clear).
    spare: (Vec<u8>, Vec<u8>),
}

impl ValueStats {
    /// Empty stats of a column: its physical type and its logical or
    /// converted type decide the order.
    pub(crate) fn new(descr: &ColumnDescPtr) -> Self {
        ValueStats {
            descr: descr.clone(),
            kind: Kind::of(descr),
            bounds: Bounds::Empty,
            nulls: 0,
            nans: None,
            byte_array_bytes: 0,
            spare: Default::default(),
        }
    }

    /// Folds in `values[range]` (values of the column's type; others, and a
    /// range out of the values, are ignored).
    pub(crate) fn update(&mut self, values: &ColumnValues, range: Range<usize>) {
        match values {
            ColumnValues::Bool(v) => self.update_bool(v.get(range).unwrap_or_default()),
            ColumnValues::I32(v) => self.update_i32(v.get(range).unwrap_or_default()),
            ColumnValues::I64(v) => self.update_i64(v.get(range).unwrap_or_default()),
            ColumnValues::I96(v) => self.update_int96(v.get(range).unwrap_or_default()),
            ColumnValues::F32(v) => self.update_float(v.get(range).unwrap_or_default(), Order::F32, Bounds::F32),
            ColumnValues::F64(v) => self.update_float(v.get(range).unwrap_or_default(), Order::F64, Bounds::F64),
            ColumnValues::Bytes(b) => {
                self.byte_array_bytes = self.byte_array_bytes.saturating_add(byte_span(b, range.clone()) as i64);
                self.update_bytes(b, range);
            }
            ColumnValues::Fixed(b, _) => self.update_bytes(b, range),
        }
    }

    /// Counts `n` more nulls (levels below the maximum definition level).
    pub(crate) fn add_nulls(&mut self, n: u64) {
        self.nulls = self.nulls.saturating_add(n);
    }

    /// Folds a page's stats into these (the chunk's), the pages in order.
    pub(crate) fn merge(&mut self, page: &ValueStats) {
        self.bounds.fold(self.kind.order, &page.bounds);
        self.nulls = self.nulls.saturating_add(page.nulls);
        if let Some(nans) = page.nans {
            let total = self.nans.get_or_insert(0);
            *total = total.saturating_add(nans);
        }
        self.byte_array_bytes = self.byte_array_bytes.saturating_add(page.byte_array_bytes);
    }

    /// Empties these stats for the next page, keeping their buffers.
    pub(crate) fn clear(&mut self) {
        if let Bounds::Bytes(min, max) = std::mem::take(&mut self.bounds) {
            self.spare = (min, max);
        }
        self.nulls = 0;
        self.nans = None;
        self.byte_array_bytes = 0;
    }

    /// The chunk statistics exactly as the crate's `ColumnWriter` puts them
    /// into `ColumnChunkMetaData` for these props and this column (`None`
    /// where it writes none: statistics disabled).
    pub(crate) fn chunk_statistics(&self, props: &WriterProperties) -> Option<Statistics> {
        if props.statistics_enabled(self.descr.path()) == EnabledStatistics::None {
            return None;
        }
        Some(self.statistics(props, self.kind.signed))
    }

    /// A page's statistics exactly as the crate writes them into the data
    /// page header: only with page statistics and
    /// `write_page_header_statistics`, and only for a page with a min and max.
    pub(crate) fn page_statistics(&self, props: &WriterProperties) -> Option<Statistics> {
        let path = self.descr.path();
        let wanted =
            props.statistics_enabled(path) == EnabledStatistics::Page && props.write_page_header_statistics(path);
        if !wanted || matches!(self.bounds, Bounds::Empty) {
            return None;
        }
        Some(self.statistics(props, false))
    }

    /// The `unencoded_byte_array_data_bytes` of these values, for the offset
    /// index (a page's) or `ColumnChunkMetaData` (a chunk's): the crate
    /// counts them for BYTE_ARRAY columns unless statistics are disabled.
    /// (It writes none for a chunk without pages.)
    pub(crate) fn unencoded_byte_array_data_bytes(&self, props: &WriterProperties) -> Option<i64> {
        let counted = self.kind.physical == PhysicalType::BYTE_ARRAY
            && props.statistics_enabled(self.descr.path()) != EnabledStatistics::None;
        counted.then_some(self.byte_array_bytes)
    }

    fn update_bool(&mut self, values: &[bool]) {
        if self.kind.order != Order::Bool || values.is_empty() {
            return;
        }
        let (min, max) = (!values.contains(&false), values.contains(&true));
        self.bounds.fold(Order::Bool, &Bounds::Bool(min, max));
    }

    fn update_i32(&mut self, values: &[i32]) {
        if let Some((min, max)) = int_min_max(values, self.kind.order, [Order::I32, Order::U32], i32::MIN) {
            self.bounds.fold(self.kind.order, &Bounds::I32(min, max));
        }
    }

    fn update_i64(&mut self, values: &[i64]) {
        if let Some((min, max)) = int_min_max(values, self.kind.order, [Order::I64, Order::U64], i64::MIN) {
            self.bounds.fold(self.kind.order, &Bounds::I64(min, max));
        }
    }

    fn update_int96(&mut self, values: &[Int96]) {
        let (Order::Int96, Some(first)) = (self.kind.order, values.first()) else {
            return;
        };
        let (mut min, mut max) = (first, first);
        for v in values {
            let key = int96_key(v);
            if key < int96_key(min) {
                min = v;
            }
            if key > int96_key(max) {
                max = v;
            }
        }
        self.bounds.fold(Order::Int96, &Bounds::Int96(*min, *max));
    }

    fn update_float<F: TotalOrder>(&mut self, values: &[F], order: Order, bounds: impl Fn(F, F) -> Bounds) {
        if self.kind.order != order {
            return;
        }
        if let Some((min, max, nans)) = float_min_max(values) {
            let total = self.nans.get_or_insert(0);
            *total = total.saturating_add(nans);
            self.bounds.fold(order, &bounds(min, max));
        }
    }

    fn update_bytes(&mut self, buf: &ByteBuffer, range: Range<usize>) {
        match self.kind.order {
            // A value whose first byte lies strictly between the bounds' first
            // bytes lies strictly between them: most values of a page, each
            // then passed without its two comparisons (two calls to `memcmp`).
            Order::Bytes => self.scan_bytes(buf, range, |a, b| a.cmp(b), |_| false, |v, min, max| {
                matches!((v.first(), min.first(), max.first()), (Some(v), Some(lo), Some(hi)) if lo < v && v < hi)
            }),
            Order::Decimal => self.scan_bytes(buf, range, decimal_cmp, |_| false, |_, _, _| false),
            Order::F16 => {
                self.scan_bytes(buf, range, |a, b| f16_key(a).cmp(&f16_key(b)), f16_is_nan, |_, _, _| false)
            }
            _ => {}
        }
    }

    /// Finds the bounds of byte array values by reference, then copies at
    /// most the two values that displace the bounds so far. `inside(v, min,
    /// max)`: a quick test that `v` lies strictly between the bounds (and is
    /// no NaN), so that it displaces neither; false when it cannot tell.
    #[inline(always)]
    fn scan_bytes(
        &mut self,
        buf: &ByteBuffer,
        range: Range<usize>,
        cmp: impl Fn(&[u8], &[u8]) -> Ordering,
        nan: impl Fn(&[u8]) -> bool,
        inside: impl Fn(&[u8], &[u8], &[u8]) -> bool,
    ) {
        let mut values = byte_values(buf, range);
        let Some(first) = values.next() else {
            return;
        };
        let (mut min, mut max) = (first, first);
        let mut nans = u64::from(nan(first));
        for v in values {
            let v_nan = nan(v);
            nans += u64::from(v_nan);
            if inside(v, min, max) {
                continue;
            }
            if displaces(nan(min), v_nan, cmp(v, min), Ordering::Less) {
                min = v;
            }
            if displaces(nan(max), v_nan, cmp(v, max), Ordering::Greater) {
                max = v;
            }
        }
        if self.kind.floating {
            let total = self.nans.get_or_insert(0);
            *total = total.saturating_add(nans);
        }
        self.fold_bytes(min, max);
    }

    fn fold_bytes(&mut self, lo: &[u8], hi: &[u8]) {
        let order = self.kind.order;
        match &mut self.bounds {
            Bounds::Bytes(min, max) => fold_byte_pair(order, min, max, lo, hi),
            bounds => {
                let (mut min, mut max) = std::mem::take(&mut self.spare);
                min.clear();
                min.extend_from_slice(lo);
                max.clear();
                max.extend_from_slice(hi);
                *bounds = Bounds::Bytes(min, max);
            }
        }
    }

    /// These values' statistics as the crate builds them; `backwards_compatible`
    /// (a chunk's: a signed sort order; a page's: never) also fills the
    /// deprecated min/max fields. Byte array bounds are then cut to
    /// `statistics_truncate_length`.
    fn statistics(&self, props: &WriterProperties, backwards_compatible: bool) -> Statistics {
        let b = backwards_compatible;
        let bounds = self.bounds.type_defined(self.kind.order);
        match (self.kind.physical, &*bounds) {
            (PhysicalType::BOOLEAN, &Bounds::Bool(min, max)) => Statistics::Boolean(self.typed(Some((min, max)), b)),
            (PhysicalType::BOOLEAN, _) => Statistics::Boolean(self.typed(None, b)),
            (PhysicalType::INT32, &Bounds::I32(min, max)) => Statistics::Int32(self.typed(Some((min, max)), b)),
            (PhysicalType::INT32, _) => Statistics::Int32(self.typed(None, b)),
            (PhysicalType::INT64, &Bounds::I64(min, max)) => Statistics::Int64(self.typed(Some((min, max)), b)),
            (PhysicalType::INT64, _) => Statistics::Int64(self.typed(None, b)),
            (PhysicalType::INT96, &Bounds::Int96(min, max)) => Statistics::Int96(self.typed(Some((min, max)), b)),
            (PhysicalType::INT96, _) => Statistics::Int96(self.typed(None, b)),
            (PhysicalType::FLOAT, &Bounds::F32(min, max)) => Statistics::Float(self.typed(Some((min, max)), b)),
            (PhysicalType::FLOAT, _) => Statistics::Float(self.typed(None, b)),
            (PhysicalType::DOUBLE, &Bounds::F64(min, max)) => Statistics::Double(self.typed(Some((min, max)), b)),
            (PhysicalType::DOUBLE, _) => Statistics::Double(self.typed(None, b)),
            (PhysicalType::BYTE_ARRAY, bounds) => Statistics::ByteArray(self.binary::<ByteArray>(bounds, props, b)),
            (PhysicalType::FIXED_LEN_BYTE_ARRAY, bounds) => {
                Statistics::FixedLenByteArray(self.binary::<FixedLenByteArray>(bounds, props, b))
            }
        }
    }

    fn typed<T>(&self, bounds: Option<(T, T)>, backwards_compatible: bool) -> ValueStatistics<T> {
        let (min, max) = bounds.unzip();
        ValueStatistics::new(min, max, None, Some(self.nulls), false)
            .with_nan_count(self.nans)
            .with_backwards_compatible_min_max(backwards_compatible)
    }

    /// Byte array statistics. Cut bounds are rebuilt as the crate rebuilds
    /// them (`truncate_statistics`): the deprecated fields follow the sort
    /// order, and the exactness flags say whether a bound was cut.
    fn binary<T: From<Vec<u8>>>(
        &self,
        bounds: &Bounds,
        props: &WriterProperties,
        backwards_compatible: bool,
    ) -> ValueStatistics<T> {
        let Bounds::Bytes(min, max) = bounds else {
            return self.typed(None, backwards_compatible);
        };
        if !self.kind.truncatable {
            return self.typed(Some((T::from(min.clone()), T::from(max.clone()))), backwards_compatible);
        }
        let limit = props.statistics_truncate_length();
        let (min, min_exact) = lower_bound(min, limit, self.kind.utf8);
        let (max, max_exact) = upper_bound(max, limit, self.kind.utf8);
        ValueStatistics::new(Some(T::from(min)), Some(T::from(max)), None, Some(self.nulls), self.kind.signed)
            .with_max_is_exact(max_exact)
            .with_min_is_exact(min_exact)
    }
}
