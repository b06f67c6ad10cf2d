//! The floor: code written by hand for one record type, with no library
//! traits. Writing fills per-column value and level vectors and calls the
//! `parquet` crate's `write_batch`; reading calls `read_records` into
//! per-column vectors and builds the records by hand. It is the least work
//! any typed layer over the same column writers and readers can do.

pub mod flat;
pub mod nested;
pub mod pages;

use std::sync::Arc;

use parquet::column::page::Page;
use parquet::column::reader::ColumnReaderImpl;
use parquet::column::writer::ColumnWriterImpl;
use parquet::data_type::{ByteArray, DataType};
use parquet::errors::{ParquetError, Result};
use parquet::file::properties::WriterPropertiesPtr;
use parquet::schema::parser::parse_message_type;
use parquet::schema::types::SchemaDescriptor;

use magnolify_parquet::__decode::PageQueue;
use pages::{PageCollector, SharedPages};

/// Records per `write_batch` / `read_records` call: the library's batch, so
/// both cut pages at the same places.
pub const BATCH: usize = 1024;

/// The pages of every leaf column of a run of records.
#[derive(Clone, Debug)]
pub struct ColumnPages {
    /// The schema the pages were written with.
    pub schema: Arc<SchemaDescriptor>,
    /// Pages of each leaf, in leaf order.
    pub columns: Vec<Vec<Page>>,
    /// Number of records.
    pub rows: usize,
}

/// The schema descriptor of a message written as text.
pub fn descriptor(message: &str) -> Result<Arc<SchemaDescriptor>> {
    Ok(Arc::new(SchemaDescriptor::new(Arc::new(parse_message_type(message)?))))
}

/// Where the column writers of one run put their pages.
pub struct PageSinks {
    schema: Arc<SchemaDescriptor>,
    props: WriterPropertiesPtr,
    pages: Vec<SharedPages>,
}

impl PageSinks {
    /// One page list per leaf of `schema`; pages are kept uncompressed, as
    /// the library's page store keeps them.
    pub fn new(schema: &Arc<SchemaDescriptor>, props: &WriterPropertiesPtr) -> Self {
        let pages = (0..schema.num_columns()).map(|_| SharedPages::default()).collect();
        PageSinks { schema: schema.clone(), props: props.clone(), pages }
    }

    /// A typed column writer for leaf `leaf`. The caller names the type that
    /// its hand-written schema gives the leaf.
    pub fn writer<T: DataType>(&self, leaf: usize) -> ColumnWriterImpl<'static, T> {
        let pages = PageCollector::new(self.pages[leaf].clone());
        ColumnWriterImpl::<T>::new(self.schema.column(leaf), self.props.clone(), Box::new(pages))
    }

    /// The collected pages (call after closing every writer).
    pub fn finish(self, rows: usize) -> ColumnPages {
        let columns = self.pages.iter().map(pages::take).collect();
        ColumnPages { schema: self.schema, columns, rows }
    }
}

impl ColumnPages {
    /// A typed column reader over leaf `leaf`'s pages.
    pub fn reader<T: DataType>(&self, leaf: usize) -> ColumnReaderImpl<T> {
        let pages = self.columns.get(leaf).map_or(&[][..], Vec::as_slice);
        ColumnReaderImpl::<T>::new(self.schema.column(leaf), Box::new(PageQueue::new(pages.iter().cloned())))
    }
}

/// A string value for a BYTE_ARRAY (STRING) column.
#[inline]
pub fn string_value(s: &str) -> ByteArray {
    ByteArray::from(s)
}

/// A string read from a BYTE_ARRAY (STRING) column, UTF-8 checked.
#[inline]
pub fn read_string(value: &ByteArray, column: &str) -> Result<String> {
    std::str::from_utf8(value.data())
        .map(str::to_owned)
        .map_err(|e| ParquetError::General(format!("{column}: invalid UTF-8: {e}")))
}

/// The error of a value missing from a column where the levels promised one.
pub fn missing(column: &str) -> ParquetError {
    ParquetError::General(format!("{column}: fewer values than the levels announce"))
}

/// Checks that a batch read the same number of records from every column.
pub fn same_records(column: &str, got: usize, expected: usize) -> Result<()> {
    if got == expected {
        Ok(())
    } else {
        Err(ParquetError::General(format!("{column}: {got} records where the other columns had {expected}")))
    }
}
