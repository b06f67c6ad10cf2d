//! The Parquet front-end: a schema (`Type` message) into the model.
//!
//! Every decision is the one magnolify-parquet makes when it resolves a
//! Rust type against a file, so that the generated structs read the file
//! they were generated from: the schema is walked with the library's own
//! `FileNode`, lists and maps are found with its `list_shape` and
//! `map_shape` (through [`crate::shape`]), and annotations are read with
//! its `Annotation`:
//!
//! * a REPEATED node is a list of itself (a bare repeated field), whatever
//!   it holds; an OPTIONAL one is an `Option`;
//! * a group annotated LIST is a `Vec`, its element found by the format's
//!   backward-compatibility rules; MAP and MAP_KEY_VALUE groups are maps;
//! * leaves follow their annotation (logical type, else the legacy
//!   converted type), then the physical type, and only to types whose
//!   resolution accepts them.
//!
//! A column no type reads is kept as a `skip` field documenting why; a group
//! with nothing readable is left out with a comment.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use magnolify_parquet::convert::{Annotation, FileNode, MapShape};
use magnolify_parquet::engines::{self, Engine, Finding};
use parquet::basic::{Repetition, Type as Physical};
use parquet::schema::types::{SchemaDescriptor, Type};

use super::common::{self, vec_of, with_notes, FieldCx, MAX_DEPTH};
use super::error::CodegenError;
use super::model::{
    DecimalPhysical, FieldAttrs, FieldDef, Item, ListLayout, Model, RustType, Scalar, StructDef, TimeUnit,
};
use super::names::{comment_text, FieldNames, StructNames};
use crate::shape::{is_two_level, shape, Shape};

/// Arrays up to this length implement `Default`, which a `skip` field needs.
const MAX_DEFAULT_ARRAY_LEN: usize = 32;

/// Builds the model of `message`, the root struct named `root_name` (or
/// after the message).
pub fn model(message: &Type, root_name: Option<&str>, engines: &[Engine]) -> Result<Model, CodegenError> {
    if !message.is_group() {
        return Err(CodegenError::NotAMessage);
    }
    if message.get_fields().is_empty() {
        return Err(CodegenError::NoColumns);
    }
    let descr = SchemaDescriptor::new(Arc::new(message.clone()));
    let findings = engines.iter().flat_map(|&e| engines::check(message, e)).map(|f| (f, false)).collect();
    let mut front = Front { findings, ..Front::default() };
    let hint = match root_name {
        Some(name) => name,
        None if message.name().is_empty() => "Record",
        None => message.name(),
    };
    let root = front.group_struct(&FileNode::root(&descr), hint, None, 0).map_err(CodegenError::NothingReadable)?;
    let mut structs: Vec<StructDef> = front.structs.into_iter().flatten().collect();
    if let Some(first) = structs.first_mut() {
        if !message.name().is_empty() && message.name() != root {
            first.rename = Some(message.name().to_owned());
        }
    }
    Ok(Model { structs, enums: Vec::new() })
}

/// The structs made so far. A slot is `None` while its struct is being
/// built, so that structs come out parent first.
#[derive(Default)]
struct Front {
    structs: Vec<Option<StructDef>>,
    names: StructNames,
    /// The names of the structs being built, outermost first: a taken name
    /// is made unique with its parent's in front.
    open: Vec<String>,
    /// What the engines asked for find, and whether a field has noted it:
    /// the innermost field whose path holds the column notes it.
    findings: Vec<(Finding, bool)>,
}

impl Front {
    /// The struct of a group; `Err` says why nothing of it can be read.
    /// `path` is the dotted path of the field holding it (`None` for the root).
    fn group_struct(
        &mut self,
        group: &FileNode<'_>,
        hint: &str,
        path: Option<&str>,
        depth: usize,
    ) -> Result<String, String> {
        let name = self.names.reserve(hint, self.open.last().map(String::as_str));
        self.open.push(name.clone());
        let built = self.group_fields(group, name, path, depth);
        self.open.pop();
        built
    }

