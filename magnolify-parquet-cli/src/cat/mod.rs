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
//!
//! `columns` holds the projection, `leaf` the text of each leaf's values.

mod bytes_format;
mod columns;
mod error;
mod leaf;

use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use magnolify_parquet::convert::{FileNode, ListLevels, Presence, RecordRead, RecordReadOwned, RecordSource, Resolver};
use magnolify_parquet::{ReadOptions, Result};
use parquet::basic::Repetition;
use parquet::schema::types::{SchemaDescriptor, Type, TypePtr};
use serde_json::{Map, Value};

pub use bytes_format::BytesFormat;
pub use columns::Columns;
use columns::{unknown, Selection};
pub use error::CatError;
use leaf::{leaf, Leaf};

use crate::error::CliError;
use crate::shape::{shape, Shape};

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

impl RecordRead for JsonRecords {
    type Record<'de> = Value;
    type ReadPlan = JsonPlan;

    fn resolve(&self, file: &SchemaDescriptor) -> Result<(JsonPlan, Vec<usize>)> {
        self.plan(file).map_err(|e| match e {
            CatError::Read(e) => e,
            unknown @ CatError::UnknownColumn { .. } => FileNode::root(file).error(unknown.to_string()),
        })
    }

    fn read<'de>(&self, plan: &JsonPlan, source: &mut RecordSource<'de>) -> Result<Value> {
        self.read(&plan.root, source)
    }
}

impl RecordReadOwned for JsonRecords {
    type Owned = Value;
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

/// Prints the records of the Parquet file at `path` to `out`, one JSON
/// line each, at most `limit` of them; returns how many were printed. A
/// closed output (`| head`) ends the printing without an error. A
/// directory is a Hive-partitioned dataset: its files in order (as
/// `DatasetReader` finds them), each record with its partition values as
/// text fields after its own (`null` for `__HIVE_DEFAULT_PARTITION__`).
pub fn print(
    path: &Path,
    converter: JsonRecords,
    limit: Option<u64>,
    out: &mut dyn Write,
) -> std::result::Result<u64, CliError> {
    if !path.is_dir() {
        return print_file(path, &[], converter, limit, out);
    }
    let files = magnolify_parquet::dataset::discover(path).map_err(|e| CliError::records(path, &e))?;
    let mut printed = 0u64;
    for file in files {
        let left = limit.map(|n| n - printed);
        if left == Some(0) {
            break;
        }
        printed += print_file(&file.path, &file.partition, converter.clone(), left, out)?;
    }
    Ok(printed)
}

/// The partition values of a dataset's file as constant text columns.
fn partition_columns(partition: &[(String, Option<String>)]) -> Result<Vec<(TypePtr, Option<Vec<u8>>)>> {
    let column = |name: &str| -> Result<TypePtr> {
        let ty = Type::primitive_type_builder(name, parquet::basic::Type::BYTE_ARRAY)
            .with_repetition(Repetition::OPTIONAL)
            .with_logical_type(Some(parquet::basic::LogicalType::String))
            .build()
            .map_err(|e| magnolify_parquet::Error::schema(name, e.to_string()))?;
        Ok(Arc::new(ty))
    };
    partition.iter().map(|(name, value)| Ok((column(name)?, value.clone().map(String::into_bytes)))).collect()
}

/// [`print`] of one file, `partition` its values in a dataset.
fn print_file(
    path: &Path,
    partition: &[(String, Option<String>)],
    converter: JsonRecords,
    limit: Option<u64>,
    out: &mut dyn Write,
) -> std::result::Result<u64, CliError> {
    let builder = crate::input::open(path)?;
    let builder = match partition.is_empty() {
        true => builder,
        false => partition_columns(partition)
            .and_then(|columns| builder.constant_columns(columns))
            .map_err(|e| CliError::records(path, &e))?,
    };
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
