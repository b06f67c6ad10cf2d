//! Why no code can be generated for a schema: the one error of every
//! front-end.

/// Why no code can be generated for a schema.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum CodegenError {
    /// The schema root is a primitive column, not a message (a group).
    #[error("the schema root is not a group")]
    NotAMessage,
    /// The message has no fields.
    #[error("the schema has no columns: there is nothing to generate")]
    NoColumns,
    /// No column can be read by any magnolify-parquet type.
    #[error("no column can be read with magnolify-parquet: {0}")]
    NothingReadable(String),
    /// The Avro schema is not a record.
    #[error("the Avro schema is not a record: only records are written as Parquet files")]
    NotARecord,
    /// The Avro schema has no Parquet form (recursion, an empty record, an
    /// unknown named type).
    #[error("{0}")]
    Avro(String),
}
