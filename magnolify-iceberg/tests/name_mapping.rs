//! A table's name mapping (`schema.name-mapping.default`): data files
//! written without field ids (imported, as pyiceberg's `add_files` does)
//! read by it after a rename, and a record type without ids that still has
//! a column's old name appends through it.

mod common;

use std::collections::HashMap;

use common::deletes::{with_delete, Deletes};
use iceberg::spec::{
    DataContentType, DataFileBuilder, DataFileFormat, NestedField, PrimitiveType, Schema, Struct, TableMetadataBuilder,
    Type,
};
use iceberg::table::Table;
use iceberg::transaction::{ApplyTransactionAction, Transaction};
use iceberg::TableIdent;
use magnolify_iceberg::{TableScan, TableWriter};
use magnolify_parquet::{ParquetType, ParquetWriter};

/// The table's record type before the rename: no field ids.
#[derive(ParquetType, Clone, Debug, PartialEq)]
struct Legacy {
    id: i64,
    page: String,
    tags: Vec<String>,
}

/// After `page` was renamed to `path`.
#[derive(ParquetType, Clone, Debug, PartialEq)]
struct Now {
    id: i64,
    path: String,
    tags: Vec<String>,
}

/// Both names of the renamed column: two fields on one column.
#[derive(ParquetType, Clone, Debug, PartialEq)]
struct Both {
    id: i64,
    page: String,
    path: String,
    tags: Vec<String>,
}

fn legacy(ids: std::ops::Range<i64>) -> Vec<Legacy> {
    ids.map(|id| Legacy { id, page: format!("/p{id}"), tags: (0..id % 3).map(|t| format!("t{t}")).collect() }).collect()
}

fn now(records: &[Legacy]) -> Vec<Now> {
    records.iter().map(|r| Now { id: r.id, path: r.page.clone(), tags: r.tags.clone() }).collect()
}

/// `table` after appending a Parquet file written without field ids, as an
/// import adds one.
async fn imported(catalog: &iceberg::memory::MemoryCatalog, table: &Table, records: &[Legacy]) -> Table {
    let path = format!("{}/data/imported.parquet", table.metadata().location().trim_end_matches('/'));
    let mut writer = ParquetWriter::<Legacy, _>::new(Vec::new()).unwrap();
    for record in records {
        writer.write(record).unwrap();
    }
    let bytes = writer.into_inner().unwrap();
    let size = bytes.len() as u64;
    table.file_io().new_output(&path).unwrap().write(bytes.into()).await.unwrap();
    let file = DataFileBuilder::default()
        .content(DataContentType::Data)
        .file_path(path)
        .file_format(DataFileFormat::Parquet)
        .partition(Struct::empty())
        .partition_spec_id(table.metadata().default_partition_spec_id())
        .record_count(records.len() as u64)
        .file_size_in_bytes(size)
        .build()
        .unwrap();
    let transaction = Transaction::new(table);
    let transaction = transaction.fast_append().add_data_files(vec![file]).apply(transaction).unwrap();
    transaction.commit(catalog).await.unwrap()
}

/// `table` with `page` renamed to `path`, and `mapping` (JSON) as its name
/// mapping if given, registered as `name`.
async fn renamed(catalog: &iceberg::memory::MemoryCatalog, table: &Table, mapping: Option<&str>, name: &str) -> Table {
    let string = || Type::Primitive(PrimitiveType::String);
    let tags = iceberg::spec::ListType::new(NestedField::list_element(4, string(), true).into());
    let schema = Schema::builder()
        .with_schema_id(1)
        .with_fields([
            NestedField::required(1, "id", Type::Primitive(PrimitiveType::Long)).into(),
            NestedField::required(2, "path", string()).into(),
            NestedField::required(3, "tags", Type::List(tags)).into(),
        ])
        .build()
        .unwrap();
    let metadata = table.metadata().clone();
    let mut builder = TableMetadataBuilder::new_from_metadata(metadata, table.metadata_location().map(str::to_owned))
        .add_current_schema(schema)
        .unwrap();
    if let Some(mapping) = mapping {
        let property = HashMap::from([("schema.name-mapping.default".to_owned(), mapping.to_owned())]);
        builder = builder.set_properties(property).unwrap();
    }
    let name = TableIdent::from_strs(["n", name]).unwrap();
    common::registered(catalog, table, builder.build().unwrap().metadata, &name).await
}

const MAPPING: &str = r#"[
    {"field-id": 1, "names": ["id"]},
    {"field-id": 2, "names": ["page", "path"]},
    {"field-id": 3, "names": ["tags"], "fields": [{"field-id": 4, "names": ["element"]}]}
]"#;

