//! The errors the command reports, one line each, naming the file.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::codegen::CodegenError;

/// Why a command failed on a file: printed as
/// `magnolify-parquet: FILE: what is wrong`, exit code 2.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The file could not be opened, read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: Arc<std::io::Error>,
    },
    /// The file is not a readable Parquet file (bad magic, damaged footer).
    #[error("{}: not a readable Parquet file: {message}", path.display())]
    Parquet {
        /// The file.
        path: PathBuf,
        /// What the footer reader found.
        message: String,
    },
    /// The file's footer is sound, but its records cannot be read or
    /// written: damaged pages, a value that does not fit, an unknown
    /// column, an Avro schema with no Parquet form.
    #[error("{}: {message}", path.display())]
    Records {
        /// The file.
        path: PathBuf,
        /// What went wrong, and where in the file.
        message: String,
    },
    /// No code can be generated for the file's schema.
    #[error("{}: {source}", path.display())]
    Codegen {
        /// The file.
        path: PathBuf,
        /// Why.
        source: CodegenError,
    },
}

impl CliError {
    /// An I/O error on `path`.
    pub fn io(path: &Path, source: std::io::Error) -> Self {
        CliError::Io { path: path.to_owned(), source: Arc::new(source) }
    }

    /// The library's error `e` about `path` as a [`CliError::Records`].
    pub fn records(path: &Path, e: &magnolify_parquet::Error) -> Self {
        CliError::Records { path: path.to_owned(), message: Self::message(e, path) }
    }

    /// Any other message about `path` as a [`CliError::Records`].
    pub fn other(path: &Path, message: impl std::fmt::Display) -> Self {
        CliError::Records { path: path.to_owned(), message: one_line(&message.to_string()) }
    }

    /// The text of the library's error `e` about `path`, without the file
    /// (the command names it first) and on one line.
    pub fn message(e: &magnolify_parquet::Error, path: &Path) -> String {
        let file = format!("file `{}`", path.display());
        let text = e.to_string().replacen(&format!("{file}, "), "", 1).replacen(&format!(" at {file}"), "", 1);
        one_line(&text)
    }
}

/// `text` with line breaks as spaces: errors are one line each.
fn one_line(text: &str) -> String {
    text.split(['\n', '\r']).map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join(" ")
}
