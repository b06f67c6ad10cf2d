//! A commit whose answer is lost: the table reloaded tells whether it
//! landed (its files stay, the table is returned) or not (its files are
//! deleted); a table that cannot be reloaded leaves the files in place.

mod common;

use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use iceberg::memory::MemoryCatalog;
use iceberg::table::Table;
use iceberg::{Catalog, Error, ErrorKind, Namespace, NamespaceIdent, Result, TableCommit, TableCreation, TableIdent};
use magnolify_iceberg::{TableScan, TableWriter};
use magnolify_parquet::ParquetType;

#[derive(ParquetType, Clone, Debug, PartialEq)]
struct Tick {
    seq: i64,
}

/// What the catalog does with a commit.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Fault {
    /// Applies it, then answers with a server error.
    AppliedThenLost,
    /// Answers with a server error without applying it.
    Lost,
    /// Answers with a server error, and cannot load tables after.
    LostThenDown,
}

#[derive(Debug)]
struct Faulty {
    inner: MemoryCatalog,
    fault: Fault,
    down: AtomicBool,
}

fn server_error() -> Error {
    Error::new(ErrorKind::Unexpected, "503 Service Unavailable (the answer was lost)")
}

#[async_trait::async_trait]
impl Catalog for Faulty {
    async fn list_namespaces(&self, parent: Option<&NamespaceIdent>) -> Result<Vec<NamespaceIdent>> {
        self.inner.list_namespaces(parent).await
    }
    async fn create_namespace(&self, ns: &NamespaceIdent, props: HashMap<String, String>) -> Result<Namespace> {
        self.inner.create_namespace(ns, props).await
    }
    async fn get_namespace(&self, ns: &NamespaceIdent) -> Result<Namespace> {
        self.inner.get_namespace(ns).await
    }
    async fn namespace_exists(&self, ns: &NamespaceIdent) -> Result<bool> {
        self.inner.namespace_exists(ns).await
    }
    async fn update_namespace(&self, ns: &NamespaceIdent, props: HashMap<String, String>) -> Result<()> {
        self.inner.update_namespace(ns, props).await
    }
    async fn drop_namespace(&self, ns: &NamespaceIdent) -> Result<()> {
        self.inner.drop_namespace(ns).await
    }
    async fn list_tables(&self, ns: &NamespaceIdent) -> Result<Vec<TableIdent>> {
        self.inner.list_tables(ns).await
    }
    async fn create_table(&self, ns: &NamespaceIdent, creation: TableCreation) -> Result<Table> {
        self.inner.create_table(ns, creation).await
    }
    async fn load_table(&self, table: &TableIdent) -> Result<Table> {
        if self.down.load(Ordering::SeqCst) {
            return Err(server_error());
        }
        self.inner.load_table(table).await
    }
    async fn drop_table(&self, table: &TableIdent) -> Result<()> {
        self.inner.drop_table(table).await
    }
    async fn purge_table(&self, table: &TableIdent) -> Result<()> {
        self.inner.purge_table(table).await
    }
    async fn table_exists(&self, table: &TableIdent) -> Result<bool> {
        self.inner.table_exists(table).await
    }
    async fn rename_table(&self, src: &TableIdent, dest: &TableIdent) -> Result<()> {
        self.inner.rename_table(src, dest).await
    }
    async fn register_table(&self, table: &TableIdent, location: String) -> Result<Table> {
        self.inner.register_table(table, location).await
    }
    async fn update_table(&self, commit: TableCommit) -> Result<Table> {
        match self.fault {
            Fault::AppliedThenLost => {
                self.inner.update_table(commit).await?;
            }
            Fault::Lost => {}
            Fault::LostThenDown => self.down.store(true, Ordering::SeqCst),
        }
        Err(server_error())
    }
}

fn parquet_files(dir: &Path) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(parquet_files(&path));
        } else if path.extension().is_some_and(|e| e == "parquet") {
            out.insert(path.display().to_string());
        }
    }
    out
}

#[tokio::test]
async fn a_lost_answer_is_settled_by_the_reloaded_table() {
    for fault in [Fault::AppliedThenLost, Fault::Lost, Fault::LostThenDown] {
        let (dir, inner, table) = common::new_table::<Tick>("o", "ticks").await;
        let name = table.identifier().clone();
        let catalog = Faulty { inner, fault, down: AtomicBool::new(false) };
        let ticks: Vec<Tick> = (0..10).map(|seq| Tick { seq }).collect();
        let mut writer = TableWriter::builder(&table).limits(|l| l.max_rows_per_file(4)).build().unwrap();
        writer.write_all(&ticks).await.unwrap();
        let result = writer.commit(&catalog).await;
        catalog.down.store(false, Ordering::SeqCst);
        let now = catalog.load_table(&name).await.unwrap();
        let on_disk = parquet_files(dir.path());
        match fault {
            Fault::AppliedThenLost => {
                let committed = result.unwrap_or_else(|e| panic!("{fault:?}: {e}"));
                assert_eq!(committed.metadata().current_snapshot_id(), now.metadata().current_snapshot_id());
                let mut read = TableScan::<Tick>::new(&now).collect().await.unwrap();
                read.sort_by_key(|t| t.seq);
                assert_eq!(read, ticks);
                assert_eq!(on_disk.len(), 3, "{fault:?}: the files stay, a snapshot's");
            }
            Fault::Lost => {
                let err = result.unwrap_err().to_string();
                assert!(err.contains("503"), "{err}");
                assert_eq!(now.metadata().current_snapshot_id(), None);
                assert_eq!(on_disk, BTreeSet::new(), "{fault:?}: no snapshot has them: deleted");
            }
            Fault::LostThenDown => {
                let err = result.unwrap_err().to_string();
                assert!(err.contains("503"), "{err}");
                assert_eq!(now.metadata().current_snapshot_id(), None);
                assert_eq!(on_disk.len(), 3, "{fault:?}: a snapshot might have them: kept");
            }
        }
    }
}
