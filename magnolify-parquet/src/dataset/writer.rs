//! The dataset writer: records routed to one file per partition directory,
//! files rolled at a size, the least recently used closed past a bound,
//! and, with more than one thread, partitions shared out between threads.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::Arc;
use std::thread::JoinHandle;

use super::partitioner::Partitioner;
use super::value::PartitionValue;
use crate::error::{Error, Location, Result};
use crate::file::{AtomicFile, ParquetWriter, WriterBuilder};
use crate::filter::Field;
use crate::record::{Derived, OwnedRecord};

/// The name of the marker [`DatasetWriter::commit`] writes last.
pub const SUCCESS_MARKER: &str = "_SUCCESS";

/// Records a worker thread takes at once.
const ROUTED_BATCH: usize = 1024;

/// The settings of each file of a dataset.
pub(super) type FileSettings<T> =
    Arc<dyn Fn(WriterBuilder<Derived<T>, T>) -> WriterBuilder<Derived<T>, T> + Send + Sync>;

/// Settings of a [`DatasetWriter`], made by [`DatasetWriter::builder`].
pub struct DatasetWriterBuilder<T: OwnedRecord> {
    pub(super) root: PathBuf,
    pub(super) partitions: Partitioner<T>,
    pub(super) max_rows_per_file: u64,
    pub(super) max_bytes_per_file: u64,
    pub(super) max_open_files: usize,
    pub(super) writer_id: Option<String>,
    threads: usize,
    pub(super) files: FileSettings<T>,
}

impl<T: OwnedRecord> DatasetWriterBuilder<T> {
    /// Partitions by `field` (a top-level field, from `T::fields()`), after
    /// the fields of earlier calls: each record goes under the directory
    /// `name=value` of its value, `name=__HIVE_DEFAULT_PARTITION__` for a
    /// null, and the field is not stored in the files (readers get it
    /// back from the path).
    pub fn partition_by<F: PartitionValue + 'static, N>(mut self, field: &Field<T, F, N>) -> Self {
        self.partitions.push(field);
        self
    }

    /// Most records in one file (default: no limit); a partition then goes
    /// on in a new file.
    pub fn max_rows_per_file(mut self, rows: u64) -> Self {
        self.max_rows_per_file = rows.max(1);
        self
    }

    /// Bytes after which a file is closed and its partition goes on in a
    /// new one (default: no limit), counted as
    /// [`ParquetWriter::bytes_written`] counts them: a file ends up to one
    /// write batch of records past it.
    pub fn max_bytes_per_file(mut self, bytes: u64) -> Self {
        self.max_bytes_per_file = bytes.max(1);
        self
    }

    /// Most files open at once (default 64; at least 1, and at least one
    /// per thread): past it, the file of the partition written least
    /// recently is closed, and that partition goes on in a new file if
    /// more of its records come. Each open file holds one write batch of
    /// records and the pages of its open row group, so this bounds memory.
    pub fn max_open_files(mut self, files: usize) -> Self {
        self.max_open_files = files.max(1);
        self
    }

    /// The writer's part of every file name (default: random), so that
    /// writers in several processes can write into one dataset. Names are
    /// `part-<sequence>-<writer id>.parquet`.
    pub fn writer_id(mut self, id: impl Into<String>) -> Self {
        self.writer_id = Some(id.into());
        self
    }

    /// Threads that write (default 1). With 2 or more, each thread owns
    /// the files of some partitions (by a hash of the directory), and the
    /// caller's thread only routes records to them; with 1, everything
    /// runs on the caller's thread.
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = threads.max(1);
        self
    }

    /// The settings of every file (compression, row groups, bloom
    /// filters...), applied to a [`WriterBuilder`]; its `threads` is set
    /// to 1 after (threads come from [`threads`](Self::threads)).
    pub fn files(
        mut self,
        settings: impl Fn(WriterBuilder<Derived<T>, T>) -> WriterBuilder<Derived<T>, T> + Send + Sync + 'static,
    ) -> Self {
        self.files = Arc::new(settings);
        self
    }

    /// The writer. Checks the partition fields and creates the root directory.
    pub fn build(self) -> Result<DatasetWriter<T>> {
        self.partitions.check()?;
        std::fs::create_dir_all(&self.root).map_err(|e| in_dir(&self.root, e))?;
        let writer_id = self.writer_id.unwrap_or_else(random_id);
        let files = Arc::new(Files {
            root: self.root.clone(),
            omitted: self.partitions.names(),
            settings: self.files,
            max_rows: self.max_rows_per_file,
            max_bytes: self.max_bytes_per_file,
            writer_id,
            sequence: AtomicU64::new(0),
        });
        let threads = self.threads.min(self.max_open_files);
        let per_shard = (self.max_open_files / threads).max(1);
        let route = match threads {
            1 => Route::Local(Shard::new(files.clone(), per_shard)),
            n => Route::Threads(Workers::start(n, &files, per_shard)?),
        };
        Ok(DatasetWriter { files, partitions: self.partitions, route, key: String::new(), rows: 0 })
    }
}

