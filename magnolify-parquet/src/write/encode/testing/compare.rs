//! The two writes of a case compared field by field (statistics, column
//! index, bloom filter, byte counts, histograms), and what runs of cases
//! covered.

use parquet::basic::{BoundaryOrder, Type as PhysicalType};
use parquet::bloom_filter::Sbbf;
use parquet::data_type::AsBytes;
use parquet::file::page_index::column_index::ColumnIndexMetaData as Index;
use parquet::file::properties::{EnabledStatistics, WriterPropertiesBuilder};
use parquet::file::statistics::Statistics;

use super::cases::{random_case, random_props, Case};
use super::specs::{specs, Rng};
use super::type_defined::{expected_index, expected_stats};
use super::writes::{write_ours, write_theirs, Ours, Theirs};
use crate::write::encode::stats::order::f16_is_nan;

/// Every field of statistics that a file holds, NaN bounds by their bits.
type StatsView = (PhysicalType, Option<Vec<u8>>, Option<Vec<u8>>, Option<u64>, Option<u64>, Option<u64>, [bool; 4]);

fn stats_view(s: &Statistics) -> StatsView {
    (
        s.physical_type(),
        s.min_bytes_opt().map(<[u8]>::to_vec),
        s.max_bytes_opt().map(<[u8]>::to_vec),
        s.distinct_count_opt(),
        s.null_count_opt(),
        s.nan_count_opt(),
        [s.min_is_exact(), s.max_is_exact(), s.is_min_max_deprecated(), s.is_min_max_backwards_compatible()],
    )
}

/// Whether `x == x`, which a NaN bound inside makes false.
fn no_nan_inside<T: PartialEq>(x: &T) -> bool {
    PartialEq::eq(x, x)
}

#[track_caller]
pub(crate) fn assert_same_stats(ours: Option<&Statistics>, theirs: Option<&Statistics>, what: &str) {
    assert_eq!(ours.map(stats_view), theirs.map(stats_view), "{what}");
    // `==` too, where no NaN bound makes it false for equal statistics.
    if no_nan_inside(&theirs) {
        assert_eq!(ours, theirs, "{what}");
    }
}

type PageView = (bool, Vec<u8>, Vec<u8>, Option<Vec<i64>>, Option<Vec<i64>>);
pub(crate) type IndexView = (Option<BoundaryOrder>, Option<Vec<i64>>, Option<Vec<i64>>, Vec<PageView>);

/// Every field of a column index, min and max by their bytes.
pub(crate) fn index_view(index: &Index) -> IndexView {
    fn primitive<T: AsBytes>(values: &[T], i: usize) -> Vec<u8> {
        values.get(i).map(|v| v.as_bytes().to_vec()).unwrap_or_default()
    }
    let bounds = |i: usize| match index {
        Index::BOOLEAN(x) => (primitive(x.min_values(), i), primitive(x.max_values(), i)),
        Index::INT32(x) => (primitive(x.min_values(), i), primitive(x.max_values(), i)),
        Index::INT64(x) => (primitive(x.min_values(), i), primitive(x.max_values(), i)),
        Index::INT96(x) => (primitive(x.min_values(), i), primitive(x.max_values(), i)),
        Index::FLOAT(x) => (primitive(x.min_values(), i), primitive(x.max_values(), i)),
        Index::DOUBLE(x) => (primitive(x.min_values(), i), primitive(x.max_values(), i)),
        Index::BYTE_ARRAY(x) | Index::FIXED_LEN_BYTE_ARRAY(x) => (
            x.min_value(i).map(<[u8]>::to_vec).unwrap_or_default(),
            x.max_value(i).map(<[u8]>::to_vec).unwrap_or_default(),
        ),
    };
    let pages = (0..index.num_pages() as usize)
        .map(|i| {
            let (min, max) = bounds(i);
            let rep = index.repetition_level_histogram(i).map(<[i64]>::to_vec);
            let def = index.definition_level_histogram(i).map(<[i64]>::to_vec);
            (index.is_null_page(i), min, max, rep, def)
        })
        .collect();
    (index.get_boundary_order(), index.null_counts().cloned(), index.nan_counts().cloned(), pages)
}

