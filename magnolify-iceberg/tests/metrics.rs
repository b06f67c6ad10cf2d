//! The DataFile of a written file: what a manifest says of it, computed
//! here from the records themselves.

mod common;

use std::collections::HashMap;

use chrono::{Days, NaiveDate};
use iceberg::spec::{DataFile, Datum};
use iceberg::table::Table;
use magnolify_iceberg::TableWriter;
use magnolify_parquet::ParquetType;

#[derive(ParquetType, Clone, Debug, PartialEq)]
struct Metric {
    id: i32,
    score: Option<f64>,
    name: String,
    blob: Vec<u8>,
    day: NaiveDate,
    tags: Vec<i32>,
}

fn metric(i: u8) -> Metric {
    let start = NaiveDate::from_ymd_opt(2024, 1, 1).unwrap();
    Metric {
        id: i32::from(i) * 3 - 20,
        score: match i {
            _ if i.is_multiple_of(5) => None,
            7 => Some(f64::NAN),
            _ => Some(f64::from(i) / 2.0),
        },
        name: format!("name-{}", "é".repeat(usize::from(i % 20))),
        blob: vec![i; usize::from(i % 20)],
        day: start.checked_add_days(Days::new(u64::from(i))).unwrap(),
        tags: (0..i32::from(i % 4)).collect(),
    }
}

async fn data_files(table: &Table) -> Vec<DataFile> {
    let snapshot = table.metadata().current_snapshot().unwrap().clone();
    let list = table.manifest_list_reader(&snapshot).load().await.unwrap();
    let mut out = Vec::new();
    for manifest in list.entries() {
        for entry in manifest.load_manifest(table.file_io()).await.unwrap().entries() {
            out.push(entry.data_file().clone());
        }
    }
    out
}

#[tokio::test]
async fn a_data_file_has_the_counts_and_bounds_of_its_records() {
    let (_dir, catalog, table) = common::new_table::<Metric>("m", "metrics").await;
    let records: Vec<Metric> = (0..50).map(metric).collect();
    let mut writer = TableWriter::builder(&table).build().unwrap();
    writer.write_all(&records).await.unwrap();
    let table = writer.commit(&catalog).await.unwrap();

    let files = data_files(&table).await;
    let [file] = &files[..] else { panic!("{} files", files.len()) };
    let schema = table.metadata().current_schema();
    let id = |path: &str| schema.field_by_name(path).unwrap().id;
    let (ids, scores, names, blobs, days, tags) =
        (id("id"), id("score"), id("name"), id("blob"), id("day"), id("tags.element"));
    assert_eq!((ids, scores, names, blobs, days, tags), (1, 2, 3, 4, 5, 7));

    assert_eq!(file.record_count(), 50);
    assert_eq!(
        file.file_size_in_bytes(),
        std::fs::metadata(file.file_path().trim_start_matches("file://")).unwrap().len()
    );
    let mut sized: Vec<_> = file.column_sizes().keys().copied().collect();
    sized.sort();
    assert_eq!(sized, [ids, scores, names, blobs, days, tags]);

    // A list's column counts its levels: one per element, one per empty list.
    let tag_levels: u64 = records.iter().map(|r| r.tags.len().max(1) as u64).sum();
    let counts = HashMap::from([(ids, 50), (scores, 50), (names, 50), (blobs, 50), (days, 50), (tags, tag_levels)]);
    assert_eq!(file.value_counts(), &counts);
    let no_score = records.iter().filter(|r| r.score.is_none()).count() as u64;
    let empty_lists = records.iter().filter(|r| r.tags.is_empty()).count() as u64;
    let nulls = HashMap::from([(ids, 0), (scores, no_score), (names, 0), (blobs, 0), (days, 0), (tags, empty_lists)]);
    assert_eq!(file.null_value_counts(), &nulls);
    // NaNs are counted for float and double columns only.
    let nans = records.iter().filter(|r| r.score.is_some_and(f64::is_nan)).count() as u64;
    assert_eq!((nans, file.nan_value_counts()), (1, &HashMap::from([(scores, 1)])));

    // Bounds: exact for numbers and dates (NaN left out), cut to 16
    // characters for text (the upper bound grown past every value it cut),
    // none for a list's column.
    let finite = records.iter().filter_map(|r| r.score).filter(|s| !s.is_nan());
    let (low_score, high_score) = finite.fold((f64::MAX, f64::MIN), |(l, h), s| (l.min(s), h.max(s)));
    let longest = records.iter().map(|r| r.name.clone()).max().unwrap();
    let cut: String = longest.chars().take(15).collect();
    let lower = HashMap::from([
        (ids, Datum::int(records.iter().map(|r| r.id).min().unwrap())),
        (scores, Datum::double(low_score)),
        (names, Datum::string(records.iter().map(|r| r.name.clone()).min().unwrap())),
        (blobs, Datum::binary(records.iter().map(|r| r.blob.clone()).min().unwrap())),
        (days, Datum::date_from_ymd(2024, 1, 1).unwrap()),
    ]);
    let upper = HashMap::from([
        (ids, Datum::int(records.iter().map(|r| r.id).max().unwrap())),
        (scores, Datum::double(high_score)),
        (names, Datum::string(format!("{cut}ê"))),
        (blobs, Datum::binary(records.iter().map(|r| r.blob.clone()).max().unwrap())),
        (days, Datum::date_from_ymd(2024, 2, 19).unwrap()),
    ]);
    assert_eq!(file.lower_bounds(), &lower);
    assert_eq!(file.upper_bounds(), &upper);
    assert_eq!(longest.chars().count(), 24, "the longest name is cut");
    assert_eq!(file.split_offsets(), Some(&[4][..]));
}

