//! Shredded VARIANT columns: each node of a shredded value is a group of an
//! optional `value` (the Variant encoding of what was not shredded) and an
//! optional `typed_value` (a primitive column, a group of shredded object
//! fields, or a list of shredded elements), as parquet-format's
//! VariantShredding.md lays them out. The plan is resolved once per file
//! from its schema; each record is read into a [`Shredded`] tree, then
//! appended to a builder as one Variant value.

use std::sync::Arc;

use parquet::basic::{Repetition, Type as PhysicalType};
use parquet::schema::types::ColumnDescPtr;
use parquet_variant::{
    ObjectFieldBuilder, Variant, VariantBuilderExt, VariantDecimal16, VariantDecimal4, VariantDecimal8, VariantMetadata,
};

use crate::assemble::{list_shape, FileNode, ListLevels, Presence, RecordSource, Resolver};
use crate::error::Result;
use crate::logical::Annotation;
use crate::options::TimeUnit;

/// The cursor of a binary leaf (`metadata`, `value`), checked BYTE_ARRAY.
pub fn binary_leaf(node: &FileNode<'_>, resolver: &mut Resolver<'_>) -> Result<usize> {
    if node.is_group() {
        return Err(node.mismatch("a Variant's `metadata` and `value` are BYTE_ARRAY columns"));
    }
    let (cursor, descr) = resolver.leaf(node)?;
    if descr.physical_type() != PhysicalType::BYTE_ARRAY {
        return Err(node.mismatch("a Variant's `metadata` and `value` are BYTE_ARRAY columns"));
    }
    Ok(cursor)
}

/// One shredded node: its `value` column and its `typed_value`.
pub struct NodePlan {
    value: Option<usize>,
    typed: Option<Typed>,
}

/// How a `typed_value` reads.
enum Typed {
    Primitive { cursor: usize, kind: Kind },
    Object { presence: Presence, fields: Vec<(Arc<str>, NodePlan)> },
    List { presence: Presence, levels: ListLevels, element: Box<NodePlan> },
}

/// The Variant type of a shredded primitive column.
#[derive(Clone, Copy)]
enum Kind {
    Boolean,
    Int8,
    Int16,
    Int32,
    Int64,
    Float,
    Double,
    Date,
    Decimal { scale: u8, physical: PhysicalType },
    Timestamp { unit: TimeUnit, utc: bool },
    Time,
    String,
    Binary,
    Uuid,
}

impl NodePlan {
    /// The plan of the shredded node `node` (the Variant's own group, an
    /// object field's group, or a list element's).
    pub fn resolve(node: &FileNode<'_>, resolver: &mut Resolver<'_>) -> Result<Self> {
        for child in node.children() {
            if child.repetition() == Repetition::REPEATED {
                return Err(child.mismatch("a shredded Variant's `value` and `typed_value` are not repeated"));
            }
        }
        let value = match node.child("value") {
            Some(value) => Some(binary_leaf(&value, resolver)?),
            None => None,
        };
        let typed = match node.child("typed_value") {
            Some(typed) => Some(Typed::resolve(&typed, resolver)?),
            None => None,
        };
        if value.is_none() && typed.is_none() {
            return Err(node.mismatch("a shredded Variant node has `value`, `typed_value` or both"));
        }
        Ok(NodePlan { value, typed })
    }

    /// Reads the node's columns for the current record.
    pub fn read<'de>(&self, src: &mut RecordSource<'de>) -> Result<Shredded<'de>> {
        let value = match self.value {
            Some(cursor) => src.take_bytes(cursor)?,
            None => None,
        };
        let typed = match &self.typed {
            Some(typed) => typed.read(src)?,
            None => None,
        };
        Ok(Shredded { value, typed })
    }
}

