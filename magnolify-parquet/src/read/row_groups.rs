//! The seam between the record reader and where pages come from: a file's
//! row groups, or a page store's.

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

    /// The pages of file column `column` in row group `group`, decompressed.
    fn pages(&self, group: usize, column: usize) -> Result<Box<dyn PageReader>>;

    /// Most levels (values and nulls) of one column that the pages reached
    /// by one batch of records may hold: a source that distrusts its pages
    /// sets a limit, since run-length encoding lets a few bytes claim
    /// billions of levels. No limit by default.
    fn max_levels(&self) -> u64 {
        u64::MAX
    }
}
