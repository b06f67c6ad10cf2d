//! Field ids between a record type, a table and its files.
//!
//! A record type meets a table by field id (its `#[parquet(field_id)]`
//! attributes) or, for a field without one, by name: the column's name in
//! the schema read (a snapshot's own, when reading one), any name the
//! table's name mapping gives it, or its name now. Data files are written
//! with the table's ids on every node; a data file is read by renaming its
//! columns to the record type's names by id, so that the library's reader
//! (which matches by name) reads a renamed column into its field and a
//! dropped one into nothing.

use std::sync::Arc;

use iceberg::spec::{MappedField, NestedField, Schema, StructType, Type};
use magnolify_parquet::convert::Annotation;
use magnolify_parquet::parquet::basic::{LogicalType, Type as PhysicalType};
use magnolify_parquet::parquet::schema::types::{SchemaDescriptor, Type as ParquetType, TypePtr};
use magnolify_parquet::schema;

use crate::error::{Error, Result};
use crate::name_mapping::{below, named, Level, Mapping};
use crate::schema::schema_of;

/// Whether a field of the record type that the table lacks is an error
/// (writing) or a field read as missing (reading).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    Write,
    Read,
}

/// `message` (a record type's) with the ids of `table` on every node.
///
/// Writing, every field must be in the table with the same type, every
/// required column of the table must be a field, and a column the table
/// requires cannot be written from an `Option`. Reading, the fields the
/// table lacks keep no id (they read as missing).
pub(crate) fn with_table_ids(message: &ParquetType, table: &Schema, mapping: &Mapping, mode: Mode) -> Result<TypePtr> {
    with_ids(message, table, None, mapping, mode)
}

/// `message` with the ids of a snapshot's schema, `then`, for reading it.
///
/// A snapshot reads with the schema it was written with: a field's name
/// is looked up in `then` first (a name that belonged to another column
/// then follows the snapshot), then in the name mapping, then in the
/// table's schema `now` (a column renamed since the snapshot keeps its id);
/// the id found must be a column of `then`. A field none of them give a
/// column of `then` keeps no id: the snapshot lacks it, and it reads as
/// missing (`None`, its default, or an error naming a required field).
pub(crate) fn with_snapshot_ids(
    message: &ParquetType,
    then: &Schema,
    now: &Schema,
    mapping: &Mapping,
) -> Result<TypePtr> {
    with_ids(message, then, Some(now.as_struct()), mapping, Mode::Read)
}

fn with_ids(
    message: &ParquetType,
    table: &Schema,
    now: Option<&StructType>,
    mapping: &Mapping,
    mode: Mode,
) -> Result<TypePtr> {
    let own = schema_of(message)?;
    let level = mapping.fields();
    let tables = Tables { table: table.as_struct(), now };
    let fields = struct_children(message.get_fields(), own.as_struct(), tables, level, "", mode)?;
    let name = message.get_basic_info().name();
    let rebuilt = ParquetType::group_type_builder(name).with_fields(fields).build();
    Ok(Arc::new(rebuilt.map_err(|e| Error::schema(name, e.to_string()))?))
}

/// A struct of the schema read, and the same struct (by id) in the
/// table's schema now when reading a snapshot, whose names it falls back on.
#[derive(Clone, Copy)]
struct Tables<'a> {
    table: &'a StructType,
    now: Option<&'a StructType>,
}

impl<'a> Tables<'a> {
    /// The column of `table` that a field named `name` (without an id of
    /// its own) meets: by that name, else by the name mapping's id, else by
    /// the id the column of that name has now.
    fn by_name(self, name: &str, mapped: Option<&MappedField>) -> Option<&'a Arc<NestedField>> {
        let by_mapping = || mapped.and_then(MappedField::field_id).and_then(|id| self.table.field_by_id(id));
        let by_name_now = || self.now?.field_by_name(name).and_then(|f| self.table.field_by_id(f.id));
        self.table.field_by_name(name).or_else(by_mapping).or_else(by_name_now)
    }
}

