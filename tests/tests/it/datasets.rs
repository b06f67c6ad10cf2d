//! Partitioned datasets: what the writer lays out (directories, escaping,
//! rolled and bounded files, atomic files, `_SUCCESS`), what the reader
//! gives back (partition fields typed, order, pruning), and what a crash
//! leaves.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use chrono::NaiveDate;
use futures::StreamExt;
use magnolify_parquet::dataset::{DatasetReader, DatasetWriter, NULL_PARTITION};
use magnolify_parquet::{Error, ParquetType, ParquetWriter, ReadOptions, ReaderBuilder};

#[derive(ParquetType, Debug, Clone, PartialEq)]
pub(crate) struct Trip {
    pub(crate) id: u64,
    pub(crate) day: NaiveDate,
    pub(crate) city: Option<String>,
    pub(crate) fare: f64,
    pub(crate) tags: Vec<String>,
}

pub(crate) fn trips(n: u64) -> Vec<Trip> {
    let cities = [Some("Oslo"), Some("São Paulo"), Some("a/b=c%d"), None];
    (0..n)
        .map(|id| Trip {
            id,
            day: NaiveDate::from_ymd_opt(2024, 1, 1 + (id % 3) as u32).unwrap(),
            city: cities[(id % 4) as usize].map(str::to_owned),
            fare: id as f64 * 1.5,
            tags: (0..id % 3).map(|t| format!("t{t}")).collect(),
        })
        .collect()
}

/// A fresh directory for one test, removed when it drops.
pub(crate) fn scratch(name: &str) -> Scratch {
    Scratch(
        tempfile::Builder::new().prefix(&format!("magnolify-dataset-{name}-")).tempdir().expect("scratch directory"),
    )
}

/// A test's directory: a path for as long as it lives.
pub(crate) struct Scratch(tempfile::TempDir);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        self.0.path()
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        self.0.path()
    }
}

/// `n` trips written with the default settings into a fresh directory.
fn written(name: &str, n: u64) -> (Scratch, Vec<Trip>) {
    let dir = scratch(name);
    let rows = trips(n);
    write(&dir, &rows, |b| b);
    (dir, rows)
}

/// Every file and directory under `dir`, relative, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            out.push(path.strip_prefix(dir).unwrap().to_string_lossy().into_owned());
            if path.is_dir() {
                stack.push(path);
            }
        }
    }
    out.sort();
    out
}

pub(crate) fn read_all(dir: &Path) -> Vec<Trip> {
    DatasetReader::builder(dir).unwrap().build(ReadOptions::default()).unwrap().collect::<Result<_, _>>().unwrap()
}

pub(crate) fn by_id(mut rows: Vec<Trip>) -> Vec<Trip> {
    rows.sort_by_key(|t| t.id);
    rows
}

pub(crate) fn write(
    dir: &Path,
    rows: &[Trip],
    settings: impl FnOnce(
        magnolify_parquet::dataset::DatasetWriterBuilder<Trip>,
    ) -> magnolify_parquet::dataset::DatasetWriterBuilder<Trip>,
) -> magnolify_parquet::dataset::DatasetSummary {
    let f = Trip::fields();
    let builder = DatasetWriter::builder(dir).partition_by(&f.day).partition_by(&f.city).writer_id("w1");
    let mut w = settings(builder).build().unwrap();
    w.write_all(rows).unwrap();
    w.close().unwrap()
}

#[test]
fn a_partitioned_dataset_reads_back_with_its_partition_fields_typed() {
    let dir = scratch("roundtrip");
    let rows = trips(1000);
    let summary = write(&dir, &rows, |b| b);
    assert_eq!(summary.rows, 1000);
    // 3 days × 4 cities (one null), one file each.
    assert_eq!(summary.files.len(), 12);
    let dirs: BTreeSet<String> =
        summary.files.iter().map(|f| f.parent().unwrap().to_string_lossy().into_owned()).collect();
    assert!(dirs.contains("day=2024-01-01/city=Oslo"), "{dirs:?}");
    assert!(dirs.contains("day=2024-01-02/city=São Paulo"), "{dirs:?}");
    // Escaped as Hive and Spark escape: `/`, `=` and `%`.
    assert!(dirs.contains("day=2024-01-03/city=a%2Fb%3Dc%25d"), "{dirs:?}");
    assert!(dirs.contains(&format!("day=2024-01-01/city={NULL_PARTITION}")), "{dirs:?}");
    assert!(dir.join("_SUCCESS").is_file());
    assert_eq!(by_id(read_all(&dir)), rows);

    // The files do not store the partition fields.
    let file = std::fs::File::open(dir.join(&summary.files[0])).unwrap();
    let names: Vec<String> = ReaderBuilder::new(file)
        .unwrap()
        .schema()
        .root_schema()
        .get_fields()
        .iter()
        .map(|f| f.name().to_owned())
        .collect();
    assert_eq!(names, ["id", "fare", "tags"]);
}

