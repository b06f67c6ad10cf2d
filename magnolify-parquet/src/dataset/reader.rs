//! The dataset reader: a dataset's files pruned by their partition values
//! and read (in parallel, one file per thread) into records whose
//! partition fields come from the paths.

use std::fs::File;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use parquet::schema::types::{ColumnDescPtr, SchemaDescriptor, Type, TypePtr};

use super::discover::{discover, DatasetFile};
use super::value::plain_value;
use crate::error::{Error, Location, Result};
use crate::file::{ParquetReader, ReaderBuilder};
use crate::filter::{constants_may_pass, FilterCounts, Predicate};
use crate::read::ReadOptions;
use crate::record::{Derived, OwnedRecord, ParquetRecord, RecordRead};

/// Records a reading thread hands over at once.
const CHUNK: usize = 1024;

/// The reader of a dataset, over the files found at its root; made by
/// [`DatasetReader::builder`], the reader then built with its
/// [`ReadOptions`].
#[must_use = "a builder does nothing until it builds"]
pub struct DatasetReaderBuilder<T> {
    pub(super) root: PathBuf,
    pub(super) files: Vec<DatasetFile>,
    ordered: bool,
    _records: std::marker::PhantomData<fn() -> T>,
}

/// What a [`DatasetReader`] read and skipped so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DatasetCounts {
    /// Files whose partition values rule out every record: not opened.
    pub files_skipped: usize,
    /// Files read to their end.
    pub files_read: usize,
    /// What the readers of the files read did (their counts added up).
    pub filter: FilterCounts,
}

impl<T> DatasetReaderBuilder<T> {
    /// The files found, sorted by path, with their partition values.
    pub fn files(&self) -> &[DatasetFile] {
        &self.files
    }

    /// Records come in whatever order the threads finish them (default:
    /// in order of the files' paths, then of each file's records), which
    /// is faster when files differ in size.
    pub fn unordered(mut self) -> Self {
        self.ordered = false;
        self
    }
}

impl<T: OwnedRecord> DatasetReaderBuilder<T> {
    /// The reader, with `options`: with a predicate, files whose partition
    /// values rule out every record are not opened, and inside the others
    /// row groups and pages are skipped as a file's reader skips them. With
    /// several files and threads, each thread reads one file at a time;
    /// with one file, its reader gets them all.
    ///
    /// The partition values of every file are parsed into their fields'
    /// types here: a directory whose value does not fit its field is an
    /// error naming it. Options that choose row groups are refused: the
    /// files' row groups differ.
    pub fn build(self, options: ReadOptions<T>) -> Result<DatasetReader<T>> {
        refuse_row_groups(&options)?;
        let (plans, skipped) = plan(self.files, options.filter.as_ref())?;
        let plans: Vec<FilePlan> =
            plans.into_iter().map(|(file, constants)| FilePlan { path: file.path, constants }).collect();
        let counts = DatasetCounts { files_skipped: skipped, ..DatasetCounts::default() };
        let threads = options.threads;
        let inner = if threads == 1 || plans.len() <= 1 {
            Inner::Sequential { plans: plans.into_iter().collect(), current: None, options: Arc::new(options) }
        } else {
            Inner::Parallel(Parallel::start(plans, Arc::new(options.threads(1)), threads, self.ordered)?)
        };
        Ok(DatasetReader { inner, counts, done: false, _root: self.root })
    }
}

/// A dataset's readers choose no row groups: each file has its own.
pub(crate) fn refuse_row_groups<T>(options: &ReadOptions<T>) -> Result<()> {
    let one_file = |option: &str, what: &str| {
        Error::argument(format!(
            "ReadOptions::{option} chooses {what} of one file, and a dataset's files differ: leave it unset, or \
             read one file with ReaderBuilder"
        ))
    };
    match (&options.row_groups, &options.skipped_rows) {
        (Some(_), _) => Err(one_file("row_groups", "row groups")),
        (_, Some(_)) => Err(one_file("skip_rows", "rows")),
        _ => Ok(()),
    }
}

/// A partition field's schema node and its value in one file (PLAIN bytes,
/// `None` for a null): a column the file's path gives.
pub(crate) type Constant = (TypePtr, Option<Vec<u8>>);

