//! Generic Avro records (`apache_avro::types::Value`) as Parquet, the way
//! parquet-java's `parquet-avro` does it, through magnolify-parquet's
//! record traits ([`RecordSchema`], [`RecordWrite`], [`RecordRead`]).
//!
//! It is the baseline the derive is measured against, and a real converter:
//! an [`AvroConverter`] compiles an Avro schema once into a plan (a tree of
//! nodes with leaf offsets, union branch tables and logical types), so that
//! writing a record walks the value and the plan together, taking record
//! fields by position, with no schema or name lookups, and reading resolves
//! the plan against the file's schema once, then assembles values with the
//! same recursive descent the derived code uses.
//!
//! The Avro → Parquet mapping follows parquet-avro's `AvroSchemaConverter`
//! (two-level lists by default, `memberN` groups for unions, strings for
//! UUIDs); see [`AvroOptions`] for its switches. The writer stores the Avro
//! schema under `parquet.avro.schema`; [`AvroConverter::for_file`] reads it
//! back, or derives an Avro schema from the Parquet schema of files written
//! by anything else.
//!
//! # Costs per record
//!
//! Writing does no schema or name lookup (fields by position; names are
//! compared only with [`AvroOptions::check_field_names`]), no clone and no
//! allocation, except one byte vector per `decimal` or `big-decimal` value
//! (apache-avro lends no view of their digits) and one vector per map when
//! [`AvroOptions::sort_map_keys`] is on. Reading allocates what the `Value`
//! tree owns: the record's field vector, one `String` per field name (as
//! `Value::Record` holds them), strings, bytes, union boxes, arrays and maps.
//!
//! ```
//! use apache_avro::{types::Value, Schema};
//! use avro_baseline::{AvroConverter, AvroOptions};
//! use magnolify_parquet::mem::MemPageStore;
//!
//! let schema = Schema::parse_str(r#"{
//!     "type": "record", "name": "Order",
//!     "fields": [
//!         {"name": "id", "type": "long"},
//!         {"name": "note", "type": ["null", "string"], "default": null},
//!         {"name": "tags", "type": {"type": "array", "items": "string"}}
//!     ]
//! }"#)?;
//! let converter = AvroConverter::new(schema, AvroOptions::default())?;
//! assert!(magnolify_parquet::schema::to_text(&converter.parquet_schema()).contains("REPEATED BYTE_ARRAY array (STRING)"));
//!
//! let order = Value::Record(vec![
//!     ("id".into(), Value::Long(7)),
//!     ("note".into(), Value::Union(0, Box::new(Value::Null))),
//!     ("tags".into(), Value::Array(vec![Value::String("new".into())])),
//! ]);
//! let mut writer = MemPageStore::writer(converter.clone())?;
//! writer.write(&order)?;
//! let store = writer.close()?;
//!
//! let back: Vec<Value> = store.reader(converter)?.collect::<Result<_, _>>()?;
//! assert_eq!(back, [order]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod bytes;
mod error;
mod options;
mod plan;
mod read;
mod schema;
mod write;

use std::sync::Arc;

use apache_avro::types::Value;
use apache_avro::Schema;
use magnolify_parquet::convert::{
    ColumnSink, FileNode, RecordRead, RecordReadOwned, RecordSchema, RecordSource, RecordWrite, Resolver, WriteAt,
};
use magnolify_parquet::parquet::file::metadata::KeyValue;
use magnolify_parquet::parquet::schema::types::{SchemaDescriptor, TypePtr};
use magnolify_parquet::{CheckedMetadata, Result};

pub use options::{AvroOptions, ListLayout};
pub use read::ReadPlan;

/// Footer key of the Avro schema, as parquet-avro writes and reads it.
pub const AVRO_SCHEMA_KEY: &str = "parquet.avro.schema";
/// Footer key of the Avro schema in early parquet-avro files (read only).
pub const LEGACY_AVRO_SCHEMA_KEY: &str = "avro.schema";
/// Footer key naming the object model that wrote the file (`avro`).
pub const MODEL_NAME_KEY: &str = "writer.model.name";

/// Converts Avro `Value` records to and from Parquet.
///
/// Built once per schema; cheap to clone (the compiled plan is shared).
/// It writes `Value::Record`s whose fields are in schema order (taken by
/// position) and values that validate against the schema: a nullable field
/// takes `Union(i, v)` with the union's own indices, or the bare value or
/// `Null`; logical types take their variant (`Date`, `TimestampMicros`, `Decimal`,
/// `Uuid`, …) or the plain one underneath. A value that does not fit is an
/// error naming its Avro path, and the record is left out. It reads the
/// values the schema describes: `Union(index, …)` with the right index for
/// nullable fields, `Record` with field names, `Enum(index, symbol)`,
/// `Fixed(size, bytes)`, and the logical variants.
#[derive(Clone)]
pub struct AvroConverter {
    inner: Arc<Inner>,
}

struct Inner {
    schema: Schema,
    json: String,
    options: AvroOptions,
    root: plan::Node,
    message: TypePtr,
}

impl std::fmt::Debug for AvroConverter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AvroConverter").field("schema", &self.inner.json).field("options", &self.inner.options).finish()
    }
}

impl AvroConverter {
    /// Compiles `schema`, a record, into a converter: the Parquet schema and
    /// the write plan are made here, once.
    pub fn new(schema: Schema, options: AvroOptions) -> Result<Self> {
        let root = plan::compile(&schema, &options)?;
        let message = schema::to_parquet::message(&root, &options)?;
        let json = schema::json::to_json(&schema)?;
        Ok(AvroConverter { inner: Arc::new(Inner { schema, json, options, root, message }) })
    }

