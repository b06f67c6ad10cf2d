//! Reading a table's snapshot into records: iceberg-rust plans the data
//! files, this library reads each.

use futures::{StreamExt, TryStreamExt};
use iceberg::scan::FileScanTask;
use iceberg::spec::{Schema, SchemaRef, Transform};
use iceberg::table::Table;
use magnolify_parquet::filter::Predicate;
use magnolify_parquet::parquet::schema::types::TypePtr;
use magnolify_parquet::{OwnedRecord, ReadOptions, ReaderBuilder};

use crate::columns::TableColumns;
use crate::error::{Error, Result};
use crate::expression::expression;
use crate::field_ids::with_snapshot_ids;
use crate::name_mapping::Mapping;

/// A read of a table's snapshot into records of `T`.
///
/// A snapshot reads with the schema it was written with, as Iceberg's
/// spec says. Columns are matched by field id: a field's own `field_id`,
/// or the id of the column of its name in the snapshot's schema (else of
/// the name the table's name mapping or its schema now gives it, when the
/// snapshot has that id). A column renamed in the table reads into the
/// field that has its id; a column added after a file was written reads as
/// `None` (or the field's default) from it, and a field the snapshot lacks
/// reads so from every file (a required field without a default is then an
/// error naming it). Data files
/// come in the order iceberg-rust plans them, each file's records in
/// order. A snapshot with delete files is refused (they are not applied
/// yet), never read as if they were not there.
///
/// See the crate docs for an example.
pub struct TableScan<T> {
    table: Table,
    snapshot: Option<i64>,
    as_of: Option<i64>,
    filter: Option<Predicate<T>>,
    threads: usize,
}

impl<T: OwnedRecord> TableScan<T> {
    /// A read of `table`'s current snapshot.
    pub fn new(table: &Table) -> Self {
        TableScan { table: table.clone(), snapshot: None, as_of: None, filter: None, threads: 1 }
    }

    /// Reads snapshot `id` instead.
    pub fn snapshot_id(mut self, id: i64) -> Self {
        self.snapshot = Some(id);
        self
    }

    /// Reads the snapshot that was current at `millis` (milliseconds from
    /// the epoch), as the table's history says.
    pub fn as_of_timestamp(mut self, millis: i64) -> Self {
        self.as_of = Some(millis);
        self
    }

    /// Only the records `predicate` accepts; row groups and pages it rules
    /// out are not read.
    pub fn filter(mut self, predicate: Predicate<T>) -> Self {
        self.filter = Some(predicate);
        self
    }