#[test]
fn records_come_in_path_order_then_file_order_or_unordered_when_asked() {
    let dir = scratch("order");
    let rows = trips(3000);
    write(&dir, &rows, |b| b.limits(|l| l.max_rows_per_file(100)));
    let reader = DatasetReader::<Trip>::builder(&dir).unwrap();
    let files: Vec<PathBuf> = reader.files().iter().map(|f| f.relative.clone()).collect();
    let mut sorted = files.clone();
    sorted.sort();
    assert_eq!(files, sorted);
    // In order: the records of each file in turn, files by path.
    let mut expected = Vec::new();
    for file in &files {
        let day = file.components().next().unwrap().as_os_str().to_string_lossy().into_owned();
        let ids: Vec<u64> = ReaderBuilder::new(std::fs::File::open(dir.join(file)).unwrap())
            .unwrap()
            .build::<IdOnly>(ReadOptions::default())
            .unwrap()
            .map(|r| r.unwrap().id)
            .collect();
        expected.extend(ids.into_iter().map(|id| (day.clone(), id)));
    }
    for threads in [1, 2, 3] {
        let got: Vec<(String, u64)> = DatasetReader::<Trip>::builder(&dir)
            .unwrap()
            .build(ReadOptions::default().threads(threads))
            .unwrap()
            .map(|t| {
                let t = t.unwrap();
                (format!("day={}", t.day), t.id)
            })
            .collect();
        assert_eq!(got, expected, "{threads} threads");
    }
    let unordered: Vec<Trip> = DatasetReader::builder(&dir)
        .unwrap()
        .unordered()
        .build(ReadOptions::default().threads(2))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(by_id(unordered), rows);
}

#[derive(ParquetType, Debug, PartialEq)]
struct IdOnly {
    id: u64,
}

#[test]
fn files_roll_at_their_row_and_byte_limits() {
    let dir = scratch("roll");
    let rows = trips(2400);
    let summary = write(&dir, &rows, |b| b.limits(|l| l.max_rows_per_file(150)));
    // 200 records in each of 12 partitions: 150 + 50.
    assert_eq!(summary.files.len(), 24);
    for file in &summary.files {
        let meta = ReaderBuilder::new(std::fs::File::open(dir.join(file)).unwrap()).unwrap();
        let rows = meta.metadata().file_metadata().num_rows();
        assert!(rows == 150 || rows == 50, "{rows}");
    }
    assert_eq!(by_id(read_all(&dir)), rows);

    let dir2 = scratch("roll-bytes");
    // Row groups of 50 records take about 400 bytes here: a file rolls
    // once its third (or, for the larger tags, second) group is written.
    let summary = write(&dir2, &rows, |b| b.limits(|l| l.max_bytes_per_file(800)).files(|f| f.max_row_group_rows(50)));
    let counts: Vec<i64> = summary
        .files
        .iter()
        .map(|f| {
            ReaderBuilder::new(std::fs::File::open(dir2.join(f)).unwrap())
                .unwrap()
                .metadata()
                .file_metadata()
                .num_rows()
        })
        .collect();
    assert!(counts.iter().all(|&n| n % 50 == 0 && n <= 150), "{counts:?}");
    assert!(summary.files.len() >= 24, "{counts:?}");
    assert_eq!(by_id(read_all(&dir2)), rows);
}

