//! Shredding: a `Value` walked together with its compiled node, pushing one
//! triplet per leaf and value into the sink, with the levels `WriteAt`
//! carries (the Dremel striping the derived code does too).
//!
//! Per record this does no schema lookups, no name comparisons (unless
//! `check_field_names`), no clones and no allocation, except one byte
//! buffer per decimal, big-decimal or sorted map (the `apache_avro` types
//! offer no borrowed form).

use apache_avro::schema::SchemaKind;
use apache_avro::types::Value;
use magnolify_parquet::convert::{ColumnSink, WriteAt};
use magnolify_parquet::Result;

use crate::bytes::{big_decimal_bytes, check_precision, decimal_bytes};
use crate::error::{mismatch, value_error};
use crate::plan::{Kind, Leaf, Node, Nullable, Record, Union};
use crate::AvroOptions;

/// Writes `value` as the node at `at`.
pub(crate) fn write(node: &Node, value: &Value, sink: &mut ColumnSink, at: WriteAt, opts: &AvroOptions) -> Result<()> {
    match &node.kind {
        Kind::Leaf(leaf) => write_leaf(node, leaf, value, sink, at),
        Kind::Record(record) => write_record(node, record, value, sink, at, opts),
        Kind::Nullable(n) => write_nullable(node, n, value, sink, at, opts),
        Kind::Array(items) => {
            let Value::Array(values) = value else { return Err(mismatch(&node.path, "array", value)) };
            if values.is_empty() {
                return sink.push_nulls(at, node.leaves);
            }
            for (i, v) in values.iter().enumerate() {
                write(items, v, sink, at.element(i), opts)?;
            }
            Ok(())
        }
        Kind::Map(values) => {
            let Value::Map(entries) = value else { return Err(mismatch(&node.path, "map", value)) };
            if entries.is_empty() {
                return sink.push_nulls(at, node.leaves);
            }
            if opts.sort_map_keys {
                let mut sorted: Vec<(&String, &Value)> = entries.iter().collect();
                sorted.sort_unstable_by(|a, b| a.0.cmp(b.0));
                write_entries(values, sorted.into_iter(), sink, at, opts)
            } else {
                write_entries(values, entries.iter(), sink, at, opts)
            }
        }
        Kind::Union(u) => write_union(node, u, value, sink, at, opts),
        Kind::Null => match value {
            Value::Null => Ok(()),
            other => Err(mismatch(&node.path, "null", other)),
        },
    }
}

fn write_entries<'a>(
    values: &Node,
    entries: impl Iterator<Item = (&'a String, &'a Value)>,
    sink: &mut ColumnSink,
    at: WriteAt,
    opts: &AvroOptions,
) -> Result<()> {
    for (i, (k, v)) in entries.enumerate() {
        let e = at.element(i);
        sink.push_bytes(e, k.as_bytes())?;
        write(values, v, sink, e.skip_leaves(1), opts)?;
    }
    Ok(())
}

fn write_record(
    node: &Node,
    record: &Record,
    value: &Value,
    sink: &mut ColumnSink,
    at: WriteAt,
    opts: &AvroOptions,
) -> Result<()> {
    let Value::Record(values) = value else { return Err(mismatch(&node.path, "record", value)) };
    if values.len() != record.fields.len() {
        return Err(value_error(
            &node.path,
            format!("record {} has {} fields, the value has {}", record.name, record.fields.len(), values.len()),
        ));
    }
    for (field, (name, v)) in record.fields.iter().zip(values) {
        if opts.check_field_names && *name != field.name {
            return Err(value_error(&field.node.path, format!("field `{}` found at its position", name)));
        }
        write(&field.node, v, sink, at.skip_leaves(field.offset), opts)?;
    }
    Ok(())
}