impl Typed {
    fn resolve(node: &FileNode<'_>, resolver: &mut Resolver<'_>) -> Result<Self> {
        let first = resolver.cursors();
        if !node.is_group() {
            let (cursor, descr) = resolver.leaf(node)?;
            return Ok(Typed::Primitive { cursor, kind: Kind::of(node, &descr)? });
        }
        if matches!(Annotation::of(node.ty()), Annotation::List) {
            let shape = list_shape(node)?;
            if !shape.element.is_group() || shape.element.repetition() != Repetition::REQUIRED {
                return Err(
                    node.mismatch("a shredded list's elements are required groups of `value` and `typed_value`")
                );
            }
            let element = NodePlan::resolve(&shape.element, resolver)?;
            let levels = ListLevels::since(node, shape.null_def, &shape.repeated, first, resolver)?;
            let presence = Presence::since(node, first, resolver, present_at(node))?;
            return Ok(Typed::List { presence, levels, element: Box::new(element) });
        }
        if !matches!(Annotation::of(node.ty()), Annotation::None) {
            return Err(node.mismatch("a shredded Variant's typed_value group is an object (unannotated) or a LIST"));
        }
        let mut fields = Vec::new();
        for child in node.children() {
            if !child.is_group() || child.repetition() != Repetition::REQUIRED {
                return Err(
                    child.mismatch("a shredded object's fields are required groups of `value` and `typed_value`")
                );
            }
            fields.push((Arc::from(child.name()), NodePlan::resolve(&child, resolver)?));
        }
        let presence = Presence::since(node, first, resolver, present_at(node))?;
        Ok(Typed::Object { presence, fields })
    }

    /// The typed value of the current record, `None` where it is null.
    fn read<'de>(&self, src: &mut RecordSource<'de>) -> Result<Option<TypedValue<'de>>> {
        Ok(match self {
            Typed::Primitive { cursor, kind } => kind.read(*cursor, src)?.map(TypedValue::Primitive),
            Typed::Object { presence, fields } => {
                if !presence.is_present(src) {
                    presence.skip(src)?;
                    return Ok(None);
                }
                let mut values = Vec::with_capacity(fields.len());
                for (name, field) in fields {
                    values.push((name.clone(), field.read(src)?));
                }
                Some(TypedValue::Object(values))
            }
            Typed::List { presence, levels, element } => {
                if !presence.is_present(src) {
                    presence.skip(src)?;
                    return Ok(None);
                }
                let mut elements = Vec::new();
                levels.read(src, |src| {
                    elements.push(element.read(src)?);
                    Ok(())
                })?;
                Some(TypedValue::List(elements))
            }
        })
    }
}

/// The definition level at which an optional `typed_value` is present.
fn present_at(node: &FileNode<'_>) -> i16 {
    match node.repetition() {
        Repetition::OPTIONAL => node.def(),
        _ => 0,
    }
}

impl Kind {
    fn of(node: &FileNode<'_>, descr: &ColumnDescPtr) -> Result<Self> {
        let annotation = Annotation::of(node.ty());
        let kind = match (descr.physical_type(), &annotation) {
            (PhysicalType::BOOLEAN, Annotation::None) => Kind::Boolean,
            (PhysicalType::INT32, Annotation::Integer { bits: 8, signed: true }) => Kind::Int8,
            (PhysicalType::INT32, Annotation::Integer { bits: 16, signed: true }) => Kind::Int16,
            (PhysicalType::INT32, Annotation::None | Annotation::Integer { bits: 32, signed: true }) => Kind::Int32,
            (PhysicalType::INT64, Annotation::None | Annotation::Integer { bits: 64, signed: true }) => Kind::Int64,
            (PhysicalType::FLOAT, Annotation::None) => Kind::Float,
            (PhysicalType::DOUBLE, Annotation::None) => Kind::Double,
            (PhysicalType::INT32, Annotation::Date) => Kind::Date,
            (physical, Annotation::Decimal { scale, .. }) if physical != PhysicalType::BOOLEAN => {
                let scale = u8::try_from(*scale).map_err(|_| {
                    node.mismatch(format_args!("a Variant decimal has a scale of at most 38, not {scale}"))
                })?;
                Kind::Decimal { scale, physical }
            }
            (PhysicalType::INT64, Annotation::Timestamp { unit, utc }) if *unit != TimeUnit::Millis => {
                Kind::Timestamp { unit: *unit, utc: *utc }
            }
            (PhysicalType::INT64, Annotation::Time { unit: TimeUnit::Micros, utc: false }) => Kind::Time,
            (PhysicalType::BYTE_ARRAY, Annotation::String) => Kind::String,
            (PhysicalType::BYTE_ARRAY, Annotation::None) => Kind::Binary,
            (PhysicalType::FIXED_LEN_BYTE_ARRAY, Annotation::Uuid) => Kind::Uuid,
            _ => {
                return Err(node.mismatch(format_args!(
                    "a shredded Variant's typed_value is a type of the Variant encoding, not {:?} {annotation:?}",
                    descr.physical_type()
                )))
            }
        };
        Ok(kind)
    }