/// The children of a struct, each with its table field's id.
fn struct_children(
    nodes: &[TypePtr],
    own: &StructType,
    tables: Tables<'_>,
    mapped: &Level,
    parent: &str,
    mode: Mode,
) -> Result<Vec<TypePtr>> {
    let mut out = Vec::with_capacity(nodes.len());
    let mut matched = Vec::new();
    for (node, own_field) in nodes.iter().zip(own.fields()) {
        let info = node.get_basic_info();
        let path = dotted(parent, info.name());
        let mapped = named(mapped, &own_field.name);
        let found =
            if info.has_id() { tables.table.field_by_id(info.id()) } else { tables.by_name(&own_field.name, mapped) };
        match found {
            Some(table_field) if matched.contains(&table_field.id) => {
                // Two fields on one column (a name and an older name of
                // it, through the name mapping): written twice, or read
                // into one of them only.
                return Err(Error::schema(
                    path,
                    format!(
                        "another field of the record type meets the same table column `{}` (id {}): keep one of them",
                        table_field.name, table_field.id
                    ),
                ));
            }
            Some(table_field) => {
                matched.push(table_field.id);
                // Below a field, the mapping's level of the table's column.
                let mapped = mapped.filter(|m| m.field_id() == Some(table_field.id));
                let now = tables.now.and_then(|now| now.field_by_id(table_field.id)).map(|f| &**f);
                out.push(Arc::new(node_with_ids(node, own_field, (table_field, now), mapped, &path, mode)?));
            }
            None if mode == Mode::Read => out.push(node.clone()),
            None => {
                let how = if info.has_id() { format!("id {}", info.id()) } else { "this name".to_owned() };
                return Err(Error::schema(
                    path,
                    format!(
                        "the table has no column with {how}: add it to the table's schema first, or skip the field"
                    ),
                ));
            }
        }
    }
    if mode == Mode::Write {
        if let Some(missing) = tables.table.fields().iter().find(|f| f.required && !matched.contains(&f.id)) {
            return Err(Error::schema(
                dotted(parent, &missing.name),
                "the table requires this column and the record type has no field for it",
            ));
        }
    }
    Ok(out)
}

/// A column of the schema read, and the same column (by id) in the table's
/// schema now when reading a snapshot.
type Column<'a> = (&'a NestedField, Option<&'a NestedField>);

/// `node` with the id of `table` (its field in the table), and its
/// children with theirs.
fn node_with_ids(
    node: &ParquetType,
    own: &NestedField,
    (table, now): Column<'_>,
    mapped: Option<&MappedField>,
    path: &str,
    mode: Mode,
) -> Result<ParquetType> {
    if mode == Mode::Write {
        if table.required && !own.required {
            return Err(Error::schema(path, "the table requires this column: the field cannot be an Option"));
        }
        if let (Type::Primitive(ours), Type::Primitive(theirs)) = (&*own.field_type, &*table.field_type) {
            if ours != theirs {
                return Err(Error::schema(
                    path,
                    format!("the field is {ours} and the table's column is {theirs}: change the field's type"),
                ));
            }
        }
    }
    match (node, &*own.field_type, &*table.field_type) {
        (ParquetType::PrimitiveType { .. }, Type::Primitive(_), Type::Primitive(_)) if mode == Mode::Write => {
            Ok(schema::with_id(as_text(node)?, table.id)?)
        }
        (ParquetType::PrimitiveType { .. }, Type::Primitive(_), Type::Primitive(_)) => {
            Ok(schema::with_id(node.clone(), table.id)?)
        }
        (ParquetType::GroupType { fields, .. }, Type::Struct(own_struct), Type::Struct(table_struct)) => {
            let now = now.and_then(|f| match &*f.field_type {
                Type::Struct(now) => Some(now),
                _ => None,
            });
            let tables = Tables { table: table_struct, now };
            let children = struct_children(fields, own_struct, tables, below(mapped), path, mode)?;
            rebuild_group(node, Some(table.id), children)
        }
        (ParquetType::GroupType { fields, .. }, Type::List(own_list), Type::List(table_list)) => {
            let now = now.and_then(|f| match &*f.field_type {
                Type::List(now) => Some(&*now.element_field),
                _ => None,
            });
            let element = (&own_list.element_field, (&*table_list.element_field, now), named(below(mapped), "element"));
            let entry = with_entry_ids(only_entry(fields, path)?, &[element], path, mode)?;
            rebuild_group(node, Some(table.id), vec![entry])
        }
        (ParquetType::GroupType { fields, .. }, Type::Map(own_map), Type::Map(table_map)) => {
            let level = below(mapped);
            let now = now.and_then(|f| match &*f.field_type {
                Type::Map(now) => Some(now),
                _ => None,
            });
            let pairs = [
                (&own_map.key_field, (&*table_map.key_field, now.map(|m| &*m.key_field)), named(level, "key")),
                (&own_map.value_field, (&*table_map.value_field, now.map(|m| &*m.value_field)), named(level, "value")),
            ];
            let entry = with_entry_ids(only_entry(fields, path)?, &pairs, path, mode)?;
            rebuild_group(node, Some(table.id), vec![entry])
        }
        _ if mode == Mode::Read => Ok(node.clone()),
        (_, ours, theirs) => Err(Error::schema(
            path,
            format!("the field is {ours} and the table's column is {theirs}: change the field's type"),
        )),
    }
}

