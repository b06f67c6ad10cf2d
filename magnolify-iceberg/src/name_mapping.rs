//! A table's name mapping (the property `schema.name-mapping.default`):
//! which field id a column of a given name has, for data files written
//! without ids (files imported into the table, as pyiceberg's `add_files`
//! does) and for record types without ids whose names are older than the
//! table's (a mapped field keeps every name it had).

use std::sync::Arc;

use iceberg::spec::{MappedField, NameMapping, TableMetadata, DEFAULT_SCHEMA_NAME_MAPPING};

use crate::error::{Error, Result};

/// The mapped fields of one level (a struct's fields, or an element, key
/// and value).
pub(crate) type Level = [Arc<MappedField>];

/// The top level of a table's name mapping.
#[derive(Clone, Debug, Default)]
pub(crate) struct Mapping(Arc<Vec<Arc<MappedField>>>);

impl Mapping {
    /// The mapping of the table `table` whose metadata is `metadata`; empty
    /// when it has none.
    pub(crate) fn of(metadata: &TableMetadata, table: &str) -> Result<Mapping> {
        let Some(json) = metadata.properties().get(DEFAULT_SCHEMA_NAME_MAPPING) else {
            return Ok(Mapping::default());
        };
        let mapping: NameMapping = serde_json::from_str(json).map_err(|e| {
            Error::table(table, format!("its `{DEFAULT_SCHEMA_NAME_MAPPING}` is not a name mapping: {e}"))
        })?;
        Ok(Mapping::from(mapping))
    }

    /// The top level's fields.
    pub(crate) fn fields(&self) -> &Level {
        &self.0
    }
}

impl From<NameMapping> for Mapping {
    fn from(mapping: NameMapping) -> Mapping {
        Mapping(Arc::new(mapping.fields().iter().cloned().map(Arc::new).collect()))
    }
}

/// The field of `level` that has had the name `name`.
pub(crate) fn named<'a>(level: &'a Level, name: &str) -> Option<&'a MappedField> {
    level.iter().find(|f| f.names().iter().any(|n| n == name)).map(|f| &**f)
}

/// The fields below `field` (none for no field).
pub(crate) fn below(field: Option<&MappedField>) -> &Level {
    field.map_or(&[][..], |f| f.fields())
}
