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
    /// The data file this converter was made for, with its schema renamed
    /// ([`TableColumns::for_file`]), so that reading it does not rename it
    /// again.
    file: Option<RenamedFile>,
    derived: Derived<T>,
}

/// A data file's schema and the same schema renamed to `T`'s fields.
#[derive(Clone)]
struct RenamedFile {
    schema: Arc<SchemaDescriptor>,
    renamed: Arc<SchemaDescriptor>,
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
    pub(crate) fn for_file(mut self, file: &Arc<SchemaDescriptor>) -> magnolify_parquet::Result<(Self, bool)> {
        let renamed = self.renamed(file)?;
        let same_names = renamed.columns().iter().zip(file.columns()).all(|(a, b)| a.path() == b.path());
        self.file = Some(RenamedFile { schema: Arc::clone(file), renamed: Arc::new(renamed) });
        Ok((self, same_names))
    }
}

impl<T> TableColumns<T> {
    /// The path in the data file this converter was made for
    /// ([`for_file`](Self::for_file)) of the column `T`'s fields have at
    /// `path`: the file's name for the column with the field's id. `None`
    /// without a file, for a column the file lacks, or one named twice.
    pub(crate) fn file_path(&self, path: &[String]) -> Option<Vec<String>> {
        let file = self.file.as_ref()?;
        let mut found =
            file.renamed.columns().iter().zip(file.schema.columns()).filter(|(r, _)| r.path().parts() == path);
        let (_, column) = found.next()?;
        match found.next() {
            Some(_) => None,
            None => Some(column.path().parts().to_vec()),
        }
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
        // The renamed schema stands only for the schema it was made from
        // (compared, once per file); any other is renamed here.
        let renamed = match &self.file {
            Some(made) if made.schema.root_schema() == file.root_schema() => Arc::clone(&made.renamed),
            _ => Arc::new(self.renamed(file)?),
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

#[cfg(test)]
mod tests {
    use iceberg::spec::NameMapping;
    use magnolify_parquet::parquet::schema::parser::parse_message_type;
    use magnolify_parquet::ParquetType;

    use super::*;

    #[derive(ParquetType, Debug, PartialEq)]
    struct Row {
        a2: i64,
    }

    fn schema(message: &str) -> Arc<SchemaDescriptor> {
        Arc::new(SchemaDescriptor::new(Arc::new(parse_message_type(message).unwrap())))
    }

    #[test]
    fn a_converter_made_for_one_file_renames_the_schema_of_another_it_is_given() {
        let message = Arc::new(parse_message_type("message Row { required int64 a2 = 1; }").unwrap());
        let mapping = Mapping::from(serde_json::from_str::<NameMapping>("[]").unwrap());
        // Field 1 is the first column of one file and the second of the other.
        let first = schema("message m { required int64 a = 1; }");
        let second = schema("message m { required int64 a = 9; required int64 x = 1; }");
        let (columns, same_names) = TableColumns::<Row>::new(message, mapping).for_file(&first).unwrap();
        assert!(!same_names);
        assert_eq!(columns.resolve(&first).unwrap().1, [0]);
        // Not the first file's renamed schema, whose column 0 is field 1.
        assert_eq!(columns.resolve(&second).unwrap().1, [1]);
    }
}
