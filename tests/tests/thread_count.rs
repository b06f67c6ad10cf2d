//! Threads a reader and a writer start, counted by name in
//! `/proc/self/task` (Linux). A binary of its own, with one test, so that
//! no other test's threads are counted: with 1 thread nothing starts, with
//! n the reader starts n and the writer n - 1 (the caller's thread encodes
//! too), and none is left once they are dropped.

#![cfg(target_os = "linux")]

use magnolify_parquet::{ParquetType, ReadOptions, ReaderBuilder, WriterBuilder};

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Row {
    id: u64,
    name: String,
}

/// Threads of this process whose name starts as the library names its
/// own (`magnolify-parquet read`, `magnolify-parquet encode N`; the kernel
/// keeps 15 bytes of a name).
fn library_threads() -> usize {
    let tasks = std::fs::read_dir("/proc/self/task").expect("/proc/self/task");
    tasks
        .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("comm")).ok())
        .filter(|name| name.starts_with("magnolify-parqu"))
        .count()
}

/// Waits up to 5 s for the count to reach `n` (a thread that ended may
/// linger in `/proc` for a moment).
fn settles_at(n: usize) -> usize {
    for _ in 0..500 {
        if library_threads() == n {
            return n;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    library_threads()
}

#[test]
fn one_thread_starts_none_and_n_threads_start_their_share() {
    let rows: Vec<Row> = (0..5000).map(|id| Row { id, name: format!("r{id}") }).collect();
    assert_eq!(library_threads(), 0);
    let mut files = Vec::new();
    for (threads, encoders) in [(1, 0), (2, 1), (3, 2)] {
        let mut writer = WriterBuilder::<Row>::new().threads(threads).batch_size(100).build(Vec::new()).unwrap();
        writer.write_all(&rows[..2500]).unwrap();
        assert_eq!(library_threads(), encoders, "a writer with {threads} threads, writing");
        writer.write_all(&rows[2500..]).unwrap();
        files.push(bytes::Bytes::from(writer.into_inner().unwrap()));
        assert_eq!(settles_at(0), 0, "after a writer with {threads} threads");
    }
    for (threads, readers) in [(1, 0), (2, 2), (4, 4)] {
        let options = ReadOptions::default().threads(threads).batch_size(10);
        let mut reader = ReaderBuilder::new(files[0].clone()).unwrap().build::<Row>(options).unwrap();
        assert_eq!(reader.next().unwrap().unwrap(), rows[0]);
        // The threads start at the first record and name themselves once
        // running: the count settles there.
        assert_eq!(settles_at(readers), readers, "a reader with {threads} threads, reading");
        drop(reader);
        assert_eq!(settles_at(0), 0, "after a reader with {threads} threads was dropped early");
    }
    // Lending batches: the threads decode, the caller assembles.
    for (threads, readers) in [(1, 0), (3, 3)] {
        let options = ReadOptions::default().threads(threads).batch_size(10);
        let mut reader = ReaderBuilder::new(files[0].clone()).unwrap().build::<Row>(options).unwrap();
        assert_eq!(reader.next_batch().unwrap().unwrap(), rows[..10]);
        assert_eq!(settles_at(readers), readers, "a lending reader with {threads} threads");
        drop(reader);
        assert_eq!(settles_at(0), 0, "after a lending reader with {threads} threads was dropped early");
    }
}
