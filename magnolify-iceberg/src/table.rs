//! Creating a table for a record type.

use std::collections::HashMap;

use iceberg::spec::{FormatVersion, PrimitiveType, Schema, SortOrder, StructType, TableMetadataBuilder, Type};
use iceberg::table::Table;
use iceberg::{Catalog, TableCreation, TableIdent};
use magnolify_parquet::OwnedRecord;

use crate::error::{Error, Result};
use crate::partition::Partitioning;
use crate::schema::iceberg_schema;

/// Creates the table `name` in `catalog` for records of `T`, partitioned
/// by `partitioning`: its schema is [`iceberg_schema::<T>()`](iceberg_schema).
///
/// The table is format v2, or v3 when a timestamp is in nanoseconds (v2
/// has none). Its field ids are the type's: iceberg-rust numbers a new
/// table's fields itself (every field of a level, then the fields below,
/// from 1), so a `#[parquet(field_id = N)]` that numbering would change is
/// an error before anything is created.
///
/// See the crate docs for an example.
pub async fn create_table<T: OwnedRecord>(
    catalog: &dyn Catalog,
    name: &TableIdent,
    partitioning: &Partitioning<T>,
) -> Result<Table> {
    let schema = iceberg_schema::<T>()?;
    let spec = partitioning.unbound(&schema)?;
    let version = if has_nanoseconds(schema.as_struct()) { FormatVersion::V3 } else { FormatVersion::V2 };
    let numbered = TableMetadataBuilder::new(
        schema.clone(),
        spec.clone(),
        SortOrder::unsorted_order(),
        "file:///ids-check".to_owned(),
        version,
        HashMap::new(),
    )?
    .build()?
    .metadata;
    check_ids_kept(&schema, numbered.current_schema())?;
    let creation = TableCreation::builder()
        .name(name.name().to_owned())
        .schema(schema)
        .partition_spec(spec)
        .format_version(version)
        .build();
    Ok(catalog.create_table(name.namespace(), creation).await?)
}

fn has_nanoseconds(fields: &StructType) -> bool {
    fields.fields().iter().any(|f| type_has_nanoseconds(&f.field_type))
}

fn type_has_nanoseconds(ty: &Type) -> bool {
    match ty {
        Type::Primitive(p) => matches!(p, PrimitiveType::TimestampNs | PrimitiveType::TimestamptzNs),
        Type::Struct(s) => has_nanoseconds(s),
        Type::List(l) => type_has_nanoseconds(&l.element_field.field_type),
        Type::Map(m) => {
            type_has_nanoseconds(&m.key_field.field_type) || type_has_nanoseconds(&m.value_field.field_type)
        }
    }
}

/// Every field of `ours` has the same id in `numbered`, the schema as
/// iceberg-rust numbers it.
fn check_ids_kept(ours: &Schema, numbered: &Schema) -> Result<()> {
    let mut mine = Vec::new();
    ids_by_path(ours.as_struct(), "", &mut mine);
    let mut theirs = Vec::new();
    ids_by_path(numbered.as_struct(), "", &mut theirs);
    for ((path, id), (_, given)) in mine.iter().zip(&theirs) {
        if id != given {
            return Err(Error::schema(
                path,
                format!(
                    "iceberg-rust numbers a new table's fields itself and would give this field id {given}, not {id}: \
                     drop the field_id attributes or number the fields as it does (each level's fields before \
                     the fields below them, from 1)"
                ),
            ));
        }
    }
    Ok(())
}

/// Each field's dotted path and id, in schema order.
fn ids_by_path(fields: &StructType, parent: &str, out: &mut Vec<(String, i32)>) {
    for field in fields.fields() {
        let path = if parent.is_empty() { field.name.clone() } else { format!("{parent}.{}", field.name) };
        out.push((path.clone(), field.id));
        type_ids(&field.field_type, &path, out);
    }
}

fn type_ids(ty: &Type, path: &str, out: &mut Vec<(String, i32)>) {
    match ty {
        Type::Primitive(_) => {}
        Type::Struct(s) => ids_by_path(s, path, out),
        Type::List(l) => {
            let element = format!("{path}.element");
            out.push((element.clone(), l.element_field.id));
            type_ids(&l.element_field.field_type, &element, out);
        }
        Type::Map(m) => {
            for (part, field) in [("key", &m.key_field), ("value", &m.value_field)] {
                let child = format!("{path}.{part}");
                out.push((child.clone(), field.id));
                type_ids(&field.field_type, &child, out);
            }
        }
    }
}