    /// The fields of the group whose struct is `name`, as [`Front::group_struct`].
    fn group_fields(
        &mut self,
        group: &FileNode<'_>,
        name: String,
        path: Option<&str>,
        depth: usize,
    ) -> Result<String, String> {
        let slot = self.structs.len();
        self.structs.push(None);
        let fields = group.children();
        let mut ids: HashMap<i32, usize> = HashMap::new();
        for f in &fields {
            let info = f.ty().get_basic_info();
            if info.has_id() {
                *ids.entry(info.id()).or_default() += 1;
            }
        }
        let mut idents = FieldNames::default();
        let mut seen = HashSet::new();
        let mut items = Vec::new();
        let mut omitted = Vec::new();
        for f in &fields {
            if !seen.insert(f.name()) {
                // The runtime resolves fields by name and finds the first.
                items.push(Item::Omitted(format!(
                    "Parquet: `{}` is left out: a second field of that name, which cannot be read by name",
                    comment_text(f.name())
                )));
                continue;
            }
            let unique_id = |id: i32| ids.get(&id) == Some(&1);
            match self.field(f, path, depth + 1, &mut idents, &unique_id) {
                Ok(field) => items.push(Item::Field(field)),
                Err(why) => {
                    items.push(Item::Omitted(format!("Parquet: `{}` is left out: {why}", comment_text(f.name()))));
                    omitted.push(why);
                }
            }
        }
        let stored = items.iter().any(|i| matches!(i, Item::Field(f) if !f.attrs.skip));
        if !stored {
            // Drop the struct and any struct made under it.
            self.structs.truncate(slot);
            return Err(match omitted.as_slice() {
                _ if fields.is_empty() => "the group has no fields (Parquet groups cannot be empty)".to_owned(),
                // One reason for all: pass it up rather than a vaguer one.
                [first, rest @ ..] if omitted.len() == fields.len() && rest.iter().all(|w| w == first) => first.clone(),
                _ => "no column of the group can be read".to_owned(),
            });
        }
        let doc = match path {
            None => format!("Parquet message `{}`.", comment_text(group.name())),
            Some(p) => format!("Parquet group `{}`.", comment_text(p)),
        };
        if let Some(s) = self.structs.get_mut(slot) {
            *s = Some(StructDef { name: name.clone(), rename: None, doc: vec![doc], items });
        }
        Ok(name)
    }

    /// A field of a struct, or why it is left out.
    fn field(
        &mut self,
        node: &FileNode<'_>,
        parent: Option<&str>,
        depth: usize,
        idents: &mut FieldNames,
        unique_id: &dyn Fn(i32) -> bool,
    ) -> Result<FieldDef, String> {
        let name = node.name();
        let path = match parent {
            Some(p) => format!("{p}.{name}"),
            None => name.to_owned(),
        };
        let info = node.ty().get_basic_info();
        let mut cx = FieldCx::default();
        let ty = self.type_of(node, name, &path, depth, &mut cx);
        if let Some(why) = cx.omitted {
            return Err(why);
        }
        let (ident, unraw) = idents.ident(name);
        let id = info.has_id().then(|| info.id());
        let doc = vec![match id {
            Some(id) => format!("Parquet: `{}`, field id {id}", comment_text(name)),
            None => format!("Parquet: `{}`", comment_text(name)),
        }];
        let mut notes = std::mem::take(&mut cx.notes);
        // The fields inside this one have taken theirs already.
        for (finding, noted) in self.findings.iter_mut().filter(|(_, noted)| !noted) {
            let within =
                finding.column.strip_prefix(path.as_str()).is_some_and(|rest| rest.is_empty() || rest.starts_with('.'));
            if within {
                *noted = true;
                let column = if finding.column == path {
                    String::new()
                } else {
                    format!(" (`{}`)", comment_text(&finding.column))
                };
                notes.push(format!(
                    "{}: {}{column}: {}",
                    finding.engine,
                    finding.severity,
                    comment_text(&finding.reason)
                ));
            }
        }
        let mut attrs = FieldAttrs::default();
        if let Some(why) = cx.unsupported {
            // `skip` combines with no other attribute.
            notes.push(format!("Skipped: {why}."));
            attrs.skip = true;
            return Ok(FieldDef { ident, doc: with_notes(doc, notes), ty: skip_placeholder(ty), attrs });
        }
        if unraw != name {
            attrs.rename = Some(name.to_owned());
        }
        attrs.field_id = id.filter(|&id| id >= 0 && unique_id(id));
        cx.finish(&mut attrs, &mut notes);
        Ok(FieldDef { ident, doc: with_notes(doc, notes), ty, attrs })
    }

