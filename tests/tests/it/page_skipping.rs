//! Page skipping on a file pyarrow wrote with its defaults (every column
//! dictionary-encoded) and a page index, in small pages
//! (`tests/fixtures/pages/generate.py`): a range predicate that selects part
//! of a row group reads back exactly the records that pass, the pages outside
//! the selected rows are passed without being decompressed (the first data
//! page after a dictionary page too), and `FilterCounts` counts every page
//! exactly once, as read or as skipped. What a read must skip is worked out
//! here from the file's page index as the `parquet` crate reads it, not by
//! the library's pruning.

use bytes::Bytes;
use magnolify_parquet::filter::{FilterCounts, Predicate};
use magnolify_parquet::{ParquetReader, ParquetType, ReadOptions, ReaderBuilder};
use parquet::file::metadata::{PageIndexPolicy, ParquetMetaData, ParquetMetaDataReader};
use parquet::file::page_index::column_index::ColumnIndexMetaData;
use parquet::file::statistics::Statistics;

/// The generator's table.
#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Reading {
    id: i64,
    city: String,
    score: Option<i32>,
}

/// Row `row` of the file, by the generator's formulas.
fn reading(row: i64) -> Reading {
    Reading {
        id: 1_000_000 + 3 * row,
        city: format!("city{}", (row * 7919) % 211),
        score: (row % 7 != 0).then(|| ((row * 37) % 1000) as i32),
    }
}

const ROWS: i64 = 6000;

fn fixture() -> Bytes {
    test_kit::fixtures::bytes("pages/readings.pyarrow.parquet")
}

/// The records `predicate` reads from `file`, and the reader's counts.
fn read(file: Bytes, predicate: Predicate<Reading>) -> magnolify_parquet::Result<(Vec<Reading>, FilterCounts)> {
    let mut reader = ReaderBuilder::new(file)?.build(ReadOptions::default().filter(predicate))?;
    let records = reader.by_ref().collect::<Result<Vec<_>, _>>()?;
    Ok((records, reader.counts()))
}

/// `low <= id <= high` for any of `ranges`.
fn ids_in(ranges: &[(i64, i64)]) -> Predicate<Reading> {
    let f = Reading::fields();
    ranges.iter().map(|&(low, high)| f.id.between(low, high)).reduce(Predicate::or).expect("a range")
}

/// The footer with the page index, by the `parquet` crate.
fn metadata(file: &Bytes) -> ParquetMetaData {
    ParquetMetaDataReader::new().with_page_index_policy(PageIndexPolicy::Required).parse_and_finish(file).unwrap()
}

/// The row ranges of the data pages of column `column` in row group `group`,
/// from its offset index.
fn page_rows(meta: &ParquetMetaData, group: usize, column: usize) -> Vec<(u64, u64)> {
    let rows = meta.row_group(group).num_rows() as u64;
    let locations = meta.page_index_for_row_group(group).page_locations(column).expect("an offset index").clone();
    let starts: Vec<u64> = locations.iter().map(|l| l.first_row_index as u64).collect();
    (0..starts.len()).map(|p| (starts[p], starts.get(p + 1).copied().unwrap_or(rows))).collect()
}

fn overlaps((a, b): (u64, u64), (c, d): (u64, u64)) -> bool {
    a < d && c < b
}

/// What a read of `ids_in(ranges)` must count, from the page index alone:
/// the row groups whose `id` statistics hold a wanted id are read; inside
/// them, the rows of the `id` pages whose bounds (column index) hold one are
/// decoded; every column's data page that overlaps those rows is decoded,
/// every other one skipped.
fn expected_counts(file: &Bytes, ranges: &[(i64, i64)]) -> FilterCounts {
    let meta = metadata(file);
    let wanted = |min: i64, max: i64| ranges.iter().any(|&(low, high)| min <= high && low <= max);
    let mut counts = FilterCounts::default();
    for group in 0..meta.num_row_groups() {
        let chunks = meta.row_group(group).columns();
        let size: u64 = chunks.iter().map(|c| c.compressed_size() as u64).sum();
        let Some(Statistics::Int64(stats)) = chunks[0].statistics() else { panic!("no statistics of id") };
        if !wanted(*stats.min_opt().unwrap(), *stats.max_opt().unwrap()) {
            counts.row_groups_skipped += 1;
            counts.column_bytes_skipped += size;
            continue;
        }
        counts.row_groups_read += 1;
        counts.column_bytes_read += size;
        let page_index = meta.page_index_for_row_group(group);
        let Some(ColumnIndexMetaData::INT64(index)) = page_index.column_index(0) else {
            panic!("no column index of id")
        };
        let id_pages = page_rows(&meta, group, 0);
        let selected: Vec<(u64, u64)> = (0..id_pages.len())
            .filter(|&p| wanted(*index.min_value(p).unwrap(), *index.max_value(p).unwrap()))
            .map(|p| id_pages[p])
            .collect();
        let rows = meta.row_group(group).num_rows() as u64;
        let decoded: u64 = selected.iter().map(|(s, e)| e - s).sum();
        counts.records_read += decoded;
        counts.records_skipped += rows - decoded;
        for column in 0..chunks.len() {
            for page in page_rows(&meta, group, column) {
                match selected.iter().any(|&range| overlaps(page, range)) {
                    true => counts.pages_read += 1,
                    false => counts.pages_skipped += 1,
                }
            }
        }
        let first = meta.row_groups()[..group].iter().map(|g| g.num_rows()).sum::<i64>();
        let passed = (first..first + rows as i64).filter(|&row| wanted(reading(row).id, reading(row).id)).count();
        counts.records_passed += passed as u64;
    }
    counts
}

