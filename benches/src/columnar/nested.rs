//! The floor for [`Nested`]: its 12 leaves written and read by hand.
//!
//! Leaves come in four parts of three (`b`, `i`, `s`): the top-level
//! fields, `r`, `o` and `l.array`. A part's three leaves share their levels,
//! which hand-written code can exploit and a general library cannot.

use std::slice::Iter;

use parquet::column::reader::ColumnReaderImpl;
use parquet::column::writer::ColumnWriterImpl;
use parquet::data_type::{BoolType, ByteArray, ByteArrayType, Int32Type};
use parquet::errors::{ParquetError, Result};
use parquet::file::properties::WriterPropertiesPtr;

use super::{descriptor, missing, read_string, same_records, string_value, ColumnPages, PageSinks, BATCH};
use crate::nested::{Nested, Required, NESTED_MESSAGE};

/// First leaf of each part: top, `r`, `o`, `l.array`.
const PARTS: [usize; 4] = [0, 3, 6, 9];

/// Values and levels of one part for a batch.
#[derive(Default)]
struct PartBuffers {
    b: Vec<bool>,
    i: Vec<i32>,
    s: Vec<ByteArray>,
    def: Vec<i16>,
    rep: Vec<i16>,
}

impl PartBuffers {
    #[inline]
    fn push(&mut self, b: bool, i: i32, s: &str) {
        self.b.push(b);
        self.i.push(i);
        self.s.push(string_value(s));
    }

    fn clear(&mut self) {
        self.b.clear();
        self.i.clear();
        self.s.clear();
        self.def.clear();
        self.rep.clear();
    }
}

/// Shreds one record into the four parts.
#[inline]
fn shred(rec: &Nested, [top, r, o, l]: &mut [PartBuffers; 4]) {
    top.push(rec.b, rec.i, &rec.s);
    r.push(rec.r.b, rec.r.i, &rec.r.s);
    match &rec.o {
        Some(x) => {
            o.def.push(1);
            o.push(x.b, x.i, &x.s);
        }
        None => o.def.push(0),
    }
    if rec.l.is_empty() {
        l.def.push(0);
        l.rep.push(0);
    }
    for (k, e) in rec.l.iter().enumerate() {
        l.def.push(1);
        l.rep.push(if k == 0 { 0 } else { 1 });
        l.push(e.b, e.i, &e.s);
    }
}

struct PartWriter {
    b: ColumnWriterImpl<'static, BoolType>,
    i: ColumnWriterImpl<'static, Int32Type>,
    s: ColumnWriterImpl<'static, ByteArrayType>,
}

impl PartWriter {
    fn new(sinks: &PageSinks, first: usize) -> Self {
        PartWriter { b: sinks.writer(first), i: sinks.writer(first + 1), s: sinks.writer(first + 2) }
    }

    fn write(&mut self, buf: &PartBuffers, def: bool, rep: bool) -> Result<()> {
        let d = def.then_some(buf.def.as_slice());
        let r = rep.then_some(buf.rep.as_slice());
        self.b.write_batch(&buf.b, d, r)?;
        self.i.write_batch(&buf.i, d, r)?;
        self.s.write_batch(&buf.s, d, r)?;
        Ok(())
    }

    fn close(self) -> Result<()> {
        self.b.close()?;
        self.i.close()?;
        self.s.close()?;
        Ok(())
    }
}

/// Writes `records` into pages kept in memory, with `props`.
pub fn write(records: &[Nested], props: &WriterPropertiesPtr) -> Result<ColumnPages> {
    let schema = descriptor(NESTED_MESSAGE)?;
    let sinks = PageSinks::new(&schema, props);
    let mut writers = PARTS.map(|first| PartWriter::new(&sinks, first));
    let mut parts: [PartBuffers; 4] = Default::default();
    for batch in records.chunks(BATCH) {
        parts.iter_mut().for_each(PartBuffers::clear);
        for rec in batch {
            shred(rec, &mut parts);
        }
        let [top, r, o, l] = &mut writers;
        top.write(&parts[0], false, false)?;
        r.write(&parts[1], false, false)?;
        o.write(&parts[2], true, false)?;
        l.write(&parts[3], true, true)?;
    }
    for w in writers {
        w.close()?;
    }
    Ok(sinks.finish(records.len()))
}