    /// The type of `node`, its repetition included.
    fn type_of(&mut self, node: &FileNode<'_>, hint: &str, path: &str, depth: usize, cx: &mut FieldCx) -> RustType {
        if depth > MAX_DEPTH {
            cx.omitted = Some(format!("nested deeper than {MAX_DEPTH} levels"));
            return RustType::Scalar(Scalar::Bool);
        }
        match node.repetition() {
            Repetition::REPEATED => {
                // A bare repeated field: a list whose elements are the node itself.
                cx.layouts.push(Some(ListLayout::Repeated));
                let element = self.content(&node.as_required(), hint, path, depth, cx);
                vec_of(element, cx)
            }
            Repetition::OPTIONAL => match self.content(&node.as_required(), hint, path, depth, cx) {
                // UNKNOWN columns are already optional.
                t @ RustType::Option(_) => t,
                t => RustType::Option(Box::new(t)),
            },
            Repetition::REQUIRED => self.content(node, hint, path, depth, cx),
        }
    }

    /// The type of what `node` holds, its own repetition accounted for.
    fn content(&mut self, node: &FileNode<'_>, hint: &str, path: &str, depth: usize, cx: &mut FieldCx) -> RustType {
        match shape(node) {
            Shape::Leaf => leaf(node, cx),
            Shape::List(list) => {
                cx.layouts.push(is_two_level(&list).then_some(ListLayout::TwoLevel));
                let element = self.type_of(&list.element, hint, path, depth + 1, cx);
                vec_of(element, cx)
            }
            Shape::Keys(keys) => {
                cx.notes.push("A key-only map (a set): read as the list of its keys.".to_owned());
                let element = self.type_of(&keys.element, hint, path, depth + 1, cx);
                vec_of(element, cx)
            }
            Shape::Map(map) => self.map_type(&map, hint, path, depth, cx),
            Shape::Group { misfit } => {
                if let Some(annotation) = misfit {
                    let layout = annotation.to_ascii_lowercase();
                    cx.notes.push(format!("Annotated {annotation} but not laid out as a {layout}: read as a group."));
                }
                match self.group_struct(node, hint, Some(path), depth) {
                    Ok(name) => RustType::Struct(name),
                    Err(why) => {
                        cx.omitted = Some(why);
                        RustType::Scalar(Scalar::Bool)
                    }
                }
            }
        }
    }

    /// A map with values.
    fn map_type(&mut self, map: &MapShape<'_>, hint: &str, path: &str, depth: usize, cx: &mut FieldCx) -> RustType {
        let Some(value) = &map.value else { return RustType::Scalar(Scalar::Bool) };
        let key_type = leaf(&map.key, cx);
        if !key_type.scalars().iter().all(|s| s.is_ord()) {
            // Float keys are neither `Ord` nor `Hash`. The runtime's list
            // resolution takes a two-field key/value group as the element
            // of a two-level list, so a `Vec` of entry structs reads it.
            cx.notes.push(
                "A map with floating-point keys, which cannot be map keys (not `Ord`): read as a list of \
                 key/value entries; written back as a LIST, not a MAP."
                    .to_owned(),
            );
            let kv_path = format!("{path}.{}", map.repeated.name());
            return match self.group_struct(&map.repeated, &format!("{hint}Entry"), Some(&kv_path), depth + 1) {
                Ok(name) => RustType::Vec(Box::new(RustType::Struct(name))),
                Err(why) => {
                    cx.omitted = Some(why);
                    RustType::Scalar(Scalar::Bool)
                }
            };
        }
        let value_type = self.type_of(value, &format!("{hint}Value"), path, depth + 1, cx);
        RustType::Map(Box::new(key_type), Box::new(value_type))
    }
}

/// The schema text of a leaf, for notes: `REQUIRED FIXED_LEN_BYTE_ARRAY (12) d (INTERVAL)`.
fn describe(node: &FileNode<'_>) -> String {
    comment_text(&node.describe())
}