/// The rows whose ids `ranges` hold, by the generator's formulas.
fn expected_records(ranges: &[(i64, i64)]) -> Vec<Reading> {
    (0..ROWS).map(reading).filter(|r| ranges.iter().any(|&(low, high)| (low..=high).contains(&r.id))).collect()
}

/// The file is the generator's: every row, and pyarrow's page layout with
/// several pages to a column chunk and a dictionary page before them.
#[test]
fn the_fixture_holds_the_generators_rows_in_small_dictionary_encoded_pages() {
    let file = fixture();
    let all: Vec<Reading> = ParquetReader::<Reading, _>::new(file.clone()).unwrap().collect::<Result<_, _>>().unwrap();
    assert_eq!(all, (0..ROWS).map(reading).collect::<Vec<_>>());
    let meta = metadata(&file);
    assert_eq!(meta.file_metadata().created_by(), Some("parquet-cpp-arrow version 26.0.1"));
    assert_eq!(meta.num_row_groups(), 3);
    for group in meta.row_groups() {
        assert_eq!(group.num_rows(), 2000);
        assert!(group.columns().iter().all(|c| c.dictionary_page_offset().is_some()));
    }
    for group in 0..3 {
        let pages: Vec<usize> = (0..3).map(|c| page_rows(&meta, group, c).len()).collect();
        assert_eq!(pages, [10, 6, 8], "data pages of id, city and score in row group {group}");
    }
}

/// A range inside one page of `id` in the middle row group: the other row
/// groups are skipped by their statistics, and inside the one read, the
/// pages before the range (the first data page of every column, which
/// follows a dictionary page, among them) and after it are skipped, and
/// counted. Before the fix the counts were 6 pages read and 6 skipped: the
/// first data page of each column was decoded, and the pages after the
/// range were not counted.
#[test]
fn a_range_inside_a_row_group_skips_and_counts_the_pages_around_it() {
    let file = fixture();
    let ranges = [(reading(3000).id, reading(3100).id)];
    let (records, counts) = read(file.clone(), ids_in(&ranges)).unwrap();
    assert_eq!(records, expected_records(&ranges));
    assert_eq!(records.len(), 101);
    let expected = expected_counts(&file, &ranges);
    assert_eq!(counts, expected);
    // The same, in numbers: id's page of rows 960..1152 of row group 1 is
    // decoded, with city's page of rows 768..1152 and score's of 896..1152;
    // 9 + 5 + 7 pages are not.
    let got = (counts.row_groups_read, counts.row_groups_skipped, counts.pages_read, counts.pages_skipped);
    assert_eq!(got, (1, 2, 3, 21));
    assert_eq!((counts.records_read, counts.records_skipped, counts.records_passed), (192, 1808, 101));
}

/// Two ranges in one row group and one across the boundary of two: the
/// pages between and after the ranges are skipped and counted once.
#[test]
fn several_ranges_count_every_page_once() {
    let file = fixture();
    let id = |row| reading(row).id;
    for ranges in [
        vec![(id(2100), id(2150)), (id(3600), id(3650))],
        vec![(id(1900), id(2100))],
        vec![(id(10), id(20)), (id(5990), id(5999))],
    ] {
        let (records, counts) = read(file.clone(), ids_in(&ranges)).unwrap();
        assert_eq!(records, expected_records(&ranges), "{ranges:?}");
        let expected = expected_counts(&file, &ranges);
        assert_eq!(counts, expected, "{ranges:?}");
        // Every data page of the row groups read (24 in each) is counted once.
        assert_eq!(counts.pages_read + counts.pages_skipped, 24 * counts.row_groups_read as u64, "{ranges:?}");
    }
}

