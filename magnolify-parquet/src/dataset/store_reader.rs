//! A partitioned dataset under a prefix of an object store: the objects
//! listed, their partition values read from their paths, those a predicate
//! rules out not fetched, the others fetched several at once and read one
//! after the other.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use futures_util::future::BoxFuture;
use futures_util::{Stream, TryStreamExt};
use object_store::path::Path as ObjectPath;
use object_store::ObjectStore;

use super::discover::{partitioned, DatasetFile};
use super::reader::{plan, refuse_row_groups, DatasetCounts, PlannedFile};
use crate::error::Result;
use crate::read::ReadOptions;
use crate::record::{Derived, OwnedRecord, ParquetRecord, RecordRead};
use crate::store::{object_file, store_error, Ahead, StoreReader, StoreReaderBuilder};

/// The reader of a dataset under a prefix of a store, over the objects
/// found by listing it; made by [`StoreDatasetReader::builder`], the reader
/// then built with its [`ReadOptions`].
#[must_use = "a builder does nothing until it builds"]
pub struct StoreDatasetReaderBuilder<T> {
    store: Arc<dyn ObjectStore>,
    prefix: ObjectPath,
    files: Vec<DatasetFile>,
    concurrency: usize,
    ordered: bool,
    _records: std::marker::PhantomData<fn() -> T>,
}

/// Objects fetched at once by a [`StoreDatasetReader`] unless
/// [`StoreDatasetReaderBuilder::concurrency`] says otherwise.
pub const DEFAULT_CONCURRENCY: usize = 8;

impl<T> StoreDatasetReaderBuilder<T> {
    /// The objects found, sorted by path, with their partition values
    /// (`path` is the object's location).
    pub fn files(&self) -> &[DatasetFile] {
        &self.files
    }

    /// Up to `objects` objects are fetched at once (their footers, then
    /// their column chunks), ahead of the one being read; default
    /// [`DEFAULT_CONCURRENCY`]. Reading is then bound by the store's
    /// latency divided by `objects`, not by the number of objects; memory
    /// by `objects` objects' fetched chunks (and the one being read). The
    /// fetches progress while the reader is awaited. `0` counts as 1.
    pub fn concurrency(mut self, objects: usize) -> Self {
        self.concurrency = objects.max(1);
        self
    }

    /// Objects are read in the order their fetches finish (default: in
    /// order of their paths), each object's records in order: faster when
    /// objects differ in size or latency.
    pub fn unordered(mut self) -> Self {
        self.ordered = false;
        self
    }
}

impl<T: OwnedRecord + 'static> StoreDatasetReaderBuilder<T> {
    /// The reader, with `options`: with a predicate, objects whose
    /// partition values rule out every record are not fetched, and in the
    /// others only what a file's reader would read. The partition values of
    /// every object are parsed into their fields' types here. Options that
    /// choose row groups are refused: the objects' row groups differ.
    pub fn build(mut self, options: ReadOptions<T>) -> Result<StoreDatasetReader<T>> {
        refuse_row_groups(&options)?;
        let (plans, skipped) = plan(std::mem::take(&mut self.files), options.filter.as_ref())?;
        Ok(self.reader(plans, skipped, options, |builder, options| Box::pin(builder.build(options))))
    }
}

impl<T: ParquetRecord + 'static> StoreDatasetReaderBuilder<T>
where
    Derived<T>: RecordRead,
{
    /// A reader of `T`, a struct that may borrow its strings and bytes from
    /// the batch, read batch by batch with
    /// [`StoreDatasetReader::next_batch`], as
    /// [`DatasetReaderBuilder::build_borrowed`](super::DatasetReaderBuilder::build_borrowed)
    /// reads a dataset on disk: objects one after the other in path order,
    /// those whose partition values a predicate rules out not fetched, no
    /// row-group choice. (Its objects are fetched ahead as `Send` futures:
    /// the records must be `Send`, as every struct of owned and borrowed
    /// strings and bytes is.)
    pub fn build_borrowed(mut self, options: ReadOptions<T>) -> Result<StoreDatasetReader<T>>
    where
        <Derived<T> as RecordRead>::Record<'static>: Send,
    {
        refuse_row_groups(&options)?;
        let (plans, skipped) = plan(std::mem::take(&mut self.files), options.filter.as_ref())?;
        Ok(self.reader(plans, skipped, options, |builder, options| Box::pin(builder.build_borrowed(options))))
    }

    fn reader(
        self,
        plans: Vec<PlannedFile>,
        skipped: usize,
        options: ReadOptions<T>,
        build: Build<T>,
    ) -> StoreDatasetReader<T> {
        StoreDatasetReader {
            store: self.store,
            plans: plans.into(),
            options,
            build,
            in_flight: Ahead::new(self.ordered),
            concurrency: self.concurrency,
            current: None,
            counts: DatasetCounts { files_skipped: skipped, ..DatasetCounts::default() },
            done: false,
            _prefix: self.prefix,
        }
    }
}

