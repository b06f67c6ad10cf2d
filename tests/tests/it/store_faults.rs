//! Object stores at scale: a dataset's objects fetched several at once
//! (exact requests, the most in flight, the order of records), and every
//! request of a whole read and a whole write failed in turn, in each way a
//! store fails (test-kit's `Faults`): a read returns the records or an
//! error naming the object and the cause, a write completes or leaves no
//! object and no upload open. Never a panic, never wrong records.

use std::sync::Arc;
use std::time::Duration;

use futures::future::BoxFuture;
use futures::FutureExt;
use futures::{StreamExt, TryStreamExt};
use magnolify_parquet::dataset::StoreDatasetReader;
use magnolify_parquet::store::StoreWriter;
use magnolify_parquet::{ParquetType, ReadOptions, WriterBuilder};
use object_store::memory::InMemory;
use object_store::path::Path;
use object_store::{ObjectStore, ObjectStoreExt};
use test_kit::rng::XorShift;
use test_kit::store::{Behaviour, Fault, Faults, Latency, Request, Wrapped};

#[derive(ParquetType, Debug, Clone, PartialEq)]
pub(crate) struct Reading {
    pub(crate) object: u32,
    pub(crate) seq: u32,
    /// Random text: nothing compresses, so objects are as large as asked.
    pub(crate) note: String,
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_time().build().expect("runtime")
}

/// `objects` objects `readings/part-NN.parquet` of `rows` readings with
/// notes of `note_bytes`, in a store of their own; and every reading, in
/// order of the objects' paths.
pub(crate) async fn readings(objects: u32, rows: u32, note_bytes: usize) -> (Arc<dyn ObjectStore>, Vec<Reading>) {
    let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
    let mut rng = XorShift::new(7);
    let mut all = Vec::new();
    for object in 0..objects {
        let path = Path::from(format!("readings/part-{object:02}.parquet"));
        let builder = WriterBuilder::<Reading>::new().dictionary(false);
        let mut w = StoreWriter::create(store.clone(), &path, builder).await.unwrap();
        for seq in 0..rows {
            let note = (0..note_bytes).map(|_| char::from(b'a' + rng.below(26) as u8)).collect();
            let reading = Reading { object, seq, note };
            w.write(&reading).await.unwrap();
            all.push(reading);
        }
        w.close().await.unwrap();
    }
    (store, all)
}

/// Every reading under `readings`, `concurrency` objects fetched at once.
pub(crate) async fn read(
    store: Arc<dyn ObjectStore>,
    concurrency: usize,
    ordered: bool,
) -> magnolify_parquet::Result<Vec<Reading>> {
    let builder =
        StoreDatasetReader::<Reading>::builder(store, &Path::from("readings")).await?.concurrency(concurrency);
    let builder = if ordered { builder } else { builder.unordered() };
    let mut reader = builder.build(ReadOptions::default())?;
    let mut all = Vec::new();
    while let Some(reading) = reader.next().await {
        all.push(reading?);
    }
    Ok(all)
}

/// 20 small objects, read with 1, 8 and 32 fetched at once: one list and
/// one get per object (a footer request of 64 KiB brings a small object
/// whole), at most as many gets under way as the concurrency, and the
/// records in order of the objects' paths whatever the concurrency.
#[test]
fn objects_are_fetched_several_at_once_with_one_request_each_and_read_in_path_order() {
    runtime().block_on(async {
        let (inner, expected) = readings(20, 50, 10).await;
        for (concurrency, peak) in [(1, 1), (8, 8), (32, 20)] {
            let store = Arc::new(Wrapped::new(inner.clone(), Latency(Duration::from_millis(2))));
            let back = read(store.clone(), concurrency, true).await.unwrap();
            assert_eq!(back, expected, "concurrency {concurrency}");
            assert_eq!((store.requests(), store.gets().0), (21, 20), "concurrency {concurrency}");
            assert_eq!(store.peak_in_flight(), peak, "concurrency {concurrency}");
        }
    });
}

