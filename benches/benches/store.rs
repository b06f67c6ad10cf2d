//! `store`: a dataset of 200 objects (500 rides each) read from an
//! in-memory store that adds 20 ms to every request, as S3 from a nearby
//! region does, with 1, 8 and 32 objects fetched at once; and written into
//! one with 1 and 8 objects completed at once. Reading and writing are
//! bound by the latency divided by the concurrency: one request per object
//! (a footer request brings a small object whole; a small object is put
//! whole), and one list or one `_SUCCESS`.
//! Beside them, one object of 100,000 rides read through the in-memory
//! store without latency (`read_object_memory`) and the same bytes read as
//! a file in memory (`read_bytes_memory`): their ratio is what the store
//! reader adds per record (its futures, polled every 256 records, and the
//! fetches of its window).
//! The request counts of one read are printed before the timings, and
//! (not in `--test` runs) the peak memory of reading a 1 GB object through
//! the in-memory store with a window of 2 row groups, measured in a child
//! process of its own.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use benches::dataset::{self, Ride};
use benches::SEED;
use divan::Bencher;
use futures_util::StreamExt;
use magnolify_parquet::dataset::{DatasetWriter, StoreDatasetReader};
use magnolify_parquet::store::{StoreReaderBuilder, StoreWriter};
use magnolify_parquet::{ParquetType, ParquetWriter, ReadOptions, ReaderBuilder, WriterBuilder};
use object_store::memory::InMemory;
use object_store::path::Path;
use object_store::ObjectStore;
use test_kit::store::{Behaviour, Latency, Request, Wrapped};

const OBJECTS: usize = 200;
const RIDES_PER_OBJECT: usize = 500;
const LATENCY: Duration = Duration::from_millis(20);

/// Set in the child process that measures a large object's read.
const RSS_CHILD: &str = "MAGNOLIFY_STORE_RSS_CHILD";

fn main() {
    if std::env::var_os(RSS_CHILD).is_some() {
        rss_child();
        return;
    }
    report_requests();
    if !std::env::args().any(|a| a == "--test") {
        report_rss();
    }
    divan::main();
}

/// 64 bytes of random values: nothing compresses.
#[derive(ParquetType)]
struct Wide {
    a: u64,
    b: u64,
    c: u64,
    d: u64,
    e: u64,
    f: u64,
    g: u64,
    h: u64,
}

/// Rows of the large object: 1 GiB of values, in row groups of 1,048,576
/// rows (64 MiB).
const LARGE_ROWS: u64 = 1 << 24;

/// Returns every body in a buffer of its own, as bytes from a network do
/// (the in-memory store's gets are slices of the object it holds, which
/// would cost a reader nothing to keep).
#[derive(Debug)]
struct Copies;

impl Behaviour for Copies {
    fn before(
        &self,
        _n: usize,
        _request: Request,
        _location: &Path,
    ) -> futures_util::future::BoxFuture<'static, object_store::Result<()>> {
        Box::pin(std::future::ready(Ok(())))
    }

    fn body(&self, _n: usize, bytes: bytes::Bytes) -> bytes::Bytes {
        bytes::Bytes::copy_from_slice(&bytes)
    }
}

/// In the child: writes the large object into an in-memory store, resets
/// the peak RSS (Linux's `clear_refs`), reads every record with a window
/// of the child's argument in row groups, its bodies copied as a network's
/// are, and prints the object's size, the RSS before the read and the peak
/// during it (KiB).
fn rss_child() {
    let window: usize = std::env::var(RSS_CHILD).ok().and_then(|w| w.parse().ok()).unwrap_or(2);
    let mut rng = test_kit::rng::XorShift::new(SEED);
    let builder = WriterBuilder::<Wide>::new().dictionary(false).max_row_group_rows(1 << 20);
    let mut w: ParquetWriter<Wide, Vec<u8>> = builder.build(Vec::new()).expect("writer");
    for _ in 0..LARGE_ROWS {
        let mut u = || rng.next_u64();
        let row = Wide { a: u(), b: u(), c: u(), d: u(), e: u(), f: u(), g: u(), h: u() };
        w.write(&row).expect("write");
    }
    let bytes = w.into_inner().expect("close");
    let size = bytes.len();
    let inner: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
    let path = Path::from("large.parquet");
    let runtime = runtime();
    runtime.block_on(object_store::ObjectStoreExt::put(&inner, &path, bytes.into())).expect("put");
    let store: Arc<dyn ObjectStore> = Arc::new(Wrapped::new(inner, Copies));
    std::fs::write("/proc/self/clear_refs", "5").expect("reset the peak RSS");
    let before = dataset::proc_status_kib("VmHWM:").unwrap_or(0);
    let rows = runtime.block_on(async {
        let builder = StoreReaderBuilder::open(store, &path).await.expect("open").window(window);
        let mut reader = builder.build::<Wide>(ReadOptions::default().threads(1)).await.expect("build");
        let mut rows = 0u64;
        while let Some(row) = reader.next().await {
            std::hint::black_box(row.expect("a row"));
            rows += 1;
        }
        rows
    });
    assert_eq!(rows, LARGE_ROWS);
    let peak = dataset::proc_status_kib("VmHWM:").unwrap_or(0);
    println!("{size} {before} {peak}");
}