    /// [`new`](Self::new) from the schema's JSON text.
    pub fn from_json(json: &str, options: AvroOptions) -> Result<Self> {
        let schema =
            Schema::parse_str(json).map_err(|e| error::schema_error("", format!("invalid Avro schema: {e}")))?;
        Self::new(schema, options)
    }

    /// A converter to read a file: with the Avro schema of its footer
    /// (`parquet.avro.schema`, else the legacy `avro.schema`) when it has one,
    /// else with one derived from its Parquet schema (see [`avro_schema_of`]).
    ///
    /// It takes the metadata of the hardened footer reader
    /// (`ReaderBuilder::new(file)?.metadata()`), never a footer the
    /// `parquet` crate decoded unchecked.
    pub fn for_file(metadata: &CheckedMetadata, options: AvroOptions) -> Result<Self> {
        let file = metadata.file_metadata();
        Self::for_parquet_schema(file.schema_descr(), file.key_value_metadata().map(Vec::as_slice), options)
    }

    /// [`for_file`](Self::for_file) from the schema and the footer entries.
    pub fn for_parquet_schema(
        schema: &SchemaDescriptor,
        key_values: Option<&[KeyValue]>,
        options: AvroOptions,
    ) -> Result<Self> {
        let stored = [AVRO_SCHEMA_KEY, LEGACY_AVRO_SCHEMA_KEY].iter().find_map(|key| {
            key_values?.iter().find(|kv| kv.key == *key).and_then(|kv| kv.value.as_deref().map(|v| (*key, v)))
        });
        match stored {
            Some((key, json)) => {
                // apache-avro 0.21 panics on some invalid names (avro-rs #496):
                // a footer is input, so that must be an error.
                let schema = std::panic::catch_unwind(|| Schema::parse_str(json))
                    .map_err(|_| {
                        error::schema_error(key, "the footer's Avro schema is invalid (apache-avro panicked on it)")
                    })?
                    .map_err(|e| error::schema_error(key, format!("the footer's Avro schema is invalid: {e}")))?;
                Self::new(schema, options)
            }
            None => Self::new(avro_schema_of(schema, &options)?, options),
        }
    }

    /// The Avro schema.
    pub fn avro_schema(&self) -> &Schema {
        &self.inner.schema
    }

    /// The Avro schema as JSON (what the footer stores).
    pub fn avro_schema_json(&self) -> &str {
        &self.inner.json
    }

    /// The options.
    pub fn options(&self) -> &AvroOptions {
        &self.inner.options
    }

    /// The Parquet message written.
    pub fn parquet_schema(&self) -> TypePtr {
        self.inner.message.clone()
    }
}

/// The Avro schema of a Parquet schema, with parquet-avro's rules for files
/// that carry no Avro schema (improved where parquet-avro fails: standard
/// 3-level lists become plain arrays, 1-level lists are arrays, DECIMAL on
/// integers is a decimal, INTERVAL is a duration).
///
/// ```
/// use magnolify_parquet::parquet::schema::{parser::parse_message_type, types::SchemaDescriptor};
/// use std::sync::Arc;
///
/// let parquet = parse_message_type(
///     "message m { required int64 id; optional group xs (LIST) { repeated group list { optional int32 element; } } }",
/// ).unwrap();
/// let avro = avro_baseline::avro_schema_of(&SchemaDescriptor::new(Arc::new(parquet)), &Default::default()).unwrap();
/// let json = serde_json::to_value(&avro).unwrap();
/// assert_eq!(json["fields"][1]["type"][1]["items"], serde_json::json!(["null", "int"]));
/// ```
pub fn avro_schema_of(schema: &SchemaDescriptor, options: &AvroOptions) -> Result<Schema> {
    schema::to_avro::avro_schema(schema, options)
}

impl RecordSchema for AvroConverter {
    fn schema(&self) -> Result<TypePtr> {
        Ok(self.inner.message.clone())
    }

    fn key_value_metadata(&self) -> Vec<KeyValue> {
        vec![
            KeyValue::new(AVRO_SCHEMA_KEY.to_owned(), self.inner.json.clone()),
            KeyValue::new(MODEL_NAME_KEY.to_owned(), "avro".to_owned()),
        ]
    }
}

impl RecordWrite for AvroConverter {
    type Record<'a> = Value;

    #[inline]
    fn write(&self, record: &Value, sink: &mut ColumnSink) -> Result<()> {
        write::write(&self.inner.root, record, sink, WriteAt::ROOT, &self.inner.options)
    }
}

impl RecordRead for AvroConverter {
    type Record<'de> = Value;
    type ReadPlan = ReadPlan;

    fn resolve(&self, file: &SchemaDescriptor) -> Result<(ReadPlan, Vec<usize>)> {
        let mut resolver = Resolver::new(file);
        let root = read::resolve(&self.inner.root, &FileNode::root(file), &mut resolver)?;
        Ok((ReadPlan { root }, resolver.into_columns()))
    }

    #[inline]
    fn read<'de>(&self, plan: &ReadPlan, source: &mut RecordSource<'de>) -> Result<Value> {
        read::read(&plan.root, source)
    }
}

impl RecordReadOwned for AvroConverter {
    type Owned = Value;
}
