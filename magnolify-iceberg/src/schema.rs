//! The Iceberg schema of a record type, read off its Parquet message.
//!
//! Field ids come from `#[parquet(field_id = N)]` where given; the others
//! are numbered as iceberg-rust numbers a new table's fields (every field
//! of a level before the fields below it, from 1), skipping the ids taken,
//! so that a type without ids gets the ids its table will have.

use std::collections::BTreeSet;
use std::sync::Arc;

use iceberg::spec::{ListType, MapType, NestedField, NestedFieldRef, PrimitiveType, Schema, StructType, Type};
use magnolify_parquet::convert::Annotation;
use magnolify_parquet::parquet::basic::{Repetition, Type as Physical};
use magnolify_parquet::parquet::schema::types::Type as ParquetType;
use magnolify_parquet::{ParquetRecord, TimeUnit};

use crate::error::{Error, Result};

/// The Iceberg schema of records of `T`.
///
/// Each Parquet form maps to the Iceberg type whose Parquet form it is:
/// signed integers of up to 32 bits are `int` (`u8` and `u16` too), `i64`
/// is `long`; dates, `TIME(MICROS)`, timestamps in micro- or nanoseconds
/// (nanoseconds need a v3 table), decimals, strings, UUIDs, bytes and
/// fixed bytes are what they say; structs, enums with data (groups), lists
/// and maps nest. `u32`, `u64`, `FLOAT16`, VARIANT and timestamps in
/// milliseconds have no Iceberg type and are errors naming the field.
///
/// ```
/// use magnolify_parquet::ParquetType;
///
/// #[derive(ParquetType)]
/// struct Event { id: i64, tags: Vec<String>, #[parquet(field_id = 9)] note: Option<String> }
///
/// let schema = magnolify_iceberg::iceberg_schema::<Event>()?;
/// let ids: Vec<_> = schema.as_struct().fields().iter().map(|f| (f.name.as_str(), f.id)).collect();
/// assert_eq!(ids, [("id", 1), ("tags", 2), ("note", 9)]);
/// assert_eq!(schema.field_by_name("tags.element").map(|f| f.id), Some(3));
/// # Ok::<(), magnolify_iceberg::Error>(())
/// ```
pub fn iceberg_schema<T: ParquetRecord>() -> Result<Schema> {
    schema_of(&*T::message()?)
}

/// The Iceberg schema of a Parquet message.
pub(crate) fn schema_of(message: &ParquetType) -> Result<Schema> {
    let mut fields = message.get_fields().iter().map(|f| draft(f, "")).collect::<Result<Vec<_>>>()?;
    let mut taken = BTreeSet::new();
    for field in &fields {
        field.collect_ids(&mut taken)?;
    }
    let mut ids = Ids { next: 1, taken };
    ids.number_level(&mut fields);
    Ok(Schema::builder().with_fields(fields.into_iter().map(Draft::into_field)).build()?)
}

/// A field before its id is known.
struct Draft {
    id: Option<i32>,
    path: String,
    name: String,
    required: bool,
    kind: Kind,
}

enum Kind {
    Primitive(PrimitiveType),
    Struct(Vec<Draft>),
    List(Box<Draft>),
    Map(Box<Draft>, Box<Draft>),
}

/// The ids not taken by an attribute, in order.
struct Ids {
    next: i32,
    taken: BTreeSet<i32>,
}

impl Ids {
    fn next(&mut self) -> i32 {
        while self.taken.contains(&self.next) {
            self.next += 1;
        }
        self.next += 1;
        self.next - 1
    }

    /// Numbers a level's fields, then what is below each, as iceberg-rust's
    /// id reassigner does.
    fn number_level(&mut self, fields: &mut [Draft]) {
        for field in fields.iter_mut() {
            if field.id.is_none() {
                field.id = Some(self.next());
            }
        }
        for field in fields {
            self.number_below(field);
        }
    }

    fn number_below(&mut self, field: &mut Draft) {
        match &mut field.kind {
            Kind::Primitive(_) => {}
            Kind::Struct(children) => self.number_level(children),
            Kind::List(element) => {
                if element.id.is_none() {
                    element.id = Some(self.next());
                }
                self.number_below(element);
            }
            Kind::Map(key, value) => {
                for child in [key, value] {
                    if child.id.is_none() {
                        child.id = Some(self.next());
                    }
                    self.number_below(child);
                }
            }
        }
    }
}

impl Draft {
    fn collect_ids(&self, taken: &mut BTreeSet<i32>) -> Result<()> {
        if let Some(id) = self.id {
            if !taken.insert(id) {
                return Err(Error::schema(&self.path, format!("field id {id} is given to two fields")));
            }
        }
        match &self.kind {
            Kind::Primitive(_) => Ok(()),
            Kind::Struct(children) => children.iter().try_for_each(|c| c.collect_ids(taken)),
            Kind::List(element) => element.collect_ids(taken),
            Kind::Map(key, value) => key.collect_ids(taken).and_then(|()| value.collect_ids(taken)),
        }
    }

    fn into_type(self) -> Type {
        match self.kind {
            Kind::Primitive(p) => Type::Primitive(p),
            Kind::Struct(children) => {
                Type::Struct(StructType::new(children.into_iter().map(Draft::into_field).collect()))
            }
            Kind::List(element) => {
                let (id, required) = (element.id.unwrap_or_default(), element.required);
                Type::List(ListType::new(NestedField::list_element(id, element.into_type(), required).into()))
            }
            Kind::Map(key, value) => {
                let key = NestedField::map_key_element(key.id.unwrap_or_default(), key.into_type());
                let (value_id, required) = (value.id.unwrap_or_default(), value.required);
                let value = NestedField::map_value_element(value_id, value.into_type(), required);
                Type::Map(MapType::new(key.into(), value.into()))
            }
        }
    }

