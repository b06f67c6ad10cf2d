//! Tables written and read back through iceberg-rust's memory catalog, on a
//! local warehouse directory.

mod common;

use std::path::Path;

use chrono::{DateTime, TimeZone, Utc};
use iceberg::memory::MemoryCatalog;
use iceberg::table::Table;
use iceberg::{Catalog, TableIdent};
use magnolify_iceberg::{create_table, Partitioning, TableScan, TableWriter};
use magnolify_parquet::ParquetType;

#[derive(ParquetType, Clone, Debug, PartialEq)]
struct Click {
    id: i64,
    user_id: i64,
    #[parquet(timestamp = "micros")]
    ts: DateTime<Utc>,
    page: String,
    referrer: Option<String>,
    tags: Vec<String>,
}

fn clicks(n: i64, first: i64) -> Vec<Click> {
    (first..first + n)
        .map(|id| Click {
            id,
            user_id: id % 13,
            ts: Utc.with_ymd_and_hms(2024, 3, 1 + (id % 3) as u32, (id % 24) as u32, 0, 0).unwrap(),
            page: format!("/page/{}", id % 7),
            referrer: (id % 4 != 0)
                .then(|| format!("https://ref{}.example/{}", id % 5, "x".repeat((id % 30) as usize))),
            tags: (0..id % 3).map(|t| format!("t{t}")).collect(),
        })
        .collect()
}

fn by_day_and_user() -> Partitioning<Click> {
    let fields = Click::fields();
    Partitioning::new().day(&fields.ts).bucket(8, &fields.user_id)
}

/// A new table `web.clicks` in a memory catalog on a temporary warehouse.
struct Clicks {
    dir: tempfile::TempDir,
    catalog: MemoryCatalog,
    name: TableIdent,
    table: Table,
}

impl Clicks {
    async fn new(partitioning: &Partitioning<Click>) -> Clicks {
        let dir = tempfile::tempdir().unwrap();
        let catalog = common::memory_catalog(dir.path(), "web").await;
        let name = TableIdent::from_strs(["web", "clicks"]).unwrap();
        let table = create_table(&catalog, &name, partitioning).await.unwrap();
        Clicks { dir, catalog, name, table }
    }
}

/// Every file under `dir`, relative to it.
fn files_under(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push(path.strip_prefix(dir).unwrap().display().to_string());
            }
        }
    }
    out.sort();
    out
}

#[tokio::test]
async fn a_partitioned_append_reads_back_every_record_and_one_file_per_partition() {
    let Clicks { dir: _dir, catalog, table, .. } = Clicks::new(&by_day_and_user()).await;

    let written = clicks(200, 0);
    let mut writer = TableWriter::builder(&table).partitioning(by_day_and_user()).build().unwrap();
    writer.write_all(&written).await.unwrap();
    assert_eq!(writer.rows_written(), 200);
    let table = writer.commit(&catalog).await.unwrap();

    let in_order = TableScan::<Click>::new(&table).collect().await.unwrap();
    let mut read = in_order.clone();
    read.sort_by_key(|c| c.id);
    assert_eq!(read, written);
    // Files read four at a time keep the plan's order, records and all.
    assert_eq!(TableScan::<Click>::new(&table).threads(4).collect().await.unwrap(), in_order);

    // One file per (day, bucket) pair that holds a record.
    let partitions: std::collections::BTreeSet<_> = written
        .iter()
        .map(|c| {
            let hash = iceberg::transform::create_transform_function(&iceberg::spec::Transform::Bucket(8))
                .unwrap()
                .transform_literal(&iceberg::spec::Datum::long(c.user_id))
                .unwrap()
                .unwrap();
            (c.ts.date_naive().to_string(), hash.to_string())
        })
        .collect();
    let files = TableScan::<Click>::new(&table).files().await.unwrap();
    assert_eq!(files.len(), partitions.len());
    let mut directories: Vec<_> = files
        .iter()
        .map(|f| {
            let parts: Vec<_> = f.rsplit('/').skip(1).take(2).collect();
            (parts[1].to_owned(), parts[0].to_owned())
        })
        .collect();
    directories.sort();
    let expected: Vec<_> =
        partitions.iter().map(|(d, b)| (format!("ts_day={d}"), format!("user_id_bucket={b}"))).collect();
    assert_eq!(directories, expected);
}

