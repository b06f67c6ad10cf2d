//! The `magnolify-parquet` command line tool, as a library, so that the
//! I/O in `main.rs` stays thin and every part is tested on its own:
//!
//! * [`cat`]: the records of any file as JSON, through a dynamic converter
//!   of magnolify-parquet's `RecordRead` trait;
//! * [`json`]: the text of leaf values (dates, times, decimals, bytes,
//!   floats) in the fixtures' JSON encoding;
//! * [`codegen`]: `#[derive(ParquetType)]` structs for a file's schema or
//!   an Avro schema;
//! * [`describe`]: the text of `schema FILE`;
//! * [`engines`]: the text of `check`, from the library's rules on which
//!   columns Spark, DuckDB, pyarrow or Trino cannot read,
//!   or read differently;
//! * [`avro`]: deterministic conversions between Avro and Parquet files;
//! * [`input`], [`shape`], [`progress`], [`error`]: opening files, reading
//!   schema layouts, progress reports and one-line errors.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod avro;
pub mod cat;
pub mod codegen;
pub mod describe;
pub mod engines;
pub mod error;
pub mod input;
pub mod progress;
pub mod shape;

/// The text of leaf values in the fixtures' JSON encoding, shared with the
/// tests (`test_kit::text`).
pub use test_kit::text as json;

pub use error::CliError;