#[test]
fn past_the_open_file_bound_records_are_held_and_each_partition_makes_one_file() {
    let dir = scratch("held");
    let rows = trips(1200);
    // 12 partitions visited in turn, 5 files open at most: the records of
    // the other 7 are held, in memory, and written at `close`.
    let summary = write(&dir, &rows, |b| b.limits(|l| l.max_open_files(5)));
    assert_eq!((summary.rows, summary.files.len(), summary.spilled_runs), (1200, 12, 0));
    let names: BTreeSet<&PathBuf> = summary.files.iter().collect();
    assert_eq!(names.len(), summary.files.len(), "file names are unique");
    assert_eq!(by_id(read_all(&dir)), rows);

    // Partitions in runs: with 3 open files, no file is closed early.
    let dir2 = scratch("lru-runs");
    let mut runs = rows.clone();
    runs.sort_by_key(|t| (t.day, t.city.clone()));
    let summary = write(&dir2, &runs, |b| b.limits(|l| l.max_open_files(3)));
    assert_eq!((summary.files.len(), summary.spilled_runs), (12, 0));
}

#[test]
fn threads_and_several_writers_write_one_dataset() {
    let dir = scratch("threads");
    let rows = trips(5000);
    let f = Trip::fields();
    let (first, second) = rows.split_at(2500);
    for (id, part, threads) in [("a", first, 2), ("b", second, 3)] {
        let mut w = DatasetWriter::builder(&dir)
            .partition_by(&f.day)
            .partition_by(&f.city)
            .writer_id(id)
            .threads(threads)
            .limits(|l| l.max_rows_per_file(300))
            .build()
            .unwrap();
        w.write_all(part).unwrap();
        let summary = w.close().unwrap();
        assert_eq!(summary.rows, part.len() as u64);
        assert!(summary.files.iter().all(|f| f
            .file_name()
            .unwrap()
            .to_string_lossy()
            .ends_with(&format!("-{id}.parquet"))));
    }
    assert_eq!(by_id(read_all(&dir)), rows);
}

#[test]
fn a_predicate_skips_the_files_of_other_partitions_and_filters_records() {
    let (dir, rows) = written("prune", 3000);
    let f = Trip::fields();
    let day2 = NaiveDate::from_ymd_opt(2024, 1, 2).unwrap();
    let cases = [
        (f.day.eq(day2), 8),
        (f.city.is_null(), 9),
        (f.city.eq("Oslo").or(f.city.is_null()), 6),
        (f.day.ge(day2).and(f.fare.lt(300.0)), 4),
        (f.fare.lt(300.0), 0),
        (f.day.eq(day2).not(), 4),
    ];
    for (predicate, skipped) in cases {
        let expected: Vec<Trip> = rows.iter().filter(|t| predicate.test(t)).cloned().collect();
        for threads in [1, 2] {
            let mut reader = DatasetReader::builder(&dir)
                .unwrap()
                .build(ReadOptions::default().filter(predicate.clone()).threads(threads))
                .unwrap();
            let got: Vec<Trip> = reader.by_ref().collect::<Result<_, _>>().unwrap();
            assert_eq!(by_id(got), expected, "{predicate:?}");
            let counts = reader.counts();
            assert_eq!((counts.files_skipped, counts.files_read), (skipped, 12 - skipped), "{predicate:?}");
            assert_eq!(counts.filter.records_passed, expected.len() as u64);
        }
    }
}

#[test]
fn partition_values_that_look_like_markers_are_data() {
    let dir = scratch("marker-values");
    let f = Trip::fields();
    let mut rows = trips(3);
    for (row, city) in rows.iter_mut().zip(["notes.crc", "_x", "y._COPYING_"]) {
        row.city = Some(city.into());
    }
    let mut w = DatasetWriter::builder(&dir).partition_by(&f.city).build().unwrap();
    w.write_all(&rows).unwrap();
    w.close().unwrap();
    assert_eq!(by_id(read_all(&dir)), rows);
}

#[test]
fn markers_hidden_files_and_work_directories_are_skipped() {
    let (dir, rows) = written("markers", 100);
    let leaf = dir.join("day=2024-01-01").join("city=Oslo");
    std::fs::write(dir.join("_committed_123"), b"{}").unwrap();
    std::fs::write(leaf.join(".part-00000.parquet.crc"), b"crc").unwrap();
    std::fs::write(leaf.join("_started_5"), b"").unwrap();
    std::fs::write(leaf.join("part-7.parquet._COPYING_"), b"partial").unwrap();
    std::fs::create_dir_all(dir.join("_temporary").join("0")).unwrap();
    std::fs::write(dir.join("_temporary").join("0").join("part-9.parquet"), b"partial").unwrap();
    std::fs::create_dir_all(dir.join(".hidden")).unwrap();
    std::fs::write(dir.join(".hidden").join("x.parquet"), b"partial").unwrap();
    let reader = DatasetReader::<Trip>::builder(&dir).unwrap();
    assert_eq!(reader.files().len(), 12);
    assert_eq!(by_id(reader.build(ReadOptions::default()).unwrap().collect::<Result<_, _>>().unwrap()), rows);
}

