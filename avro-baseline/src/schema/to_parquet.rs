//! Avro → Parquet with parquet-avro's rules (`AvroSchemaConverter`):
//! records → groups, `["null", T]` → optional, other unions → groups of
//! optional `memberN`, arrays in the configured list layout, maps → MAP
//! `key_value` with string keys, logical types → annotations.

use std::sync::Arc;

use magnolify_parquet::parquet::basic::{LogicalType, Repetition, TimeUnit, Type as Physical};
use magnolify_parquet::parquet::schema::types::{Type, TypePtr};
use magnolify_parquet::{schema, Result};

use crate::error::schema_error;
use crate::plan::{Kind, Leaf, Node, Record};
use crate::AvroOptions;

/// The Parquet message of a compiled record: named after the record's full name.
pub(crate) fn message(root: &Node, opts: &AvroOptions) -> Result<TypePtr> {
    let Kind::Record(record) = &root.kind else {
        return Err(schema_error("", "Avro schema must be a record"));
    };
    let fields = record_fields(record, opts)?;
    Type::group_type_builder(&record.name)
        .with_fields(fields.into_iter().map(Arc::new).collect())
        .build()
        .map(Arc::new)
        .map_err(|e| schema_error("", e.to_string()))
}

/// The Parquet fields of a record: every field but the `null`-typed ones.
fn record_fields(record: &Record, opts: &AvroOptions) -> Result<Vec<Type>> {
    record
        .fields
        .iter()
        .filter(|f| !matches!(f.node.kind, Kind::Null))
        .map(|f| node_type(&f.node, &f.name, Repetition::REQUIRED, opts))
        .collect()
}

/// The Parquet node of `node`, named `name`, with `repetition` unless the
/// node makes it optional.
fn node_type(node: &Node, name: &str, repetition: Repetition, opts: &AvroOptions) -> Result<Type> {
    let at = |e: magnolify_parquet::Error| at_path(e, &node.path);
    match &node.kind {
        Kind::Null => Err(schema_error(&node.path, "null has no Parquet form here")),
        Kind::Leaf(leaf) => leaf_type(leaf, name, repetition, opts).map_err(at),
        Kind::Record(record) => schema::group(name, repetition, None, record_fields(record, opts)?).map_err(at),
        Kind::Array(items) => {
            schema::list(name, repetition, opts.list_layout, |element, rep| node_type(items, element, rep, opts))
                .map_err(at)
        }
        Kind::Map(values) => {
            let key = schema::primitive("key", Repetition::REQUIRED, Physical::BYTE_ARRAY, Some(LogicalType::String))?;
            let mut kv = vec![key];
            // A map of nulls keeps only its keys: a key-only MAP, as the format allows.
            if !matches!(values.kind, Kind::Null) {
                kv.push(node_type(values, "value", Repetition::REQUIRED, opts)?);
            }
            let kv = schema::group("key_value", Repetition::REPEATED, None, kv).map_err(at)?;
            schema::group(name, repetition, Some(LogicalType::Map), vec![kv]).map_err(at)
        }
        Kind::Nullable(n) => {
            // A repeated node stays repeated: old list layouts have no optional
            // elements, and writing a null element is an error.
            let repetition = if repetition == Repetition::REQUIRED { Repetition::OPTIONAL } else { repetition };
            node_type(&n.inner, name, repetition, opts)
        }
        Kind::Union(u) => {
            let repetition =
                if u.null.is_some() && repetition == Repetition::REQUIRED { Repetition::OPTIONAL } else { repetition };
            let members = u
                .members
                .iter()
                .enumerate()
                .map(|(i, m)| node_type(&m.node, &format!("member{i}"), Repetition::OPTIONAL, opts))
                .collect::<Result<Vec<_>>>()?;
            schema::group(name, repetition, None, members).map_err(at)
        }
    }
}