/// The type of a leaf, by its annotation, then its physical type.
fn leaf(node: &FileNode<'_>, cx: &mut FieldCx) -> RustType {
    let Type::PrimitiveType { physical_type, type_length, .. } = node.ty() else {
        return RustType::Scalar(Scalar::Bool);
    };
    let (physical, length) = (*physical_type, *type_length);
    let unsupported = |cx: &mut FieldCx, why: &str| {
        cx.unsupported(format!("no magnolify-parquet type reads `{}` ({why})", describe(node)));
        RustType::Scalar(placeholder(physical, length))
    };
    let annotation = Annotation::of(node.ty());
    let bytes_column = matches!(physical, Physical::BYTE_ARRAY | Physical::FIXED_LEN_BYTE_ARRAY);
    let scalar = match annotation {
        Annotation::None => return plain(physical, length, cx),
        Annotation::Unknown => {
            // Option<T> reads an UNKNOWN column as None without looking at T.
            cx.notes.push("Always null (UNKNOWN): reads as None.".to_owned());
            return RustType::Option(Box::new(RustType::Scalar(placeholder(physical, length))));
        }
        Annotation::Integer { bits, signed } => match int_scalar(i32::from(bits), signed, physical) {
            Some(s) => s,
            None => return unsupported(cx, "an integer width the physical type does not hold"),
        },
        ref a if a.is_text() && physical == Physical::BYTE_ARRAY => Scalar::String,
        Annotation::Bson if physical == Physical::BYTE_ARRAY => Scalar::Bytes,
        Annotation::Uuid if physical == Physical::FIXED_LEN_BYTE_ARRAY && length == 16 => Scalar::Uuid,
        Annotation::Float16 if physical == Physical::FIXED_LEN_BYTE_ARRAY && length == 2 => Scalar::F16,
        Annotation::Date if physical == Physical::INT32 => Scalar::Date,
        Annotation::Time { unit, .. } => match time_unit(unit, physical) {
            Some(unit) => {
                cx.units.push(unit);
                Scalar::Time
            }
            None => return unsupported(cx, "a TIME unit its physical type does not hold"),
        },
        Annotation::Timestamp { unit, utc } if physical == Physical::INT64 => {
            cx.units.push(unit);
            if utc {
                Scalar::UtcTimestamp
            } else {
                Scalar::LocalTimestamp
            }
        }
        Annotation::Decimal { precision, scale } => return decimal(precision, scale, physical, node, cx),
        Annotation::Interval => return unsupported(cx, "INTERVAL is not supported"),
        // The runtime's byte types read byte columns of any non-numeric annotation.
        Annotation::Float16 => return unsupported(cx, "FLOAT16 on other than FIXED_LEN_BYTE_ARRAY(2)"),
        _ if bytes_column => {
            cx.notes.push(format!("Read as raw bytes: `{}`.", describe(node)));
            common::bytes(fixed_length(physical, length), cx)
        }
        Annotation::Other(_) => return unsupported(cx, "a logical type with no Rust counterpart"),
        _ => return unsupported(cx, "an annotation its physical type does not take"),
    };
    RustType::Scalar(scalar)
}

/// The length of a FIXED_LEN_BYTE_ARRAY column; `None` for other columns.
fn fixed_length(physical: Physical, length: i32) -> Option<usize> {
    (physical == Physical::FIXED_LEN_BYTE_ARRAY).then(|| usize::try_from(length).ok()).flatten()
}

/// A column with no annotation.
fn plain(physical: Physical, length: i32, cx: &mut FieldCx) -> RustType {
    let scalar = match physical {
        Physical::BOOLEAN => Scalar::Bool,
        Physical::INT32 => Scalar::I32,
        Physical::INT64 => Scalar::I64,
        Physical::INT96 => {
            // INT96 carries no unit and reads exactly to the nanosecond into
            // any unit; `nanos` keeps every digit when written back.
            cx.notes.push(
                "INT96 timestamp (Impala/Spark legacy): read to the nanosecond; written back as INT64 \
                 TIMESTAMP(NANOS), which holds 1677-09-21 to 2262-04-11 only."
                    .to_owned(),
            );
            cx.units.push(TimeUnit::Nanos);
            Scalar::LocalTimestamp
        }
        Physical::FLOAT => Scalar::F32,
        Physical::DOUBLE => Scalar::F64,
        Physical::BYTE_ARRAY | Physical::FIXED_LEN_BYTE_ARRAY => common::bytes(fixed_length(physical, length), cx),
    };
    RustType::Scalar(scalar)
}

