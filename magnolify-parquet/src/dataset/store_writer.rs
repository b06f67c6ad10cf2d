//! A partitioned dataset written into an object store: the dataset
//! writer's routing, rolling and open-file bound, with each file uploaded
//! by its own multipart upload and `_SUCCESS` put last.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use object_store::path::Path as ObjectPath;
use object_store::{ObjectStore, ObjectStoreExt, PutPayload};

use super::partitioner::Partitioner;
use super::writer::{random_id, CommitSummary, DatasetWriterBuilder, FileSettings, SUCCESS_MARKER};
use crate::error::{Error, Result};
use crate::file::ParquetWriter;
use crate::record::OwnedRecord;
use crate::store::{store_error, StoreWriter};

impl<T: OwnedRecord> DatasetWriterBuilder<T> {
    /// A writer of the dataset into `store`, under the builder's root as
    /// the key prefix (`DatasetWriter::builder("warehouse/sales")`): the
    /// same layout, file names, limits and file settings as on a disk;
    /// `threads` does not apply (uploads are `async`).
    pub fn build_in_store(self, store: Arc<dyn ObjectStore>) -> Result<StoreDatasetWriter<T>> {
        self.partitions.check()?;
        let prefix = self.root.to_string_lossy().trim_matches('/').to_owned();
        Ok(StoreDatasetWriter {
            store,
            prefix,
            omitted: self.partitions.names(),
            partitions: self.partitions,
            settings: self.files,
            max_rows: self.max_rows_per_file,
            max_bytes: self.max_bytes_per_file,
            max_open: self.max_open_files,
            writer_id: self.writer_id.unwrap_or_else(random_id),
            sequence: 0,
            open: HashMap::new(),
            clock: 0,
            key: String::new(),
            rows: 0,
            summary: CommitSummary::default(),
            broken: None,
        })
    }
}

/// An object being uploaded for a partition.
struct OpenObject<T: OwnedRecord> {
    /// Its key under the prefix.
    relative: PathBuf,
    writer: StoreWriter<T>,
    used: u64,
}

/// Writes records of `T` as a Hive-partitioned dataset into an object
/// store; made by [`DatasetWriterBuilder::build_in_store`]. Each file is a
/// multipart upload, completed when the file is closed (rolled, evicted
/// past `max_open_files`, or at [`commit`](Self::commit)), so no partial
/// object is ever visible; `commit` puts `_SUCCESS` last. A writer dropped
/// without `commit` leaves the objects it completed and no `_SUCCESS`.
///
/// ```
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// use std::sync::Arc;
/// use magnolify_parquet::dataset::{DatasetWriter, StoreDatasetReader};
/// use magnolify_parquet::{ParquetType, ReadOptions};
/// use object_store::{memory::InMemory, path::Path, ObjectStoreExt};
///
/// #[derive(ParquetType, Debug, PartialEq)]
/// struct Visit { city: String, user: u32 }
///
/// let store = Arc::new(InMemory::new());
/// let f = Visit::fields();
/// let mut w = DatasetWriter::builder("warehouse/visits").partition_by(&f.city).build_in_store(store.clone())?;
/// for (user, city) in [(1, "Oslo"), (2, "Lima"), (3, "Oslo")] {
///     w.write(&Visit { city: city.into(), user }).await?;
/// }
/// let summary = w.commit().await?;
/// assert_eq!((summary.files.len(), summary.rows), (2, 3));
/// assert!(store.head(&Path::from("warehouse/visits/_SUCCESS")).await.is_ok());
///
/// let builder = StoreDatasetReader::<Visit>::builder(store, &Path::from("warehouse/visits")).await?;
/// let mut dataset = builder.build(ReadOptions::default())?;
/// let mut users = Vec::new();
/// while let Some(visit) = dataset.next().await {
///     users.push(visit?.user);
/// }
/// assert_eq!(users, [2, 1, 3]);
/// # Ok::<(), magnolify_parquet::Error>(())
/// # }).unwrap();
/// ```
pub struct StoreDatasetWriter<T: OwnedRecord> {
    store: Arc<dyn ObjectStore>,
    /// The key prefix, without a trailing `/`.
    prefix: String,
    partitions: Partitioner<T>,
    omitted: Vec<String>,
    settings: FileSettings<T>,
    max_rows: u64,
    max_bytes: u64,
    max_open: usize,
    writer_id: String,
    sequence: u64,
    open: HashMap<String, OpenObject<T>>,
    clock: u64,
    /// The directory of the record being written (reused).
    key: String,
    rows: u64,
    summary: CommitSummary,
    /// The error (of an upload, say) after which records already accepted
    /// may be lost: nothing more is written and there is no commit.
    broken: Option<Error>,
}

