//! A scan as a stream: records in the plan's order on any number of
//! threads, and the stream ended by the first error, which names the file.

mod common;

use futures::{StreamExt, TryStreamExt};
use magnolify_iceberg::{TableScan, TableWriter};
use magnolify_parquet::ParquetType;

#[derive(ParquetType, Clone, Debug, PartialEq)]
struct Event {
    seq: i64,
    name: String,
}

/// A table of 5,000 events in 10 data files of 500, in row groups of 100.
async fn events() -> (tempfile::TempDir, iceberg::table::Table) {
    let (dir, catalog, table) = common::new_table::<Event>("s", "events").await;
    let mut writer = TableWriter::builder(&table)
        .limits(|l| l.max_rows_per_file(500))
        .files(|b| b.max_row_group_rows(100))
        .build()
        .unwrap();
    let events: Vec<Event> = (0..5_000).map(|seq| Event { seq, name: format!("event {seq}") }).collect();
    writer.write_all(&events).await.unwrap();
    (dir, writer.commit(&catalog).await.unwrap())
}

/// The first sequence number of each of `records`' runs of 500.
fn runs(records: &[Event]) -> Vec<i64> {
    records.chunks(500).map(|run| run[0].seq).collect()
}

#[tokio::test]
async fn a_scan_streams_in_the_plans_order_on_any_number_of_threads() {
    let (_dir, table) = events().await;
    let files = TableScan::<Event>::new(&table).files().await.unwrap();
    assert_eq!(files.len(), 10);
    let one: Vec<Event> = TableScan::<Event>::new(&table).stream().try_collect().await.unwrap();
    assert_eq!(one.len(), 5_000);
    // Each file is a run of 500 consecutive events, in order.
    for run in one.chunks(500) {
        assert!(run.windows(2).all(|w| w[1].seq == w[0].seq + 1), "a file's records in order");
    }
    let mut starts = runs(&one);
    for threads in [2, 4, 16] {
        let read: Vec<Event> = TableScan::<Event>::new(&table).threads(threads).stream().try_collect().await.unwrap();
        assert!(read == one, "{threads} threads: the order of one");
    }
    starts.sort();
    assert_eq!(starts, (0..10).map(|i| i * 500).collect::<Vec<_>>(), "every file once");

    // A stream taken in part and dropped stops its readers (the test ends).
    let first: Vec<Event> = TableScan::<Event>::new(&table).threads(4).stream().take(3).try_collect().await.unwrap();
    assert_eq!(first, one[..3]);
}

#[tokio::test]
async fn a_damaged_file_ends_the_stream_with_an_error_naming_it() {
    let (_dir, table) = events().await;
    let files = TableScan::<Event>::new(&table).files().await.unwrap();
    let in_order: Vec<Event> = TableScan::<Event>::new(&table).collect().await.unwrap();
    // The third file's data pages overwritten (past its 4-byte magic).
    let damaged = files[2].trim_start_matches("file://");
    let mut bytes = std::fs::read(damaged).unwrap();
    bytes[4..1_004].fill(0xA5);
    std::fs::write(damaged, bytes).unwrap();

    for threads in [1, 4] {
        let mut stream = TableScan::<Event>::new(&table).threads(threads).stream();
        let mut read = Vec::new();
        let err = loop {
            match stream.next().await {
                Some(Ok(event)) => read.push(event),
                Some(Err(e)) => break e.to_string(),
                None => panic!("{threads} threads: no error"),
            }
        };
        assert_eq!(read, in_order[..1_000], "{threads} threads: the first two files, then the error");
        assert!(err.contains(&files[2]), "{threads} threads: {err}");
        assert!(stream.next().await.is_none(), "{threads} threads: nothing after the error");
    }
}