/// A type for a skipped column: anything with `Default` will do, one close
/// to the column documents it best.
fn placeholder(physical: Physical, length: i32) -> Scalar {
    match physical {
        Physical::BOOLEAN => Scalar::Bool,
        Physical::INT32 => Scalar::I32,
        Physical::INT64 => Scalar::I64,
        Physical::FLOAT => Scalar::F32,
        Physical::DOUBLE => Scalar::F64,
        Physical::INT96 => Scalar::FixedBytes(12),
        Physical::FIXED_LEN_BYTE_ARRAY => match usize::try_from(length) {
            Ok(n) if n <= MAX_DEFAULT_ARRAY_LEN => Scalar::FixedBytes(n),
            _ => Scalar::Bytes,
        },
        Physical::BYTE_ARRAY => Scalar::Bytes,
    }
}

/// The type of a skipped field: `Default` is all it needs, so arrays longer
/// than 32 (which lack it) become `Vec<u8>`.
fn skip_placeholder(ty: RustType) -> RustType {
    match ty {
        RustType::Scalar(Scalar::FixedBytes(n)) if n > MAX_DEFAULT_ARRAY_LEN => RustType::Scalar(Scalar::Bytes),
        RustType::Option(t) => RustType::Option(Box::new(skip_placeholder(*t))),
        RustType::Vec(t) => RustType::Vec(Box::new(skip_placeholder(*t))),
        RustType::Map(k, v) => RustType::Map(Box::new(skip_placeholder(*k)), Box::new(skip_placeholder(*v))),
        other => other,
    }
}

/// The integer type for `INTEGER(width, signed)` on `physical`, as the
/// runtime's integer columns accept it.
fn int_scalar(width: i32, signed: bool, physical: Physical) -> Option<Scalar> {
    let bits = match physical {
        Physical::INT32 => 32,
        Physical::INT64 => 64,
        _ => return None,
    };
    if width > bits {
        return None;
    }
    Some(match (width, signed) {
        (8, true) => Scalar::I8,
        (16, true) => Scalar::I16,
        (32, true) => Scalar::I32,
        (64, true) => Scalar::I64,
        (8, false) => Scalar::U8,
        (16, false) => Scalar::U16,
        (32, false) => Scalar::U32,
        (64, false) => Scalar::U64,
        _ => return None,
    })
}

/// The unit of a TIME column, when its physical type is the one the unit
/// takes (INT32 for millis, INT64 for micros and nanos).
fn time_unit(unit: TimeUnit, physical: Physical) -> Option<TimeUnit> {
    match (unit, physical) {
        (TimeUnit::Millis, Physical::INT32) | (TimeUnit::Micros | TimeUnit::Nanos, Physical::INT64) => Some(unit),
        _ => None,
    }
}

/// A DECIMAL column: its Rust type and `decimal` attribute (see
/// [`common::decimal`]), keeping the file's physical type.
fn decimal(precision: i32, scale: i32, physical: Physical, node: &FileNode<'_>, cx: &mut FieldCx) -> RustType {
    let physical_kind = match physical {
        Physical::INT32 => DecimalPhysical::Int32,
        Physical::INT64 => DecimalPhysical::Int64,
        Physical::FIXED_LEN_BYTE_ARRAY => DecimalPhysical::Fixed,
        Physical::BYTE_ARRAY => DecimalPhysical::Binary,
        _ => {
            cx.unsupported(format!("DECIMAL cannot be stored in `{}`", describe(node)));
            return RustType::Scalar(placeholder(physical, 0));
        }
    };
    let checked = match (u32::try_from(precision), u32::try_from(scale)) {
        (Ok(p), Ok(s)) => common::decimal(p, s, physical_kind, cx),
        _ => Err("its DECIMAL precision or scale is negative".to_owned()),
    };
    checked.unwrap_or_else(|why| {
        cx.unsupported(format!("`{}`: {why}", describe(node)));
        RustType::Scalar(placeholder(physical, 0))
    })
}
