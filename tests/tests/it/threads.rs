//! Readers and writers move between threads, and the row groups of one file
//! can be read in parallel (`ReaderBuilder::with_row_groups`, sharing the
//! footer and the plan), giving the same records as one sequential read.

use std::collections::BTreeMap;
use std::fs::File;
use std::path::PathBuf;
use std::sync::Arc;

use apache_avro::types::Value;
use avro_baseline::{AvroConverter, AvroOptions};
use bytes::Bytes;
use magnolify_parquet::file::AtomicFile;
use magnolify_parquet::mem::MemPageStore;
use magnolify_parquet::{Error, ParquetReader, ParquetType, ParquetWriter, ReadOptions, ReaderBuilder, WriterBuilder};
use test_kit::io::file_with;

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Leg {
    from: String,
    minutes: Option<u32>,
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Trip {
    id: u64,
    rider: Option<String>,
    legs: Vec<Leg>,
    fares: BTreeMap<String, i64>,
    notes: Option<Vec<Option<String>>>,
}

fn assert_send<T: Send>() {}

// Checked when the test compiles: readers over memory and files, through the
// derive and the Avro baseline, store readers and dataset readers (in a
// directory and in an object store, owned and lending), and writers over
// every sink, are `Send`.
const _: fn() = || {
    #[derive(ParquetType)]
    struct TripRef<'a> {
        rider: Option<&'a str>,
    }
    assert_send::<magnolify_parquet::dataset::DatasetReader<Trip>>();
    assert_send::<magnolify_parquet::dataset::DatasetReader<TripRef<'static>>>();
    assert_send::<magnolify_parquet::dataset::StoreDatasetReader<Trip>>();
    assert_send::<magnolify_parquet::dataset::StoreDatasetReader<TripRef<'static>>>();
    assert_send::<magnolify_parquet::store::StoreReader<Trip>>();
    assert_send::<magnolify_parquet::store::StoreReader<TripRef<'static>>>();
    assert_send::<ParquetReader<Trip, Bytes>>();
    assert_send::<ParquetReader<Trip, File>>();
    assert_send::<ParquetReader<Value, Bytes, AvroConverter>>();
    assert_send::<ParquetWriter<Trip, Vec<u8>>>();
    assert_send::<ParquetWriter<Trip, File>>();
    assert_send::<ParquetWriter<Trip, AtomicFile>>();
    assert_send::<ParquetWriter<Value, Vec<u8>, AvroConverter>>();
    assert_send::<MemPageStore>();
};

fn trips(n: u64) -> Vec<Trip> {
    (0..n)
        .map(|id| Trip {
            id,
            rider: (id % 5 != 0).then(|| format!("rider {}", id % 17)),
            legs: (0..id % 4)
                .map(|k| Leg { from: format!("stop {k}"), minutes: (k % 2 == 0).then_some(k as u32 * 7) })
                .collect(),
            fares: (0..id % 3).map(|k| (format!("zone {k}"), (id * 100 + k) as i64)).collect(),
            notes: (id % 4 != 1).then(|| (0..id % 3).map(|k| (k != 1).then(|| format!("n{k}"))).collect()),
        })
        .collect()
}

/// A file of `records` in row groups of 37 records.
fn file_of(records: &[Trip]) -> Bytes {
    file_with(WriterBuilder::<Trip>::new().max_row_group_rows(37).data_page_rows(10), records).expect("written")
}

fn groups_of(file: &Bytes) -> usize {
    ReaderBuilder::new(file.clone()).expect("metadata").metadata().num_row_groups()
}

