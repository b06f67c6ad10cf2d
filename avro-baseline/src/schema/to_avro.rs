//! Parquet → Avro with parquet-avro's rules (`AvroSchemaConverter.convert(MessageType)`),
//! for files that carry no Avro schema.
//!
//! Where parquet-avro fails or loses information, this does better, and the
//! reader follows (the derived schema must be one the reader can resolve):
//! - lists follow the format's compatibility rules (`list_shape`), so a
//!   standard 3-level list is `array<T>`, not `array<record list {element}>`;
//!   bare repeated fields (1-level lists) read as arrays;
//! - DECIMAL on INT32/INT64 is a `bytes` decimal, not a plain number;
//! - UINT_32 is a `long`, so values above 2^31-1 stay positive;
//! - TIMESTAMP(NANOS) is `timestamp-nanos` / `local-timestamp-nanos`;
//!   INTERVAL is `duration`;
//! - a key-only map is `map<null>`;
//! - a message name that is not a valid Avro name is made one.

use std::collections::HashSet;

use apache_avro::Schema;
use magnolify_parquet::convert::{list_shape, map_shape, FileNode};
use magnolify_parquet::parquet::basic::{Repetition, Type as Physical};
use magnolify_parquet::parquet::schema::types::{SchemaDescriptor, Type};
use magnolify_parquet::Result;
use serde_json::{json, Value as Json};

use crate::error::schema_error;
use crate::AvroOptions;
use magnolify_parquet::convert::Annotation;
use magnolify_parquet::TimeUnit as Unit;

/// The Avro schema of a Parquet message.
pub(crate) fn avro_schema(schema: &SchemaDescriptor, opts: &AvroOptions) -> Result<Schema> {
    let root = FileNode::root(schema);
    let mut namer = Namer::default();
    let name = avro_name(schema.root_schema().name());
    namer.used.insert(name.clone());
    let json = json!({ "type": "record", "name": name, "fields": fields(&root, &mut namer, opts)? });
    Schema::parse(&json).map_err(|e| schema_error("", format!("the Avro schema derived from the file is invalid: {e}")))
}

/// Unique names for the named types (records, fixed), as Avro requires:
/// the first `x` has no namespace, the next ones live in `x2`, `x3`, ….
#[derive(Default)]
struct Namer {
    used: HashSet<String>,
}

impl Namer {
    /// `"name"` and `"namespace"` entries for a new named type.
    fn name(&mut self, base: &str) -> (String, String) {
        let base = avro_name(base);
        if self.used.insert(base.clone()) {
            return (base, String::new());
        }
        let mut n = 2;
        loop {
            let namespace = format!("{base}{n}");
            if self.used.insert(format!("{namespace}.{base}")) {
                return (base, namespace);
            }
            n += 1;
        }
    }
}

/// A valid Avro (full) name from any text: invalid characters become `_`.
fn avro_name(name: &str) -> String {
    let part = |p: &str| {
        let mut s: String = p.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect();
        if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
            s.insert(0, '_');
        }
        s
    };
    name.split('.').map(part).collect::<Vec<_>>().join(".")
}

fn fields(group: &FileNode<'_>, namer: &mut Namer, opts: &AvroOptions) -> Result<Vec<Json>> {
    group.children().iter().map(|child| field(child, namer, opts)).collect()
}

/// A record field: `T`, `["null", T]` with default null, or an array with
/// default `[]` for a bare repeated field.
fn field(node: &FileNode<'_>, namer: &mut Namer, opts: &AvroOptions) -> Result<Json> {
    let name = node.name();
    Ok(match node.repetition() {
        Repetition::REQUIRED => json!({ "name": name, "type": value_type(node, namer, opts)? }),
        Repetition::OPTIONAL => {
            json!({ "name": name, "type": ["null", value_type(&node.as_required(), namer, opts)?], "default": null })
        }
        Repetition::REPEATED => json!({ "name": name, "type": list_type(node, namer, opts)?, "default": [] }),
    })
}

/// `T` or `["null", T]` for a list element or map value, by its repetition.
fn nullable_type(node: &FileNode<'_>, namer: &mut Namer, opts: &AvroOptions) -> Result<Json> {
    Ok(match node.repetition() {
        Repetition::OPTIONAL => json!(["null", value_type(&node.as_required(), namer, opts)?]),
        Repetition::REQUIRED => value_type(node, namer, opts)?,
        Repetition::REPEATED => list_type(node, namer, opts)?,
    })
}

fn list_type(node: &FileNode<'_>, namer: &mut Namer, opts: &AvroOptions) -> Result<Json> {
    let shape = list_shape(node)?;
    Ok(json!({ "type": "array", "items": nullable_type(&shape.element, namer, opts)? }))
}