/// One object's reader, its footer and first row groups being fetched.
type Opening<T> = BoxFuture<'static, Result<StoreReader<T>>>;

/// Builds an object's reader (owned or lending records) from its builder.
type Build<T> = fn(StoreReaderBuilder, ReadOptions<T>) -> Opening<T>;

/// Reads a Hive-partitioned dataset under a prefix of an object store (as
/// [`DatasetReader`](crate::dataset::DatasetReader) reads one on disk): a
/// [`Stream`](futures_util::Stream) of records (`StreamExt` and
/// `TryStreamExt` of the `futures` crate work on it) that keeps up to
/// [`concurrency`](StoreDatasetReaderBuilder::concurrency) objects being
/// fetched (each its footer, then the chunks its records need), and returns
/// their records, partition fields included, object after object in order
/// of their paths (or as their fetches finish, when built
/// [`unordered`](StoreDatasetReaderBuilder::unordered)). The fetches are
/// futures of this reader, driven while it is awaited: no runtime is
/// assumed, and nothing is fetched while no one awaits.
///
/// It is `Send` whenever its records are.
///
/// ```
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// use std::sync::Arc;
/// use futures::{StreamExt, TryStreamExt};
/// use magnolify_parquet::dataset::StoreDatasetReader;
/// use magnolify_parquet::store::StoreWriter;
/// use magnolify_parquet::{ParquetType, ReadOptions, WriterBuilder};
/// use object_store::{memory::InMemory, path::Path};
///
/// #[derive(ParquetType, Debug, PartialEq)]
/// struct Reading { value: f64 }
/// #[derive(ParquetType, Debug, PartialEq)]
/// struct Sensed { sensor: String, value: f64 }
///
/// let store = Arc::new(InMemory::new());
/// for (sensor, value) in [("a", 1.0), ("b", 2.0)] {
///     let path = Path::from(format!("readings/sensor={sensor}/part-0.parquet"));
///     let mut w = StoreWriter::create(store.clone(), &path, WriterBuilder::<Reading>::new()).await?;
///     w.write(&Reading { value }).await?;
///     w.close().await?;
/// }
/// let f = Sensed::fields();
/// let options = ReadOptions::default().filter(f.sensor.eq("b"));
/// let builder = StoreDatasetReader::builder(store.clone(), &Path::from("readings")).await?;
/// // Up to 16 objects fetched at once (default 8).
/// let mut dataset = builder.concurrency(16).build(options)?;
/// let mut all = Vec::new();
/// while let Some(record) = dataset.next().await {
///     all.push(record?);
/// }
/// assert_eq!(all, [Sensed { sensor: "b".into(), value: 2.0 }]);
/// assert_eq!((dataset.counts().files_read, dataset.counts().files_skipped), (1, 1));
///
/// // A `Stream`: every value, collected.
/// let builder = StoreDatasetReader::<Reading>::builder(store, &Path::from("readings")).await?;
/// let values: Vec<f64> = builder.build(ReadOptions::default())?.map_ok(|r| r.value).try_collect().await?;
/// assert_eq!(values, [1.0, 2.0]);
/// # Ok::<(), magnolify_parquet::Error>(())
/// # }).unwrap();
/// ```
pub struct StoreDatasetReader<T: ParquetRecord>
where
    Derived<T>: RecordRead,
{
    store: Arc<dyn ObjectStore>,
    plans: VecDeque<PlannedFile>,
    options: ReadOptions<T>,
    build: Build<T>,
    /// The objects being fetched, next to be read first.
    in_flight: Ahead<Opening<T>>,
    concurrency: usize,
    /// The reader of the object being read.
    current: Option<Box<StoreReader<T>>>,
    counts: DatasetCounts,
    done: bool,
    _prefix: ObjectPath,
}

