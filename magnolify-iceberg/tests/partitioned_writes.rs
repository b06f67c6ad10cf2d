//! More partitions than open files, into a table: 10,000 orders over 144
//! partitions in no order, at most 8 data files open. The snapshot has
//! exactly one data file per partition, with the held records in memory or
//! spilled to disk; a spill directory that cannot be written stops the
//! writer with an error naming it, and the commit adds no snapshot and
//! leaves no file.

mod common;

use std::collections::BTreeSet;

use iceberg::{Catalog, TableIdent};
use magnolify_iceberg::{create_table, Partitioning, TableScan, TableWriter};
use test_kit::scattered::{by_partition, orders, unwritable_dir, Order};

fn by_shop_and_day() -> Partitioning<Order> {
    let f = Order::fields();
    Partitioning::new().identity(&f.shop).identity(&f.day)
}

#[tokio::test]
async fn unsorted_records_over_144_partitions_with_8_files_open_make_one_data_file_per_partition() {
    let orders = orders(10_000);
    let expected = by_partition(&orders);
    for budget in [64 << 20, 64 << 10] {
        let (dir, spill) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let catalog = common::memory_catalog(dir.path(), "shop").await;
        let name = TableIdent::from_strs(["shop", "orders"]).unwrap();
        let table = create_table(&catalog, &name, &by_shop_and_day()).await.unwrap();
        let mut writer = TableWriter::builder(&table)
            .partitioning(by_shop_and_day())
            .limits(|l| l.max_open_files(8).spill_budget(budget).spill_dir(spill.path()))
            .build()
            .unwrap();
        writer.write_all(&orders).await.unwrap();
        let table = writer.commit(&catalog).await.unwrap();

        let files = TableScan::<Order>::new(&table).files().await.unwrap();
        let directories: BTreeSet<&str> = files.iter().filter_map(|f| f.rsplit_once('/').map(|(d, _)| d)).collect();
        assert_eq!((files.len(), directories.len()), (144, 144), "budget {budget}");
        assert_eq!(common::parquet_files(dir.path()).len(), 144, "budget {budget}: no file left over");
        assert_eq!(std::fs::read_dir(spill.path()).unwrap().count(), 0, "budget {budget}: runs removed");
        // One data file per partition, read in file order: each
        // partition's orders come back in the order they were written.
        let back = TableScan::<Order>::new(&table).collect().await.unwrap();
        assert!(by_partition(&back) == expected, "budget {budget}");
    }
}

#[tokio::test]
async fn a_spill_directory_that_cannot_be_written_stops_the_writer_and_commits_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let catalog = common::memory_catalog(dir.path(), "shop").await;
    let name = TableIdent::from_strs(["shop", "orders"]).unwrap();
    let table = create_table(&catalog, &name, &by_shop_and_day()).await.unwrap();
    let blocker = tempfile::tempdir().unwrap();
    let spill_dir = unwritable_dir(blocker.path());
    let orders = orders(200);
    let mut writer = TableWriter::builder(&table)
        .partitioning(by_shop_and_day())
        .limits(|l| l.max_open_files(8).spill_budget(1).spill_dir(&spill_dir))
        .build()
        .unwrap();
    let mut error = None;
    for order in &orders {
        if let Err(e) = writer.write(order).await {
            error = Some(e);
            break;
        }
    }
    let error = error.expect("a spill that fails").to_string();
    assert!(error.contains(&spill_dir.display().to_string()), "{error}");
    // The writer stopped: later writes fail, the commit fails and deletes
    // the files of the 8 partitions that had one; no snapshot.
    let later = writer.write(&orders[0]).await.unwrap_err().to_string();
    assert!(later.contains("stopped at an earlier error"), "{later}");
    let commit = writer.commit(&catalog).await.unwrap_err().to_string();
    assert!(commit.contains(&spill_dir.display().to_string()), "{commit}");
    let now = catalog.load_table(&name).await.unwrap();
    assert_eq!(now.metadata().current_snapshot_id(), None);
    assert_eq!(common::parquet_files(dir.path()), BTreeSet::new());
}
