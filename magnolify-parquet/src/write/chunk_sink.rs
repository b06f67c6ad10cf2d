//! The seam between the record writer and where encoded column chunks go:
//! a file, or a page store.

use parquet::column::page::{CompressedPage, PageWriteSpec, PageWriter};
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

/// What a page writer that keeps pages in memory reports for `page`, written
/// at `*offset` (which moves past it): the store's and the tests' writers.
pub(crate) fn page_spec(page: &CompressedPage, offset: &mut u64) -> PageWriteSpec {
    let mut spec = PageWriteSpec::new();
    spec.page_type = page.page_type();
    spec.uncompressed_size = page.uncompressed_size();
    spec.compressed_size = page.compressed_size();
    spec.num_values = page.num_values();
    spec.offset = *offset;
    spec.bytes_written = page.compressed_size() as u64;
    *offset += spec.bytes_written;
    spec
}