impl<T: ParquetRecord + 'static> StoreDatasetReader<T>
where
    Derived<T>: RecordRead,
{
    /// Lists the objects under `prefix` and returns the builder of a
    /// reader of them: objects with a hidden name in their path under the
    /// prefix (see [`DatasetReader`](super::DatasetReader)) are left out.
    pub async fn builder(store: Arc<dyn ObjectStore>, prefix: &ObjectPath) -> Result<StoreDatasetReaderBuilder<T>> {
        let listed: Vec<_> = store.list(Some(prefix)).try_collect().await.map_err(|e| store_error(prefix, e))?;
        let found = listed
            .into_iter()
            .map(|meta| {
                let relative: PathBuf = meta
                    .location
                    .prefix_match(prefix)
                    .map(|parts| parts.map(|p| p.as_ref().to_owned()).collect())
                    .unwrap_or_default();
                (PathBuf::from(meta.location.as_ref()), relative)
            })
            .collect();
        let files = partitioned(found, prefix.as_ref())?;
        Ok(StoreDatasetReaderBuilder {
            store,
            prefix: prefix.clone(),
            files,
            concurrency: DEFAULT_CONCURRENCY,
            ordered: true,
            _records: std::marker::PhantomData,
        })
    }

    /// The next batch of records, which may borrow from it (a reader built
    /// by [`StoreDatasetReaderBuilder::build_borrowed`]): they live until
    /// the next call; as [`DatasetReader::next_batch`](super::DatasetReader::next_batch).
    pub async fn next_batch(&mut self) -> Result<Option<Vec<<Derived<T> as RecordRead>::Record<'_>>>> {
        self.in_flight.progress().await;
        while !self.done {
            if let Some(reader) = &mut self.current {
                match reader.advance().await {
                    Ok(true) => break,
                    Ok(false) => {
                        self.counts.files_read += 1;
                        self.counts.filter += reader.counts();
                        self.current = None;
                    }
                    Err(e) => {
                        self.done = true;
                        return Err(e);
                    }
                }
                continue;
            }
            match self.next_object().await {
                Some(Ok(reader)) => self.current = Some(Box::new(reader)),
                Some(Err(e)) => {
                    self.done = true;
                    return Err(e);
                }
                None => self.done = true,
            }
        }
        match (&mut self.current, self.done) {
            (Some(reader), false) => reader.lend().map(Some),
            _ => Ok(None),
        }
    }

    /// What was read and skipped so far (all of it once the reader has
    /// ended), as [`DatasetReader::counts`](super::DatasetReader::counts).
    pub fn counts(&self) -> DatasetCounts {
        self.counts
    }

    /// The reader of the next object, once fetched; `None` after the last.
    /// First starts fetching objects until `concurrency` are in flight.
    async fn next_object(&mut self) -> Option<Result<StoreReader<T>>> {
        self.start_fetches();
        self.in_flight.next().await
    }

    /// Starts fetching objects until `concurrency` are in flight.
    fn start_fetches(&mut self) {
        while self.in_flight.len() < self.concurrency {
            let Some(plan) = self.plans.pop_front() else { break };
            let opening = open_object(self.store.clone(), plan, self.options.clone(), self.build);
            self.in_flight.push(opening);
        }
    }
}

/// The reader of one object: its footer fetched, its partition fields
/// given by its path, then what `build` fetches; errors name the object.
fn open_object<T: ParquetRecord + 'static>(
    store: Arc<dyn ObjectStore>,
    (file, constants): PlannedFile,
    options: ReadOptions<T>,
    build: Build<T>,
) -> Opening<T>
where
    Derived<T>: RecordRead,
{
    Box::pin(async move {
        // The location as listed (already encoded: parsed, not encoded again).
        let path = ObjectPath::parse(file.path.to_string_lossy().as_ref())
            .map_err(|e| crate::Error::argument(format!("object `{}`: {e}", file.path.display())))?;
        let opened = async {
            let builder = StoreReaderBuilder::open(store, &path).await?;
            build(builder.constant_columns(constants)?, options).await
        };
        opened.await.map_err(|e: crate::Error| e.in_file(&Some(object_file(&path))))
    })
}

// The reader is never pinned in place: `poll_next` moves nothing it holds.
impl<T: ParquetRecord> Unpin for StoreDatasetReader<T> where Derived<T>: RecordRead {}

impl<T: OwnedRecord + 'static> Stream for StoreDatasetReader<T> {
    type Item = Result<T>;

    /// The next record; `None` after the last. After an error it ends.
    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<T>>> {
        let this = self.get_mut();
        while !this.done {
            if let Some(reader) = &mut this.current {
                match std::task::ready!(Pin::new(&mut **reader).poll_next(cx)) {
                    Some(Err(e)) => {
                        this.done = true;
                        return Poll::Ready(Some(Err(e)));
                    }
                    Some(record) => {
                        // The objects fetched ahead are polled now and then.
                        if this.in_flight.nudge_due() {
                            this.in_flight.poll_progress(cx);
                        }
                        return Poll::Ready(Some(record));
                    }
                    None => {
                        this.counts.files_read += 1;
                        this.counts.filter += reader.counts();
                        this.current = None;
                    }
                }
                continue;
            }
            this.start_fetches();
            match std::task::ready!(this.in_flight.poll_next(cx)) {
                Some(Ok(reader)) => this.current = Some(Box::new(reader)),
                Some(Err(e)) => {
                    this.done = true;
                    return Poll::Ready(Some(Err(e)));
                }
                None => this.done = true,
            }
        }
        Poll::Ready(None)
    }
}