/// The peak memory of reading the large object with windows of 2 row
/// groups and of all 16.
fn report_rss() {
    for window in [2, 16] {
        let Ok(exe) = std::env::current_exe() else { return };
        let Ok(out) = std::process::Command::new(exe).env(RSS_CHILD, window.to_string()).output() else { return };
        let text = String::from_utf8_lossy(&out.stdout);
        let numbers: Vec<u64> = text.split_whitespace().filter_map(|n| n.parse().ok()).collect();
        let name = format!("store/peak_rss_1gb_object_window_{window}");
        if let [size, before, peak] = numbers[..] {
            let mib = |kib: u64| kib as f64 / 1024.0;
            println!(
                "{name}: {:.1} MiB more than before the read ({:.1} MiB peak, {:.1} MiB before with the store's copy of the {:.1} MiB object), 16 row groups of 64 MiB",
                mib(peak.saturating_sub(before)),
                mib(peak),
                mib(before),
                size as f64 / (1 << 20) as f64
            );
        } else {
            println!("{name}: not measured ({})", String::from_utf8_lossy(&out.stderr).trim());
        }
    }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_time().build().expect("a runtime")
}

/// The objects, written once without latency.
fn objects() -> Arc<dyn ObjectStore> {
    static STORE: OnceLock<Arc<dyn ObjectStore>> = OnceLock::new();
    STORE
        .get_or_init(|| {
            let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
            let rides = dataset::generate(OBJECTS * RIDES_PER_OBJECT, 20, SEED);
            runtime().block_on(async {
                for (i, part) in rides.chunks(RIDES_PER_OBJECT).enumerate() {
                    let path = Path::from(format!("rides/part-{i:05}.parquet"));
                    let builder = WriterBuilder::<Ride>::new();
                    let mut w = StoreWriter::create(store.clone(), &path, builder).await.expect("create");
                    for ride in part {
                        w.write(ride).await.expect("write");
                    }
                    w.close().await.expect("close");
                }
            });
            store
        })
        .clone()
}

/// Reads every ride through `store` with `concurrency` objects in flight.
async fn read(store: Arc<dyn ObjectStore>, concurrency: usize) -> usize {
    let builder = StoreDatasetReader::<Ride>::builder(store, &Path::from("rides")).await.expect("list");
    let mut reader = builder.concurrency(concurrency).build(ReadOptions::default().threads(1)).expect("build");
    let mut rides = 0;
    while let Some(ride) = reader.next().await {
        ride.expect("a ride");
        rides += 1;
    }
    assert_eq!(rides, OBJECTS * RIDES_PER_OBJECT);
    rides
}

fn read_with(bencher: Bencher, concurrency: usize) {
    let runtime = runtime();
    let inner = objects();
    bencher.bench_local(|| {
        let store = Arc::new(Wrapped::new(inner.clone(), Latency(LATENCY)));
        runtime.block_on(read(store, concurrency))
    });
}

/// Writes the rides of [`OBJECTS`] objects as a dataset partitioned by
/// zone, files rolled at [`RIDES_PER_OBJECT`], into `store`, with
/// `concurrency` objects completed at once; returns the objects written.
async fn write(store: Arc<dyn ObjectStore>, rides: &[Ride], concurrency: usize) -> usize {
    let f = Ride::fields();
    let builder =
        DatasetWriter::builder("rides").partition_by(&f.zone).limits(|l| l.max_rows_per_file(RIDES_PER_OBJECT as u64));
    let mut writer =
        builder.limits(|l| l.max_open_files(20)).build_in_store(store).expect("build").concurrency(concurrency);
    writer.write_all(rides).await.expect("write");
    writer.close().await.expect("close").files.len()
}

