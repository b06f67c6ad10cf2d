//! The one error type of the library.
//!
//! Every variant names the column (or field) path it concerns and what was
//! found there, so that a message read in a log is enough to find the problem.

use std::fmt;

/// A `Result` whose error is [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong while building a schema, writing or reading.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The Rust type cannot be expressed as a Parquet schema with the options
    /// given (for example nullable list elements in the two-level layout).
    #[error("schema of `{path}`: {message}")]
    Schema {
        /// Dotted path of the field.
        path: String,
        /// What is wrong.
        message: String,
    },
    /// The file's schema does not fit the Rust type: a missing required
    /// field, a physical or logical type that cannot be converted exactly.
    #[error("column `{path}`: {message}")]
    Resolve {
        /// Dotted path of the field in the file.
        path: String,
        /// What was expected and what the file holds.
        message: String,
    },
    /// A null where the Rust type has no room for one.
    #[error("column `{path}`, row {row}: null value in a field that is not optional")]
    Null {
        /// Dotted column path.
        path: String,
        /// Index of the record in the file (or store), from 0.
        row: u64,
    },
    /// A value that cannot be converted: invalid UTF-8, out of range for the
    /// target type or unit, an unknown enum symbol, a decimal that does not fit.
    #[error("column `{path}`{row}: {message}", row = RowSuffix(*.row))]
    Value {
        /// Dotted column path.
        path: String,
        /// Index of the record, when reading.
        row: Option<u64>,
        /// What was found.
        message: String,
    },
    /// Levels or values that contradict the schema: the file is damaged or
    /// was written wrongly.
    #[error("column `{path}`: corrupt data: {message}")]
    Corrupt {
        /// Dotted column path.
        path: String,
        /// What is inconsistent.
        message: String,
    },
    /// An error of the `parquet` crate (decoding, encoding, footer).
    #[error("parquet{}: {source}", PathSuffix(.path))]
    Parquet {
        /// The column concerned, when known.
        path: Option<String>,
        /// The underlying error.
        #[source]
        source: parquet::errors::ParquetError,
    },
    /// An I/O error of the sink or file.
    #[error("i/o: {0}")]
    Io(#[from] std::io::Error),
    /// The writer cannot go on: it was closed, or an earlier I/O error left
    /// its output in an unknown state.
    #[error("writer is unusable: {0}")]
    WriterState(String),
    /// The `parquet` crate panicked on this input; the panic was caught at the
    /// library's boundary and turned into this error.
    #[error("parquet panicked while decoding{}: {message}", PathSuffix(.path))]
    Panic {
        /// The column concerned, when known.
        path: Option<String>,
        /// The panic message.
        message: String,
    },
}

struct RowSuffix(Option<u64>);
impl fmt::Display for RowSuffix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(row) => write!(f, ", row {row}"),
            None => Ok(()),
        }
    }
}

struct PathSuffix<'a>(&'a Option<String>);
impl fmt::Display for PathSuffix<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(p) => write!(f, " (column `{p}`)"),
            None => Ok(()),
        }
    }
}

impl From<parquet::errors::ParquetError> for Error {
    fn from(source: parquet::errors::ParquetError) -> Self {
        Error::Parquet { path: None, source }
    }
}

impl Error {
    pub(crate) fn schema(path: impl Into<String>, message: impl Into<String>) -> Self {
        Error::Schema { path: path.into(), message: message.into() }
    }
    pub(crate) fn resolve(path: impl Into<String>, message: impl Into<String>) -> Self {
        Error::Resolve { path: path.into(), message: message.into() }
    }
    pub(crate) fn corrupt(path: impl Into<String>, message: impl Into<String>) -> Self {
        Error::Corrupt { path: path.into(), message: message.into() }
    }
    pub(crate) fn parquet_at(path: impl Into<String>, source: parquet::errors::ParquetError) -> Self {
        Error::Parquet { path: Some(path.into()), source }
    }

    /// The column or field path this error concerns, if it names one.
    pub fn path(&self) -> Option<&str> {
        match self {
            Error::Schema { path, .. }
            | Error::Resolve { path, .. }
            | Error::Null { path, .. }
            | Error::Value { path, .. }
            | Error::Corrupt { path, .. } => Some(path),
            Error::Parquet { path, .. } | Error::Panic { path, .. } => path.as_deref(),
            Error::Io(_) | Error::WriterState(_) => None,
        }
    }
}
