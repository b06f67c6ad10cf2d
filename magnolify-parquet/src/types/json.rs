//! `serde_json::Value` (feature `json`): a JSON document in a BYTE_ARRAY
//! column annotated JSON, the form engines without a VARIANT type read as
//! JSON (DuckDB's `JSON`, Spark's string with `from_json`).

use std::cell::RefCell;

use parquet::basic::{LogicalType, Repetition, Type as PhysicalType};
use parquet::schema::types::Type;
use serde_json::Value;

use super::bytes::{read_text, resolve_text};
use super::{LeafPlan, ListElement};
use crate::assemble::{FileNode, RecordSource, Resolver};
use crate::error::Result;
use crate::field::{ParquetRead, ParquetSchema, ParquetWrite};
use crate::options::FieldOptions;
use crate::schema;
use crate::shred::{ColumnSink, WriteAt};

thread_local! {
    /// The text of the document being written: one buffer per thread,
    /// reused, so that writing allocates nothing per value once it is as
    /// long as the longest document.
    static TEXT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Written as `BYTE_ARRAY (JSON)`, the document's compact text. Reads
/// columns of JSON text: annotated JSON, STRING (or ENUM), or unannotated
/// BYTE_ARRAY; a value that is not a JSON document is an error naming the
/// column and the record. A Parquet null is `None` of an
/// `Option<Value>`; `Value::Null` is the document `null`.
///
/// ```
/// use magnolify_parquet::{schema, FieldOptions, ParquetSchema, ParquetType, ParquetWriter, ParquetReader};
/// use parquet::basic::Repetition;
/// use serde_json::{json, Value};
///
/// let node = Value::schema("doc", Repetition::REQUIRED, &FieldOptions::DEFAULT)?;
/// assert_eq!(schema::to_text(&node).trim(), "REQUIRED BYTE_ARRAY doc (JSON);");
///
/// #[derive(ParquetType, Debug, PartialEq)]
/// struct Event { id: u32, payload: Value, extra: Option<Value> }
///
/// let event = Event { id: 1, payload: json!({"user": "ada", "tags": ["a", 2, null]}), extra: None };
/// let mut w = ParquetWriter::<Event, _>::new(Vec::new())?;
/// w.write(&event)?;
/// let file = bytes::Bytes::from(w.into_inner()?);
/// let back: Vec<Event> = ParquetReader::new(file)?.collect::<Result<_, _>>()?;
/// assert_eq!(back, [event]);
/// # Ok::<(), magnolify_parquet::Error>(())
/// ```
impl ParquetSchema for Value {
    const LEAVES: usize = 1;
    // A document is no map key: keys are compared, documents are not.
    const MAP_KEY: bool = false;
    type ReadPlan = LeafPlan<()>;

    fn schema(name: &str, repetition: Repetition, _opts: &FieldOptions) -> Result<Type> {
        schema::primitive(name, repetition, PhysicalType::BYTE_ARRAY, Some(LogicalType::Json))
    }
}

impl ParquetWrite for Value {
    fn write(&self, sink: &mut ColumnSink, at: WriteAt, _opts: &FieldOptions) -> Result<()> {
        TEXT.with_borrow_mut(|text| {
            text.clear();
            // Writing a `Value` into a `Vec` cannot fail: its keys are
            // strings and a `Vec` takes any length.
            serde_json::to_writer(&mut *text, self)
                .map_err(|e| sink.value_error(at.leaf(), format!("a JSON document that cannot be written: {e}")))?;
            sink.push_bytes(at, text)
        })
    }
}

impl<'de> ParquetRead<'de> for Value {
    fn resolve(node: &FileNode<'_>, _: &FieldOptions, resolver: &mut Resolver<'_>) -> Result<Self::ReadPlan> {
        resolve_text(node, resolver)
    }

    fn read(plan: &Self::ReadPlan, src: &mut RecordSource<'de>) -> Result<Self> {
        let text = read_text(plan, src)?;
        serde_json::from_str(text).map_err(|e| {
            src.value_error(
                plan.cursor,
                format!("not a JSON document ({e}): read the column as a String to see its text"),
            )
        })
    }
}

impl ListElement for Value {}
