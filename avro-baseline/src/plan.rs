//! The Avro schema compiled once into a tree of nodes: named references
//! inlined, unions classified, logical types picked, and for every node the
//! number of leaf columns it spans and its path for error messages.
//!
//! Writing walks this tree with the value; the Parquet schema is generated
//! from it (see `schema.rs`), so the two cannot disagree; reading resolves it
//! against a file's schema (see `read.rs`).

use std::collections::HashMap;
use std::sync::Arc;

use apache_avro::schema::{Name, Namespace, RecordSchema, ResolvedSchema, SchemaKind, UnionSchema};
use apache_avro::types::Value;
use apache_avro::Schema;
use magnolify_parquet::{ListLayout, Result};

use crate::error::schema_error;
use crate::AvroOptions;

/// A node of the compiled schema.
#[derive(Debug)]
pub(crate) struct Node {
    pub(crate) kind: Kind,
    /// Leaf columns the node spans.
    pub(crate) leaves: usize,
    /// Avro path (`o.s`, `l[].s`, `m{}`) for error messages.
    pub(crate) path: Arc<str>,
}

/// What a node is.
#[derive(Debug)]
pub(crate) enum Kind {
    /// A field of type `null`: no column (parquet-avro drops it).
    Null,
    /// A primitive or logical type: one column.
    Leaf(Leaf),
    /// A record: a group of its non-null fields.
    Record(Record),
    /// An array of `items`.
    Array(Box<Node>),
    /// A map from strings to `values`; a `null` value type gives a key-only map.
    Map(Box<Node>),
    /// `["null", T]` in either order: an optional `T`.
    Nullable(Nullable),
    /// Any other union: a group of optional `memberN` fields.
    Union(Union),
}

/// A record's fields, in schema order.
#[derive(Debug)]
pub(crate) struct Record {
    pub(crate) name: String,
    pub(crate) fields: Vec<Field>,
}

/// One record field.
#[derive(Debug)]
pub(crate) struct Field {
    pub(crate) name: String,
    pub(crate) aliases: Vec<String>,
    pub(crate) node: Node,
    /// Leaves before this field in its record.
    pub(crate) offset: usize,
    /// The schema's default, resolved against the field's type: used when a
    /// file lacks the field. The error is kept for when it is needed.
    pub(crate) default: Option<std::result::Result<Value, String>>,
}

/// An optional value.
#[derive(Debug)]
pub(crate) struct Nullable {
    /// Union index of the `null` branch.
    pub(crate) null: u32,
    /// Union index of the value branch.
    pub(crate) value: u32,
    pub(crate) inner: Box<Node>,
    /// The node is the element of a two-level or bare repeated list, whose
    /// Parquet form has no room for a null element.
    pub(crate) repeated: bool,
}

/// A union of several non-null branches.
#[derive(Debug)]
pub(crate) struct Union {
    /// Union index of the `null` branch, if any.
    pub(crate) null: Option<u32>,
    /// Non-null branches in order: Parquet fields `member0`, `member1`, ….
    pub(crate) members: Vec<Member>,
    /// Member of each union index (`None` for `null`): O(1) from `Value::Union(i, _)`.
    pub(crate) member_of_branch: Vec<Option<usize>>,
    /// As in [`Nullable::repeated`].
    pub(crate) repeated: bool,
}

/// A non-null branch of a union.
#[derive(Debug)]
pub(crate) struct Member {
    /// Union index of the branch.
    pub(crate) branch: u32,
    pub(crate) node: Node,
    /// Leaves before this member in the union's group.
    pub(crate) offset: usize,
}