#[test]
fn row_groups_read_in_parallel_give_the_sequential_records() {
    let records = trips(1000);
    let file = file_of(&records);
    let groups = groups_of(&file);
    assert_eq!(groups, 28);

    let sequential: Vec<Trip> =
        ParquetReader::<Trip, _>::new(file.clone()).expect("open").collect::<Result<_, _>>().expect("read");
    assert_eq!(sequential, records);

    // The footer is read once and the type resolved once; every thread's
    // reader shares both.
    let builder = ReaderBuilder::new(file.clone()).expect("open");
    let plan = Arc::new(builder.resolve::<Trip>().expect("resolve"));
    let parts: Vec<Vec<Trip>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..groups)
            .map(|i| {
                let reader = builder.clone().build_resolved(plan.clone(), ReadOptions::default().row_groups(vec![i]));
                scope.spawn(move || reader.expect("row group").collect::<Result<Vec<_>, _>>().expect("read row group"))
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("thread")).collect()
    });
    assert!(Arc::ptr_eq(builder.metadata().shared(), builder.clone().metadata().shared()));
    assert!(
        parts.iter().take(groups - 1).all(|p| p.len() == 37),
        "{:?}",
        parts.iter().map(Vec::len).collect::<Vec<_>>()
    );
    assert_eq!(parts.concat(), sequential);
}

