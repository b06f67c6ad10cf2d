//! One `ReadOptions` value, four readers: a file's, a store object's, a
//! dataset's on disk and a dataset's in a store read the same file with the
//! same settings and give the same records and the same counts, since they
//! plan the scan with the one planner and decode with the one record reader.

use std::sync::Arc;

use bytes::Bytes;
use magnolify_parquet::dataset::{DatasetReader, StoreDatasetReader};
use magnolify_parquet::filter::FilterCounts;
use magnolify_parquet::store::StoreReaderBuilder;
use magnolify_parquet::{ParquetReader, ParquetType, ReadOptions, ReaderBuilder, WriterBuilder};
use object_store::memory::InMemory;
use object_store::path::Path;
use object_store::{ObjectStore, ObjectStoreExt, PutPayload};

use futures::StreamExt;
use test_kit::store::Counting;

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Sale {
    amount: i64,
    region: String,
    note: Option<String>,
}

fn sales() -> Vec<Sale> {
    let regions = ["a", "b", "c"];
    let note = |i: i64| (i % 4 != 0).then(|| format!("note {i}"));
    (0..1000).map(|i| Sale { amount: i, region: regions[i as usize % 3].into(), note: note(i) }).collect()
}

/// Ten row groups of 100 sales by amount, pages of 20 rows, so that the
/// statistics rule out row groups and the page index rules out pages.
fn file() -> Bytes {
    let mut w = WriterBuilder::<Sale>::new()
        .max_row_group_rows(100)
        .data_page_rows(20)
        // Page limits are checked after every record.
        .properties(|p| p.set_write_batch_size(1))
        .build(Vec::new())
        .unwrap();
    w.write_all(&sales()).unwrap();
    Bytes::from(w.into_inner().unwrap())
}

fn options() -> ReadOptions<Sale> {
    let f = Sale::fields();
    ReadOptions::default()
        .threads(2)
        .batch_size(7)
        .max_page_bytes(1 << 20)
        .max_levels(1 << 20)
        .verify_page_checksums(true)
        .filter(f.amount.between(250, 420).and(f.region.ne("b")))
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
}

#[test]
fn every_reader_takes_the_same_options_and_reads_the_same_records_and_counts() {
    let file = file();
    let expected: Vec<Sale> =
        sales().into_iter().filter(|s| (250..=420).contains(&s.amount) && s.region != "b").collect();
    assert_eq!(expected.len(), 114);

    let mut reader = ReaderBuilder::new(file.clone()).unwrap().build(options()).unwrap();
    let from_file: Vec<Sale> = reader.by_ref().collect::<Result<_, _>>().unwrap();
    let file_counts = reader.counts();

    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("part-0.parquet"), &file).unwrap();
    let mut dataset = DatasetReader::<Sale>::builder(dir.path()).unwrap().build(options()).unwrap();
    let from_dataset: Vec<Sale> = dataset.by_ref().collect::<Result<_, _>>().unwrap();
    let dataset_counts = dataset.counts();

    let store = Arc::new(Counting::counting(Arc::new(InMemory::new())));
    let (from_object, object_counts, requests, from_store_dataset, store_dataset_counts) = runtime().block_on(async {
        let object = Path::from("sales/part-0.parquet");
        store.put(&object, PutPayload::from(file.clone())).await.unwrap();
        let before = store.gets().0;
        let builder = StoreReaderBuilder::open(store.clone(), &object).await.unwrap();
        let mut reader = builder.build(options()).await.unwrap();
        let mut from_object: Vec<Sale> = Vec::new();
        while let Some(sale) = reader.next().await {
            from_object.push(sale.unwrap());
        }
        let requests = store.gets().0 - before;
        let store: Arc<dyn ObjectStore> = store.clone();
        let builder = StoreDatasetReader::<Sale>::builder(store, &Path::from("sales")).await.unwrap();
        let mut dataset = builder.build(options()).unwrap();
        let mut from_dataset = Vec::new();
        while let Some(sale) = dataset.next().await {
            from_dataset.push(sale.unwrap());
        }
        (from_object, reader.counts(), requests, from_dataset, dataset.counts())
    });

    assert_eq!(from_file, expected);
    assert_eq!(from_object, expected);
    assert_eq!(from_dataset, expected);
    assert_eq!(from_store_dataset, expected);

    // Row groups 2, 3 and 4 hold amounts 250 to 420; of their 300 records,
    // the page index leaves those of the pages from 240 to 440 (200), and
    // 114 of those pass.
    let FilterCounts { row_groups_read, row_groups_skipped, records_read, records_passed, .. } = file_counts;
    assert_eq!((row_groups_read, row_groups_skipped), (3, 7));
    assert_eq!((records_read, records_passed), (200, 114));
    assert!(file_counts.pages_skipped > 0 && file_counts.pages_read > 0, "{file_counts:?}");
    assert!(file_counts.column_bytes_read > 0 && file_counts.column_bytes_skipped > 0, "{file_counts:?}");
    assert_eq!(object_counts, file_counts);
    assert_eq!(dataset_counts.filter, file_counts);
    assert_eq!(store_dataset_counts.filter, file_counts);
    assert_eq!((dataset_counts.files_read, dataset_counts.files_skipped), (1, 0));
    assert_eq!((store_dataset_counts.files_read, store_dataset_counts.files_skipped), (1, 0));
    // The footer's request of 64 KiB: it brought the whole small object,
    // page indexes and chunks included.
    assert_eq!(requests, 1);
}