#[test]
fn bad_partitions_are_errors_that_say_what_to_change() {
    let dir = scratch("bad");
    let f = Trip::fields();
    let mut w = DatasetWriter::builder(&dir).partition_by(&f.city).build().unwrap();
    let mut trip = trips(1).remove(0);
    trip.city = Some(String::new());
    let message = w.write(&trip).unwrap_err().to_string();
    assert!(message.contains("an empty string cannot be a partition value"), "{message}");
    assert!(message.contains("city"), "{message}");
    drop(w);

    #[derive(ParquetType, Debug, PartialEq)]
    struct Outer {
        id: u32,
        inner: Inner,
    }
    #[derive(ParquetType, Debug, PartialEq)]
    struct Inner {
        code: u32,
    }
    let Err(error) = DatasetWriter::<Outer>::builder(&dir).partition_by(&Outer::fields().inner.code).build() else {
        panic!("a nested partition field")
    };
    assert!(error.to_string().contains("partition by a top-level field"), "{error}");

    // The null directory's own name as a value would read back as null.
    let mut w = DatasetWriter::builder(&dir).partition_by(&f.city).build().unwrap();
    let mut trip = trips(1).remove(0);
    trip.city = Some(NULL_PARTITION.into());
    let message = w.write(&trip).unwrap_err().to_string();
    assert!(message.contains("it names the null partition; use `None`"), "{message}");
    drop(w);

    // Two writers with one id would overwrite each other's files.
    let shared = scratch("same-id");
    for attempt in 0..2 {
        let mut w = DatasetWriter::builder(&shared).partition_by(&f.day).writer_id("same").build().unwrap();
        let written = w.write(&trips(1)[0]);
        if attempt == 0 {
            written.unwrap();
            w.close().unwrap();
        } else {
            let message = written.unwrap_err().to_string();
            assert!(message.contains("give each writer its own `writer_id`"), "{message}");
            // The writer is stopped: no commit, no second `_SUCCESS`.
            assert!(w.close().is_err());
        }
    }

    // A directory whose value does not fit its field names the file and the fix.
    let bad = scratch("bad-dir");
    let part = bad.join("day=yesterday");
    std::fs::create_dir_all(&part).unwrap();
    let mut w = ParquetWriter::<IdOnly, _>::create(part.join("f.parquet")).unwrap();
    w.write(&IdOnly { id: 1 }).unwrap();
    w.close().unwrap();
    #[derive(ParquetType, Debug, PartialEq)]
    struct Dated {
        id: u64,
        day: NaiveDate,
    }
    let Err(error) = DatasetReader::<Dated>::builder(&bad).unwrap().build(ReadOptions::default()) else {
        panic!("a bad date")
    };
    let message = error.to_string();
    assert!(message.contains("`day=yesterday` does not hold a date (YYYY-MM-DD)"), "{message}");
    assert!(message.contains("f.parquet"), "{message}");
    // Read as a string, it is one.
    #[derive(ParquetType, Debug, PartialEq)]
    struct Named {
        id: u64,
        day: String,
    }
    let named: Vec<Named> =
        DatasetReader::builder(&bad).unwrap().build(ReadOptions::default()).unwrap().collect::<Result<_, _>>().unwrap();
    assert_eq!(named, [Named { id: 1, day: "yesterday".into() }]);

    // A null directory read into a required field.
    let nulls = scratch("bad-null");
    std::fs::create_dir_all(nulls.join(format!("day={NULL_PARTITION}"))).unwrap();
    let mut w =
        ParquetWriter::<IdOnly, _>::create(nulls.join(format!("day={NULL_PARTITION}")).join("f.parquet")).unwrap();
    w.write(&IdOnly { id: 1 }).unwrap();
    w.close().unwrap();
    let Err(error) = DatasetReader::<Named>::builder(&nulls).unwrap().build(ReadOptions::default()) else {
        panic!("a null into a String")
    };
    assert!(error.to_string().contains("holds a null; make `day` an `Option`"), "{error}");

    // A directory naming a field of a type that cannot partition (the
    // writer takes only `PartitionValue` fields: a compile error there).
    let floats = scratch("bad-float");
    std::fs::create_dir_all(floats.join("fare=1.5")).unwrap();
    let mut w = ParquetWriter::<IdOnly, _>::create(floats.join("fare=1.5").join("f.parquet")).unwrap();
    w.write(&IdOnly { id: 1 }).unwrap();
    w.close().unwrap();
    let Err(error) = DatasetReader::<Trip>::builder(&floats).unwrap().build(ReadOptions::default()) else {
        panic!("a float partition")
    };
    let message = error.to_string();
    assert!(
        message
            .contains("partition fields must be booleans, integers, strings or dates (`NaiveDate`); `fare` is DOUBLE"),
        "{message}"
    );

    // Files under different partition fields.
    let other = bad.join("f2.parquet");
    let mut w = ParquetWriter::<IdOnly, _>::create(&other).unwrap();
    w.write(&IdOnly { id: 2 }).unwrap();
    w.close().unwrap();
    let Err(error) = DatasetReader::<Named>::builder(&bad) else { panic!("two layouts") };
    assert!(error.to_string().contains("not under the same partition fields"), "{error}");
}

