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

/// A source of any kind, as readers that do not care which hold it.
pub(crate) type BoxedSource = Box<dyn RowGroupSource + Send + Sync>;

impl<S: RowGroupSource + ?Sized> RowGroupSource for Box<S> {
    fn schema(&self) -> &Arc<SchemaDescriptor> {
        (**self).schema()
    }
    fn num_row_groups(&self) -> usize {
        (**self).num_row_groups()
    }
    fn num_rows(&self, group: usize) -> Result<u64> {
        (**self).num_rows(group)
    }
    fn pages(&self, group: usize, column: usize) -> Result<Box<dyn PageReader>> {
        (**self).pages(group, column)
    }
    fn max_levels(&self) -> u64 {
        (**self).max_levels()
    }
}

/// What turns one source into another with more leaves after its own: a
/// dataset's partition fields, which a file's path holds and its pages do
/// not. The readers put it over the file's row groups without knowing
/// what it adds.
pub(crate) trait SourceLayer: Send + Sync {
    /// The schema of the source it makes (the inner one's leaves first).
    fn schema(&self) -> &Arc<SchemaDescriptor>;

    /// `inner`, with this layer's leaves added.
    fn over(&self, inner: BoxedSource) -> BoxedSource;
}
