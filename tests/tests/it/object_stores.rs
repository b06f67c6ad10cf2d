//! Objects in object stores (the `object_store` feature): what a reader
//! fetches (requests and bytes, counted by a store that wraps the
//! in-memory one), what a writer uploads and when the object appears.

use std::sync::Arc;

use futures::{StreamExt, TryStreamExt};
use magnolify_parquet::store::{StoreReaderBuilder, StoreWriter};
use magnolify_parquet::{ParquetType, ReadOptions, WriterBuilder};
use object_store::memory::InMemory;
use object_store::path::Path;
use object_store::{ObjectStoreExt, PutPayload};
use test_kit::rng::XorShift;
use test_kit::store::Counting;

/// 15 columns of random 8-byte values: nothing compresses.
#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Wide {
    c00: u64,
    c01: u64,
    c02: f64,
    c03: u64,
    c04: i64,
    c05: u64,
    c06: f64,
    c07: u64,
    c08: u64,
    c09: i64,
    c10: u64,
    c11: f64,
    c12: u64,
    c13: u64,
    c14: i64,
}

/// Two neighbouring columns of `Wide`.
#[derive(ParquetType, Debug, PartialEq)]
struct TwoOfFifteen {
    c06: f64,
    c07: u64,
}

fn wide(n: usize) -> Vec<Wide> {
    let mut rng = XorShift::new(0xC0FFEE);
    let mut u = || rng.next_u64();
    (0..n)
        .map(|_| Wide {
            c00: u(),
            c01: u(),
            c02: f64::from_bits(u() >> 2),
            c03: u(),
            c04: u() as i64,
            c05: u(),
            c06: f64::from_bits(u() >> 2),
            c07: u(),
            c08: u(),
            c09: u() as i64,
            c10: u(),
            c11: f64::from_bits(u() >> 2),
            c12: u(),
            c13: u(),
            c14: u() as i64,
        })
        .collect()
}

/// Writes `rows` to `path` by multipart upload, in row groups of
/// `group_rows` and parts of `part_size` bytes, checks that it took at least
/// `min_parts` parts, and returns the object's size.
async fn upload(
    store: &Arc<Counting>,
    path: &Path,
    rows: &[Wide],
    group_rows: usize,
    part_size: usize,
    min_parts: usize,
) -> u64 {
    let builder = WriterBuilder::<Wide>::new().dictionary(false).max_row_group_rows(group_rows);
    // One part in flight at a time: a client's parts land only while the
    // writer waits, so `parts_uploaded` lags by the parts in flight.
    let w = StoreWriter::create_with_part_size(store.clone(), path, builder, part_size).await.unwrap();
    let mut w = w.parts_in_flight(1);
    w.write_all(rows).await.unwrap();
    assert!(w.parts_uploaded() >= min_parts, "{} parts", w.parts_uploaded());
    w.close().await.unwrap();
    store.inner().head(path).await.unwrap().size
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime")
}

