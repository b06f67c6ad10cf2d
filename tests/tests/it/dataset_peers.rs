//! Datasets written by Spark and by pyarrow (`tests/fixtures/datasets`,
//! made by its `generate.py`) read back into a derived type, row for row,
//! with their partition fields typed from the paths; and pruned by them.

use chrono::NaiveDate;
use futures::StreamExt;
use magnolify_parquet::dataset::DatasetReader;
use magnolify_parquet::ReadOptions;
use serde_json::Value;
use test_kit::sales::Sale;

/// The rows of `sales.expected.json`.
fn expected() -> Vec<Sale> {
    let text = std::fs::read_to_string(test_kit::fixtures::dir().join("datasets/sales.expected.json")).unwrap();
    let rows: Vec<Vec<Value>> = serde_json::from_str(&text).unwrap();
    rows.into_iter()
        .map(|r| Sale {
            id: r[0].as_i64().unwrap(),
            amount: r[1].as_f64().unwrap(),
            note: r[2].as_str().map(str::to_owned),
            day: r[3].as_str().unwrap().parse().unwrap(),
            region: r[4].as_str().map(str::to_owned),
        })
        .collect()
}

fn read(name: &str, threads: usize) -> Vec<Sale> {
    let root = test_kit::fixtures::dir().join("datasets").join(name);
    let mut rows: Vec<Sale> = DatasetReader::builder(root)
        .unwrap()
        .build(ReadOptions::default().threads(threads))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    rows.sort_by_key(|s| s.id);
    rows
}

#[test]
fn the_expected_rows_are_the_generators() {
    assert_eq!(expected(), test_kit::sales::rows(40));
}

#[test]
fn a_spark_dataset_reads_back_row_for_row() {
    let root = test_kit::fixtures::dir().join("datasets/sales.spark");
    // `_SUCCESS` and the `.crc` files are beside the data files, skipped.
    assert!(root.join("_SUCCESS").exists());
    let builder = DatasetReader::<Sale>::builder(&root).unwrap();
    assert_eq!(builder.files().len(), 12);
    assert!(builder.files().iter().all(|f| f.relative.file_name().unwrap().to_string_lossy().starts_with("part-")));
    for threads in [1, 2] {
        assert_eq!(read("sales.spark", threads), expected());
    }
}

#[test]
fn a_pyarrow_dataset_reads_back_row_for_row() {
    // pyarrow percent-encodes UTF-8 (`Z%C3%BCrich`) and spaces (`%20`).
    for threads in [1, 2] {
        assert_eq!(read("sales.pyarrow", threads), expected());
    }
}

#[test]
fn peer_datasets_are_pruned_by_their_partition_values() {
    let f = Sale::fields();
    let wanted = f.region.eq("Zürich").and(f.day.ge(NaiveDate::from_ymd_opt(2024, 3, 2).unwrap()));
    let rows: Vec<Sale> = expected().into_iter().filter(|s| wanted.test(s)).collect();
    assert_eq!(rows.len(), 7);
    for name in ["sales.spark", "sales.pyarrow"] {
        let root = test_kit::fixtures::dir().join("datasets").join(name);
        let mut reader =
            DatasetReader::builder(root).unwrap().build(ReadOptions::default().filter(wanted.clone())).unwrap();
        let mut got: Vec<Sale> = reader.by_ref().collect::<Result<_, _>>().unwrap();
        got.sort_by_key(|s| s.id);
        assert_eq!(got, rows, "{name}");
        assert_eq!((reader.counts().files_read, reader.counts().files_skipped), (2, 10), "{name}");
    }
}

/// The Spark dataset's objects, markers and `.crc` files included, under a
/// prefix of an in-memory store (keys as Spark wrote them), read by the
/// store's dataset reader; and pruned by partition values.
#[test]
fn a_spark_dataset_in_an_object_store_reads_back_and_is_pruned() {
    use magnolify_parquet::dataset::StoreDatasetReader;
    use object_store::{memory::InMemory, path::Path, ObjectStoreExt, PutPayload};
    use std::sync::Arc;

    let root = test_kit::fixtures::dir().join("datasets/sales.spark");
    let store = Arc::new(InMemory::new());
    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    runtime.block_on(async {
        let mut stack = vec![root.clone()];
        let mut uploaded = 0;
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                    continue;
                }
                let relative = path.strip_prefix(&root).unwrap().to_string_lossy().into_owned();
                let key = Path::parse(format!("warehouse/sales/{relative}")).unwrap();
                store.put(&key, PutPayload::from(std::fs::read(&path).unwrap())).await.unwrap();
                uploaded += 1;
            }
        }
        // 12 data files, their 12 `.crc` files, `_SUCCESS` and its `.crc`.
        assert_eq!(uploaded, 26);
        let prefix = Path::from("warehouse/sales");
        let builder = StoreDatasetReader::<Sale>::builder(store.clone(), &prefix).await.unwrap();
        assert_eq!(builder.files().len(), 12);
        let mut dataset = builder.build(ReadOptions::default()).unwrap();
        let mut rows = Vec::new();
        while let Some(record) = dataset.next().await {
            rows.push(record.unwrap());
        }
        rows.sort_by_key(|s: &Sale| s.id);
        assert_eq!(rows, expected());

        let f = Sale::fields();
        let wanted = f.region.eq("North/East").and(f.day.eq(NaiveDate::from_ymd_opt(2024, 3, 1).unwrap()));
        let mut dataset = StoreDatasetReader::builder(store.clone(), &prefix)
            .await
            .unwrap()
            .build(ReadOptions::default().filter(wanted.clone()))
            .unwrap();
        let mut got = Vec::new();
        while let Some(record) = dataset.next().await {
            got.push(record.unwrap());
        }
        got.sort_by_key(|s: &Sale| s.id);
        let want: Vec<Sale> = expected().into_iter().filter(|s| wanted.test(s)).collect();
        assert_eq!(got, want);
        assert_eq!((dataset.counts().files_read, dataset.counts().files_skipped), (1, 11));
    });
}
