//! `iceberg`: 1,000,000 rides appended to a table partitioned by zone (20
//! partitions, Snappy) in one commit, against the same rides written as a
//! plain Hive dataset partitioned by zone (the ratio is what the table
//! format costs: the partition transform per record, the metrics, the
//! manifests and the commit); and a scan of the table with a predicate that
//! 1 % of the rides pass against a full scan.
//!
//! The rides are made by a formula that `benches/tools/pyiceberg_anchor.py`
//! repeats, so that its timing of pyiceberg appending the same rows from an
//! Arrow table is the anchor reported beside these (docs/benchmarks.md).

#[path = "../tests/common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use chrono::{DateTime, Utc};
use divan::Bencher;
use iceberg::table::Table;
use iceberg::{Catalog, TableIdent};
use magnolify_iceberg::{create_table, Partitioning, TableScan, TableWriter};
use magnolify_parquet::dataset::DatasetWriter;
use magnolify_parquet::parquet::basic::Compression;
use magnolify_parquet::ParquetType;
use tokio::runtime::Runtime;

/// Records appended and scanned per op.
const RIDES: i64 = 1_000_000;

/// One ride; `zone` (0 to 19) is the partition.
#[derive(ParquetType, Clone, Debug, PartialEq)]
struct Ride {
    zone: i32,
    #[parquet(timestamp = "micros")]
    started: DateTime<Utc>,
    rider: String,
    fare: f64,
    distance: i32,
}

/// Ride `i`: the formula `pyiceberg_anchor.py` repeats.
fn ride(i: i64) -> Ride {
    Ride {
        zone: (i * 7919 % 20) as i32,
        started: DateTime::from_timestamp_micros(1_700_000_000_000_000 + i * 1_500_000).expect("in range"),
        rider: format!("r{}", i * 104_729 % 100_000),
        fare: 2.0 + (i * 31 % 78_000) as f64 / 1_000.0,
        distance: 100 + (i * 17 % 30_000) as i32,
    }
}

fn rides() -> &'static Vec<Ride> {
    static RIDES_: OnceLock<Vec<Ride>> = OnceLock::new();
    RIDES_.get_or_init(|| (0..RIDES).map(ride).collect())
}

fn runtime() -> Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("magnolify-bench-iceberg-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn by_zone() -> Partitioning<Ride> {
    Partitioning::new().identity(&Ride::fields().zone)
}

/// A memory catalog over `dir` with an empty table `bench.rides`.
async fn empty_table(dir: &Path) -> (impl Catalog, Table) {
    std::fs::create_dir_all(dir).expect("scratch directory");
    let catalog = common::memory_catalog(dir, "bench").await;
    let name = TableIdent::from_strs(["bench", "rides"]).expect("name");
    let table = create_table(&catalog, &name, &by_zone()).await.expect("table");
    (catalog, table)
}

async fn append(catalog: &impl Catalog, table: &Table, rides: &[Ride]) -> Table {
    let mut writer = TableWriter::builder(table)
        .partitioning(by_zone())
        .limits(|l| l.max_open_files(20))
        .files(|f| f.compression(Compression::SNAPPY))
        .build()
        .expect("writer");
    writer.write_all(rides).await.expect("write");
    writer.commit(catalog).await.expect("commit")
}

/// The table the scans read, written once.
fn written() -> &'static (Runtime, Table) {
    static TABLE: OnceLock<(Runtime, Table)> = OnceLock::new();
    TABLE.get_or_init(|| {
        let runtime = runtime();
        let table = runtime.block_on(async {
            let (catalog, table) = empty_table(&scratch("scan")).await;
            append(&catalog, &table, rides()).await
        });
        (runtime, table)
    })
}

fn main() {
    divan::main();
    // The scans' table is written once and kept for the run: gone with it,
    // not left in the temporary directory.
    scratch("scan");
}

#[divan::bench(sample_count = 5)]
fn append_partitioned_table(bencher: Bencher) {
    let (runtime, dir) = (runtime(), scratch("append"));
    bencher
        .with_inputs(|| {
            let _ = std::fs::remove_dir_all(&dir);
            runtime.block_on(empty_table(&dir))
        })
        .bench_local_values(|(catalog, table)| runtime.block_on(append(&catalog, &table, rides())));
    let _ = std::fs::remove_dir_all(&dir);
}

#[divan::bench(sample_count = 5)]
fn write_plain_dataset(bencher: Bencher) {
    let root = scratch("dataset");
    bencher
        .with_inputs(|| {
            let _ = std::fs::remove_dir_all(&root);
        })
        .bench_local_values(|()| {
            let mut writer = DatasetWriter::builder(&root)
                .partition_by(&Ride::fields().zone)
                .threads(1)
                .limits(|l| l.max_open_files(20))
                .files(|f| f.compression(Compression::SNAPPY))
                .build()
                .expect("writer");
            writer.write_all(rides()).expect("write");
            writer.close().expect("close")
        });
    let _ = std::fs::remove_dir_all(&root);
}

#[divan::bench(sample_count = 5)]
fn scan_full(bencher: Bencher) {
    let (runtime, table) = written();
    bencher.bench_local(|| {
        let read = runtime.block_on(TableScan::<Ride>::new(table).collect()).expect("scan");
        assert_eq!(read.len(), RIDES as usize);
        read
    });
}

#[divan::bench(sample_count = 5)]
fn scan_full_2_threads(bencher: Bencher) {
    let (runtime, table) = written();
    bencher.bench_local(|| {
        let read = runtime.block_on(TableScan::<Ride>::new(table).threads(2).collect()).expect("scan");
        assert_eq!(read.len(), RIDES as usize);
        read
    });
}

#[divan::bench(sample_count = 5)]
fn scan_1_percent(bencher: Bencher) {
    let (runtime, table) = written();
    let f = Ride::fields();
    let wanted = rides().iter().filter(|r| r.zone == 3 && r.fare < 17.6).count();
    bencher.bench_local(|| {
        let scan = TableScan::<Ride>::new(table).filter(f.zone.eq(3).and(f.fare.lt(17.6)));
        let read = runtime.block_on(scan.collect()).expect("scan");
        assert_eq!(read.len(), wanted);
        read
    });
}
