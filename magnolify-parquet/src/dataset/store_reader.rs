//! A partitioned dataset under a prefix of an object store: the objects
//! listed, their partition values read from their paths, those a predicate
//! rules out not fetched, the others read one after the other.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::Arc;

use futures_util::TryStreamExt;
use object_store::path::Path as ObjectPath;
use object_store::ObjectStore;

use super::constant_columns::ConstantColumns;
use super::discover::{partitioned, DatasetFile};
use super::reader::{plan, refuse_row_groups, DatasetCounts, PlannedFile};
use crate::error::Result;
use crate::file::ParquetReader;
use crate::read::ReadOptions;
use crate::record::{Derived, OwnedRecord, ParquetRecord, RecordRead};
use crate::store::{object_file, store_error, FetchedRanges, StoreReaderBuilder};

/// The reader of a dataset under a prefix of a store, over the objects
/// found by listing it; made by [`StoreDatasetReader::builder`], the reader
/// then built with its [`ReadOptions`].
#[must_use = "a builder does nothing until it builds"]
pub struct StoreDatasetReaderBuilder<T> {
    store: Arc<dyn ObjectStore>,
    prefix: ObjectPath,
    files: Vec<DatasetFile>,
    _records: std::marker::PhantomData<fn() -> T>,
}

impl<T> StoreDatasetReaderBuilder<T> {
    /// The objects found, sorted by path, with their partition values
    /// (`path` is the object's location).
    pub fn files(&self) -> &[DatasetFile] {
        &self.files
    }
}

impl<T: OwnedRecord> StoreDatasetReaderBuilder<T> {
    /// The reader, with `options`: with a predicate, objects whose
    /// partition values rule out every record are not fetched, and in the
    /// others only what a file's reader would read. The partition values of
    /// every object are parsed into their fields' types here. Options that
    /// choose row groups are refused: the objects' row groups differ.
    pub fn build(mut self, options: ReadOptions<T>) -> Result<StoreDatasetReader<T>> {
        refuse_row_groups(&options)?;
        let (plans, skipped) = plan(std::mem::take(&mut self.files), options.filter.as_ref())?;
        Ok(self.reader(plans, skipped, options))
    }
}

impl<T: ParquetRecord> StoreDatasetReaderBuilder<T>
where
    Derived<T>: RecordRead,
{
    /// A reader of `T`, a struct that may borrow its strings and bytes from
    /// the batch, read batch by batch with
    /// [`StoreDatasetReader::next_batch`], as
    /// [`DatasetReaderBuilder::build_borrowed`](super::DatasetReaderBuilder::build_borrowed)
    /// reads a dataset on disk: objects one after the other in path order,
    /// those whose partition values a predicate rules out not fetched, no
    /// row-group choice.
    pub fn build_borrowed(mut self, options: ReadOptions<T>) -> Result<StoreDatasetReader<T>> {
        refuse_row_groups(&options)?;
        let (plans, skipped) = plan(std::mem::take(&mut self.files), options.filter.as_ref())?;
        Ok(self.reader(plans, skipped, options))
    }

    fn reader(self, plans: Vec<PlannedFile>, skipped: usize, options: ReadOptions<T>) -> StoreDatasetReader<T> {
        StoreDatasetReader {
            store: self.store,
            plans: plans.into(),
            options,
            current: None,
            counts: DatasetCounts { files_skipped: skipped, ..DatasetCounts::default() },
            done: false,
            _prefix: self.prefix,
        }
    }
}

