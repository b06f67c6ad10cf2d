//! The dataset writer: records routed to one file per partition directory,
//! files rolled at a size, partitions past the bound of open files held
//! (and spilled) until the end, and, with more than one thread, partitions
//! shared out between threads.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::Arc;
use std::thread::JoinHandle;

use super::bookkeeping::{Action, Closing, Core, DatasetSummary, Names, NewFile};
use super::in_dir;
use super::partitioner::Partitioner;
use super::value::PartitionValue;
use crate::error::{Error, Location, Result};
use crate::file::disk::Disk;
use crate::file::{AtomicFile, ParquetWriter, WriterBuilder};
use crate::filter::Field;
use crate::partitioned::PartitionLimits;
use crate::record::OwnedRecord;
use crate::write::Latch;

/// The name of the marker [`DatasetWriter::close`] writes last.
pub const SUCCESS_MARKER: &str = "_SUCCESS";

/// Records a worker thread takes at once.
const ROUTED_BATCH: usize = 1024;

/// The settings of each file of a dataset.
pub(super) type FileSettings<T> = Arc<dyn Fn(WriterBuilder<T>) -> WriterBuilder<T> + Send + Sync>;

/// Settings of a [`DatasetWriter`], made by [`DatasetWriter::builder`].
#[must_use = "a builder does nothing until it builds"]
pub struct DatasetWriterBuilder<T: OwnedRecord> {
    pub(super) root: PathBuf,
    pub(super) partitions: Partitioner<T>,
    pub(super) limits: PartitionLimits,
    pub(super) writer_id: Option<String>,
    pub(super) threads: usize,
    pub(super) files: FileSettings<T>,
    disk: Disk,
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

    /// The limits of files, open files and held records, set on the
    /// defaults (no file limits, 64 open files, a 64 MiB spill budget in
    /// the system's temporary directory): see [`PartitionLimits`].
    pub fn limits(mut self, set: impl FnOnce(PartitionLimits) -> PartitionLimits) -> Self {
        self.limits = set(self.limits);
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
    /// the files of some partitions (by a fixed hash of the directory, so
    /// the same records make the same files from run to run), and the
    /// caller's thread only routes records to them; with 1, everything
    /// runs on the caller's thread. In an object store
    /// ([`build_in_store`](Self::build_in_store)) records are routed and
    /// uploaded on the caller's task, and each open object encodes its
    /// column chunks on `threads` threads (`threads - 1` of its own, so up
    /// to `max_open_files × (threads - 1)` in all).
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = threads.max(1);
        self
    }

    /// The settings of every file (compression, row groups, bloom
    /// filters...), applied to a [`WriterBuilder`]; its `threads` is then
    /// replaced by the dataset's (see [`threads`](Self::threads): 1 per
    /// file on disk, `threads` per object in a store).
    pub fn files(mut self, settings: impl Fn(WriterBuilder<T>) -> WriterBuilder<T> + Send + Sync + 'static) -> Self {
        self.files = Arc::new(settings);
        self
    }

    /// The file operations go to `disk` (tests inject faults there).
    #[cfg(test)]
    pub(super) fn on_disk(mut self, disk: Disk) -> Self {
        self.disk = disk;
        self
    }

    /// The writer. Checks the partition fields and creates the root directory.
    pub fn build(self) -> Result<DatasetWriter<T>> {
        self.partitions.check()?;
        self.disk.create_dir_all(&self.root).map_err(|e| in_dir(&self.root, e))?;
        let files = Arc::new(Files {
            root: self.root.clone(),
            omitted: self.partitions.names(),
            settings: self.files,
            disk: self.disk,
        });
        let threads = self.threads.min(self.limits.max_open_files);
        // Each thread has its share of the open files and of the budget.
        let limits = PartitionLimits {
            max_open_files: (self.limits.max_open_files / threads).max(1),
            spill_budget: self.limits.spill_budget / threads as u64,
            ..self.limits
        };
        let names = Names::new(self.writer_id);
        let route = match threads {
            1 => Route::Local(Box::new(Shard::new(files.clone(), &limits, names)?)),
            n => Route::Threads(Workers::start(n, &files, &limits, &names)?),
        };
        Ok(DatasetWriter { files, partitions: self.partitions, route, key: String::new(), rows: 0 })
    }
}

/// Writes records of `T` as a Hive-partitioned dataset: one directory
/// level per partition field (`day=2024-01-02/city=Oslo/`), Parquet files
/// in the leaves, and a `_SUCCESS` marker at the root once
/// [`close`](Self::close) has closed them all.
///
/// Every file is written under a hidden temporary name and renamed when it
/// is complete, so readers (this library's, Spark, DuckDB, pyarrow) never
/// see a partial file; a writer dropped without `close` (or a process
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
///     w.write(&Visit { city: city.into(), user, page: "/".into() })?;
/// }
/// let summary = w.close()?;
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