/// The one-column types.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Leaf {
    Boolean,
    Int,
    Long,
    Float,
    Double,
    Bytes,
    String,
    Enum(Arc<[String]>),
    Fixed(usize),
    /// `decimal` on `bytes` (`fixed` = None) or on `fixed(n)`.
    Decimal {
        precision: usize,
        scale: usize,
        fixed: Option<usize>,
    },
    BigDecimal,
    /// `uuid`; `fixed`: written as FIXED_LEN_BYTE_ARRAY(16) (UUID), else as its text.
    Uuid {
        fixed: bool,
    },
    Date,
    TimeMillis,
    TimeMicros,
    TimestampMillis,
    TimestampMicros,
    TimestampNanos,
    LocalTimestampMillis,
    LocalTimestampMicros,
    LocalTimestampNanos,
    Duration,
}

impl Leaf {
    /// The kind of Avro value the leaf holds.
    pub(crate) fn schema_kind(&self) -> SchemaKind {
        match self {
            Leaf::Boolean => SchemaKind::Boolean,
            Leaf::Int => SchemaKind::Int,
            Leaf::Long => SchemaKind::Long,
            Leaf::Float => SchemaKind::Float,
            Leaf::Double => SchemaKind::Double,
            Leaf::Bytes => SchemaKind::Bytes,
            Leaf::String => SchemaKind::String,
            Leaf::Enum(_) => SchemaKind::Enum,
            Leaf::Fixed(_) => SchemaKind::Fixed,
            Leaf::Decimal { .. } => SchemaKind::Decimal,
            Leaf::BigDecimal => SchemaKind::BigDecimal,
            Leaf::Uuid { .. } => SchemaKind::Uuid,
            Leaf::Date => SchemaKind::Date,
            Leaf::TimeMillis => SchemaKind::TimeMillis,
            Leaf::TimeMicros => SchemaKind::TimeMicros,
            Leaf::TimestampMillis => SchemaKind::TimestampMillis,
            Leaf::TimestampMicros => SchemaKind::TimestampMicros,
            Leaf::TimestampNanos => SchemaKind::TimestampNanos,
            Leaf::LocalTimestampMillis => SchemaKind::LocalTimestampMillis,
            Leaf::LocalTimestampMicros => SchemaKind::LocalTimestampMicros,
            Leaf::LocalTimestampNanos => SchemaKind::LocalTimestampNanos,
            Leaf::Duration => SchemaKind::Duration,
        }
    }

    /// The Avro type name, for messages.
    pub(crate) fn avro_name(&self) -> &'static str {
        match self {
            Leaf::Boolean => "boolean",
            Leaf::Int => "int",
            Leaf::Long => "long",
            Leaf::Float => "float",
            Leaf::Double => "double",
            Leaf::Bytes => "bytes",
            Leaf::String => "string",
            Leaf::Enum(_) => "enum",
            Leaf::Fixed(_) => "fixed",
            Leaf::Decimal { .. } => "decimal",
            Leaf::BigDecimal => "big-decimal",
            Leaf::Uuid { .. } => "uuid",
            Leaf::Date => "date",
            Leaf::TimeMillis => "time-millis",
            Leaf::TimeMicros => "time-micros",
            Leaf::TimestampMillis => "timestamp-millis",
            Leaf::TimestampMicros => "timestamp-micros",
            Leaf::TimestampNanos => "timestamp-nanos",
            Leaf::LocalTimestampMillis => "local-timestamp-millis",
            Leaf::LocalTimestampMicros => "local-timestamp-micros",
            Leaf::LocalTimestampNanos => "local-timestamp-nanos",
            Leaf::Duration => "duration",
        }
    }
}

/// Compiles a top-level Avro record schema.
pub(crate) fn compile(schema: &Schema, opts: &AvroOptions) -> Result<Node> {
    let resolved =
        ResolvedSchema::try_from(schema).map_err(|e| schema_error("", format!("invalid Avro schema: {e}")))?;
    let mut compiler = Compiler { root: schema, names: resolved.get_names(), stack: Vec::new(), opts };
    let node = compiler.compile(schema, &None, "", false)?;
    if !matches!(node.kind, Kind::Record(_)) {
        return Err(schema_error("", "Avro schema must be a record"));
    }
    Ok(node)
}

