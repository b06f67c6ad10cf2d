//! A partitioned dataset under a prefix of an object store: the objects
//! listed, their partition values read from their paths, those a predicate
//! rules out not fetched, the others read one after the other.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::Arc;

use futures_util::TryStreamExt;
use object_store::path::Path as ObjectPath;
use object_store::ObjectStore;

use super::discover::{partitioned, DatasetFile};
use super::reader::{not_stored, plan, DatasetCounts, PlannedFile};
use crate::error::Result;
use crate::file::ParquetReader;
use crate::filter::Predicate;
use crate::record::OwnedRecord;
use crate::store::{object_file, store_error, FetchedRanges, StoreReaderBuilder};

/// The files of a dataset under a prefix of a store, found by listing it;
/// made by [`StoreDataset::open`].
pub struct StoreDatasetBuilder<T> {
    store: Arc<dyn ObjectStore>,
    prefix: ObjectPath,
    files: Vec<DatasetFile>,
    predicate: Option<Predicate<T>>,
}

impl<T: OwnedRecord> StoreDatasetBuilder<T> {
    /// The objects found, sorted by path, with their partition values
    /// (`path` is the object's location).
    pub fn files(&self) -> &[DatasetFile] {
        &self.files
    }

    /// Reads only the records that pass `predicate`: objects whose
    /// partition values rule out every record are not fetched, and in the
    /// others only the row groups their statistics leave.
    pub fn filter(mut self, predicate: Predicate<T>) -> Self {
        self.predicate = Some(predicate);
        self
    }

    /// The reader. The partition values of every object are parsed into
    /// their fields' types here.
    pub fn build(self) -> Result<StoreDataset<T>> {
        let (plans, skipped) = plan(self.files, self.predicate.as_ref())?;
        Ok(StoreDataset {
            store: self.store,
            plans: plans.into(),
            predicate: self.predicate,
            counts: DatasetCounts { files_skipped: skipped, ..DatasetCounts::default() },
            _prefix: self.prefix,
        })
    }
}

/// Reads a Hive-partitioned dataset under a prefix of an object store (as
/// [`DatasetReader`](crate::dataset::DatasetReader) reads one on disk), one
/// object at a time: [`next_file`](Self::next_file) fetches the next
/// object's footer and the chunks its records need and returns the reader
/// of its records, partition fields included.
///
/// ```
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// use std::sync::Arc;
/// use magnolify_parquet::dataset::StoreDataset;
/// use magnolify_parquet::store::StoreWriter;
/// use magnolify_parquet::{ParquetType, ParquetWriter};
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
///     let mut w = StoreWriter::create(store.clone(), &path, ParquetWriter::<Reading, _>::builder()).await?;
///     w.write(&Reading { value }).await?;
///     w.close().await?;
/// }
/// let f = Sensed::fields();
/// let mut dataset = StoreDataset::open(store, &Path::from("readings")).await?.filter(f.sensor.eq("b".into())).build()?;
/// let mut all = Vec::new();
/// while let Some(file) = dataset.next_file().await {
///     all.extend(file?.collect::<Result<Vec<_>, _>>()?);
/// }
/// assert_eq!(all, [Sensed { sensor: "b".into(), value: 2.0 }]);
/// assert_eq!((dataset.counts().files_read, dataset.counts().files_skipped), (1, 1));
/// # Ok::<(), magnolify_parquet::Error>(())
/// # }).unwrap();
/// ```
pub struct StoreDataset<T> {
    store: Arc<dyn ObjectStore>,
    plans: VecDeque<PlannedFile>,
    predicate: Option<Predicate<T>>,
    counts: DatasetCounts,
    _prefix: ObjectPath,
}

impl<T: OwnedRecord> StoreDataset<T> {
    /// Lists the objects under `prefix`: objects with a hidden name in their
    /// path under the prefix (see [`DatasetReader`](super::DatasetReader))
    /// are left out.
    pub async fn open(store: Arc<dyn ObjectStore>, prefix: &ObjectPath) -> Result<StoreDatasetBuilder<T>> {
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
        Ok(StoreDatasetBuilder { store, prefix: prefix.clone(), files, predicate: None })
    }

    /// The reader of the next object's records (its chunks fetched first);
    /// `None` after the last.
    pub async fn next_file(&mut self) -> Option<Result<ParquetReader<T, FetchedRanges>>> {
        let (file, constants) = self.plans.pop_front()?;
        // The location as listed (already encoded: parsed, not encoded again).
        let path = match ObjectPath::parse(file.path.to_string_lossy().as_ref()) {
            Ok(path) => path,
            Err(e) => return Some(Err(crate::Error::argument(format!("object `{}`: {e}", file.path.display())))),
        };
        let opened = async {
            let builder = StoreReaderBuilder::open(self.store.clone(), &path).await?;
            let constants = not_stored(builder.metadata().schema(), constants);
            let builder = builder.with_constant_columns(constants)?;
            match &self.predicate {
                Some(p) => builder.build_filtered(p.clone()).await,
                None => builder.build().await,
            }
        };
        let reader = opened.await.map_err(|e| e.in_file(&Some(object_file(&path))));
        if let Ok(reader) = &reader {
            self.counts.files_read += 1;
            self.counts.filter += reader.filter_counts();
        }
        Some(reader)
    }

    /// The objects read and skipped so far (`filter` holds the row groups
    /// of the objects opened; records are counted by each file's reader).
    pub fn counts(&self) -> DatasetCounts {
        self.counts
    }
}
