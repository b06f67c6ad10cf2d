//! The two schema mappings of parquet-avro: Avro → Parquet for writing
//! ([`to_parquet`]) and Parquet → Avro for reading files that carry no Avro
//! schema ([`to_avro`]).

pub(crate) mod json;
pub(crate) mod to_avro;
pub(crate) mod to_parquet;