impl<T: OwnedRecord> StoreDatasetWriter<T> {
    /// Writes one record into the object of its partition. A record that
    /// cannot be written is left out and its error returned; any other
    /// error stops the writer (later calls and `commit` return
    /// [`Error::WriterState`]).
    pub async fn write(&mut self, record: &T) -> Result<()> {
        if let Some(cause) = &self.broken {
            return Err(Error::WriterState { source: Some(Box::new(cause.clone())) });
        }
        self.partitions.directory(record, self.rows, &mut self.key)?;
        // The directory's buffer is lent out for the call and kept after.
        let key = std::mem::take(&mut self.key);
        let written = self.write_in_partition(&key, record).await;
        self.key = key;
        match written {
            Err(e) if !matches!(e, Error::Value { .. } | Error::Null { .. }) => {
                self.broken = Some(e.clone());
                Err(e)
            }
            Err(e) => Err(e),
            Ok(()) => {
                self.rows += 1;
                Ok(())
            }
        }
    }

    /// Writes every record of `records`, stopping at the first error.
    pub async fn write_all<'a>(&mut self, records: impl IntoIterator<Item = &'a T>) -> Result<()> {
        for record in records {
            self.write(record).await?;
        }
        Ok(())
    }

    /// Writes `record` into the object of directory `key`: one lookup for
    /// a partition already open (the common case).
    async fn write_in_partition(&mut self, key: &str, record: &T) -> Result<()> {
        self.clock += 1;
        let object = match self.open.get_mut(key) {
            Some(object) => object,
            None => {
                if self.open.len() >= self.max_open {
                    let oldest = self.open.iter().min_by_key(|(_, o)| o.used).map(|(k, _)| k.clone());
                    if let Some(oldest) = oldest {
                        self.close(&oldest).await?;
                    }
                }
                let object = self.create(key).await?;
                self.open.entry(key.to_owned()).or_insert(object)
            }
        };
        object.used = self.clock;
        object.writer.write(record).await?;
        let full = object.writer.rows_written() >= self.max_rows
            || (self.max_bytes != u64::MAX && object.writer.bytes_written() >= self.max_bytes);
        if full {
            self.close(key).await?;
        }
        Ok(())
    }

    /// A new object in directory `key`.
    async fn create(&mut self, key: &str) -> Result<OpenObject<T>> {
        let name = format!("part-{:05}-{}.parquet", self.sequence, self.writer_id);
        self.sequence += 1;
        let relative = PathBuf::from(key).join(&name);
        let path = self.object_path(&format!("{key}/{name}"))?;
        let builder = (self.settings)(ParquetWriter::<T, Vec<u8>>::builder()).threads(1).omitting(self.omitted.clone());
        let writer = StoreWriter::create(self.store.clone(), &path, builder).await?;
        Ok(OpenObject { relative, writer, used: 0 })
    }

    /// The object path of `relative` under the prefix (Hive escapes kept as
    /// they are: the key is parsed, not encoded again).
    fn object_path(&self, relative: &str) -> Result<ObjectPath> {
        let key = match self.prefix.is_empty() {
            true => relative.to_owned(),
            false => format!("{}/{relative}", self.prefix),
        };
        ObjectPath::parse(&key).map_err(|e| Error::argument(format!("`{key}` is not a valid object path: {e}")))
    }

    async fn close(&mut self, key: &str) -> Result<()> {
        let Some(object) = self.open.remove(key) else { return Ok(()) };
        let rows = object.writer.rows_written();
        object.writer.close().await?;
        self.summary.files.push(object.relative);
        self.summary.rows += rows;
        Ok(())
    }

    /// Completes every open object's upload, then puts `_SUCCESS` at the prefix.
    pub async fn commit(mut self) -> Result<CommitSummary> {
        if let Some(cause) = self.broken.take() {
            return Err(Error::WriterState { source: Some(Box::new(cause)) });
        }
        let mut keys: Vec<String> = self.open.keys().cloned().collect();
        keys.sort();
        for key in keys {
            self.close(&key).await?;
        }
        let marker = self.object_path(SUCCESS_MARKER)?;
        self.store.put(&marker, PutPayload::from(Vec::new())).await.map_err(|e| store_error(&marker, e))?;
        let mut summary = std::mem::take(&mut self.summary);
        summary.files.sort();
        Ok(summary)
    }
}
