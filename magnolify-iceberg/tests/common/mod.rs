//! What the test files share.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use iceberg::io::LocalFsStorageFactory;
use iceberg::memory::{MemoryCatalog, MemoryCatalogBuilder, MEMORY_CATALOG_WAREHOUSE};
use iceberg::{Catalog, CatalogBuilder, NamespaceIdent};

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