/// Writes records of `T` as a Hive-partitioned dataset: one directory
/// level per partition field (`day=2024-01-02/city=Oslo/`), Parquet files
/// in the leaves, and a `_SUCCESS` marker at the root once
/// [`commit`](Self::commit) has closed them all.
///
/// Every file is written under a hidden temporary name and renamed when it
/// is complete, so readers (this library's, Spark, DuckDB, pyarrow) never
/// see a partial file; a writer dropped without `commit` (or a process
/// that dies) leaves the files it completed, no partial one, and no
/// `_SUCCESS`.
///
/// ```
/// use magnolify_parquet::dataset::{DatasetReader, DatasetWriter};
/// use magnolify_parquet::{ParquetType, ReadOptions};
///
/// #[derive(ParquetType, Debug, PartialEq, Clone)]
/// struct Visit { city: String, user: u32, page: String }
///
/// let dir = std::env::temp_dir().join(format!("visits-{}", std::process::id()));
/// let f = Visit::fields();
/// let mut w = DatasetWriter::builder(&dir).partition_by(&f.city).build()?;
/// for (user, city) in [(1, "Oslo"), (2, "Lima"), (3, "Oslo")] {
///     w.write(Visit { city: city.into(), user, page: "/".into() })?;
/// }
/// let summary = w.commit()?;
/// assert_eq!((summary.files.len(), summary.rows), (2, 3));
/// assert!(dir.join("city=Oslo").is_dir() && dir.join("_SUCCESS").is_file());
///
/// let back: Vec<Visit> = DatasetReader::builder(&dir)?.build(ReadOptions::default())?.collect::<Result<_, _>>()?;
/// assert_eq!(back.iter().map(|v| (v.user, v.city.as_str())).collect::<Vec<_>>(), [(2, "Lima"), (1, "Oslo"), (3, "Oslo")]);
/// # std::fs::remove_dir_all(&dir).unwrap();
/// # Ok::<(), magnolify_parquet::Error>(())
/// ```
pub struct DatasetWriter<T: OwnedRecord> {
    files: Arc<Files<T>>,
    partitions: Partitioner<T>,
    route: Route<T>,
    /// The directory of the record being written (reused).
    key: String,
    rows: u64,
}

/// What [`DatasetWriter::commit`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CommitSummary {
    /// The files written, relative to the root, sorted.
    pub files: Vec<PathBuf>,
    /// Records written.
    pub rows: u64,
}

impl<T: OwnedRecord> DatasetWriter<T> {
    /// The settings of a dataset at `root` (created if missing), with the
    /// defaults: no partitions, no file limits, 64 open files, 1 thread.
    pub fn builder(root: impl AsRef<Path>) -> DatasetWriterBuilder<T> {
        DatasetWriterBuilder {
            root: root.as_ref().to_owned(),
            partitions: Partitioner::new(),
            max_rows_per_file: u64::MAX,
            max_bytes_per_file: u64::MAX,
            max_open_files: 64,
            writer_id: None,
            threads: 1,
            files: Arc::new(|b| b),
        }
    }

