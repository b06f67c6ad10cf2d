//! The flat record (no nesting, so `parquet_derive` can take part), the
//! subset of it `parquet_derive`'s reader supports, and generated runs.

use chrono::{DateTime, NaiveDateTime};
use magnolify_parquet::ParquetType;
use parquet_derive::{ParquetRecordReader, ParquetRecordWriter};
use serde::{Deserialize, Serialize};

use test_kit::rng::XorShift;

/// Eight columns of the common kinds. Serde attributes give `serde_arrow`
/// its fastest forms: the timestamp as epoch milliseconds, the payload as bytes.
#[derive(ParquetType, ParquetRecordWriter, Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Flat {
    /// A sorted key, `7 * index + 1`: its pages are what DELTA encoding and
    /// page statistics see in a table's primary key.
    pub id: i64,
    /// A measure, uniform in `[0, 1000)`.
    pub score: f64,
    /// 4 to 16 characters of a mostly-ASCII alphabet.
    pub name: String,
    /// True half of the time, a coin flip per record: no run of values for
    /// run-length encoding to shorten.
    pub active: bool,
    /// Present 70 % of the time: definition levels on an INT32.
    pub maybe: Option<i32>,
    /// Present 50 % of the time, like `name` when present.
    pub note: Option<String>,
    /// A wall-clock time, stored as TIMESTAMP(MILLIS): one second after the
    /// previous record's, plus up to a second of noise.
    #[parquet(timestamp = "millis")]
    #[serde(with = "chrono::naive::serde::ts_milliseconds")]
    pub ts: NaiveDateTime,
    /// 0 to 32 opaque bytes.
    #[serde(with = "serde_bytes")]
    pub payload: Vec<u8>,
}

/// The columns of [`Flat`] that `parquet_derive`'s reader can read: it has
/// no `Option` support (the macro rejects it) and panics on any null.
#[derive(ParquetType, ParquetRecordReader, Clone, Debug, PartialEq, Default)]
pub struct FlatRequired {
    /// A key.
    pub id: i64,
    /// A measure.
    pub score: f64,
    /// A short text.
    pub name: String,
    /// A flag.
    pub active: bool,
    /// A wall-clock time, stored as TIMESTAMP(MILLIS).
    #[parquet(timestamp = "millis")]
    pub ts: NaiveDateTime,
    /// Opaque bytes.
    pub payload: Vec<u8>,
}

/// The Parquet schema `Flat` derives, written out by hand for the columnar
/// floor; a test checks they agree.
pub const FLAT_MESSAGE: &str = "message Flat {
  REQUIRED INT64 id (INTEGER(64,true));
  REQUIRED DOUBLE score;
  REQUIRED BYTE_ARRAY name (STRING);
  REQUIRED BOOLEAN active;
  OPTIONAL INT32 maybe (INTEGER(32,true));
  OPTIONAL BYTE_ARRAY note (STRING);
  REQUIRED INT64 ts (TIMESTAMP(MILLIS,false));
  REQUIRED BYTE_ARRAY payload;
}
";

/// 2024-01-01T00:00:00 in epoch milliseconds: generated times follow it.
const BASE_MILLIS: i64 = 1_704_067_200_000;

/// The wall-clock time `millis` after the epoch.
pub fn millis_to_time(millis: i64) -> Option<NaiveDateTime> {
    DateTime::from_timestamp_millis(millis).map(|t| t.naive_utc())
}

/// Epoch milliseconds of a wall-clock time.
pub fn time_to_millis(t: &NaiveDateTime) -> i64 {
    t.and_utc().timestamp_millis()
}

/// One generated record (`index` gives the id and keeps times increasing).
pub fn random_flat(g: &mut XorShift, index: usize) -> Flat {
    let millis = BASE_MILLIS + index as i64 * 1_000 + g.below(1_000) as i64;
    Flat {
        id: index as i64 * 7 + 1,
        score: g.f64(),
        name: g.string(4, 16),
        active: g.chance(50),
        maybe: if g.chance(70) { Some(g.i32()) } else { None },
        note: if g.chance(50) { Some(g.string(4, 16)) } else { None },
        // BASE_MILLIS plus a few days is always a valid time.
        ts: millis_to_time(millis).unwrap_or_default(),
        payload: g.bytes(0, 32),
    }
}

/// `n` generated records from `seed`: the same for every run.
pub fn generate(n: usize, seed: u64) -> Vec<Flat> {
    let mut g = XorShift::new(seed);
    (0..n).map(|i| random_flat(&mut g, i)).collect()
}

impl From<&Flat> for FlatRequired {
    fn from(f: &Flat) -> Self {
        FlatRequired {
            id: f.id,
            score: f.score,
            name: f.name.clone(),
            active: f.active,
            ts: f.ts,
            payload: f.payload.clone(),
        }
    }
}