pub(crate) fn bitset(filter: &Sbbf) -> Vec<u8> {
    let mut bytes = Vec::new();
    filter.write_bitset(&mut bytes).expect("bitset");
    bytes
}

/// What a run of cases covered, to assert that the cases reach the
/// rules under test.
#[derive(Debug, Default)]
pub(crate) struct Coverage {
    pub(crate) cases: usize,
    pub(crate) pages: usize,
    pub(crate) chunk_statistics: usize,
    /// Chunks of NaN only (the crate's bounds are NaNs, ours none).
    pub(crate) chunk_nan_bounds: usize,
    pub(crate) page_headers: usize,
    pub(crate) inexact: usize,
    /// Bounds longer than the cut but exact: nothing to increment (or no
    /// character boundary to cut at).
    pub(crate) long_exact: usize,
    pub(crate) indexes: usize,
    /// Page statistics, yet no column index.
    pub(crate) invalid_indexes: usize,
    pub(crate) null_pages: usize,
    pub(crate) ascending: usize,
    pub(crate) descending: usize,
    pub(crate) unordered: usize,
    pub(crate) blooms: usize,
    pub(crate) dropped_blooms: usize,
}

impl Coverage {
    fn count_statistics(&mut self, s: &Statistics, limit: Option<usize>) {
        if !s.min_is_exact() && s.min_bytes_opt().is_some() || !s.max_is_exact() && s.max_bytes_opt().is_some() {
            self.inexact += 1;
        }
        let long = |b: Option<&[u8]>| b.is_some_and(|b| limit.is_some_and(|l| b.len() > l));
        if matches!(s, Statistics::ByteArray(_) | Statistics::FixedLenByteArray(_))
            && (long(s.max_bytes_opt()) && s.max_is_exact() || long(s.min_bytes_opt()) && s.min_is_exact())
        {
            self.long_exact += 1;
        }
    }

    /// A chunk of NaN only: the crate's bounds are NaNs, ours none.
    fn count_nan_bounds(&mut self, theirs: Option<&Statistics>) {
        let nan = match theirs {
            Some(Statistics::Float(s)) => s.min_opt().is_some_and(|v| v.is_nan()),
            Some(Statistics::Double(s)) => s.min_opt().is_some_and(|v| v.is_nan()),
            Some(Statistics::FixedLenByteArray(s)) => {
                s.nan_count_opt().is_some() && s.min_opt().is_some_and(|v| f16_is_nan(v.data()))
            }
            _ => false,
        };
        self.chunk_nan_bounds += usize::from(nan);
    }
}

/// Writes a case both ways, asserts that everything agrees and counts
/// what it covered.
pub(crate) fn check_case(case: &Case, rng: &mut Rng, coverage: &mut Coverage) {
    let (ours, theirs) = check(case, rng);
    coverage.count(case, &ours, &theirs);
}