/// Reads a Hive-partitioned dataset under a prefix of an object store (as
/// [`DatasetReader`](crate::dataset::DatasetReader) reads one on disk), one
/// object at a time: [`next`](Self::next) fetches an object's footer and the
/// chunks its records need when it reaches it, and returns its records,
/// partition fields included, in order of the objects' paths.
///
/// Like [`DatasetReader`](crate::dataset::DatasetReader), it is `Send`
/// whenever its records are, though rustdoc's auto-trait list says `!Send`.
///
/// ```
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// use std::sync::Arc;
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
/// let mut dataset = StoreDatasetReader::builder(store, &Path::from("readings")).await?.build(options)?;
/// let mut all = Vec::new();
/// while let Some(record) = dataset.next().await {
///     all.push(record?);
/// }
/// assert_eq!(all, [Sensed { sensor: "b".into(), value: 2.0 }]);
/// assert_eq!((dataset.counts().files_read, dataset.counts().files_skipped), (1, 1));
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
    /// The reader of the object being read.
    current: Option<Box<ParquetReader<T, FetchedRanges>>>,
    counts: DatasetCounts,
    done: bool,
    _prefix: ObjectPath,
}

impl<T: ParquetRecord> StoreDatasetReader<T>
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
        Ok(StoreDatasetReaderBuilder { store, prefix: prefix.clone(), files, _records: std::marker::PhantomData })
    }

    /// The next batch of records, which may borrow from it (a reader built
    /// by [`StoreDatasetReaderBuilder::build_borrowed`]): they live until
    /// the next call; as [`DatasetReader::next_batch`](super::DatasetReader::next_batch).
    pub async fn next_batch(&mut self) -> Result<Option<Vec<<Derived<T> as RecordRead>::Record<'_>>>> {
        while !self.done {
            if let Some(reader) = &mut self.current {
                match reader.advance() {
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
            let Some((file, constants)) = self.plans.pop_front() else {
                self.done = true;
                break;
            };
            // The builders locate their own errors in the object.
            let opened = match self.object_builder(file, constants).await {
                Ok((builder, _)) => builder.build_borrowed(self.options.clone()).await,
                Err(e) => Err(e),
            };
            match opened {
                Ok(reader) => self.current = Some(Box::new(reader)),
                Err(e) => {
                    self.done = true;
                    return Err(e);
                }
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

    /// The builder of one object's reader, its footer fetched and its
    /// partition fields given by its path; and the object's path.
    async fn object_builder(
        &self,
        file: DatasetFile,
        constants: Vec<super::reader::Constant>,
    ) -> Result<(StoreReaderBuilder, ObjectPath)> {
        // The location as listed (already encoded: parsed, not encoded again).
        let path = ObjectPath::parse(file.path.to_string_lossy().as_ref())
            .map_err(|e| crate::Error::argument(format!("object `{}`: {e}", file.path.display())))?;
        let opened = async {
            let builder = StoreReaderBuilder::open(self.store.clone(), &path).await?;
            let layer = ConstantColumns::layer(builder.metadata().schema(), constants)?;
            Ok(builder.with_layer(layer))
        };
        let builder = opened.await.map_err(|e: crate::Error| e.in_file(&Some(object_file(&path))))?;
        Ok((builder, path))
    }
}

impl<T: OwnedRecord> StoreDatasetReader<T> {
    /// The next record; `None` after the last. After an error it ends.
    pub async fn next(&mut self) -> Option<Result<T>> {
        while !self.done {
            if let Some(reader) = &mut self.current {
                match reader.next() {
                    Some(Err(e)) => {
                        self.done = true;
                        return Some(Err(e));
                    }
                    Some(record) => return Some(record),
                    None => {
                        self.counts.files_read += 1;
                        self.counts.filter += reader.counts();
                        self.current = None;
                    }
                }
                continue;
            }
            let (file, constants) = self.plans.pop_front()?;
            match self.open(file, constants).await {
                Ok(reader) => self.current = Some(Box::new(reader)),
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
            }
        }
        None
    }

    /// The reader of one object, its chunks fetched.
    async fn open(
        &self,
        file: DatasetFile,
        constants: Vec<super::reader::Constant>,
    ) -> Result<ParquetReader<T, FetchedRanges>> {
        let (builder, path) = self.object_builder(file, constants).await?;
        builder.build(self.options.clone()).await.map_err(|e| e.in_file(&Some(object_file(&path))))
    }
}
