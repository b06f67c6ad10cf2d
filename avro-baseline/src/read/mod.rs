//! The read side: the compiled Avro schema resolved against a file's schema
//! into a read plan (`resolve.rs`), then `Value`s assembled from the column
//! cursors by the recursive descent of the Dremel paper: `peek` at a node's
//! first cursor tells whether it is present and whether a list goes on.
//!
//! Per record this does no lookups: field names were matched when the plan
//! was made. It allocates what the `Value` tree owns, which includes one
//! `String` per record field (the field name, as `Value::Record` holds it).

mod leaf;
mod resolve;

use std::collections::HashMap;

use apache_avro::types::Value;
use magnolify_parquet::convert::{ListLevels, NullCheck, Presence, RecordSource};
use magnolify_parquet::Result;

pub(crate) use resolve::resolve;

/// What reading a file needs: the root record's plan.
#[derive(Debug)]
pub struct ReadPlan {
    pub(crate) root: RNode,
}

/// A node of the read plan.
#[derive(Debug)]
pub(crate) enum RNode {
    Leaf {
        cursor: usize,
        conv: leaf::Conv,
    },
    Record(RRecord),
    /// `["null", T]`: `Union(null, Null)` when absent.
    Nullable {
        null: u32,
        value: u32,
        /// How to tell absence; `None` when the file's node is required.
        presence: Option<Presence>,
        inner: Box<RNode>,
    },
    Array {
        levels: ListLevels,
        items: Box<RNode>,
    },
    Map {
        levels: ListLevels,
        key: usize,
        /// `None` for a key-only map: each value is `null`, or `Union(null, Null)`.
        values: MapValues,
    },
    Union(RUnion),
    /// A value fixed by the plan: a `null` field, or the default of a field
    /// the file does not have.
    Const(Value),
}

/// Where a map's values come from.
#[derive(Debug)]
pub(crate) enum MapValues {
    Read(Box<RNode>),
    Const(Value),
}

/// A record: its fields in Avro order.
#[derive(Debug)]
pub(crate) struct RRecord {
    /// (cursor, level) where the file's group is optional but the Avro record is not.
    pub(crate) null_check: Option<NullCheck>,
    pub(crate) fields: Vec<(String, RNode)>,
}

/// A union of several non-null branches, read from `memberN` fields.
#[derive(Debug)]
pub(crate) struct RUnion {
    pub(crate) null: Option<u32>,
    pub(crate) presence: Option<Presence>,
    /// (branch index, presence of the member, plan) for the members the file has.
    pub(crate) members: Vec<(u32, Option<Presence>, RNode)>,
    /// Cursor to name in errors.
    pub(crate) cursor: usize,
}

/// Assembles the value of `node`.
pub(crate) fn read(node: &RNode, src: &mut RecordSource) -> Result<Value> {
    match node {
        RNode::Leaf { cursor, conv } => leaf::read(*cursor, conv, src),
        RNode::Record(r) => {
            if let Some(check) = &r.null_check {
                check.check(src)?;
            }
            let mut fields = Vec::with_capacity(r.fields.len());
            for (name, field) in &r.fields {
                fields.push((name.clone(), read(field, src)?));
            }
            Ok(Value::Record(fields))
        }
        RNode::Nullable { null, value, presence, inner } => match presence {
            Some(p) if !p.is_present(src) => {
                p.skip(src)?;
                Ok(Value::Union(*null, Box::new(Value::Null)))
            }
            _ => Ok(Value::Union(*value, Box::new(read(inner, src)?))),
        },
        RNode::Array { levels, items } => {
            let mut out = Vec::new();
            levels.read(src, |src| {
                out.push(read(items, src)?);
                Ok(())
            })?;
            Ok(Value::Array(out))
        }
        RNode::Map { levels, key, values } => {
            let mut out = HashMap::new();
            levels.read(src, |src| {
                let k = match leaf::read(*key, &leaf::Conv::String, src)? {
                    Value::String(k) => k,
                    other => return Err(src.bug(*key, format!("map key read as {other:?}"))),
                };
                let v = match values {
                    MapValues::Read(node) => read(node, src)?,
                    MapValues::Const(v) => v.clone(),
                };
                // Duplicate keys: the last one wins, as parquet-avro's `put` does.
                out.insert(k, v);
                Ok(())
            })?;
            Ok(Value::Map(out))
        }
        RNode::Union(u) => read_union(u, src),
        RNode::Const(v) => Ok(v.clone()),
    }
}

fn read_union(u: &RUnion, src: &mut RecordSource) -> Result<Value> {
    let absent = |src: &RecordSource| match u.null {
        Some(null) => Ok(Value::Union(null, Box::new(Value::Null))),
        None => Err(src.null_error(u.cursor)),
    };
    if let Some(p) = &u.presence {
        if !p.is_present(src) {
            p.skip(src)?;
            return absent(src);
        }
    }
    let mut found = None;
    for (branch, presence, node) in &u.members {
        match presence {
            Some(p) if !p.is_present(src) => p.skip(src)?,
            _ => {
                let v = read(node, src)?;
                if found.is_some() {
                    return Err(src.value_error(u.cursor, "more than one member of the union is set"));
                }
                found = Some(Value::Union(*branch, Box::new(v)));
            }
        }
    }
    match found {
        Some(v) => Ok(v),
        None => absent(src),
    }
}
