//! typed-arrow 0.8, the typed layer over arrow's decoders: arrow's Parquet
//! reader decodes a file into `RecordBatch`es, and each row's typed view
//! (`#[derive(Record)]` with the `views` feature, its strings `&str` into
//! the batch) is turned into the bench's owned record, the record the
//! derive's `read_derive_file` returns.
//!
//! typed-arrow 0.8 supports arrow 55 to 59, not the 60 the rest of the
//! benches use, so this peer reads through parquet and arrow 58 (the versions
//! iceberg-rust already builds in this workspace): the same reader code as
//! `read_arrow_decode_only`, one major version older.

use bytes::Bytes;
use parquet58::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use typed_arrow::prelude::*;

use super::BoxError;
use crate::flat::{millis_to_time, Flat};
use crate::nested::{Nested, Required};
use columns::{FlatColumns, NestedColumns, RequiredColumnsView};

/// The column types. `#[derive(Record)]` makes public builders, arrays and
/// views without doc comments, which this crate's `missing_docs` would refuse.
#[allow(missing_docs)]
mod columns {
    use typed_arrow::prelude::*;
    use typed_arrow::{List, Millisecond, Timestamp};

    /// [`Flat`](crate::flat::Flat)'s columns as typed-arrow declares them.
    #[derive(Record)]
    pub struct FlatColumns {
        id: i64,
        score: f64,
        name: String,
        active: bool,
        maybe: Option<i32>,
        note: Option<String>,
        ts: Timestamp<Millisecond>,
        payload: Vec<u8>,
    }

    /// [`Required`](crate::nested::Required)'s columns, a struct column of [`NestedColumns`].
    #[derive(Record)]
    pub struct RequiredColumns {
        b: bool,
        i: i32,
        s: String,
    }

    /// [`Nested`](crate::nested::Nested)'s columns: the two-level list `l` is arrow's list of structs.
    #[derive(Record)]
    pub struct NestedColumns {
        b: bool,
        i: i32,
        s: String,
        r: RequiredColumns,
        o: Option<RequiredColumns>,
        l: List<RequiredColumns>,
    }
}

/// Every record of a flat file: arrow's reader (batches of 1024 rows, as
/// `read_arrow_decode_only`), then each row's view into a [`Flat`].
pub fn read_flat(file: Bytes) -> Result<Vec<Flat>, BoxError> {
    read_rows::<FlatColumns, _>(file, |row| {
        Ok(Flat {
            id: row.id,
            score: row.score,
            name: row.name.to_owned(),
            active: row.active,
            maybe: row.maybe,
            note: row.note.map(str::to_owned),
            ts: millis_to_time(row.ts.value()).ok_or("ts: out of chrono's range")?,
            payload: row.payload.to_vec(),
        })
    })
}

/// Every record of a nested file, as [`read_flat`] reads a flat one.
pub fn read_nested(file: Bytes) -> Result<Vec<Nested>, BoxError> {
    read_rows::<NestedColumns, _>(file, |row| {
        Ok(Nested {
            b: row.b,
            i: row.i,
            s: row.s.to_owned(),
            r: required(row.r),
            o: row.o.map(required),
            l: row.l.map(|item| item.map(required)).collect::<Result<_, _>>()?,
        })
    })
}

/// Every row of a file as `C`'s view, made into a record by `record`.
fn read_rows<C: FromRecordBatch, R>(
    file: Bytes,
    mut record: impl FnMut(C::View<'_>) -> Result<R, BoxError>,
) -> Result<Vec<R>, BoxError> {
    let mut out = Vec::new();
    for batch in ParquetRecordBatchReaderBuilder::try_new(file)?.with_batch_size(1024).build()? {
        let batch = batch?;
        out.reserve(batch.num_rows());
        for row in batch.iter_views::<C>()? {
            out.push(record(row?)?);
        }
    }
    Ok(out)
}

/// A [`Required`] from its view.
fn required(view: RequiredColumnsView<'_>) -> Required {
    Required { b: view.b, i: view.i, s: view.s.to_owned() }
}