impl<T: OwnedRecord> DatasetWriter<T> {
    /// The settings of a dataset at `root` (created if missing), with the
    /// defaults: no partitions, no file limits, 64 open files, 1 thread.
    pub fn builder(root: impl AsRef<Path>) -> DatasetWriterBuilder<T> {
        DatasetWriterBuilder {
            root: root.as_ref().to_owned(),
            partitions: Partitioner::new(),
            limits: PartitionLimits::default(),
            writer_id: None,
            threads: 1,
            files: Arc::new(|b| b),
            disk: Disk::default(),
        }
    }

    /// Writes one record into the file of its partition. A record that
    /// cannot be written (a value its column cannot hold, an empty string
    /// as a partition value) returns its error and is left out; with one
    /// thread the writer goes on. Any other error (creating, encoding or
    /// closing a file) stops the writer: later calls, `close` included,
    /// return [`Error::WriterState`] and no `_SUCCESS` is written. With more
    /// threads, errors of the threads come back from a later call, and
    /// stop the writer; each record is cloned to hand it to its thread
    /// (hence `T: Clone`), as writing takes records by reference.
    pub fn write(&mut self, record: &T) -> Result<()>
    where
        T: Clone,
    {
        self.partitions.directory(record, self.rows, &mut self.key)?;
        match &mut self.route {
            Route::Local(shard) => shard.write(&self.key, record).map_err(|e| e.at_record(self.rows))?,
            Route::Threads(workers) => workers.route(&self.key, record.clone())?,
        }
        self.rows += 1;
        Ok(())
    }

    /// Writes every record of `records`, stopping at the first error.
    pub fn write_all<'a>(&mut self, records: impl IntoIterator<Item = &'a T>) -> Result<()>
    where
        T: Clone,
    {
        records.into_iter().try_for_each(|r| self.write(r))
    }

    /// Closes every open file (each renamed to its final name), writes
    /// the held records' files, then the `_SUCCESS` marker at the root.
    pub fn close(self) -> Result<DatasetSummary> {
        let DatasetWriter { files, route, .. } = self;
        let mut summary = match route {
            Route::Local(mut shard) => shard.close_all()?,
            Route::Threads(workers) => workers.close()?,
        };
        let marker = files.root.join(SUCCESS_MARKER);
        files.disk.marker(&marker).map_err(|e| in_dir(&marker, e))?;
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
    disk: Disk,
}

impl<T: OwnedRecord> Files<T> {
    /// The file `new` names, created under its temporary name.
    fn create(&self, new: &NewFile, writer_id: &str) -> Result<ParquetWriter<T, AtomicFile>> {
        let dir = self.root.join(&new.key);
        self.disk.create_dir_all(&dir).map_err(|e| in_dir(&dir, e))?;
        let path = dir.join(&new.name);
        if path.exists() {
            return Err(Error::argument(format!(
                "`{}` exists: another writer with the id `{writer_id}` wrote into this dataset; give each writer its own `writer_id`",
                path.display(),
            )));
        }
        let builder = (self.settings)(WriterBuilder::new()).threads(1).omitting(self.omitted.clone());
        // The dataset writer's own drop is what a user sees (no `_SUCCESS`).
        Ok(builder.create_on(&self.disk, &path)?.quiet_on_drop())
    }
}

/// The open files of some partitions, on one thread: the core's
/// bookkeeping, driven with blocking I/O.
struct Shard<T: OwnedRecord> {
    files: Arc<Files<T>>,
    core: Core<T, ParquetWriter<T, AtomicFile>>,
    names: Names,
}

impl<T: OwnedRecord> Shard<T> {
    fn new(files: Arc<Files<T>>, limits: &PartitionLimits, names: Names) -> Result<Self> {
        Ok(Shard { files, core: Core::new(limits, names.clone())?, names })
    }

    /// Writes `record` into the file of `key`. A record that cannot be
    /// converted is left out and the shard goes on; any other error breaks it.
    fn write(&mut self, key: &str, record: &T) -> Result<()> {
        let written = self.write_unchecked(key, record);
        self.core.latch.guard_records(written)
    }

    fn write_unchecked(&mut self, key: &str, record: &T) -> Result<()> {
        let file = match self.core.route(key, record)? {
            Action::Write(file) => file,
            Action::Open(file) => {
                let writer = self.files.create(&file, self.names.writer_id())?;
                self.core.opened(file, writer)
            }
            Action::Held => return Ok(()),
        };
        file.write(record)?;
        if let Some(closing) = self.core.take_full(key) {
            self.close(closing)?;
        }
        Ok(())
    }

    fn close(&mut self, closing: Closing<ParquetWriter<T, AtomicFile>>) -> Result<()> {
        let at = Some(Arc::from(self.files.root.join(&closing.relative)));
        closing.file.close().map_err(|e| e.in_file(&at))?;
        self.core.closed(closing.relative, closing.rows);
        Ok(())
    }