    /// Writes one record into the file of its partition. A record that
    /// cannot be written (a value its column cannot hold, an empty string
    /// as a partition value) returns its error and is left out; with one
    /// thread the writer goes on. Any other error (creating, encoding or
    /// closing a file) stops the writer: later calls, `commit` included,
    /// return [`Error::WriterState`] and no `_SUCCESS` is written. With more
    /// threads, errors of the threads come back from a later call, and
    /// stop the writer.
    pub fn write(&mut self, record: T) -> Result<()> {
        self.partitions.directory(&record, self.rows, &mut self.key)?;
        match &mut self.route {
            Route::Local(shard) => shard.write(&self.key, &record).map_err(|e| e.at_record(self.rows))?,
            Route::Threads(workers) => workers.route(&self.key, record)?,
        }
        self.rows += 1;
        Ok(())
    }

    /// Writes every record of `records`, stopping at the first error.
    pub fn write_all(&mut self, records: impl IntoIterator<Item = T>) -> Result<()> {
        records.into_iter().try_for_each(|r| self.write(r))
    }

    /// Closes every open file (each renamed to its final name), then
    /// writes the `_SUCCESS` marker at the root.
    pub fn commit(self) -> Result<CommitSummary> {
        let DatasetWriter { files, route, .. } = self;
        let mut summary = match route {
            Route::Local(mut shard) => {
                shard.close_all()?;
                shard.summary
            }
            Route::Threads(workers) => workers.finish()?,
        };
        let marker = files.root.join(SUCCESS_MARKER);
        std::fs::write(&marker, b"").map_err(|e| in_dir(&marker, e))?;
        summary.files.sort();
        Ok(summary)
    }
}

/// What every shard shares: where and how files are written.
struct Files<T: OwnedRecord> {
    root: PathBuf,
    /// The partition fields, left out of the files.
    omitted: Vec<String>,
    settings: FileSettings<T>,
    max_rows: u64,
    max_bytes: u64,
    writer_id: String,
    /// The next file's number, across threads.
    sequence: AtomicU64,
}

impl<T: OwnedRecord> Files<T> {
    /// A new file in directory `key` (relative to the root).
    fn create(&self, key: &str) -> Result<(PathBuf, ParquetWriter<T, AtomicFile>)> {
        let dir = self.root.join(key);
        std::fs::create_dir_all(&dir).map_err(|e| in_dir(&dir, e))?;
        let seq = self.sequence.fetch_add(1, Ordering::Relaxed);
        let name = format!("part-{seq:05}-{}.parquet", self.writer_id);
        if dir.join(&name).exists() {
            return Err(Error::argument(format!(
                "`{}` exists: another writer with the id `{}` wrote into this dataset; give each writer its own `writer_id`",
                dir.join(&name).display(),
                self.writer_id
            )));
        }
        let builder = (self.settings)(ParquetWriter::<T, Vec<u8>>::builder()).threads(1).omitting(self.omitted.clone());
        let relative = Path::new(key).join(&name);
        Ok((relative, builder.create(dir.join(name))?))
    }
}

/// An open file of a partition.
struct OpenFile<T: OwnedRecord> {
    path: PathBuf,
    writer: ParquetWriter<T, AtomicFile>,
    /// When it was last written to (a shard's own clock).
    used: u64,
}

/// The open files of some partitions, on one thread.
struct Shard<T: OwnedRecord> {
    files: Arc<Files<T>>,
    open: HashMap<String, OpenFile<T>>,
    max_open: usize,
    clock: u64,
    summary: CommitSummary,
    /// The error (of a file's creation, encoding or closing) after which
    /// records already accepted may be lost: nothing more is written and
    /// there is no commit.
    broken: Option<Error>,
}

impl<T: OwnedRecord> Shard<T> {
    fn new(files: Arc<Files<T>>, max_open: usize) -> Self {
        Shard { files, open: HashMap::new(), max_open, clock: 0, summary: CommitSummary::default(), broken: None }
    }

