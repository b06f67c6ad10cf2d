//! A Parquet→Parquet transform through records that borrow from the batch
//! allocates nothing per record: read a file batch by batch, keep half of
//! its records, write them with the borrowing writer, and count the heap
//! allocations with a counting global allocator. A binary of its own, with
//! one test, so that no other test's allocations are counted.
//!
//! What allocates is per batch (the batch's `Vec` of records), per page and
//! per column chunk (buffers that grow, pages encoded and decoded): the
//! count for 3n records less the count for n, over the 2n records between
//! them, must be far below one allocation per record.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

use bytes::Bytes;
use magnolify_parquet::{ParquetReader, ParquetType, ReadOptions, ReaderBuilder, WriterBuilder};

/// The system allocator, counting the allocations and reallocations made
/// through it.
struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

// SAFETY: every call is passed on unchanged to the system allocator, which
// upholds `GlobalAlloc`'s contract; the counter is an atomic add.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller's `layout` is passed on as it came.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` with `layout` (every
        // allocation goes through `alloc` or `realloc` above).
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: as for `dealloc`; `new_size` is the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Event<'a> {
    id: u64,
    kind: &'a str,
    note: Option<&'a str>,
    payload: &'a [u8],
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct OwnedEvent {
    id: u64,
    kind: String,
    note: Option<String>,
    payload: Vec<u8>,
}

fn events(n: u64) -> Vec<OwnedEvent> {
    (0..n)
        .map(|i| OwnedEvent {
            id: i,
            kind: format!("kind-{}", i % 17),
            note: (i % 3 == 0).then(|| format!("note {i}")),
            payload: (0..i % 11).map(|b| b as u8).collect(),
        })
        .collect()
}

fn file(rows: &[OwnedEvent]) -> Bytes {
    let mut w = WriterBuilder::<OwnedEvent>::new().threads(1).build(Vec::new()).unwrap();
    w.write_all(rows).unwrap();
    Bytes::from(w.into_inner().unwrap())
}

/// The transform: the events with an even id, rewritten.
fn transform(file: Bytes) -> Vec<u8> {
    let mut reader = ReaderBuilder::new(file).unwrap().build_borrowed::<Event>(ReadOptions::default()).unwrap();
    let mut writer = WriterBuilder::<Event>::new().threads(1).build(Vec::new()).unwrap();
    while let Some(batch) = reader.next_batch().unwrap() {
        for event in batch.iter().filter(|e| e.id % 2 == 0) {
            writer.write(event).unwrap();
        }
    }
    writer.into_inner().unwrap()
}

/// Allocations made by transforming `file`.
fn allocations(file: Bytes) -> (u64, Vec<u8>) {
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let out = transform(file);
    (ALLOCATIONS.load(Ordering::Relaxed) - before, out)
}

#[test]
fn a_borrowed_transform_allocates_nothing_per_record() {
    let n = 20_000;
    let (small, large) = (events(n), events(3 * n));
    let (small_file, large_file) = (file(&small), file(&large));
    let (small_count, small_out) = allocations(small_file);
    let (large_count, large_out) = allocations(large_file);

    // What was written is what was kept.
    for (rows, out) in [(&small, small_out), (&large, large_out)] {
        let kept: Vec<OwnedEvent> = rows.iter().filter(|e| e.id % 2 == 0).cloned().collect();
        let back: Vec<OwnedEvent> =
            ParquetReader::<OwnedEvent, _>::new(Bytes::from(out)).unwrap().collect::<Result<_, _>>().unwrap();
        assert_eq!(back, kept);
    }
    let per_record = (large_count.saturating_sub(small_count)) as f64 / (2 * n) as f64;
    println!("allocations: {small_count} for {n} records, {large_count} for {}: {per_record:.4} per record", 3 * n);
    assert!(per_record < 0.05, "{per_record:.4} allocations per record ({small_count} for {n}, {large_count} for 3n)");
}
