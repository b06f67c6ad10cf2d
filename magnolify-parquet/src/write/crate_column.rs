//! A column left to the `parquet` crate's column writer: the encodings
//! this library does not write itself (DELTA_*, BYTE_STREAM_SPLIT, the v2
//! defaults for integers and byte arrays, content-defined chunking).

use bytes::Bytes;
use parquet::column::page::PageWriter;
use parquet::column::writer::{get_column_writer, ColumnCloseResult, ColumnWriter};
use parquet::data_type::{ByteArray, FixedLenByteArray};
use parquet::errors::{ParquetError, Result as ParquetResult};
use parquet::file::properties::WriterPropertiesPtr;
use parquet::schema::types::ColumnDescPtr;

use crate::values::{ByteBuffer, ColumnValues};

/// The crate's column writer of one column.
pub(crate) struct CrateColumn {
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

impl CrateColumn {
    pub(crate) fn new(descr: ColumnDescPtr, props: &WriterPropertiesPtr, pages: Box<dyn PageWriter + Send>) -> Self {
        CrateColumn {
            shared_budget: if props.dictionary_enabled(descr.path()) { SHARED_BUDGET } else { usize::MAX },
            writer: get_column_writer(descr, props.clone(), pages),
            bytes: Vec::new(),
            fixed: Vec::new(),
        }
    }

    /// Writes a batch of whole records: levels (for a column that has them)
    /// and dense values.
    pub(crate) fn write(
        &mut self,
        def: Option<&[i16]>,
        rep: Option<&[i16]>,
        values: &mut ColumnValues,
    ) -> ParquetResult<()> {
        let written = match (&mut self.writer, values) {
            (ColumnWriter::BoolColumnWriter(w), ColumnValues::Bool(v)) => w.write_batch(v, def, rep),
            (ColumnWriter::Int32ColumnWriter(w), ColumnValues::I32(v)) => w.write_batch(v, def, rep),
            (ColumnWriter::Int64ColumnWriter(w), ColumnValues::I64(v)) => w.write_batch(v, def, rep),
            (ColumnWriter::Int96ColumnWriter(w), ColumnValues::I96(v)) => w.write_batch(v, def, rep),
            (ColumnWriter::FloatColumnWriter(w), ColumnValues::F32(v)) => w.write_batch(v, def, rep),
            (ColumnWriter::DoubleColumnWriter(w), ColumnValues::F64(v)) => w.write_batch(v, def, rep),
            (ColumnWriter::ByteArrayColumnWriter(w), ColumnValues::Bytes(b)) => {
                fill_byte_arrays(b, &mut self.shared_budget, &mut self.bytes);
                let r = w.write_batch(&self.bytes, def, rep);
                self.bytes.clear();
                r
            }
            (ColumnWriter::FixedLenByteArrayColumnWriter(w), ColumnValues::Fixed(b, _)) => {
                fill_byte_arrays(b, &mut self.shared_budget, &mut self.bytes);
                self.fixed.extend(self.bytes.drain(..).map(FixedLenByteArray::from));
                let r = w.write_batch(&self.fixed, def, rep);
                self.fixed.clear();
                r
            }
            _ => return Err(ParquetError::General("column writer and buffer disagree on the physical type".into())),
        };
        written.map(|_| ())
    }

    pub(crate) fn close(self) -> ParquetResult<ColumnCloseResult> {
        self.writer.close()
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