#[tokio::test]
async fn files_without_ids_and_types_with_old_names_meet_a_renamed_column_through_the_name_mapping() {
    let (_dir, catalog, table) = common::new_table::<Legacy>("n", "pages").await;
    let old = legacy(0..10);
    let table = imported(&catalog, &table, &old).await;
    // Before any rename, a file without ids reads by its column names, and
    // an equality delete finds its column so too.
    assert_eq!(TableScan::<Legacy>::new(&table).collect().await.unwrap(), old);
    let files = TableScan::<Legacy>::new(&table).files().await.unwrap();
    let rows = [ByPath { path: "/p3".to_owned() }];
    let name = TableIdent::from_strs(["n", "pages_deleted"]).unwrap();
    let (deleted, _) = with_delete(&catalog, &table, &files[0], Deletes::equality(&[2], &rows), &name).await;
    let kept: Vec<Legacy> = old.iter().filter(|r| r.id != 3).cloned().collect();
    assert_eq!(TableScan::<Legacy>::new(&deleted).collect().await.unwrap(), kept);

    // Without a name mapping, the renamed column is not found in the file,
    // and the old name is not the table's.
    let unmapped = renamed(&catalog, &table, None, "unmapped").await;
    let read = TableScan::<Now>::new(&unmapped).collect().await.unwrap_err().to_string();
    let file = format!("{}/data/imported.parquet", table.metadata().location());
    assert_eq!(
        read,
        format!(
            "schema mismatch at file `{file}`: required field `path` is not in the file; the file has [id, page, \
             tags]: make the field an `Option<_>`, add #[parquet(default)], or #[parquet(rename = \"...\")] it to one \
             of the file's fields"
        )
    );
    let append = TableWriter::<Legacy>::builder(&unmapped).build().unwrap_err().to_string();
    assert_eq!(
        append,
        "field `page`: the table has no column with this name: add it to the table's schema first, or skip the field"
    );

    // With one, the file's `page` is field 2, now `path`; and `Legacy`,
    // whose `page` is one of field 2's names, appends to it.
    let mapped = renamed(&catalog, &table, Some(MAPPING), "mapped").await;
    assert_eq!(TableScan::<Now>::new(&mapped).collect().await.unwrap(), now(&old));
    let added = legacy(10..15);
    let mut writer = TableWriter::<Legacy>::builder(&mapped).build().unwrap();
    writer.write_all(&added).await.unwrap();
    let mapped = writer.commit(&catalog).await.unwrap();

    let mut read = TableScan::<Now>::new(&mapped).collect().await.unwrap();
    read.sort_by_key(|r| r.id);
    assert_eq!(read, now(&legacy(0..15)));
    // A filter on the renamed column, in the imported file and the new one.
    let filter = Now::fields().path.is_in(["/p3".to_owned(), "/p12".to_owned()]);
    let mut filtered = TableScan::<Now>::new(&mapped).filter(filter).collect().await.unwrap();
    filtered.sort_by_key(|r| r.id);
    assert_eq!(filtered, now(&[old[3].clone(), added[2].clone()]));
    // A type with both names would write the column twice, or read it
    // into one field only: refused, writing and reading.
    let both = "field `path`: another field of the record type meets the same table column `path` (id 2): keep one \
                of them";
    assert_eq!(TableWriter::<Both>::builder(&mapped).build().unwrap_err().to_string(), both);
    assert_eq!(TableScan::<Both>::new(&mapped).collect().await.unwrap_err().to_string(), both);
    // The old type reads the table through the mapping too.
    let mut as_legacy = TableScan::<Legacy>::new(&mapped).collect().await.unwrap();
    as_legacy.sort_by_key(|r| r.id);
    assert_eq!(as_legacy, legacy(0..15));

    // An equality delete on the renamed column (by its id) finds it in the
    // file without ids through the mapping, and in the new file by id.
    let files = TableScan::<Now>::new(&mapped).files().await.unwrap();
    let rows = [ByPath { path: "/p3".to_owned() }, ByPath { path: "/p12".to_owned() }];
    let name = TableIdent::from_strs(["n", "mapped_deleted"]).unwrap();
    let (deleted, _) = with_delete(&catalog, &mapped, &files[0], Deletes::equality(&[2], &rows), &name).await;
    let mut read = TableScan::<Now>::new(&deleted).collect().await.unwrap();
    read.sort_by_key(|r| r.id);
    let kept: Vec<Legacy> = legacy(0..15).into_iter().filter(|r| r.id != 3 && r.id != 12).collect();
    assert_eq!(read, now(&kept));
}

/// A row of an equality-delete file on `path` (field id 2).
#[derive(ParquetType)]
struct ByPath {
    #[parquet(field_id = 2)]
    path: String,
}