/// A leaf written to a table: an enum's symbols (a unit enum, the tag of
/// an enum with data) annotated STRING, not ENUM, as the table's `string`
/// column says, so that every engine reads them as text (pyarrow reads an
/// ENUM column as binary, and pyiceberg then cannot filter it by a string).
fn as_text(node: &ParquetType) -> Result<ParquetType> {
    if Annotation::of(node) != Annotation::Enum {
        return Ok(node.clone());
    }
    let info = node.get_basic_info();
    let text = Some(LogicalType::String);
    Ok(schema::primitive(info.name(), info.repetition(), PhysicalType::BYTE_ARRAY, text)?)
}

/// The one repeated group of a LIST or MAP group.
fn only_entry<'a>(fields: &'a [TypePtr], path: &str) -> Result<&'a TypePtr> {
    match fields {
        [entry] => Ok(entry),
        _ => Err(Error::schema(
            path,
            format!("a list or map group holds one repeated group, this one {} fields", fields.len()),
        )),
    }
}

/// The repeated group of a LIST or MAP (no id of its own), with the ids of
/// its element (or key and value).
fn with_entry_ids(
    entry: &TypePtr,
    pairs: &[(&Arc<NestedField>, Column<'_>, Option<&MappedField>)],
    path: &str,
    mode: Mode,
) -> Result<TypePtr> {
    let entry_path = dotted(path, entry.name());
    let children = entry
        .get_fields()
        .iter()
        .zip(pairs)
        .map(|(child, (own, column, mapped))| {
            let child_path = dotted(&entry_path, child.name());
            node_with_ids(child, own, *column, *mapped, &child_path, mode).map(Arc::new)
        })
        .collect::<Result<Vec<_>>>()?;
    rebuild_group(entry, None, children).map(Arc::new)
}

/// The same group with `id` and `children`.
fn rebuild_group(node: &ParquetType, id: Option<i32>, children: Vec<TypePtr>) -> Result<ParquetType> {
    Ok(schema::rebuilt(node, node.name(), id, Some(children))?)
}

/// A data file's schema with its columns renamed to the fields of `record`
/// (a record type's message with the table's ids, [`Mode::Read`]) that
/// have their ids. A file written without ids takes them from the table's
/// name mapping: by name, list elements and map keys and values by
/// position. A column no field has is renamed out of the way, so that a
/// column dropped from the table never reads into a later field of its old
/// name. Columns without ids, in the file or the mapping, keep their names.
pub(crate) fn renamed_by_id(
    file: &SchemaDescriptor,
    mapping: &Mapping,
    record: &ParquetType,
) -> Result<SchemaDescriptor> {
    let root = file.root_schema();
    // A file that has ids keeps them: the mapping is for files without.
    let has_ids = file.columns().iter().any(|c| c.self_type().get_basic_info().has_id());
    let mapped = if has_ids { &[][..] } else { mapping.fields() };
    let fields = rename_children(root.get_fields(), mapped, record.get_fields())?;
    let rebuilt = ParquetType::group_type_builder(root.name()).with_fields(fields).build();
    let rebuilt = rebuilt.map_err(|e| Error::schema(root.name(), e.to_string()))?;
    Ok(SchemaDescriptor::new(Arc::new(rebuilt)))
}

/// A struct's children, each renamed to the field of `record` with its id
/// (its own, or the one `mapped` gives its name).
fn rename_children(file: &[TypePtr], mapped: &Level, record: &[TypePtr]) -> Result<Vec<TypePtr>> {
    file.iter()
        .map(|node| {
            let mapped = named(mapped, node.name());
            let Some(id) = id_of(node, mapped) else {
                let same_name = record.iter().find(|r| r.name() == node.name());
                return rename(node, node.name(), mapped, same_name.map(|r| &**r));
            };
            let by_id = record.iter().find(|r| r.get_basic_info().has_id() && r.get_basic_info().id() == id);
            match by_id {
                Some(field) => rename(node, field.name(), mapped, Some(field)),
                None => rename(node, &format!("__dropped_field_{id}"), mapped, None),
            }
        })
        .collect()
}

/// A node's field id: its own, else its name mapping's.
fn id_of(node: &ParquetType, mapped: Option<&MappedField>) -> Option<i32> {
    let info = node.get_basic_info();
    info.has_id().then(|| info.id()).or_else(|| mapped.and_then(MappedField::field_id))
}

/// `node` named `name`, its children matched to those of `record` (and of
/// `mapped`, its name mapping).
fn rename(node: &TypePtr, name: &str, mapped: Option<&MappedField>, record: Option<&ParquetType>) -> Result<TypePtr> {
    let id = id_of(node, mapped);
    let ParquetType::GroupType { fields, .. } = &**node else {
        return if name == node.name() { Ok(node.clone()) } else { rebuilt(node, name, id, Vec::new()) };
    };
    let record_fields = record.filter(|r| r.is_group()).map_or(&[][..], |r| r.get_fields());
    let level = below(mapped);
    let children = match Annotation::of(node) {
        // The repeated group and its element (or key and value) keep their
        // names: they are matched by position.
        annotation @ (Annotation::List | Annotation::Map) => {
            let record_entry = record_fields.first().filter(|e| e.is_group());
            let entry_fields = record_entry.map_or(&[][..], |e| e.get_fields());
            let element = named(level, "element");
            fields
                .iter()
                .map(|entry| {
                    if entry.is_primitive() {
                        return Ok(entry.clone());
                    }
                    let inner = entry.get_fields();
                    if annotation == Annotation::List && inner.len() != 1 {
                        // A two-level list whose repeated group is the
                        // element, a struct: its fields are renamed by id
                        // as any struct's, against the record's element.
                        let record_element = record_entry.map(|e| element_of(e));
                        let record_element_fields = record_element.map_or(&[][..], |e| e.get_fields());
                        let children = rename_children(inner, below(element), record_element_fields)?;
                        return rebuilt(entry, entry.name(), id_of(entry, element), children);
                    }
                    let renamed = inner.iter().enumerate().map(|(i, child)| {
                        let mapped = match annotation {
                            Annotation::Map => ["key", "value"].get(i).and_then(|n| named(level, n)),
                            // A three-level list's repeated group holds the
                            // element.
                            _ => element,
                        };
                        rename(child, child.name(), mapped, entry_fields.get(i).map(|c| &**c))
                    });
                    rebuilt(entry, entry.name(), None, renamed.collect::<Result<Vec<_>>>()?)
                })
                .collect::<Result<Vec<_>>>()?
        }
        _ => rename_children(fields, level, record_fields)?,
    };
    rebuilt(node, name, id, children)
}

/// The element of a list's repeated group `entry`: the one group it holds
/// (three levels), or the entry itself (two levels).
fn element_of(entry: &ParquetType) -> &ParquetType {
    match entry.get_fields() {
        [only] => only,
        _ => entry,
    }
}

/// `node` of a file named `name`, with the field id `id` and `children`
/// if it is a group.
fn rebuilt(node: &ParquetType, name: &str, id: Option<i32>, children: Vec<TypePtr>) -> Result<TypePtr> {
    Ok(Arc::new(schema::rebuilt(node, name, id, node.is_group().then_some(children))?))
}

fn dotted(parent: &str, name: &str) -> String {
    if parent.is_empty() {
        name.to_owned()
    } else {
        format!("{parent}.{name}")
    }
}

#[cfg(test)]
mod tests {
    use iceberg::spec::NameMapping;
    use magnolify_parquet::parquet::schema::parser::parse_message_type;

    use super::*;

    /// The leaf paths of `file` renamed to the fields of `record` (messages
    /// in Parquet's text form), through the name mapping `mapping` (JSON).
    fn renamed_leaves(file: &str, mapping: &str, record: &str) -> Vec<String> {
        let file = SchemaDescriptor::new(Arc::new(parse_message_type(file).unwrap()));
        let mapping = Mapping::from(serde_json::from_str::<NameMapping>(mapping).unwrap());
        let record = parse_message_type(record).unwrap();
        let renamed = renamed_by_id(&file, &mapping, &record).unwrap();
        renamed.columns().iter().map(|c| c.path().string()).collect()
    }

    #[test]
    fn a_file_without_ids_is_renamed_through_every_list_and_map_layout_of_the_mapping() {
        let file = "message m {
            required int64 a;
            optional group three (LIST) { repeated group list { optional group element { optional int32 x; } } }
            optional group two (LIST) { repeated group array { optional int32 x; optional int32 y; } }
            optional group kv (MAP) {
                repeated group key_value { required binary key (STRING); optional group value { optional int32 x; } }
            }
            optional group broken (MAP) { repeated int32 key_value; }
            optional int32 unmapped;
        }";
        let mapping = r#"[{"field-id": 1, "names": ["a"]},
            {"field-id": 2, "names": ["three"], "fields": [
                {"field-id": 3, "names": ["element"], "fields": [{"field-id": 4, "names": ["x"]}]}]},
            {"field-id": 5, "names": ["two"], "fields": [
                {"field-id": 6, "names": ["element"], "fields": [
                    {"field-id": 7, "names": ["x"]}, {"field-id": 8, "names": ["y"]}]}]},
            {"field-id": 9, "names": ["kv"], "fields": [
                {"field-id": 10, "names": ["key"]},
                {"field-id": 11, "names": ["value"], "fields": [{"field-id": 12, "names": ["x"]}]}]},
            {"field-id": 13, "names": ["broken"], "fields": [{"field-id": 14, "names": ["key"]}]}]"#;
        // The record type's names, all changed since the file was written.
        let record = "message r {
            required int64 a2 = 1;
            optional group three2 (LIST) = 2 {
                repeated group list { optional group element = 3 { optional int32 x2 = 4; } }
            }
            optional group two2 (LIST) = 5 { repeated group array = 6 { optional int32 x2 = 7; optional int32 y2 = 8; } }
            optional group kv2 (MAP) = 9 {
                repeated group key_value { required binary key (STRING) = 10; optional group value = 11 { optional int32 x2 = 12; } }
            }
            optional int32 unmapped;
        }";
        let expected = [
            "a2",
            "three2.list.element.x2",
            // A two-level list's repeated group is its element: its
            // fields are renamed by id too.
            "two2.array.x2",
            "two2.array.y2",
            "kv2.key_value.key",
            "kv2.key_value.value.x2",
            // Mapped, but not a field of the record type: out of the way.
            "__dropped_field_13.key_value",
            "unmapped",
        ];
        assert_eq!(renamed_leaves(file, mapping, record), expected);
    }

    #[test]
    fn a_file_with_ids_keeps_them_and_ignores_the_mapping() {
        let file = "message m { required int64 a = 7; optional int32 b; }";
        let mapping = r#"[{"field-id": 1, "names": ["a", "b"]}]"#;
        let record = "message r { required int64 seven = 7; optional int32 one = 1; }";
        assert_eq!(renamed_leaves(file, mapping, record), ["seven", "b"]);
    }
}
