//! Hand-picked cases of the statistics rules, each also run through the crate.

use std::cmp::Ordering;
use std::ops::Range;

use parquet::basic::BoundaryOrder;
use parquet::data_type::{AsBytes, Int96};
use parquet::file::page_index::column_index::ColumnIndexMetaData;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::statistics::Statistics;

use crate::values::{ByteBuffer, ColumnValues};

use parquet::file::properties::WriterPropertiesBuilder;

use super::super::testing::{check, descriptor, specs, Case, Layout, Ours, Rng, Theirs};
use super::truncate::{increment_bytes, increment_text};
use super::*;

fn spec(name: &str) -> super::super::testing::Spec {
    specs("all").into_iter().find(|s| s.name == name).unwrap_or_else(|| panic!("no spec {name}"))
}

/// Props that cut a page every `rows` rows (the crate checks after
/// every batch of a record), without a dictionary.
fn pages_of(rows: usize) -> WriterPropertiesBuilder {
    WriterProperties::builder()
        .set_dictionary_enabled(false)
        .set_write_batch_size(1)
        .set_data_page_row_count_limit(rows)
        .set_write_page_header_statistics(true)
}

/// An optional column of `values`, `None` a null.
fn optional<T: Clone>(values: &[Option<T>]) -> (Vec<i16>, Vec<T>) {
    let def = values.iter().map(|v| i16::from(v.is_some())).collect();
    (def, values.iter().flatten().cloned().collect())
}

fn bytes(values: &[&[u8]]) -> ByteBuffer {
    let mut buf = ByteBuffer::default();
    values.iter().for_each(|v| buf.push(v));
    buf
}

fn run(
    name: &str,
    layout: Layout,
    def: Vec<i16>,
    rep: Vec<i16>,
    values: ColumnValues,
    props: WriterPropertiesBuilder,
) -> (Ours, Theirs) {
    let case = Case { descr: descriptor(&spec(name), layout), props: props.build(), def, rep, values };
    check(&case, &mut Rng::new(7))
}

fn float_bits(s: &Statistics) -> (Option<u32>, Option<u32>) {
    match s {
        Statistics::Float(s) => (s.min_opt().map(|v| v.to_bits()), s.max_opt().map(|v| v.to_bits())),
        other => panic!("not FLOAT statistics: {other:?}"),
    }
}

fn index_bounds(index: &ColumnIndexMetaData) -> Vec<Option<(Vec<u8>, Vec<u8>)>> {
    (0..index.num_pages() as usize)
        .map(|i| {
            let bounds = match index {
                ColumnIndexMetaData::FLOAT(x) => {
                    (x.min_values()[i].as_bytes().to_vec(), x.max_values()[i].as_bytes().to_vec())
                }
                ColumnIndexMetaData::INT32(x) => {
                    (x.min_values()[i].as_bytes().to_vec(), x.max_values()[i].as_bytes().to_vec())
                }
                ColumnIndexMetaData::BYTE_ARRAY(x) | ColumnIndexMetaData::FIXED_LEN_BYTE_ARRAY(x) => {
                    (x.min_value(i).unwrap_or_default().to_vec(), x.max_value(i).unwrap_or_default().to_vec())
                }
                other => panic!("not covered here: {other:?}"),
            };
            (!index.is_null_page(i)).then_some(bounds)
        })
        .collect()
}

const NAN: f32 = f32::NAN;