fn write_nullable(
    node: &Node,
    n: &Nullable,
    value: &Value,
    sink: &mut ColumnSink,
    at: WriteAt,
    opts: &AvroOptions,
) -> Result<()> {
    // A value may come as the union branch or, as Avro's own validation
    // allows, as the bare value (null or the inner type).
    let inner = match value {
        Value::Union(i, v) if *i == n.value => v.as_ref(),
        Value::Union(i, v) if *i == n.null => {
            if !matches!(v.as_ref(), Value::Null) {
                return Err(mismatch(&node.path, "null in the null branch", v));
            }
            return write_null(node, n.repeated, sink, at);
        }
        Value::Union(i, _) => {
            return Err(value_error(&node.path, format!("union branch {i} does not exist (the union has 2)")));
        }
        Value::Null => return write_null(node, n.repeated, sink, at),
        other => other,
    };
    // In an old-layout list the element node is the repeated one: no level of its own.
    let at = if n.repeated { at } else { at.defined() };
    write(&n.inner, inner, sink, at, opts)
}

fn write_null(node: &Node, repeated: bool, sink: &mut ColumnSink, at: WriteAt) -> Result<()> {
    if repeated {
        return Err(value_error(
            &node.path,
            "null list element: the two-level (and repeated) list layouts cannot hold nulls; use ListLayout::ThreeLevel",
        ));
    }
    sink.push_nulls(at, node.leaves)
}

fn write_union(
    node: &Node,
    u: &Union,
    value: &Value,
    sink: &mut ColumnSink,
    at: WriteAt,
    opts: &AvroOptions,
) -> Result<()> {
    let (member, inner) = match value {
        Value::Union(i, v) => match u.member_of_branch.get(*i as usize) {
            Some(Some(m)) => (*m, v.as_ref()),
            Some(None) => return write_null(node, u.repeated, sink, at),
            None => {
                let n = u.member_of_branch.len();
                return Err(value_error(&node.path, format!("union branch {i} does not exist (the union has {n})")));
            }
        },
        Value::Null if u.null.is_some() => return write_null(node, u.repeated, sink, at),
        // A bare value: the first branch that takes its kind, as Avro resolves unions.
        other => match u.members.iter().position(|m| accepts(&m.node, other)) {
            Some(m) => (m, other),
            None => return Err(mismatch(&node.path, "a value of one of the union's branches", other)),
        },
    };
    let group = if u.null.is_some() && !u.repeated { at.defined() } else { at };
    for (i, m) in u.members.iter().enumerate() {
        let m_at = group.skip_leaves(m.offset);
        if i == member {
            write(&m.node, inner, sink, m_at.defined(), opts)?;
        } else {
            sink.push_nulls(m_at, m.node.leaves)?;
        }
    }
    Ok(())
}

/// Whether a bare value has the kind of `node` (only to pick a union branch).
fn accepts(node: &Node, value: &Value) -> bool {
    let kind = match &node.kind {
        Kind::Record(_) => SchemaKind::Record,
        Kind::Array(_) => SchemaKind::Array,
        Kind::Map(_) => SchemaKind::Map,
        Kind::Leaf(leaf) => leaf.schema_kind(),
        _ => return false,
    };
    SchemaKind::from(value) == kind
}

/// Writes one primitive or logical value. Each type takes its own `Value`
/// variant and, where Avro's validation does, the underlying plain one
/// (`Int` for `date`, `Long` for timestamps, `Bytes` of the right size for
/// `fixed`).
#[inline]
fn write_leaf(node: &Node, leaf: &Leaf, value: &Value, sink: &mut ColumnSink, at: WriteAt) -> Result<()> {
    match (leaf, value) {
        (Leaf::Boolean, Value::Boolean(v)) => sink.push_bool(at, *v),
        (Leaf::Int | Leaf::Date, Value::Int(v))
        | (Leaf::Date, Value::Date(v))
        | (Leaf::TimeMillis, Value::TimeMillis(v) | Value::Int(v)) => sink.push_i32(at, *v),
        (Leaf::Long, Value::Long(v))
        | (Leaf::TimeMicros, Value::TimeMicros(v))
        | (Leaf::TimestampMillis, Value::TimestampMillis(v))
        | (Leaf::TimestampMicros, Value::TimestampMicros(v))
        | (Leaf::TimestampNanos, Value::TimestampNanos(v))
        | (Leaf::LocalTimestampMillis, Value::LocalTimestampMillis(v))
        | (Leaf::LocalTimestampMicros, Value::LocalTimestampMicros(v))
        | (Leaf::LocalTimestampNanos, Value::LocalTimestampNanos(v))
        | (
            Leaf::TimeMicros
            | Leaf::TimestampMillis
            | Leaf::TimestampMicros
            | Leaf::TimestampNanos
            | Leaf::LocalTimestampMillis
            | Leaf::LocalTimestampMicros
            | Leaf::LocalTimestampNanos,
            Value::Long(v),
        ) => sink.push_i64(at, *v),
        (Leaf::Long, Value::Int(v)) => sink.push_i64(at, i64::from(*v)),
        (Leaf::Float, Value::Float(v)) => sink.push_f32(at, *v),
        (Leaf::Double, Value::Double(v)) => sink.push_f64(at, *v),
        (Leaf::Double, Value::Float(v)) => sink.push_f64(at, f64::from(*v)),
        (Leaf::Bytes, Value::Bytes(v)) => sink.push_bytes(at, v),
        (Leaf::String, Value::String(v)) => sink.push_bytes(at, v.as_bytes()),
        _ => write_other_leaf(node, leaf, value, sink, at),
    }
}

