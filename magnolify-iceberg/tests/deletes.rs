//! A table with delete files: position and equality deletes applied by
//! the spec's rules, checked against iceberg-rust's own Arrow read of the
//! same snapshots.
//!
//! Neither iceberg-rust 0.10 nor pyiceberg 0.12 writes delete files (both
//! rewrite data files instead), so the tests commit them as a catalog
//! would (`common::deletes`).

mod common;

use common::deletes::{with_delete, Deletes};
use iceberg::TableIdent;
use magnolify_iceberg::{create_table, Partitioning, TableScan, TableWriter};
use magnolify_parquet::ParquetType;

#[derive(ParquetType, Clone, Debug, PartialEq)]
struct Event {
    id: i64,
    name: String,
}

#[tokio::test]
async fn position_deletes_are_applied() {
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
    assert_eq!(ids(&read, |e| e.id), iceberg_rust_ids(&table).await);
    let filtered = TableScan::<Event>::new(&table).filter(Event::fields().id.lt(5)).collect().await.unwrap();
    assert_eq!(filtered, kept(&|id| id < 5 && ![0, 3].contains(&id)));
    assert_eq!(TableScan::<Event>::new(&table).files().await.unwrap(), files);
    // The snapshot before the delete reads every record.
    let earlier = TableScan::<Event>::new(&table).snapshot_id(before).collect().await.unwrap();
    assert_eq!(earlier, records);
}

#[derive(ParquetType, Clone, Debug, PartialEq)]
struct Sale {
    id: i64,
    region: String,
    note: Option<String>,
}

/// `Sale` without the column the deletes compare.
#[derive(ParquetType, Clone, Debug, PartialEq)]
struct SaleId {
    id: i64,
    region: String,
}

/// A row of an equality-delete file on `note` (field id 3).
#[derive(ParquetType)]
struct ByNote {
    #[parquet(field_id = 3)]
    note: Option<String>,
}

/// A row of an equality-delete file on `id` and `note` (field ids 1, 3).
#[derive(ParquetType)]
struct ByIdAndNote {
    #[parquet(field_id = 1)]
    id: i64,
    #[parquet(field_id = 3)]
    note: Option<String>,
}

fn sales(ids: std::ops::Range<i64>) -> Vec<Sale> {
    let note = |id: i64| (id % 4 != 0).then(|| format!("n{}", id % 3));
    ids.map(|id| Sale { id, region: ["eu", "us"][id as usize % 2].to_owned(), note: note(id) }).collect()
}

async fn append(
    catalog: &impl iceberg::Catalog,
    table: &iceberg::table::Table,
    records: &[Sale],
) -> iceberg::table::Table {
    let mut writer = TableWriter::builder(table).partitioning(Partitioning::new()).build().unwrap();
    writer.write_all(records).await.unwrap();
    writer.commit(catalog).await.unwrap()
}

/// The ids iceberg-rust's own Arrow read of `table`'s current snapshot
/// gives (it applies position and equality deletes), sorted.
async fn iceberg_rust_ids(table: &iceberg::table::Table) -> Vec<i64> {
    use futures::TryStreamExt;
    let batches: Vec<_> =
        table.scan().select_all().build().unwrap().to_arrow().await.unwrap().try_collect().await.unwrap();
    let mut ids = Vec::new();
    for batch in &batches {
        let column = batch.column_by_name("id").unwrap();
        let column = column.as_any().downcast_ref::<arrow_array::Int64Array>().unwrap();
        ids.extend(column.values().iter().copied());
    }
    ids.sort_unstable();
    ids
}

fn ids<R>(records: &[R], id: impl Fn(&R) -> i64) -> Vec<i64> {
    let mut ids: Vec<i64> = records.iter().map(id).collect();
    ids.sort_unstable();
    ids
}

#[tokio::test]
async fn equality_deletes_delete_equal_values_null_equal_to_null_in_earlier_files_only() {
    let (_dir, catalog, table) = common::new_table::<Sale>("d", "sales").await;
    let note_id = table.metadata().current_schema().field_by_name("note").unwrap().id;
    assert_eq!(note_id, 3, "the delete rows' field id");
    // Two commits, two data files; the delete (unpartitioned: global)
    // applies to both.
    let table = append(&catalog, &table, &sales(0..6)).await;
    let table = append(&catalog, &table, &sales(6..12)).await;
    let files = TableScan::<Sale>::new(&table).files().await.unwrap();
    assert_eq!(files.len(), 2);
    let before = table.metadata().current_snapshot_id().unwrap();

    let name = TableIdent::from_strs(["d", "sales_deleted"]).unwrap();
    let rows = [ByNote { note: Some("n1".to_owned()) }, ByNote { note: None }];
    let (table, _) = with_delete(&catalog, &table, &files[0], Deletes::equality(&[3], &rows), &name).await;
    let kept = |records: Vec<Sale>| -> Vec<Sale> {
        records.into_iter().filter(|s| s.note.as_deref().is_some_and(|n| n != "n1")).collect()
    };
    let expected = kept(sales(0..12));
    assert_eq!(ids(&expected, |s| s.id), [2, 3, 5, 6, 9, 11]);

    let mut stream = TableScan::<Sale>::new(&table).stream();
    let read: Vec<Sale> = futures::TryStreamExt::try_collect(&mut stream).await.unwrap();
    assert_eq!(ids(&read, |s| s.id), ids(&expected, |s| s.id));
    assert_eq!(read.len(), 6);
    // The deleted rows count as skipped, not read.
    let counts = stream.counts();
    assert_eq!((counts.records_read, counts.records_skipped), (6, 6));
    assert_eq!(ids(&read, |s| s.id), iceberg_rust_ids(&table).await);

    // Filtered, and into a type without the compared column.
    let filtered = TableScan::<Sale>::new(&table).filter(Sale::fields().id.lt(9)).collect().await.unwrap();
    assert_eq!(ids(&filtered, |s| s.id), [2, 3, 5, 6]);
    let projected = TableScan::<SaleId>::new(&table).collect().await.unwrap();
    assert_eq!(ids(&projected, |s| s.id), [2, 3, 5, 6, 9, 11]);
    // The snapshot before the delete has every record.
    let earlier = TableScan::<Sale>::new(&table).snapshot_id(before).collect().await.unwrap();
    assert_eq!(earlier.len(), 12);

    // Records appended after the delete (a later sequence number) keep the
    // values it deleted.
    let table = append(&catalog, &table, &sales(12..16)).await;
    let read = TableScan::<Sale>::new(&table).collect().await.unwrap();
    assert_eq!(ids(&read, |s| s.id), [2, 3, 5, 6, 9, 11, 12, 13, 14, 15]);
    assert_eq!(ids(&read, |s| s.id), iceberg_rust_ids(&table).await);
}

