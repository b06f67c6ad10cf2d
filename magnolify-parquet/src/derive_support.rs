//! Runtime helpers that `#[derive(ParquetType)]` expands into: they keep the
//! generated code small and the error messages in one place.

use std::fmt::Display;

use parquet::basic::{ConvertedType, LogicalType, Repetition, Type as PhysicalType};
use parquet::schema::types::Type;

use crate::error::{Error, Result};
use crate::field::ParquetField;
use crate::read::{FileNode, GroupStart, NullCheck, RecordSource, Resolver};
use crate::schema;
use crate::types::{LeafPlan, Slot};
use crate::write::ColumnSink;

/// Checks that `node` can hold a struct and starts resolving it; the
/// returned [`GroupStart`] gives the struct's null check once its fields are
/// resolved.
pub fn struct_start(node: &FileNode<'_>, resolver: &Resolver<'_>) -> Result<GroupStart> {
    if !node.is_group() {
        return Err(node.error(format!("expected a group (struct), found {}", node.describe())));
    }
    crate::types::not_repeated(node, "a struct")?;
    Ok(NullCheck::begin(node, resolver))
}

/// The slot of a field absent from the file: fine when the type has a
/// missing value (`Option`, collections) or the field has `default`; else
/// an error listing the fields the file has.
pub fn missing_field<T: ParquetField>(node: &FileNode<'_>, name: &str, has_default: bool) -> Result<Slot<T::ReadPlan>> {
    if has_default || T::missing().is_some() {
        Ok(Slot::Missing)
    } else {
        Err(node.error(format!("required field `{name}` is not in the file; the file has {}", node.field_names())))
    }
}

/// The value of a field absent from the file (checked when resolving).
pub fn missing_value<T: ParquetField>(name: &str) -> Result<T> {
    T::missing().ok_or_else(|| Error::resolve(name, "field is not in the file"))
}

/// The error of a `with` conversion that failed while writing.
pub fn with_write_error(sink: &ColumnSink, leaf: usize, field: &str, error: impl Display) -> Error {
    sink.value_error(leaf, format!("field `{field}`: conversion failed: {error}"))
}

/// The error of a `with` conversion that failed while reading.
pub fn with_read_error(source: &RecordSource, field: &str, error: impl Display) -> Error {
    Error::Value { path: field.to_owned(), row: Some(source.row()), message: format!("conversion failed: {error}") }
}

/// Schema of a unit-only enum: BYTE_ARRAY annotated ENUM.
pub fn enum_schema(name: &str, repetition: Repetition) -> Result<Type> {
    schema::primitive(name, repetition, PhysicalType::BYTE_ARRAY, Some(LogicalType::Enum))
}

/// Resolves a unit-only enum: ENUM, STRING or unannotated BYTE_ARRAY.
pub fn enum_resolve(node: &FileNode<'_>, resolver: &mut Resolver<'_>) -> Result<LeafPlan<()>> {
    crate::types::not_repeated(node, "an enum")?;
    let (cursor, descr) = resolver.leaf(node)?;
    let text = matches!(
        (node.logical_type(), node.converted_type()),
        (None, ConvertedType::NONE | ConvertedType::UTF8 | ConvertedType::ENUM)
            | (Some(LogicalType::String | LogicalType::Enum), _)
    );
    if descr.physical_type() != PhysicalType::BYTE_ARRAY || !text {
        return Err(node.error(format!("expected an ENUM or STRING column, found {}", node.describe())));
    }
    Ok(LeafPlan { cursor, conv: () })
}

/// Reads an enum symbol: its index in `symbols`, or an error naming the
/// unknown symbol and the column.
#[inline]
pub fn enum_read(plan: &LeafPlan<()>, source: &mut RecordSource, symbols: &[&str]) -> Result<usize> {
    let c = plan.cursor;
    match source.take_byte_slice(c, |b| {
        symbols.iter().position(|s| s.as_bytes() == b).ok_or_else(|| String::from_utf8_lossy(b).into_owned())
    })? {
        Some(Ok(i)) => Ok(i),
        Some(Err(unknown)) => {
            Err(source.value_error(c, format!("unknown enum symbol {unknown:?}; expected one of {symbols:?}")))
        }
        None => Err(source.null_error(c)),
    }
}

/// Joins a doc path.
pub fn doc_path(prefix: &str, name: &str) -> String {
    if prefix.is_empty() {
        name.to_owned()
    } else {
        format!("{prefix}.{name}")
    }
}
