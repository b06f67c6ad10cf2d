//! The records of a scan's data files as one stream, in the plan's order:
//! `threads` files read at once, each by the store reader through the
//! table's `FileIO` (a window of row groups fetched by ranges) on a
//! blocking thread, each sending its records to the stream in batches over
//! a bounded channel.
//! Memory is bound by the files read at once, their windows and channels,
//! never by a file's or the table's size.

use std::sync::{Arc, Mutex, PoisonError};

use futures::stream::{self, BoxStream, StreamExt};
use iceberg::io::FileIO;
use iceberg::scan::FileScanTask;
use magnolify_parquet::filter::{FilterCounts, Predicate};
use magnolify_parquet::store::{RangedSource, StoreReaderBuilder};
use magnolify_parquet::{OwnedRecord, ReadOptions};
use tokio::sync::mpsc;

use crate::columns::TableColumns;
use crate::data_source::DataFileSource;
use crate::defaults::Defaults;
use crate::deletes::{equal_positions, Deletes, EqualityDelete};
use crate::equality::KeyColumns;
use crate::error::{Error, Result};

/// Records a file's reader sends the stream at once.
const BATCH: usize = 1024;

/// Batches a file's reader may have sent ahead of the stream: enough for
/// the files read at once to decode while the stream takes the first's
/// records (with 2, the second file waited for the first: a scan of two
/// files at once took 1.44 times as long as before it streamed).
const BATCHES_AHEAD: usize = 64;

/// Column chunk bytes a file's reader holds at once: the row group being
/// read and the next, fetched ahead, while they fit (Iceberg writers aim
/// at row groups of 128 MiB before compression); a larger row group is
/// read alone.
pub(crate) const WINDOW_BYTES: u64 = 128 << 20;

/// What every file's reader shares.
pub(crate) struct Files<T> {
    pub(crate) io: FileIO,
    pub(crate) columns: TableColumns<T>,
    /// `T`'s fields with initial defaults, for files that lack them.
    pub(crate) defaults: Defaults,
    pub(crate) filter: Option<Predicate<T>>,
    /// The rows delete files delete in each data file.
    pub(crate) deletes: Deletes,
    /// The converter of a data file's equality columns.
    pub(crate) keys: KeyColumns,
    pub(crate) threads: usize,
    /// What the files' readers read and skipped, added as each ends.
    pub(crate) counts: Arc<Mutex<FilterCounts>>,
}

impl<T: OwnedRecord + Send + 'static> Files<T> {
    /// The records of `tasks`' files in batches, in order; the stream ends
    /// after its first error. Dropping it stops the readers.
    pub(crate) fn batches(self, tasks: Vec<FileScanTask>) -> BoxStream<'static, Result<Vec<T>>> {
        let Files { io, columns, defaults, filter, mut deletes, keys, threads, counts } = self;
        let shared = Arc::new((io, (columns, defaults), filter, keys, counts));
        let files = stream::iter(tasks).map(move |task| {
            let path = &task.data_file_path;
            let positions = deletes.positions.remove(path).unwrap_or_default();
            let equality = deletes.equality.remove(path).unwrap_or_default();
            let (sender, receiver) = mpsc::channel(BATCHES_AHEAD);
            let (shared, runtime) = (shared.clone(), tokio::runtime::Handle::current());
            // On a blocking thread of its own, so that files decode in
            // parallel on any runtime (a current-thread one too); its
            // fetches still go through the runtime's drivers.
            tokio::task::spawn_blocking(move || {
                let (io, columns, filter, keys, counts) = &*shared;
                runtime.block_on(async {
                    let deleted = Deleted { positions, equality, keys };
                    let read = read_file(task, io, columns.clone(), filter.as_ref(), deleted, &sender).await;
                    let read = read.map(|read| *counts.lock().unwrap_or_else(PoisonError::into_inner) += read);
                    if let Err(e) = read {
                        // The stream may be gone: nobody to tell.
                        let _ = sender.send(Err(e)).await;
                    }
                });
            });
            // Started now, taken by the stream in order: `threads` at once.
            std::future::ready(stream::unfold(receiver, |mut r| async { r.recv().await.map(|batch| (batch, r)) }))
        });
        // No batch after an error.
        files
            .buffered(threads)
            .flatten()
            .scan(false, |failed, batch| {
                let next = (!*failed).then(|| {
                    *failed = batch.is_err();
                    batch
                });
                std::future::ready(next)
            })
            .boxed()
    }
}

/// The rows of one data file that delete files delete.
struct Deleted<'a> {
    positions: Vec<u64>,
    equality: Vec<Arc<EqualityDelete>>,
    keys: &'a KeyColumns,
}

/// Reads the data file of `task` and sends its records (those `filter`
/// accepts, but those `deleted` deletes) in batches; returns
/// early, with no error, when the stream is dropped. Returns what the
/// reader read and skipped.
async fn read_file<T: OwnedRecord + Send + 'static>(
    task: FileScanTask,
    io: &FileIO,
    (columns, defaults): (TableColumns<T>, Defaults),
    filter: Option<&Predicate<T>>,
    deleted: Deleted<'_>,
    sender: &mpsc::Sender<Result<Vec<T>>>,
) -> Result<FilterCounts> {
    let path = task.data_file_path;
    let opened = DataFileSource::open(io, &path, task.file_size_in_bytes).await;
    let located = |e: iceberg::Error| Error::DataFile { path: path.clone(), source: std::io::Error::other(e).into() };
    let source: Arc<dyn RangedSource> = Arc::new(opened.map_err(located)?);
    let mut positions = deleted.positions;
    if !deleted.equality.is_empty() {
        let equal = equal_positions(source.clone(), deleted.keys, &deleted.equality).await;
        positions.extend(equal.map_err(|source| Error::DataFile { path: path.clone(), source })?);
    }
    let builder = StoreReaderBuilder::open_source(source).await?.window_bytes(WINDOW_BYTES);
    // The library's reader prunes by the file's column names: a file whose
    // columns were renamed since (or are named by the table's name mapping)
    // gets the predicate on the names it has for the fields' ids, or on
    // each record if a column has none there.
    let schema = builder.metadata().file_metadata().schema_descr_ptr();
    let renamed = columns.for_file(&schema).map_err(|source| Error::DataFile { path: path.clone(), source })?;
    let (columns, same_names) = renamed;
    let missing = defaults.missing_from(&columns).map_err(|source| Error::DataFile { path: path.clone(), source })?;
    let builder = match missing.is_empty() {
        true => builder,
        false => builder.constant_columns(missing)?,
    };
    let pushed = match (filter, same_names) {
        (Some(filter), true) => Some(filter.clone()),
        (Some(filter), false) => filter.on_columns(|field| columns.file_path(field)),
        (None, _) => None,
    };
    let test_each = filter.filter(|_| pushed.is_none());
    let options = pushed.map_or_else(ReadOptions::default, |pushed| ReadOptions::default().filter(pushed));
    let options = match positions.is_empty() {
        true => options,
        false => options.skip_rows(positions),
    };
    let mut reader = builder.build_with(columns, options).await?;
    let mut batch = Vec::with_capacity(BATCH);
    while let Some(record) = reader.next().await {
        let record = record?;
        if test_each.is_none_or(|p| p.test(&record)) {
            batch.push(record);
        }
        if batch.len() == BATCH
            && sender.send(Ok(std::mem::replace(&mut batch, Vec::with_capacity(BATCH)))).await.is_err()
        {
            return Ok(reader.counts());
        }
    }
    if !batch.is_empty() {
        let _ = sender.send(Ok(batch)).await;
    }
    Ok(reader.counts())
}