/// Object `part-NN` answers after (8 - NN) × 10 ms: read unordered with all
/// 8 in flight, the objects come last path first, each object's records in
/// order; ordered, in path order.
#[test]
fn unordered_objects_come_as_their_fetches_finish() {
    #[derive(Debug)]
    struct SlowerFirst;
    impl Behaviour for SlowerFirst {
        fn before(&self, _n: usize, request: Request, location: &Path) -> BoxFuture<'static, object_store::Result<()>> {
            let object = location.as_ref().strip_prefix("readings/part-").and_then(|p| p.get(..2));
            let wait = match (request, object.and_then(|n| n.parse::<u64>().ok())) {
                (Request::Get, Some(n)) => Duration::from_millis((8 - n) * 10),
                _ => Duration::ZERO,
            };
            tokio::time::sleep(wait).map(Ok).boxed()
        }
    }
    runtime().block_on(async {
        let (inner, expected) = readings(8, 30, 10).await;
        let store = Arc::new(Wrapped::new(inner.clone(), SlowerFirst));
        let back = read(store, 8, false).await.unwrap();
        let mut reversed: Vec<Reading> = Vec::new();
        for object in (0..8).rev() {
            reversed.extend(expected.iter().filter(|r| r.object == object).cloned());
        }
        assert_eq!(back, reversed);
        let store = Arc::new(Wrapped::new(inner, SlowerFirst));
        assert_eq!(read(store, 8, true).await.unwrap(), expected);
    });
}

/// What an error must say for `fault`: its cause, as the store or the
/// reader words it.
fn cause(fault: Fault) -> &'static str {
    match fault {
        Fault::Error => "injected at request",
        Fault::Timeout => "timed out",
        Fault::ShortBody => "a body cut short",
        Fault::NotFound => "not found",
    }
}

/// 4 objects of about 100 KB (a footer request, then one for the column
/// chunks, each): every request of the read, failed in each way. A failed
/// list names the prefix; any other failure names its object and cause;
/// a short body of the list (not a get) changes nothing.
#[test]
fn every_request_of_a_dataset_read_failed_in_turn_is_an_error_naming_the_object() {
    runtime().block_on(async {
        let (inner, expected) = readings(4, 400, 250).await;
        let clean = Arc::new(Wrapped::new(inner.clone(), Faults { at: 0, fault: Fault::Error }));
        assert_eq!(read(clean.clone(), 2, true).await.unwrap(), expected);
        assert_eq!((clean.requests(), clean.gets().0), (9, 8));
        for fault in Fault::ALL {
            for at in 1..=clean.requests() {
                let store = Arc::new(Wrapped::new(inner.clone(), Faults { at, fault }));
                let what = format!("{fault:?} at request {at}");
                match read(store, 2, true).await {
                    Ok(back) => {
                        assert_eq!((fault, at), (Fault::ShortBody, 1), "{what}: no error");
                        assert_eq!(back, expected, "{what}");
                    }
                    Err(e) => {
                        let message = e.to_string();
                        let named = if at == 1 { "readings" } else { "readings/part-0" };
                        assert!(message.contains(named), "{what}: {message}");
                        assert!(message.contains(cause(fault)), "{what}: {message}");
                    }
                }
            }
        }
    });
}

/// An object written in parts of 16 KiB, in row groups of 50 readings (so
/// `write` uploads parts, and `close` the last): every request of the upload
/// (its start, each part, its completion) failed in turn, in each way.
/// The write either completes and reads back whole, or fails, leaving no
/// object at the path and no upload open.
#[test]
fn every_request_of_an_upload_failed_in_turn_leaves_the_whole_object_or_none() {
    runtime().block_on(async {
        let (source, expected) = readings(1, 400, 250).await;
        let path = Path::from("out/part-00.parquet");
        let write = |store: Arc<dyn ObjectStore>| {
            let expected = expected.clone();
            let path = path.clone();
            async move {
                // Row groups of 50 readings: parts are uploaded by `write`
                // calls, not only by `close`.
                let builder = WriterBuilder::<Reading>::new().dictionary(false).max_row_group_rows(50);
                let mut w = StoreWriter::create_with_part_size(store, &path, builder, 16 << 10).await?;
                w.write_all(&expected).await?;
                w.close().await.map(|_| ())
            }
        };
        let clean = Arc::new(Wrapped::new(source.clone(), Faults { at: 0, fault: Fault::Error }));
        write(clean.clone()).await.unwrap();
        let requests = clean.requests();
        assert!(requests >= 8, "{requests} requests");
        for fault in Fault::ALL {
            for at in 1..=requests {
                let inner: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
                let store = Arc::new(Wrapped::new(inner.clone(), Faults { at, fault }));
                let what = format!("{fault:?} at request {at}");
                match write(store.clone()).await {
                    Ok(()) => {
                        assert_eq!(fault, Fault::ShortBody, "{what}: no error");
                        let back = read_object(inner.clone(), &path).await;
                        assert_eq!(back, expected, "{what}");
                    }
                    Err(e) => {
                        assert!(e.to_string().contains("out/part-00.parquet"), "{what}: {e}");
                        assert!(inner.head(&path).await.is_err(), "{what}: an object after {e}");
                    }
                }
                assert_eq!(store.uploads_open(), 0, "{what}");
            }
        }
    });
}

