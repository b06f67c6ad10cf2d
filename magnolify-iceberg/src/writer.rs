//! Appending records to a table: data files per partition, uploaded
//! through the table's `FileIO`, committed in one snapshot.

use std::sync::Arc;

use iceberg::io::FileWrite;
use iceberg::spec::{DataFile, Struct};
use iceberg::table::Table;
use iceberg::Catalog;
use magnolify_parquet::file::{PartSink, Parts};
use magnolify_parquet::parquet::basic::{Compression, ZstdLevel};
use magnolify_parquet::partitioned::{PartitionFile, PartitionLimits, Partitions, Routed, Written};
use magnolify_parquet::{OwnedRecord, ParquetWriter, WriterBuilder};

use crate::columns::TableColumns;
use crate::commit::{self, Appended};
use crate::data_file::{data_file, WrittenFile};
use crate::error::{Error, Result};
use crate::field_ids::{with_table_ids, Mode};
use crate::name_mapping::Mapping;
use crate::partition::{Partitioner, Partitioning};

/// How each data file's writer is set up (compression, row groups, bloom
/// filters): the settings of [`WriterBuilder`].
type FileSettings<T> =
    Arc<dyn Fn(WriterBuilder<T, TableColumns<T>>) -> WriterBuilder<T, TableColumns<T>> + Send + Sync>;

/// The settings of a [`TableWriter`]; [`TableWriter::builder`] makes one.
#[must_use = "a builder does nothing until it builds"]
pub struct TableWriterBuilder<T: OwnedRecord> {
    table: Table,
    partitioning: Partitioning<T>,
    limits: PartitionLimits,
    settings: FileSettings<T>,
}

impl<T: OwnedRecord> TableWriterBuilder<T> {
    /// The table's partitioning, as it was created with (a partitioned
    /// table needs it: each record's partition is computed from its
    /// fields).
    pub fn partitioning(mut self, partitioning: Partitioning<T>) -> Self {
        self.partitioning = partitioning;
        self
    }

    /// The limits of data files, open files and held records, set on the
    /// defaults (data files of at most 1,000,000 records or 512 MiB of row
    /// groups, Iceberg's target file size; 64 open files; a 64 MiB spill
    /// budget in the system's temporary directory): see
    /// [`PartitionLimits`]. Past the open files, records are held and
    /// written at the commit, one file per partition; a spill that fails
    /// stops the writer, and its commit then fails and deletes its files.
    pub fn limits(mut self, set: impl FnOnce(PartitionLimits) -> PartitionLimits) -> Self {
        self.limits = set(self.limits);
        self
    }

    /// Settings of every data file's writer (compression is zstd unless
    /// set here).
    pub fn files(
        mut self,
        settings: impl Fn(WriterBuilder<T, TableColumns<T>>) -> WriterBuilder<T, TableColumns<T>> + Send + Sync + 'static,
    ) -> Self {
        self.settings = Arc::new(settings);
        self
    }

    /// The writer: `T` resolved against the table's current schema (by
    /// field id, or by name for fields without one: a name the table's
    /// name mapping gives a column, or the column's name now), the partitioning
    /// checked against the table's default spec.
    pub fn build(self) -> Result<TableWriter<T>> {
        let metadata = self.table.metadata();
        let schema = metadata.current_schema().clone();
        let name = self.table.identifier().to_string();
        let mapping = Mapping::of(metadata, &name)?;
        let message = with_table_ids(&*T::message()?, &schema, &mapping, Mode::Write)?;
        let partitioner = self.partitioning.bind(metadata.default_partition_spec(), &schema, &name)?;
        Ok(TableWriter {
            columns: TableColumns::new(message, mapping),
            partitioner,
            files: Partitions::new(&self.limits)?,
            written: Vec::new(),
            uploaded: Vec::new(),
            rows: 0,
            opened: 0,
            run: uuid::Uuid::new_v4(),
            settings: self.settings,
            table: self.table,
            broken: None,
            done: false,
        })
    }
}

/// One partition's file being written: what the writer flushes (whole
/// row groups) goes on to the table's storage as it comes.
struct OpenFile<T: OwnedRecord> {
    writer: ParquetWriter<T, PartSink, TableColumns<T>>,
    parts: Parts,
    partition: Struct,
    path: String,
    sink: Box<dyn FileWrite>,
    size: u64,
}

impl<T: OwnedRecord> PartitionFile for OpenFile<T> {
    fn written(&self) -> Written {
        self.writer.written()
    }
}

/// The parts the writer's bytes are cut into on their way to storage.
const PART_BYTES: usize = 1 << 20;

/// Hands the full parts the writer has cut on to storage, counting them.
async fn drain(parts: &Parts, sink: &mut Box<dyn FileWrite>, size: &mut u64) -> Result<()> {
    while let Some(part) = parts.next_full() {
        *size += part.len() as u64;
        sink.write(part).await?;
    }
    Ok(())
}

