//! `cat`: the records of any Parquet file as JSON values, through a
//! dynamic converter of the library's [`RecordRead`] trait.
//!
//! [`JsonRecords`] resolves against the file's own schema, so it reads
//! every file: groups become objects (fields in schema order), lists of
//! every layout arrays, maps arrays of `[key, value]` pairs (key-only maps
//! the array of their keys), and leaves follow their logical type with the
//! encoding of [`crate::json`], the one the fixtures' expected JSON uses.
//! A projection ([`Columns`]) keeps only some fields; columns outside it
//! are never decoded.

use std::io::Write;
use std::path::Path;

use magnolify_parquet::convert::{Annotation, FileNode, ListLevels, Presence, RecordRead, RecordSource, Resolver};
use magnolify_parquet::{ReadOptions, Result, TimeUnit};
use parquet::basic::{Repetition, Type as Physical};
use parquet::schema::types::{SchemaDescriptor, Type};
use serde_json::{Map, Value};

use crate::error::CliError;
use crate::json;
use crate::shape::{shape, Shape};

/// Largest DECIMAL scale printed: a scale is a count of digits written for
/// every value, and a damaged footer can claim billions.
const MAX_SCALE: i32 = 1000;

/// Longest unscaled decimal value converted to digits, in bytes (about
/// 2,400 digits): conversion time grows with the square of the length.
const MAX_DECIMAL_BYTES: usize = 1024;

/// How byte strings (BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY without a text or
/// numeric annotation) are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BytesFormat {
    /// Lowercase hexadecimal (the fixtures' encoding).
    #[default]
    Hex,
    /// Standard base64 with padding.
    Base64,
}

/// The fields `cat` prints: dotted paths of top-level or nested fields
/// (`a`, `b.c`), through lists and map values to the fields of their
/// elements (`stops.name`). Empty: every field.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Columns {
    paths: Vec<String>,
}

impl Columns {
    /// Every field.
    pub fn all() -> Self {
        Columns::default()
    }

    /// `a,b.c`: comma-separated dotted paths.
    pub fn parse(spec: &str) -> std::result::Result<Self, String> {
        let paths: Vec<String> = spec.split(',').map(|p| p.trim().to_owned()).collect();
        if let Some(bad) = paths.iter().find(|p| p.is_empty() || p.split('.').any(str::is_empty)) {
            return Err(format!("invalid column path `{bad}` in `{spec}`: expected dotted names such as `a,b.c`"));
        }
        Ok(Columns { paths })
    }

    fn selection(&self) -> Selection {
        match self.paths.is_empty() {
            true => Selection::All,
            false => Selection::Some(
                self.paths.iter().map(|p| (p.clone(), p.split('.').map(str::to_owned).collect())).collect(),
            ),
        }
    }
}

/// A projection at one node: everything, or these (full path, remaining
/// segments) pairs.
enum Selection {
    All,
    Some(Vec<(String, Vec<String>)>),
}

impl Selection {
    /// The selection within the child `name`, if it is selected at all.
    /// Segments are matched greedily, so a field whose name holds dots
    /// (`a.b`) is selected by its name too.
    fn child(&self, name: &str) -> Option<Selection> {
        let Selection::Some(paths) = self else { return Some(Selection::All) };
        let mut rest = Vec::new();
        for (full, segments) in paths {
            if let Some(k) = (1..=segments.len()).find(|&k| segments[..k].join(".") == name) {
                if k == segments.len() {
                    return Some(Selection::All);
                }
                rest.push((full.clone(), segments[k..].to_vec()));
            }
        }
        (!rest.is_empty()).then_some(Selection::Some(rest))
    }

    /// The full paths that no child of the group named `names` selects.
    fn unknown<'a>(&'a self, names: &[&str]) -> Option<&'a str> {
        let Selection::Some(paths) = self else { return None };
        paths
            .iter()
            .find(|(_, segments)| !(1..=segments.len()).any(|k| names.contains(&segments[..k].join(".").as_str())))
            .map(|(full, _)| full.as_str())
    }
}

