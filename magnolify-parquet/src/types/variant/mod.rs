//! Parquet's VARIANT logical type (feature `variant`): a group of a
//! `metadata` and a `value` binary in the Variant encoding, through the
//! `parquet-variant` crate (arrow-rs's implementation of the encoding).
//! Reads unshredded columns as they are and shredded ones (`typed_value`
//! beside `value`, as Spark and DuckDB write them) by rebuilding each value
//! (`shredded`).

mod json;
mod shredded;

use parquet::basic::{LogicalType, Repetition, Type as PhysicalType};
use parquet::schema::types::Type;
use parquet_variant::{Variant, VariantBuilder};
use parquet_variant_json::append_json;

use super::StructPlan;
use crate::assemble::{FileNode, NullCheck, RecordSource, Resolver};
use crate::error::{Error, Location, Result};
use crate::field::{ParquetRead, ParquetSchema, ParquetWrite};
use crate::options::FieldOptions;
use crate::schema;
use crate::shred::{ColumnSink, WriteAt};

/// A value in Parquet's Variant encoding, owned: its `metadata` (the
/// dictionary of field names) and its `value` bytes, checked well-formed
/// when made. Converts from and to `serde_json::Value`, and gives
/// [`parquet_variant::Variant`] for the types JSON lacks (dates,
/// timestamps, decimals, binary, UUIDs).
///
/// As a field type it is a VARIANT column, `group (VARIANT(1)) { required
/// binary metadata; required binary value; }`. It reads VARIANT columns
/// written unshredded and shredded (a `typed_value` beside `value`, as
/// Spark 4 with `spark.sql.variant.writeShredding.enabled` and DuckDB 2
/// write them). Predicates cannot address it (its handle is
/// `NotAddressable`).
///
/// ```
/// use magnolify_parquet::{ParquetReader, ParquetType, ParquetWriter, VariantValue};
/// use serde_json::json;
///
/// #[derive(ParquetType, Debug, PartialEq)]
/// struct Event { id: u32, payload: VariantValue, extra: Option<VariantValue> }
///
/// let payload = VariantValue::from_json(&json!({"user": "ada", "tags": ["a", 2, null]}))?;
/// let event = Event { id: 1, payload, extra: None };
/// let mut w = ParquetWriter::<Event, _>::new(Vec::new())?;
/// w.write(&event)?;
/// let file = bytes::Bytes::from(w.into_inner()?);
/// let back: Vec<Event> = ParquetReader::new(file)?.collect::<Result<_, _>>()?;
/// assert_eq!(back[0].payload.to_json()?, json!({"tags": ["a", 2, null], "user": "ada"}));
/// assert_eq!(back, [event]);
/// # Ok::<(), magnolify_parquet::Error>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct VariantValue {
    metadata: Vec<u8>,
    value: Vec<u8>,
}

impl VariantValue {
    /// The value of encoded `metadata` and `value`, checked well-formed.
    pub fn from_parts(metadata: Vec<u8>, value: Vec<u8>) -> Result<Self> {
        Variant::try_new(&metadata, &value).map_err(|e| invalid("the bytes given", e))?;
        Ok(VariantValue { metadata, value })
    }

    /// The value of `variant`, encoded anew.
    pub fn from_variant<'m, 'v>(variant: impl Into<Variant<'m, 'v>>) -> Result<Self> {
        let mut builder = VariantBuilder::new();
        builder.try_append_value(variant).map_err(|e| invalid("the variant given", e))?;
        Self::finish(builder, "the variant given")
    }

    /// The value of a JSON document: numbers become the smallest integer
    /// that holds them, or a double.
    pub fn from_json(json: &serde_json::Value) -> Result<Self> {
        let mut builder = VariantBuilder::new();
        append_json(json, &mut builder).map_err(|e| invalid("the JSON document given", e))?;
        Self::finish(builder, "the JSON document given")
    }

    fn finish(builder: VariantBuilder, what: &str) -> Result<Self> {
        let (metadata, value) = builder.try_finish().map_err(|e| invalid(what, e))?;
        Ok(VariantValue { metadata, value })
    }

    /// The value, to read its type and contents.
    pub fn variant(&self) -> Result<Variant<'_, '_>> {
        Variant::try_new(&self.metadata, &self.value).map_err(|e| invalid("the value", e))
    }

    /// The value as a JSON document: dates, times and timestamps as
    /// strings, binary as base64, decimals as numbers (whole ones as
    /// integers, others as the double nearest their exact value).
    pub fn to_json(&self) -> Result<serde_json::Value> {
        json::to_json(&self.variant()?).map_err(|e| invalid("the value, as JSON,", e))
    }

    /// The encoded metadata (the dictionary of field names).
    pub fn metadata(&self) -> &[u8] {
        &self.metadata
    }