#[test]
fn float_bounds_skip_nan_and_widen_zeros() {
    let (def, values) = optional(&[
        Some(NAN),
        Some(NAN),
        Some(NAN), // all NaN
        Some(1.0),
        Some(NAN),
        Some(0.0),
        Some(0.0),
        Some(-0.0),
        None,
        None,
        None,
        None, // a null page
        Some(f32::INFINITY),
        Some(f32::NEG_INFINITY),
        Some(NAN),
    ]);
    let (ours, _) = run("FLOAT", Layout::Optional, def, vec![], ColumnValues::F32(values), pages_of(3));
    let chunk = ours.chunk.expect("chunk statistics");
    assert_eq!(float_bits(&chunk), (Some(f32::NEG_INFINITY.to_bits()), Some(f32::INFINITY.to_bits())));
    assert_eq!((chunk.nan_count_opt(), chunk.null_count_opt()), (Some(5), Some(4)));
    assert!(!chunk.is_min_max_backwards_compatible());
    // A page of NaN only has no bounds, so the chunk has no column index.
    assert!(ours.index.is_none());
    let headers: Vec<_> = ours.page_headers.iter().map(|s| s.as_ref().map(float_bits)).collect();
    assert_eq!(headers[0], Some((None, None)));
    // A zero min is -0.0 and a zero max +0.0, whatever zero the page held.
    assert_eq!(headers[1], Some((Some((-0.0f32).to_bits()), Some(1.0f32.to_bits()))));
    assert_eq!(headers[2], Some((Some((-0.0f32).to_bits()), Some(0.0f32.to_bits()))));
    assert_eq!(headers[3], None, "a null page has no header statistics");

    // Without such a page, the column index has the pages' bounds.
    let values = vec![0.0, 1.0, -0.0, 2.0, 3.0, NAN, -0.0, -0.0];
    let (ours, _) = run("FLOAT", Layout::Required, vec![], vec![], ColumnValues::F32(values), pages_of(2));
    let index = ours.index.expect("column index");
    let bits = |v: f32| v.to_le_bytes().to_vec();
    assert_eq!(
        index_bounds(&index),
        vec![
            Some((bits(-0.0), bits(1.0))),
            Some((bits(-0.0), bits(2.0))),
            Some((bits(3.0), bits(3.0))),
            Some((bits(-0.0), bits(0.0))),
        ]
    );
    assert_eq!(index.nan_counts(), Some(&vec![0, 0, 1, 0]));
}

#[test]
fn only_nan_gives_no_bounds() {
    let values = vec![NAN, -NAN, f32::from_bits(0x7FC0_0001)];
    let (ours, _) = run("FLOAT", Layout::Required, vec![], vec![], ColumnValues::F32(values), pages_of(2));
    let chunk = ours.chunk.expect("chunk statistics");
    assert_eq!(float_bits(&chunk), (None, None));
    assert_eq!(chunk.nan_count_opt(), Some(3));
    let (ours, _) = run("FLOAT", Layout::Required, vec![], vec![], ColumnValues::F32(vec![0.0, -0.0]), pages_of(9));
    assert_eq!(float_bits(&ours.chunk.expect("chunk")), (Some(0x8000_0000), Some(0)));
    let (ours, _) = run("FLOAT", Layout::Required, vec![], vec![], ColumnValues::F32(vec![0.0, 0.0]), pages_of(9));
    assert_eq!(float_bits(&ours.chunk.expect("chunk")), (Some(0x8000_0000), Some(0)));
}

#[test]
fn float16_bounds() {
    let values = bytes(&[&[0x00, 0x7E], &[0x00, 0x3C], &[0x00, 0x80], &[0x00, 0x7E]]);
    let (ours, _) =
        run("FLBA(2) FLOAT16", Layout::Required, vec![], vec![], ColumnValues::Fixed(values, 2), pages_of(9));
    let chunk = ours.chunk.expect("chunk statistics");
    assert_eq!((chunk.min_bytes_opt(), chunk.max_bytes_opt()), (Some(&[0x00, 0x80][..]), Some(&[0x00, 0x3C][..])));
    assert_eq!(chunk.nan_count_opt(), Some(2));
    assert!(chunk.min_is_exact() && chunk.max_is_exact());
}

#[test]
fn unsigned_types_order_the_bits_unsigned() {
    for name in ["INT32 UINT_32", "INT32 INTEGER(32, unsigned)"] {
        let (ours, _) = run(name, Layout::Required, vec![], vec![], ColumnValues::I32(vec![-1, 0, 5]), pages_of(9));
        match ours.chunk.expect("chunk statistics") {
            Statistics::Int32(s) => {
                assert_eq!((s.min_opt(), s.max_opt()), (Some(&0), Some(&-1)), "{name}");
                assert!(!s.is_min_max_backwards_compatible(), "{name}: unsigned");
            }
            other => panic!("{other:?}"),
        }
    }
    let values = ColumnValues::I64(vec![i64::MIN, 1, -2]);
    let (ours, _) = run("INT64 UINT_64", Layout::Required, vec![], vec![], values, pages_of(9));
    let Some(Statistics::Int64(s)) = ours.chunk else { panic!("INT64 statistics") };
    assert_eq!((s.min_opt(), s.max_opt()), (Some(&1), Some(&-2)));
    let (ours, _) = run("INT32", Layout::Required, vec![], vec![], ColumnValues::I32(vec![-1, 0, 5]), pages_of(9));
    let Some(Statistics::Int32(s)) = ours.chunk else { panic!("INT32 statistics") };
    assert_eq!((s.min_opt(), s.max_opt()), (Some(&-1), Some(&5)));
    assert!(s.is_min_max_backwards_compatible(), "signed");
}

