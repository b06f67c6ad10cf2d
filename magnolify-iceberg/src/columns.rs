//! The converter a table's data files are written and read with: the
//! record type's own, with the table's field ids.

use std::sync::Arc;

use magnolify_parquet::convert::{RecordReadOwned, RecordSource};
use magnolify_parquet::parquet::file::metadata::KeyValue;
use magnolify_parquet::parquet::schema::types::{SchemaDescriptor, TypePtr};
use magnolify_parquet::{BloomFilterSpec, Derived, OwnedRecord, RecordRead, RecordSchema, RecordWrite};

use crate::error::Error;
use crate::field_ids::renamed_by_id;
use crate::name_mapping::Mapping;

/// Records of `T` in a table's data files: written with the table's field
/// id on every column, read by matching the file's ids to `T`'s fields (a
/// column renamed in the table reads into the field that has its id).
///
/// [`TableWriter`](crate::TableWriter) and [`TableScan`](crate::TableScan)
/// make it; it is public so that writer settings
/// ([`TableWriterBuilder::files`](crate::TableWriterBuilder::files)) can
/// name the writer's type.
pub struct TableColumns<T> {
    /// `T`'s message with the table's ids (fields the table lacks have none).
    message: TypePtr,
    /// The ids of columns in files written without them.
    mapping: Mapping,
    /// The schema of the one data file this converter reads, already
    /// renamed ([`TableColumns::for_file`]), so that reading it does not
    /// rename it again.
    file: Option<Arc<SchemaDescriptor>>,
    derived: Derived<T>,
}

impl<T> TableColumns<T> {
    pub(crate) fn new(message: TypePtr, mapping: Mapping) -> Self {
        TableColumns { message, mapping, file: None, derived: Derived::new() }
    }

    /// `T`'s message with the table's ids.
    pub(crate) fn message(&self) -> &TypePtr {
        &self.message
    }

    /// A data file's schema with its columns named as `T`'s fields that
    /// have their ids (from the file, or from the table's name mapping for
    /// a file written without ids).
    fn renamed(&self, file: &SchemaDescriptor) -> magnolify_parquet::Result<SchemaDescriptor> {
        let renamed = renamed_by_id(file, &self.mapping, &self.message);
        // Renaming fails only on the file's schema (`Schema`) or in the
        // library (`Parquet`); the reader's error keeps either as it is.
        renamed.map_err(|e| match e {
            Error::Parquet(e) => e,
            Error::Schema { field, message } => magnolify_parquet::Error::schema(&field, message),
            other => magnolify_parquet::Error::argument(other.to_string()),
        })
    }

    /// This converter for the one data file whose schema is `file`, renamed
    /// here once, and whether every column kept its name (the library's
    /// reader prunes by column names, so a predicate can go to it only
    /// then).
    pub(crate) fn for_file(mut self, file: &SchemaDescriptor) -> magnolify_parquet::Result<(Self, bool)> {
        let renamed = self.renamed(file)?;
        let same_names = renamed.columns().iter().zip(file.columns()).all(|(a, b)| a.path() == b.path());
        self.file = Some(Arc::new(renamed));
        Ok((self, same_names))
    }
}

impl<T> Clone for TableColumns<T> {
    fn clone(&self) -> Self {
        TableColumns {
            message: self.message.clone(),
            mapping: self.mapping.clone(),
            file: self.file.clone(),
            derived: self.derived,
        }
    }
}

impl<T> std::fmt::Debug for TableColumns<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TableColumns<{}>", std::any::type_name::<T>())
    }
}

impl<T: OwnedRecord> RecordSchema for TableColumns<T> {
    fn schema(&self) -> magnolify_parquet::Result<TypePtr> {
        Ok(self.message.clone())
    }

    fn key_value_metadata(&self) -> Vec<KeyValue> {
        self.derived.key_value_metadata()
    }

    fn bloom_filters(&self) -> Vec<(String, BloomFilterSpec)> {
        self.derived.bloom_filters()
    }
}

impl<T: OwnedRecord> RecordWrite for TableColumns<T> {
    type Record<'a> = T;

    #[inline]
    fn write(&self, record: &T, sink: &mut magnolify_parquet::convert::ColumnSink) -> magnolify_parquet::Result<()> {
        self.derived.write(record, sink)
    }
}

impl<T: OwnedRecord> RecordRead for TableColumns<T> {
    type Record<'de> = T;
    type ReadPlan = <Derived<T> as RecordRead>::ReadPlan;

    fn resolve(&self, file: &SchemaDescriptor) -> magnolify_parquet::Result<(Self::ReadPlan, Vec<usize>)> {
        let renamed = match &self.file {
            Some(renamed) => Arc::clone(renamed),
            None => Arc::new(self.renamed(file)?),
        };
        self.derived.resolve(&renamed)
    }

    #[inline]
    fn read<'de>(&self, plan: &Self::ReadPlan, source: &mut RecordSource<'de>) -> magnolify_parquet::Result<T> {
        self.derived.read(plan, source)
    }
}

impl<T: OwnedRecord> RecordReadOwned for TableColumns<T> {
    type Owned = T;
}