#[test]
fn a_writer_dropped_without_close_leaves_no_partial_file_and_no_marker() {
    for threads in [1, 2] {
        let dir = scratch(&format!("dropped-{threads}"));
        let f = Trip::fields();
        // 7,000 records over 3 days: one file of 1,500 rolls per day. With
        // threads, records still waiting in the caller are dropped too; a
        // day's threads have had at least 2,048 of its records by then.
        let mut w = DatasetWriter::builder(&dir)
            .partition_by(&f.day)
            .threads(threads)
            .limits(|l| l.max_rows_per_file(1500))
            .build()
            .unwrap();
        w.write_all(&trips(7000)).unwrap();
        drop(w);
        let files = listing(&dir);
        assert!(!files.iter().any(|f| f.contains("_SUCCESS") || f.contains(".tmp")), "{files:?}");
        // The files that rolled are complete; nothing else is there.
        let data: Vec<&String> = files.iter().filter(|f| f.ends_with(".parquet")).collect();
        assert_eq!(data.len(), 3, "{threads} threads: {files:?}");
        let back = read_all(&dir);
        assert_eq!(back.len(), 4500);
    }
}

/// A child process writing a dataset aborts mid-way (`dataset_crash`):
/// the files it completed are whole and readable, the open ones are only
/// hidden temporaries, and there is no `_SUCCESS`.
#[test]
fn a_writer_killed_mid_way_leaves_no_visible_partial_file_and_no_success_marker() {
    let bin = env!("CARGO_BIN_EXE_dataset_crash");
    for threads in ["1", "2"] {
        let dir = scratch(&format!("crash-{threads}"));
        let status =
            std::process::Command::new(bin).arg(dir.as_os_str()).arg(threads).status().expect("run dataset_crash");
        assert!(!status.success(), "the child aborts");
        let files = listing(&dir);
        assert!(!files.iter().any(|f| f.ends_with("_SUCCESS")), "{files:?}");
        // 10,000 records into 4 sensors, files of 700: 3 complete per
        // sensor with one thread (with two, those the threads reached).
        let visible: Vec<&String> = files
            .iter()
            .filter(|f| f.ends_with(".parquet") && !f.rsplit('/').next().unwrap().starts_with('.'))
            .collect();
        if threads == "1" {
            assert_eq!(visible.len(), 12, "{files:?}");
        }
        assert!(
            files.iter().any(|f| f.rsplit('/').next().unwrap().starts_with('.')),
            "open files left as hidden temporaries: {files:?}"
        );
        #[derive(ParquetType, Debug, PartialEq)]
        struct Reading {
            sensor: String,
            seq: u64,
            value: f64,
        }
        let back: Vec<Reading> = DatasetReader::builder(&dir)
            .unwrap()
            .build(ReadOptions::default())
            .unwrap()
            .collect::<Result<_, Error>>()
            .unwrap();
        assert_eq!(back.len(), visible.len() * 700);
        assert!(back.iter().all(|r| r.sensor == format!("s{}", r.seq % 4) && r.value == r.seq as f64));
    }
}