#[test]
fn int96_orders_by_day_then_nanosecond() {
    let int96 = |words: [u32; 3]| {
        let mut v = Int96::new();
        v.set_data(words[0], words[1], words[2]);
        v
    };
    let values = vec![int96([0, 0, 5]), int96([0, 0x8000_0000, 5]), int96([7, 0, u32::MAX]), int96([0, 1, 6])];
    let (ours, _) = run("INT96", Layout::Required, vec![], vec![], ColumnValues::I96(values.clone()), pages_of(2));
    let Some(Statistics::Int96(s)) = ours.chunk else { panic!("INT96 statistics") };
    // Day -1 first; day 6 last; on day 5 the nanoseconds are signed.
    assert_eq!((s.min_opt(), s.max_opt()), (Some(&values[2]), Some(&values[3])));
    assert!(!s.is_min_max_backwards_compatible());
}

#[test]
fn booleans_order_false_first() {
    let (ours, _) =
        run("BOOLEAN", Layout::Required, vec![], vec![], ColumnValues::Bool(vec![true, true, false]), pages_of(2));
    let Some(Statistics::Boolean(s)) = ours.chunk else { panic!("BOOLEAN statistics") };
    assert_eq!((s.min_opt(), s.max_opt()), (Some(&false), Some(&true)));
    let index = ours.index.expect("column index");
    let ColumnIndexMetaData::BOOLEAN(x) = &index else { panic!("BOOLEAN index") };
    assert_eq!((x.min_values(), x.max_values()), (&[true, false][..], &[true, false][..]));
    assert_eq!(index.get_boundary_order(), Some(BoundaryOrder::DESCENDING));
}

#[test]
fn decimals_compare_as_numbers_and_keep_the_first_of_equals() {
    // The chunk statistics of required byte values in a column of `spec`.
    let chunk_of = |spec: &str, values: &[&[u8]]| {
        let (ours, _) = run(spec, Layout::Required, vec![], vec![], ColumnValues::Bytes(bytes(values)), pages_of(9));
        ours.chunk.expect("chunk statistics")
    };
    let chunk =
        chunk_of("BYTE_ARRAY DECIMAL(20, 2)", &[&[0x00, 0x10], &[0x10], &[0xFF, 0x80], &[0x80], &[0xFF, 0xFF, 0x7F]]);
    // 16 == 16 keeps the first; -129 is the least.
    assert_eq!(
        (chunk.min_bytes_opt(), chunk.max_bytes_opt()),
        (Some(&[0xFF, 0xFF, 0x7F][..]), Some(&[0x00, 0x10][..]))
    );
    assert!(chunk.is_min_max_backwards_compatible(), "DECIMAL is signed");
    let chunk = chunk_of("BYTE_ARRAY legacy DECIMAL", &[&[0xFF, 0x80], &[0x80], &[]]);
    assert_eq!(
        (chunk.min_bytes_opt(), chunk.max_bytes_opt()),
        (Some(&[][..]), Some(&[0xFF, 0x80][..])),
        "empty is least"
    );
    // DECIMALs are never cut.
    let long = [0x01u8; 70];
    let props = pages_of(9).set_statistics_truncate_length(Some(4)).set_column_index_truncate_length(Some(2));
    let (ours, _) =
        run("BYTE_ARRAY DECIMAL(20, 2)", Layout::Required, vec![], vec![], ColumnValues::Bytes(bytes(&[&long])), props);
    let chunk = ours.chunk.expect("chunk statistics");
    assert_eq!(chunk.max_bytes_opt(), Some(&long[..]));
    assert!(chunk.min_is_exact() && chunk.max_is_exact());
    assert_eq!(index_bounds(&ours.index.expect("index")), vec![Some((long.to_vec(), long.to_vec()))]);
}