/// Why `cat` cannot read a file: a column the projection names that the
/// file lacks, or the library's error.
#[derive(Debug, thiserror::Error)]
pub enum CatError {
    /// `--columns` names a field the file does not have.
    #[error("no column `{column}`; the file's columns are: {}", .columns.join(", "))]
    UnknownColumn {
        /// The path given.
        column: String,
        /// Every path the file has.
        columns: Vec<String>,
    },
    /// The library's error (a damaged file, a value that cannot be read).
    #[error(transparent)]
    Read(#[from] magnolify_parquet::Error),
}

/// Reads records of any schema as JSON values (see the [module docs](self)).
#[derive(Clone, Debug, Default)]
pub struct JsonRecords {
    bytes: BytesFormat,
    columns: Columns,
}

impl JsonRecords {
    /// A converter writing byte strings as `bytes` says and keeping the fields `columns`.
    pub fn new(bytes: BytesFormat, columns: Columns) -> Self {
        JsonRecords { bytes, columns }
    }

    /// Resolves against `schema`, telling an unknown column apart.
    pub fn plan(&self, schema: &SchemaDescriptor) -> std::result::Result<(JsonPlan, Vec<usize>), CatError> {
        let root = FileNode::root(schema);
        let mut resolver = Resolver::new(schema);
        let root = self.group(&root, &self.columns.selection(), &mut resolver)?;
        Ok((JsonPlan { root }, resolver.into_columns()))
    }

    fn node(&self, node: &FileNode<'_>, sel: &Selection, r: &mut Resolver<'_>) -> std::result::Result<Node, CatError> {
        if node.repetition() == Repetition::OPTIONAL && node.is_group() {
            let first = r.cursors();
            let inner = self.content(&node.as_required(), sel, r)?;
            let presence = Presence::since(node, first, r, node.def())?;
            return Ok(Node::Optional { presence, inner: Box::new(inner) });
        }
        self.content(node, sel, r)
    }

    /// The plan of what `node` holds; an optional leaf reads its own nulls.
    fn content(
        &self,
        node: &FileNode<'_>,
        sel: &Selection,
        r: &mut Resolver<'_>,
    ) -> std::result::Result<Node, CatError> {
        let nested = |child: &FileNode<'_>, r: &mut Resolver<'_>| self.node(child, sel, r);
        match shape(node) {
            Shape::Leaf => {
                if let Selection::Some(paths) = sel {
                    // A path goes on below a leaf.
                    let column = paths.first().map(|(full, _)| full.clone()).unwrap_or_default();
                    return Err(unknown(r.schema(), column));
                }
                Ok(Node::Leaf(leaf(node, r)?))
            }
            Shape::List(list) | Shape::Keys(list) => {
                let first = r.cursors();
                let element = nested(&list.element, r)?;
                let levels = ListLevels::since(node, list.null_def, &list.repeated, first, r)?;
                Ok(Node::List { levels, element: Box::new(element) })
            }
            Shape::Map(map) => {
                let first = r.cursors();
                let key = self.node(&map.key, &Selection::All, r)?;
                let value = match &map.value {
                    Some(value) => nested(value, r)?,
                    None => return Err(CatError::Read(node.error("a map without values"))),
                };
                let levels = ListLevels::since(node, map.null_def, &map.repeated, first, r)?;
                Ok(Node::Map { levels, key: Box::new(key), value: Box::new(value) })
            }
            Shape::Group { .. } => self.group(node, sel, r),
        }
    }

    fn group(&self, node: &FileNode<'_>, sel: &Selection, r: &mut Resolver<'_>) -> std::result::Result<Node, CatError> {
        let children = node.children();
        let names: Vec<&str> = children.iter().map(|c| c.name()).collect();
        if let Some(column) = sel.unknown(&names) {
            return Err(unknown(r.schema(), column.to_owned()));
        }
        let mut fields = Vec::with_capacity(children.len());
        for child in &children {
            if let Some(sub) = sel.child(child.name()) {
                fields.push((child.name().to_owned(), self.node(child, &sub, r)?));
            }
        }
        Ok(Node::Group(fields))
    }