    /// The encoded value.
    pub fn value(&self) -> &[u8] {
        &self.value
    }
}

impl std::fmt::Debug for VariantValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.to_json() {
            Ok(json) => write!(f, "VariantValue({json})"),
            Err(_) => write!(f, "VariantValue(metadata: {:02x?}, value: {:02x?})", self.metadata, self.value),
        }
    }
}

/// The error of bytes that are not a Variant value.
fn invalid(what: &str, error: impl std::fmt::Display) -> Error {
    Error::value(Location::default(), format!("{what} is not a Variant value: {error}"))
}

/// What the Variant encoding's groups hold: `metadata`, and `value` and/or
/// `typed_value`.
pub struct VariantPlan {
    null_check: Option<NullCheck>,
    metadata: usize,
    /// The group's path, which errors name.
    column: String,
    content: Content,
}

/// The value of the group: its `value` column alone (unshredded), or the
/// shredded tree to rebuild it from.
enum Content {
    Plain(usize),
    Shredded(shredded::NodePlan),
}

impl ParquetSchema for VariantValue {
    const LEAVES: usize = 2;
    const MAP_KEY: bool = false;
    type ReadPlan = VariantPlan;

    fn schema(name: &str, repetition: Repetition, _opts: &FieldOptions) -> Result<Type> {
        let leaf = |name: &str| schema::primitive(name, Repetition::REQUIRED, PhysicalType::BYTE_ARRAY, None);
        let fields = vec![leaf("metadata")?, leaf("value")?];
        schema::group(name, repetition, Some(LogicalType::variant(Some(1))), fields)
    }
}

impl ParquetWrite for VariantValue {
    #[inline]
    fn write(&self, sink: &mut ColumnSink, at: WriteAt, _opts: &FieldOptions) -> Result<()> {
        sink.push_bytes(at, &self.metadata)?;
        sink.push_bytes(at.skip_leaves(1), &self.value)
    }
}

impl<'de> ParquetRead<'de> for VariantValue {
    fn resolve(node: &FileNode<'_>, _opts: &FieldOptions, resolver: &mut Resolver<'_>) -> Result<VariantPlan> {
        let shape = "a VariantValue reads a group of `metadata` and `value` (VARIANT)";
        if !node.is_group() {
            return Err(node.mismatch(shape));
        }
        super::not_repeated(node, "a VariantValue")?;
        let start = NullCheck::begin(node, resolver);
        let (Some(metadata), true) =
            (node.child("metadata"), node.child("value").or(node.child("typed_value")).is_some())
        else {
            return Err(node.mismatch(shape));
        };
        let metadata = shredded::binary_leaf(&metadata, resolver)?;
        let content = match (node.child("value"), node.child("typed_value")) {
            (Some(value), None) if value.repetition() == Repetition::REQUIRED => {
                Content::Plain(shredded::binary_leaf(&value, resolver)?)
            }
            _ => Content::Shredded(shredded::NodePlan::resolve(node, resolver)?),
        };
        let column = node.path().to_owned();
        Ok(VariantPlan { null_check: start.finish(resolver), metadata, column, content })
    }

    fn read(plan: &VariantPlan, src: &mut RecordSource<'de>) -> Result<Self> {
        StructPlan { null_check: plan.null_check, fields: () }.check_present(src)?;
        let bad = |src: &RecordSource<'_>, e: &dyn std::fmt::Display| {
            Error::value(
                Location::column(plan.column.clone()).with_record(src.record()),
                format!("not a Variant value: {e}"),
            )
        };
        let metadata = src.take_bytes(plan.metadata)?.ok_or_else(|| src.null_error(plan.metadata))?;
        match &plan.content {
            Content::Plain(cursor) => {
                let value = src.take_bytes(*cursor)?.ok_or_else(|| src.null_error(*cursor))?;
                Variant::try_new(metadata, value).map_err(|e| bad(src, &e))?;
                Ok(VariantValue { metadata: metadata.to_vec(), value: value.to_vec() })
            }
            Content::Shredded(root) => {
                let tree = root.read(src)?;
                let dictionary = parquet_variant::VariantMetadata::try_new(metadata).map_err(|e| bad(src, &e))?;
                let mut builder = VariantBuilder::new();
                match tree.append_to(&dictionary, &mut builder) {
                    Ok(true) => {}
                    Ok(false) => builder.append_value(Variant::Null),
                    Err(e) => return Err(bad(src, &e)),
                }
                let (metadata, value) = builder.try_finish().map_err(|e| bad(src, &e))?;
                Ok(VariantValue { metadata, value })
            }
        }
    }
}

impl super::ListElement for VariantValue {}

crate::not_addressable!(VariantValue);
