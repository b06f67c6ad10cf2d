//! Opening a Parquet file: magnolify-parquet's hardened footer reader
//! ([`ReaderBuilder::open`]), which checks the footer's size, schema shape
//! and nesting before the `parquet` crate acts on it, and returns an error,
//! never a panic, on damaged input.

use std::fs::File;
use std::path::Path;

use magnolify_parquet::{CheckedMetadata, ReaderBuilder};

use crate::error::CliError;

/// A reader builder over the file at `path`, its footer read and checked.
pub fn open(path: &Path) -> Result<ReaderBuilder<File>, CliError> {
    ReaderBuilder::open(path).map_err(|e| match e {
        magnolify_parquet::Error::Io { source, .. } => CliError::Io { path: path.to_owned(), source },
        other => CliError::Parquet { path: path.to_owned(), message: CliError::message(&other, path) },
    })
}

/// The footer (schema, key/value metadata, row groups) of the Parquet file
/// at `path`.
pub fn read_metadata(path: &Path) -> Result<CheckedMetadata, CliError> {
    open(path).map(|builder| builder.metadata().clone())
}