/// Replaces the Parquet node name of a schema error by the Avro path.
fn at_path(e: magnolify_parquet::Error, path: &str) -> magnolify_parquet::Error {
    match e {
        magnolify_parquet::Error::Schema { message, .. } => schema_error(path, message),
        other => other,
    }
}

fn leaf_type(leaf: &Leaf, name: &str, rep: Repetition, opts: &AvroOptions) -> Result<Type> {
    use Physical::*;
    let p = |physical, logical| schema::primitive(name, rep, physical, logical);
    let nanos = |utc| opts.nanos_timestamps.then(|| LogicalType::timestamp(utc, TimeUnit::NANOS));
    match leaf {
        Leaf::Boolean => p(BOOLEAN, None),
        Leaf::Int => p(INT32, opts.integer_annotations.then(|| LogicalType::integer(32, true))),
        Leaf::Long => p(INT64, opts.integer_annotations.then(|| LogicalType::integer(64, true))),
        Leaf::Float => p(FLOAT, None),
        Leaf::Double => p(DOUBLE, None),
        Leaf::Bytes | Leaf::BigDecimal => p(BYTE_ARRAY, None),
        Leaf::String => p(BYTE_ARRAY, Some(LogicalType::String)),
        Leaf::Enum(_) => p(BYTE_ARRAY, Some(LogicalType::Enum)),
        Leaf::Fixed(size) => fixed(name, rep, *size, None, |b| b),
        Leaf::Decimal { precision, scale, fixed: size } => {
            let (p, s) = (to_i32(name, *precision)?, to_i32(name, *scale)?);
            let logical = Some(LogicalType::decimal(s, p));
            match size {
                None => schema::primitive_with(name, rep, BYTE_ARRAY, logical, |b| b.with_precision(p).with_scale(s)),
                Some(size) => fixed(name, rep, *size, logical, |b| b.with_precision(p).with_scale(s)),
            }
        }
        Leaf::Uuid { fixed: true } => fixed(name, rep, 16, Some(LogicalType::Uuid), |b| b),
        Leaf::Uuid { fixed: false } => p(BYTE_ARRAY, Some(LogicalType::String)),
        Leaf::Date => p(INT32, Some(LogicalType::Date)),
        Leaf::TimeMillis => p(INT32, Some(LogicalType::time(true, TimeUnit::MILLIS))),
        Leaf::TimeMicros => p(INT64, Some(LogicalType::time(true, TimeUnit::MICROS))),
        Leaf::TimestampMillis => p(INT64, Some(LogicalType::timestamp(true, TimeUnit::MILLIS))),
        Leaf::TimestampMicros => p(INT64, Some(LogicalType::timestamp(true, TimeUnit::MICROS))),
        Leaf::TimestampNanos => p(INT64, nanos(true)),
        Leaf::LocalTimestampMillis => p(INT64, Some(LogicalType::timestamp(false, TimeUnit::MILLIS))),
        Leaf::LocalTimestampMicros => p(INT64, Some(LogicalType::timestamp(false, TimeUnit::MICROS))),
        Leaf::LocalTimestampNanos => p(INT64, nanos(false)),
        // parquet-avro writes durations unannotated (no INTERVAL).
        Leaf::Duration => fixed(name, rep, 12, None, |b| b),
    }
}

fn fixed(
    name: &str,
    rep: Repetition,
    size: usize,
    logical: Option<LogicalType>,
    extra: impl FnOnce(
        magnolify_parquet::parquet::schema::types::PrimitiveTypeBuilder<'_>,
    ) -> magnolify_parquet::parquet::schema::types::PrimitiveTypeBuilder<'_>,
) -> Result<Type> {
    let len = to_i32(name, size)?;
    schema::primitive_with(name, rep, Physical::FIXED_LEN_BYTE_ARRAY, logical, |b| extra(b.with_length(len)))
}

fn to_i32(name: &str, n: usize) -> Result<i32> {
    i32::try_from(n).map_err(|_| schema_error(name, format!("{n} does not fit a Parquet i32")))
}
