//! Datasets lent batch by batch (`build_borrowed`, `next_batch`), on disk and
//! in an object store: records that borrow their strings from the batch,
//! partition fields included, read what the owned reader reads, in the same
//! order.

use chrono::NaiveDate;
use magnolify_parquet::dataset::{DatasetCounts, DatasetReader, StoreDatasetReader};
use magnolify_parquet::{ParquetType, ReadOptions};

use crate::datasets::{by_id, read_all, scratch, trips, write, Trip};
use futures::StreamExt;

/// [`Trip`], borrowing: `city` is a partition field, given by the path.
#[derive(ParquetType, Debug)]
struct TripRef<'a> {
    id: u64,
    day: NaiveDate,
    city: Option<&'a str>,
    fare: f64,
    tags: Vec<&'a str>,
}

impl TripRef<'_> {
    fn to_owned_trip(&self) -> Trip {
        Trip {
            id: self.id,
            day: self.day,
            city: self.city.map(str::to_owned),
            fare: self.fare,
            tags: self.tags.iter().map(|t| (*t).to_owned()).collect(),
        }
    }
}

/// Lends every batch of `reader`, the records made owned, and its counts at
/// the end; checks that no batch holds more than `batch` records.
fn lend_all(mut reader: DatasetReader<TripRef<'_>>, batch: usize) -> (Vec<Trip>, DatasetCounts) {
    let mut out = Vec::new();
    while let Some(records) = reader.next_batch().unwrap() {
        assert!(!records.is_empty() && records.len() <= batch, "a batch of {}", records.len());
        out.extend(records.iter().map(TripRef::to_owned_trip));
    }
    assert!(reader.next_batch().unwrap().is_none(), "a batch after the end");
    (out, reader.counts())
}

#[test]
fn a_dataset_lends_borrowed_records_with_their_partition_fields_in_path_order() {
    let dir = scratch("lending");
    let rows = trips(1000);
    write(&dir, &rows, |b| b.limits(|l| l.max_rows_per_file(40)));
    let mut owned_reader = DatasetReader::<Trip>::builder(&dir).unwrap().build(ReadOptions::default()).unwrap();
    let owned: Vec<Trip> = owned_reader.by_ref().collect::<Result<_, _>>().unwrap();
    assert_eq!(by_id(owned.clone()), rows);
    // 3 days × 4 cities, 1,000 trips in files of at most 40.
    let counts = owned_reader.counts();
    assert_eq!((counts.files_read, counts.filter.records_read), (36, 1000));
    for threads in [1, 2] {
        for batch in [7, 1024] {
            let options = ReadOptions::default().threads(threads).batch_size(batch);
            let reader = DatasetReader::<TripRef>::builder(&dir).unwrap().build_borrowed(options).unwrap();
            assert_eq!(lend_all(reader, batch), (owned.clone(), counts), "{threads} threads, batches of {batch}");
        }
    }
}

