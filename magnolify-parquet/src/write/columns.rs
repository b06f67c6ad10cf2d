//! Hands the buffered triplets of whole records to the `parquet` crate's
//! column writers, one `write_batch` per leaf and batch.

use bytes::Bytes;
use parquet::column::page::PageWriter;
use parquet::column::writer::{get_column_writer, ColumnCloseResult, ColumnWriter};
use parquet::data_type::{ByteArray, FixedLenByteArray};
use parquet::file::properties::WriterPropertiesPtr;
use parquet::schema::types::SchemaDescriptor;

use crate::error::{Error, Location, Result};
use crate::shred::ColumnSink;
use crate::values::{ByteBuffer, ColumnValues};

/// One column writer per leaf, over page writers chosen by the caller (the
/// in-memory store or a file's row-group buffer).
pub(crate) struct ColumnWriters {
    writers: Vec<Column>,
}

struct Column {
    writer: ColumnWriter<'static>,
    /// Bytes of batch buffers that may still be handed out as shared slices.
    /// The dictionary encoder keeps the values it interns, so a slice of a
    /// batch keeps that whole batch alive until the chunk is closed: shared
    /// slices (one allocation per batch) are used up to this budget, owned
    /// copies (one allocation per value) after it. Without a dictionary
    /// nothing is kept, and the budget is unlimited.
    shared_budget: usize,
    bytes: Vec<ByteArray>,
    fixed: Vec<FixedLenByteArray>,
}

impl ColumnWriters {
    pub(crate) fn new(
        schema: &SchemaDescriptor,
        props: &WriterPropertiesPtr,
        mut page_writer: impl FnMut(usize) -> Box<dyn PageWriter>,
    ) -> Self {
        let writers = schema
            .columns()
            .iter()
            .enumerate()
            .map(|(i, descr)| Column {
                writer: get_column_writer(descr.clone(), props.clone(), page_writer(i)),
                shared_budget: if props.dictionary_enabled(descr.path()) { SHARED_BUDGET } else { usize::MAX },
                bytes: Vec::new(),
                fixed: Vec::new(),
            })
            .collect();
        ColumnWriters { writers }
    }

    /// Writes every buffered record and clears the sink.
    pub(crate) fn write(&mut self, sink: &mut ColumnSink) -> Result<()> {
        if sink.records == 0 {
            return Ok(());
        }
        for (column, leaf) in self.writers.iter_mut().zip(&mut sink.leaves) {
            // The parquet crate trusts levels (an out-of-range one panics in
            // its histograms): a converter bug must be an error instead.
            if let Some(d) = leaf.def.iter().find(|d| !(0..=leaf.max_def).contains(*d)) {
                return Err(Error::bug(
                    Location::column(&leaf.path),
                    format!("the converter wrote definition level {d} outside 0..={}", leaf.max_def),
                ));
            }
            if let Some(r) = leaf.rep.iter().find(|r| !(0..=leaf.max_rep).contains(*r)) {
                return Err(Error::bug(
                    Location::column(&leaf.path),
                    format!("the converter wrote repetition level {r} outside 0..={}", leaf.max_rep),
                ));
            }
            let def = (leaf.max_def > 0).then_some(leaf.def.as_slice());
            let rep = (leaf.max_rep > 0).then_some(leaf.rep.as_slice());
            let written = match (&mut column.writer, &mut leaf.values) {
                (ColumnWriter::BoolColumnWriter(w), ColumnValues::Bool(v)) => w.write_batch(v, def, rep),
                (ColumnWriter::Int32ColumnWriter(w), ColumnValues::I32(v)) => w.write_batch(v, def, rep),
                (ColumnWriter::Int64ColumnWriter(w), ColumnValues::I64(v)) => w.write_batch(v, def, rep),
                (ColumnWriter::Int96ColumnWriter(w), ColumnValues::I96(v)) => w.write_batch(v, def, rep),
                (ColumnWriter::FloatColumnWriter(w), ColumnValues::F32(v)) => w.write_batch(v, def, rep),
                (ColumnWriter::DoubleColumnWriter(w), ColumnValues::F64(v)) => w.write_batch(v, def, rep),
                (ColumnWriter::ByteArrayColumnWriter(w), ColumnValues::Bytes(b)) => {
                    fill_byte_arrays(b, &mut column.shared_budget, &mut column.bytes);
                    let r = w.write_batch(&column.bytes, def, rep);
                    column.bytes.clear();
                    r
                }
                (ColumnWriter::FixedLenByteArrayColumnWriter(w), ColumnValues::Fixed(b, _)) => {
                    fill_byte_arrays(b, &mut column.shared_budget, &mut column.bytes);
                    column.fixed.extend(column.bytes.drain(..).map(FixedLenByteArray::from));
                    let r = w.write_batch(&column.fixed, def, rep);
                    column.fixed.clear();
                    r
                }
                _ => {
                    return Err(Error::bug(
                        Location::column(&leaf.path),
                        "column writer and buffer disagree on the physical type",
                    ))
                }
            };
            written.map_err(|e| Error::parquet(Location::column(&leaf.path), e))?;
            leaf.clear();
        }
        sink.records = 0;
        Ok(())
    }

    /// Closes every column writer, in leaf order.
    pub(crate) fn close(self) -> Result<Vec<ColumnCloseResult>> {
        self.writers
            .into_iter()
            .map(|c| {
                let path = c.writer_path();
                c.writer.close().map_err(|e| Error::parquet(Location::column(path), e))
            })
            .collect()
    }
}

impl Column {
    fn writer_path(&self) -> String {
        macro_rules! path {
            ($($v:ident),*) => {
                match &self.writer { $(ColumnWriter::$v(w) => w.get_descriptor().path().string(),)* }
            };
        }
        path!(
            BoolColumnWriter,
            Int32ColumnWriter,
            Int64ColumnWriter,
            Int96ColumnWriter,
            FloatColumnWriter,
            DoubleColumnWriter,
            ByteArrayColumnWriter,
            FixedLenByteArrayColumnWriter
        )
    }
}

/// Most bytes of batch buffers a dictionary column may keep alive through
/// shared slices, per column chunk.
const SHARED_BUDGET: usize = 4 << 20;

/// Turns a batch's contiguous bytes into `ByteArray`s: slices of one shared
/// buffer (one allocation per batch) while `budget` allows, else owned copies.
fn fill_byte_arrays(buffer: &mut ByteBuffer, budget: &mut usize, out: &mut Vec<ByteArray>) {
    out.clear();
    out.reserve(buffer.len());
    let mut start = 0;
    let len = buffer.data().len();
    if len <= *budget {
        *budget -= len;
        // The next batch is likely as large: give it the room at once.
        let data = Bytes::from(buffer.take_data(len));
        for &end in buffer.ends() {
            out.push(ByteArray::from(data.slice(start..end)));
            start = end;
        }
    } else {
        for &end in buffer.ends() {
            out.push(ByteArray::from(Bytes::copy_from_slice(&buffer.data()[start..end])));
            start = end;
        }
    }
}
