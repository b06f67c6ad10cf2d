//! The crate's error: this library's, iceberg-rust's, or a table that does
//! not fit the records.

/// A `Result` whose error is [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What went wrong with a table.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Writing or reading a data file (its location says where).
    #[error(transparent)]
    Parquet(#[from] magnolify_parquet::Error),
    /// Reading a data file of a table.
    #[error("data file `{path}`: {source}")]
    DataFile {
        /// The file's location.
        path: String,
        /// What was wrong, and where in the file.
        source: magnolify_parquet::Error,
    },
    /// The catalog, the table metadata or a commit, from iceberg-rust.
    #[error("iceberg: {0}")]
    Iceberg(#[from] iceberg::Error),
    /// The record type and the table disagree, or a type has no Iceberg
    /// form: `field` is the dotted path, `message` what to change.
    #[error("field `{field}`: {message}")]
    Schema {
        /// The field's dotted path.
        field: String,
        /// What is wrong and what to change.
        message: String,
    },
    /// A table that the library will not read or write as it is (delete
    /// files it cannot apply, a snapshot that does not exist).
    #[error("table `{table}`: {message}")]
    Table {
        /// The table's name.
        table: String,
        /// What is wrong and what to do.
        message: String,
    },
}

impl Error {
    pub(crate) fn schema(field: impl Into<String>, message: impl Into<String>) -> Self {
        Error::Schema { field: field.into(), message: message.into() }
    }

    pub(crate) fn table(table: impl ToString, message: impl Into<String>) -> Self {
        Error::Table { table: table.to_string(), message: message.into() }
    }
}