/// A file to read, with the values of its partition fields.
pub(crate) type PlannedFile = (DatasetFile, Vec<Constant>);

/// The files of `files` that `predicate` may pass given their partition
/// values, each with its values parsed into the columns of `T`'s partition
/// fields; and how many were ruled out. A directory whose value does not
/// fit its field is an error naming the file.
pub(crate) fn plan<T: ParquetRecord>(
    files: Vec<DatasetFile>,
    predicate: Option<&Predicate<T>>,
) -> Result<(Vec<PlannedFile>, usize)> {
    let message = T::message()?;
    let names: Vec<String> =
        files.first().map(|f| f.partition.iter().map(|(n, _)| n.clone()).collect()).unwrap_or_default();
    // The partition fields the type has, and their columns (for pruning).
    let fields: Vec<TypePtr> =
        names.iter().filter_map(|n| message.get_fields().iter().find(|f| f.name() == n).cloned()).collect();
    let columns = partition_columns(&message, &fields)?;
    let mut plans = Vec::with_capacity(files.len());
    let mut skipped = 0;
    for file in files {
        let mut constants = Vec::with_capacity(fields.len());
        for (name, text) in &file.partition {
            if let Some(field) = fields.iter().find(|f| f.name() == name) {
                if text.is_none() && field.get_basic_info().repetition() == parquet::basic::Repetition::REQUIRED {
                    return Err(Error::null(
                        Location::column(name),
                        format!(
                            "the directory `{name}={}` holds a null; make `{name}` an `Option`",
                            super::NULL_PARTITION
                        ),
                    )
                    .in_file(&Some(Arc::from(file.path.as_path()))));
                }
                let value = plain_value(field, text.as_deref())
                    .map_err(|e| e.in_file(&Some(Arc::from(file.path.as_path()))))?;
                constants.push((field.clone(), value));
            }
        }
        let passes = predicate.is_none_or(|p| {
            constants_may_pass(&p.node, &|parts: &[String]| {
                let [name] = parts else { return None };
                let (_, value) = constants.iter().find(|(f, _)| f.name() == name)?;
                let column = columns.iter().find(|c| c.name() == name)?.clone();
                Some((column, value.clone()))
            })
        });
        match passes {
            true => plans.push((file, constants)),
            false => skipped += 1,
        }
    }
    Ok((plans, skipped))
}

/// The columns of the partition fields `fields` of `message`.
fn partition_columns(message: &Type, fields: &[TypePtr]) -> Result<Vec<ColumnDescPtr>> {
    if fields.is_empty() {
        return Ok(Vec::new());
    }
    let root = Type::group_type_builder(message.name())
        .with_fields(fields.to_vec())
        .build()
        .map_err(|e| Error::schema(message.name(), e.to_string()))?;
    let schema = SchemaDescriptor::new(Arc::new(root));
    Ok(schema.columns().to_vec())
}

/// A file to read and the values of its partition fields.
pub(super) struct FilePlan {
    pub(super) path: PathBuf,
    pub(super) constants: Vec<Constant>,
}

impl FilePlan {
    /// The builder of the file's reader, its partition fields read from its path.
    pub(super) fn builder(self) -> Result<ReaderBuilder<File>> {
        ReaderBuilder::open(&self.path)?.constant_columns(self.constants)
    }

    fn open<T: OwnedRecord>(self, options: &ReadOptions<T>) -> Result<ParquetReader<T, File>> {
        self.builder()?.build(options.clone())
    }
}