/// Writes a case both ways and asserts that everything agrees.
pub(crate) fn check(case: &Case, rng: &mut Rng) -> (Ours, Theirs) {
    let theirs = write_theirs(case, rng);
    let ours = write_ours(case, &theirs.pages, rng);
    let meta = &theirs.close.metadata;
    let what = format!("{:?} {:?}", case.descr.self_type(), case.props.statistics_enabled(case.descr.path()));
    let expected = |theirs: Option<&Statistics>| expected_stats(&case.descr, theirs);
    assert_same_stats(
        ours.chunk.as_ref(),
        expected(meta.statistics()).as_ref(),
        &format!("chunk statistics of {what}"),
    );
    for (i, (ours, kept)) in ours.page_headers.iter().zip(&theirs.pages).enumerate() {
        let kept = expected(kept.statistics.as_ref());
        assert_same_stats(ours.as_ref(), kept.as_ref(), &format!("page {i} header statistics of {what}"));
    }
    let their_index = expected_index(&case.descr, theirs.close.column_index.as_ref().map(index_view));
    assert_eq!(ours.index.as_ref().map(index_view), their_index, "column index of {what}");
    if let (Some(ours), Some(theirs)) = (&ours.index, &theirs.close.column_index) {
        // `==` too, where the bounds are the crate's (no float's rules).
        if no_nan_inside(theirs) && index_view(ours) == index_view(theirs) {
            assert_eq!(ours, theirs, "column index of {what}");
        }
    }
    assert_eq!(
        ours.bloom.as_ref().map(bitset),
        theirs.close.bloom_filter.as_ref().map(bitset),
        "bloom filter of {what}"
    );
    if let Some(offsets) = &theirs.close.offset_index {
        let bytes: Vec<i64> = ours.page_bytes.iter().flatten().copied().collect();
        let expected = (!bytes.is_empty()).then_some(bytes);
        assert_eq!(expected, offsets.unencoded_byte_array_data_bytes, "unencoded bytes of {what}'s pages");
    }
    assert_eq!(ours.chunk_bytes, meta.unencoded_byte_array_data_bytes(), "unencoded bytes of {what}");
    let histograms = meta.statistics().is_some();
    let hist = |h: &Option<Vec<i64>>| h.clone().filter(|_| histograms);
    assert_eq!(hist(&ours.rep_histogram).as_deref(), meta.repetition_level_histogram().map(|h| h.values()));
    assert_eq!(hist(&ours.def_histogram).as_deref(), meta.definition_level_histogram().map(|h| h.values()));
    (ours, theirs)
}

impl Coverage {
    fn count(&mut self, case: &Case, ours: &Ours, theirs: &Theirs) {
        self.cases += 1;
        self.pages += theirs.pages.len();
        self.page_headers += ours.page_headers.iter().filter(|s| s.is_some()).count();
        if let Some(s) = &ours.chunk {
            self.chunk_statistics += 1;
            self.count_statistics(s, case.props.statistics_truncate_length());
        }
        self.count_nan_bounds(theirs.close.metadata.statistics());
        let page_statistics = case.props.statistics_enabled(case.descr.path()) == EnabledStatistics::Page;
        self.invalid_indexes += usize::from(page_statistics && ours.index.is_none());
        if let Some(index) = &ours.index {
            self.indexes += 1;
            self.null_pages += (0..index.num_pages() as usize).filter(|&i| index.is_null_page(i)).count();
            match index.get_boundary_order() {
                _ if index.num_pages() < 2 => {}
                Some(BoundaryOrder::ASCENDING) => self.ascending += 1,
                Some(BoundaryOrder::DESCENDING) => self.descending += 1,
                _ => self.unordered += 1,
            }
        }
        self.blooms += usize::from(ours.bloom.is_some());
        let bloom_set = case.props.bloom_filter_properties(case.descr.path()).is_some();
        self.dropped_blooms += usize::from(bloom_set && ours.bloom.is_none());
    }
}

/// Runs `cases` random cases of each column type of `group`.
pub(crate) fn run(group: &str, seed: u64, cases: usize) -> Coverage {
    run_with(group, seed, cases, |props, _| props)
}

/// Runs `cases` random cases of each column type of `group`, their
/// props changed by `adjust`.
pub(crate) fn run_with(
    group: &str,
    seed: u64,
    cases: usize,
    adjust: impl Fn(WriterPropertiesBuilder, &mut Rng) -> WriterPropertiesBuilder,
) -> Coverage {
    let mut rng = Rng::new(seed);
    let mut coverage = Coverage::default();
    for spec in specs(group) {
        for _ in 0..cases {
            let props = random_props(&mut rng);
            let props = adjust(props, &mut rng).build();
            let case = random_case(&mut rng, &spec, props);
            check_case(&case, &mut rng, &mut coverage);
        }
    }
    coverage
}
