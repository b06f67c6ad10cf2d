//! The seam between the record reader and where pages come from: a file's
//! row groups, or a page store's.

use std::sync::atomic::AtomicU64;
use std::sync::Arc;

use parquet::column::page::PageReader;
use parquet::schema::types::SchemaDescriptor;

use crate::error::Result;

/// Row groups of stored columns, each a set of column chunks of the same
/// number of rows, handed out as decompressed pages.
///
/// [`RecordReader`](super::RecordReader) reads records from any source; the
/// file reader and [`MemPageStore`](crate::mem::MemPageStore) are the two
/// the library has.
pub trait RowGroupSource {
    /// The schema of the stored columns.
    fn schema(&self) -> &Arc<SchemaDescriptor>;

    /// Number of row groups.
    fn num_row_groups(&self) -> usize;

    /// Rows of row group `group`, as its metadata claims (checked against
    /// what its columns hold while reading).
    fn num_rows(&self, group: usize) -> Result<u64>;

    /// The pages of file column `column` in row group `group`. `levels`
    /// counts the levels the pages hand on; the reader resets it before each
    /// batch, and a source that distrusts its pages refuses a page that
    /// takes it past its limit.
    fn pages(&self, group: usize, column: usize, levels: Arc<AtomicU64>) -> Result<Box<dyn PageReader>>;
}
