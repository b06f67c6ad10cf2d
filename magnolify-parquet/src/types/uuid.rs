//! `uuid::Uuid` (feature `uuid`): `FIXED_LEN_BYTE_ARRAY(16) (UUID)`, the
//! bytes in canonical text order (big-endian), as the format says.

use parquet::basic::{LogicalType, Repetition, Type as PhysicalType};
use parquet::schema::types::Type;
use uuid::Uuid;

use super::{not_repeated, LeafPlan, ListElement};
use crate::assemble::{FileNode, RecordSource, Resolver};
use crate::error::Result;
use crate::field::{ParquetRead, ParquetSchema, ParquetWrite};
use crate::logical::Annotation;
use crate::options::FieldOptions;
use crate::schema;
use crate::shred::{ColumnSink, WriteAt};

/// Written as `FIXED_LEN_BYTE_ARRAY(16) (UUID)`. Reads 16-byte fixed columns
/// with the UUID annotation or none (older writers store UUIDs unannotated).
///
/// ```
/// use magnolify_parquet::{FieldOptions, ParquetSchema, schema};
/// use parquet::basic::Repetition;
///
/// let node = uuid::Uuid::schema("id", Repetition::REQUIRED, &FieldOptions::DEFAULT).unwrap();
/// assert_eq!(schema::to_text(&node).trim(), "REQUIRED FIXED_LEN_BYTE_ARRAY (16) id (UUID);");
/// ```
impl ParquetSchema for Uuid {
    const LEAVES: usize = 1;
    type ReadPlan = LeafPlan<()>;

    fn schema(name: &str, repetition: Repetition, _opts: &FieldOptions) -> Result<Type> {
        schema::primitive_with(name, repetition, PhysicalType::FIXED_LEN_BYTE_ARRAY, Some(LogicalType::Uuid), |b| {
            b.with_length(16)
        })
    }
}

impl ParquetWrite for Uuid {
    #[inline]
    fn write(&self, sink: &mut ColumnSink, at: WriteAt, _opts: &FieldOptions) -> Result<()> {
        sink.push_bytes(at, self.as_bytes())
    }
}

impl ParquetRead for Uuid {
    fn resolve(node: &FileNode<'_>, _opts: &FieldOptions, resolver: &mut Resolver<'_>) -> Result<Self::ReadPlan> {
        not_repeated(node, "a Uuid")?;
        let (cursor, descr) = resolver.leaf(node)?;
        let annotation_ok = matches!(Annotation::of(node.ty()), Annotation::Uuid | Annotation::None);
        if descr.physical_type() != PhysicalType::FIXED_LEN_BYTE_ARRAY || descr.type_length() != 16 || !annotation_ok {
            return Err(node.mismatch("`Uuid` reads FIXED_LEN_BYTE_ARRAY(16) columns, annotated UUID or not"));
        }
        Ok(LeafPlan { cursor, conv: () })
    }

    #[inline]
    fn read(plan: &Self::ReadPlan, src: &mut RecordSource) -> Result<Self> {
        super::bytes::read_array(plan, src, format_args!("a UUID")).map(Uuid::from_bytes)
    }
}

impl ListElement for Uuid {}
