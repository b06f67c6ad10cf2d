//! Why `cat` cannot read a file.

/// Why `cat` cannot read a file: a column the projection names that the
/// file lacks, or the library's error.
#[derive(Debug, thiserror::Error)]
pub enum CatError {
    /// `--columns` names a field the file does not have.
    #[error("no column `{column}`; the file's columns are: {}", .columns.join(", "))]
    UnknownColumn {
        /// The path given.
        column: String,
        /// Every path the file has.
        columns: Vec<String>,
    },
    /// The library's error (a damaged file, a value that cannot be read).
    #[error(transparent)]
    Read(#[from] magnolify_parquet::Error),
}