    fn read(&self, node: &Node, src: &mut RecordSource) -> Result<Value> {
        match node {
            Node::Leaf(leaf) => leaf.read(src, self.bytes),
            Node::Optional { presence, inner } => {
                if presence.is_present(src) {
                    self.read(inner, src)
                } else {
                    presence.skip(src)?;
                    Ok(Value::Null)
                }
            }
            Node::List { levels, element } => elements(levels, src, |src| self.read(element, src)),
            Node::Map { levels, key, value } => elements(levels, src, |src| {
                let k = self.read(key, src)?;
                Ok(Value::Array(vec![k, self.read(value, src)?]))
            }),
            Node::Group(fields) => {
                let mut out = Map::with_capacity(fields.len());
                for (name, field) in fields {
                    out.insert(name.clone(), self.read(field, src)?);
                }
                Ok(Value::Object(out))
            }
        }
    }
}

/// The array of the values `element` reads, one per element of a list (or
/// entry of a map).
fn elements(
    levels: &ListLevels,
    src: &mut RecordSource,
    mut element: impl FnMut(&mut RecordSource) -> Result<Value>,
) -> Result<Value> {
    let mut out = Vec::new();
    levels.read(src, |src| {
        out.push(element(src)?);
        Ok(())
    })?;
    Ok(Value::Array(out))
}

/// The error for `column`, listing the paths the schema has.
fn unknown(schema: &SchemaDescriptor, column: String) -> CatError {
    let mut columns = Vec::new();
    field_paths(&FileNode::root(schema), "", &mut columns, 0);
    CatError::UnknownColumn { column, columns }
}

/// The dotted paths `--columns` accepts under `node`, depth first.
fn field_paths(node: &FileNode<'_>, prefix: &str, out: &mut Vec<String>, depth: usize) {
    // The library's footer reader refuses deeper schemas; recursion stays bounded anyway.
    if depth > 100 {
        return;
    }
    let node = node.as_required();
    match shape(&node) {
        Shape::Leaf => {}
        Shape::List(list) | Shape::Keys(list) => field_paths(&list.element, prefix, out, depth + 1),
        Shape::Map(map) => {
            if let Some(value) = &map.value {
                field_paths(value, prefix, out, depth + 1);
            }
        }
        Shape::Group { .. } => {
            for child in node.children() {
                let path =
                    if prefix.is_empty() { child.name().to_owned() } else { format!("{prefix}.{}", child.name()) };
                out.push(path.clone());
                field_paths(&child, &path, out, depth + 1);
            }
        }
    }
}

impl RecordRead for JsonRecords {
    type Record = Value;
    type ReadPlan = JsonPlan;

    fn resolve(&self, file: &SchemaDescriptor) -> Result<(JsonPlan, Vec<usize>)> {
        self.plan(file).map_err(|e| match e {
            CatError::Read(e) => e,
            unknown @ CatError::UnknownColumn { .. } => FileNode::root(file).error(unknown.to_string()),
        })
    }

    fn read(&self, plan: &JsonPlan, source: &mut RecordSource) -> Result<Value> {
        self.read(&plan.root, source)
    }
}

/// What [`JsonRecords`] resolved for one schema.
#[derive(Debug)]
pub struct JsonPlan {
    root: Node,
}

/// A node of the read plan.
#[derive(Debug)]
enum Node {
    Leaf(Leaf),
    /// An optional group, list or map: `null` when absent.
    Optional {
        presence: Presence,
        inner: Box<Node>,
    },
    List {
        levels: ListLevels,
        element: Box<Node>,
    },
    Map {
        levels: ListLevels,
        key: Box<Node>,
        value: Box<Node>,
    },
    Group(Vec<(String, Node)>),
}

/// One column and how its values are written.
#[derive(Debug)]
struct Leaf {
    cursor: usize,
    physical: Physical,
    kind: Kind,
    /// Optional in the file: a null is `null`, not an error.
    nullable: bool,
}

/// How a leaf's values are written, by annotation.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    /// The physical value as it is (BOOLEAN, signed integers, FLOAT, DOUBLE).
    Plain,
    /// INTEGER(_, false): the bits as unsigned.
    Unsigned,
    Date,
    Time(TimeUnit),
    Timestamp(TimeUnit, bool),
    /// DECIMAL with this scale, on any physical type.
    Decimal(i32),
    /// STRING, ENUM, JSON: UTF-8 text.
    Text,
    /// UUID: 32 hex digits.
    Uuid,
    Float16,
    /// Other bytes: hex or base64.
    Bytes,
}

