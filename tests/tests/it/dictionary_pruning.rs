//! Row groups ruled out by dictionaries: where every data page of a chunk
//! is dictionary-encoded (the footer's page encoding statistics say so),
//! a value its dictionary page lacks is in no record of the row group, even
//! when the statistics span it. On pyarrow's file (as a file and as a store
//! object, with equal counts) and on an enum's tag in our own.

use std::sync::Arc;

use bytes::Bytes;
use futures::StreamExt;
use magnolify_parquet::filter::{FilterCounts, Predicate};
use magnolify_parquet::store::StoreReaderBuilder;
use magnolify_parquet::{ParquetType, ReadOptions, ReaderBuilder, WriterBuilder};
use object_store::{memory::InMemory, path::Path, ObjectStoreExt, PutPayload};
use test_kit::store::Wrapped;

/// A row of `dictionaries/cities.pyarrow.parquet` (see its `generate.py`).
#[derive(ParquetType, Debug, Clone, PartialEq)]
struct City {
    id: i64,
    city: String,
    code: Option<i32>,
}

fn cities() -> Bytes {
    test_kit::fixtures::bytes("dictionaries/cities.pyarrow.parquet")
}

/// The ids `predicate` passes in `file`, and the reader's counts.
fn read<T: magnolify_parquet::OwnedRecord>(file: Bytes, predicate: Predicate<T>) -> (Vec<T>, FilterCounts) {
    let mut reader = ReaderBuilder::new(file).unwrap().build(ReadOptions::default().filter(predicate)).unwrap();
    let records = reader.by_ref().collect::<Result<Vec<_>, _>>().unwrap();
    (records, reader.counts())
}

/// (read, skipped, of which by dictionaries, records passed).
fn groups(counts: &FilterCounts) -> (usize, usize, usize, u64) {
    (
        counts.row_groups_read,
        counts.row_groups_skipped,
        counts.row_groups_skipped_by_dictionaries,
        counts.records_passed,
    )
}

#[test]
fn dictionaries_rule_out_the_row_groups_whose_statistics_span_the_value() {
    let f = City::fields();
    let ids = |records: &[City]| records.iter().map(|c| c.id).collect::<Vec<_>>();

    // Row groups 0 (Accra..Zagreb) and 2 (Accra..Oslo) span Lima; their
    // dictionaries lack it.
    let (records, counts) = read(cities(), f.city.eq("Lima"));
    assert_eq!(ids(&records), (1000..2000).collect::<Vec<_>>());
    assert_eq!(groups(&counts), (1, 2, 2, 1000), "{counts:?}");
    assert_eq!(counts.row_groups_skipped_by_bloom_filters, 0);

    // An int column with nulls: 10..90 and 10..60 span 50.
    let (records, counts) = read(cities(), f.code.eq(50));
    assert_eq!(ids(&records), (1000..2000).filter(|i| i % 10 != 0).collect::<Vec<_>>());
    assert_eq!(groups(&counts), (1, 2, 2, 900), "{counts:?}");

    // A set: row group 0 holds neither; 2 holds Oslo.
    let (records, counts) = read(cities(), f.city.is_in(["Lima", "Oslo"]));
    assert_eq!(records.len(), 1500);
    assert_eq!(groups(&counts), (2, 1, 1, 1500), "{counts:?}");

    // Statistics decide first: Lima..Lima lacks Accra.
    let (_, counts) = read(cities(), f.city.eq("Accra"));
    assert_eq!(groups(&counts), (2, 1, 0, 1000), "{counts:?}");
    // Dictionaries decide equalities only: 56 and 57 are in no dictionary,
    // but only the statistics of row group 1 (50..50) rule out the range.
    let (_, counts) = read(cities(), f.code.gt(55).and(f.code.lt(58)));
    assert_eq!(groups(&counts), (2, 1, 0, 0), "{counts:?}");

    // A negation is no equality: row group 1 (Lima..Lima) is ruled out by
    // its statistics, the others read.
    let (records, counts) = read(cities(), f.city.eq("Lima").not());
    assert_eq!((records.len(), groups(&counts)), (2000, (2, 1, 0, 2000)), "{counts:?}");
}

#[test]
fn an_object_in_a_store_is_ruled_out_by_the_same_dictionaries() {
    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    runtime.block_on(async {
        let store = Arc::new(Wrapped::counting(Arc::new(InMemory::new())));
        let path = Path::from("cities.parquet");
        store.put(&path, PutPayload::from(cities())).await.unwrap();
        let f = City::fields();
        for predicate in [f.city.eq("Lima"), f.code.eq(50), f.city.is_in(["Lima", "Oslo"])] {
            let (expected, file_counts) = read(cities(), predicate.clone());
            let builder = StoreReaderBuilder::open(store.clone(), &path).await.unwrap();
            let mut reader = builder.build::<City>(ReadOptions::default().filter(predicate)).await.unwrap();
            let mut records = Vec::new();
            while let Some(record) = reader.next().await {
                records.push(record.unwrap());
            }
            assert_eq!(records, expected);
            assert_eq!(reader.counts(), file_counts);
            // The object is smaller than the footer's request: one in all.
            assert_eq!(reader.requests(), 1);
        }
    });
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
enum Payment {
    Card { last4: String },
    Cash,
    Transfer(String),
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Sale {
    id: u32,
    payment: Payment,
}

/// An enum's tag, in our own files: a row group of cards and transfers
/// spans `Cash` in its statistics, and its dictionary rules it out.
#[test]
fn an_enum_tag_is_ruled_out_by_its_dictionary() {
    let sales: Vec<Sale> = (0..30)
        .map(|id| {
            let payment = match (id / 10, id % 2) {
                (1, _) => Payment::Cash,
                (_, 0) => Payment::Card { last4: format!("{id:04}") },
                _ => Payment::Transfer(format!("DE{id}")),
            };
            Sale { id, payment }
        })
        .collect();
    let file = test_kit::io::file_with(WriterBuilder::<Sale>::new().max_row_group_rows(10), &sales).unwrap();
    let (records, counts) = read(file, Sale::fields().payment.variant.eq("Cash"));
    assert_eq!(records, sales[10..20]);
    assert_eq!(groups(&counts), (1, 2, 2, 10), "{counts:?}");
}

/// A dictionary page whose header is damaged is not trusted: the row group
/// is read, and the damage is an error there, never a panic or a row group
/// ruled out by garbage.
#[test]
fn a_damaged_dictionary_page_rules_nothing_out() {
    let meta = ReaderBuilder::new(cities()).unwrap().metadata().shared().clone();
    // The header of row group 0's dictionary page of `city`.
    let at = meta.row_group(0).column(1).dictionary_page_offset().unwrap() as usize;
    let mut bytes = cities().to_vec();
    bytes[at..at + 6].fill(0xff);
    let options = ReadOptions::default().filter(City::fields().city.eq("Lima"));
    let reader = ReaderBuilder::new(Bytes::from(bytes)).unwrap().build::<City>(options).unwrap();
    let read: Vec<_> = reader.collect();
    let error = read.iter().find_map(|r| r.as_ref().err()).expect("row group 0 is read, and its damage found");
    assert!(error.to_string().contains("city"), "{error}");
}
