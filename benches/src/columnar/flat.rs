//! The floor for [`Flat`]: its 8 leaves written and read by hand.

use parquet::column::writer::ColumnWriterImpl;
use parquet::data_type::{BoolType, ByteArray, ByteArrayType, DoubleType, Int32Type, Int64Type};
use parquet::errors::{ParquetError, Result};
use parquet::file::properties::WriterPropertiesPtr;

use super::{descriptor, missing, read_string, same_records, string_value, ColumnPages, PageSinks, BATCH};
use crate::flat::{millis_to_time, time_to_millis, Flat, FLAT_MESSAGE};

/// One vector per leaf, plus the definition levels of the two optional ones.
#[derive(Default)]
struct Buffers {
    id: Vec<i64>,
    score: Vec<f64>,
    name: Vec<ByteArray>,
    active: Vec<bool>,
    maybe: Vec<i32>,
    maybe_def: Vec<i16>,
    note: Vec<ByteArray>,
    note_def: Vec<i16>,
    ts: Vec<i64>,
    payload: Vec<ByteArray>,
}

impl Buffers {
    fn clear(&mut self) {
        self.id.clear();
        self.score.clear();
        self.name.clear();
        self.active.clear();
        self.maybe.clear();
        self.maybe_def.clear();
        self.note.clear();
        self.note_def.clear();
        self.ts.clear();
        self.payload.clear();
    }

    #[inline]
    fn shred(&mut self, rec: &Flat) {
        self.id.push(rec.id);
        self.score.push(rec.score);
        self.name.push(string_value(&rec.name));
        self.active.push(rec.active);
        match rec.maybe {
            Some(v) => {
                self.maybe_def.push(1);
                self.maybe.push(v);
            }
            None => self.maybe_def.push(0),
        }
        match &rec.note {
            Some(v) => {
                self.note_def.push(1);
                self.note.push(string_value(v));
            }
            None => self.note_def.push(0),
        }
        self.ts.push(time_to_millis(&rec.ts));
        self.payload.push(ByteArray::from(rec.payload.clone()));
    }
}

/// Writes `records` into pages kept in memory, with `props`.
pub fn write(records: &[Flat], props: &WriterPropertiesPtr) -> Result<ColumnPages> {
    let schema = descriptor(FLAT_MESSAGE)?;
    let sinks = PageSinks::new(&schema, props);
    let mut id: ColumnWriterImpl<Int64Type> = sinks.writer(0);
    let mut score: ColumnWriterImpl<DoubleType> = sinks.writer(1);
    let mut name: ColumnWriterImpl<ByteArrayType> = sinks.writer(2);
    let mut active: ColumnWriterImpl<BoolType> = sinks.writer(3);
    let mut maybe: ColumnWriterImpl<Int32Type> = sinks.writer(4);
    let mut note: ColumnWriterImpl<ByteArrayType> = sinks.writer(5);
    let mut ts: ColumnWriterImpl<Int64Type> = sinks.writer(6);
    let mut payload: ColumnWriterImpl<ByteArrayType> = sinks.writer(7);
    let mut buf = Buffers::default();
    for batch in records.chunks(BATCH) {
        buf.clear();
        for rec in batch {
            buf.shred(rec);
        }
        id.write_batch(&buf.id, None, None)?;
        score.write_batch(&buf.score, None, None)?;
        name.write_batch(&buf.name, None, None)?;
        active.write_batch(&buf.active, None, None)?;
        maybe.write_batch(&buf.maybe, Some(&buf.maybe_def), None)?;
        note.write_batch(&buf.note, Some(&buf.note_def), None)?;
        ts.write_batch(&buf.ts, None, None)?;
        payload.write_batch(&buf.payload, None, None)?;
    }
    id.close()?;
    score.close()?;
    name.close()?;
    active.close()?;
    maybe.close()?;
    note.close()?;
    ts.close()?;
    payload.close()?;
    Ok(sinks.finish(records.len()))
}

/// Reads every record back from `pages`.
pub fn read(pages: &ColumnPages) -> Result<Vec<Flat>> {
    let mut r_id = pages.reader::<Int64Type>(0);
    let mut r_score = pages.reader::<DoubleType>(1);
    let mut r_name = pages.reader::<ByteArrayType>(2);
    let mut r_active = pages.reader::<BoolType>(3);
    let mut r_maybe = pages.reader::<Int32Type>(4);
    let mut r_note = pages.reader::<ByteArrayType>(5);
    let mut r_ts = pages.reader::<Int64Type>(6);
    let mut r_payload = pages.reader::<ByteArrayType>(7);
    let mut b = Buffers::default();
    let mut out = Vec::with_capacity(pages.rows);
    loop {
        b.clear();
        let (n, ..) = r_id.read_records(BATCH, None, None, &mut b.id)?;
        if n == 0 {
            return Ok(out);
        }
        same_records("score", r_score.read_records(n, None, None, &mut b.score)?.0, n)?;
        same_records("name", r_name.read_records(n, None, None, &mut b.name)?.0, n)?;
        same_records("active", r_active.read_records(n, None, None, &mut b.active)?.0, n)?;
        same_records("maybe", r_maybe.read_records(n, Some(&mut b.maybe_def), None, &mut b.maybe)?.0, n)?;
        same_records("note", r_note.read_records(n, Some(&mut b.note_def), None, &mut b.note)?.0, n)?;
        same_records("ts", r_ts.read_records(n, None, None, &mut b.ts)?.0, n)?;
        same_records("payload", r_payload.read_records(n, None, None, &mut b.payload)?.0, n)?;
        let required = [b.score.len(), b.name.len(), b.active.len(), b.ts.len(), b.payload.len()];
        if b.id.len() != n || required.iter().any(|&len| len != n) || b.maybe_def.len() != n || b.note_def.len() != n {
            return Err(ParquetError::General("Flat: a required column holds nulls".into()));
        }
        let (mut maybe, mut note) = (b.maybe.iter(), b.note.iter());
        for k in 0..n {
            let maybe = if b.maybe_def[k] == 1 { Some(*maybe.next().ok_or_else(|| missing("maybe"))?) } else { None };
            let note = if b.note_def[k] == 1 {
                Some(read_string(note.next().ok_or_else(|| missing("note"))?, "note")?)
            } else {
                None
            };
            let ts = millis_to_time(b.ts[k])
                .ok_or_else(|| ParquetError::General(format!("ts: {} ms is out of range", b.ts[k])))?;
            out.push(Flat {
                id: b.id[k],
                score: b.score[k],
                name: read_string(&b.name[k], "name")?,
                active: b.active[k],
                maybe,
                note,
                ts,
                payload: b.payload[k].data().to_vec(),
            });
        }
    }
}
