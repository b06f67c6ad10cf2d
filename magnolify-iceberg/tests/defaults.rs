//! Initial defaults (format v3): columns added to a table after a data
//! file was written read, from that file, as the fields' `initial-default`,
//! in records and in equality deletes, as iceberg-rust's own Arrow read
//! gives them.

mod common;

use common::deletes::{with_delete, Deletes};
use futures::TryStreamExt;
use iceberg::spec::{FormatVersion, Literal, NestedField, PrimitiveType, Schema, TableMetadataBuilder, Type};
use iceberg::table::Table;
use iceberg::TableIdent;
use magnolify_iceberg::{TableScan, TableWriter};
use magnolify_parquet::ParquetType;

/// The table's type before the columns were added.
#[derive(ParquetType, Clone, Debug, PartialEq)]
struct Visit {
    id: i64,
}

/// After: `channel` (optional, default "web") and `rank` (required,
/// default 7).
#[derive(ParquetType, Clone, Debug, PartialEq)]
struct Visited {
    id: i64,
    channel: Option<String>,
    rank: i32,
}

/// A row of an equality-delete file on `channel` (field id 2).
#[derive(ParquetType)]
struct ByChannel {
    #[parquet(field_id = 2)]
    channel: Option<String>,
}

/// `table` upgraded to format v3 with the two columns added, registered as `name`.
async fn with_defaults(catalog: &impl iceberg::Catalog, table: &Table, name: &str) -> Table {
    let schema = Schema::builder()
        .with_schema_id(1)
        .with_fields([
            NestedField::required(1, "id", Type::Primitive(PrimitiveType::Long)).into(),
            NestedField::optional(2, "channel", Type::Primitive(PrimitiveType::String))
                .with_initial_default(Literal::string("web"))
                .into(),
            NestedField::required(3, "rank", Type::Primitive(PrimitiveType::Int))
                .with_initial_default(Literal::int(7))
                .into(),
        ])
        .build()
        .unwrap();
    let location = table.metadata_location().map(str::to_owned);
    let metadata = TableMetadataBuilder::new_from_metadata(table.metadata().clone(), location)
        .upgrade_format_version(FormatVersion::V3)
        .unwrap()
        .add_current_schema(schema)
        .unwrap()
        .build()
        .unwrap()
        .metadata;
    common::registered(catalog, table, metadata, &TableIdent::from_strs(["v", name]).unwrap()).await
}

/// `(id, channel, rank)` of iceberg-rust's own Arrow read of `table`, by id.
async fn iceberg_rust_rows(table: &Table) -> Vec<(i64, Option<String>, i32)> {
    use arrow_array::{Array, Int32Array, Int64Array, StringArray};
    let stream = table.scan().select_all().build().unwrap().to_arrow().await.unwrap();
    let batches: Vec<_> = stream.try_collect().await.unwrap();
    let mut rows = Vec::new();
    for batch in &batches {
        let column = |name| batch.column_by_name(name).unwrap().as_any();
        let ids = column("id").downcast_ref::<Int64Array>().unwrap();
        let channels = column("channel").downcast_ref::<StringArray>().unwrap();
        let ranks = column("rank").downcast_ref::<Int32Array>().unwrap();
        for i in 0..batch.num_rows() {
            let channel = (!channels.is_null(i)).then(|| channels.value(i).to_owned());
            rows.push((ids.value(i), channel, ranks.value(i)));
        }
    }
    rows.sort_by_key(|r| r.0);
    rows
}

async fn ours(table: &Table) -> Vec<(i64, Option<String>, i32)> {
    let read = TableScan::<Visited>::new(table).collect().await.unwrap();
    let mut rows: Vec<_> = read.into_iter().map(|v| (v.id, v.channel, v.rank)).collect();
    rows.sort_by_key(|r| r.0);
    rows
}

#[tokio::test]
async fn columns_added_with_initial_defaults_read_them_from_older_files_and_deletes_compare_them() {
    let (_dir, catalog, table) = common::new_table::<Visit>("v", "visits").await;
    let mut writer = TableWriter::builder(&table).build().unwrap();
    writer.write_all(&(0..3).map(|id| Visit { id }).collect::<Vec<_>>()).await.unwrap();
    let table = writer.commit(&catalog).await.unwrap();

    let table = with_defaults(&catalog, &table, "visits_v3").await;
    let web = || Some("web".to_owned());
    let expected = vec![(0, web(), 7), (1, web(), 7), (2, web(), 7)];
    // The current snapshot reads with the table's schema, as pyiceberg and
    // Spark read it (iceberg-rust 0.10 reads it with the snapshot's, which
    // has neither column, until a snapshot is written with the new one).
    assert_eq!(ours(&table).await, expected);
    // Time travel to that snapshot reads with its own schema, which lacks
    // the required `rank`.
    let first = table.metadata().current_snapshot_id().unwrap();
    let err = TableScan::<Visited>::new(&table).snapshot_id(first).collect().await.unwrap_err().to_string();
    assert!(err.contains("required field `rank` is not in the file"), "{err}");
    // Filtered on the defaulted column (each record tested: the file has no
    // statistics of it).
    let filtered = TableScan::<Visited>::new(&table).filter(Visited::fields().rank.eq(7)).collect().await.unwrap();
    assert_eq!(filtered.len(), 3);

    // Records written since hold their own values; an equality delete of
    // `web` deletes the old records (by their default) and the new `web` one.
    let added = [
        Visited { id: 3, channel: Some("app".to_owned()), rank: 1 },
        Visited { id: 4, channel: web(), rank: 2 },
        Visited { id: 5, channel: None, rank: 3 },
    ];
    let mut writer = TableWriter::builder(&table).build().unwrap();
    writer.write_all(&added).await.unwrap();
    let table = writer.commit(&catalog).await.unwrap();
    let expected = [expected, vec![(3, Some("app".to_owned()), 1), (4, web(), 2), (5, None, 3)]].concat();
    assert_eq!(ours(&table).await, expected);
    assert_eq!(iceberg_rust_rows(&table).await, expected);

    let files = TableScan::<Visited>::new(&table).files().await.unwrap();
    let name = TableIdent::from_strs(["v", "visits_deleted"]).unwrap();
    let rows = [ByChannel { channel: web() }];
    let (table, _) = with_delete(&catalog, &table, &files[0], Deletes::equality(&[2], &rows), &name).await;
    let kept = vec![(3, Some("app".to_owned()), 1), (5, None, 3)];
    assert_eq!(ours(&table).await, kept);
    // iceberg-rust 0.10 also drops record 5, whose `channel` is null: it
    // turns each delete row into `NOT (channel = 'web')`, rewritten to
    // `channel != 'web'`, which a null fails (`caching_delete_file_loader`).
    // The spec deletes only equal values (a null equals only a null), as
    // the Java implementation's set of delete rows does.
    assert_eq!(iceberg_rust_rows(&table).await, kept[..1]);
}
