//! Reading a table's snapshot into records: iceberg-rust plans the data
//! files, this library reads each.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use futures::stream::{self, BoxStream};
use futures::{StreamExt, TryStreamExt};
use iceberg::scan::FileScanTask;
use iceberg::spec::{Schema, SchemaRef, Transform};
use iceberg::table::Table;
use magnolify_parquet::filter::{FilterCounts, Predicate};
use magnolify_parquet::parquet::schema::types::TypePtr;
use magnolify_parquet::OwnedRecord;

use crate::columns::TableColumns;
use crate::deletes::deleted_positions;
use crate::error::{Error, Result};
use crate::expression::expression;
use crate::field_ids::with_snapshot_ids;
use crate::file_stream::Files;
use crate::name_mapping::Mapping;
use crate::scan_stream::ScanStream;

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
/// order. Position deletes are applied: the rows they name are not read
/// (pages of them not decoded). A data file with equality deletes or a
/// deletion vector is refused (they are not applied yet), never read as if
/// they were not there.
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

    /// Reads `threads` data files at once (default 1), each on a blocking
    /// thread of the runtime; the records keep the plan's order.
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
        let (_, tasks, _) = self.planned().await?;
        Ok(tasks.into_iter().map(|task| task.data_file_path).collect())
    }

    /// `T`'s columns in the snapshot read, its data files to read and the
    /// positions deleted in them: the snapshot resolved once, its schema,
    /// then the plan.
    async fn planned(&self) -> Result<(TableColumns<T>, Vec<FileScanTask>, HashMap<String, Vec<u64>>)> {
        let snapshot = self.snapshot()?;
        let schema = self.schema(snapshot)?;
        let columns = self.columns(&schema)?;
        let tasks = match snapshot {
            Some(snapshot) => self.plan(snapshot, columns.message(), &schema).await?,
            None => Vec::new(),
        };
        let name = self.table.identifier().to_string();
        let deleted = deleted_positions(self.table.file_io(), &name, &tasks).await?;
        Ok((columns, tasks, deleted))
    }

    /// The schema of `snapshot` (the table's current schema for a table
    /// without snapshots, or a snapshot that names none).
    fn schema(&self, snapshot: Option<i64>) -> Result<SchemaRef> {
        let metadata = self.table.metadata();
        let snapshot = snapshot.and_then(|id| metadata.snapshot_by_id(id));
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

    /// The data files of `snapshot` that iceberg-rust's planning keeps.
    async fn plan(&self, snapshot: i64, message: &TypePtr, schema: &Schema) -> Result<Vec<FileScanTask>> {
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
        Ok(tasks)
    }

    /// Every record of the snapshot (that the filter accepts), in the
    /// order of [`stream`](Self::stream), or the first error.
    pub async fn collect(self) -> Result<Vec<T>>
    where
        T: Send + 'static,
    {
        // By the batch: no stream poll per record.
        let batches = self.batches(Arc::default());
        batches
            .try_fold(Vec::new(), |mut all, batch| {
                all.extend(batch);
                std::future::ready(Ok(all))
            })
            .await
    }

    /// The records of the snapshot (that the filter accepts) as a stream
    /// (whose [`counts`](ScanStream::counts) say what was read and skipped):
    /// the data files' records in the order iceberg-rust plans the files,
    /// each file's in order, the stream ended by its first error (which
    /// names the data file). `threads` files are read at once, each
    /// through the table's `FileIO` by byte ranges, a window of row groups
    /// at a time (the store reader's), so memory is bound by the files read
    /// at once, not by a file's or the table's size. Dropping the stream
    /// stops the reading. Needs a tokio runtime (each file is read on a
    /// blocking thread of its own, so files decode in parallel on any
    /// runtime).
    ///
    /// ```no_run
    /// # async fn f(table: &iceberg::table::Table) -> magnolify_iceberg::Result<()> {
    /// use futures::TryStreamExt;
    /// use magnolify_iceberg::TableScan;
    /// use magnolify_parquet::ParquetType;
    ///
    /// #[derive(ParquetType)]
    /// struct Click { user_id: i64 }
    ///
    /// let mut clicks = TableScan::<Click>::new(table).threads(4).stream();
    /// let mut users = 0;
    /// while let Some(click) = clicks.try_next().await? {
    ///     users += usize::from(click.user_id > 0);
    /// }
    /// # Ok(()) }
    /// ```
    pub fn stream(self) -> ScanStream<T>
    where
        T: Send + 'static,
    {
        let counts = Arc::<Mutex<FilterCounts>>::default();
        let records = self.batches(counts.clone()).map_ok(|batch| stream::iter(batch).map(Ok)).try_flatten().boxed();
        ScanStream::new(records, counts)
    }

    /// The records of [`stream`](Self::stream) in batches of the files';
    /// what the files' readers read and skipped added to `counts`.
    fn batches(self, counts: Arc<Mutex<FilterCounts>>) -> BoxStream<'static, Result<Vec<T>>>
    where
        T: Send + 'static,
    {
        let planned = async move {
            let (columns, tasks, deleted) = self.planned().await?;
            let io = self.table.file_io().clone();
            let files = Files { io, columns, filter: self.filter, deleted, threads: self.threads, counts };
            Ok::<_, Error>(files.batches(tasks))
        };
        stream::once(planned).try_flatten().boxed()
    }
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
