//! `half::f16` (feature `half`): `FIXED_LEN_BYTE_ARRAY(2) (FLOAT16)`,
//! IEEE 754 half precision, little-endian.

use half::f16;
use parquet::basic::{LogicalType, Repetition, Type as PhysicalType};
use parquet::schema::types::Type;

use super::{not_repeated, LeafPlan, ListElement};
use crate::assemble::{FileNode, RecordSource, Resolver};
use crate::error::Result;
use crate::field::{ParquetRead, ParquetSchema, ParquetWrite};
use crate::logical::Annotation;
use crate::options::FieldOptions;
use crate::schema;
use crate::shred::{ColumnSink, WriteAt};

/// Written as `FIXED_LEN_BYTE_ARRAY(2) (FLOAT16)`; the bits travel unchanged,
/// so NaN payloads and the sign of zero survive a round trip. Reads only
/// FLOAT16-annotated columns: two raw bytes could mean anything.
///
/// ```
/// use magnolify_parquet::{FieldOptions, ParquetSchema, schema};
/// use parquet::basic::Repetition;
///
/// let node = half::f16::schema("h", Repetition::OPTIONAL, &FieldOptions::DEFAULT).unwrap();
/// assert_eq!(schema::to_text(&node).trim(), "OPTIONAL FIXED_LEN_BYTE_ARRAY (2) h (FLOAT16);");
/// ```
impl ParquetSchema for f16 {
    const LEAVES: usize = 1;
    type ReadPlan = LeafPlan<()>;

    fn schema(name: &str, repetition: Repetition, _opts: &FieldOptions) -> Result<Type> {
        schema::primitive_with(name, repetition, PhysicalType::FIXED_LEN_BYTE_ARRAY, Some(LogicalType::Float16), |b| {
            b.with_length(2)
        })
    }
}

impl ParquetWrite for f16 {
    #[inline]
    fn write(&self, sink: &mut ColumnSink, at: WriteAt, _opts: &FieldOptions) -> Result<()> {
        sink.push_bytes(at, &self.to_le_bytes())
    }
}

impl ParquetRead for f16 {
    fn resolve(node: &FileNode<'_>, _opts: &FieldOptions, resolver: &mut Resolver<'_>) -> Result<Self::ReadPlan> {
        not_repeated(node, "an f16")?;
        let (cursor, descr) = resolver.leaf(node)?;
        let float16 = Annotation::of(node.ty()) == Annotation::Float16;
        if descr.physical_type() != PhysicalType::FIXED_LEN_BYTE_ARRAY || descr.type_length() != 2 || !float16 {
            return Err(node.mismatch("`f16` reads FIXED_LEN_BYTE_ARRAY(2) columns annotated FLOAT16"));
        }
        Ok(LeafPlan { cursor, conv: () })
    }

    #[inline]
    fn read(plan: &Self::ReadPlan, src: &mut RecordSource) -> Result<Self> {
        super::bytes::read_array(plan, src, format_args!("a FLOAT16")).map(f16::from_le_bytes)
    }
}

impl ListElement for f16 {}
