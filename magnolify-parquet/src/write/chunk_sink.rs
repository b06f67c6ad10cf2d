//! The seam between the record writer and where encoded column chunks go:
//! a file, or a page store.

use parquet::column::page::PageWriter;
use parquet::column::writer::ColumnCloseResult;

use crate::error::Result;

/// Where the column chunks of each row group go as they are encoded.
///
/// [`RecordWriter`](super::RecordWriter) asks for one page writer per leaf
/// column when a row group starts, encodes pages into them, and hands the
/// columns' close results over when the row group ends. The file writer
/// and [`MemPageStore`](crate::mem::MemPageStore) are the two sinks the
/// library has.
pub trait ChunkSink {
    /// The page writer of leaf column `column` of the row group starting.
    fn page_writer(&mut self, column: usize) -> Box<dyn PageWriter + Send>;

    /// The row group's `rows` rows are encoded; `columns` holds each leaf
    /// column's close result, in leaf order.
    fn end_row_group(&mut self, rows: usize, columns: Vec<ColumnCloseResult>) -> Result<()>;
}