/// Appends records of `T` to an Iceberg table: each record goes to the
/// data file of its partition; [`commit`](Self::commit) adds every file in
/// one snapshot (iceberg-rust's fast append, retried on a newer table if
/// another writer committed first). Nothing is visible before the commit;
/// a failed commit, [`abort`](Self::abort), and a writer dropped inside a
/// tokio runtime delete the files written.
///
/// See the crate docs for an example.
pub struct TableWriter<T: OwnedRecord> {
    table: Table,
    columns: TableColumns<T>,
    partitioner: Partitioner<T>,
    /// The open file of each partition, and the records held.
    files: Partitions<Struct, OpenFile<T>, T>,
    written: Vec<DataFile>,
    uploaded: Vec<String>,
    rows: u64,
    /// Files opened so far (each file's number in its name).
    opened: u64,
    run: uuid::Uuid,
    settings: FileSettings<T>,
    /// The error that stopped the writer (records it accepted may be
    /// lost): it takes no more, and commits nothing.
    broken: Option<String>,
    done: bool,
}

impl<T: OwnedRecord> TableWriter<T> {
    /// The settings of a writer appending to `table`.
    pub fn builder(table: &Table) -> TableWriterBuilder<T> {
        TableWriterBuilder {
            table: table.clone(),
            partitioning: Partitioning::new(),
            limits: PartitionLimits::default().max_rows_per_file(1_000_000).max_bytes_per_file(512 << 20),
            settings: Arc::new(|b| b),
        }
    }

    /// Writes `record` into its partition's file (uploading a file that
    /// is full), or holds it (see
    /// [`max_open_files`](TableWriterBuilder::max_open_files)). A record
    /// that cannot be written (a value its column cannot hold) returns its
    /// error and is left out; any other error (an upload, a spill) stops
    /// the writer: later calls and the commit fail, and the commit deletes
    /// the files written.
    pub async fn write(&mut self, record: &T) -> Result<()> {
        self.check()?;
        // Files are found by the partition tuple; its directory's name is
        // only made for a new file.
        let partition = self.partitioner.partition(record, self.rows)?;
        let written = self.write_in(&partition, record).await;
        self.guard(written)?;
        self.rows += 1;
        Ok(())
    }

    async fn write_in(&mut self, partition: &Struct, record: &T) -> Result<()> {
        let file = match self.files.route(partition, record)? {
            Routed::Write(file) => file,
            Routed::Open => {
                let file = self.open_file(partition.clone()).await?;
                self.files.opened(partition.clone(), file)
            }
            Routed::Held => return Ok(()),
        };
        file.writer.write(record)?;
        if file.writer.bytes_written() >= file.size + PART_BYTES as u64 {
            drain(&file.parts, &mut file.sink, &mut file.size).await?;
        }
        if let Some(file) = self.files.take_full(partition) {
            self.finish(file).await?;
        }
        Ok(())
    }

    /// An error if an earlier one stopped the writer.
    fn check(&self) -> Result<()> {
        match &self.broken {
            None => Ok(()),
            Some(cause) => Err(Error::table(
                self.table.identifier(),
                format!(
                    "the writer stopped at an earlier error ({cause}): it takes no more records and commits \
                     nothing; abort it and write again"
                ),
            )),
        }
    }

    /// `result`, after stopping the writer if it is an error other than a
    /// record's own.
    fn guard<R>(&mut self, result: Result<R>) -> Result<R> {
        use magnolify_parquet::Error as E;
        match &result {
            Err(Error::Parquet(E::Value { .. } | E::Null { .. })) | Ok(_) => {}
            Err(e) => {
                self.broken.get_or_insert_with(|| e.to_string());
            }
        }
        result
    }

