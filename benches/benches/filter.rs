//! `filter`: 1,000,000 trips sorted by start time in 100 row groups (ZSTD,
//! page index, a bloom filter on the rider), read whole and read through
//! typed predicates: a 1 % time range, and one rider.

use std::sync::OnceLock;

use benches::trips::{self, Trip, ROW_GROUPS, TRIPS};
use benches::SEED;
use bytes::Bytes;
use divan::Bencher;

fn main() {
    divan::main();
}

/// The trips and their file, made once for every bench.
fn data() -> &'static (Vec<Trip>, Bytes) {
    static DATA: OnceLock<(Vec<Trip>, Bytes)> = OnceLock::new();
    DATA.get_or_init(|| {
        let records = trips::generate(TRIPS, SEED);
        let file = trips::write(&records, ROW_GROUPS).expect("writing the trips");
        (records, file)
    })
}

#[divan::bench(sample_count = 10)]
fn read_full(bencher: Bencher) {
    let (_, file) = data();
    bencher.bench_local(|| trips::read(file.clone(), None).expect("read"));
}

/// Trips in 1 % of the time span.
#[divan::bench(sample_count = 10)]
fn read_filtered(bencher: Bencher) {
    let (records, file) = data();
    let query = trips::range_query(records);
    bencher.bench_local(|| trips::read(file.clone(), Some(query.clone())).expect("read"));
}

/// One rider's trips: the bloom filters rule out the row groups without them.
#[divan::bench(sample_count = 10)]
fn read_filtered_rider(bencher: Bencher) {
    let (records, file) = data();
    let query = trips::rider_query(records);
    bencher.bench_local(|| trips::read(file.clone(), Some(query.clone())).expect("read"));
}
