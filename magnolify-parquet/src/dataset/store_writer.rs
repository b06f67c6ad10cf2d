//! A partitioned dataset written into an object store: the dataset
//! writer's routing, rolling and open-file bound, with each file uploaded
//! by its own multipart upload and `_SUCCESS` put last.

use std::path::PathBuf;
use std::sync::Arc;

use futures_util::future::BoxFuture;
use object_store::path::Path as ObjectPath;
use object_store::{ObjectStore, ObjectStoreExt, PutPayload};

use super::bookkeeping::{Action, Closing, Core, DatasetSummary, Names, NewFile};
use super::partitioner::Partitioner;
use super::writer::{DatasetWriterBuilder, FileSettings, SUCCESS_MARKER};
use crate::error::{Error, Result};
use crate::file::WriterBuilder;
use crate::record::OwnedRecord;
use crate::store::{store_error, Ahead, StoreWriter, DEFAULT_PART_SIZE};

impl<T: OwnedRecord> DatasetWriterBuilder<T> {
    /// A writer of the dataset into `store`, under the builder's root as
    /// the key prefix (`DatasetWriter::builder("warehouse/sales")`): the
    /// same layout, file names, limits and file settings as on a disk.
    /// Uploads are `async`, on the caller's task; with
    /// [`threads(n)`](Self::threads) above 1, each open object encodes the
    /// column chunks of its row groups on `n` threads, as
    /// [`WriterBuilder::threads`] does for one file (the objects are the
    /// same either way).
    pub fn build_in_store(self, store: Arc<dyn ObjectStore>) -> Result<StoreDatasetWriter<T>> {
        self.partitions.check()?;
        let prefix = self.root.to_string_lossy().trim_matches('/').to_owned();
        Ok(StoreDatasetWriter {
            store,
            prefix,
            omitted: self.partitions.names(),
            partitions: self.partitions,
            settings: self.files,
            core: Core::new(&self.limits, Names::new(self.writer_id))?,
            closing: Ahead::new(false),
            concurrency: DEFAULT_CLOSING,
            part_size: DEFAULT_PART_SIZE,
            threads: self.threads,
            key: String::new(),
            rows: 0,
        })
    }
}

/// Writes records of `T` as a Hive-partitioned dataset into an object
/// store; made by [`DatasetWriterBuilder::build_in_store`]. Each file is a
/// multipart upload, completed when the file is closed (rolled, or at
/// [`close`](Self::close)), so no partial
/// object is ever visible; `close` puts `_SUCCESS` last. A writer dropped
/// without `close` leaves the objects it completed and no `_SUCCESS`. An
/// error that breaks the writer (a failed upload) aborts the uploads of
/// every open object there and then, and a failed `close` those it did not
/// complete: no upload is left open.
///
/// ```
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// use std::sync::Arc;
/// use futures::StreamExt;
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
/// let summary = w.close().await?;
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
    /// The open objects, names, limits, summary and latch.
    core: Core<T, StoreWriter<T>>,
    /// The objects being completed (their last parts and completion).
    closing: Ahead<Closed>,
    concurrency: usize,
    part_size: usize,
    /// The encoding threads of each open object.
    threads: usize,
    /// The directory of the record being written (reused).
    key: String,
    rows: u64,
}

/// An object's upload being completed: its path and rows, and how it ended.
type Closed = BoxFuture<'static, (PathBuf, u64, Result<()>)>;

/// Objects a [`StoreDatasetWriter`] completes at once unless
/// [`StoreDatasetWriter::concurrency`] says otherwise.
pub const DEFAULT_CLOSING: usize = 8;

impl<T: OwnedRecord> StoreDatasetWriter<T> {
    /// Up to `objects` objects are completed at once (the last parts and
    /// the completion of each file rolled or closed), while the
    /// writer goes on with the next records; default [`DEFAULT_CLOSING`].
    /// Memory holds their last parts. `0` counts as 1.
    pub fn concurrency(mut self, objects: usize) -> Self {
        self.concurrency = objects.max(1);
        self
    }

    /// Each object is uploaded in parts of `bytes` (default
    /// [`DEFAULT_PART_SIZE`], 8 MiB; S3's minimum is 5 MiB); an object
    /// smaller than one part is put whole.
    pub fn part_size(mut self, bytes: usize) -> Self {
        self.part_size = bytes;
        self
    }

    /// Writes one record into the object of its partition. A record that
    /// cannot be written is left out and its error returned; any other
    /// error stops the writer (later calls and `close` return
    /// [`Error::WriterState`]).
    pub async fn write(&mut self, record: &T) -> Result<()> {
        self.core.latch.check()?;
        self.partitions.directory(record, self.rows, &mut self.key)?;
        // The directory's buffer is lent out for the call and kept after.
        let key = std::mem::take(&mut self.key);
        let written = self.write_in_partition(&key, record).await;
        self.key = key;
        if let Err(e) = self.core.latch.guard_records(written) {
            if self.core.latch.check().is_err() {
                self.abort_open().await;
            }
            return Err(e);
        }
        self.rows += 1;
        Ok(())
    }

