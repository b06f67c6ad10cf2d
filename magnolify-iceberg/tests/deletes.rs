//! A table with delete files: position deletes applied, equality deletes
//! refused with an error naming them, never read as if they were not there.
//!
//! Neither iceberg-rust 0.10 nor pyiceberg 0.12 writes delete files (both
//! rewrite data files instead), so the test commits them as a catalog
//! would (`common::deletes`).

mod common;

use common::deletes::{with_delete, Deletes};
use iceberg::TableIdent;
use magnolify_iceberg::{TableScan, TableWriter};
use magnolify_parquet::ParquetType;

#[derive(ParquetType, Clone, Debug, PartialEq)]
struct Event {
    id: i64,
    name: String,
}

#[tokio::test]
async fn position_deletes_are_applied_and_equality_deletes_are_refused_naming_them() {
    let (_dir, catalog, table) = common::new_table::<Event>("d", "events").await;
    let records: Vec<Event> = (0..10).map(|id| Event { id, name: format!("e{id}") }).collect();
    let mut writer = TableWriter::builder(&table).build().unwrap();
    writer.write_all(&records).await.unwrap();
    let table = writer.commit(&catalog).await.unwrap();
    let before = table.metadata().current_snapshot_id().unwrap();
    let files = TableScan::<Event>::new(&table).files().await.unwrap();
    let [data_file] = &files[..] else { panic!("{} files", files.len()) };

    // Rows 0, 3 and 9 deleted: the scan, filtered or not, reads the others.
    let deleted = TableIdent::from_strs(["d", "events_deleted"]).unwrap();
    let (table, _) = with_delete(&catalog, &table, data_file, Deletes::Positions(vec![9, 0, 3]), &deleted).await;
    let kept = |keep: &dyn Fn(i64) -> bool| records.iter().filter(|r| keep(r.id)).cloned().collect::<Vec<_>>();
    let read = TableScan::<Event>::new(&table).collect().await.unwrap();
    assert_eq!(read, kept(&|id| ![0, 3, 9].contains(&id)));
    let filtered = TableScan::<Event>::new(&table).filter(Event::fields().id.lt(5)).collect().await.unwrap();
    assert_eq!(filtered, kept(&|id| id < 5 && ![0, 3].contains(&id)));
    assert_eq!(TableScan::<Event>::new(&table).files().await.unwrap(), files);
    // The snapshot before the delete reads every record.
    let earlier = TableScan::<Event>::new(&table).snapshot_id(before).collect().await.unwrap();
    assert_eq!(earlier, records);

    // An equality delete on top: refused, naming the data file and the delete file.
    let equality = TableIdent::from_strs(["d", "events_equality"]).unwrap();
    let (table, delete_file) = with_delete(&catalog, &table, data_file, Deletes::Id(4), &equality).await;
    let expected = format!(
        "table `d.events_equality`: data file `{data_file}` has equality deletes on field ids [1] in `{delete_file}`, \
         which this library does not apply yet (it applies position deletes): compact the table (rewrite its data \
         files) before reading it here"
    );
    let read = TableScan::<Event>::new(&table).collect().await.unwrap_err();
    assert_eq!(read.to_string(), expected);
    let filtered = TableScan::<Event>::new(&table).filter(Event::fields().id.lt(5)).collect().await.unwrap_err();
    assert_eq!(filtered.to_string(), expected);
    assert_eq!(TableScan::<Event>::new(&table).files().await.unwrap_err().to_string(), expected);
}