/// Positions left out (what Iceberg's position deletes ask), with the
/// predicate above, from a file and from a store object: the whole page of
/// amounts 300 to 319 and the records 251 and 255 are not assembled, the
/// page is not decoded, and the counts say so exactly.
#[test]
fn rows_left_out_are_not_assembled_and_a_page_of_them_is_not_decoded() {
    let file = file();
    let skipped: Vec<u64> = (300..320).chain([251, 255, 999, 5_000]).collect();
    let expected: Vec<Sale> = sales()
        .into_iter()
        .filter(|s| (250..=420).contains(&s.amount) && s.region != "b" && !skipped.contains(&(s.amount as u64)))
        .collect();
    // 114 pass the predicate; of the 20 amounts from 300 to 319, 13 are
    // not in region b, and neither is 251 or 255.
    assert_eq!(expected.len(), 114 - 13 - 2);

    let mut plain = ReaderBuilder::new(file.clone()).unwrap().build(options()).unwrap();
    plain.by_ref().for_each(drop);
    let mut reader = ReaderBuilder::new(file.clone()).unwrap().build(options().skip_rows(skipped.clone())).unwrap();
    let from_file: Vec<Sale> = reader.by_ref().collect::<Result<_, _>>().unwrap();
    assert_eq!(from_file, expected);
    let (with, without) = (reader.counts(), plain.counts());
    assert_eq!((with.row_groups_read, with.row_groups_skipped), (3, 7));
    assert_eq!((with.records_read, with.records_passed), (200 - 22, 114 - 15));
    assert_eq!(with.records_skipped, without.records_skipped + 22);
    // The page of 300 to 319 in each of the three columns.
    assert_eq!((with.pages_read, with.pages_skipped), (without.pages_read - 3, without.pages_skipped + 3));

    let store = Arc::new(InMemory::new());
    let (from_object, object_counts) = runtime().block_on(async {
        let object = Path::from("sales/part-0.parquet");
        store.put(&object, PutPayload::from(file.clone())).await.unwrap();
        let builder = StoreReaderBuilder::open(store.clone(), &object).await.unwrap();
        let mut reader = builder.build(options().skip_rows(skipped)).await.unwrap();
        let mut records = Vec::new();
        while let Some(sale) = reader.next().await {
            records.push(sale.unwrap());
        }
        (records, reader.counts())
    });
    assert_eq!((from_object, object_counts), (expected, with));
}

