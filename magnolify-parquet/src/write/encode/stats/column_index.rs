//! The column index of one chunk, page by page.

use std::cmp::Ordering;

use parquet::basic::BoundaryOrder;
use parquet::file::metadata::{ColumnIndexBuilder, LevelHistogram};
use parquet::file::page_index::column_index::ColumnIndexMetaData;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::schema::types::ColumnDescPtr;

use super::bounds::Bounds;
use super::order::Kind;
use super::truncate::{lower_bound, upper_bound};
use super::ValueStats;

/// The column index of one chunk, page by page, as the crate builds it: min
/// and max cut to `column_index_truncate_length`, null pages, NaN counts of
/// float columns, level histograms, the boundary order, and no index at all
/// when a page that is not a null page has no min and max.
pub(crate) struct ColumnIndexWriter {
    pub(super) kind: Kind,
    pub(super) builder: ColumnIndexBuilder,
    /// `column_index_truncate_length`.
    pub(super) limit: Option<usize>,
    pub(super) max_rep_level: i16,
    pub(super) max_def_level: i16,
    /// Whether the bounds of the pages so far ascend, descend.
    pub(super) ascending: bool,
    pub(super) descending: bool,
    /// The uncut bounds of the last page that is not a null page.
    pub(super) last: Bounds,
    /// The pages' level histograms, one after the other.
    pub(super) rep_histograms: Option<Vec<i64>>,
    pub(super) def_histograms: Option<Vec<i64>>,
}

impl ColumnIndexWriter {
    /// A column index for the column, `None` when the props write none for
    /// it (statistics are not [`EnabledStatistics::Page`]).
    pub(crate) fn new(descr: &ColumnDescPtr, props: &WriterProperties) -> Option<Self> {
        if props.statistics_enabled(descr.path()) != EnabledStatistics::Page {
            return None;
        }
        Some(ColumnIndexWriter {
            kind: Kind::of(descr),
            builder: ColumnIndexBuilder::new(descr.physical_type()),
            limit: props.column_index_truncate_length(),
            max_rep_level: descr.max_rep_level(),
            max_def_level: descr.max_def_level(),
            ascending: true,
            descending: true,
            last: Bounds::Empty,
            rep_histograms: None,
            def_histograms: None,
        })
    }

    /// Appends a page: its value stats, its rows (records) and the
    /// histograms of its repetition and definition levels (level `i` at
    /// index `i`; ignored for a column without such levels, as the crate
    /// keeps none then).
    pub(crate) fn append_page(
        &mut self,
        page: &ValueStats,
        rows: u64,
        rep_histogram: Option<&[i64]>,
        def_histogram: Option<&[i64]>,
    ) {
        if !self.builder.valid() {
            return;
        }
        let nan_count = self.kind.floating.then(|| i64::try_from(page.nans.unwrap_or(0)).unwrap_or(i64::MAX));
        let null_count = page.nulls as i64;
        // The crate's test of a null page is as many nulls as rows. In a
        // repeated column a page with values can pass it (a null element and
        // an empty list in two rows): it is then a null page all the same.
        if rows == page.nulls {
            self.builder.append(true, Vec::new(), Vec::new(), null_count, nan_count);
        } else if let Some((min, max)) = page.bounds.type_defined(self.kind.order).as_bytes() {
            // In the folded (total) order: pages that ascend in it ascend
            // as numbers too, whatever their zeros.
            self.track_boundary_order(&page.bounds);
            let (min, max) = if self.kind.truncatable {
                (lower_bound(min, self.limit, self.kind.utf8).0, upper_bound(max, self.limit, self.kind.utf8).0)
            } else {
                (min.to_vec(), max.to_vec())
            };
            self.builder.append(false, min, max, null_count, nan_count);
        } else {
            // No min and max (INTERVAL; or, in a repeated column, a row of
            // null elements only, which fails the null page test): the crate
            // writes no column index for the chunk.
            self.builder.to_invalid();
            return;
        }
        if self.max_rep_level > 0 {
            let histograms = self.rep_histograms.get_or_insert_with(Vec::new);
            histograms.extend_from_slice(rep_histogram.unwrap_or_default());
        }
        if self.max_def_level > 0 {
            let histograms = self.def_histograms.get_or_insert_with(Vec::new);
            histograms.extend_from_slice(def_histogram.unwrap_or_default());
        }
    }

    /// The order of the pages' bounds is broken by a min or max below
    /// (above) the last page's, compared uncut.
    pub(super) fn track_boundary_order(&mut self, bounds: &Bounds) {
        if let Some((min, max)) = self.last.compare(self.kind.order, bounds) {
            if min == Ordering::Greater || max == Ordering::Greater {
                self.ascending = false;
            }
            if min == Ordering::Less || max == Ordering::Less {
                self.descending = false;
            }
        }
        self.last.clone_from(bounds);
    }

    /// The column index, `None` if a page made it invalid.
    pub(crate) fn finish(mut self) -> Option<ColumnIndexMetaData> {
        if !self.builder.valid() {
            return None;
        }
        // Equal bounds throughout (or no bounds at all) count as ascending.
        let order = match (self.ascending, self.descending) {
            (true, _) => BoundaryOrder::ASCENDING,
            (false, true) => BoundaryOrder::DESCENDING,
            (false, false) => BoundaryOrder::UNORDERED,
        };
        self.builder.set_boundary_order(order);
        let rep = self.rep_histograms.take().map(LevelHistogram::from);
        let def = self.def_histograms.take().map(LevelHistogram::from);
        self.builder.append_histograms(&rep, &def);
        self.builder.build().ok()
    }
}