struct Compiler<'s, 'n> {
    root: &'s Schema,
    names: &'n HashMap<Name, &'s Schema>,
    /// Records being compiled, to reject recursion (Parquet schemas are finite).
    stack: Vec<Name>,
    opts: &'n AvroOptions,
}

fn child_path(parent: &str, name: &str) -> String {
    if parent.is_empty() {
        name.to_owned()
    } else {
        format!("{parent}.{name}")
    }
}

impl<'s> Compiler<'s, '_> {
    /// `repeated`: the node is the element of a list whose layout gives it
    /// no room for a null.
    fn compile(&mut self, schema: &'s Schema, ns: &Namespace, path: &str, repeated: bool) -> Result<Node> {
        let leaf = |leaf: Leaf| Ok(Node { kind: Kind::Leaf(leaf), leaves: 1, path: path.into() });
        match schema {
            Schema::Null => Ok(Node { kind: Kind::Null, leaves: 0, path: path.into() }),
            Schema::Boolean => leaf(Leaf::Boolean),
            Schema::Int => leaf(Leaf::Int),
            Schema::Long => leaf(Leaf::Long),
            Schema::Float => leaf(Leaf::Float),
            Schema::Double => leaf(Leaf::Double),
            Schema::Bytes => leaf(Leaf::Bytes),
            Schema::String => leaf(Leaf::String),
            Schema::Enum(e) => leaf(Leaf::Enum(e.symbols.clone().into())),
            Schema::Fixed(f) => leaf(Leaf::Fixed(f.size)),
            Schema::Decimal(d) => {
                let fixed = match d.inner.as_ref() {
                    Schema::Bytes => None,
                    Schema::Fixed(f) => Some(f.size),
                    Schema::Ref { name } => match self.lookup(name, ns, path)? {
                        Schema::Fixed(f) => Some(f.size),
                        other => {
                            return Err(schema_error(path, format!("decimal on {other:?}: expected bytes or fixed")))
                        }
                    },
                    other => return Err(schema_error(path, format!("decimal on {other:?}: expected bytes or fixed"))),
                };
                leaf(Leaf::Decimal { precision: d.precision, scale: d.scale, fixed })
            }
            Schema::BigDecimal => leaf(Leaf::BigDecimal),
            Schema::Uuid => leaf(Leaf::Uuid { fixed: self.opts.parquet_uuid }),
            Schema::Date => leaf(Leaf::Date),
            Schema::TimeMillis => leaf(Leaf::TimeMillis),
            Schema::TimeMicros => leaf(Leaf::TimeMicros),
            Schema::TimestampMillis => leaf(Leaf::TimestampMillis),
            Schema::TimestampMicros => leaf(Leaf::TimestampMicros),
            Schema::TimestampNanos => leaf(Leaf::TimestampNanos),
            Schema::LocalTimestampMillis => leaf(Leaf::LocalTimestampMillis),
            Schema::LocalTimestampMicros => leaf(Leaf::LocalTimestampMicros),
            Schema::LocalTimestampNanos => leaf(Leaf::LocalTimestampNanos),
            Schema::Duration => leaf(Leaf::Duration),
            Schema::Ref { name } => {
                let target = self.lookup(name, ns, path)?;
                let fq = name.fully_qualified_name(ns);
                self.compile(target, &fq.namespace, path, repeated)
            }
            Schema::Record(r) => self.record(r, ns, path),
            Schema::Array(a) => {
                let items_path = format!("{path}[]");
                // Elements of the old layouts sit directly in the repeated node.
                let items_repeated = self.opts.list_layout != ListLayout::ThreeLevel;
                let items = self.compile(&a.items, ns, &items_path, items_repeated)?;
                if matches!(items.kind, Kind::Null) {
                    return Err(schema_error(path, "an array of nulls has no Parquet form"));
                }
                Ok(Node { leaves: items.leaves, kind: Kind::Array(Box::new(items)), path: path.into() })
            }
            Schema::Map(m) => {
                let values = self.compile(&m.types, ns, &format!("{path}{{}}"), false)?;
                Ok(Node { leaves: 1 + values.leaves, kind: Kind::Map(Box::new(values)), path: path.into() })
            }
            Schema::Union(u) => self.union(u, ns, path, repeated),
        }
    }

    fn lookup(&self, name: &Name, ns: &Namespace, path: &str) -> Result<&'s Schema> {
        let fq = name.fully_qualified_name(ns);
        self.names
            .get(&fq)
            .copied()
            .ok_or_else(|| schema_error(path, format!("unknown named type {}", fq.fullname(None))))
    }

    fn record(&mut self, r: &'s RecordSchema, ns: &Namespace, path: &str) -> Result<Node> {
        let fq = r.name.fully_qualified_name(ns);
        if self.stack.contains(&fq) {
            return Err(schema_error(
                path,
                format!("recursive Avro schemas have no Parquet form: {} contains itself", fq.fullname(None)),
            ));
        }
        self.stack.push(fq.clone());
        let mut fields = Vec::with_capacity(r.fields.len());
        let mut offset = 0;
        for f in &r.fields {
            let node = self.compile(&f.schema, &fq.namespace, &child_path(path, &f.name), false)?;
            let default = f
                .default
                .clone()
                .map(|json| Value::from(json).resolve_schemata(&f.schema, vec![self.root]).map_err(|e| e.to_string()));
            let leaves = node.leaves;
            fields.push(Field {
                name: f.name.clone(),
                aliases: f.aliases.clone().unwrap_or_default(),
                node,
                offset,
                default,
            });
            offset += leaves;
        }
        self.stack.pop();
        if offset == 0 {
            let name = fq.fullname(None);
            return Err(schema_error(
                path,
                format!("record {name} has no non-null field: Parquet has no empty groups"),
            ));
        }
        let name = fq.fullname(None);
        Ok(Node { kind: Kind::Record(Record { name, fields }), leaves: offset, path: path.into() })
    }

    fn union(&mut self, u: &'s UnionSchema, ns: &Namespace, path: &str, repeated: bool) -> Result<Node> {
        let variants = u.variants();
        let null = variants.iter().position(|s| matches!(s, Schema::Null)).map(index);
        let non_null: Vec<(usize, &'s Schema)> =
            variants.iter().enumerate().filter(|(_, s)| !matches!(s, Schema::Null)).collect();
        match (null, non_null.as_slice()) {
            (_, []) => Err(schema_error(path, "a union of only nulls has no Parquet form")),
            (Some(null), [(value, schema)]) => {
                let inner = self.compile(schema, ns, path, false)?;
                Ok(Node {
                    leaves: inner.leaves,
                    kind: Kind::Nullable(Nullable { null, value: index(*value), inner: Box::new(inner), repeated }),
                    path: path.into(),
                })
            }
            (null, branches) => {
                let mut members = Vec::with_capacity(branches.len());
                let mut member_of_branch = vec![None; variants.len()];
                let mut offset = 0;
                for (m, (branch, schema)) in branches.iter().enumerate() {
                    let node = self.compile(schema, ns, path, false)?;
                    member_of_branch[*branch] = Some(m);
                    let leaves = node.leaves;
                    members.push(Member { branch: index(*branch), node, offset });
                    offset += leaves;
                }
                Ok(Node {
                    kind: Kind::Union(Union { null, members, member_of_branch, repeated }),
                    leaves: offset,
                    path: path.into(),
                })
            }
        }
    }
}

/// A union index as `Value::Union` holds it. Unions have far fewer than 2^32
/// branches (each needs a distinct type), so the cast cannot truncate.
fn index(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}