/// Reads the records of a Hive-partitioned dataset (or a directory of
/// files): the files under a root, sorted by path, with each record's
/// partition fields read from its file's directories (`day=2024-01-02`)
/// into their types. Files written by this library's
/// [`DatasetWriter`](super::DatasetWriter), by Spark (`part-…` files,
/// `_SUCCESS`, `_committed_…` and `.crc` files beside them) and by
/// pyarrow's `write_to_dataset` read alike: hidden files, markers and
/// checksum files are skipped.
///
/// A reader moves between threads (it is `Send`) whenever its records do,
/// borrowing ones included; rustdoc's list of auto traits below cannot
/// prove it through the record's associated type and shows `!Send`.
///
/// ```
/// use magnolify_parquet::dataset::{DatasetReader, DatasetWriter};
/// use magnolify_parquet::{ParquetType, ReadOptions};
///
/// #[derive(ParquetType, Debug, Clone, PartialEq)]
/// struct Sale { region: String, year: i32, amount: u64 }
///
/// let dir = std::env::temp_dir().join(format!("sales-{}", std::process::id()));
/// let f = Sale::fields();
/// let mut w = DatasetWriter::builder(&dir).partition_by(&f.year).partition_by(&f.region).build()?;
/// for (i, region) in ["north", "south", "east"].iter().cycle().take(30).enumerate() {
///     w.write(&Sale { region: region.to_string(), year: 2020 + i as i32 / 10, amount: i as u64 })?;
/// }
/// w.close()?;
///
/// // Only the files under year=2022 are opened.
/// let mut reader = DatasetReader::builder(&dir)?.build(ReadOptions::default().filter(f.year.eq(2022)))?;
/// let amounts: Vec<u64> = reader.by_ref().map(|s| s.map(|s| s.amount)).collect::<Result<_, _>>()?;
/// // By path: region=east, then north, then south.
/// assert_eq!(amounts, [20, 23, 26, 29, 21, 24, 27, 22, 25, 28]);
/// assert_eq!((reader.counts().files_read, reader.counts().files_skipped), (3, 6));
/// # std::fs::remove_dir_all(&dir).unwrap();
/// # Ok::<(), magnolify_parquet::Error>(())
/// ```
pub struct DatasetReader<T: ParquetRecord>
where
    Derived<T>: RecordRead,
{
    pub(super) inner: Inner<T>,
    pub(super) counts: DatasetCounts,
    pub(super) done: bool,
    pub(super) _root: PathBuf,
}

impl<T: ParquetRecord> DatasetReader<T>
where
    Derived<T>: RecordRead,
{
    /// Finds the files under `root` and returns the settings of a reader of them.
    pub fn builder(root: impl AsRef<Path>) -> Result<DatasetReaderBuilder<T>> {
        let root = root.as_ref().to_owned();
        let files = discover(&root)?;
        Ok(DatasetReaderBuilder { root, files, ordered: true, _records: std::marker::PhantomData })
    }

    /// What was read and skipped so far (all of it once the reader has ended).
    pub fn counts(&self) -> DatasetCounts {
        self.counts
    }
}

pub(super) enum Inner<T: ParquetRecord>
where
    Derived<T>: RecordRead,
{
    Sequential {
        plans: std::collections::VecDeque<FilePlan>,
        current: Option<Box<ParquetReader<T, File>>>,
        options: Arc<ReadOptions<T>>,
    },
    Parallel(Parallel<T>),
}

impl<T: OwnedRecord> Iterator for DatasetReader<T> {
    type Item = Result<T>;

    fn next(&mut self) -> Option<Result<T>> {
        if self.done {
            return None;
        }
        let next = match &mut self.inner {
            Inner::Sequential { plans, current, options } => loop {
                if let Some(reader) = current {
                    match reader.next() {
                        Some(record) => break Some(record),
                        None => {
                            self.counts.files_read += 1;
                            self.counts.filter += reader.counts();
                            *current = None;
                        }
                    }
                }
                let Some(plan) = plans.pop_front() else { break None };
                match plan.open(options) {
                    Ok(reader) => *current = Some(Box::new(reader)),
                    Err(e) => break Some(Err(e)),
                }
            },
            Inner::Parallel(parallel) => parallel.next(&mut self.counts),
        };
        if !matches!(next, Some(Ok(_))) {
            self.done = true;
        }
        next
    }
}

/// A file for a thread to take, with the channel its records go to.
type Job<T> = Mutex<Option<(FilePlan, SyncSender<Message<T>>)>>;

/// What a reading thread hands over for a file.
enum Message<T> {
    Records(Vec<T>),
    /// The file ended; its filter counts.
    Done(FilterCounts),
    Failed(Error),
}

/// Files read by threads of the reader's own, one file per thread at a
/// time, taken in path order. In order, each file has a channel of its
/// own, read file after file; a thread ahead of the reader waits once its
/// file's channel is full, so memory stays a few chunks per thread.
pub(super) struct Parallel<T> {
    /// One receiver per file (ordered), or one for all (unordered).
    receivers: std::collections::VecDeque<Receiver<Message<T>>>,
    ordered: bool,
    /// Records received and not yet returned.
    buffered: std::vec::IntoIter<T>,
    stop: Arc<AtomicBool>,
    threads: Vec<JoinHandle<()>>,
}

