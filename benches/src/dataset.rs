//! The `dataset` group's records: rides over 20 zones, written as a
//! dataset partitioned by zone and read back; and the writer's memory with
//! 1,000 partitions open at once.

use std::path::{Path, PathBuf};

use magnolify_parquet::dataset::{DatasetReader, DatasetSummary, DatasetWriter};
use magnolify_parquet::parquet::basic::Compression;
use magnolify_parquet::{ParquetType, ReadOptions};
use test_kit::rng::XorShift;

/// Records written and read per op.
pub const RIDES: usize = 1_000_000;

/// Partitions (zones) of the dataset.
pub const ZONES: u64 = 20;

/// One ride; `zone` is the partition field.
#[derive(ParquetType, Clone, Debug, PartialEq)]
pub struct Ride {
    /// The partition: 0 to `zones - 1`.
    pub zone: u32,
    /// Epoch milliseconds.
    pub started: i64,
    /// One of 100,000 riders.
    pub rider: String,
    /// Uniform in [2, 80).
    pub fare: f64,
    /// Metres.
    pub distance: u32,
}

/// `n` rides over `zones` zones, from `seed`.
pub fn generate(n: usize, zones: u64, seed: u64) -> Vec<Ride> {
    let mut rng = XorShift::new(seed);
    (0..n)
        .map(|i| Ride {
            zone: rng.below(zones) as u32,
            started: 1_700_000_000_000 + i as i64 * 1_500,
            rider: format!("r{}", rng.below(100_000)),
            fare: 2.0 + rng.below(78_000) as f64 / 1_000.0,
            distance: 100 + rng.below(30_000) as u32,
        })
        .collect()
}

/// Writes `rides` as a dataset at `root` partitioned by zone (Snappy), on
/// `threads` threads, with at most `open` files open.
pub fn write(root: &Path, rides: &[Ride], threads: usize, open: usize) -> magnolify_parquet::Result<DatasetSummary> {
    let mut writer = DatasetWriter::builder(root)
        .partition_by(&Ride::fields().zone)
        .threads(threads)
        .limits(|l| l.max_open_files(open))
        .writer_id("bench")
        .files(|f| f.compression(Compression::SNAPPY))
        .build()?;
    writer.write_all(rides)?;
    writer.close()
}

/// Reads every ride of the dataset at `root` on `threads` threads, in path order.
pub fn read(root: &Path, threads: usize) -> magnolify_parquet::Result<Vec<Ride>> {
    DatasetReader::builder(root)?.build(ReadOptions::default().threads(threads))?.collect()
}

/// A fresh directory for one dataset, under the system's temporary
/// directory: whatever a former use left there is removed.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("magnolify-bench-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// A line of `/proc/self/status` (`VmRSS`, `VmHWM`) in KiB, on Linux.
pub fn proc_status_kib(key: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(key))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