    /// Closes every open file, then writes the held records, a partition
    /// at a time; what the shard wrote.
    fn close_all(&mut self) -> Result<DatasetSummary> {
        for closing in self.core.close_all()? {
            self.close(closing)?;
        }
        let mut held = self.core.held()?;
        while let Some((key, records)) = held.next_partition() {
            for record in records {
                let record = self.core.latch.guard(record)?;
                self.write(&key, &record)?;
            }
            if let Some(closing) = self.core.take(&key) {
                let closed = self.close(closing);
                self.core.latch.guard(closed)?;
            }
        }
        Ok(self.core.summary())
    }
}

/// Where records go: the caller's own shard, or the threads'.
enum Route<T: OwnedRecord> {
    Local(Box<Shard<T>>),
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
    threads: Vec<Option<JoinHandle<Result<DatasetSummary>>>>,
    /// The directories seen, with their thread, shared with the threads:
    /// routing a record allocates nothing.
    keys: HashMap<Arc<str>, usize>,
    /// Set when the writer is dropped without `close`: the threads drop
    /// their open files (removing them) instead of closing them.
    abandoned: Arc<AtomicBool>,
    /// Broken by the error that stopped a thread: every later call fails.
    latch: Latch,
}

impl<T: OwnedRecord> Workers<T> {
    fn start(n: usize, files: &Arc<Files<T>>, limits: &PartitionLimits, names: &Names) -> Result<Self> {
        let abandoned = Arc::new(AtomicBool::new(false));
        let (mut senders, mut threads) = (Vec::with_capacity(n), Vec::with_capacity(n));
        for i in 0..n {
            let (send, receive): (SyncSender<Routed<T>>, Receiver<Routed<T>>) = sync_channel(2);
            let mut shard = Shard::new(files.clone(), limits, names.clone())?;
            let abandoned = abandoned.clone();
            let thread = std::thread::Builder::new()
                .name(format!("magnolify-parquet dataset {i}"))
                .spawn(move || {
                    for batch in receive {
                        for (key, record) in batch {
                            shard.write(&key, &record)?;
                        }
                    }
                    match abandoned.load(Ordering::SeqCst) {
                        true => Ok(DatasetSummary::default()),
                        false => shard.close_all(),
                    }
                })
                .map_err(|e| Error::argument(format!("could not start a writing thread ({e}); write with 1 thread")))?;
            senders.push(send);
            threads.push(Some(thread));
        }
        let pending = (0..n).map(|_| Vec::with_capacity(ROUTED_BATCH)).collect();
        Ok(Workers { senders, pending, threads, keys: HashMap::new(), abandoned, latch: Latch::default() })
    }

    fn route(&mut self, key: &str, record: T) -> Result<()> {
        self.latch.check()?;
        let (key, i) = match self.keys.get_key_value(key) {
            Some((key, &i)) => (key.clone(), i),
            None => {
                let i = thread_of(key, self.senders.len());
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
                return self.latch.guard(Err(error));
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

    /// Sends what is pending, and waits for the threads to close their files.
    fn close(mut self) -> Result<DatasetSummary> {
        self.latch.check()?;
        for (send, batch) in self.senders.drain(..).zip(self.pending.drain(..)) {
            // A failed send: the thread stopped at an error, joined below.
            let _ = send.send(batch);
        }
        let mut summary = DatasetSummary::default();
        let mut first_error = None;
        for thread in self.threads.drain(..).flatten() {
            match joined(thread) {
                Ok(part) => {
                    summary.files.extend(part.files);
                    summary.rows += part.rows;
                    summary.spilled_runs += part.spilled_runs;
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
    /// Without `close`, the threads drop their open files (their
    /// temporary files are removed) and end; they are waited for.
    fn drop(&mut self) {
        self.abandoned.store(true, Ordering::SeqCst);
        self.senders.clear();
        for thread in self.threads.drain(..).flatten() {
            let _ = thread.join();
        }
    }
}

fn joined(thread: JoinHandle<Result<DatasetSummary>>) -> Result<DatasetSummary> {
    thread.join().unwrap_or_else(|_| Err(Error::bug(Location::default(), "a writing thread panicked")))
}

/// The thread of directory `key` among `threads`: a fixed hash (64-bit
/// FNV-1a) of the directory, so that the same partitions share a thread,
/// and make the same files, from run to run (a seeded hash would not).
fn thread_of(key: &str, threads: usize) -> usize {
    let hash = key.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
    (hash % threads as u64) as usize
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_directory_goes_to_the_thread_of_its_fixed_hash() {
        // FNV-1a of "day=1" is 0xacd7df57e42f32a3, whatever the process.
        assert_eq!(super::thread_of("day=1", usize::MAX), (0xacd7_df57_e42f_32a3_u64 % usize::MAX as u64) as usize);
        let spread: Vec<usize> = (1..=6).map(|d| super::thread_of(&format!("day={d}"), 3)).collect();
        assert_eq!(spread, [0, 1, 2, 0, 1, 2]);
    }
}