#[derive(ParquetType, Clone, Debug, PartialEq)]
struct Reading {
    x: Option<f64>,
}

/// The one data file of `values` written in row groups of two.
async fn file_of(values: &[Option<f64>]) -> (DataFile, i32) {
    let (_dir, catalog, table) = common::new_table::<Reading>("m", "readings").await;
    let mut writer = TableWriter::builder(&table).files(|b| b.max_row_group_rows(2)).build().unwrap();
    writer.write_all(&values.iter().map(|&x| Reading { x }).collect::<Vec<_>>()).await.unwrap();
    let table = writer.commit(&catalog).await.unwrap();
    let files = data_files(&table).await;
    let [file] = &files[..] else { panic!("{} files", files.len()) };
    (file.clone(), table.metadata().current_schema().field_by_name("x").unwrap().id)
}

#[tokio::test]
async fn a_file_of_several_row_groups_has_the_metrics_of_all_its_records() {
    // A row group of nulls holds no NaN: the file's count stays known.
    let (file, x) = file_of(&[Some(1.0), Some(2.0), None, None]).await;
    assert_eq!(file.split_offsets().map(<[i64]>::len), Some(2), "two row groups");
    assert_eq!(file.null_value_counts(), &HashMap::from([(x, 2)]));
    assert_eq!(file.nan_value_counts(), &HashMap::from([(x, 0)]));
    assert_eq!(file.lower_bounds(), &HashMap::from([(x, Datum::double(1.0))]));
    assert_eq!(file.upper_bounds(), &HashMap::from([(x, Datum::double(2.0))]));

    // A row group of NaNs has no bounds to add: the others' stand.
    let (file, x) = file_of(&[Some(1.0), Some(2.0), Some(f64::NAN), Some(f64::NAN)]).await;
    assert_eq!(file.null_value_counts(), &HashMap::from([(x, 0)]));
    assert_eq!(file.nan_value_counts(), &HashMap::from([(x, 2)]));
    assert_eq!(file.lower_bounds(), &HashMap::from([(x, Datum::double(1.0))]));
    assert_eq!(file.upper_bounds(), &HashMap::from([(x, Datum::double(2.0))]));

    // Nulls, NaNs and numbers in every mix of row groups.
    let (file, x) = file_of(&[None, Some(f64::NAN), Some(-3.5), None, Some(f64::NAN), Some(f64::NAN), None]).await;
    assert_eq!(file.split_offsets().map(<[i64]>::len), Some(4));
    assert_eq!(file.null_value_counts(), &HashMap::from([(x, 3)]));
    assert_eq!(file.nan_value_counts(), &HashMap::from([(x, 3)]));
    assert_eq!(file.lower_bounds(), &HashMap::from([(x, Datum::double(-3.5))]));
    assert_eq!(file.upper_bounds(), &HashMap::from([(x, Datum::double(-3.5))]));
}
