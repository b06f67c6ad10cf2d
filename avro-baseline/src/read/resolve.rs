//! Resolution of the compiled Avro schema against a file's schema, once per
//! file: record fields matched by name (then by alias), lists and maps of
//! every layout through the core's `list_shape` / `map_shape`, the columns
//! to decode chosen in cursor order.

use apache_avro::types::Value;
use magnolify_parquet::convert::{list_shape, map_shape, FileNode, ListLevels, NullCheck, Presence, Resolver};
use magnolify_parquet::parquet::basic::{Repetition, Type as Physical};
use magnolify_parquet::Result;

use super::{leaf, MapValues, RNode, RRecord, RUnion};
use crate::plan::{Field, Kind, Node, Union};

/// The read plan of `node` over the file's `file` node.
pub(crate) fn resolve(node: &Node, file: &FileNode<'_>, resolver: &mut Resolver<'_>) -> Result<RNode> {
    match &node.kind {
        Kind::Null => Ok(RNode::Const(Value::Null)),
        Kind::Leaf(l) => {
            not_repeated(file, l.avro_name())?;
            let (cursor, descr) = resolver.leaf(file)?;
            Ok(RNode::Leaf { cursor, conv: leaf::resolve(l, file, &descr)? })
        }
        Kind::Record(record) => {
            if !file.is_group() {
                return Err(file.error(format!("Avro record {} cannot read {}", record.name, file.describe())));
            }
            not_repeated(file, "a record")?;
            let start = NullCheck::begin(file, resolver);
            let fields = record
                .fields
                .iter()
                .map(|f| Ok((f.name.clone(), field(f, file, resolver)?)))
                .collect::<Result<Vec<_>>>()?;
            Ok(RNode::Record(RRecord { null_check: start.finish(resolver), fields }))
        }
        Kind::Nullable(n) => {
            let (inner_file, optional) = match file.repetition() {
                Repetition::OPTIONAL => (file.as_required(), true),
                // A bare repeated field (a 1-level list) is never null.
                Repetition::REQUIRED | Repetition::REPEATED => (file.clone(), false),
            };
            let first = resolver.cursors();
            let inner = resolve(&n.inner, &inner_file, resolver)?;
            let presence = if optional { Some(presence(file, first, resolver)?) } else { None };
            Ok(RNode::Nullable { null: n.null, value: n.value, presence, inner: Box::new(inner) })
        }
        Kind::Array(items) => {
            let shape = list_shape(file)?;
            let first = resolver.cursors();
            let items = resolve(items, &shape.element, resolver)?;
            let levels = ListLevels::since(file, shape.null_def, &shape.repeated, first, resolver)?;
            Ok(RNode::Array { levels, items: Box::new(items) })
        }
        Kind::Map(values) => {
            let shape = map_shape(file)?;
            let first = resolver.cursors();
            let (key, descr) = resolver.leaf(&shape.key.as_required())?;
            if descr.physical_type() != Physical::BYTE_ARRAY {
                return Err(shape
                    .key
                    .error(format!("Avro map keys are strings; the file's are {}", shape.key.describe())));
            }
            let values = match (&shape.value, &values.kind) {
                (_, Kind::Null) => MapValues::Const(Value::Null),
                (Some(v), _) => MapValues::Read(Box::new(resolve(values, v, resolver)?)),
                (None, Kind::Nullable(n)) => MapValues::Const(Value::Union(n.null, Box::new(Value::Null))),
                (None, _) => {
                    return Err(file.error("the map has no values in the file, and the Avro values are not nullable"))
                }
            };
            let levels = ListLevels::since(file, shape.null_def, &shape.repeated, first, resolver)?;
            Ok(RNode::Map { levels, key, values })
        }
        Kind::Union(u) => {
            if !file.is_group() {
                return Err(file.error(format!("an Avro union of several types cannot read {}", file.describe())));
            }
            not_repeated(file, "a union")?;
            let optional = file.repetition() == Repetition::OPTIONAL;
            let group = file.as_required();
            let first = resolver.cursors();
            let mut members = Vec::new();
            for (i, m) in u.members.iter().enumerate() {
                let Some(child) = group.child(&format!("member{i}")) else { continue };
                let member_first = resolver.cursors();
                let (member_file, member_optional) = match child.repetition() {
                    Repetition::OPTIONAL => (child.as_required(), true),
                    _ => (child.clone(), false),
                };
                let plan = resolve(&m.node, &member_file, resolver)?;
                let p = if member_optional { Some(presence(&child, member_first, resolver)?) } else { None };
                members.push((m.branch, p, plan));
            }
            let presence = if optional { Some(presence(file, first, resolver)?) } else { None };
            let cursor = first;
            if members.is_empty() {
                return Err(file.error(format!("none of the union's members are in the file ({})", file.field_names())));
            }
            Ok(RNode::Union(RUnion { null: u.null, presence, members, cursor }))
        }
    }
}

/// A record field: read from the file's child of the same name (or an
/// alias), else its default, else null when it is nullable.
fn field(f: &Field, group: &FileNode<'_>, resolver: &mut Resolver<'_>) -> Result<RNode> {
    if matches!(f.node.kind, Kind::Null) {
        return Ok(RNode::Const(Value::Null));
    }
    let child = group.child(&f.name).or_else(|| f.aliases.iter().find_map(|a| group.child(a)));
    if let Some(child) = child {
        return resolve(&f.node, &child, resolver);
    }
    match (&f.default, &f.node.kind) {
        (Some(Ok(v)), _) => Ok(RNode::Const(v.clone())),
        (Some(Err(e)), _) => {
            Err(group.error(format!("field `{}` is not in the file and its default is invalid: {e}", f.name)))
        }
        (None, Kind::Nullable(n)) => Ok(RNode::Const(Value::Union(n.null, Box::new(Value::Null)))),
        (None, Kind::Union(Union { null: Some(null), .. })) => {
            Ok(RNode::Const(Value::Union(*null, Box::new(Value::Null))))
        }
        (None, _) => Err(group.error(format!(
            "Avro field `{}` has no default and is not in the file; the file has {}",
            f.name,
            group.field_names()
        ))),
    }
}

fn not_repeated(file: &FileNode<'_>, what: &str) -> Result<()> {
    if file.repetition() == Repetition::REPEATED {
        return Err(file.error(format!("Avro {what} cannot read a repeated field ({}): use an array", file.describe())));
    }
    Ok(())
}

fn presence(file: &FileNode<'_>, first: usize, resolver: &Resolver<'_>) -> Result<Presence> {
    Presence::since(file, first, resolver, file.def())
}