fn leaf(node: &FileNode<'_>, r: &mut Resolver<'_>) -> Result<Leaf> {
    let (cursor, descr) = r.leaf(&node.as_required())?;
    let physical = descr.physical_type();
    let length = match node.ty() {
        Type::PrimitiveType { type_length, .. } => *type_length,
        Type::GroupType { .. } => 0,
    };
    use Physical::*;
    let kind = match (Annotation::of(node.ty()), physical) {
        (_, BOOLEAN | INT96 | FLOAT | DOUBLE) => Kind::Plain,
        (Annotation::Integer { signed: false, .. }, INT32 | INT64) => Kind::Unsigned,
        (Annotation::Date, INT32) => Kind::Date,
        (Annotation::Time { unit, .. }, INT32 | INT64) => Kind::Time(unit),
        (Annotation::Timestamp { unit, utc }, INT64) => Kind::Timestamp(unit, utc),
        (Annotation::Decimal { scale, .. }, _) => {
            if !(0..=MAX_SCALE).contains(&scale) {
                return Err(node.error(format!("DECIMAL scale {scale} outside 0..={MAX_SCALE}: {}", node.describe())));
            }
            Kind::Decimal(scale)
        }
        (_, INT32 | INT64) => Kind::Plain,
        (a, BYTE_ARRAY) if a.is_text() => Kind::Text,
        (Annotation::Uuid, FIXED_LEN_BYTE_ARRAY) if length == 16 => Kind::Uuid,
        (Annotation::Float16, FIXED_LEN_BYTE_ARRAY) if length == 2 => Kind::Float16,
        (_, BYTE_ARRAY | FIXED_LEN_BYTE_ARRAY) => Kind::Bytes,
    };
    Ok(Leaf { cursor, physical, kind, nullable: node.repetition() == Repetition::OPTIONAL })
}

impl Leaf {
    /// The next value of the column.
    fn read(&self, src: &mut RecordSource, bytes: BytesFormat) -> Result<Value> {
        let c = self.cursor;
        let value = match self.physical {
            Physical::BOOLEAN => src.take_bool(c)?.map(Value::Bool),
            Physical::INT32 => match src.take_i32(c)? {
                Some(v) if self.kind == Kind::Unsigned => Some(Value::from(v as u32)),
                Some(v) => Some(self.integer(src, i64::from(v))?),
                None => None,
            },
            Physical::INT64 => match src.take_i64(c)? {
                Some(v) if self.kind == Kind::Unsigned => Some(Value::from(v as u64)),
                Some(v) => Some(self.integer(src, v)?),
                None => None,
            },
            Physical::INT96 => src.take_i96(c)?.map(|v| {
                let [a, b, c] = v.data() else { return Value::Null };
                Value::from(json::datetime_text(json::int96_nanos([*a, *b, *c]), 9, false))
            }),
            Physical::FLOAT => src.take_f32(c)?.map(|v| json::float(f64::from(v))),
            Physical::DOUBLE => src.take_f64(c)?.map(json::float),
            Physical::BYTE_ARRAY | Physical::FIXED_LEN_BYTE_ARRAY => {
                match src.take_byte_slice(c, |b| self.bytes(b, bytes))? {
                    Some(Ok(v)) => Some(v),
                    Some(Err(message)) => return Err(src.value_error(c, message)),
                    None => None,
                }
            }
        };
        match value {
            Some(v) => Ok(v),
            None if self.nullable => Ok(Value::Null),
            None => Err(src.null_error(c)),
        }
    }

