//! Reading a table's snapshot into records: iceberg-rust plans the data
//! files, this library reads each.

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
use crate::defaults::Defaults;
use crate::deletes::{read_deletes, refuse_unapplied};
use crate::equality::KeyColumns;
use crate::error::{Error, Result};
use crate::expression::expression;
use crate::field_ids::with_snapshot_ids;
use crate::file_stream::Files;
use crate::name_mapping::Mapping;
use crate::scan_stream::ScanStream;

/// A read of a table's snapshot into records of `T`.
///
/// A snapshot named by id or time reads with the schema it was written
/// with, as Iceberg's spec says; the current snapshot reads with the
/// table's current schema (as pyiceberg and Spark read a table). Columns
/// are matched by field id: a field's own `field_id`, or the id of the
/// column of its name in that schema (else of the name the table's name
/// mapping or its schema now gives it, when the schema has that id). A
/// column renamed in the table reads into the field that has its id; a
/// column added after a file was written reads from it as its
/// `initial-default` (format v3; top-level fields), else as `None` (or the
/// field's `#[parquet(default)]`), and a field the schema lacks reads so
/// from every file (a required field without a default is then an error
/// naming it). Data files
/// come in the order iceberg-rust plans them, each file's records in
/// order. Position deletes, deletion vectors (format v3) and equality
/// deletes are applied: the rows they delete are not read (pages of them
/// not decoded) and count as skipped.
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
    /// expression: its partitions and each file's column bounds). Delete
    /// files are not read.
    pub async fn files(&self) -> Result<Vec<String>> {
        let planned = self.planned().await?;
        Ok(planned.tasks.into_iter().map(|task| task.data_file_path).collect())
    }

    /// The snapshot resolved once, its schema, `T`'s columns in it and the
    /// plan.
    async fn planned(&self) -> Result<Planned<T>> {
        let snapshot = self.snapshot()?;
        let schema = self.schema(snapshot)?;
        let (columns, mapping) = self.columns(&schema)?;
        let tasks = match snapshot {
            Some(snapshot) => self.plan(snapshot, columns.message()).await?,
            None => Vec::new(),
        };
        refuse_unapplied(&self.table.identifier().to_string(), &tasks)?;
        let defaults = Defaults::of(columns.message(), &schema)?;
        let keys = KeyColumns { ids: Arc::new([]), mapping, defaults: Some(schema) };
        Ok(Planned { columns, tasks, defaults, keys })
    }

    /// The schema a scan of `snapshot` reads with: the snapshot's own when
    /// the scan names it (by id or time), the table's current schema when
    /// it reads the current snapshot (as pyiceberg and Spark do: columns
    /// added since the last commit read as their defaults), or a snapshot
    /// that names none.
    fn schema(&self, snapshot: Option<i64>) -> Result<SchemaRef> {
        let metadata = self.table.metadata();
        let named = self.snapshot.is_some() || self.as_of.is_some();
        match snapshot.filter(|_| named) {
            Some(snapshot) => self.schema_of(snapshot),
            None => Ok(metadata.current_schema().clone()),
        }
    }

    /// The schema `snapshot` was written with.
    fn schema_of(&self, snapshot: i64) -> Result<SchemaRef> {
        let metadata = self.table.metadata();
        match metadata.snapshot_by_id(snapshot) {
            Some(snapshot) if snapshot.schema_id().is_some() => Ok(snapshot.schema(metadata)?),
            _ => Ok(metadata.current_schema().clone()),
        }
    }

    /// `T`'s columns with the field ids of the snapshot's schema (fields it
    /// lacks have none, and read as missing) and the table's name mapping.
    fn columns(&self, schema: &Schema) -> Result<(TableColumns<T>, Mapping)> {
        let metadata = self.table.metadata();
        let mapping = Mapping::of(metadata, &self.table.identifier().to_string())?;
        let message = with_snapshot_ids(&*T::message()?, schema, metadata.current_schema(), &mapping)?;
        Ok((TableColumns::new(message, mapping.clone()), mapping))
    }

    /// The data files of `snapshot` that iceberg-rust's planning keeps.
    async fn plan(&self, snapshot: i64, message: &TypePtr) -> Result<Vec<FileScanTask>> {
        let mut scan = self.table.scan().snapshot_id(snapshot).select_all();
        if let Some(filter) = &self.filter {
            // iceberg-rust binds the filter to the snapshot's own schema
            // (whatever schema the records read with): the expression names
            // its columns as they were then (by id), and a column added
            // since is no condition there.
            let schema = self.schema_of(snapshot)?;
            let specs = self.table.metadata().partition_specs_iter();
            let truncates =
                specs.flat_map(|spec| spec.fields()).filter(|f| matches!(f.transform, Transform::Truncate(_)));
            let truncated: Vec<i32> = truncates.map(|f| f.source_id).collect();
            scan = scan.with_filter(expression(filter, message, &schema, &truncated));
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
            let Planned { columns, tasks, defaults, keys } = self.planned().await?;
            let io = self.table.file_io().clone();
            let deletes = read_deletes(&io, &self.table.identifier().to_string(), &tasks).await?;
            let (filter, threads) = (self.filter, self.threads);
            let files = Files { io, columns, defaults, filter, deletes, keys, threads, counts };
            Ok::<_, Error>(files.batches(tasks))
        };
        stream::once(planned).try_flatten().boxed()
    }
}

/// What a scan reads, planned.
struct Planned<T> {
    columns: TableColumns<T>,
    tasks: Vec<FileScanTask>,
    defaults: Defaults,
    /// The equality columns' converter, with the snapshot's defaults.
    keys: KeyColumns,
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
