//! The values of a file's equality columns, one key per row, for equality
//! deletes: a data file's row is deleted when its key equals a row of a
//! delete file that applies to it (null equal to null), as the Iceberg spec
//! says.
//!
//! Columns are found by field id in both files (in a data file written
//! without ids, by the table's name mapping, else by the field's name), so
//! they are read whether or not the scan's record type has them. A column the data file lacks (added
//! to the table after it was written) has its field's `initial-default`
//! there, else null.

use std::sync::Arc;

use iceberg::spec::{Literal, PrimitiveLiteral, SchemaRef};
use magnolify_parquet::convert::{RecordReadOwned, RecordSource};
use magnolify_parquet::parquet::basic::{ConvertedType, LogicalType, Type as PhysicalType};
use magnolify_parquet::parquet::schema::types::{ColumnDescriptor, SchemaDescriptor};
use magnolify_parquet::RecordRead;

use crate::name_mapping::{Level, Mapping};

/// A value of an equality column, compared as the spec compares values of
/// one column across the type changes Iceberg allows (int to long, float to
/// double, a decimal's precision): numbers by value, text and bytes by
/// their bytes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Key {
    Null,
    Bool(bool),
    /// Integers, dates, times, timestamps and decimals' unscaled values.
    Int(i128),
    /// Floats (widened to doubles) by their bits, every NaN one value: as
    /// Java's `Double.equals`, which the reference implementation uses.
    Float(u64),
    /// Strings, UUIDs, fixed and binary values.
    Bytes(Box<[u8]>),
}

impl Key {
    fn float(value: f64) -> Key {
        Key::Float(if value.is_nan() { f64::NAN.to_bits() } else { value.to_bits() })
    }

    /// The key of a field's default value.
    fn of_literal(literal: &Literal) -> Option<Key> {
        let Literal::Primitive(value) = literal else { return None };
        Some(match value {
            PrimitiveLiteral::Boolean(b) => Key::Bool(*b),
            PrimitiveLiteral::Int(i) => Key::Int((*i).into()),
            PrimitiveLiteral::Long(i) => Key::Int((*i).into()),
            PrimitiveLiteral::Float(f) => Key::float(f.0.into()),
            PrimitiveLiteral::Double(f) => Key::float(f.0),
            PrimitiveLiteral::String(s) => Key::Bytes(s.as_bytes().into()),
            PrimitiveLiteral::Binary(b) => Key::Bytes(b.as_slice().into()),
            PrimitiveLiteral::Int128(i) => Key::Int(*i),
            // A UUID: its 16 bytes, as a Parquet file holds them.
            PrimitiveLiteral::UInt128(u) => Key::Bytes(u.to_be_bytes().into()),
            PrimitiveLiteral::AboveMax | PrimitiveLiteral::BelowMin => return None,
        })
    }
}

/// How a column's values become keys.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Kind {
    Bool,
    Int32,
    Int64,
    Float,
    Double,
    Bytes,
    /// A decimal in bytes: big-endian two's complement.
    DecimalBytes,
}

/// What a key of a file's row is made of, field by field.
#[derive(Clone, Debug)]
pub(crate) enum Part {
    /// The column at this cursor.
    Column { cursor: usize, kind: Kind },
    /// A column the file lacks: the same value in every row.
    Constant(Key),
}

/// The converter of a file's rows into keys of the columns with field ids
/// `ids`, in that order.
#[derive(Clone)]
pub(crate) struct KeyColumns {
    pub(crate) ids: Arc<[i32]>,
    /// The ids of a data file's columns written without them.
    pub(crate) mapping: Mapping,
    /// The schema of the snapshot read, for the defaults of columns a data
    /// file lacks; `None` for a delete file, which must have them all.
    pub(crate) defaults: Option<SchemaRef>,
}

impl KeyColumns {
    /// The leaf of the field with `id` in `file`, if it has one.
    fn leaf_of(&self, file: &SchemaDescriptor, id: i32) -> Option<usize> {
        let with_id = |c: &&Arc<ColumnDescriptor>| {
            let info = c.self_type().get_basic_info();
            info.has_id() && info.id() == id
        };
        let columns = file.columns();
        let has_ids = columns.iter().any(|c| c.self_type().get_basic_info().has_id());
        // A file without ids: by the table's name mapping, else by the
        // field's name in the schema read (as the records are read).
        let names = match has_ids {
            true => return columns.iter().position(|c| with_id(&c)),
            false => mapped_names(self.mapping.fields(), id).or_else(|| self.schema_names(id))?,
        };
        columns.iter().position(|c| matches_names(c.path().parts(), &names))
    }

    /// The names of the field with `id` in the schema read, from the top.
    fn schema_names(&self, id: i32) -> Option<Vec<Vec<String>>> {
        let name = self.defaults.as_ref()?.name_by_field_id(id)?;
        Some(name.split('.').map(|part| vec![part.to_owned()]).collect())
    }

    /// The key of the field with `id` in a file that lacks its column.
    fn missing(&self, id: i32) -> magnolify_parquet::Result<Key> {
        let Some(schema) = &self.defaults else {
            return Err(magnolify_parquet::Error::schema(
                &format!("field id {id}"),
                "an equality delete file has no column with this id, which its manifest entry names among its \
                 equality ids; the delete file is damaged or was written for another table",
            ));
        };
        let default = schema.field_by_id(id).and_then(|f| f.initial_default.as_ref());
        Ok(default.and_then(Key::of_literal).unwrap_or(Key::Null))
    }
}

