//! `dataset`: 1,000,000 rides written as a dataset partitioned by zone (20
//! partitions, Snappy) and read back, on 1 thread and on all of them; and,
//! printed before the timings, the peak memory (RSS) of a writer with 1,000
//! partitions open at once, measured in a child process of its own.

use std::path::PathBuf;
use std::sync::OnceLock;

use benches::dataset::{self, Ride, RIDES, ZONES};
use benches::SEED;
use divan::Bencher;

/// Set in the child process that measures the writer's memory.
const RSS_CHILD: &str = "MAGNOLIFY_DATASET_RSS_CHILD";

/// Partitions open at once in the memory measurement, and records per partition.
const OPEN: usize = 1_000;
const PER_PARTITION: usize = 200;

fn main() {
    if std::env::var_os(RSS_CHILD).is_some() {
        rss_child();
        return;
    }
    report_rss();
    divan::main();
    // The read benches' dataset is written once and kept for the run: gone
    // with it, not left in the temporary directory.
    dataset::scratch("read");
}

/// In the child: writes 200 rides into each of 1,000 partitions, all open
/// at once (none is closed before the commit), and prints the peak RSS
/// before and after.
fn rss_child() {
    let rides = dataset::generate(OPEN * PER_PARTITION, OPEN as u64, SEED);
    let before = dataset::proc_status_kib("VmHWM:").unwrap_or(0);
    let root = dataset::scratch("rss");
    let summary = dataset::write(&root, &rides, 1, OPEN).expect("write");
    let after = dataset::proc_status_kib("VmHWM:").unwrap_or(0);
    let _ = std::fs::remove_dir_all(&root);
    println!("{before} {after} {}", summary.files.len());
}

fn report_rss() {
    let Ok(exe) = std::env::current_exe() else { return };
    let Ok(out) = std::process::Command::new(exe).env(RSS_CHILD, "1").output() else { return };
    let text = String::from_utf8_lossy(&out.stdout);
    let numbers: Vec<u64> = text.split_whitespace().filter_map(|n| n.parse().ok()).collect();
    if let [before, after, files] = numbers[..] {
        println!(
            "dataset/peak_rss_1000_open_partitions: {:.1} MiB peak ({:.1} MiB before the writer, {files} files of {PER_PARTITION} rides, all open at once)",
            after as f64 / 1024.0,
            before as f64 / 1024.0
        );
    } else {
        println!(
            "dataset/peak_rss_1000_open_partitions: not measured ({})",
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
}

fn all_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn rides() -> &'static Vec<Ride> {
    static RIDES_: OnceLock<Vec<Ride>> = OnceLock::new();
    RIDES_.get_or_init(|| dataset::generate(RIDES, ZONES, SEED))
}

/// The dataset the read benches read, written once.
fn written() -> &'static PathBuf {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| {
        let root = dataset::scratch("read");
        dataset::write(&root, rides(), 1, 64).expect("write");
        root
    })
}

fn write_with(bencher: Bencher, threads: usize) {
    let rides = rides();
    let root = dataset::scratch(&format!("write-{threads}"));
    bencher
        .with_inputs(|| {
            let _ = std::fs::remove_dir_all(&root);
        })
        .bench_local_values(|()| dataset::write(&root, rides, threads, 64).expect("write"));
    let _ = std::fs::remove_dir_all(&root);
}

#[divan::bench(sample_count = 5)]
fn write_1_thread(bencher: Bencher) {
    write_with(bencher, 1);
}

#[divan::bench(sample_count = 5)]
fn write_all_threads(bencher: Bencher) {
    write_with(bencher, all_threads());
}

#[divan::bench(sample_count = 5)]
fn read_1_thread(bencher: Bencher) {
    let root = written();
    bencher.bench_local(|| dataset::read(root, 1).expect("read"));
}

#[divan::bench(sample_count = 5)]
fn read_all_threads(bencher: Bencher) {
    let root = written();
    bencher.bench_local(|| dataset::read(root, all_threads()).expect("read"));
}