    /// Writes every record of `records`.
    pub async fn write_all<'a>(&mut self, records: impl IntoIterator<Item = &'a T>) -> Result<()> {
        for record in records {
            self.write(record).await?;
        }
        Ok(())
    }

    /// The records written so far.
    pub fn rows_written(&self) -> u64 {
        self.rows
    }

    /// Uploads the open files and appends every file to the table in one
    /// snapshot, through `catalog`; returns the table after the commit (as
    /// it was, without a new snapshot, when no record was written).
    ///
    /// A commit that finds another writer's snapshot is applied again on
    /// top of it, after a wait that doubles from the table's
    /// `commit.retry.min-wait-ms` (jittered) up to its
    /// `commit.retry.num-retries` times (10 where the table sets none).
    /// When the catalog rejects the commit, the files are deleted and the
    /// table is as it was. When its answer is lost (a timeout, a server
    /// error), the table is reloaded: a snapshot of this commit means it
    /// landed (the table is returned); none means it did not (the files are
    /// deleted); a table that cannot be reloaded leaves the files where
    /// they are, since a snapshot may name them, and the error says so.
    pub async fn commit(mut self, catalog: &dyn Catalog) -> Result<Table> {
        let result = match self.commit_files(catalog).await {
            Ok(Appended::Committed(table)) => Ok(table),
            Ok(Appended::Unknown(e)) => {
                // Perhaps a snapshot's: the files stay (orphans if not,
                // which Iceberg's orphan-file cleanup removes).
                self.uploaded.clear();
                Err(e)
            }
            Ok(Appended::Rejected(e)) | Err(e) => {
                self.delete_uploaded().await;
                Err(e)
            }
        };
        self.done = true;
        result
    }

    async fn commit_files(&mut self, catalog: &dyn Catalog) -> Result<Appended> {
        self.check()?;
        let written = self.write_held().await;
        self.guard(written)?;
        if self.written.is_empty() {
            // Nothing was written: no snapshot (iceberg-rust refuses an
            // empty append).
            return Ok(Appended::Committed(self.table.clone()));
        }
        Ok(commit::append(&self.table, std::mem::take(&mut self.written), catalog).await)
    }

    /// Closes the open files, then writes the held records, a partition
    /// at a time.
    async fn write_held(&mut self) -> Result<()> {
        for (_, file) in self.files.close_all() {
            self.finish(file).await?;
        }
        let mut held = self.files.held()?;
        while let Some((partition, records)) = held.next_partition() {
            for record in records {
                self.write_in(&partition, &record?).await?;
            }
            // The partition's file, closed before the next opens.
            if let Some(file) = self.files.take(&partition) {
                self.finish(file).await?;
            }
        }
        Ok(())
    }

    /// Deletes the files written so far and ends the writer.
    pub async fn abort(mut self) -> Result<()> {
        for (_, file) in self.files.close_all() {
            file.writer.discard();
        }
        self.delete_uploaded().await;
        self.done = true;
        Ok(())
    }

    async fn delete_uploaded(&mut self) {
        for path in std::mem::take(&mut self.uploaded) {
            // A file that cannot be deleted is an orphan no snapshot
            // names: what Iceberg's orphan-file cleanup is for.
            let _ = self.table.file_io().delete(&path).await;
        }
    }

    /// A new file of `partition`, named and placed as iceberg-rust's
    /// writers place theirs, in the table's data directory.
    async fn open_file(&mut self, partition: Struct) -> Result<OpenFile<T>> {
        self.opened += 1;
        let directory = self.partitioner.directory(&partition);
        let location = self.table.metadata().location().trim_end_matches('/');
        let name = format!("{}-{:05}.parquet", self.run, self.opened);
        let path = match directory.as_str() {
            "" => format!("{location}/data/{name}"),
            _ => format!("{location}/data/{directory}/{name}"),
        };
        // Counted before it exists, so that a failure deletes a file cut short.
        self.uploaded.push(path.clone());
        let sink = self.table.file_io().new_output(&path)?.writer().await?;
        let (part_sink, parts) = Parts::new(PART_BYTES);
        let builder =
            WriterBuilder::with_converter(self.columns.clone()).compression(Compression::ZSTD(ZstdLevel::default()));
        let writer = (self.settings)(builder).build(part_sink)?;
        Ok(OpenFile { writer, parts, partition, path, sink, size: 0 })
    }

    /// Closes `file`, hands its last bytes on and makes its `DataFile`.
    async fn finish(&mut self, file: OpenFile<T>) -> Result<()> {
        let OpenFile { writer, parts, partition, path, mut sink, mut size } = file;
        let metadata = writer.close()?;
        drain(&parts, &mut sink, &mut size).await?;
        let rest = parts.rest();
        if !rest.is_empty() {
            size += rest.len() as u64;
            sink.write(rest).await?;
        }
        sink.close().await?;
        let schema = self.table.metadata().current_schema().clone();
        let spec_id = self.partitioner.spec_id();
        let written = WrittenFile { path, size, metadata: &metadata, partition, spec_id };
        self.written.push(data_file(written, &schema)?);
        Ok(())
    }
}

impl<T: OwnedRecord> Drop for TableWriter<T> {
    fn drop(&mut self) {
        if self.done || self.uploaded.is_empty() {
            return;
        }
        // Dropped without a commit: the files it uploaded are deleted on
        // the runtime it ran in (outside one, they stay as orphans).
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            let (io, paths) = (self.table.file_io().clone(), std::mem::take(&mut self.uploaded));
            runtime.spawn(async move {
                for path in paths {
                    let _ = io.delete(&path).await;
                }
            });
        }
    }
}

impl<T: OwnedRecord> std::fmt::Debug for TableWriter<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TableWriter")
            .field("table", &self.table.identifier())
            .field("rows", &self.rows)
            .field("open_files", &self.files.open_files())
            .finish()
    }
}
