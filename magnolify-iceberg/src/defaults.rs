//! Initial defaults (format v3): a column added to a table after a data
//! file was written reads, from that file, as its field's `initial-default`
//! (null without one), as the spec says, never as a null the table does not
//! hold. A top-level column's default is a constant column of the file's
//! reader; a nested one a data file lacks is refused, naming it.

use std::sync::Arc;

use iceberg::spec::{Literal, PrimitiveLiteral, Schema};
use magnolify_parquet::convert::decimal_bytes;
use magnolify_parquet::parquet::basic::{LogicalType, TimeUnit, Type as Physical};
use magnolify_parquet::parquet::schema::types::{Type as ParquetType, TypePtr};

use crate::columns::TableColumns;
use crate::error::{Error, Result};

/// The fields of a record type that have initial defaults in a snapshot's
/// schema. Cheap to clone (shared).
#[derive(Clone, Debug, Default)]
pub(crate) struct Defaults(Arc<[Default]>);

/// One field's default.
#[derive(Debug)]
struct Default {
    /// The field's leaf path in the record type.
    path: Vec<String>,
    /// The leaf (with its field id), for a top-level field.
    node: TypePtr,
    /// Its PLAIN encoding, without a length prefix.
    value: Vec<u8>,
}

impl Defaults {
    /// The defaults of the leaves of `message` (the record type's, with the
    /// snapshot's field ids) that `schema` gives one.
    pub(crate) fn of(message: &ParquetType, schema: &Schema) -> Result<Defaults> {
        let mut out = Vec::new();
        for field in message.get_fields() {
            collect(field, &mut Vec::new(), schema, &mut out)?;
        }
        Ok(Defaults(out.into()))
    }

    /// The constant columns of a data file that lacks top-level columns
    /// with defaults (`columns` made for the file), or an error naming a
    /// nested one it lacks.
    pub(crate) fn missing_from<T>(
        &self,
        columns: &TableColumns<T>,
    ) -> magnolify_parquet::Result<Vec<(TypePtr, Option<Vec<u8>>)>> {
        let missing = self.0.iter().filter(|d| columns.file_path(&d.path).is_none());
        missing
            .map(|d| match d.path.len() {
                1 => Ok((d.node.clone(), Some(d.value.clone()))),
                _ => Err(magnolify_parquet::Error::schema(
                    &d.path.join("."),
                    "the table gives this nested field an initial default, which this library applies to top-level \
                     fields only, and a data file lacks its column: rewrite the table's older data files, or leave \
                     the field out of the record type",
                )),
            })
            .collect()
    }
}

/// Adds the defaults of `node` (at `path`) and the leaves below it.
fn collect(node: &TypePtr, path: &mut Vec<String>, schema: &Schema, out: &mut Vec<Default>) -> Result<()> {
    path.push(node.name().to_owned());
    if node.is_group() {
        for child in node.get_fields() {
            collect(child, path, schema, out)?;
        }
    } else if let Some(default) = initial_default(node, schema) {
        let value = plain(default, node).ok_or_else(|| {
            Error::schema(
                path.join("."),
                format!(
                    "the table's initial default {default:?} has no form in the field's Parquet type ({}): give the \
                     field the table column's type",
                    node.get_physical_type()
                ),
            )
        })?;
        out.push(Default { path: path.clone(), node: node.clone(), value });
    }
    path.pop();
    Ok(())
}

/// The initial default `schema` gives the field with `node`'s id.
fn initial_default<'a>(node: &ParquetType, schema: &'a Schema) -> Option<&'a Literal> {
    let info = node.get_basic_info();
    let field = schema.field_by_id(info.has_id().then(|| info.id())?)?;
    field.initial_default.as_ref()
}

/// `literal` PLAIN-encoded (without a length prefix) as `node`'s column
/// holds it; `None` when it has no form there.
fn plain(literal: &Literal, node: &ParquetType) -> Option<Vec<u8>> {
    use PrimitiveLiteral as P;
    let Literal::Primitive(value) = literal else { return None };
    let logical = node.get_basic_info().logical_type_ref();
    // Iceberg's times and timestamps are in micro- (or nano-) seconds, as
    // its literals are; a field read in milliseconds would be off.
    let unit = match logical {
        Some(LogicalType::Timestamp(t)) => Some(&t.unit),
        Some(LogicalType::Time(t)) => Some(&t.unit),
        _ => None,
    };
    let millis = matches!(unit, Some(TimeUnit::MILLIS));
    Some(match (node.get_physical_type(), value) {
        _ if millis => return None,
        (Physical::BOOLEAN, P::Boolean(b)) => vec![u8::from(*b)],
        (Physical::INT32, P::Int(i)) => i.to_le_bytes().to_vec(),
        (Physical::INT32, P::Int128(i)) => i32::try_from(*i).ok()?.to_le_bytes().to_vec(),
        (Physical::INT64, P::Long(i)) => i.to_le_bytes().to_vec(),
        (Physical::INT64, P::Int(i)) => i64::from(*i).to_le_bytes().to_vec(),
        (Physical::INT64, P::Int128(i)) => i64::try_from(*i).ok()?.to_le_bytes().to_vec(),
        (Physical::FLOAT, P::Float(f)) => f.0.to_le_bytes().to_vec(),
        (Physical::DOUBLE, P::Double(f)) => f.0.to_le_bytes().to_vec(),
        (Physical::DOUBLE, P::Float(f)) => f64::from(f.0).to_le_bytes().to_vec(),
        (Physical::BYTE_ARRAY, P::String(s)) => s.as_bytes().to_vec(),
        (Physical::BYTE_ARRAY, P::Binary(b)) => b.clone(),
        (Physical::BYTE_ARRAY, P::Int128(i)) => decimal_bytes::minimal(&i.to_be_bytes()).to_vec(),
        (Physical::FIXED_LEN_BYTE_ARRAY, value) => {
            let mut out = vec![0; usize::try_from(primitive_length(node)).ok()?];
            let fits = match value {
                // A UUID.
                P::UInt128(u) if out.len() == 16 => {
                    out.copy_from_slice(&u.to_be_bytes());
                    true
                }
                P::Binary(b) if b.len() == out.len() => {
                    out.copy_from_slice(b);
                    true
                }
                P::Int128(i) => decimal_bytes::fit(&i.to_be_bytes(), &mut out),
                _ => false,
            };
            return fits.then_some(out);
        }
        _ => return None,
    })
}

/// The length of a FIXED_LEN_BYTE_ARRAY leaf.
fn primitive_length(node: &ParquetType) -> i32 {
    match node {
        ParquetType::PrimitiveType { type_length, .. } => *type_length,
        ParquetType::GroupType { .. } => -1,
    }
}