    /// Reads `threads` data files at once (default 1), each decoded on a
    /// blocking thread of the runtime; the records keep the plan's order.
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = threads.max(1);
        self
    }

    /// The id of the snapshot read: `None` for a table without one.
    fn snapshot(&self) -> Result<Option<i64>> {
        let metadata = self.table.metadata();
        if let Some(id) = self.snapshot {
            return match metadata.snapshot_by_id(id) {
                Some(_) => Ok(Some(id)),
                None => Err(Error::table(self.table.identifier(), format!("it has no snapshot {id}"))),
            };
        }
        let Some(millis) = self.as_of else {
            return Ok(metadata.current_snapshot_id());
        };
        let before = metadata.history().iter().rev().find(|log| log.timestamp_ms <= millis);
        match before {
            Some(log) => Ok(Some(log.snapshot_id)),
            None => Err(Error::table(self.table.identifier(), format!("it had no snapshot at {millis} ms"))),
        }
    }

    /// The data files read, in order: those of the snapshot that
    /// iceberg-rust's planning keeps, given the filter (as an Iceberg
    /// expression: its partitions and each file's column bounds).
    pub async fn files(&self) -> Result<Vec<String>> {
        let schema = self.schema()?;
        let columns = self.columns(&schema)?;
        Ok(self.plan(columns.message(), &schema).await?.into_iter().map(|task| task.data_file_path).collect())
    }

    /// The schema of the snapshot read (the table's current schema for a
    /// table without snapshots, or a snapshot that names none).
    fn schema(&self) -> Result<SchemaRef> {
        let metadata = self.table.metadata();
        let snapshot = self.snapshot()?.and_then(|id| metadata.snapshot_by_id(id));
        match snapshot.filter(|s| s.schema_id().is_some()) {
            Some(snapshot) => Ok(snapshot.schema(metadata)?),
            None => Ok(metadata.current_schema().clone()),
        }
    }

    /// `T`'s columns with the field ids of the snapshot's schema (fields it
    /// lacks have none, and read as missing) and the table's name mapping.
    fn columns(&self, schema: &Schema) -> Result<TableColumns<T>> {
        let metadata = self.table.metadata();
        let mapping = Mapping::of(metadata, &self.table.identifier().to_string())?;
        let message = with_snapshot_ids(&*T::message()?, schema, metadata.current_schema(), &mapping)?;
        Ok(TableColumns::new(message, mapping))
    }

    async fn plan(&self, message: &TypePtr, schema: &Schema) -> Result<Vec<FileScanTask>> {
        let Some(snapshot) = self.snapshot()? else {
            return Ok(Vec::new());
        };
        let mut scan = self.table.scan().snapshot_id(snapshot).select_all();
        if let Some(filter) = &self.filter {
            // iceberg-rust binds the filter to the snapshot's schema: the
            // expression names its columns as they were then (by id), and a
            // column added since is no condition there.
            let specs = self.table.metadata().partition_specs_iter();
            let truncates =
                specs.flat_map(|spec| spec.fields()).filter(|f| matches!(f.transform, Transform::Truncate(_)));
            let truncated: Vec<i32> = truncates.map(|f| f.source_id).collect();
            scan = scan.with_filter(expression(filter, message, schema, &truncated));
        }
        let scan = scan.build()?;
        let tasks: Vec<FileScanTask> = scan.plan_files().await?.try_collect().await?;
        if let Some(task) = tasks.iter().find(|t| !t.deletes.is_empty()) {
            let deletes: Vec<_> = task.deletes.iter().map(|d| d.file_path.as_str()).collect();
            return Err(Error::table(
                self.table.identifier(),
                format!(
                    "data file `{}` has delete files ({}), which this library does not apply yet: compact the table \
                     (rewrite its data files) before reading it here",
                    task.data_file_path,
                    deletes.join(", ")
                ),
            ));
        }
        Ok(tasks)
    }

    /// Every record of the snapshot (that the filter accepts), the data
    /// files' records in the order iceberg-rust plans the files, each
    /// file's in order. `threads` files are fetched and decoded at once,
    /// each on a blocking thread of the runtime.
    pub async fn collect(self) -> Result<Vec<T>> {
        let schema = self.schema()?;
        let columns = self.columns(&schema)?;
        let tasks = self.plan(columns.message(), &schema).await?;
        let (io, table) = (self.table.file_io().clone(), self.table.identifier().to_string());
        let reads = futures::stream::iter(tasks).map(|task| {
            let (io, columns, filter, table) = (io.clone(), columns.clone(), self.filter.clone(), table.clone());
            async move {
                let bytes = io.new_input(&task.data_file_path)?.read().await?;
                let path = task.data_file_path;
                let shown = path.clone();
                let decoded = tokio::task::spawn_blocking(move || read_file(bytes, columns, filter.as_ref(), &path));
                // Only a panic in the reader (a bug) or a runtime shutting
                // down ends the task early: say which file it was reading.
                decoded.await.map_err(|e| Error::table(table, format!("reading data file `{shown}` failed: {e}")))?
            }
        });
        let files: Vec<Vec<T>> = reads.buffered(self.threads).try_collect().await?;
        Ok(files.into_iter().flatten().collect())
    }
}

/// The records of one data file, `bytes` at `path`, that `filter` accepts.
fn read_file<T: OwnedRecord>(
    bytes: bytes::Bytes,
    columns: TableColumns<T>,
    filter: Option<&Predicate<T>>,
    path: &str,
) -> Result<Vec<T>> {
    let located = |source| Error::DataFile { path: path.to_owned(), source };
    let builder = ReaderBuilder::new(bytes).map_err(located)?;
    // The library's reader prunes by column names: a file whose columns
    // were renamed since (or are named by the table's name mapping) gets
    // the predicate on each record.
    let (columns, same_names) = columns.for_file(builder.schema()).map_err(located)?;
    let (options, test_each) = match (filter, same_names) {
        (Some(filter), true) => (ReadOptions::default().threads(1).filter(filter.clone()), None),
        (filter, _) => (ReadOptions::default().threads(1), filter),
    };
    let reader = builder.build_with(columns, options).map_err(located)?;
    let mut records = Vec::new();
    for record in reader {
        let record = record.map_err(located)?;
        if test_each.is_none_or(|p| p.test(&record)) {
            records.push(record);
        }
    }
    Ok(records)
}

impl<T> std::fmt::Debug for TableScan<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TableScan")
            .field("table", self.table.identifier())
            .field("snapshot", &self.snapshot)
            .field("as_of", &self.as_of)
            .finish()
    }
}