#[test]
fn binary_bounds_are_cut_and_the_max_incremented() {
    let values: [&[u8]; 3] = [b"abcdefgh", &[0xFF; 6], b"ab\xFF\xFFzz"];
    let props = pages_of(9).set_statistics_truncate_length(Some(4)).set_column_index_truncate_length(Some(3));
    let (ours, _) =
        run("BYTE_ARRAY", Layout::Required, vec![], vec![], ColumnValues::Bytes(bytes(&values)), props.clone());
    let chunk = ours.chunk.expect("chunk statistics");
    assert_eq!((chunk.min_bytes_opt(), chunk.min_is_exact()), (Some(&b"abcd"[..]), false));
    assert_eq!((chunk.max_bytes_opt(), chunk.max_is_exact()), (Some(&[0xFF; 6][..]), true), "nothing to increment");
    assert_eq!(index_bounds(&ours.index.expect("index")), vec![Some((b"abc".to_vec(), vec![0xFF; 6]))]);
    let (ours, _) =
        run("BYTE_ARRAY", Layout::Required, vec![], vec![], ColumnValues::Bytes(bytes(&[b"ab\xFF\xFFzz"])), props);
    let chunk = ours.chunk.expect("chunk statistics");
    assert_eq!((chunk.max_bytes_opt(), chunk.max_is_exact()), (Some(&b"ac\0\0"[..]), false), "the carry wraps");
    assert_eq!(index_bounds(&ours.index.expect("index")), vec![Some((b"ab\xFF".to_vec(), b"ac\0".to_vec()))]);
    // The default cut is at 64 bytes, for statistics and the index.
    let long = [b'x'; 100];
    let (ours, _) =
        run("FLBA(70)", Layout::Required, vec![], vec![], ColumnValues::Fixed(bytes(&[&long[..70]]), 70), pages_of(9));
    let chunk = ours.chunk.expect("chunk statistics");
    assert_eq!(
        (chunk.min_bytes_opt().map(<[u8]>::len), chunk.max_bytes_opt()),
        (Some(64), Some(&b"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxy"[..]))
    );
    assert!(!chunk.min_is_exact() && !chunk.max_is_exact());
}

#[test]
fn binary_bounds_where_first_bytes_tie_with_the_bounds_so_far() {
    // The scan passes over a value whose first byte lies strictly between
    // the bounds' first bytes; these values share first bytes with the
    // bounds so far, are empty, or begin with the least and greatest bytes.
    let values: [&[u8]; 12] = [b"m", b"mb", b"ma", b"b", b"a", b"az", b"zz", b"z", b"", b"\0", b"z\xFF", b"\xFF"];
    for (n, expected) in [(8, (&b"a"[..], &b"zz"[..])), (12, (&b""[..], &b"\xFF"[..]))] {
        let values = &values[..n];
        let (ours, _) =
            run("BYTE_ARRAY", Layout::Required, vec![], vec![], ColumnValues::Bytes(bytes(values)), pages_of(100));
        let chunk = ours.chunk.expect("chunk statistics");
        let bounds = (chunk.min_bytes_opt().unwrap_or_default(), chunk.max_bytes_opt().unwrap_or_default());
        assert_eq!(bounds, expected, "the first {n} values");
    }
}

