//! The column writers of a row group, one per leaf: this library's
//! encoder where it writes the column's encodings, the `parquet` crate's
//! column writer otherwise. Both take batches of whole records from the
//! shredder.

use std::sync::Arc;

use parquet::column::page::PageWriter;
use parquet::column::writer::ColumnCloseResult;
use parquet::file::properties::WriterPropertiesPtr;
use parquet::schema::types::SchemaDescriptor;

use super::crate_column::CrateColumn;
use super::encode::ChunkEncoder;
use crate::error::{Error, Location, Result};
use crate::shred::ColumnSink;

/// The writer of one column chunk.
enum Column {
    Own(Box<ChunkEncoder>),
    Crate(Box<CrateColumn>),
}

/// One column writer per leaf, over page writers chosen by the caller (the
/// in-memory store or a file's row-group buffer).
pub(crate) struct ColumnWriters {
    columns: Vec<(Column, String)>,
}

impl ColumnWriters {
    pub(crate) fn new(
        schema: &SchemaDescriptor,
        props: &WriterPropertiesPtr,
        mut page_writer: impl FnMut(usize) -> Box<dyn PageWriter>,
    ) -> Result<Self> {
        let columns = schema
            .columns()
            .iter()
            .enumerate()
            .map(|(i, descr)| {
                let path = descr.path().string();
                let pages = page_writer(i);
                let column = if ChunkEncoder::supports(descr, props) {
                    ChunkEncoder::new(descr.clone(), Arc::clone(props), pages)
                        .map(|e| Column::Own(Box::new(e)))
                        .map_err(|e| Error::parquet(Location::column(&path), e))?
                } else {
                    Column::Crate(Box::new(CrateColumn::new(descr.clone(), props, pages)))
                };
                Ok((column, path))
            })
            .collect::<Result<_>>()?;
        Ok(ColumnWriters { columns })
    }

    /// Writes every buffered record and clears the sink.
    pub(crate) fn write(&mut self, sink: &mut ColumnSink) -> Result<()> {
        if sink.records == 0 {
            return Ok(());
        }
        for ((column, path), leaf) in self.columns.iter_mut().zip(&mut sink.leaves) {
            // The encoders trust levels (an out-of-range one would make a
            // file no reader accepts): a converter bug must be an error instead.
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
            let written = match column {
                Column::Own(encoder) => encoder.write(&leaf.def, &leaf.rep, &leaf.values),
                Column::Crate(writer) => {
                    let def = (leaf.max_def > 0).then_some(leaf.def.as_slice());
                    let rep = (leaf.max_rep > 0).then_some(leaf.rep.as_slice());
                    writer.write(def, rep, &mut leaf.values)
                }
            };
            written.map_err(|e| Error::parquet(Location::column(path.as_str()), e))?;
            leaf.clear();
        }
        sink.records = 0;
        Ok(())
    }

    /// Closes every column writer, in leaf order.
    pub(crate) fn close(self) -> Result<Vec<ColumnCloseResult>> {
        self.columns
            .into_iter()
            .map(|(column, path)| {
                let closed = match column {
                    Column::Own(encoder) => encoder.close(),
                    Column::Crate(writer) => writer.close(),
                };
                closed.map_err(|e| Error::parquet(Location::column(path), e))
            })
            .collect()
    }
}