#[test]
fn row_groups_of_a_file_on_disk_read_in_parallel() {
    let records = trips(300);
    let dir = tempfile::Builder::new().prefix("magnolify-threads-").tempdir().expect("scratch dir");
    let path: PathBuf = dir.path().join("trips.parquet");
    std::fs::write(&path, file_of(&records)).expect("write");
    let builder = ReaderBuilder::open(&path).expect("open");
    let groups = builder.metadata().num_row_groups();
    let plan = Arc::new(builder.resolve::<Trip>().expect("resolve"));
    // Four workers, each taking every fourth row group, each with its own handle.
    let mut parts: Vec<(usize, Vec<Trip>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..4)
            .map(|worker| {
                let (path, plan) = (&path, &plan);
                scope.spawn(move || {
                    // Each worker has its own file handle, and shares the plan.
                    let builder = ReaderBuilder::open(path).expect("open");
                    (worker..groups)
                        .step_by(4)
                        .map(|i| {
                            let reader = builder
                                .clone()
                                .build_resolved(plan.clone(), ReadOptions::default().row_groups(vec![i]));
                            (i, reader.expect("row group").collect::<Result<Vec<_>, _>>().expect("read"))
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("thread")).collect()
    });
    parts.sort_by_key(|(i, _)| *i);
    assert_eq!(parts.len(), groups);
    assert_eq!(parts.into_iter().flat_map(|(_, p)| p).collect::<Vec<_>>(), records);
    std::fs::remove_file(&path).expect("cleanup");
}

#[test]
fn the_avro_converter_reads_row_groups_in_parallel() {
    let records = trips(200);
    let file = file_of(&records);
    let builder = ReaderBuilder::new(file.clone()).expect("metadata");
    let converter = AvroConverter::for_file(builder.metadata(), AvroOptions::default()).expect("converter");
    let plan = Arc::new(builder.resolve_with(converter.clone()).expect("resolve"));
    let sequential: Vec<Value> = ParquetReader::with_converter(converter.clone(), file.clone())
        .expect("open")
        .collect::<Result<_, _>>()
        .expect("read");
    assert_eq!(sequential.len(), 200);
    let parallel: Vec<Vec<Value>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..builder.metadata().num_row_groups())
            .map(|i| {
                let reader = builder.clone().build_resolved(plan.clone(), ReadOptions::default().row_groups(vec![i]));
                scope.spawn(move || reader.expect("row group").collect::<Result<Vec<_>, _>>().expect("read"))
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("thread")).collect()
    });
    assert_eq!(parallel.concat(), sequential);
}

#[test]
fn a_writer_moves_to_another_thread_and_back() {
    let records = trips(120);
    let mut w = WriterBuilder::<Trip>::new().max_row_group_rows(50).build(Vec::new()).expect("writer");
    w.write_all(&records[..60]).expect("first half");
    let w = std::thread::spawn(move || {
        let mut w = w;
        w.write_all(&records[60..]).expect("second half");
        w
    })
    .join()
    .expect("thread");
    let file = Bytes::from(w.into_inner().expect("close"));
    let back: Vec<Trip> = ParquetReader::<Trip, _>::new(file).expect("open").collect::<Result<_, _>>().expect("read");
    assert_eq!(back, trips(120));
}

#[test]
fn a_row_group_out_of_range_is_an_error() {
    let file = file_of(&trips(40));
    let err = ReaderBuilder::new(file).expect("open").build::<Trip>(ReadOptions::default().row_groups(vec![2])).err();
    let err = err.expect("only two row groups");
    assert!(matches!(err, Error::Argument { .. }), "{err:?}");
    assert!(err.to_string().contains("row group 2 requested, the file has 2"), "{err}");
}

/// Writer settings to write the same records with, whatever the threads.
fn settings() -> Vec<(&'static str, magnolify_parquet::WriterBuilder<Trip>)> {
    use magnolify_parquet::parquet::basic::{Compression, ZstdLevel};
    use magnolify_parquet::parquet::file::properties::WriterVersion;
    vec![
        ("defaults", WriterBuilder::<Trip>::new()),
        (
            "zstd, small pages and row groups, dictionary overflow",
            WriterBuilder::<Trip>::new()
                .compression(Compression::ZSTD(ZstdLevel::default()))
                .data_page_rows(13)
                .max_row_group_rows(700)
                .batch_size(100)
                .properties(|p| p.set_dictionary_page_size_limit(300)),
        ),
        // Integer and byte array columns go to the parquet crate's writer.
        ("v2", WriterBuilder::<Trip>::new().writer_version(WriterVersion::PARQUET_2_0)),
    ]
}

#[test]
fn a_file_is_the_same_whatever_the_encoding_threads() {
    let records = trips(2_500);
    for (what, builder) in settings() {
        let one = file_with(builder.threads(1), &records).expect("one thread");
        for threads in [2, 3, 5] {
            let (_, builder) = settings().into_iter().find(|(w, _)| *w == what).expect("settings");
            let many = file_with(builder.threads(threads), &records).expect("threads");
            assert!(one == many, "{what}: {threads} threads wrote other bytes");
        }
        let back: Vec<Trip> = ParquetReader::<Trip, _>::new(one).unwrap().collect::<Result<_, _>>().unwrap();
        assert_eq!(back, records, "{what}");
    }
}

/// Every answer of a reader, errors as text.
fn answers(builder: ReaderBuilder<Bytes>, options: ReadOptions<Trip>) -> Vec<Result<Trip, String>> {
    builder.build::<Trip>(options).expect("reader").map(|r| r.map_err(|e| e.to_string())).collect()
}

#[test]
fn records_come_in_file_order_whatever_the_decoding_threads() {
    let records = trips(3_000);
    let file =
        file_with(WriterBuilder::<Trip>::new().max_row_group_rows(900).data_page_rows(50), &records).expect("file");
    for batch in [1, 7, 1024] {
        for threads in [1, 2, 4] {
            let options = ReadOptions::default().batch_size(batch).threads(threads);
            let back: Vec<Trip> =
                ReaderBuilder::new(file.clone()).unwrap().build(options).unwrap().collect::<Result<_, _>>().unwrap();
            assert_eq!(back, records, "batch {batch}, {threads} threads");
        }
        let selected = |threads| {
            let options = ReadOptions::default().batch_size(batch).threads(threads).row_groups(vec![3, 1]);
            answers(ReaderBuilder::new(file.clone()).unwrap(), options)
        };
        assert_eq!(selected(2), selected(1), "row groups 3 and 1, batch {batch}");
        assert_eq!(selected(1).len(), 300 + 900);
    }
}

#[test]
fn a_damaged_chunk_stops_a_threaded_reader_where_it_stops_one_thread() {
    let records = trips(2_000);
    let file = file_with(WriterBuilder::<Trip>::new().max_row_group_rows(600), &records).expect("file");
    let meta = ReaderBuilder::new(file.clone()).unwrap().metadata().clone();
    // Damage the dictionary indices of the third row group's `id` column
    // (the page header stays readable).
    let chunk = meta.row_group(2).column(0);
    let start = chunk.data_page_offset() as usize + 40;
    let mut damaged = file.to_vec();
    for b in &mut damaged[start..start + 64] {
        *b ^= 0xA5;
    }
    let damaged = Bytes::from(damaged);
    let one = answers(ReaderBuilder::new(damaged.clone()).unwrap(), ReadOptions::default().threads(1));
    let two = answers(ReaderBuilder::new(damaged).unwrap(), ReadOptions::default().threads(2));
    assert_eq!(one, two);
    // The first two row groups, then the error that ends the reading.
    assert_eq!(one.len(), 1201);
    assert_eq!(one[..1200].iter().map(|r| r.clone().unwrap()).collect::<Vec<_>>(), records[..1200]);
    let error = one[1200].clone().unwrap_err();
    assert!(error.contains("row group 2") && error.contains("column `id`"), "{error}");
}

#[test]
fn a_threaded_reader_dropped_early_stops_its_thread() {
    let records = trips(5_000);
    let file = file_with(WriterBuilder::<Trip>::new(), &records).expect("file");
    for _ in 0..20 {
        let mut reader = ReaderBuilder::new(file.clone())
            .unwrap()
            .build::<Trip>(ReadOptions::default().threads(2).batch_size(10))
            .unwrap();
        assert_eq!(reader.next().unwrap().unwrap(), records[0]);
        // Dropped with its decoding thread a batch ahead: this must neither
        // hang nor leak a thread that keeps decoding.
    }
}

/// `Trip` with a rider every record must have: the riders `trips` leaves
/// out (every fifth) cannot be read into it.
#[derive(ParquetType, Debug, Clone, PartialEq)]
#[parquet(rename = "Trip")]
struct TripWithRider {
    id: u64,
    rider: String,
}

#[test]
fn a_value_that_does_not_fit_stops_every_thread_count_at_its_record() {
    // Record 0 has no rider: the first answer is the error. After the
    // first row group, the first record without one is record 400.
    let records: Vec<Trip> = trips(2_000);
    let file = file_with(WriterBuilder::<Trip>::new().max_row_group_rows(400), &records).expect("file");
    let read = |threads, batch| -> Vec<Result<TripWithRider, String>> {
        let options = ReadOptions::default().row_groups(vec![1, 2]).threads(threads).batch_size(batch);
        let reader = ReaderBuilder::new(file.clone()).unwrap().build::<TripWithRider>(options).unwrap();
        reader.map(|r| r.map_err(|e| e.to_string())).collect()
    };
    let one = read(1, 3);
    assert_eq!(one.len(), 1, "record 400 is the first of row group 1 and has no rider: {one:?}");
    let error = one[0].clone().unwrap_err();
    assert!(error.contains("record 400") && error.contains("rider"), "{error}");
    for (threads, batch) in [(2, 3), (3, 1), (4, 1024)] {
        assert_eq!(read(threads, batch), one, "{threads} threads, batches of {batch}");
    }
    // Without record 0, the records before the first missing rider (the
    // file's record 4, trip 5) come first, then its error.
    let file = file_with(WriterBuilder::<Trip>::new().max_row_group_rows(400), &records[1..]).expect("file");
    let read = |threads| -> Vec<Result<TripWithRider, String>> {
        let options = ReadOptions::default().threads(threads).batch_size(2);
        ReaderBuilder::new(file.clone())
            .unwrap()
            .build::<TripWithRider>(options)
            .unwrap()
            .map(|r| r.map_err(|e| e.to_string()))
            .collect()
    };
    let one = read(1);
    assert_eq!(one.len(), 5, "records 1 to 4 have riders, record 5 (the file's 4th) has none");
    assert_eq!(one[3].as_ref().unwrap(), &TripWithRider { id: 4, rider: "rider 4".into() });
    assert!(one[4].as_ref().unwrap_err().contains("record 4"), "{:?}", one[4]);
    assert_eq!(read(3), one);
}

/// An id that reads back slowly, and not at all for id 3: the record
/// error is found while the other worker has run ahead of the reader.
mod slow_at_three {
    pub type Repr = u64;

    pub fn to_parquet(value: &u64) -> Result<u64, std::convert::Infallible> {
        Ok(*value)
    }

    pub fn from_parquet(repr: u64) -> Result<u64, String> {
        if repr == 3 {
            std::thread::sleep(std::time::Duration::from_millis(300));
            return Err("id 3 is refused".to_owned());
        }
        Ok(repr)
    }
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
#[parquet(rename = "Trip")]
struct SlowTrip {
    #[parquet(with = "slow_at_three")]
    id: u64,
}

#[test]
fn a_record_error_found_late_does_not_hang_a_reader_whose_workers_ran_ahead() {
    // Batches of one record: while one worker sleeps on record 3, the other
    // assembles records 4 to 7 and then waits, holding the decoder, for the
    // reader to take a batch; the reader waits for record 3. Stopping the
    // others must not need the decoder (it once did: this read hung).
    let file = file_with(WriterBuilder::<Trip>::new(), &trips(50)).expect("file");
    let (done, finished) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let reader = ReaderBuilder::new(file).unwrap().build(ReadOptions::default().threads(2).batch_size(1));
        let answers: Vec<Result<SlowTrip, String>> = reader.unwrap().map(|r| r.map_err(|e| e.to_string())).collect();
        let _ = done.send(answers);
    });
    let answers = finished.recv_timeout(std::time::Duration::from_secs(60)).expect("the reader ends");
    let ids: Vec<u64> = answers[..3].iter().map(|r| r.as_ref().unwrap().id).collect();
    assert_eq!(ids, [0, 1, 2]);
    assert_eq!(answers.len(), 4, "{answers:?}");
    assert!(answers[3].as_ref().unwrap_err().contains("id 3 is refused"), "{:?}", answers[3]);
}