/// Readers and batch buffers of one part.
struct PartReader {
    name: &'static str,
    b: ColumnReaderImpl<BoolType>,
    i: ColumnReaderImpl<Int32Type>,
    s: ColumnReaderImpl<ByteArrayType>,
    vb: Vec<bool>,
    vi: Vec<i32>,
    vs: Vec<ByteArray>,
    def: [Vec<i16>; 3],
    rep: [Vec<i16>; 3],
}

impl PartReader {
    fn new(pages: &ColumnPages, first: usize, name: &'static str) -> Self {
        PartReader {
            name,
            b: pages.reader(first),
            i: pages.reader(first + 1),
            s: pages.reader(first + 2),
            vb: Vec::new(),
            vi: Vec::new(),
            vs: Vec::new(),
            def: Default::default(),
            rep: Default::default(),
        }
    }

    /// Reads up to `n` records of the three leaves; returns how many.
    fn read(&mut self, n: usize, def: bool, rep: bool) -> Result<usize> {
        self.vb.clear();
        self.vi.clear();
        self.vs.clear();
        self.def.iter_mut().chain(&mut self.rep).for_each(Vec::clear);
        let [d0, d1, d2] = &mut self.def;
        let [r0, r1, r2] = &mut self.rep;
        let (got, ..) = self.b.read_records(n, def.then_some(d0), rep.then_some(r0), &mut self.vb)?;
        same_records(self.name, self.i.read_records(n, def.then_some(d1), rep.then_some(r1), &mut self.vi)?.0, got)?;
        same_records(self.name, self.s.read_records(n, def.then_some(d2), rep.then_some(r2), &mut self.vs)?.0, got)?;
        if self.vb.len() != self.vi.len() || self.vb.len() != self.vs.len() {
            return Err(ParquetError::General(format!("{}: leaves hold different value counts", self.name)));
        }
        Ok(got)
    }

    fn values(&self) -> PartValues<'_> {
        PartValues { name: self.name, b: self.vb.iter(), i: self.vi.iter(), s: self.vs.iter() }
    }
}

/// The values of a part, taken in order while records are built.
struct PartValues<'a> {
    name: &'static str,
    b: Iter<'a, bool>,
    i: Iter<'a, i32>,
    s: Iter<'a, ByteArray>,
}

impl PartValues<'_> {
    #[inline]
    fn next(&mut self) -> Result<Required> {
        match (self.b.next(), self.i.next(), self.s.next()) {
            (Some(&b), Some(&i), Some(s)) => Ok(Required { b, i, s: read_string(s, self.name)? }),
            _ => Err(missing(self.name)),
        }
    }

    fn finish(mut self) -> Result<()> {
        match self.b.next() {
            None => Ok(()),
            Some(_) => Err(ParquetError::General(format!("{}: more values than the levels announce", self.name))),
        }
    }
}

/// Reads every record back from `pages`.
pub fn read(pages: &ColumnPages) -> Result<Vec<Nested>> {
    let mut top = PartReader::new(pages, PARTS[0], "Nested");
    let mut r = PartReader::new(pages, PARTS[1], "r");
    let mut o = PartReader::new(pages, PARTS[2], "o");
    let mut l = PartReader::new(pages, PARTS[3], "l.array");
    let mut out = Vec::with_capacity(pages.rows);
    loop {
        let n = top.read(BATCH, false, false)?;
        if n == 0 {
            return Ok(out);
        }
        same_records("r", r.read(n, false, false)?, n)?;
        same_records("o", o.read(n, true, false)?, n)?;
        same_records("l", l.read(n, true, true)?, n)?;
        let (mut tv, mut rv, mut ov, mut lv) = (top.values(), r.values(), o.values(), l.values());
        let (o_def, l_def, l_rep) = (&o.def[0], &l.def[0], &l.rep[0]);
        let mut pos = 0;
        for k in 0..n {
            let Required { b, i, s } = tv.next()?;
            let r = rv.next()?;
            let o = match o_def.get(k) {
                Some(1) => Some(ov.next()?),
                Some(_) => None,
                None => return Err(missing("o")),
            };
            let mut list = Vec::new();
            match l_def.get(pos) {
                Some(0) => pos += 1,
                Some(_) => {
                    list.push(lv.next()?);
                    pos += 1;
                    while l_rep.get(pos) == Some(&1) {
                        list.push(lv.next()?);
                        pos += 1;
                    }
                }
                None => return Err(missing("l")),
            }
            out.push(Nested { b, i, s, r, o, l: list });
        }
        tv.finish()?;
        rv.finish()?;
        ov.finish()?;
        lv.finish()?;
    }
}
