//! Appending records to a table: data files per partition, uploaded
//! through the table's `FileIO`, committed in one snapshot.

use std::collections::HashMap;
use std::io::Write;
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use iceberg::io::FileWrite;
use iceberg::spec::{DataFile, Struct};
use iceberg::table::Table;
use iceberg::Catalog;
use magnolify_parquet::parquet::basic::{Compression, ZstdLevel};
use magnolify_parquet::{OwnedRecord, ParquetWriter, WriterBuilder};

use crate::columns::TableColumns;
use crate::commit::{self, Appended};
use crate::data_file::{data_file, WrittenFile};
use crate::error::Result;
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
    max_rows: u64,
    max_bytes: u64,
    max_open: usize,
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

    /// A data file holds at most `rows` records (default 1,000,000).
    pub fn max_rows_per_file(mut self, rows: u64) -> Self {
        self.max_rows = rows.max(1);
        self
    }

    /// A data file is closed once its row groups hold `bytes` (default
    /// 512 MiB, Iceberg's target file size).
    pub fn max_bytes_per_file(mut self, bytes: u64) -> Self {
        self.max_bytes = bytes.max(1);
        self
    }

    /// At most `files` partitions have a file open (default 64); one more
    /// closes the fullest. Each open file holds the row group being
    /// written in memory (what it flushes goes on to storage).
    pub fn max_open_files(mut self, files: usize) -> Self {
        self.max_open = files.max(1);
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
            open: HashMap::new(),
            written: Vec::new(),
            uploaded: Vec::new(),
            rows: 0,
            files: 0,
            run: uuid::Uuid::new_v4(),
            max_rows: self.max_rows,
            max_bytes: self.max_bytes,
            max_open: self.max_open,
            settings: self.settings,
            table: self.table,
            done: false,
        })
    }
}

/// One partition's file being written: what the writer flushes (whole
/// row groups) goes on to the table's storage as it comes.
struct OpenFile<T: OwnedRecord> {
    writer: ParquetWriter<T, Buffer, TableColumns<T>>,
    buffer: Buffer,
    partition: Struct,
    path: String,
    sink: Box<dyn FileWrite>,
    size: u64,
}

/// Bytes the writer has flushed that are handed on to storage at once.
const DRAIN_BYTES: u64 = 1 << 20;

/// Hands the bytes flushed into `buffer` on to storage, counting them.
async fn drain(buffer: &Buffer, sink: &mut Box<dyn FileWrite>, size: &mut u64) -> Result<()> {
    let bytes = buffer.take();
    if !bytes.is_empty() {
        *size += bytes.len() as u64;
        sink.write(Bytes::from(bytes)).await?;
    }
    Ok(())
}

/// A `Write` whose bytes the writer keeps a handle to.
#[derive(Clone, Default)]
struct Buffer(Arc<Mutex<Vec<u8>>>);

impl Write for Buffer {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.0.lock().map_err(|_| std::io::Error::other("a writer panicked"))?.extend_from_slice(data);
        Ok(data.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Buffer {
    fn take(&self) -> Vec<u8> {
        self.0.lock().map(|mut bytes| std::mem::take(&mut *bytes)).unwrap_or_default()
    }
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
    open: HashMap<Struct, OpenFile<T>>,
    written: Vec<DataFile>,
    uploaded: Vec<String>,
    rows: u64,
    files: u64,
    run: uuid::Uuid,
    max_rows: u64,
    max_bytes: u64,
    max_open: usize,
    settings: FileSettings<T>,
    done: bool,
}

impl<T: OwnedRecord> TableWriter<T> {
    /// The settings of a writer appending to `table`.
    pub fn builder(table: &Table) -> TableWriterBuilder<T> {
        TableWriterBuilder {
            table: table.clone(),
            partitioning: Partitioning::new(),
            max_rows: 1_000_000,
            max_bytes: 512 << 20,
            max_open: 64,
            settings: Arc::new(|b| b),
        }
    }

    /// Writes `record` into its partition's file (uploading a file that
    /// is full).
    pub async fn write(&mut self, record: &T) -> Result<()> {
        // Files are found by the partition tuple; its directory's name is
        // only made for a new file.
        let partition = self.partitioner.partition(record, self.rows)?;
        // One lookup for a record whose partition has its file open.
        let file = match self.open.get_mut(&partition) {
            Some(file) => file,
            None => {
                if self.open.len() >= self.max_open {
                    self.close_fullest().await?;
                }
                let file = self.open_file(partition.clone()).await?;
                self.open.entry(partition.clone()).or_insert(file)
            }
        };
        file.writer.write(record)?;
        self.rows += 1;
        let bytes = file.writer.bytes_written();
        if bytes >= file.size + DRAIN_BYTES {
            drain(&file.buffer, &mut file.sink, &mut file.size).await?;
        }
        if file.writer.rows_written() >= self.max_rows || bytes >= self.max_bytes {
            let file = self.open.remove(&partition).expect("written above");
            self.finish(file).await?;
        }
        Ok(())
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
        let open: Vec<_> = self.open.drain().map(|(_, file)| file).collect();
        for file in open {
            self.finish(file).await?;
        }
        if self.written.is_empty() {
            // Nothing was written: no snapshot (iceberg-rust refuses an
            // empty append).
            return Ok(Appended::Committed(self.table.clone()));
        }
        Ok(commit::append(&self.table, std::mem::take(&mut self.written), catalog).await)
    }

    /// Deletes the files written so far and ends the writer.
    pub async fn abort(mut self) -> Result<()> {
        self.open.clear();
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
        self.files += 1;
        let directory = self.partitioner.directory(&partition);
        let location = self.table.metadata().location().trim_end_matches('/');
        let name = format!("{}-{:05}.parquet", self.run, self.files);
        let path = match directory.as_str() {
            "" => format!("{location}/data/{name}"),
            _ => format!("{location}/data/{directory}/{name}"),
        };
        // Counted before it exists, so that a failure deletes a file cut short.
        self.uploaded.push(path.clone());
        let sink = self.table.file_io().new_output(&path)?.writer().await?;
        let buffer = Buffer::default();
        let builder =
            WriterBuilder::with_converter(self.columns.clone()).compression(Compression::ZSTD(ZstdLevel::default()));
        let writer = (self.settings)(builder).build(buffer.clone())?;
        Ok(OpenFile { writer, buffer, partition, path, sink, size: 0 })
    }

    async fn close_fullest(&mut self) -> Result<()> {
        let fullest = self.open.iter().max_by_key(|(_, f)| f.writer.rows_written()).map(|(d, _)| d.clone());
        if let Some(partition) = fullest {
            let file = self.open.remove(&partition).expect("found above");
            self.finish(file).await?;
        }
        Ok(())
    }

    /// Closes `file`, hands its last bytes on and makes its `DataFile`.
    async fn finish(&mut self, file: OpenFile<T>) -> Result<()> {
        let OpenFile { writer, buffer, partition, path, mut sink, mut size } = file;
        let metadata = writer.close()?;
        drain(&buffer, &mut sink, &mut size).await?;
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
            .field("open_files", &self.open.len())
            .finish()
    }
}
