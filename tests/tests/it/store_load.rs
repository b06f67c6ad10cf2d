//! Load: 64 readers of one dataset and 8 dataset writers into one prefix
//! (distinct writer ids), all at once on a runtime of 2 worker threads over
//! one in-memory store. Every record arrives exactly once, every committed
//! object reads, the requests are exactly those of each reader and writer
//! alone, and the whole run is bounded in time.

use std::sync::Arc;
use std::time::Duration;

use magnolify_parquet::dataset::DatasetWriter;
use object_store::memory::InMemory;
use object_store::path::Path;
use object_store::{ObjectStore, ObjectStoreExt};
use test_kit::store::Counting;

use super::store_faults::{read, readings, Reading};
use futures::StreamExt;

const READERS: usize = 64;
const WRITERS: u32 = 8;
const WRITTEN: u32 = 600;

#[test]
fn sixty_four_readers_and_eight_writers_at_once_each_get_every_record_once() {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_time().build().unwrap();
    runtime.block_on(async {
        // 16 objects of 200 readings to read, copied into the shared store.
        let (source, expected) = readings(16, 200, 20).await;
        let inner: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
        let listed: Vec<_> = futures::TryStreamExt::try_collect(source.list(None)).await.unwrap();
        for meta in &listed {
            let bytes = source.get(&meta.location).await.unwrap().bytes().await.unwrap();
            inner.put(&meta.location, bytes.into()).await.unwrap();
        }
        let reads = Arc::new(Counting::counting(inner.clone()));
        let writes = Arc::new(Counting::counting(inner.clone()));

        let mut tasks = Vec::new();
        for _ in 0..READERS {
            let (store, expected) = (reads.clone(), expected.clone());
            tasks.push(tokio::spawn(async move {
                assert_eq!(read(store, 4, true).await.unwrap(), expected);
            }));
        }
        for writer in 0..WRITERS {
            let store: Arc<dyn ObjectStore> = writes.clone();
            tasks.push(tokio::spawn(async move {
                let f = Reading::fields();
                let builder = DatasetWriter::builder("out").partition_by(&f.object).writer_id(format!("w{writer}"));
                let mut w = builder.build_in_store(store).unwrap();
                for seq in 0..WRITTEN {
                    let reading = Reading { object: seq % 3, seq: writer * 10_000 + seq, note: format!("w{writer}") };
                    w.write(&reading).await.unwrap();
                }
                assert_eq!(w.close().await.unwrap().files.len(), 3);
            }));
        }
        let all = futures::future::join_all(tasks);
        let joined = tokio::time::timeout(Duration::from_secs(120), all).await.expect("the load run took over 120 s");
        for task in joined {
            task.unwrap();
        }
        // Each reader: a list, then one get per object (each is smaller
        // than the footer's request). Each writer: one put per partition
        // (each file smaller than a part) and `_SUCCESS`.
        assert_eq!(reads.requests(), READERS * (1 + 16));
        assert_eq!(writes.requests(), WRITERS as usize * (3 + 1));
        assert_eq!(writes.uploads_open(), 0);

        // Every record written once, in 24 objects that read.
        let store: Arc<dyn ObjectStore> = inner.clone();
        let out = Path::from("out");
        let builder = magnolify_parquet::dataset::StoreDatasetReader::<Reading>::builder(store, &out).await.unwrap();
        assert_eq!(builder.files().len(), 24);
        let mut reader = builder.build(magnolify_parquet::ReadOptions::default()).unwrap();
        let mut back = Vec::new();
        while let Some(reading) = reader.next().await {
            back.push(reading.unwrap());
        }
        back.sort_by_key(|r| r.seq);
        let mut written: Vec<Reading> = (0..WRITERS)
            .flat_map(|w| {
                (0..WRITTEN).map(move |s| Reading { object: s % 3, seq: w * 10_000 + s, note: format!("w{w}") })
            })
            .collect();
        written.sort_by_key(|r| r.seq);
        assert_eq!(back, written);
    });
}