    /// Writes `record` into the file of `key`. A record that cannot be
    /// converted is left out and the shard goes on; any other error breaks it.
    fn write(&mut self, key: &str, record: &T) -> Result<()> {
        if let Some(cause) = &self.broken {
            return Err(Error::WriterState { source: Some(Box::new(cause.clone())) });
        }
        match self.write_unchecked(key, record) {
            Err(e) if !matches!(e, Error::Value { .. } | Error::Null { .. }) => {
                self.broken = Some(e.clone());
                Err(e)
            }
            other => other,
        }
    }

    fn write_unchecked(&mut self, key: &str, record: &T) -> Result<()> {
        self.clock += 1;
        // One lookup for a partition already open (the common case).
        let full = match self.open.get_mut(key) {
            Some(file) => write_into(file, record, self.clock, &self.files)?,
            None => {
                if self.open.len() >= self.max_open {
                    self.close_least_recent()?;
                }
                let (path, writer) = self.files.create(key)?;
                let mut file = OpenFile { path, writer, used: 0 };
                let written = write_into(&mut file, record, self.clock, &self.files);
                self.open.insert(key.to_owned(), file);
                written?
            }
        };
        if full {
            self.close(key)?;
        }
        Ok(())
    }

    fn close_least_recent(&mut self) -> Result<()> {
        let oldest = self.open.iter().min_by_key(|(_, f)| f.used).map(|(k, _)| k.clone());
        match oldest {
            Some(key) => self.close(&key),
            None => Ok(()),
        }
    }

    fn close(&mut self, key: &str) -> Result<()> {
        let Some(file) = self.open.remove(key) else { return Ok(()) };
        let rows = file.writer.rows_written();
        file.writer.close().map_err(|e| e.in_file(&Some(Arc::from(self.files.root.join(&file.path)))))?;
        self.summary.files.push(file.path);
        self.summary.rows += rows;
        Ok(())
    }

    fn close_all(&mut self) -> Result<()> {
        if let Some(cause) = &self.broken {
            return Err(Error::WriterState { source: Some(Box::new(cause.clone())) });
        }
        let mut keys: Vec<String> = self.open.keys().cloned().collect();
        keys.sort();
        keys.iter().try_for_each(|k| self.close(k))
    }
}

/// Where records go: the caller's own shard, or the threads'.
enum Route<T: OwnedRecord> {
    Local(Shard<T>),
    Threads(Workers<T>),
}

/// Records for one thread, each with its directory (shared: the caller
/// interns each directory once).
type Routed<T> = Vec<(Arc<str>, T)>;

/// The writing threads, each with a shard of its own.
struct Workers<T: OwnedRecord> {
    senders: Vec<SyncSender<Routed<T>>>,
    /// Records not yet sent, per thread.
    pending: Vec<Routed<T>>,
    /// Each thread, until joined.
    threads: Vec<Option<JoinHandle<Result<CommitSummary>>>>,
    hasher: std::collections::hash_map::RandomState,
    /// The directories seen, shared with the threads: routing a record
    /// allocates nothing.
    keys: HashMap<Arc<str>, usize>,
    /// Set when the writer is dropped without a commit: the threads drop
    /// their open files (removing them) instead of closing them.
    abandoned: Arc<AtomicBool>,
    /// The error that stopped a thread: every later call fails with it.
    broken: Option<Error>,
}

impl<T: OwnedRecord> Workers<T> {
    fn start(n: usize, files: &Arc<Files<T>>, max_open: usize) -> Result<Self> {
        let abandoned = Arc::new(AtomicBool::new(false));
        let (mut senders, mut threads) = (Vec::with_capacity(n), Vec::with_capacity(n));
        for i in 0..n {
            let (send, receive): (SyncSender<Routed<T>>, Receiver<Routed<T>>) = sync_channel(2);
            let mut shard = Shard::new(files.clone(), max_open);
            let abandoned = abandoned.clone();
            let thread = std::thread::Builder::new()
                .name(format!("magnolify-parquet dataset {i}"))
                .spawn(move || {
                    for batch in receive {
                        for (key, record) in batch {
                            shard.write(&key, &record)?;
                        }
                    }
                    if !abandoned.load(Ordering::SeqCst) {
                        shard.close_all()?;
                    }
                    Ok(std::mem::take(&mut shard.summary))
                })
                .map_err(|e| Error::argument(format!("could not start a writing thread ({e}); write with 1 thread")))?;
            senders.push(send);
            threads.push(Some(thread));
        }
        let pending = (0..n).map(|_| Vec::with_capacity(ROUTED_BATCH)).collect();
        Ok(Workers {
            senders,
            pending,
            threads,
            hasher: Default::default(),
            keys: HashMap::new(),
            abandoned,
            broken: None,
        })
    }