/// The rarer leaves, kept out of the hot match above.
fn write_other_leaf(node: &Node, leaf: &Leaf, value: &Value, sink: &mut ColumnSink, at: WriteAt) -> Result<()> {
    let path = &node.path;
    match (leaf, value) {
        (Leaf::Enum(_), Value::Enum(_, symbol)) => sink.push_bytes(at, symbol.as_bytes()),
        (Leaf::Enum(symbols), Value::String(s)) => {
            if !symbols.iter().any(|sym| sym == s) {
                return Err(value_error(path, format!("{s:?} is not a symbol of the enum {symbols:?}")));
            }
            sink.push_bytes(at, s.as_bytes())
        }
        (Leaf::Fixed(size), Value::Fixed(_, b) | Value::Bytes(b)) => {
            if b.len() != *size {
                return Err(value_error(path, format!("{} bytes for a fixed({size})", b.len())));
            }
            sink.push_bytes(at, b)
        }
        (Leaf::Decimal { fixed, precision, .. }, Value::Decimal(d)) => {
            let bytes = decimal_bytes(d, *fixed).map_err(|e| value_error(path, e))?;
            check_precision(&bytes, *precision).map_err(|e| value_error(path, e))?;
            sink.push_bytes(at, &bytes)
        }
        (Leaf::Decimal { fixed: None, precision, .. }, Value::Bytes(b)) => {
            check_precision(b, *precision).map_err(|e| value_error(path, e))?;
            sink.push_bytes(at, b)
        }
        (Leaf::Decimal { fixed: Some(size), precision, .. }, Value::Fixed(_, b)) if b.len() == *size => {
            check_precision(b, *precision).map_err(|e| value_error(path, e))?;
            sink.push_bytes(at, b)
        }
        (Leaf::BigDecimal, Value::BigDecimal(d)) => {
            let mut bytes = Vec::new();
            big_decimal_bytes(d, &mut bytes);
            sink.push_bytes(at, &bytes)
        }
        (Leaf::BigDecimal, Value::Bytes(b)) => sink.push_bytes(at, b),
        (Leaf::Uuid { fixed: true }, Value::Uuid(u)) => sink.push_bytes(at, u.as_bytes()),
        (Leaf::Uuid { fixed: false }, Value::Uuid(u)) => {
            // The canonical text, formatted on the stack.
            let mut text = [0u8; 36];
            sink.push_bytes(at, u.hyphenated().encode_lower(&mut text).as_bytes())
        }
        (Leaf::Uuid { fixed }, Value::String(s)) => {
            let u =
                apache_avro::Uuid::try_parse(s).map_err(|e| value_error(path, format!("{s:?} is not a UUID: {e}")))?;
            if *fixed {
                sink.push_bytes(at, u.as_bytes())
            } else {
                sink.push_bytes(at, s.as_bytes())
            }
        }
        (Leaf::Duration, Value::Duration(d)) => sink.push_bytes(at, &<[u8; 12]>::from(*d)),
        (Leaf::Duration, Value::Fixed(12, b)) => sink.push_bytes(at, b),
        (leaf, other) => Err(mismatch(path, leaf.avro_name(), other)),
    }
}
