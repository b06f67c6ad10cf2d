//! Building Parquet schema nodes: primitives, groups, lists and maps in the
//! layouts the format defines, and the message of a record type.

use std::sync::Arc;

use parquet::basic::{LogicalType, Repetition, Type as PhysicalType};
use parquet::schema::types::{SchemaDescriptor, Type, TypePtr};

use crate::error::{Error, Result};
use crate::options::{FieldOptions, ListLayout};

/// Wraps a message type into the descriptor the column writers and readers use.
pub fn message(root: Type) -> SchemaDescriptor {
    SchemaDescriptor::new(Arc::new(root))
}

/// Prints a schema in the familiar `message … { … }` text.
pub fn to_text(ty: &Type) -> String {
    let mut out = Vec::new();
    parquet::schema::printer::print_schema(&mut out, ty);
    String::from_utf8_lossy(&out).into_owned()
}

/// A primitive leaf.
pub fn primitive(
    name: &str,
    repetition: Repetition,
    physical: PhysicalType,
    logical: Option<LogicalType>,
) -> Result<Type> {
    primitive_with(name, repetition, physical, logical, |b| b)
}

/// A primitive leaf with extra builder settings (length, precision, scale).
pub fn primitive_with(
    name: &str,
    repetition: Repetition,
    physical: PhysicalType,
    logical: Option<LogicalType>,
    extra: impl FnOnce(parquet::schema::types::PrimitiveTypeBuilder<'_>) -> parquet::schema::types::PrimitiveTypeBuilder<'_>,
) -> Result<Type> {
    extra(Type::primitive_type_builder(name, physical).with_repetition(repetition).with_logical_type(logical))
        .build()
        .map_err(|e| Error::schema(name, e.to_string()))
}

/// A group of `fields`. Parquet has no empty groups, so none is an error.
pub fn group(name: &str, repetition: Repetition, logical: Option<LogicalType>, fields: Vec<Type>) -> Result<Type> {
    if fields.is_empty() {
        return Err(Error::schema(name, "a group needs at least one field: Parquet cannot store empty structs"));
    }
    Type::group_type_builder(name)
        .with_repetition(repetition)
        .with_logical_type(logical)
        .with_fields(fields.into_iter().map(Arc::new).collect())
        .build()
        .map_err(|e| Error::schema(name, e.to_string()))
}

/// The message (root) named `name` with the fields of group `node`.
pub fn message_from(name: &str, node: Type) -> Result<TypePtr> {
    let Type::GroupType { fields, .. } = node else {
        return Err(Error::schema(name, "a record must be a struct with named fields"));
    };
    Type::group_type_builder(name)
        .with_fields(fields)
        .build()
        .map(Arc::new)
        .map_err(|e| Error::schema(name, e.to_string()))
}

/// The same node with field id `id`.
pub fn with_id(node: Type, id: i32) -> Result<Type> {
    rebuilt(&node, node.name(), Some(id), None)
}

/// `node` named `name`, with field id `id`, and for a group with `fields`
/// (its own with `None`): what renaming and numbering a schema's nodes
/// (by another schema's field ids, say) is made of.
pub fn rebuilt(node: &Type, name: &str, id: Option<i32>, fields: Option<Vec<TypePtr>>) -> Result<Type> {
    let info = node.get_basic_info();
    let rebuilt = match node {
        Type::PrimitiveType { physical_type, type_length, scale, precision, .. } => {
            Type::primitive_type_builder(name, *physical_type)
                .with_repetition(info.repetition())
                .with_logical_type(info.logical_type_ref().cloned())
                .with_converted_type(info.converted_type())
                .with_length(*type_length)
                .with_precision(*precision)
                .with_scale(*scale)
                .with_id(id)
                .build()
        }
        Type::GroupType { fields: own, .. } => {
            let builder = Type::group_type_builder(name)
                .with_logical_type(info.logical_type_ref().cloned())
                .with_converted_type(info.converted_type())
                .with_fields(fields.unwrap_or_else(|| own.clone()))
                .with_id(id);
            // A message (the root) has no repetition.
            let builder = if info.has_repetition() { builder.with_repetition(info.repetition()) } else { builder };
            builder.build()
        }
    };
    rebuilt.map_err(|e| Error::schema(name, e.to_string()))
}

/// A list node named `name` in `layout`, whose element node is built by
/// `element(name, repetition)`.
pub fn list(
    name: &str,
    repetition: Repetition,
    layout: ListLayout,
    element: impl FnOnce(&str, Repetition) -> Result<Type>,
) -> Result<Type> {
    match layout {
        ListLayout::ThreeLevel => {
            let middle = group("list", Repetition::REPEATED, None, vec![element("element", Repetition::REQUIRED)?])?;
            group(name, repetition, Some(LogicalType::List), vec![middle])
        }
        ListLayout::TwoLevel => {
            group(name, repetition, Some(LogicalType::List), vec![element("array", Repetition::REPEATED)?])
        }
        ListLayout::Repeated => {
            if repetition != Repetition::REQUIRED {
                return Err(Error::schema(
                    name,
                    format!(
                        "a {repetition} list cannot use the repeated (1-level) layout: it cannot tell null from empty"
                    ),
                ));
            }
            element(name, Repetition::REPEATED)
        }
    }
}

/// A MAP node `group name (MAP) { repeated group key_value { key; value } }`.
pub fn map(name: &str, repetition: Repetition, key: Type, value: Type) -> Result<Type> {
    if key.is_group() || key.get_basic_info().repetition() != Repetition::REQUIRED {
        return Err(Error::schema(name, "map keys must be required primitive values"));
    }
    if repetition == Repetition::REPEATED {
        return Err(Error::schema(name, "a map cannot be a repeated element: use the three-level list layout"));
    }
    let kv = group("key_value", Repetition::REPEATED, None, vec![key, value])?;
    group(name, repetition, Some(LogicalType::Map), vec![kv])
}

/// Rejects a repetition a leaf-like type cannot take. `Option<Option<T>>`
/// and nullable elements of 2-level lists end up here.
pub fn check_repetition(name: &str, repetition: Repetition, opts: &FieldOptions, nullable: bool) -> Result<()> {
    if nullable && repetition != Repetition::REQUIRED {
        let why = if repetition == Repetition::OPTIONAL {
            "Option<Option<T>> has no Parquet form".to_owned()
        } else {
            format!("nullable list elements need the three-level list layout, not {:?}", opts.list)
        };
        return Err(Error::schema(name, why));
    }
    Ok(())
}

/// `message` without its top-level fields named in `omitted`, and the
/// indices (among `message`'s leaves) of the leaves it keeps, in order:
/// what a dataset's files store of records whose partition fields are in
/// their paths. Every name must be a top-level field, and one must stay.
pub(crate) fn without_fields(message: &TypePtr, omitted: &[String]) -> Result<(TypePtr, Vec<usize>)> {
    let fields = message.get_fields();
    for name in omitted {
        if !fields.iter().any(|f| f.name() == name) {
            return Err(Error::schema(name, format!("`{name}` is not a top-level field of `{}`", message.name())));
        }
    }
    let (mut kept, mut leaves, mut leaf) = (Vec::new(), Vec::new(), 0);
    for field in fields {
        let count = leaf_count(field);
        if !omitted.iter().any(|name| name == field.name()) {
            kept.push(field.clone());
            leaves.extend(leaf..leaf + count);
        }
        leaf += count;
    }
    if kept.is_empty() {
        return Err(Error::schema(
            message.name(),
            "every field is a partition field: a file must store at least one column; keep one field out of the partitioning",
        ));
    }
    let root = Type::group_type_builder(message.name())
        .with_fields(kept)
        .build()
        .map_err(|e| Error::schema(message.name(), e.to_string()))?;
    Ok((Arc::new(root), leaves))
}

/// Number of leaf columns under `ty`.
pub(crate) fn leaf_count(ty: &Type) -> usize {
    match ty {
        Type::PrimitiveType { .. } => 1,
        Type::GroupType { fields, .. } => fields.iter().map(|f| leaf_count(f)).sum(),
    }
}