    /// The value at `cursor`, `None` for a null.
    fn read<'de>(self, cursor: usize, src: &mut RecordSource<'de>) -> Result<Option<Variant<'static, 'de>>> {
        let bad = |src: &RecordSource<'_>, what: &str| src.value_error(cursor, format!("{what} out of range"));
        Ok(Some(match self {
            Kind::Boolean => match src.take_bool(cursor)? {
                Some(b) => Variant::from(b),
                None => return Ok(None),
            },
            Kind::Int8 | Kind::Int16 | Kind::Int32 | Kind::Date => {
                let Some(x) = src.take_i32(cursor)? else { return Ok(None) };
                match self {
                    Kind::Int8 => Variant::Int8(i8::try_from(x).map_err(|_| bad(src, "an INT(8)"))?),
                    Kind::Int16 => Variant::Int16(i16::try_from(x).map_err(|_| bad(src, "an INT(16)"))?),
                    Kind::Date => Variant::Date(date(x).ok_or_else(|| bad(src, "a DATE"))?),
                    _ => Variant::Int32(x),
                }
            }
            Kind::Int64 | Kind::Time | Kind::Timestamp { .. } => {
                let Some(x) = src.take_i64(cursor)? else { return Ok(None) };
                temporal(self, x).ok_or_else(|| bad(src, "a time or timestamp"))?
            }
            Kind::Float => match src.take_f32(cursor)? {
                Some(x) => Variant::Float(x),
                None => return Ok(None),
            },
            Kind::Double => match src.take_f64(cursor)? {
                Some(x) => Variant::Double(x),
                None => return Ok(None),
            },
            Kind::Decimal { scale, physical } => {
                let unscaled: i128 = match physical {
                    PhysicalType::INT32 => match src.take_i32(cursor)? {
                        Some(x) => x.into(),
                        None => return Ok(None),
                    },
                    PhysicalType::INT64 => match src.take_i64(cursor)? {
                        Some(x) => x.into(),
                        None => return Ok(None),
                    },
                    _ => match src.take_bytes(cursor)? {
                        Some(b) if !b.is_empty() && b.len() <= 16 => {
                            let fill = if b[0] & 0x80 != 0 { 0xff } else { 0 };
                            let mut be = [fill; 16];
                            be[16 - b.len()..].copy_from_slice(b);
                            i128::from_be_bytes(be)
                        }
                        Some(_) => return Err(bad(src, "a DECIMAL of more than 16 bytes")),
                        None => return Ok(None),
                    },
                };
                decimal(unscaled, scale).ok_or_else(|| bad(src, "a DECIMAL"))?
            }
            Kind::String => match src.take_str(cursor)? {
                Some(Ok(text)) => Variant::String(text),
                Some(Err(_)) => return Err(src.value_error(cursor, "a STRING value is not UTF-8")),
                None => return Ok(None),
            },
            Kind::Binary => match src.take_bytes(cursor)? {
                Some(b) => Variant::Binary(b),
                None => return Ok(None),
            },
            Kind::Uuid => match src.take_bytes(cursor)? {
                Some(b) => Variant::Uuid(uuid::Uuid::from_slice(b).map_err(|_| bad(src, "a UUID"))?),
                None => return Ok(None),
            },
        }))
    }
}

fn date(days: i32) -> Option<chrono::NaiveDate> {
    chrono::NaiveDate::from_ymd_opt(1970, 1, 1)?.checked_add_signed(chrono::TimeDelta::try_days(days.into())?)
}

