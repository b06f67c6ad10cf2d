//! `half::f16` (feature `half`): `FIXED_LEN_BYTE_ARRAY(2) (FLOAT16)`,
//! IEEE 754 half precision, little-endian.

use half::f16;
use parquet::basic::LogicalType;

fixed_bytes_type! {
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
f16: 2 bytes annotated LogicalType::Float16,
reads Annotation::Float16, else "`f16` reads FIXED_LEN_BYTE_ARRAY(2) columns annotated FLOAT16",
write |half| &half.to_le_bytes(),
read "a FLOAT16" with f16::from_le_bytes,
}
