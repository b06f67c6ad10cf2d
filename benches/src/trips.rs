//! The `filter` group's records: trips sorted by their start time, as a
//! service appends them, written into 100 row groups with the page index
//! and a bloom filter on the rider. Queries read a time range (1 % of the
//! span) or one rider's trips.

use bytes::Bytes;
use chrono::{DateTime, Utc};
use magnolify_parquet::filter::Predicate;
use magnolify_parquet::parquet::basic::{Compression, ZstdLevel};
use magnolify_parquet::{ParquetType, ReadOptions, ReaderBuilder, WriterBuilder};

use test_kit::rng::XorShift;

/// Records in the `filter` group's file.
pub const TRIPS: usize = 1_000_000;

/// Row groups of the file.
pub const ROW_GROUPS: usize = 100;

/// One trip. Riders are drawn from 100,000, so that one rider's trips lie in
/// a few row groups.
#[derive(ParquetType, Clone, Debug, PartialEq)]
pub struct Trip {
    /// One to two seconds after the trip before.
    #[parquet(timestamp = "millis")]
    pub started: DateTime<Utc>,
    /// `r<n>`, spread over every row group's min and max: only a bloom
    /// filter tells that a row group lacks one.
    #[parquet(bloom_filter(fpp = 0.01, ndv = 20000))]
    pub rider: String,
    /// One of 40 cities.
    pub city: String,
    /// Uniform in [2, 80).
    pub fare: f64,
    /// Metres.
    pub distance: u32,
}

/// Epoch milliseconds of the first trip.
pub const START_MILLIS: i64 = 1_700_000_000_000;

/// `n` trips from `seed`, sorted by start time.
pub fn generate(n: usize, seed: u64) -> Vec<Trip> {
    let mut rng = XorShift::new(seed);
    let mut at = START_MILLIS;
    (0..n)
        .map(|_| {
            at += 1_000 + rng.below(1_000) as i64;
            Trip {
                started: DateTime::from_timestamp_millis(at).expect("in range"),
                rider: format!("r{}", rng.below(100_000)),
                city: format!("city{}", rng.below(40)),
                fare: 2.0 + rng.below(78_000) as f64 / 1_000.0,
                distance: 100 + rng.below(30_000) as u32,
            }
        })
        .collect()
}

/// `trips` in a ZSTD file of `row_groups` row groups, sorted by start time.
pub fn write(trips: &[Trip], row_groups: usize) -> magnolify_parquet::Result<Bytes> {
    let mut writer = WriterBuilder::<Trip>::new()
        .compression(Compression::ZSTD(ZstdLevel::default()))
        .max_row_group_rows(trips.len().div_ceil(row_groups))
        .sorted_by(&Trip::fields().started)
        .threads(1)
        .build(Vec::new())?;
    writer.write_all(trips)?;
    Ok(Bytes::from(writer.into_inner()?))
}

/// The trips that started in `[from, from + 1 % of the span)`, for a file
/// of `trips` holding `n` records: half way through it.
pub fn range_query(trips: &[Trip]) -> Predicate<Trip> {
    let (first, last) = (trips[0].started, trips[trips.len() - 1].started);
    let span = last - first;
    let from = first + span / 2;
    Trip::fields().started.ge(from).and(Trip::fields().started.lt(from + span / 100))
}

/// One rider's trips: a rider of the middle trip.
pub fn rider_query(trips: &[Trip]) -> Predicate<Trip> {
    Trip::fields().rider.eq(trips[trips.len() / 2].rider.clone())
}

/// Reads the records of `file` that pass `predicate` (all with `None`), on
/// one thread.
pub fn read(file: Bytes, predicate: Option<Predicate<Trip>>) -> magnolify_parquet::Result<Vec<Trip>> {
    let options = ReadOptions::default().threads(1);
    let options = match predicate {
        Some(p) => options.filter(p),
        None => options,
    };
    ReaderBuilder::new(file)?.build(options)?.collect()
}