#[test]
fn the_dataset_readers_refuse_row_groups_which_differ_from_file_to_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("part-0.parquet"), file()).unwrap();
    let refused = DatasetReader::<Sale>::builder(dir.path()).unwrap().build(options().row_groups(vec![0]));
    let message = refused.err().expect("refused").to_string();
    assert!(message.contains("ReadOptions::row_groups"), "{message}");
    let refused = DatasetReader::<Sale>::builder(dir.path()).unwrap().build(options().skip_rows([1]));
    let message = refused.err().expect("refused").to_string();
    assert!(message.contains("ReadOptions::skip_rows"), "{message}");
    // The page limit reaches a dataset's files (which it could not set
    // before): pages of more than 16 bytes are refused, naming the file.
    let strict = ReadOptions::default().max_page_bytes(16);
    let mut reader = DatasetReader::<Sale>::builder(dir.path()).unwrap().build(strict).unwrap();
    let message = reader.next().expect("an answer").expect_err("pages over the limit").to_string();
    assert!(message.contains("ReadOptions::max_page_bytes") && message.contains("part-0.parquet"), "{message}");
    let read = ReaderBuilder::open(dir.path().join("part-0.parquet")).unwrap().build(options().row_groups(vec![3]));
    let amounts: Vec<i64> = read.unwrap().map(|s| s.unwrap().amount).collect();
    assert_eq!(amounts, (300..400).filter(|a| a % 3 != 1).collect::<Vec<_>>());
}

/// `ParquetReader::open`, beside `ParquetWriter::create`: its errors name
/// the file, from the footer to the type's resolution.
#[test]
fn a_reader_opened_by_path_names_the_file_in_its_errors() {
    #[derive(ParquetType, Debug, PartialEq)]
    struct Other {
        label: String,
    }
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("sales.parquet");
    let mut w = magnolify_parquet::ParquetWriter::<Sale, _>::create(&path).expect("create");
    w.write_all(&sales()).expect("write");
    w.close().expect("close");

    let back: Vec<Sale> = ParquetReader::open(&path).expect("open").collect::<Result<_, _>>().expect("read");
    assert_eq!(back, sales());
    let Err(e) = ParquetReader::<Other, _>::open(&path) else { panic!("a type the file lacks") };
    let text = e.to_string();
    assert!(text.contains("sales.parquet") && text.contains("label"), "{text}");
    std::fs::write(&path, b"not parquet").expect("overwrite");
    let Err(e) = ParquetReader::<Sale, _>::open(&path) else { panic!("a damaged file") };
    assert!(e.to_string().contains("sales.parquet"), "{e}");
}

/// Skipped rows among the nulls of an optional column: the records left
/// keep their own values, wherever the skipped one is.
#[test]
fn skipped_rows_before_a_null_keep_the_records_after_them() {
    #[derive(ParquetType, Clone, Debug, PartialEq)]
    struct Visit {
        id: i64,
        channel: Option<String>,
        rank: i32,
    }
    let visits = [
        Visit { id: 3, channel: Some("app".to_owned()), rank: 1 },
        Visit { id: 4, channel: Some("web".to_owned()), rank: 2 },
        Visit { id: 5, channel: None, rank: 3 },
    ];
    let mut writer = magnolify_parquet::ParquetWriter::<Visit, _>::new(Vec::new()).unwrap();
    writer.write_all(&visits).unwrap();
    let file = bytes::Bytes::from(writer.into_inner().unwrap());
    for skipped in [vec![0], vec![1], vec![2], vec![0, 2]] {
        let options = ReadOptions::default().skip_rows(skipped.clone());
        let read: Vec<Visit> =
            ReaderBuilder::new(file.clone()).unwrap().build(options).unwrap().collect::<Result<_, _>>().unwrap();
        let kept: Vec<Visit> = visits
            .iter()
            .enumerate()
            .filter(|(i, _)| !skipped.contains(&(*i as u64)))
            .map(|(_, v)| v.clone())
            .collect();
        assert_eq!(read, kept, "skipping {skipped:?}");
    }
}