    /// Aborts the upload of every open object: the writer broke, and an
    /// upload left open would hold its parts until the store expires them.
    /// (Objects closed before stay: each is whole. There is no `_SUCCESS`.)
    async fn abort_open(&mut self) {
        // The completions under way finish (or abort themselves), so that
        // none is left open half way.
        while let Some(done) = self.closing.next().await {
            let _ = self.landed(done);
        }
        for file in self.core.abandon_all() {
            // Best effort: the error that broke the writer is the caller's.
            let _ = file.abort().await;
        }
    }

    /// Writes every record of `records`, stopping at the first error.
    pub async fn write_all<'a>(&mut self, records: impl IntoIterator<Item = &'a T>) -> Result<()> {
        for record in records {
            self.write(record).await?;
        }
        Ok(())
    }

    /// Writes `record` into the object of directory `key`, as the
    /// bookkeeping says.
    async fn write_in_partition(&mut self, key: &str, record: &T) -> Result<()> {
        let object = match self.core.route(key, record)? {
            Action::Write(object) => object,
            Action::Open(file) => {
                // Made before the await: the future holds no `&self`
                // (the writer is `Send`, not `Sync`).
                let writer = self.create(&file)?.await?;
                self.core.opened(file, writer)
            }
            Action::Held => return Ok(()),
        };
        object.write(record).await?;
        if let Some(closing) = self.core.take_full(key) {
            self.complete(closing).await?;
        }
        Ok(())
    }

    /// The writer of the object `new` names, to await.
    fn create(
        &self,
        new: &NewFile,
    ) -> Result<impl std::future::Future<Output = Result<StoreWriter<T>>> + Send + use<T>> {
        let path = self.object_path(&new.key_path())?;
        let builder = (self.settings)(WriterBuilder::new()).threads(self.threads).omitting(self.omitted.clone());
        let (store, part_size) = (self.store.clone(), self.part_size);
        Ok(async move { StoreWriter::create_with_part_size(store, &path, builder, part_size).await })
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

    /// Completes every open object's upload, writes the held records'
    /// objects, then puts `_SUCCESS` at the prefix. On an error, the
    /// objects not completed are aborted.
    pub async fn close(mut self) -> Result<DatasetSummary> {
        let mut result = Ok(());
        for closing in self.core.close_all()? {
            match result {
                Ok(()) => result = self.complete(closing).await,
                Err(_) => drop(closing.file.abort().await),
            }
        }
        if result.is_ok() {
            result = self.write_held().await;
        }
        if result.is_err() {
            for file in self.core.abandon_all() {
                let _ = file.abort().await;
            }
        }
        // Every completion started ends (or aborts itself).
        while let Some(done) = self.closing.next().await {
            let landed = self.landed(done);
            result = result.and(landed);
        }
        result?;
        let marker = self.object_path(SUCCESS_MARKER)?;
        self.store.put(&marker, PutPayload::from(Vec::new())).await.map_err(|e| store_error(&marker, e))?;
        Ok(self.core.summary())
    }

    /// Writes the held records, a partition at a time, each partition's
    /// object completed before the next opens.
    async fn write_held(&mut self) -> Result<()> {
        let mut held = self.core.held()?;
        while let Some((key, records)) = held.next_partition() {
            for record in records {
                self.write_in_partition(&key, &record?).await?;
            }
            if let Some(closing) = self.core.take(&key) {
                self.complete(closing).await?;
            }
        }
        Ok(())
    }

    /// Starts completing `closing`'s upload, with at most `concurrency`
    /// under way (waiting for room); counts those that ended.
    async fn complete(&mut self, closing: Closing<StoreWriter<T>>) -> Result<()> {
        while self.closing.len() >= self.concurrency {
            let Some(done) = self.closing.next().await else { break };
            self.landed(done)?;
        }
        let Closing { relative, rows, file } = closing;
        self.closing.push(Box::pin(async move { (relative, rows, file.close().await.map(drop)) }));
        // Its requests go out now.
        self.closing.progress().await;
        while let Some(done) = self.closing.take_ready() {
            self.landed(done)?;
        }
        Ok(())
    }

    /// Counts an object completed; its error otherwise (it aborted itself).
    fn landed(&mut self, (relative, rows, result): (PathBuf, u64, Result<()>)) -> Result<()> {
        result?;
        self.core.closed(relative, rows);
        Ok(())
    }
}