async fn read_object(store: Arc<dyn ObjectStore>, path: &Path) -> Vec<Reading> {
    let builder = magnolify_parquet::store::StoreReaderBuilder::open(store, path).await.unwrap();
    builder.build::<Reading>(ReadOptions::default()).await.unwrap().try_collect().await.unwrap()
}

/// A dataset of 1,200 readings in 3 partitions (by object), written in
/// blocks of 100 per partition with at most 2 files open (the third
/// partition held, and written at `close` after the others' uploads
/// complete), files rolled at 150 rows: every request of
/// the whole write (starts, parts of 16 KiB, completions, 2 at once,
/// `_SUCCESS`) failed in turn, in each way.
/// The write completes and reads back whole with `_SUCCESS`, or fails:
/// then no `_SUCCESS`, every object there is whole (it reads), and no
/// upload is left open.
#[test]
fn every_request_of_a_dataset_write_failed_in_turn_leaves_whole_objects_and_no_open_upload() {
    use magnolify_parquet::dataset::DatasetWriter;

    runtime().block_on(async {
        // In order of (object, seq), as `back` is sorted.
        let (_, expected) = readings(3, 400, 250).await;
        let f = Reading::fields();
        let write = |store: Arc<dyn ObjectStore>| {
            let rows = expected.clone();
            let object = f.object.clone();
            async move {
                let mut w = DatasetWriter::builder("out")
                    .partition_by(&object)
                    .limits(|l| l.max_rows_per_file(150).max_open_files(2))
                    .writer_id("w")
                    .files(|b| b.dictionary(false).max_row_group_rows(50))
                    .build_in_store(store)?
                    .part_size(16 << 10)
                    .concurrency(2);
                // Blocks of 100 readings (25 KB, two parts or more) of
                // each partition in turn: with 2 files open, the third's
                // are held; files roll (complete) while others' are open.
                for block in 0..4 {
                    for object in 0..3 {
                        for row in &rows[object * 400 + block * 100..][..100] {
                            w.write(row).await?;
                        }
                    }
                }
                w.close().await.map(|_| ())
            }
        };
        let clean = Arc::new(Wrapped::new(Arc::new(InMemory::new()), Faults { at: 0, fault: Fault::Error }));
        write(clean.clone()).await.unwrap();
        let requests = clean.requests();
        assert!(requests >= 20, "{requests} requests");
        for fault in Fault::ALL {
            for at in 1..=requests {
                let inner: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
                let store = Arc::new(Wrapped::new(inner.clone(), Faults { at, fault }));
                let what = format!("{fault:?} at request {at}");
                let written = write(store.clone()).await;
                let success = inner.head(&Path::from("out/_SUCCESS")).await.is_ok();
                // Whatever objects there are read whole (a short body on a
                // put is no fault: this write makes no gets).
                let mut back: Vec<Reading> = Vec::new();
                let listed: Vec<_> =
                    futures::TryStreamExt::try_collect(inner.list(Some(&Path::from("out")))).await.unwrap();
                for meta in listed.iter().filter(|m| m.location.as_ref().ends_with(".parquet")) {
                    let builder =
                        magnolify_parquet::store::StoreReaderBuilder::open(inner.clone(), &meta.location).await;
                    let reader =
                        builder.unwrap_or_else(|e| panic!("{what}: {e}")).build::<Partless>(ReadOptions::default());
                    let rows: Vec<Partless> =
                        reader.await.unwrap().try_collect().await.unwrap_or_else(|e| panic!("{what}: {e}"));
                    let object: u32 =
                        meta.location.as_ref()["out/object=".len()..].split('/').next().unwrap().parse().unwrap();
                    back.extend(rows.into_iter().map(|r| Reading { object, seq: r.seq, note: r.note }));
                }
                back.sort_by_key(|r| (r.object, r.seq));
                match written {
                    Ok(()) => {
                        assert_eq!(fault, Fault::ShortBody, "{what}: no error");
                        assert!(success, "{what}");
                        assert_eq!(back, expected, "{what}");
                    }
                    Err(e) => {
                        assert!(!success, "{what}: _SUCCESS after {e}");
                        assert!(back.iter().all(|r| expected.contains(r)), "{what}");
                        assert!(e.to_string().contains("out/"), "{what}: {e}");
                    }
                }
                assert_eq!(store.uploads_open(), 0, "{what}");
            }
        }
    });
}

/// A reading without its partition field, as the dataset's files hold it.
#[derive(ParquetType, Debug)]
struct Partless {
    seq: u32,
    note: String,
}