/// The names each level of the mapped field with `id` has had, from the
/// top: `None` when the mapping has no such field.
fn mapped_names(level: &Level, id: i32) -> Option<Vec<Vec<String>>> {
    level.iter().find_map(|field| {
        let names = field.names().to_vec();
        if field.field_id() == Some(id) {
            return Some(vec![names]);
        }
        let mut below = mapped_names(field.fields(), id)?;
        below.insert(0, names);
        Some(below)
    })
}

/// Whether a column's path is one of the mapped field's names at each level.
fn matches_names(path: &[String], names: &[Vec<String>]) -> bool {
    path.len() == names.len() && path.iter().zip(names).all(|(part, known)| known.contains(part))
}

/// How `column` becomes keys, or why it cannot be an equality column.
fn kind_of(column: &ColumnDescriptor) -> magnolify_parquet::Result<Kind> {
    let path = column.path().string();
    let refuse = |what: &str| {
        Err(magnolify_parquet::Error::schema(
            &path,
            format!("an equality delete names this column, which is {what}; equality columns are primitive values"),
        ))
    };
    if column.max_rep_level() > 0 {
        return refuse("in a list or a map");
    }
    let decimal = matches!(column.logical_type_ref(), Some(LogicalType::Decimal { .. }))
        || column.converted_type() == ConvertedType::DECIMAL;
    Ok(match column.physical_type() {
        PhysicalType::BOOLEAN => Kind::Bool,
        PhysicalType::INT32 => Kind::Int32,
        PhysicalType::INT64 => Kind::Int64,
        PhysicalType::FLOAT => Kind::Float,
        PhysicalType::DOUBLE => Kind::Double,
        PhysicalType::BYTE_ARRAY | PhysicalType::FIXED_LEN_BYTE_ARRAY if decimal => Kind::DecimalBytes,
        PhysicalType::BYTE_ARRAY | PhysicalType::FIXED_LEN_BYTE_ARRAY => Kind::Bytes,
        PhysicalType::INT96 => return refuse("an INT96 timestamp (Iceberg tables have none)"),
    })
}

impl RecordRead for KeyColumns {
    type Record<'de> = Vec<Key>;
    type ReadPlan = Arc<[Part]>;

    fn resolve(&self, file: &SchemaDescriptor) -> magnolify_parquet::Result<(Arc<[Part]>, Vec<usize>)> {
        let mut parts = Vec::with_capacity(self.ids.len());
        let mut leaves = Vec::new();
        for &id in self.ids.iter() {
            match self.leaf_of(file, id) {
                Some(leaf) => {
                    let kind = kind_of(file.column(leaf).as_ref())?;
                    parts.push(Part::Column { cursor: leaves.len(), kind });
                    leaves.push(leaf);
                }
                None => parts.push(Part::Constant(self.missing(id)?)),
            }
        }
        Ok((parts.into(), leaves))
    }

    fn read<'de>(&self, plan: &Arc<[Part]>, source: &mut RecordSource<'de>) -> magnolify_parquet::Result<Vec<Key>> {
        plan.iter().map(|part| read_part(part, source)).collect()
    }
}

impl RecordReadOwned for KeyColumns {
    type Owned = Vec<Key>;
}

/// The key of one part of the row being read.
fn read_part(part: &Part, source: &mut RecordSource<'_>) -> magnolify_parquet::Result<Key> {
    let (cursor, kind) = match part {
        Part::Constant(key) => return Ok(key.clone()),
        Part::Column { cursor, kind } => (*cursor, *kind),
    };
    let key = match kind {
        Kind::Bool => source.take_bool(cursor)?.map(Key::Bool),
        Kind::Int32 => source.take_i32(cursor)?.map(|i| Key::Int(i.into())),
        Kind::Int64 => source.take_i64(cursor)?.map(|i| Key::Int(i.into())),
        Kind::Float => source.take_f32(cursor)?.map(|f| Key::float(f.into())),
        Kind::Double => source.take_f64(cursor)?.map(Key::float),
        Kind::Bytes => source.take_bytes(cursor)?.map(|b| Key::Bytes(b.into())),
        Kind::DecimalBytes => match source.take_bytes(cursor)? {
            Some(bytes) => Some(Key::Int(unscaled(bytes).ok_or_else(|| {
                source.value_error(cursor, format!("a decimal of {} bytes (at most 16 are read)", bytes.len()))
            })?)),
            None => None,
        },
    };
    Ok(key.unwrap_or(Key::Null))
}

/// A decimal's unscaled value from its big-endian two's complement bytes.
fn unscaled(bytes: &[u8]) -> Option<i128> {
    if bytes.len() > 16 {
        return None;
    }
    let negative = bytes.first().is_some_and(|b| b & 0x80 != 0);
    let mut full = [if negative { 0xff } else { 0 }; 16];
    full[16 - bytes.len()..].copy_from_slice(bytes);
    Some(i128::from_be_bytes(full))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_of_any_width_compare_by_value() {
        assert_eq!(unscaled(&[0x01, 0x00]), Some(256));
        assert_eq!(unscaled(&[0xff, 0x00]), Some(-256));
        assert_eq!(unscaled(&[0x00, 0x00, 0x01, 0x00]), unscaled(&[0x01, 0x00]));
        assert_eq!(unscaled(&[]), Some(0));
        assert_eq!(unscaled(&[0; 17]), None);
    }

    #[test]
    fn floats_compare_as_javas_double_equals() {
        assert_eq!(Key::float(f64::from(0.1f32)), Key::float(f64::from(0.1f32)));
        assert_eq!(Key::float(f64::NAN), Key::float(-f64::NAN));
        assert_ne!(Key::float(0.0), Key::float(-0.0));
    }
}
