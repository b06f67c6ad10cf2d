//! The records of the `flat` and `nested` groups as structs that borrow
//! their strings and bytes from the decoded batch (`*_derive_borrowed`),
//! and the lending read every such row makes.

use bytes::Bytes;
use chrono::NaiveDateTime;
use magnolify_parquet::{Derived, ParquetRecord, ParquetType, ReadOptions, ReaderBuilder, RecordRead};

/// [`Flat`](crate::flat::Flat), borrowing its text and bytes.
#[derive(ParquetType, Clone, Debug, PartialEq)]
#[parquet(rename = "Flat")]
pub struct FlatBorrowed<'a> {
    /// A sorted key.
    pub id: i64,
    /// A measure.
    pub score: f64,
    /// A short text.
    pub name: &'a str,
    /// A flag.
    pub active: bool,
    /// Present 70 % of the time.
    pub maybe: Option<i32>,
    /// Present 50 % of the time.
    pub note: Option<&'a str>,
    /// A wall-clock time, stored as TIMESTAMP(MILLIS).
    #[parquet(timestamp = "millis")]
    pub ts: NaiveDateTime,
    /// Opaque bytes.
    pub payload: &'a [u8],
}

/// [`Required`](crate::nested::Required), borrowing its text.
#[derive(ParquetType, Clone, Debug, PartialEq)]
#[parquet(rename = "Required")]
pub struct RequiredBorrowed<'a> {
    /// A flag.
    pub b: bool,
    /// A number.
    pub i: i32,
    /// A short text.
    pub s: &'a str,
}

/// [`Nested`](crate::nested::Nested) (two-level lists), borrowing its text.
#[derive(ParquetType, Clone, Debug, PartialEq)]
#[parquet(rename = "Nested")]
pub struct NestedBorrowed<'a> {
    /// A flag.
    pub b: bool,
    /// A number.
    pub i: i32,
    /// A short text.
    pub s: &'a str,
    /// A required group.
    pub r: RequiredBorrowed<'a>,
    /// An optional group.
    pub o: Option<RequiredBorrowed<'a>>,
    /// A list of groups.
    #[parquet(list = "two-level")]
    pub l: Vec<RequiredBorrowed<'a>>,
}

/// Reads every record of `file` as `T`, batch by batch on one thread,
/// handing each batch to `f` (the bench's sink): the records are dropped
/// with their batch. Returns how many were read.
pub fn read<T: ParquetRecord>(
    file: Bytes,
    mut f: impl FnMut(&[<Derived<T> as RecordRead>::Record<'_>]),
) -> magnolify_parquet::Result<usize>
where
    Derived<T>: RecordRead,
{
    let mut reader = ReaderBuilder::new(file)?.build_borrowed::<T>(ReadOptions::default().threads(1))?;
    let mut n = 0;
    while let Some(batch) = reader.next_batch()? {
        n += batch.len();
        f(&batch);
    }
    Ok(n)
}