    fn route(&mut self, key: &str, record: T) -> Result<()> {
        if let Some(cause) = &self.broken {
            return Err(Error::WriterState { source: Some(Box::new(cause.clone())) });
        }
        let (key, i) = match self.keys.get_key_value(key) {
            Some((key, &i)) => (key.clone(), i),
            None => {
                let i = (self.hasher.hash_one(key) % self.senders.len() as u64) as usize;
                let key: Arc<str> = Arc::from(key);
                self.keys.insert(key.clone(), i);
                (key, i)
            }
        };
        self.pending[i].push((key, record));
        if self.pending[i].len() >= ROUTED_BATCH {
            let batch = std::mem::replace(&mut self.pending[i], Vec::with_capacity(ROUTED_BATCH));
            if self.senders[i].send(batch).is_err() {
                // The thread stopped at an error: it is returned here, and
                // the others abandon their files.
                let error = self.join_stopped(i);
                self.broken = Some(error.clone());
                return Err(error);
            }
        }
        Ok(())
    }

    /// The error that stopped thread `i` (which has ended).
    fn join_stopped(&mut self, i: usize) -> Error {
        let (gone, _) = sync_channel(0);
        drop(std::mem::replace(&mut self.senders[i], gone));
        let ended = self.threads[i].take().map(joined);
        ended.and_then(Result::err).unwrap_or_else(|| Error::bug(Location::default(), "a writing thread ended early"))
    }

    fn finish(mut self) -> Result<CommitSummary> {
        if let Some(cause) = self.broken.take() {
            return Err(Error::WriterState { source: Some(Box::new(cause)) });
        }
        for (send, batch) in self.senders.drain(..).zip(self.pending.drain(..)) {
            // A failed send: the thread stopped at an error, joined below.
            let _ = send.send(batch);
        }
        let mut summary = CommitSummary::default();
        let mut first_error = None;
        for thread in self.threads.drain(..).flatten() {
            match joined(thread) {
                Ok(part) => {
                    summary.files.extend(part.files);
                    summary.rows += part.rows;
                }
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        match first_error {
            Some(e) => Err(e),
            None => Ok(summary),
        }
    }
}

impl<T: OwnedRecord> Drop for Workers<T> {
    /// Without a commit, the threads drop their open files (their
    /// temporary files are removed) and end; they are waited for.
    fn drop(&mut self) {
        self.abandoned.store(true, Ordering::SeqCst);
        self.senders.clear();
        for thread in self.threads.drain(..).flatten() {
            let _ = thread.join();
        }
    }
}

fn joined(thread: JoinHandle<Result<CommitSummary>>) -> Result<CommitSummary> {
    thread.join().unwrap_or_else(|_| Err(Error::bug(Location::default(), "a writing thread panicked")))
}

/// Writes `record` into `file` (used at `clock`); whether the file is full.
fn write_into<T: OwnedRecord>(file: &mut OpenFile<T>, record: &T, clock: u64, files: &Files<T>) -> Result<bool> {
    file.used = clock;
    file.writer.write(record)?;
    Ok(file.writer.rows_written() >= files.max_rows
        || (files.max_bytes != u64::MAX && file.writer.bytes_written() >= files.max_bytes))
}

/// An I/O error at `path`.
pub(super) fn in_dir(path: &Path, e: std::io::Error) -> Error {
    Error::from(e).in_file(&Some(Arc::from(path)))
}

/// 16 hex digits that differ between writers and processes: the process,
/// the time and a per-process random seed, hashed.
pub(super) fn random_id() -> String {
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    std::process::id().hash(&mut hasher);
    std::time::SystemTime::now().hash(&mut hasher);
    format!("{:016x}", hasher.finish())
}