#[test]
fn a_predicate_on_a_lending_dataset_reader_passes_over_files_and_records_as_the_owned_reader_does() {
    let dir = scratch("lending-filtered");
    let rows = trips(1000);
    write(&dir, &rows, |b| b.limits(|l| l.max_rows_per_file(40)));
    // On a partition field (files passed over unopened), a stored field,
    // and a borrowed partition field compared as a `String`.
    let owned_f = Trip::fields();
    let lent_f = TripRef::fields();
    type Passes = fn(&Trip) -> bool;
    let cases: [(_, _, Passes, usize); 3] = [
        (
            owned_f.city.eq("Oslo").and(owned_f.id.lt(500)),
            lent_f.city.eq("Oslo").and(lent_f.id.lt(500)),
            |t| t.city.as_deref() == Some("Oslo") && t.id < 500,
            27, // of 36 files, those of the other three cities
        ),
        (
            owned_f.city.is_null().or(owned_f.fare.ge(1200.0)),
            lent_f.city.is_null().or(lent_f.fare.ge(1200.0)),
            |t| t.city.is_none() || t.fare >= 1200.0,
            0,
        ),
        (owned_f.id.between(10, 12), lent_f.id.between(10, 12), |t| (10..=12).contains(&t.id), 0),
    ];
    for (owned_predicate, lent_predicate, passes, files_skipped) in cases {
        let text = format!("{owned_predicate:?}");
        let mut owned_reader = DatasetReader::<Trip>::builder(&dir)
            .unwrap()
            .build(ReadOptions::default().filter(owned_predicate))
            .unwrap();
        let owned: Vec<Trip> = owned_reader.by_ref().collect::<Result<_, _>>().unwrap();
        let expected: Vec<Trip> = rows.iter().filter(|t| passes(t)).cloned().collect();
        assert_eq!(by_id(owned.clone()), expected, "{text}");
        let counts = owned_reader.counts();
        assert_eq!(counts.files_skipped, files_skipped, "{text}: {counts:?}");
        for threads in [1, 2] {
            for batch in [1, 7, 1024] {
                let options = ReadOptions::default().threads(threads).batch_size(batch).filter(lent_predicate.clone());
                let reader = DatasetReader::<TripRef>::builder(&dir).unwrap().build_borrowed(options).unwrap();
                let (lent, lent_counts) = lend_all(reader, batch);
                assert_eq!((&lent, lent_counts), (&owned, counts), "{text}: {threads} threads, batches of {batch}");
            }
        }
    }
}

#[test]
fn lending_from_a_dataset_refuses_readers_with_a_file_per_thread() {
    let dir = scratch("lending-refused");
    let rows = trips(100);
    write(&dir, &rows, |b| b);

    // Owned records are lent too from a reader on one thread...
    let mut one = DatasetReader::<Trip>::builder(&dir).unwrap().build(ReadOptions::default().threads(1)).unwrap();
    let mut lent = Vec::new();
    while let Some(batch) = one.next_batch().unwrap() {
        lent.extend(batch);
    }
    assert_eq!(lent, read_all(&dir));
    // ...not from one that reads a file per thread.
    let mut threaded = DatasetReader::<Trip>::builder(&dir).unwrap().build(ReadOptions::default().threads(2)).unwrap();
    let Err(e) = threaded.next_batch() else { panic!("a reader with a file per thread does not lend") };
    assert!(e.to_string().contains("build_borrowed"), "{e}");
}

#[test]
fn a_dataset_in_an_object_store_lends_batches_too() {
    use magnolify_parquet::dataset::DatasetWriter;
    use object_store::{memory::InMemory, path::Path};
    use std::sync::Arc;

    let rows = trips(500);
    let f = Trip::fields();
    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    runtime.block_on(async {
        let store = Arc::new(InMemory::new());
        let mut w = DatasetWriter::builder("lent/trips")
            .partition_by(&f.day)
            .partition_by(&f.city)
            .limits(|l| l.max_rows_per_file(30))
            .build_in_store(store.clone())
            .unwrap();
        w.write_all(&rows).await.unwrap();
        let files = w.close().await.unwrap().files.len();

        let prefix = Path::from("lent/trips");
        let mut owned = StoreDatasetReader::<Trip>::builder(store.clone(), &prefix)
            .await
            .unwrap()
            .build(ReadOptions::default())
            .unwrap();
        let mut expected = Vec::new();
        while let Some(record) = owned.next().await {
            expected.push(record.unwrap());
        }
        assert_eq!(by_id(expected.clone()), rows);

        let options = ReadOptions::default().batch_size(16);
        let builder = StoreDatasetReader::<TripRef>::builder(store.clone(), &prefix).await.unwrap();
        let mut lending = builder.build_borrowed(options).unwrap();
        let mut back = Vec::new();
        while let Some(batch) = lending.next_batch().await.unwrap() {
            assert!(batch.len() <= 16);
            back.extend(batch.iter().map(TripRef::to_owned_trip));
        }
        assert_eq!(back, expected);
        assert_eq!(lending.counts().files_read, files);
        assert_eq!(lending.counts(), owned.counts());
    });
}