#[test]
fn strings_are_cut_at_characters() {
    let props = pages_of(9).set_statistics_truncate_length(Some(5)).set_column_index_truncate_length(Some(2));
    let run_text = |values: &[&str], props: WriterPropertiesBuilder| {
        let values: Vec<&[u8]> = values.iter().map(|v| v.as_bytes()).collect();
        run("BYTE_ARRAY STRING", Layout::Required, vec![], vec![], ColumnValues::Bytes(bytes(&values)), props).0
    };
    // 'a' 'é' '€' '𝄞': boundaries at 1, 3, 6, 10.
    let ours = run_text(&["aé€𝄞"], props.clone());
    let chunk = ours.chunk.expect("chunk statistics");
    assert_eq!((chunk.min_bytes_opt(), chunk.max_bytes_opt()), (Some("aé".as_bytes()), Some("aê".as_bytes())));
    assert!(!chunk.min_is_exact() && !chunk.max_is_exact());
    assert_eq!(index_bounds(&ours.index.expect("index")), vec![Some((b"a".to_vec(), b"b".to_vec()))]);
    // U+10FFFF has no successor: the max stays whole and exact.
    let ours = run_text(&["\u{10FFFF}\u{10FFFF}\u{10FFFF}"], props.clone());
    let chunk = ours.chunk.expect("chunk statistics");
    assert_eq!((chunk.min_bytes_opt(), chunk.min_is_exact()), (Some("\u{10FFFF}".as_bytes()), false));
    assert_eq!((chunk.max_bytes_opt(), chunk.max_is_exact()), (Some("\u{10FFFF}".repeat(3).as_bytes()), true));
    // U+7F would grow to two bytes: the character before it goes up.
    let ours = run_text(&["ab\u{7F}\u{7F}\u{7F}\u{7F}"], props.clone());
    assert_eq!(ours.chunk.expect("chunk statistics").max_bytes_opt(), Some(&b"ac"[..]));
    // Bytes that are not UTF-8 are cut as bytes.
    let values = ColumnValues::Bytes(bytes(&[b"\xFF\xFEabcdef"]));
    let (ours, _) = run("BYTE_ARRAY STRING", Layout::Required, vec![], vec![], values, props);
    let chunk = ours.chunk.expect("chunk statistics");
    assert_eq!((chunk.min_bytes_opt(), chunk.max_bytes_opt()), (Some(&b"\xFF\xFEabc"[..]), Some(&b"\xFF\xFEabd"[..])));
    // ENUM is not cut at characters.
    let values = ColumnValues::Bytes(bytes(&["aé€".as_bytes()]));
    let props = pages_of(9).set_statistics_truncate_length(Some(2));
    let (ours, _) = run("BYTE_ARRAY ENUM", Layout::Required, vec![], vec![], values, props);
    let chunk = ours.chunk.expect("chunk statistics");
    assert_eq!((chunk.min_bytes_opt(), chunk.max_bytes_opt()), (Some(&b"a\xC3"[..]), Some(&b"a\xC4"[..])));
}

#[test]
fn boundary_orders() {
    let order = |values: &[Option<i32>]| {
        let (def, values) = optional(values);
        let (ours, _) = run("INT32", Layout::Optional, def, vec![], ColumnValues::I32(values), pages_of(2));
        ours.index.expect("column index").get_boundary_order().expect("an order")
    };
    assert_eq!(order(&[Some(1), Some(2), Some(2), Some(3), Some(3), Some(3)]), BoundaryOrder::ASCENDING);
    assert_eq!(order(&[Some(5), Some(4), Some(3), Some(2)]), BoundaryOrder::DESCENDING);
    assert_eq!(order(&[Some(1), Some(1), Some(1), Some(1)]), BoundaryOrder::ASCENDING, "equal pages");
    assert_eq!(order(&[Some(1), Some(5), Some(2), Some(3)]), BoundaryOrder::UNORDERED);
    assert_eq!(
        order(&[Some(3), Some(4), None, None, Some(1), Some(2)]),
        BoundaryOrder::DESCENDING,
        "null pages skipped"
    );
    assert_eq!(order(&[None, None, None]), BoundaryOrder::ASCENDING, "null pages only");
    assert_eq!(order(&[]), BoundaryOrder::ASCENDING, "no pages");
}

