//! `uuid::Uuid` (feature `uuid`): `FIXED_LEN_BYTE_ARRAY(16) (UUID)`, the
//! bytes in canonical text order (big-endian), as the format says.

use parquet::basic::LogicalType;
use uuid::Uuid;

fixed_bytes_type! {
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
Uuid: 16 bytes annotated LogicalType::Uuid,
reads Annotation::Uuid | Annotation::None, else "`Uuid` reads FIXED_LEN_BYTE_ARRAY(16) columns, annotated UUID or not",
write |uuid| uuid.as_bytes(),
read "a UUID" with Uuid::from_bytes,
}
