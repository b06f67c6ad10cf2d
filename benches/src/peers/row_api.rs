//! The `parquet` crate's Row API (`get_row_iter`), with each `Row` turned
//! into the typed record, as a user of it would.

use bytes::Bytes;
use parquet::file::reader::FileReader;
use parquet::file::serialized_reader::SerializedFileReader;
use parquet::record::{Field, Row, RowAccessor};

use super::{unexpected, BoxError};
use crate::flat::{millis_to_time, Flat};
use crate::nested::{Nested, Required};

/// Every row of `file` as `T`, through `convert`.
fn read<T>(file: Bytes, convert: fn(Row) -> Result<T, BoxError>) -> Result<Vec<T>, BoxError> {
    let reader = SerializedFileReader::new(file)?;
    reader.get_row_iter(None)?.map(|row| convert(row?)).collect()
}

/// Every row of a file of [`Nested`] records.
pub fn read_nested(file: Bytes) -> Result<Vec<Nested>, BoxError> {
    read(file, nested)
}

/// Every row of a file of [`Flat`] records.
pub fn read_flat(file: Bytes) -> Result<Vec<Flat>, BoxError> {
    read(file, flat)
}

fn required(row: &Row) -> Result<Required, BoxError> {
    Ok(Required { b: row.get_bool(0)?, i: row.get_int(1)?, s: row.get_string(2)?.clone() })
}

fn nested(row: Row) -> Result<Nested, BoxError> {
    let mut fields = row.into_columns().into_iter().map(|(_, f)| f);
    let (b, i, s) = match (fields.next(), fields.next(), fields.next()) {
        (Some(Field::Bool(b)), Some(Field::Int(i)), Some(Field::Str(s))) => (b, i, s),
        other => return Err(unexpected("b, i, s", other)),
    };
    let r = match fields.next() {
        Some(Field::Group(r)) => required(&r)?,
        other => return Err(unexpected("r", other)),
    };
    let o = match fields.next() {
        Some(Field::Group(o)) => Some(required(&o)?),
        Some(Field::Null) => None,
        other => return Err(unexpected("o", other)),
    };
    let l = match fields.next() {
        Some(Field::ListInternal(list)) => {
            let mut l = Vec::with_capacity(list.len());
            for e in list.elements() {
                match e {
                    Field::Group(e) => l.push(required(e)?),
                    // The Row API reads the 2-level layout (`repeated group
                    // array`) as a list of lists of one group each.
                    Field::ListInternal(inner) => {
                        for e in inner.elements() {
                            match e {
                                Field::Group(e) => l.push(required(e)?),
                                other => return Err(unexpected("l.array", other)),
                            }
                        }
                    }
                    other => return Err(unexpected("l.array", other)),
                }
            }
            l
        }
        other => return Err(unexpected("l", other)),
    };
    Ok(Nested { b, i, s, r, o, l })
}

fn flat(row: Row) -> Result<Flat, BoxError> {
    let mut fields = row.into_columns().into_iter().map(|(_, f)| f);
    let (id, score, name, active) = match (fields.next(), fields.next(), fields.next(), fields.next()) {
        (Some(Field::Long(id)), Some(Field::Double(score)), Some(Field::Str(name)), Some(Field::Bool(active))) => {
            (id, score, name, active)
        }
        other => return Err(unexpected("id, score, name, active", other)),
    };
    let maybe = match fields.next() {
        Some(Field::Int(v)) => Some(v),
        Some(Field::Null) => None,
        other => return Err(unexpected("maybe", other)),
    };
    let note = match fields.next() {
        Some(Field::Str(v)) => Some(v),
        Some(Field::Null) => None,
        other => return Err(unexpected("note", other)),
    };
    let ts = match fields.next() {
        Some(Field::TimestampMillis(ms) | Field::Long(ms)) => millis_to_time(ms).ok_or_else(|| unexpected("ts", ms))?,
        other => return Err(unexpected("ts", other)),
    };
    let payload = match fields.next() {
        Some(Field::Bytes(b)) => b.data().to_vec(),
        other => return Err(unexpected("payload", other)),
    };
    Ok(Flat { id, score, name, active, maybe, note, ts, payload })
}