    fn into_field(self) -> NestedFieldRef {
        let (id, name, required) = (self.id.unwrap_or_default(), self.name.clone(), self.required);
        Arc::new(NestedField::new(id, name, self.into_type(), required))
    }
}

/// `node` (under `parent`, a dotted path) as a field without its id.
fn draft(node: &ParquetType, parent: &str) -> Result<Draft> {
    let info = node.get_basic_info();
    let path = if parent.is_empty() { info.name().to_owned() } else { format!("{parent}.{}", info.name()) };
    let id = info.has_id().then(|| info.id());
    let required = info.repetition() == Repetition::REQUIRED;
    if info.repetition() == Repetition::REPEATED {
        return Err(Error::schema(path, "a repeated field outside a LIST has no Iceberg form: use a Vec"));
    }
    let kind = if node.is_primitive() { Kind::Primitive(primitive(node, &path)?) } else { group(node, &path)? };
    Ok(Draft { id, path, name: info.name().to_owned(), required, kind })
}

/// A group: a LIST, a MAP, or a struct.
fn group(node: &ParquetType, path: &str) -> Result<Kind> {
    let annotation = Annotation::of(node);
    let (list, map) = (annotation == Annotation::List, annotation == Annotation::Map);
    if let Annotation::Other(name) = annotation {
        return Err(Error::schema(
            path,
            format!("{name} has no Iceberg type in iceberg-rust 0.10 (store a VARIANT as JSON text)"),
        ));
    }
    if list || map {
        let [repeated] = node.get_fields() else {
            return Err(Error::schema(path, "a LIST or MAP group must hold one repeated group"));
        };
        let entry = format!("{path}.{}", repeated.name());
        let children = if repeated.is_group() { repeated.get_fields() } else { &[] };
        return match (list, children) {
            (true, [element]) => Ok(Kind::List(Box::new(draft(element, &entry)?))),
            (false, [key, value]) => Ok(Kind::Map(Box::new(draft(key, &entry)?), Box::new(draft(value, &entry)?))),
            _ => Err(Error::schema(
                path,
                "only the standard 3-level LIST and MAP layouts have an Iceberg form: drop the `list` attribute",
            )),
        };
    }
    let children = node.get_fields().iter().map(|c| draft(c, path)).collect::<Result<_>>()?;
    Ok(Kind::Struct(children))
}

/// A primitive column's Iceberg type.
fn primitive(node: &ParquetType, path: &str) -> Result<PrimitiveType> {
    let refuse = |message: &str| Err(Error::schema(path, message));
    Ok(match (Annotation::of(node), node.get_physical_type()) {
        (Annotation::Decimal { precision, scale }, _) => {
            PrimitiveType::Decimal { precision: precision.max(0) as u32, scale: scale.max(0) as u32 }
        }
        (Annotation::Integer { bits, signed }, _) => match (bits, signed) {
            (8 | 16, _) | (32, true) => PrimitiveType::Int,
            (64, true) => PrimitiveType::Long,
            _ => {
                return refuse("Iceberg has no unsigned 32- or 64-bit integers: use i64 (or i32 for values below 2^31)")
            }
        },
        (Annotation::Date, _) => PrimitiveType::Date,
        (Annotation::Time { unit: TimeUnit::Micros, .. }, _) => PrimitiveType::Time,
        (Annotation::Time { .. }, _) => return refuse("Iceberg times are microseconds: use `timestamp = \"micros\"`"),
        (Annotation::Timestamp { unit, utc }, _) => match (unit, utc) {
            (TimeUnit::Micros, true) => PrimitiveType::Timestamptz,
            (TimeUnit::Micros, false) => PrimitiveType::Timestamp,
            (TimeUnit::Nanos, true) => PrimitiveType::TimestamptzNs,
            (TimeUnit::Nanos, false) => PrimitiveType::TimestampNs,
            (TimeUnit::Millis, _) => {
                return refuse("Iceberg timestamps are micro- or nanoseconds: add `#[parquet(timestamp = \"micros\")]`")
            }
        },
        (Annotation::String | Annotation::Enum | Annotation::Json, _) => PrimitiveType::String,
        (Annotation::Uuid, _) => PrimitiveType::Uuid,
        (Annotation::Float16, _) => return refuse("Iceberg has no 16-bit float: use f32"),
        (Annotation::None, Physical::BOOLEAN) => PrimitiveType::Boolean,
        (Annotation::None, Physical::INT32) => PrimitiveType::Int,
        (Annotation::None, Physical::INT64) => PrimitiveType::Long,
        (Annotation::None, Physical::FLOAT) => PrimitiveType::Float,
        (Annotation::None, Physical::DOUBLE) => PrimitiveType::Double,
        (Annotation::None, Physical::BYTE_ARRAY) => PrimitiveType::Binary,
        (Annotation::None, Physical::FIXED_LEN_BYTE_ARRAY) => match node {
            ParquetType::PrimitiveType { type_length, .. } => PrimitiveType::Fixed((*type_length).max(0) as u64),
            ParquetType::GroupType { .. } => return refuse("a group where a column was expected"),
        },
        (Annotation::None, Physical::INT96) => return refuse("INT96 timestamps have no Iceberg form: use a TIMESTAMP"),
        (other, _) => return refuse(&format!("{other:?} has no Iceberg type")),
    })
}