#[tokio::test]
async fn an_abandoned_writer_leaves_the_table_and_its_directory_as_they_were() {
    let Clicks { dir, catalog, name, table } = Clicks::new(&by_day_and_user()).await;
    let before = files_under(dir.path());

    // Files rolled at 10 rows are uploaded before the commit; abort deletes them.
    let mut writer = TableWriter::builder(&table)
        .partitioning(by_day_and_user())
        .limits(|l| l.max_rows_per_file(10))
        .build()
        .unwrap();
    writer.write_all(&clicks(300, 0)).await.unwrap();
    assert!(files_under(dir.path()).len() > before.len(), "some files were uploaded before the commit");
    writer.abort().await.unwrap();
    assert_eq!(files_under(dir.path()), before);

    let table = catalog.load_table(&name).await.unwrap();
    assert_eq!(table.metadata().current_snapshot_id(), None);
    assert_eq!(TableScan::<Click>::new(&table).collect().await.unwrap(), []);
}

#[tokio::test]
async fn two_appends_make_two_snapshots_each_readable_by_id_and_by_time() {
    let Clicks { dir: _dir, catalog, table, .. } = Clicks::new(&Partitioning::<Click>::new()).await;

    let mut writer = TableWriter::builder(&table).build().unwrap();
    writer.write_all(&clicks(50, 0)).await.unwrap();
    let table = writer.commit(&catalog).await.unwrap();
    let first = table.metadata().current_snapshot_id().unwrap();
    let first_ms = table.metadata().history().last().unwrap().timestamp_ms;
    std::thread::sleep(std::time::Duration::from_millis(5));

    let mut writer = TableWriter::builder(&table).build().unwrap();
    writer.write_all(&clicks(30, 50)).await.unwrap();
    let table = writer.commit(&catalog).await.unwrap();

    let sorted = |mut v: Vec<Click>| {
        v.sort_by_key(|c| c.id);
        v
    };
    let now = sorted(TableScan::<Click>::new(&table).collect().await.unwrap());
    assert_eq!(now, clicks(80, 0));
    let then = sorted(TableScan::<Click>::new(&table).snapshot_id(first).collect().await.unwrap());
    assert_eq!(then, clicks(50, 0));
    let as_of = sorted(TableScan::<Click>::new(&table).as_of_timestamp(first_ms).collect().await.unwrap());
    assert_eq!(as_of, clicks(50, 0));
    let err = TableScan::<Click>::new(&table).as_of_timestamp(first_ms - 1).collect().await.unwrap_err();
    assert_eq!(err.to_string(), format!("table `web.clicks`: it had no snapshot at {} ms", first_ms - 1));
}

/// A click's partition: its day and its user's bucket.
type Partition = (chrono::NaiveDate, String);

/// The (day, bucket) partition of a click.
fn partition_of(c: &Click) -> Partition {
    let bucket = iceberg::transform::create_transform_function(&iceberg::spec::Transform::Bucket(8)).unwrap();
    let hash = bucket.transform_literal(&iceberg::spec::Datum::long(c.user_id)).unwrap().unwrap();
    (c.ts.date_naive(), hash.to_string())
}