/// A file in memory that counts who holds it: each reader's source (and
/// each of its threads, through it) holds a clone.
struct Counted {
    bytes: Bytes,
    /// Never read: held, so that the count of its clones is the count of holders.
    _holders: Arc<()>,
}

impl magnolify_parquet::parquet::file::reader::Length for Counted {
    fn len(&self) -> u64 {
        self.bytes.len() as u64
    }
}

impl magnolify_parquet::parquet::file::reader::ChunkReader for Counted {
    type T = <Bytes as magnolify_parquet::parquet::file::reader::ChunkReader>::T;

    fn get_read(&self, start: u64) -> magnolify_parquet::parquet::errors::Result<Self::T> {
        self.bytes.get_read(start)
    }

    fn get_bytes(&self, start: u64, length: usize) -> magnolify_parquet::parquet::errors::Result<Bytes> {
        self.bytes.get_bytes(start, length)
    }
}

/// The fuzz target `read_derived` found reading threads outliving their
/// reader (LeakSanitizer reported their memory): a reader dropped early now
/// stops its threads and waits for them, so nothing holds its input after.
#[test]
fn a_reader_dropped_early_leaves_no_thread_holding_its_input() {
    let file = file_of(&trips(3000));
    for threads in [2, 4] {
        let holders = Arc::new(());
        let input = Counted { bytes: file.clone(), _holders: holders.clone() };
        let mut reader = ReaderBuilder::new(input)
            .unwrap()
            .build::<Trip>(ReadOptions::default().threads(threads).batch_size(10))
            .unwrap();
        assert!(reader.next().unwrap().is_ok());
        drop(reader);
        assert_eq!(Arc::strong_count(&holders), 1, "{threads} threads: the input is still held");
    }
}