/// The Avro type of a node whose own repetition is accounted for.
fn value_type(node: &FileNode<'_>, namer: &mut Namer, opts: &AvroOptions) -> Result<Json> {
    let ann = Annotation::of(node.ty());
    if node.is_group() {
        return match ann {
            Annotation::List => list_type(node, namer, opts),
            Annotation::Map => {
                let shape = map_shape(node)?;
                let key_ok = matches!(node_physical(shape.key.ty()), Some(Physical::BYTE_ARRAY))
                    && matches!(Annotation::of(shape.key.ty()), Annotation::String | Annotation::Enum);
                if !key_ok {
                    return Err(shape
                        .key
                        .error(format!("Avro map keys are strings; this map's keys are {}", shape.key.describe())));
                }
                let values = match &shape.value {
                    Some(v) => nullable_type(v, namer, opts)?,
                    None => json!("null"),
                };
                Ok(json!({ "type": "map", "values": values }))
            }
            Annotation::None => {
                let (name, namespace) = namer.name(node.name());
                Ok(
                    json!({ "type": "record", "name": name, "namespace": namespace, "fields": fields(node, namer, opts)? }),
                )
            }
            other => Err(node.error(format!("no Avro form for a group annotated {other:?}"))),
        };
    }
    let Type::PrimitiveType { physical_type, type_length, .. } = node.ty() else {
        return Err(node.error("expected a primitive"));
    };
    let logical = |base: &str, logical: &str| json!({ "type": base, "logicalType": logical });
    let decimal = |base: Json, precision: i32, scale: i32| {
        let mut t = base;
        if let Json::String(s) = t {
            t = json!({ "type": s });
        }
        t["logicalType"] = json!("decimal");
        t["precision"] = json!(precision);
        t["scale"] = json!(scale);
        t
    };
    let unsupported = || node.error(format!("no Avro form for {}", node.describe()));
    Ok(match (physical_type, ann) {
        (Physical::BOOLEAN, Annotation::None) => json!("boolean"),
        (Physical::INT32, Annotation::Date) => logical("int", "date"),
        (Physical::INT32, Annotation::Time { unit: Unit::Millis, .. }) => logical("int", "time-millis"),
        (Physical::INT32 | Physical::INT64, Annotation::Decimal { precision, scale }) => {
            decimal(json!("bytes"), precision, scale)
        }
        (Physical::INT32, Annotation::Integer { bits: 32, signed: false }) => json!("long"),
        (Physical::INT32, Annotation::None | Annotation::Integer { .. }) => json!("int"),
        (Physical::INT64, Annotation::Time { unit: Unit::Micros, .. }) => logical("long", "time-micros"),
        (Physical::INT64, Annotation::Timestamp { unit, utc }) => {
            let name = match (unit, utc) {
                (Unit::Millis, true) => "timestamp-millis",
                (Unit::Micros, true) => "timestamp-micros",
                (Unit::Nanos, true) => "timestamp-nanos",
                (Unit::Millis, false) => "local-timestamp-millis",
                (Unit::Micros, false) => "local-timestamp-micros",
                (Unit::Nanos, false) => "local-timestamp-nanos",
            };
            logical("long", name)
        }
        (Physical::INT64, Annotation::None | Annotation::Integer { .. } | Annotation::Time { .. }) => json!("long"),
        (Physical::INT96, _) if opts.read_int96_as_fixed => {
            let (name, namespace) = namer.name("INT96");
            json!({ "type": "fixed", "name": name, "namespace": namespace, "size": 12 })
        }
        (Physical::INT96, _) => {
            return Err(
                node.error("INT96 has no Avro form; set AvroOptions::read_int96_as_fixed to read it as fixed(12)")
            )
        }
        (Physical::FLOAT, Annotation::None) => json!("float"),
        (Physical::DOUBLE, Annotation::None) => json!("double"),
        (Physical::BYTE_ARRAY, Annotation::String | Annotation::Enum) => json!("string"),
        (Physical::BYTE_ARRAY, Annotation::Decimal { precision, scale }) => decimal(json!("bytes"), precision, scale),
        (Physical::BYTE_ARRAY, Annotation::None | Annotation::Json | Annotation::Bson) => json!("bytes"),
        (Physical::FIXED_LEN_BYTE_ARRAY, Annotation::Uuid) if *type_length == 16 => logical("string", "uuid"),
        (Physical::FIXED_LEN_BYTE_ARRAY, ann) => {
            let (name, namespace) = namer.name(node.name());
            let fixed = json!({ "type": "fixed", "name": name, "namespace": namespace, "size": type_length });
            match ann {
                Annotation::Decimal { precision, scale } => decimal(fixed, precision, scale),
                Annotation::Interval if *type_length == 12 => {
                    let mut fixed = fixed;
                    fixed["logicalType"] = json!("duration");
                    fixed
                }
                Annotation::None | Annotation::Float16 | Annotation::Interval => fixed,
                _ => return Err(unsupported()),
            }
        }
        _ => return Err(unsupported()),
    })
}

fn node_physical(ty: &Type) -> Option<Physical> {
    match ty {
        Type::PrimitiveType { physical_type, .. } => Some(*physical_type),
        Type::GroupType { .. } => None,
    }
}