#[test]
fn repeated_columns_count_null_pages_by_rows() {
    // Page 1: [null, 7], [] — two rows, two nulls: a null page though it
    // holds 7. Page 2: [1], [2].
    let def = vec![2, 3, 1, 3, 3];
    let rep = vec![0, 1, 0, 0, 0];
    let (ours, theirs) = run("INT32", Layout::Repeated, def, rep, ColumnValues::I32(vec![7, 1, 2]), pages_of(2));
    assert_eq!(theirs.pages.len(), 2);
    let Some(Statistics::Int32(s)) = &ours.chunk else { panic!("INT32 statistics") };
    assert_eq!((s.min_opt(), s.max_opt(), s.null_count_opt()), (Some(&1), Some(&7), Some(2)));
    let index = ours.index.expect("column index");
    assert_eq!(index_bounds(&index), vec![None, Some((1i32.to_le_bytes().to_vec(), 2i32.to_le_bytes().to_vec()))]);
    assert_eq!(index.definition_level_histogram(0), Some(&[0, 1, 1, 1][..]));
    assert_eq!(index.repetition_level_histogram(0), Some(&[2, 1][..]));
    // Page 1: [null, null, null], [] — no value, yet not a null page
    // (four nulls, two rows): the crate drops the column index.
    let def = vec![2, 2, 2, 1, 3, 3];
    let rep = vec![0, 1, 1, 0, 0, 0];
    let (ours, theirs) = run("INT32", Layout::Repeated, def, rep, ColumnValues::I32(vec![5, 6]), pages_of(2));
    assert!(ours.index.is_none() && theirs.close.column_index.is_none());
    assert!(ours.chunk.is_some_and(|s| s.min_bytes_opt() == Some(&5i32.to_le_bytes()[..])));
}

#[test]
fn empty_and_all_null_chunks() {
    let (ours, _) = run("INT32", Layout::Optional, vec![], vec![], ColumnValues::I32(vec![]), pages_of(2));
    let chunk = ours.chunk.expect("chunk statistics");
    assert_eq!((chunk.min_bytes_opt(), chunk.null_count_opt(), chunk.nan_count_opt()), (None, Some(0), None));
    assert!(!chunk.min_is_exact() && chunk.is_min_max_backwards_compatible());
    let index = ours.index.expect("an empty column index");
    assert_eq!((index.num_pages(), index.null_counts()), (0, Some(&vec![])));
    assert_eq!(ours.def_histogram, Some(vec![0, 0]));
    let (ours, _) = run("DOUBLE", Layout::Optional, vec![0; 5], vec![], ColumnValues::F64(vec![]), pages_of(2));
    let chunk = ours.chunk.expect("chunk statistics");
    assert_eq!((chunk.min_bytes_opt(), chunk.null_count_opt(), chunk.nan_count_opt()), (None, Some(5), None));
    let index = ours.index.expect("column index");
    assert_eq!((index.num_pages(), index.nan_counts()), (3, Some(&vec![0, 0, 0])));
    assert!((0..3).all(|i| index.is_null_page(i)));
    let values = ColumnValues::Bytes(ByteBuffer::default());
    let (ours, _) = run("BYTE_ARRAY STRING", Layout::Optional, vec![0; 3], vec![], values, pages_of(2));
    assert_eq!((ours.chunk_bytes, ours.page_bytes), (Some(0), vec![Some(0), Some(0)]));
}

#[test]
fn interval_has_no_min_max() {
    let values = ColumnValues::Fixed(bytes(&[&[1; 12], &[2; 12]]), 12);
    let (ours, _) = run("FLBA(12) INTERVAL", Layout::Optional, vec![1, 0, 1], vec![], values, pages_of(2));
    let chunk = ours.chunk.expect("chunk statistics");
    assert_eq!((chunk.min_bytes_opt(), chunk.null_count_opt()), (None, Some(1)));
    assert!(ours.index.is_none(), "a page with values but no min and max drops the index");
    let values = ColumnValues::Fixed(ByteBuffer::default(), 12);
    let (ours, _) = run("FLBA(12) INTERVAL", Layout::Optional, vec![0, 0, 0], vec![], values, pages_of(2));
    assert_eq!(ours.index.map(|i| i.num_pages()), Some(2), "null pages need no min and max");
}

#[test]
fn statistics_levels_per_column() {
    let path = parquet::schema::types::ColumnPath::from("v");
    let level = |props: WriterPropertiesBuilder| {
        let values = ColumnValues::Bytes(bytes(&[b"a", b"bc"]));
        let (ours, _) = run("BYTE_ARRAY", Layout::Required, vec![], vec![], values, props);
        (ours.chunk.is_some(), ours.index.is_some(), ours.page_headers.iter().any(Option::is_some), ours.chunk_bytes)
    };
    assert_eq!(level(pages_of(1).set_statistics_enabled(EnabledStatistics::None)), (false, false, false, None));
    assert_eq!(level(pages_of(1).set_statistics_enabled(EnabledStatistics::Chunk)), (true, false, false, Some(3)));
    assert_eq!(level(pages_of(1).set_statistics_enabled(EnabledStatistics::Page)), (true, true, true, Some(3)));
    let column = pages_of(1)
        .set_statistics_enabled(EnabledStatistics::None)
        .set_column_statistics_enabled(path.clone(), EnabledStatistics::Page)
        .set_column_write_page_header_statistics(path, false)
        .set_write_page_header_statistics(true);
    assert_eq!(level(column), (true, true, false, Some(3)));
}

