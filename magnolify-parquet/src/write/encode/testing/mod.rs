//! The differential harness of the encoder's tests: random columns (every
//! type, layout and shape of values) and writer properties, written
//! through the `parquet` crate's `ColumnWriter` and through our types.
//!
//! [`specs`] lists the column types, [`cases`] draws random cases of them,
//! [`writes`] writes a case both ways and [`compare`] asserts that the two
//! agree; the tests below run every group of types.

mod cases;
mod compare;
mod specs;
mod type_defined;
mod writes;

pub(crate) use cases::{random_case, random_props, Case};
pub(crate) use compare::{assert_same_stats, bitset, check, index_view, run_with};
pub(crate) use specs::{descriptor, specs, Layout, Rng, Spec};
pub(crate) use type_defined::{expected_index, expected_stats};
pub(crate) use writes::{write_theirs, Ours, Theirs};

use compare::{run, Coverage};

#[track_caller]
fn assert_covered(c: &Coverage) {
    assert!(c.pages > 4 * c.cases, "{c:?}");
    assert!(c.chunk_statistics > 0 && c.page_headers > 0 && c.indexes > 0 && c.null_pages > 0, "{c:?}");
    assert!(c.ascending > 0 && c.descending > 0 && c.unordered > 0, "{c:?}");
    assert!(c.invalid_indexes > 0, "repeated pages of null elements only: {c:?}");
    assert!(c.blooms > 0 && c.dropped_blooms > 0, "{c:?}");
}

/// One test per group of column types: `run(group, seed, cases)` agrees
/// with the crate and covers every kind of page, index and statistic, and
/// the group's own cases where it has some (`and |c| ...`).
macro_rules! match_the_crate {
    ($($test:ident($group:literal, $seed:literal, $cases:literal) $(and |$c:ident| $also:expr)?,)*) => {
        $(
            #[test]
            fn $test() {
                let coverage = run($group, $seed, $cases);
                assert_covered(&coverage);
                $(
                    let $c = &coverage;
                    assert!($also, "{}: {coverage:?}", stringify!($also));
                )?
            }
        )*
    };
}

match_the_crate! {
    booleans_match_the_crate("bool", 1, 600),
    signed_int32_types_match_the_crate("i32", 2, 100),
    unsigned_int32_types_match_the_crate("u32", 3, 100),
    floats_match_the_crate("f32", 6, 800) and |c| c.chunk_nan_bounds > 0,
    int64_types_match_the_crate("i64", 4, 80),
    int96_matches_the_crate("i96", 5, 600),
    doubles_match_the_crate("f64", 7, 800) and |c| c.chunk_nan_bounds > 0,
    decimal_byte_arrays_match_the_crate("decimal", 11, 150),
    binary_types_match_the_crate("binary", 9, 150) and |c| c.inexact > 0 && c.long_exact > 0,
    float16_matches_the_crate("f16", 8, 800) and |c| c.chunk_nan_bounds > 0,
    strings_match_the_crate("text", 10, 300) and |c| c.inexact > 0 && c.long_exact > 0,
}

#[test]
fn fixed_len_byte_arrays_match_the_crate() {
    let c = run("fixed", 12, 120);
    assert!(c.inexact > 0 && c.long_exact > 0, "{c:?}");
    assert!(c.chunk_statistics > 0 && c.indexes > 0 && c.invalid_indexes > 0, "{c:?}");
}

#[test]
fn geospatial_types_get_no_min_max() {
    let c = run("geo", 13, 100);
    assert!(c.chunk_statistics > 0 && c.blooms > 0, "{c:?}");
}
