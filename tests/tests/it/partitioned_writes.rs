//! More partitions than open files: 10,000 orders over 144 partitions in
//! no order, at most 8 files open. Each partition makes exactly one file
//! whatever the order, with the held records in memory or spilled to
//! disk, on one thread or two; a spill directory that cannot be written
//! stops the writer with an error naming it, and no `_SUCCESS`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use magnolify_parquet::dataset::{DatasetReader, DatasetSummary, DatasetWriter, DatasetWriterBuilder, SUCCESS_MARKER};
use magnolify_parquet::ReadOptions;
use test_kit::scattered::{by_partition, orders, unwritable_dir, Order};

use crate::datasets::scratch;

/// `orders` written partitioned by shop then day, with 8 files open at most.
fn write(
    dir: &Path,
    orders: &[Order],
    settings: impl FnOnce(DatasetWriterBuilder<Order>) -> DatasetWriterBuilder<Order>,
) -> magnolify_parquet::Result<DatasetSummary> {
    let f = Order::fields();
    let builder =
        DatasetWriter::builder(dir).partition_by(&f.shop).partition_by(&f.day).limits(|l| l.max_open_files(8));
    let mut writer = settings(builder).build()?;
    writer.write_all(orders)?;
    writer.close()
}

/// The dataset's records by partition, each partition's in the order read.
fn read_back(dir: &Path) -> BTreeMap<(i32, i32), Vec<Order>> {
    let reader = DatasetReader::<Order>::builder(dir).unwrap().build(ReadOptions::default()).unwrap();
    let back: Vec<Order> = reader.collect::<Result<_, _>>().unwrap();
    by_partition(&back)
}

#[test]
fn unsorted_records_over_144_partitions_with_8_files_open_make_one_file_per_partition() {
    let orders = orders(10_000);
    let expected = by_partition(&orders);
    assert_eq!(expected.len(), 144);
    // (threads, spill budget, runs): held in memory; spilled in runs of
    // 64 KiB: holding the 9,444 orders of the 136 partitions without a
    // file takes about 900 KB (their values, the ends of their strings,
    // and the room the buffers grew by), so 12 to 16 runs; on two threads,
    // each with half the budget, about twice as many.
    for (threads, budget, runs) in [(1, 64 << 20, 0..=0), (1, 64 << 10, 12..=16), (2, 64 << 10, 24..=34)] {
        let (dir, spill) = (scratch("scattered"), scratch("scattered-spill"));
        let summary =
            write(&dir, &orders, |b| b.threads(threads).limits(|l| l.spill_budget(budget).spill_dir(&*spill))).unwrap();
        let what = format!("{threads} threads, budget {budget}");
        assert_eq!((summary.rows, summary.files.len()), (10_000, 144), "{what}");
        let directories: BTreeSet<&Path> = summary.files.iter().filter_map(|f| f.parent()).collect();
        assert_eq!(directories.len(), 144, "{what}: one file in each partition's directory");
        assert!(runs.contains(&summary.spilled_runs), "{what}: {} runs", summary.spilled_runs);
        // The runs are removed once read.
        assert_eq!(std::fs::read_dir(&*spill).map_or(0, |d| d.count()), 0, "{what}");
        // One file per partition, read in file order: each partition's
        // orders come back in the order they were written.
        assert!(read_back(&dir) == expected, "{what}");
    }
}

#[test]
fn a_spill_directory_that_cannot_be_written_stops_the_writer_and_names_it() {
    let dir = scratch("spill-fails");
    let blocker = scratch("spill-blocker");
    let spill_dir = unwritable_dir(&blocker);
    let orders = orders(200);
    let f = Order::fields();
    let mut writer = DatasetWriter::builder(&*dir)
        .partition_by(&f.shop)
        .partition_by(&f.day)
        .limits(|l| l.max_open_files(8).spill_budget(1).spill_dir(&spill_dir))
        .build()
        .unwrap();
    let error = orders.iter().find_map(|o| writer.write(o).err()).expect("a spill that fails");
    assert!(error.to_string().contains(&spill_dir.display().to_string()), "{error}");
    // The writer stopped: later writes and `close` fail, and there is no `_SUCCESS`.
    assert!(matches!(writer.write(&orders[0]), Err(magnolify_parquet::Error::WriterState { .. })));
    assert!(writer.close().is_err());
    assert!(!dir.join(SUCCESS_MARKER).exists());
}
