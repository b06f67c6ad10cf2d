//! A table's name mapping (the property `schema.name-mapping.default`):
//! which field id a column of a given name has, for data files written
//! without ids (files imported into the table, as pyiceberg's `add_files`
//! does) and for record types without ids whose names are older than the
//! table's (a mapped field keeps every name it had).

use std::borrow::Cow;
use std::sync::Arc;

use iceberg::spec::{MappedField, NameMapping, TableMetadata, DEFAULT_SCHEMA_NAME_MAPPING};
use magnolify_parquet::convert::Annotation;
use magnolify_parquet::parquet::schema::types::{SchemaDescriptor, Type as ParquetType, TypePtr};
use magnolify_parquet::schema;

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

/// A data file's schema with the ids of `mapping` on the nodes that have
/// none (a file written with ids, or a table without a mapping, borrows
/// the file's as it is).
pub(crate) fn with_mapped_ids<'a>(file: &'a SchemaDescriptor, mapping: &Mapping) -> Result<Cow<'a, SchemaDescriptor>> {
    let root = file.root_schema();
    let has_ids = file.columns().iter().any(|c| c.self_type().get_basic_info().has_id());
    if mapping.fields().is_empty() || has_ids {
        return Ok(Cow::Borrowed(file));
    }
    let fields = root.get_fields().iter().map(|node| mapped(node, named(mapping.fields(), node.name())));
    let fields = fields.collect::<Result<Vec<_>>>()?;
    Ok(Cow::Owned(SchemaDescriptor::new(Arc::new(schema::rebuilt(root, root.name(), None, Some(fields))?))))
}

/// `node` with the id of `field`, its children with theirs.
fn mapped(node: &TypePtr, field: Option<&MappedField>) -> Result<TypePtr> {
    let id = field.and_then(MappedField::field_id);
    let ParquetType::GroupType { fields, .. } = &**node else {
        return Ok(Arc::new(schema::rebuilt(node, node.name(), id, None)?));
    };
    let level = below(field);
    let children = match Annotation::of(node) {
        // A list's repeated group is the element itself (two levels) or
        // holds it (three); a map's holds the key and the value. Their
        // names vary between writers: they are matched by position.
        Annotation::List => {
            let element = named(level, "element");
            let entries = fields.iter().map(|entry| match children_of(entry) {
                [only] if entry.is_group() => {
                    let inner = vec![mapped(only, element)?];
                    Ok(Arc::new(schema::rebuilt(entry, entry.name(), None, Some(inner))?))
                }
                _ => mapped(entry, element),
            });
            entries.collect::<Result<Vec<_>>>()?
        }
        Annotation::Map => {
            let pair = [named(level, "key"), named(level, "value")];
            let entries = fields.iter().map(|entry| {
                let inner = children_of(entry).iter().zip(pair).map(|(child, field)| mapped(child, field));
                let inner = inner.collect::<Result<Vec<_>>>()?;
                let inner = entry.is_group().then_some(inner);
                Ok(Arc::new(schema::rebuilt(entry, entry.name(), None, inner)?))
            });
            entries.collect::<Result<Vec<_>>>()?
        }
        _ => fields.iter().map(|child| mapped(child, named(level, child.name()))).collect::<Result<Vec<_>>>()?,
    };
    Ok(Arc::new(schema::rebuilt(node, node.name(), id, Some(children))?))
}

/// A group's children; none for a primitive (where a damaged file has one).
fn children_of(node: &ParquetType) -> &[TypePtr] {
    match node {
        ParquetType::GroupType { fields, .. } => fields,
        ParquetType::PrimitiveType { .. } => &[],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use magnolify_parquet::parquet::schema::parser::parse_message_type;

    fn ids(file: &SchemaDescriptor) -> Vec<(String, Option<i32>)> {
        let mut out = Vec::new();
        let mut stack: Vec<(String, TypePtr)> =
            file.root_schema().get_fields().iter().rev().map(|f| (f.name().to_owned(), f.clone())).collect();
        while let Some((path, node)) = stack.pop() {
            let info = node.get_basic_info();
            out.push((path.clone(), info.has_id().then(|| info.id())));
            for child in children_of(&node).iter().rev() {
                stack.push((format!("{path}.{}", child.name()), child.clone()));
            }
        }
        out
    }

    #[test]
    fn every_list_and_map_layout_takes_the_element_key_and_value_ids() {
        let file = parse_message_type(
            "message m {
                required int64 a;
                optional group three (LIST) { repeated group list { optional binary element (STRING); } }
                optional group two (LIST) { repeated int32 array; }
                optional group kv (MAP) { repeated group key_value { required binary key (STRING); optional int32 value; } }
                optional group broken (MAP) { repeated int32 key_value; }
                optional int32 unmapped;
            }",
        )
        .unwrap();
        let mapping: NameMapping = serde_json::from_str(
            r#"[{"field-id": 1, "names": ["a"]},
                {"field-id": 2, "names": ["three"], "fields": [{"field-id": 3, "names": ["element"]}]},
                {"field-id": 4, "names": ["two"], "fields": [{"field-id": 5, "names": ["element"]}]},
                {"field-id": 6, "names": ["kv"], "fields": [
                    {"field-id": 7, "names": ["key"]}, {"field-id": 8, "names": ["value"]}]},
                {"field-id": 9, "names": ["broken"], "fields": [{"field-id": 10, "names": ["key"]}]}]"#,
        )
        .unwrap();
        let mapping = Mapping::from(mapping);
        let file = SchemaDescriptor::new(Arc::new(file));
        let mapped = with_mapped_ids(&file, &mapping).unwrap();
        let expected = [
            ("a", Some(1)),
            ("three", Some(2)),
            ("three.list", None),
            ("three.list.element", Some(3)),
            ("two", Some(4)),
            ("two.array", Some(5)),
            ("kv", Some(6)),
            ("kv.key_value", None),
            ("kv.key_value.key", Some(7)),
            ("kv.key_value.value", Some(8)),
            ("broken", Some(9)),
            ("broken.key_value", None),
            ("unmapped", None),
        ];
        let expected: Vec<_> = expected.iter().map(|(p, id)| (p.to_string(), *id)).collect();
        assert_eq!(ids(&mapped), expected);
    }

    #[test]
    fn a_file_with_ids_keeps_them() {
        let file = parse_message_type("message m { required int64 a = 7; optional int32 b; }").unwrap();
        let mapping: NameMapping = serde_json::from_str(r#"[{"field-id": 1, "names": ["a", "b"]}]"#).unwrap();
        let mapping = Mapping::from(mapping);
        let file = SchemaDescriptor::new(Arc::new(file));
        let mapped = with_mapped_ids(&file, &mapping).unwrap();
        assert_eq!(ids(&mapped), [("a".to_owned(), Some(7)), ("b".to_owned(), None)]);
        assert!(matches!(mapped, Cow::Borrowed(_)), "a file with ids is not copied");
    }
}