/// A 100 MB object of 15 columns in 10 row groups, written by multipart
/// upload; reading 2 neighbouring columns fetches under 25 % of it, in one
/// request for the footer and one per row group.
#[test]
fn two_of_fifteen_columns_fetch_a_fraction_of_the_object_in_one_request_per_row_group() {
    let rows = wide(840_000);
    let store = Arc::new(Counting::counting(Arc::new(InMemory::new())));
    let path = Path::from("wide/part-0.parquet");
    runtime().block_on(async {
        let size = upload(&store, &path, &rows, 84_000, 8 << 20, 10).await;
        assert!(size > 100_000_000, "{size}");
        assert_eq!(store.gets(), (0, 0));

        let builder = StoreReaderBuilder::open(store.clone(), &path).await.unwrap();
        assert_eq!((builder.requests(), store.gets().0), (1, 1));
        assert_eq!(builder.metadata().num_row_groups(), 10);
        let reader = builder.build::<TwoOfFifteen>(ReadOptions::default()).await.unwrap();
        // The window of 2 row groups: the first two fetched, no more.
        let (requests, window_bytes) = store.gets();
        assert_eq!(requests, 3);
        let back: Vec<TwoOfFifteen> = reader.try_collect().await.unwrap();
        let (requests, bytes) = store.gets();
        eprintln!("2 of 15 columns: {requests} requests, {bytes} of {size} bytes");
        // The footer, then one request per row group (its two chunks are
        // neighbours).
        assert_eq!(requests, 1 + 10);
        assert!((bytes as f64) < 0.25 * size as f64, "{bytes} of {size} bytes");
        // The two columns are 2/15 of the data; the footer is small.
        assert!((bytes as f64) > 0.13 * size as f64, "{bytes} of {size} bytes");
        assert!(window_bytes < bytes / 4, "{window_bytes} of {bytes} bytes in the window");
        assert_eq!(back.len(), rows.len());
        assert!(back.iter().zip(&rows).all(|(b, r)| b.c06 == r.c06 && b.c07 == r.c07));
    });
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Event {
    id: u64,
    kind: String,
}

fn events(n: u64) -> Vec<Event> {
    (0..n).map(|id| Event { id, kind: format!("k{}", id % 7) }).collect()
}

#[test]
fn a_predicate_fetches_only_the_row_groups_its_statistics_leave() {
    let store = Arc::new(Counting::counting(Arc::new(InMemory::new())));
    let path = Path::from("events.parquet");
    let rows = events(200_000);
    runtime().block_on(async {
        let builder = WriterBuilder::<Event>::new().max_row_group_rows(10_000);
        let mut w = StoreWriter::create(store.clone(), &path, builder).await.unwrap();
        w.write_all(&rows).await.unwrap();
        w.close().await.unwrap();
        let all = StoreReaderBuilder::open(store.clone(), &path).await.unwrap();
        let before = store.gets();
        let full: Vec<Event> = all.build::<Event>(ReadOptions::default()).await.unwrap().try_collect().await.unwrap();
        assert_eq!(full, rows);
        let full_bytes = store.gets().1 - before.1;

        let f = Event::fields();
        let before = store.gets();
        let builder = StoreReaderBuilder::open(store.clone(), &path).await.unwrap().coalesce(0);
        let mut reader = builder.build(ReadOptions::default().filter(f.id.between(25_000, 34_999))).await.unwrap();
        let mut got: Vec<Event> = Vec::new();
        while let Some(event) = reader.next().await {
            got.push(event.unwrap());
        }
        assert_eq!(got, rows[25_000..35_000]);
        assert_eq!((reader.counts().row_groups_read, reader.counts().row_groups_skipped), (2, 18));
        let (requests, bytes) = (store.gets().0 - before.0, store.gets().1 - before.1);
        // The footer (its request of 64 KiB brings the page indexes too,
        // which sit before it), then each of the two groups' chunks.
        assert_eq!(requests, 3);
        assert!(bytes < full_bytes / 3, "{bytes} of {full_bytes}");
    });
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
#[parquet(rename = "Event")]
struct BorrowedEvent<'a> {
    id: u64,
    kind: &'a str,
}

#[test]
fn an_object_lends_borrowed_records_of_the_row_groups_asked_for() {
    let store = Arc::new(Counting::counting(Arc::new(InMemory::new())));
    let path = Path::from("lent/events.parquet");
    let rows = events(50_000);
    runtime().block_on(async {
        let builder = WriterBuilder::<Event>::new().max_row_group_rows(10_000);
        let mut w = StoreWriter::create(store.clone(), &path, builder).await.unwrap();
        w.write_all(&rows).await.unwrap();
        w.close().await.unwrap();
        let before = store.gets().0;
        let builder = StoreReaderBuilder::open(store.clone(), &path).await.unwrap().coalesce(0);
        let options = ReadOptions::default().row_groups(vec![1, 3]).threads(2);
        let mut reader = builder.build_borrowed::<BorrowedEvent>(options).await.unwrap();
        // The footer, then the two groups' chunks (not neighbours, and
        // `coalesce(0)`: two ranges, a request each).
        assert_eq!(store.gets().0 - before, 3);
        let mut back = Vec::new();
        while let Some(batch) = reader.next_batch().await.unwrap() {
            back.extend(batch.iter().map(|e| Event { id: e.id, kind: e.kind.to_owned() }));
        }
        let expected: Vec<Event> = rows[10_000..20_000].iter().chain(&rows[30_000..40_000]).cloned().collect();
        assert_eq!(back, expected);
        assert_eq!(reader.counts().row_groups_read, 2);
    });
}

#[test]
fn an_upload_not_closed_leaves_nothing_at_the_path() {
    let store = Arc::new(Counting::counting(Arc::new(InMemory::new())));
    runtime().block_on(async {
        let rows = events(50_000);
        for (name, close) in [("dropped.parquet", false), ("aborted.parquet", true)] {
            let path = Path::from(name);
            let builder = WriterBuilder::<Event>::new().max_row_group_rows(5_000);
            let mut w = StoreWriter::create_with_part_size(store.clone(), &path, builder, 64 << 10).await.unwrap();
            w.write_all(&rows).await.unwrap();
            assert!(w.parts_uploaded() > 0);
            if close {
                w.abort().await.unwrap();
            } else {
                drop(w);
            }
            assert!(store.inner().head(&path).await.is_err(), "{name}");
        }
        // Closed, it is there and whole.
        let path = Path::from("closed.parquet");
        let mut w = StoreWriter::create_with_part_size(store.clone(), &path, WriterBuilder::<Event>::new(), 64 << 10)
            .await
            .unwrap();
        w.write_all(&rows).await.unwrap();
        w.close().await.unwrap();
        let back: Vec<Event> = StoreReaderBuilder::open(store.clone(), &path)
            .await
            .unwrap()
            .build(ReadOptions::default())
            .await
            .unwrap()
            .try_collect()
            .await
            .unwrap();
        assert_eq!(back, rows);
    });
}

#[test]
fn a_large_footer_takes_a_second_request_and_bad_objects_are_errors() {
    // 400 columns of long names: a footer past the first 64 KiB fetched.
    let store = Arc::new(InMemory::new());
    runtime().block_on(async {
        let mut fields = String::new();
        for i in 0..400 {
            fields.push_str(&format!("required int64 a_rather_long_column_name_to_grow_the_footer_{i:04};"));
        }
        let schema = Arc::new(
            magnolify_parquet::parquet::schema::parser::parse_message_type(&format!("message m {{ {fields} }}"))
                .unwrap(),
        );
        let mut bytes = Vec::new();
        {
            let props = Arc::new(magnolify_parquet::parquet::file::properties::WriterProperties::builder().build());
            let mut w =
                magnolify_parquet::parquet::file::writer::SerializedFileWriter::new(&mut bytes, schema, props).unwrap();
            let mut g = w.next_row_group().unwrap();
            while let Some(mut c) = g.next_column().unwrap() {
                c.typed::<magnolify_parquet::parquet::data_type::Int64Type>().write_batch(&[1, 2], None, None).unwrap();
                c.close().unwrap();
            }
            g.close().unwrap();
            w.close().unwrap();
        }
        let footer = u32::from_le_bytes(bytes[bytes.len() - 8..bytes.len() - 4].try_into().unwrap());
        assert!(footer > 64 << 10, "{footer}");
        let path = Path::from("wide-footer.parquet");
        store.put(&path, PutPayload::from(bytes)).await.unwrap();
        let builder = StoreReaderBuilder::open(store.clone(), &path).await.unwrap();
        assert_eq!(builder.requests(), 2);
        assert_eq!(builder.metadata().file_metadata().num_rows(), 2);

        // Not Parquet, and missing: errors naming the object.
        let junk = Path::from("junk.parquet");
        store.put(&junk, PutPayload::from(vec![7u8; 100])).await.unwrap();
        let Err(e) = StoreReaderBuilder::open(store.clone(), &junk).await else { panic!("junk read") };
        assert!(e.to_string().contains("junk.parquet") && e.to_string().contains("PAR1"), "{e}");
        let Err(e) = StoreReaderBuilder::open(store.clone(), &Path::from("missing.parquet")).await else {
            panic!("a missing object read")
        };
        assert!(e.to_string().contains("missing.parquet"), "{e}");
    });
}

/// The S3 server `tests/peer/s3.sh` starts (moto, on localhost), through
/// `object_store`'s S3 client: a multipart upload of 5 MiB parts, then 2
/// of 15 columns read back in one request for the footer and one per row
/// group, 2 row groups at most fetched at once; an aborted upload leaves
/// nothing; a dataset of 14 objects written 3 at once and read 3 at once.
#[test]
#[ignore = "needs an S3 server: run tests/peer/s3.sh"]
fn s3_through_the_crates_client() {
    let endpoint = std::env::var("MAGNOLIFY_S3_ENDPOINT").expect("MAGNOLIFY_S3_ENDPOINT (tests/peer/s3.sh sets it)");
    let bucket = std::env::var("MAGNOLIFY_S3_BUCKET").unwrap_or_else(|_| "magnolify".into());
    let _ = rustls::crypto::ring::default_provider().install_default();
    let s3 = object_store::aws::AmazonS3Builder::new()
        .with_endpoint(endpoint)
        .with_allow_http(true)
        .with_bucket_name(bucket)
        .with_region("us-east-1")
        .with_access_key_id("test")
        .with_secret_access_key("test")
        .build()
        .expect("S3 client");
    let store = Arc::new(Counting::counting(Arc::new(s3)));
    let rows = wide(200_000);
    runtime().block_on(async {
        let path = Path::from("wide/part-00000.parquet");
        let size = upload(&store, &path, &rows, 40_000, 5 << 20, 3).await;
        assert!(size > 20_000_000, "{size}");

        let before = store.gets();
        let requests_before = store.requests();
        let builder = StoreReaderBuilder::open(store.clone(), &path).await.unwrap();
        assert_eq!(builder.metadata().num_row_groups(), 5);
        let reader = builder.build::<TwoOfFifteen>(ReadOptions::default()).await.unwrap();
        // The window of 2 row groups: the footer's request and two more
        // made (the second still under way: a client's request lands
        // while the reader is awaited).
        assert_eq!(store.requests() - requests_before, 3);
        let back: Vec<TwoOfFifteen> = reader.try_collect().await.unwrap();
        let (requests, bytes) = (store.gets().0 - before.0, store.gets().1 - before.1);
        assert_eq!(requests, 1 + 5);
        assert!((bytes as f64) < 0.25 * size as f64, "{bytes} of {size} bytes");
        assert_eq!(back.len(), rows.len());
        assert!(back.iter().zip(&rows).all(|(b, r)| b.c06 == r.c06 && b.c07 == r.c07));

        let aborted = Path::from("wide/aborted.parquet");
        let builder = WriterBuilder::<Wide>::new().dictionary(false).max_row_group_rows(40_000);
        let w = StoreWriter::create_with_part_size(store.clone(), &aborted, builder, 5 << 20).await.unwrap();
        let mut w = w.parts_in_flight(1);
        w.write_all(&rows).await.unwrap();
        assert!(w.parts_uploaded() >= 1);
        w.abort().await.unwrap();
        assert!(store.inner().head(&aborted).await.is_err());

        // A dataset of 6 objects, written and read 3 at once: one put per
        // object (each smaller than a part) and `_SUCCESS`; a list and one
        // get per object.
        let events = events(6_000);
        let f = Event::fields();
        let before = store.requests();
        let builder = magnolify_parquet::dataset::DatasetWriter::builder("events").partition_by(&f.kind);
        let mut w = builder.limits(|l| l.max_rows_per_file(500)).build_in_store(store.clone()).unwrap().concurrency(3);
        w.write_all(&events).await.unwrap();
        assert_eq!(w.close().await.unwrap().files.len(), 7 * 2);
        assert_eq!(store.requests() - before, 7 * 2 + 1);
        let before = store.requests();
        let prefix = Path::from("events");
        let dataset = magnolify_parquet::dataset::StoreDatasetReader::<Event>::builder(store.clone(), &prefix);
        let mut reader = dataset.await.unwrap().concurrency(3).build(ReadOptions::default()).unwrap();
        let mut back = Vec::new();
        while let Some(event) = reader.next().await {
            back.push(event.unwrap());
        }
        back.sort_by_key(|e| e.id);
        assert_eq!(back, events);
        assert_eq!(store.requests() - before, 1 + 7 * 2);
    });
}

/// Requests after the footer are pinned to the object's version: an object
/// replaced between the footer and its chunks is an error naming it, never
/// records of the new version read with the old footer.
#[test]
fn an_object_replaced_after_its_footer_was_read_is_an_error_naming_it() {
    let store = Arc::new(Counting::counting(Arc::new(InMemory::new())));
    let path = Path::from("events/part-0.parquet");
    // Larger than the footer's request of 64 KiB: its chunks take another.
    let first: Vec<Event> = (0..50_000).map(|id| Event { id, kind: format!("first-{id}") }).collect();
    let second: Vec<Event> = (0..50).map(|id| Event { id: id * 2, kind: "second".into() }).collect();
    runtime().block_on(async {
        let put = |rows: Vec<Event>| {
            let (store, path) = (store.clone(), path.clone());
            async move {
                let bytes = test_kit::io::file_of(&rows).unwrap();
                store.put(&path, PutPayload::from(bytes)).await.unwrap();
            }
        };
        put(first.clone()).await;
        let builder = StoreReaderBuilder::open(store.clone(), &path).await.unwrap();
        put(second.clone()).await;
        let Err(e) = builder.build::<Event>(ReadOptions::default()).await else { panic!("read a replaced object") };
        let message = e.to_string();
        assert!(message.contains("the object changed after its footer was read"), "{message}");
        assert!(message.contains("events/part-0.parquet"), "{message}");

        // Opened again, the new version reads. It is small, so it came
        // whole with its footer: replaced again before the build, the
        // version opened reads, whole and alone.
        let builder = StoreReaderBuilder::open(store.clone(), &path).await.unwrap();
        put(first.clone()).await;
        let back: Vec<Event> = builder.build(ReadOptions::default()).await.unwrap().try_collect().await.unwrap();
        assert_eq!(back, second);
    });
}

/// An object of 10 row groups of 5,000 events (each larger than the
/// footer's request of 64 KiB), read with windows of 1, 2 and 4: when the
/// reader hands out the first record of row group k, exactly the row groups
/// up to k + window - 1 have been fetched (one request each, after the
/// footer's), never more; the records and the counts are a file's.
#[test]
fn a_store_reader_holds_at_most_its_window_of_row_groups() {
    let store = Arc::new(Counting::counting(Arc::new(InMemory::new())));
    let path = Path::from("window/events.parquet");
    runtime().block_on(async {
        let rows = ten_row_groups(&store, &path).await;
        for window in [1, 2, 4] {
            let before = store.gets().0;
            let builder = StoreReaderBuilder::open(store.clone(), &path).await.unwrap().window(window);
            let mut reader = builder.build::<Event>(ReadOptions::default()).await.unwrap();
            assert_eq!(store.gets().0 - before, 1 + window as u64, "window {window} after build");
            let mut back = Vec::new();
            while let Some(event) = reader.next().await {
                let group = back.len() / 5_000;
                if back.len() % 5_000 == 0 {
                    let fetched = (group + window).min(10) as u64;
                    assert_eq!(store.gets().0 - before, 1 + fetched, "window {window}, row group {group}");
                }
                back.push(event.unwrap());
            }
            assert_eq!(back, rows, "window {window}");
            assert_eq!(reader.requests(), 11, "window {window}");
            assert_eq!((reader.counts().row_groups_read, reader.counts().records_read), (10, 50_000));
        }
    });
}

/// The same object read with a window of 4 row groups but of bytes for
/// two and a half: at most two row groups held at once (the one being read
/// and one fetched ahead); and with a window of bytes smaller than one row
/// group, one at a time, each still read.
#[test]
fn a_store_reader_holds_at_most_its_window_of_bytes() {
    let store = Arc::new(Counting::counting(Arc::new(InMemory::new())));
    let path = Path::from("window/bytes.parquet");
    runtime().block_on(async {
        let rows = ten_row_groups(&store, &path).await;
        let group_bytes = |builder: &StoreReaderBuilder| {
            let sizes: Vec<i64> = builder.metadata().row_groups().iter().map(|g| g.compressed_size()).collect();
            (*sizes.iter().min().unwrap() as u64, *sizes.iter().max().unwrap() as u64)
        };
        for held in [2, 1] {
            let before = store.gets().0;
            let builder = StoreReaderBuilder::open(store.clone(), &path).await.unwrap().window(4);
            let (min, max) = group_bytes(&builder);
            // Room for two row groups but not three, or not for one.
            let budget = if held == 2 { 2 * max + min / 4 } else { min / 2 };
            assert!(held == 1 || budget < 3 * min, "{budget} bytes for row groups of {min}..{max}");
            let mut reader = builder.window_bytes(budget).build::<Event>(ReadOptions::default()).await.unwrap();
            assert_eq!(store.gets().0 - before, 1 + held as u64, "{held} held after build");
            let mut back = Vec::new();
            while let Some(event) = reader.next().await {
                if back.len() % 5_000 == 0 {
                    let fetched = (back.len() / 5_000 + held).min(10) as u64;
                    assert_eq!(store.gets().0 - before, 1 + fetched, "{held} held, at record {}", back.len());
                }
                back.push(event.unwrap());
            }
            assert_eq!(back, rows, "{held} held");
            assert_eq!(reader.requests(), 11, "{held} held");
        }
    });
}

/// 50,000 events written to `path` in 10 row groups of 5,000 (without
/// dictionaries, each larger than the footer's request of 64 KiB).
async fn ten_row_groups(store: &Arc<Counting>, path: &Path) -> Vec<Event> {
    let rows: Vec<Event> = (0..50_000).map(|id| Event { id, kind: format!("kind-{}", id * 7919 % 100_003) }).collect();
    let builder = WriterBuilder::<Event>::new().max_row_group_rows(5_000).dictionary(false);
    let mut w = StoreWriter::create(store.clone(), path, builder).await.unwrap();
    w.write_all(&rows).await.unwrap();
    w.close().await.unwrap();
    rows
}