#[tokio::test]
async fn a_filtered_scan_reads_only_the_files_that_can_match_and_returns_exactly_the_matches() {
    let Clicks { dir: _dir, catalog, table, .. } = Clicks::new(&by_day_and_user()).await;
    let all = clicks(300, 0);
    let mut writer = TableWriter::builder(&table).partitioning(by_day_and_user()).build().unwrap();
    writer.write_all(&all).await.unwrap();
    let table = writer.commit(&catalog).await.unwrap();

    // Each partition's records: one file each.
    let mut partitions: std::collections::BTreeMap<_, Vec<&Click>> = Default::default();
    for c in &all {
        partitions.entry(partition_of(c)).or_default().push(c);
    }
    let files_where =
        |keep: &dyn Fn(&Partition, &[&Click]) -> bool| partitions.iter().filter(|(p, cs)| keep(p, cs)).count();
    let f = Click::fields();
    let march = |d| Utc.with_ymd_and_hms(2024, 3, d, 0, 0, 0).unwrap();
    let day2 = march(2).date_naive();
    let bucket_of_3 = partition_of(&Click { user_id: 3, ..all[0].clone() }).1;
    let cases = [
        // By partition: the day transform of ts, the bucket of user_id.
        ("one day", f.ts.ge(march(2)).and(f.ts.lt(march(3))), files_where(&|p, _| p.0 == day2)),
        ("one user", f.user_id.eq(3), files_where(&|p, _| p.1 == bucket_of_3)),
        // By the files' bounds.
        ("low ids", f.id.lt(10), files_where(&|_, cs| cs.iter().any(|c| c.id < 10))),
        ("a page", f.page.eq("/page/3".to_owned()), files_where(&|_, cs| cs.iter().any(|c| c.page == "/page/3"))),
        ("no referrer", f.referrer.is_null(), files_where(&|_, cs| cs.iter().any(|c| c.referrer.is_none()))),
        // A negation keeps what a reversed comparison keeps, and the nulls.
        ("not from day 2", f.ts.ge(march(2)).not(), files_where(&|p, _| p.0 < day2)),
        ("not (user 3 or day 2+)", f.user_id.eq(3).or(f.ts.ge(march(2))).not(), files_where(&|p, _| p.0 < day2)),
        (
            "a prefix",
            f.page.starts_with("/page/1"),
            files_where(&|_, cs| cs.iter().any(|c| c.page.starts_with("/page/1"))),
        ),
        ("in", f.user_id.is_in([3, 4]), {
            let bucket_of_4 = partition_of(&Click { user_id: 4, ..all[0].clone() }).1;
            files_where(&|p, _| p.1 == bucket_of_3 || p.1 == bucket_of_4)
        }),
    ];
    for (what, predicate, files) in cases {
        let expected: Vec<Click> = all.iter().filter(|c| predicate.test(c)).cloned().collect();
        let scan = TableScan::<Click>::new(&table).filter(predicate);
        assert_eq!(scan.files().await.unwrap().len(), files, "{what}: files planned");
        let mut read = scan.collect().await.unwrap();
        read.sort_by_key(|c| c.id);
        assert_eq!(read, expected, "{what}: records");
        assert!(!expected.is_empty(), "{what}: some records match");
        if ["one day", "one user", "low ids", "not from day 2", "not (user 3 or day 2+)", "in"].contains(&what) {
            assert!(files < partitions.len(), "{what}: files pruned");
        }
    }
}

#[tokio::test]
async fn files_roll_by_bytes_and_partitions_past_the_open_files_are_held() {
    let by_day = || Partitioning::new().day(&Click::fields().ts);
    let Clicks { dir: _dir, catalog, table, .. } = Clicks::new(&by_day()).await;
    let all = clicks(90, 0); // 30 on each of 3 days, the days interleaved

    // A file closes once its first row group (10 records) is flushed: it
    // then holds more than the 4 bytes of its leading magic.
    let mut writer = TableWriter::builder(&table)
        .partitioning(by_day())
        .limits(|l| l.max_bytes_per_file(5))
        .files(|w| w.max_row_group_rows(10))
        .build()
        .unwrap();
    writer.write_all(&all).await.unwrap();
    let table = writer.commit(&catalog).await.unwrap();
    assert_eq!(TableScan::<Click>::new(&table).files().await.unwrap().len(), 9);

    // One file open at a time, the days interleaved: the records of the
    // other two days are held and written at the commit, a file per day.
    let mut writer =
        TableWriter::builder(&table).partitioning(by_day()).limits(|l| l.max_open_files(1)).build().unwrap();
    writer.write_all(&all[..6]).await.unwrap();
    let table = writer.commit(&catalog).await.unwrap();
    assert_eq!(TableScan::<Click>::new(&table).files().await.unwrap().len(), 9 + 3);
    let mut read = TableScan::<Click>::new(&table).collect().await.unwrap();
    read.sort_by_key(|c| c.id);
    let mut expected = all.clone();
    expected.extend(all[..6].iter().cloned());
    expected.sort_by_key(|c| c.id);
    assert_eq!(read, expected);
}

#[tokio::test]
async fn a_writer_without_records_commits_nothing() {
    let Clicks { dir: _dir, catalog, name, table } = Clicks::new(&by_day_and_user()).await;
    let writer = TableWriter::builder(&table).partitioning(by_day_and_user()).build().unwrap();
    let table = writer.commit(&catalog).await.unwrap();
    assert_eq!(table.metadata().current_snapshot_id(), None);
    assert_eq!(catalog.load_table(&name).await.unwrap().metadata().snapshots().count(), 0);
}