#[tokio::test]
async fn equality_deletes_on_several_columns_apply_in_their_partition_only() {
    let dir = tempfile::tempdir().unwrap();
    let catalog = common::memory_catalog(dir.path(), "d").await;
    let by_region = || Partitioning::new().identity(&Sale::fields().region);
    let name = TableIdent::from_strs(["d", "regional"]).unwrap();
    let table = create_table(&catalog, &name, &by_region()).await.unwrap();
    let mut writer = TableWriter::builder(&table).partitioning(by_region()).build().unwrap();
    writer.write_all(&sales(0..12)).await.unwrap();
    let table = writer.commit(&catalog).await.unwrap();
    let files = TableScan::<Sale>::new(&table).files().await.unwrap();
    let eu = files.iter().find(|f| f.contains("region=eu")).expect("the eu partition's file");

    // In `eu`: (2, n2) deletes record 2; (3, n0) would delete record 3, of
    // `us`; (4, None) deletes record 4 (null equal to null); (6, n1) no
    // record has.
    let rows = [
        ByIdAndNote { id: 2, note: Some("n2".to_owned()) },
        ByIdAndNote { id: 3, note: Some("n0".to_owned()) },
        ByIdAndNote { id: 4, note: None },
        ByIdAndNote { id: 6, note: Some("n1".to_owned()) },
    ];
    let deleted = TableIdent::from_strs(["d", "regional_deleted"]).unwrap();
    let (table, _) = with_delete(&catalog, &table, eu, Deletes::equality(&[1, 3], &rows), &deleted).await;
    let read = TableScan::<Sale>::new(&table).collect().await.unwrap();
    let expected: Vec<i64> = (0..12).filter(|id| ![2, 4].contains(id)).collect();
    assert_eq!(ids(&read, |s| s.id), expected);
    assert_eq!(ids(&read, |s| s.id), iceberg_rust_ids(&table).await);
}

#[tokio::test]
async fn deletion_vectors_delete_their_data_files_rows_only() {
    let (_dir, catalog, table) = common::new_table::<Event>("d", "visits").await;
    let records: Vec<Event> = (0..20).map(|id| Event { id, name: format!("e{id}") }).collect();
    let mut table = table;
    for half in records.chunks(10) {
        let mut writer = TableWriter::builder(&table).build().unwrap();
        writer.write_all(half).await.unwrap();
        table = writer.commit(&catalog).await.unwrap();
    }
    let table = common::upgraded(&catalog, &table, &TableIdent::from_strs(["d", "visits_v3"]).unwrap()).await;
    let files = TableScan::<Event>::new(&table).files().await.unwrap();
    let first = files.iter().find(|f| {
        let read = std::fs::read(f.trim_start_matches("file://")).unwrap();
        let first: Vec<Event> = magnolify_parquet::ReaderBuilder::new(bytes::Bytes::from(read))
            .unwrap()
            .build(Default::default())
            .unwrap()
            .map(Result::unwrap)
            .collect();
        first[0].id == 0
    });
    let first = first.expect("the data file of ids 0 to 9");

    // Rows 1, 4 and 8 of the first file; the vector is planned for both
    // files of the (unpartitioned) table, and deletes in its own only.
    let name = TableIdent::from_strs(["d", "visits_dv"]).unwrap();
    let (table, _) = with_delete(&catalog, &table, first, Deletes::Vector(vec![1, 4, 8]), &name).await;
    let mut stream = TableScan::<Event>::new(&table).stream();
    let mut read: Vec<Event> = futures::TryStreamExt::try_collect(&mut stream).await.unwrap();
    read.sort_by_key(|e| e.id);
    let kept: Vec<Event> = records.iter().filter(|e| ![1, 4, 8].contains(&e.id)).cloned().collect();
    assert_eq!(read, kept);
    assert_eq!(stream.counts().records_skipped, 3);
    let filtered = TableScan::<Event>::new(&table).filter(Event::fields().id.lt(6)).collect().await.unwrap();
    assert_eq!(filtered, kept.iter().filter(|e| e.id < 6).cloned().collect::<Vec<_>>());

    // A position-delete file on top adds its rows.
    let name = TableIdent::from_strs(["d", "visits_both"]).unwrap();
    let (table, _) = with_delete(&catalog, &table, first, Deletes::Positions(vec![0, 4]), &name).await;
    let mut read = TableScan::<Event>::new(&table).collect().await.unwrap();
    read.sort_by_key(|e| e.id);
    assert_eq!(read, records.iter().filter(|e| ![0, 1, 4, 8].contains(&e.id)).cloned().collect::<Vec<_>>());
}
