//! The struct `read_borrowed` reads: [`FuzzRecord`](crate::FuzzRecord) with
//! its strings and bytes borrowed from the batch, and the oracle that
//! compares a lending read with an owned one.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

use bytes::Bytes;
use magnolify_parquet::{ParquetType, ReadOptions, ReaderBuilder};

use crate::{FuzzRecord, Inner, Item, BATCH, MAX_LEVELS, MAX_PAGE_BYTES};

/// [`Item`], borrowing.
#[derive(ParquetType, Debug)]
pub struct ItemBorrowed<'a> {
    pub sku: &'a str,
    pub qty: Option<u32>,
    pub dims: Vec<i64>,
    pub props: HashMap<&'a str, Option<Cow<'a, str>>>,
}

/// [`FuzzRecord`], borrowing: the same columns, read into `&str`, `&[u8]`
/// and `Cow`.
#[derive(ParquetType, Debug)]
pub struct FuzzBorrowed<'a> {
    pub id: i64,
    pub name: &'a str,
    pub note: Option<&'a str>,
    pub tags: Vec<&'a str>,
    pub scores: Option<Vec<Option<f64>>>,
    #[parquet(list = "two-level")]
    pub legacy: Vec<i32>,
    pub attrs: BTreeMap<&'a str, i32>,
    pub items: Vec<ItemBorrowed<'a>>,
    pub inner: Option<Inner>,
    pub flag: bool,
    pub blob: &'a [u8],
    pub small: u16,
}

impl FuzzBorrowed<'_> {
    /// The owned record with the same values.
    pub fn to_owned_record(&self) -> FuzzRecord {
        let item = |i: &ItemBorrowed<'_>| Item {
            sku: i.sku.to_owned(),
            qty: i.qty,
            dims: i.dims.clone(),
            props: i.props.iter().map(|(k, v)| ((*k).to_owned(), v.as_ref().map(|v| v.to_string()))).collect(),
        };
        FuzzRecord {
            id: self.id,
            name: self.name.to_owned(),
            note: self.note.map(str::to_owned),
            tags: self.tags.iter().map(|t| (*t).to_owned()).collect(),
            scores: self.scores.clone(),
            legacy: self.legacy.clone(),
            attrs: self.attrs.iter().map(|(k, v)| ((*k).to_owned(), *v)).collect(),
            items: self.items.iter().map(item).collect(),
            inner: self.inner.clone(),
            flag: self.flag,
            blob: self.blob.to_vec(),
            small: self.small,
        }
    }
}

/// The fuzzing limits, with `threads`.
fn options<T>(threads: usize) -> ReadOptions<T> {
    ReadOptions::default().max_page_bytes(MAX_PAGE_BYTES).max_levels(MAX_LEVELS).batch_size(BATCH).threads(threads)
}

/// Every record of `file` as `FuzzRecord`, or the first error.
fn owned(file: Bytes) -> Option<Vec<FuzzRecord>> {
    let reader = ReaderBuilder::new(file).ok()?.build::<FuzzRecord>(options(1)).ok()?;
    reader.collect::<Result<_, _>>().ok()
}

/// Every record of `file` lent as `FuzzBorrowed` on `threads`, made owned,
/// or the first error.
fn lent(file: Bytes, threads: usize) -> Option<Vec<FuzzRecord>> {
    let mut reader = ReaderBuilder::new(file).ok()?.build_borrowed::<FuzzBorrowed>(options(threads)).ok()?;
    let mut out = Vec::new();
    while let Some(batch) = reader.next_batch().ok()? {
        out.extend(batch.iter().map(FuzzBorrowed::to_owned_record));
    }
    Some(out)
}

/// Reads `data` as a file both ways, lent on `threads`: a file one way
/// reads whole, the other must read whole too, into the same records
/// (compared by their `Debug` text, so that a NaN read both ways agrees
/// and -0.0 still differs from 0.0). Panics (a crash for the fuzzer) when
/// they disagree.
pub fn compare_borrowed_with_owned(data: &[u8], threads: usize) {
    let file = Bytes::copy_from_slice(data);
    match (owned(file.clone()), lent(file, threads)) {
        (Some(a), Some(b)) => {
            assert!(format!("{a:?}") == format!("{b:?}"), "borrowed and owned reads gave different records")
        }
        (None, None) => {}
        (a, b) => panic!(
            "one read failed and the other did not: owned {}, borrowed {}",
            a.map_or("failed".into(), |r| format!("{} records", r.len())),
            b.map_or("failed".into(), |r| format!("{} records", r.len())),
        ),
    }
}