    /// An INT32 or INT64 value (widened) by annotation.
    fn integer(&self, src: &RecordSource, v: i64) -> Result<Value> {
        Ok(match self.kind {
            Kind::Date => Value::from(json::date_text(v)),
            Kind::Time(unit) => {
                let nanos = i128::from(v) * json::nanos_per(unit);
                if !(0..json::NANOS_PER_DAY).contains(&nanos) {
                    return Err(src.value_error(self.cursor, format!("{v} is not a time of day in {unit:?}")));
                }
                Value::from(json::time_text(nanos as u64, json::time_digits(unit)))
            }
            Kind::Timestamp(unit, utc) => {
                Value::from(json::datetime_text(i128::from(v) * json::nanos_per(unit), json::time_digits(unit), utc))
            }
            Kind::Decimal(scale) => Value::from(json::decimal_text(&v.to_string(), i64::from(scale))),
            _ => Value::from(v),
        })
    }

    /// A BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY value by annotation.
    fn bytes(&self, b: &[u8], format: BytesFormat) -> std::result::Result<Value, String> {
        Ok(match self.kind {
            Kind::Text => match std::str::from_utf8(b) {
                Ok(s) => Value::from(s),
                Err(e) => return Err(format!("invalid UTF-8 in a text column: {e}")),
            },
            Kind::Decimal(scale) => {
                if b.len() > MAX_DECIMAL_BYTES {
                    return Err(format!("a decimal of {} bytes (at most {MAX_DECIMAL_BYTES} are printed)", b.len()));
                }
                Value::from(json::decimal_text(&json::unscaled_text(b), i64::from(scale)))
            }
            Kind::Uuid => Value::from(json::hex(b)),
            Kind::Float16 => match b {
                [lo, hi] => json::float(magnolify_parquet::convert::float16_to_f64(u16::from_le_bytes([*lo, *hi]))),
                _ => return Err(format!("{} bytes in a FLOAT16 column", b.len())),
            },
            _ => Value::from(match format {
                BytesFormat::Hex => json::hex(b),
                BytesFormat::Base64 => json::base64(b),
            }),
        })
    }
}

/// Prints the records of the Parquet file at `path` to `out`, one JSON
/// line each, at most `limit` of them; returns how many were printed. A
/// closed output (`| head`) ends the printing without an error.
pub fn print(
    path: &Path,
    converter: JsonRecords,
    limit: Option<u64>,
    out: &mut dyn Write,
) -> std::result::Result<u64, CliError> {
    let builder = crate::input::open(path)?;
    // Resolved here first, for the one error that is the user's rather than the file's.
    if let Err(CatError::UnknownColumn { column, columns }) = converter.plan(builder.schema()) {
        return Err(CliError::other(path, CatError::UnknownColumn { column, columns }));
    }
    let batch = limit.map_or(1024, |n| n.clamp(1, 1024) as usize);
    let reader = builder
        .build_with(converter, ReadOptions::default().batch_size(batch))
        .map_err(|e| CliError::records(path, &e))?;
    let stdout = Path::new("<stdout>");
    let mut printed = 0u64;
    for record in reader.take(limit.map_or(usize::MAX, |n| usize::try_from(n).unwrap_or(usize::MAX))) {
        let record = record.map_err(|e| CliError::records(path, &e))?;
        let line = serde_json::to_string(&record).map_err(|e| CliError::other(path, e))?;
        match writeln!(out, "{line}") {
            Ok(()) => printed += 1,
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(printed),
            Err(e) => return Err(CliError::io(stdout, e)),
        }
    }
    match out.flush() {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(CliError::io(stdout, e)),
        _ => Ok(printed),
    }
}
