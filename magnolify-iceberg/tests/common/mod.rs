//! What the test files share.

pub mod deletes;

use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::sync::Arc;

use iceberg::io::LocalFsStorageFactory;
use iceberg::memory::{MemoryCatalog, MemoryCatalogBuilder, MEMORY_CATALOG_WAREHOUSE};
use iceberg::spec::{FormatVersion, Schema, TableMetadata, TableMetadataBuilder};
use iceberg::table::Table;
use iceberg::{Catalog, CatalogBuilder, NamespaceIdent, TableIdent};
use magnolify_iceberg::{create_table, Partitioning};
use magnolify_parquet::OwnedRecord;

/// A memory catalog whose warehouse is the directory `warehouse` on disk,
/// with the namespace `namespace`.
pub async fn memory_catalog(warehouse: &Path, namespace: &str) -> MemoryCatalog {
    let props = HashMap::from([(MEMORY_CATALOG_WAREHOUSE.to_owned(), format!("file://{}", warehouse.display()))]);
    let catalog = MemoryCatalogBuilder::default()
        .with_storage_factory(Arc::new(LocalFsStorageFactory))
        .load("test", props)
        .await
        .expect("a memory catalog");
    catalog.create_namespace(&NamespaceIdent::new(namespace.to_owned()), HashMap::new()).await.expect("a namespace");
    catalog
}

/// `metadata`, a change of `table` that iceberg-rust 0.10 has no action
/// for, written beside the table's metadata as a catalog would and
/// registered under `name`.
#[allow(dead_code)] // not every test file changes tables by hand
pub async fn registered(catalog: &impl Catalog, table: &Table, metadata: TableMetadata, name: &TableIdent) -> Table {
    let location = format!("{}/metadata/00099-{}.metadata.json", table.metadata().location(), uuid::Uuid::new_v4());
    let json = serde_json::to_vec(&metadata).expect("metadata as JSON");
    table.file_io().new_output(&location).expect("an output").write(json.into()).await.expect("metadata written");
    catalog.register_table(name, location).await.expect("the table registered")
}

/// A new table `namespace.name` of `T`, unpartitioned, in a memory catalog on
/// a temporary warehouse (which lives as long as the returned directory).
#[allow(dead_code)] // not every test file makes its table so
pub async fn new_table<T: OwnedRecord>(namespace: &str, name: &str) -> (tempfile::TempDir, MemoryCatalog, Table) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let catalog = memory_catalog(dir.path(), namespace).await;
    let ident = TableIdent::from_strs([namespace, name]).expect("a table name");
    let table = create_table(&catalog, &ident, &Partitioning::<T>::new()).await.expect("the table created");
    (dir, catalog, table)
}

/// `table` with `schema` as its current schema, registered under `name`
/// (iceberg-rust 0.10 has no rename or type promotion action).
#[allow(dead_code)] // not every test file changes schemas
pub async fn evolved(catalog: &impl Catalog, table: &Table, schema: Schema, name: &TableIdent) -> Table {
    let location = table.metadata_location().map(str::to_owned);
    let builder = TableMetadataBuilder::new_from_metadata(table.metadata().clone(), location);
    let metadata = builder.add_current_schema(schema).expect("the schema added").build().expect("metadata").metadata;
    registered(catalog, table, metadata, name).await
}

/// `table` upgraded to format v3, registered as `name`.
#[allow(dead_code)] // not every test file upgrades tables
pub async fn upgraded(catalog: &impl Catalog, table: &Table, name: &TableIdent) -> Table {
    let location = table.metadata_location().map(str::to_owned);
    let metadata = TableMetadataBuilder::new_from_metadata(table.metadata().clone(), location)
        .upgrade_format_version(FormatVersion::V3)
        .expect("format v3")
        .build()
        .expect("metadata")
        .metadata;
    registered(catalog, table, metadata, name).await
}

/// The Parquet files under `dir`, by path.
#[allow(dead_code)] // not every test file looks at the files
pub fn parquet_files(dir: &Path) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "parquet") {
                out.insert(path.display().to_string());
            }
        }
    }
    out
}