/// The same reading, borrowing `city` from the batch.
#[derive(ParquetType, Debug)]
struct ReadingRef<'a> {
    id: i64,
    city: &'a str,
    score: Option<i32>,
}

/// Records that borrow, read with a predicate from their own handles, skip
/// and count the same pages on pyarrow's file, and are the same records.
#[test]
fn records_that_borrow_skip_and_count_the_same_pages() {
    let file = fixture();
    let id = |row| reading(row).id;
    for ranges in [vec![(id(3000), id(3100))], vec![(id(2100), id(2150)), (id(3600), id(3650))]] {
        let f = ReadingRef::fields();
        let predicate = ranges.iter().map(|&(low, high)| f.id.between(low, high)).reduce(Predicate::or).unwrap();
        for threads in [1, 2] {
            let options = ReadOptions::default().threads(threads).batch_size(64).filter(predicate.clone());
            let mut reader = ReaderBuilder::new(file.clone()).unwrap().build_borrowed::<ReadingRef>(options).unwrap();
            let mut records = Vec::new();
            while let Some(batch) = reader.next_batch().unwrap() {
                let owned = batch.iter().map(|r| Reading { id: r.id, city: r.city.to_owned(), score: r.score });
                records.extend(owned);
            }
            assert_eq!(records, expected_records(&ranges), "{ranges:?}, {threads} threads");
            assert_eq!(reader.counts(), expected_counts(&file, &ranges), "{ranges:?}, {threads} threads");
        }
    }
}

/// The end of the Thrift compact-protocol value of type `kind` at `at`.
fn thrift_value_end(b: &[u8], at: usize, kind: u8) -> usize {
    let varint_end = |mut at: usize| {
        while b[at] & 0x80 != 0 {
            at += 1;
        }
        at + 1
    };
    let varint = |mut at: usize| {
        let (mut v, mut shift) = (0u64, 0);
        loop {
            v |= u64::from(b[at] & 0x7f) << shift;
            at += 1;
            if b[at - 1] & 0x80 == 0 {
                return (v as usize, at);
            }
            shift += 7;
        }
    };
    match kind {
        1 | 2 => at,
        3 => at + 1,
        4..=6 => varint_end(at),
        7 => at + 8,
        8 => {
            let (len, at) = varint(at);
            at + len
        }
        9 | 10 => {
            let element = b[at] & 0x0f;
            let (n, mut at) = match b[at] >> 4 {
                15 => varint(at + 1),
                n => (usize::from(n), at + 1),
            };
            for _ in 0..n {
                // Booleans in a list take a byte each.
                at = if matches!(element, 1 | 2) { at + 1 } else { thrift_value_end(b, at, element) };
            }
            at
        }
        12 => thrift_struct_end(b, at),
        other => panic!("Thrift type {other} in a page header"),
    }
}

/// The end of the Thrift compact-protocol struct whose fields start at `at`.
fn thrift_struct_end(b: &[u8], mut at: usize) -> usize {
    loop {
        let byte = b[at];
        at += 1;
        if byte == 0 {
            return at;
        }
        if byte >> 4 == 0 {
            // A field id in full, after the type.
            while b[at] & 0x80 != 0 {
                at += 1;
            }
            at += 1;
        }
        at = thrift_value_end(b, at, byte & 0x0f);
    }
}

/// The excluded first data page of a dictionary-encoded column is never
/// decompressed: with its body overwritten (the header left whole, and no
/// checksum to catch it), the range reads the right records; a full read,
/// which must decode the page, fails. Before the fix the range read failed
/// too.
#[test]
fn an_excluded_first_data_page_is_not_decompressed() {
    let file = fixture();
    let meta = metadata(&file);
    // The first data page of `city` in row group 1: its header, then its body.
    let page = meta.page_index_for_row_group(1).page_locations(1).unwrap()[0].clone();
    let start = page.offset as usize;
    let end = start + page.compressed_page_size as usize;
    let body = thrift_struct_end(&file, start);
    assert!(body < end, "the header ends inside the page");
    let mut damaged = file.to_vec();
    damaged[body..end].fill(0xff);
    let damaged = Bytes::from(damaged);
    let ranges = [(reading(3000).id, reading(3100).id)];
    let (records, counts) = read(damaged.clone(), ids_in(&ranges)).unwrap();
    assert_eq!(records, expected_records(&ranges));
    assert_eq!(counts, expected_counts(&file, &ranges));
    let full = ParquetReader::<Reading, _>::new(damaged).unwrap().collect::<Result<Vec<_>, _>>();
    let error = full.expect_err("a full read decodes the damaged page").to_string();
    assert!(error.contains("city"), "{error}");
}