impl<T: OwnedRecord> Parallel<T> {
    fn start(plans: Vec<FilePlan>, options: Arc<ReadOptions<T>>, threads: usize, ordered: bool) -> Result<Self> {
        let threads = threads.min(plans.len());
        let (senders, receivers): (Vec<_>, std::collections::VecDeque<_>) = match ordered {
            true => plans.iter().map(|_| sync_channel::<Message<T>>(4)).unzip(),
            false => {
                let (send, receive) = sync_channel::<Message<T>>(4 * threads);
                (plans.iter().map(|_| send.clone()).collect(), [receive].into())
            }
        };
        let work: Arc<Vec<Job<T>>> =
            Arc::new(plans.into_iter().zip(senders).map(|job| Mutex::new(Some(job))).collect());
        let next = Arc::new(AtomicUsize::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let mut handles = Vec::with_capacity(threads);
        for i in 0..threads {
            let (work, next, stop, options) = (work.clone(), next.clone(), stop.clone(), options.clone());
            let handle = std::thread::Builder::new()
                .name(format!("magnolify-parquet dataset read {i}"))
                .spawn(move || loop {
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    let Some(slot) = work.get(index) else { return };
                    let Some((plan, send)) = slot.lock().ok().and_then(|mut s| s.take()) else { return };
                    if stop.load(Ordering::SeqCst) {
                        return;
                    }
                    // A panic (of a type's own `ParquetRead`, say) ends this
                    // file with an error, not a silent end of the records.
                    let read = catch_unwind(AssertUnwindSafe(|| read_file(plan, &options, &send)));
                    let ok = read.unwrap_or_else(|_| {
                        let _ = send.send(Message::Failed(Error::bug(Location::default(), "reading a file panicked")));
                        false
                    });
                    if !ok {
                        return;
                    }
                })
                .map_err(|e| Error::argument(format!("could not start a reading thread ({e}); read with 1 thread")))?;
            handles.push(handle);
        }
        Ok(Parallel { receivers, ordered, buffered: Vec::new().into_iter(), stop, threads: handles })
    }

    fn next(&mut self, counts: &mut DatasetCounts) -> Option<Result<T>> {
        loop {
            if let Some(record) = self.buffered.next() {
                return Some(Ok(record));
            }
            let receiver = self.receivers.front()?;
            match receiver.recv() {
                Ok(Message::Records(records)) => self.buffered = records.into_iter(),
                Ok(Message::Done(filter)) => {
                    counts.files_read += 1;
                    counts.filter += filter;
                    if self.ordered {
                        self.receivers.pop_front();
                    }
                }
                Ok(Message::Failed(e)) => return Some(Err(e)),
                // Every file of this channel is done (unordered: all of them).
                Err(_) if !self.ordered => return None,
                Err(_) => {
                    return Some(Err(Error::bug(Location::default(), "a reading thread stopped without a result")))
                }
            }
        }
    }
}

impl<T> Drop for Parallel<T> {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Threads blocked sending find their channel gone and end.
        self.receivers.clear();
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

/// Reads one file into `send`, a chunk at a time; `false` when the reader
/// is gone or the file failed.
fn read_file<T: OwnedRecord>(plan: FilePlan, options: &ReadOptions<T>, send: &SyncSender<Message<T>>) -> bool {
    let mut reader = match plan.open(options) {
        Ok(reader) => reader,
        Err(e) => {
            let _ = send.send(Message::Failed(e));
            return false;
        }
    };
    let mut chunk = Vec::with_capacity(CHUNK);
    for record in reader.by_ref() {
        match record {
            Ok(record) => chunk.push(record),
            Err(e) => {
                let _ = send.send(Message::Records(chunk));
                let _ = send.send(Message::Failed(e));
                return false;
            }
        }
        if chunk.len() == CHUNK
            && send.send(Message::Records(std::mem::replace(&mut chunk, Vec::with_capacity(CHUNK)))).is_err()
        {
            return false;
        }
    }
    send.send(Message::Records(chunk)).is_ok() && send.send(Message::Done(reader.counts())).is_ok()
}