#[test]
fn cuts_and_increments() {
    assert_eq!(lower_bound(b"abc", Some(3), false), (b"abc".to_vec(), true));
    assert_eq!(lower_bound(b"abcd", None, false), (b"abcd".to_vec(), true));
    assert_eq!(lower_bound(b"abcd", Some(2), false), (b"ab".to_vec(), false));
    assert_eq!(lower_bound("€uro".as_bytes(), Some(2), true), ("€uro".as_bytes().to_vec(), true), "no boundary");
    assert_eq!(lower_bound("€uro".as_bytes(), Some(2), false), (vec![0xE2, 0x82], false));
    assert_eq!(upper_bound(b"abcd", Some(2), false), (b"ac".to_vec(), false));
    assert_eq!(upper_bound(&[0x01, 0xFF, 0xFF, 0x00], Some(3), false), (vec![0x02, 0x00, 0x00], false));
    assert_eq!(upper_bound(&[0xFF, 0xFF, 0x00], Some(2), false), (vec![0xFF, 0xFF, 0x00], true));
    assert_eq!(upper_bound("a\u{D7FF}b".as_bytes(), Some(4), true), (b"b".to_vec(), false), "no surrogates");
    assert_eq!(upper_bound("a\u{FFFF}b".as_bytes(), Some(4), true), (b"b".to_vec(), false), "no growth");
    assert_eq!(upper_bound("ab\u{7FF}".as_bytes(), Some(3), true), (b"ac".to_vec(), false));
    assert_eq!(increment_text("ä"), Some("å".as_bytes().to_vec()));
    assert_eq!(increment_text(""), None);
    assert_eq!(increment_bytes(&[]), None);
}

#[test]
fn decimal_comparisons() {
    use Ordering::*;
    let cases: [(&[u8], &[u8], Ordering); 10] = [
        (&[], &[], Equal),
        (&[], &[0x80], Less),
        (&[0x00, 0x10], &[0x10], Equal),
        (&[0xFF, 0x80], &[0x80], Equal),
        (&[0x01, 0x00], &[0x7F], Greater),
        (&[0xFE, 0x00], &[0x80], Less),
        (&[0x80], &[0x7F], Less),
        (&[0xFF, 0x7F], &[0xFF], Less),
        (&[0x00, 0x80], &[0x7F], Greater),
        (&[0x00, 0x00, 0x01], &[0x00, 0x02], Less),
    ];
    for (a, b, ord) in cases {
        assert_eq!(decimal_cmp(a, b), ord, "{a:?} vs {b:?}");
        assert_eq!(decimal_cmp(b, a), ord.reverse(), "{b:?} vs {a:?}");
    }
}

#[test]
fn bad_input_is_skipped() {
    let descr = descriptor(&spec("FLBA(2) FLOAT16"), Layout::Required);
    let mut stats = ValueStats::new(&descr);
    // Other types, ranges out of the values, values of the wrong width.
    stats.update(&ColumnValues::I32(vec![1, 2]), 0..2);
    stats.update(&ColumnValues::Fixed(bytes(&[&[0x00, 0x3C]]), 2), 1..5);
    stats.update(&ColumnValues::Fixed(bytes(&[&[0x00, 0x3C]]), 2), Range { start: 3, end: 1 });
    assert!(matches!(stats.bounds, Bounds::Empty));
    stats.update(&ColumnValues::Fixed(bytes(&[&[0x01], &[]]), 2), 0..2);
    assert!(stats.chunk_statistics(&WriterProperties::builder().build()).is_some());
    let mut index = ColumnIndexWriter::new(&descr, &WriterProperties::builder().build()).expect("index");
    index.append_page(&stats, 2, Some(&[1, 2, 3]), None);
    assert!(index.finish().is_some());
}
