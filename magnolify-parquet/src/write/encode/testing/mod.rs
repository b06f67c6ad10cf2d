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
mod writes;

pub(crate) use cases::{random_case, random_props, Case};
pub(crate) use compare::{assert_same_stats, bitset, check, index_view, run_with};
pub(crate) use specs::{descriptor, specs, Layout, Rng, Spec};
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

#[test]
fn booleans_match_the_crate() {
    assert_covered(&run("bool", 1, 600));
}

#[test]
fn signed_int32_types_match_the_crate() {
    assert_covered(&run("i32", 2, 100));
}

#[test]
fn unsigned_int32_types_match_the_crate() {
    assert_covered(&run("u32", 3, 100));
}

#[test]
fn int64_types_match_the_crate() {
    assert_covered(&run("i64", 4, 80));
}

#[test]
fn int96_matches_the_crate() {
    assert_covered(&run("i96", 5, 600));
}

#[test]
fn floats_match_the_crate() {
    let c = run("f32", 6, 800);
    assert_covered(&c);
    assert!(c.chunk_nan_bounds > 0, "all-NaN chunks: {c:?}");
}

#[test]
fn doubles_match_the_crate() {
    let c = run("f64", 7, 800);
    assert_covered(&c);
    assert!(c.chunk_nan_bounds > 0, "all-NaN chunks: {c:?}");
}

#[test]
fn float16_matches_the_crate() {
    let c = run("f16", 8, 800);
    assert_covered(&c);
    assert!(c.chunk_nan_bounds > 0, "all-NaN chunks: {c:?}");
}

#[test]
fn binary_types_match_the_crate() {
    let c = run("binary", 9, 150);
    assert_covered(&c);
    assert!(c.inexact > 0 && c.long_exact > 0, "{c:?}");
}

#[test]
fn strings_match_the_crate() {
    let c = run("text", 10, 300);
    assert_covered(&c);
    assert!(c.inexact > 0 && c.long_exact > 0, "{c:?}");
}

#[test]
fn decimal_byte_arrays_match_the_crate() {
    assert_covered(&run("decimal", 11, 150));
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