/// The rides written by the write benches: [`OBJECTS`] objects' worth,
/// zones in blocks so that files fill one at a time.
fn rides_to_write() -> &'static [Ride] {
    static RIDES: OnceLock<Vec<Ride>> = OnceLock::new();
    RIDES.get_or_init(|| {
        let mut rides = dataset::generate(OBJECTS * RIDES_PER_OBJECT, 20, SEED);
        rides.sort_by_key(|r| r.zone);
        rides
    })
}

fn write_with(bencher: Bencher, concurrency: usize) {
    let runtime = runtime();
    let rides = rides_to_write();
    bencher.bench_local(|| {
        let store = Arc::new(Wrapped::new(Arc::new(InMemory::new()), Latency(LATENCY)));
        runtime.block_on(write(store, rides, concurrency))
    });
}

/// The requests of one read and one write at each concurrency, and its time.
fn report_requests() {
    let runtime = runtime();
    for concurrency in [1, 8, 32] {
        let store = Arc::new(Wrapped::new(objects(), Latency(LATENCY)));
        let started = std::time::Instant::now();
        runtime.block_on(read(store.clone(), concurrency));
        println!(
            "store/read_latency_c{concurrency}: {} requests for {OBJECTS} objects ({:?} each), one read in {:.2} s",
            store.requests(),
            LATENCY,
            started.elapsed().as_secs_f64()
        );
    }
    for concurrency in [1, 8] {
        let store = Arc::new(Wrapped::new(Arc::new(InMemory::new()), Latency(LATENCY)));
        let started = std::time::Instant::now();
        let objects = runtime.block_on(write(store.clone(), rides_to_write(), concurrency));
        println!(
            "store/write_latency_c{concurrency}: {} requests for {objects} objects ({:?} each), one write in {:.2} s",
            store.requests(),
            LATENCY,
            started.elapsed().as_secs_f64()
        );
    }
}

#[divan::bench(sample_count = 3)]
fn read_latency_c1(bencher: Bencher) {
    read_with(bencher, 1);
}

#[divan::bench(sample_count = 3)]
fn read_latency_c8(bencher: Bencher) {
    read_with(bencher, 8);
}

#[divan::bench(sample_count = 3)]
fn read_latency_c32(bencher: Bencher) {
    read_with(bencher, 32);
}

#[divan::bench(sample_count = 3)]
fn write_latency_c1(bencher: Bencher) {
    write_with(bencher, 1);
}

#[divan::bench(sample_count = 3)]
fn write_latency_c8(bencher: Bencher) {
    write_with(bencher, 8);
}

/// Rides in the object of `read_object_memory`, in row groups of 10,000.
const ONE_OBJECT_RIDES: usize = 100_000;

/// The object of `read_object_memory`: in a store, and as bytes.
fn one_object() -> &'static (Arc<dyn ObjectStore>, bytes::Bytes) {
    static ONE: OnceLock<(Arc<dyn ObjectStore>, bytes::Bytes)> = OnceLock::new();
    ONE.get_or_init(|| {
        let rides = dataset::generate(ONE_OBJECT_RIDES, 20, SEED);
        let builder = WriterBuilder::<Ride>::new().max_row_group_rows(10_000);
        let bytes = test_kit::io::file_with(builder, &rides).expect("a file");
        let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
        let path = Path::from("one.parquet");
        runtime().block_on(object_store::ObjectStoreExt::put(&store, &path, bytes.clone().into())).expect("put");
        (store, bytes)
    })
}

#[divan::bench(sample_count = 10)]
fn read_object_memory(bencher: Bencher) {
    let runtime = runtime();
    let (store, _) = one_object();
    bencher.bench_local(|| {
        runtime.block_on(async {
            let builder = StoreReaderBuilder::open(store.clone(), &Path::from("one.parquet")).await.expect("open");
            let mut reader = builder.build::<Ride>(ReadOptions::default().threads(1)).await.expect("build");
            let mut rides = 0;
            while let Some(ride) = reader.next().await {
                ride.expect("a ride");
                rides += 1;
            }
            assert_eq!(rides, ONE_OBJECT_RIDES);
            rides
        })
    });
}

#[divan::bench(sample_count = 10)]
fn read_bytes_memory(bencher: Bencher) {
    let (_, bytes) = one_object();
    bencher.bench_local(|| {
        let reader = ReaderBuilder::new(bytes.clone()).expect("open");
        let mut rides = 0;
        for ride in reader.build::<Ride>(ReadOptions::default().threads(1)).expect("build") {
            ride.expect("a ride");
            rides += 1;
        }
        assert_eq!(rides, ONE_OBJECT_RIDES);
        rides
    });
}