/// The same dataset written into an object store (each file a multipart
/// upload, files rolled and records held as on a disk), read back by the store's
/// dataset reader; a writer dropped before `close` leaves no `_SUCCESS`
/// and no object of the files it had open.
#[test]
fn a_dataset_in_an_object_store_is_written_and_read_back() {
    use magnolify_parquet::dataset::StoreDatasetReader;
    use object_store::{memory::InMemory, path::Path, ObjectStore, ObjectStoreExt};
    use std::sync::Arc;

    let rows = trips(2_000);
    let f = Trip::fields();
    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    runtime.block_on(async {
        let store = Arc::new(InMemory::new());
        let mut w = DatasetWriter::builder("warehouse/trips")
            .partition_by(&f.day)
            .partition_by(&f.city)
            .limits(|l| l.max_rows_per_file(100).max_open_files(5))
            .writer_id("s")
            .build_in_store(store.clone())
            .unwrap();
        w.write_all(&rows).await.unwrap();
        let summary = w.close().await.unwrap();
        // 12 partitions of 166 or 167 trips, 5 open: two files each.
        assert_eq!((summary.rows, summary.files.len()), (2_000, 24));
        assert!(
            summary.files.iter().any(|f| f.starts_with("day=2024-01-03/city=a%2Fb%3Dc%25d")),
            "{:?}",
            summary.files
        );
        assert!(store.head(&Path::from("warehouse/trips/_SUCCESS")).await.is_ok());

        let builder = StoreDatasetReader::<Trip>::builder(store.clone(), &Path::from("warehouse/trips")).await.unwrap();
        assert_eq!(builder.files().len(), summary.files.len());
        let mut dataset = builder.build(ReadOptions::default()).unwrap();
        let mut back = Vec::new();
        while let Some(record) = dataset.next().await {
            back.push(record.unwrap());
        }
        assert_eq!(by_id(back), rows);

        let dropped = Arc::new(InMemory::new());
        let mut w = DatasetWriter::builder("d").partition_by(&f.day).build_in_store(dropped.clone()).unwrap();
        w.write_all(&rows).await.unwrap();
        drop(w);
        let listed: Vec<_> = futures::TryStreamExt::try_collect::<Vec<_>>(dropped.list(None)).await.unwrap();
        assert!(listed.is_empty(), "{listed:?}");
    });
}

/// Each file of a written dataset as (its directory, its rows), sorted:
/// what the same input must give again, file names aside.
fn layout(dir: &Path, summary: &magnolify_parquet::dataset::DatasetSummary) -> Vec<(String, i64)> {
    use magnolify_parquet::parquet::file::reader::{FileReader, SerializedFileReader};
    let mut files: Vec<(String, i64)> = summary
        .files
        .iter()
        .map(|f| {
            let reader = SerializedFileReader::new(std::fs::File::open(dir.join(f)).unwrap()).unwrap();
            (f.parent().unwrap().to_string_lossy().into_owned(), reader.metadata().file_metadata().num_rows())
        })
        .collect();
    files.sort();
    files
}

/// Threads own the partitions by a fixed hash of their directory: the same
/// records and settings make the same files in every run. (With a seeded
/// hash, as before, which partitions share a thread, and so which
/// partitions are held past the bound of 4 open files a thread, changed
/// from writer to writer.)
#[test]
fn the_same_records_make_the_same_files_with_threads() {
    let rows = trips(1200);
    let settings = |b: magnolify_parquet::dataset::DatasetWriterBuilder<Trip>| {
        b.threads(3).limits(|l| l.max_open_files(12).max_rows_per_file(40))
    };
    let mut layouts = Vec::new();
    for run in 0..3 {
        let dir = scratch(&format!("deterministic-{run}"));
        let summary = write(&dir, &rows, settings);
        assert_eq!(summary.rows, 1200);
        layouts.push(layout(&dir, &summary));
    }
    assert!(layouts.iter().all(|l| *l == layouts[0]), "{:?}", layouts.iter().map(Vec::len).collect::<Vec<_>>());
    let rows_in_files: i64 = layouts[0].iter().map(|(_, rows)| rows).sum();
    assert_eq!((layouts[0].len(), rows_in_files), (EXPECTED_FILES, 1200));
}

