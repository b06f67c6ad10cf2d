//! A table with delete files: position deletes applied, equality deletes
//! refused with an error naming them, never read as if they were not there.
//!
//! Neither iceberg-rust 0.10 nor pyiceberg 0.12 writes delete files (both
//! rewrite data files instead), so the test commits one as a catalog
//! would: a position-delete file, a delete manifest, a manifest list and a
//! snapshot in new table metadata.

mod common;

use std::collections::HashMap;

use iceberg::spec::{
    DataContentType, DataFileBuilder, DataFileFormat, ManifestListWriter, ManifestWriterBuilder, Operation, Snapshot,
    Struct, Summary, TableMetadataBuilder,
};
use iceberg::table::Table;
use iceberg::TableIdent;
use magnolify_iceberg::{TableScan, TableWriter};
use magnolify_parquet::{ParquetType, ParquetWriter};

#[derive(ParquetType, Clone, Debug, PartialEq)]
struct Event {
    id: i64,
    name: String,
}

/// A row of a position-delete file, with the ids the Iceberg spec reserves.
#[derive(ParquetType)]
struct PositionDelete {
    #[parquet(field_id = 2147483546)]
    file_path: String,
    #[parquet(field_id = 2147483545)]
    pos: i64,
}

/// A row of an equality-delete file on `id` (field id 1).
#[derive(ParquetType)]
struct ById {
    id: i64,
}

/// What a delete file deletes.
enum Deletes {
    /// These rows of the data file.
    Positions(Vec<i64>),
    /// The records with this id.
    Id(i64),
}

/// `table` with a snapshot on top of its current one that deletes
/// `deletes` of `data_file`, registered as `name`; returns it and the
/// delete file's path.
async fn with_delete(
    catalog: &iceberg::memory::MemoryCatalog,
    table: &Table,
    data_file: &str,
    deletes: Deletes,
    name: &TableIdent,
) -> (Table, String) {
    let metadata = table.metadata();
    let parent = metadata.current_snapshot().unwrap().clone();
    let (snapshot_id, sequence) = (parent.snapshot_id() + 1, parent.sequence_number() + 1);
    let location = metadata.location().trim_end_matches('/');
    let io = table.file_io();

    let delete_path = format!("{location}/data/deletes-{}.parquet", uuid::Uuid::new_v4());
    let (bytes, rows, content, equality_ids) = match deletes {
        Deletes::Positions(positions) => {
            let mut writer = ParquetWriter::<PositionDelete, _>::new(Vec::new()).unwrap();
            for pos in &positions {
                writer.write(&PositionDelete { file_path: data_file.to_owned(), pos: *pos }).unwrap();
            }
            (writer.into_inner().unwrap(), positions.len(), DataContentType::PositionDeletes, None)
        }
        Deletes::Id(id) => {
            let mut writer = ParquetWriter::<ById, _>::new(Vec::new()).unwrap();
            writer.write(&ById { id }).unwrap();
            (writer.into_inner().unwrap(), 1, DataContentType::EqualityDeletes, Some(vec![1]))
        }
    };
    let size = bytes.len() as u64;
    io.new_output(&delete_path).unwrap().write(bytes.into()).await.unwrap();
    let delete_file = DataFileBuilder::default()
        .content(content)
        .equality_ids(equality_ids)
        .file_path(delete_path.clone())
        .file_format(DataFileFormat::Parquet)
        .partition(Struct::empty())
        .partition_spec_id(metadata.default_partition_spec_id())
        .record_count(rows as u64)
        .file_size_in_bytes(size)
        .build()
        .unwrap();

    let manifest_path = format!("{location}/metadata/{}-m0.avro", uuid::Uuid::new_v4());
    let mut manifest = ManifestWriterBuilder::new(
        io.new_output(&manifest_path).unwrap(),
        Some(snapshot_id),
        metadata.current_schema().clone(),
        metadata.default_partition_spec().as_ref().clone(),
    )
    .build_v2_deletes();
    manifest.add_file(delete_file, sequence).unwrap();
    let deletes = manifest.write_manifest_file().await.unwrap();

    let existing = table.manifest_list_reader(&parent).load().await.unwrap();
    let list_path = format!("{location}/metadata/snap-{snapshot_id}-{}.avro", uuid::Uuid::new_v4());
    let sink = io.new_output(&list_path).unwrap().writer().await.unwrap();
    let mut list = ManifestListWriter::v2(sink, snapshot_id, Some(parent.snapshot_id()), sequence);
    list.add_manifests(existing.entries().iter().cloned().chain([deletes])).unwrap();
    list.close().await.unwrap();

    let snapshot = Snapshot::builder()
        .with_snapshot_id(snapshot_id)
        .with_parent_snapshot_id(Some(parent.snapshot_id()))
        .with_sequence_number(sequence)
        .with_timestamp_ms(parent.timestamp_ms() + 1)
        .with_manifest_list(list_path)
        .with_summary(Summary { operation: Operation::Delete, additional_properties: HashMap::new() })
        .with_schema_id(metadata.current_schema_id())
        .build();
    let metadata =
        TableMetadataBuilder::new_from_metadata(metadata.clone(), table.metadata_location().map(str::to_owned))
            .set_branch_snapshot(snapshot, "main")
            .unwrap()
            .build()
            .unwrap()
            .metadata;
    (common::registered(catalog, table, metadata, name).await, delete_path)
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