/// An INT64 as the Variant type `kind` says: an integer, a time of day in
/// micros, or a timestamp in micros or nanos.
fn temporal(kind: Kind, x: i64) -> Option<Variant<'static, 'static>> {
    Some(match kind {
        Kind::Time => {
            let seconds = u32::try_from(x.div_euclid(1_000_000)).ok()?;
            let nanos = u32::try_from(x.rem_euclid(1_000_000) * 1_000).ok()?;
            Variant::Time(chrono::NaiveTime::from_num_seconds_from_midnight_opt(seconds, nanos)?)
        }
        Kind::Timestamp { unit: TimeUnit::Micros, utc: true } => {
            Variant::TimestampMicros(chrono::DateTime::from_timestamp_micros(x)?)
        }
        Kind::Timestamp { unit: TimeUnit::Micros, utc: false } => {
            Variant::TimestampNtzMicros(chrono::DateTime::from_timestamp_micros(x)?.naive_utc())
        }
        Kind::Timestamp { utc: true, .. } => Variant::TimestampNanos(chrono::DateTime::from_timestamp_nanos(x)),
        Kind::Timestamp { .. } => Variant::TimestampNtzNanos(chrono::DateTime::from_timestamp_nanos(x).naive_utc()),
        _ => Variant::Int64(x),
    })
}

/// The smallest Variant decimal that holds `unscaled` at `scale`.
fn decimal(unscaled: i128, scale: u8) -> Option<Variant<'static, 'static>> {
    if let Ok(x) = i32::try_from(unscaled) {
        if let Ok(d) = VariantDecimal4::try_new(x, scale) {
            return Some(Variant::Decimal4(d));
        }
    }
    if let Ok(x) = i64::try_from(unscaled) {
        if let Ok(d) = VariantDecimal8::try_new(x, scale) {
            return Some(Variant::Decimal8(d));
        }
    }
    VariantDecimal16::try_new(unscaled, scale).ok().map(Variant::Decimal16)
}

/// One record's shredded node: the bytes of `value` and what `typed_value`
/// held (either may be null).
pub struct Shredded<'de> {
    value: Option<&'de [u8]>,
    typed: Option<TypedValue<'de>>,
}

enum TypedValue<'de> {
    Primitive(Variant<'static, 'de>),
    Object(Vec<(Arc<str>, Shredded<'de>)>),
    List(Vec<Shredded<'de>>),
}

impl<'de> Shredded<'de> {
    /// Appends the value to `builder`; `false` when the node is missing
    /// (both `value` and `typed_value` null). `metadata` is the record's
    /// field dictionary, which `value`'s bytes refer to.
    pub fn append_to(
        self,
        metadata: &VariantMetadata<'_>,
        builder: &mut impl VariantBuilderExt,
    ) -> std::result::Result<bool, String> {
        let residual = match self.value {
            Some(bytes) => Some(Variant::try_new_with_metadata(metadata.clone(), bytes).map_err(|e| e.to_string())?),
            None => None,
        };
        match (self.typed, residual) {
            (None, None) => return Ok(false),
            (None, Some(value)) => builder.append_value(value),
            (Some(TypedValue::Primitive(value)), None) => builder.append_value(value),
            (Some(TypedValue::List(elements)), None) => {
                let mut list = builder.try_new_list().map_err(|e| e.to_string())?;
                for element in elements {
                    // A missing element is a Variant null (VariantShredding.md).
                    if !element.append_to(metadata, &mut list)? {
                        list.append_value(Variant::Null);
                    }
                }
                list.finish();
            }
            (Some(TypedValue::Object(fields)), residual) => {
                let mut object = builder.try_new_object().map_err(|e| e.to_string())?;
                let mut shredded = Vec::with_capacity(fields.len());
                for (name, field) in fields {
                    let mut field_builder = ObjectFieldBuilder::new(&name, &mut object);
                    if field.append_to(metadata, &mut field_builder)? {
                        shredded.push(name);
                    }
                }
                match residual {
                    Some(Variant::Object(rest)) => {
                        for (name, value) in rest.iter() {
                            // The builder would keep the second of two equal
                            // names: the shredded fields and the residual
                            // object's must be disjoint.
                            if shredded.iter().any(|s| &**s == name) {
                                return Err(format!("field `{name}` is both shredded and in the object's `value`"));
                            }
                            ObjectFieldBuilder::new(name, &mut object).append_value(value);
                        }
                    }
                    Some(_) => return Err("an object's `value` holds no object: a partly shredded object".into()),
                    None => {}
                }
                object.finish();
            }
            (Some(_), Some(_)) => return Err("both `value` and `typed_value` set where only one may be".into()),
        }
        Ok(true)
    }
}