/// The files of [`the_same_records_make_the_same_files_with_threads`]:
/// 12 partitions of 100 trips in files of 40, 40 and 20.
const EXPECTED_FILES: usize = 12 * 3;

/// A dataset written into a store with encoding threads is the same,
/// object for object and byte for byte, as one written with one thread;
/// and it reads back.
#[test]
fn a_dataset_writer_into_a_store_encodes_on_threads_and_writes_the_same_objects() {
    use object_store::{memory::InMemory, ObjectStore, ObjectStoreExt};
    use std::sync::Arc;

    let rows = trips(3_000);
    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    let objects = |threads: usize| {
        runtime.block_on(async {
            let store = Arc::new(InMemory::new());
            let mut w = DatasetWriter::builder("d")
                .partition_by(&Trip::fields().day)
                .limits(|l| l.max_rows_per_file(700))
                .threads(threads)
                .writer_id("t")
                // Small batches: each object's columns are encoded batch after batch.
                .files(|b| b.batch_size(64))
                .build_in_store(store.clone())
                .unwrap();
            w.write_all(&rows).await.unwrap();
            assert_eq!(w.close().await.unwrap().rows, 3_000);
            let listed = futures::TryStreamExt::try_collect::<Vec<_>>(store.list(None)).await.unwrap();
            let mut objects = Vec::new();
            for meta in listed {
                let bytes = store.get(&meta.location).await.unwrap().bytes().await.unwrap();
                objects.push((meta.location.to_string(), bytes));
            }
            objects.sort();
            objects
        })
    };
    let (one, three) = (objects(1), objects(3));
    // 3 days of 1,000 trips in files of 700, and `_SUCCESS`.
    assert_eq!(one.len(), 7, "{:?}", one.iter().map(|o| &o.0).collect::<Vec<_>>());
    assert_eq!(one, three);
}

/// A code that panics when read back: a type's own conversion gone wrong.
mod code_that_panics {
    pub type Repr = u32;

    pub fn to_parquet(value: &u32) -> Result<u32, std::convert::Infallible> {
        Ok(*value)
    }

    pub fn from_parquet(repr: u32) -> Result<u32, std::convert::Infallible> {
        assert!(repr != 13, "a conversion that panics at 13");
        Ok(repr)
    }
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Coded {
    day: u32,
    #[parquet(with = "code_that_panics")]
    code: u32,
}

/// A reading thread that panics (in a type's own conversion, here) ends
/// the records with an error, never with a silent end of its file's
/// records.
#[test]
fn a_panic_on_a_reading_thread_is_an_error_not_an_early_end() {
    let dir = scratch("panic");
    let mut w = DatasetWriter::builder(&dir).partition_by(&Coded::fields().day).build().unwrap();
    // Four files of 10 codes; the panic is in the second file's fourth record.
    w.write_all(&(0..40).map(|code| Coded { day: code / 10, code }).collect::<Vec<_>>()).unwrap();
    w.close().unwrap();
    for ordered in [true, false] {
        let builder = DatasetReader::<Coded>::builder(&dir).unwrap();
        let builder = if ordered { builder } else { builder.unordered() };
        let read: Vec<Result<Coded, Error>> = builder.build(ReadOptions::default().threads(2)).unwrap().collect();
        let errors: Vec<String> = read.iter().filter_map(|r| r.as_ref().err().map(|e| e.to_string())).collect();
        assert_eq!(errors.len(), 1, "ordered {ordered}: {errors:?}");
        assert!(errors[0].contains("reading a file panicked"), "{}", errors[0]);
        assert!(read.last().unwrap().is_err(), "the error ends the records (ordered {ordered})");
        let codes: Vec<u32> = read.iter().filter_map(|r| r.as_ref().ok().map(|c| c.code)).collect();
        assert!(!codes.contains(&13) && codes.len() < 40, "ordered {ordered}: {codes:?}");
        if ordered {
            // The files before the one that panicked, then its error.
            assert_eq!(codes[..10], (0..10).collect::<Vec<_>>()[..], "{codes:?}");
        }
    }
}
