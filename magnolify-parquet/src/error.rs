//! The one error type of the library, and where an error happened.
//!
//! Every error says what kind of problem it is (its variant), where it
//! happened (a [`Location`]: file, footer, row group, page, column, field,
//! record) and, for the problems a user fixes in their struct (a schema
//! mismatch, a null), what to change.

use std::fmt;
use std::path::Path;
use std::sync::Arc;

/// A `Result` whose error is [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Where an error happened. Every part is optional: an error names as much
/// as the layer that raised it knew, and outer layers fill in the rest (the
/// reader adds the row group, the writer the record number).
///
/// ```
/// use magnolify_parquet::{Error, Location};
///
/// let e = Error::argument("row group 7 requested, the file has 2");
/// assert_eq!(e.location(), None);
/// assert_eq!(Location::default().to_string(), "");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Location {
    /// The file, when the reader or writer was given a path.
    pub file: Option<Arc<Path>>,
    /// The error is in the footer (the file's metadata), not in its data.
    pub footer: bool,
    /// Index of the row group.
    pub row_group: Option<usize>,
    /// Index of the page within its column chunk.
    pub page: Option<usize>,
    /// Dotted path of the column (or group) in the file's schema.
    pub column: Option<String>,
    /// Dotted path of the field in the Rust type.
    pub field: Option<String>,
    /// Index of the record: from the start of the file when reading, in
    /// the order written when writing.
    pub record: Option<u64>,
}

impl Location {
    /// A column (or group) of the file's schema.
    pub fn column(path: impl Into<String>) -> Self {
        Location { column: Some(path.into()), ..Location::default() }
    }

    /// A field of the Rust type.
    pub fn field(path: impl Into<String>) -> Self {
        Location { field: Some(path.into()), ..Location::default() }
    }

    /// The footer.
    pub fn footer() -> Self {
        Location { footer: true, ..Location::default() }
    }

    /// A row group.
    pub fn row_group(index: usize) -> Self {
        Location { row_group: Some(index), ..Location::default() }
    }

    /// The same location at record `record`.
    pub fn with_record(mut self, record: u64) -> Self {
        self.record = Some(record);
        self
    }

    /// The same location in page `page` of the chunk.
    pub fn with_page(mut self, page: usize) -> Self {
        self.page = Some(page);
        self
    }

    /// Whether nothing is known.
    pub fn is_empty(&self) -> bool {
        *self == Location::default()
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut sep = "";
        let mut part = |f: &mut fmt::Formatter<'_>, args: fmt::Arguments<'_>| {
            let r = write!(f, "{sep}{args}");
            sep = ", ";
            r
        };
        if let Some(file) = &self.file {
            part(f, format_args!("file `{}`", file.display()))?;
        }
        if self.footer {
            part(f, format_args!("footer"))?;
        }
        if let Some(g) = self.row_group {
            part(f, format_args!("row group {g}"))?;
        }
        if let Some(p) = self.page {
            part(f, format_args!("page {p}"))?;
        }
        if let Some(c) = &self.column {
            part(f, format_args!("column `{c}`"))?;
        }
        if let Some(field) = &self.field {
            part(f, format_args!("field `{field}`"))?;
        }
        if let Some(r) = self.record {
            part(f, format_args!("record {r}"))?;
        }
        Ok(())
    }
}

/// ` at <location>`, or nothing for an empty location.
struct At<'a>(&'a Location);

impl fmt::Display for At<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            Ok(())
        } else {
            write!(f, " at {}", self.0)
        }
    }
}

/// Everything that can go wrong while building a schema, writing or reading.
///
/// The variants are the kinds of problem; each carries its [`Location`].
/// Errors are `Clone` (their sources are shared), so a writer can keep the
/// error that broke it and hand it out again as the source of
/// [`Error::WriterState`].
#[derive(Clone, Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The file is damaged or was written wrongly: a footer, page header,
    /// page or levels that contradict the format or each other.
    #[error("damaged file{}: {message}", At(.location))]
    Damaged {
        /// Where.
        location: Box<Location>,
        /// What is inconsistent.
        message: String,
    },
    /// The file's schema does not fit the Rust type: a missing required
    /// field, a physical or logical type that cannot be converted exactly.
    /// The message says what to change in the type.
    #[error("schema mismatch{}: {message}", At(.location))]
    Mismatch {
        /// Where: the column or group of the file.
        location: Box<Location>,
        /// What was expected, what the file holds, and the fix.
        message: String,
    },
    /// A null where the Rust type has no room for one. The message names the
    /// node that is null (a group, a list, a list element, a value) and the
    /// type to use instead.
    #[error("null value{}: {message}", At(.location))]
    Null {
        /// Where: the null node of the file, and the record.
        location: Box<Location>,
        /// What is null, and the fix.
        message: String,
    },
    /// A value that cannot be converted: invalid UTF-8, out of range for the
    /// target type or unit, an unknown enum symbol, a decimal that does not fit.
    #[error("bad value{}: {message}", At(.location))]
    Value {
        /// Where.
        location: Box<Location>,
        /// What was found.
        message: String,
    },
    /// The Rust type has no Parquet form with the options given (for
    /// example nullable list elements in the two-level layout).
    #[error("unsupported type{}: {message}", At(.location))]
    Schema {
        /// Where: the field.
        location: Box<Location>,
        /// What is wrong.
        message: String,
    },
    /// An argument the caller passed is out of range (a row group index
    /// past the end, a zero batch size, a setting the writer cannot honour).
    #[error("invalid argument: {message}")]
    Argument {
        /// What is wrong and what is allowed.
        message: String,
    },
    /// A converter broke its contract: it wrote into a leaf of another
    /// type, a level out of range, or read a cursor it never resolved. A bug
    /// of the converter (the derive or a hand-written one), never of the data.
    #[error("converter bug{}: {message}", At(.location))]
    Bug {
        /// Where.
        location: Box<Location>,
        /// What the converter did.
        message: String,
    },
    /// An error of the `parquet` crate while encoding (decoding errors are
    /// [`Error::Damaged`]).
    #[error("parquet{}: {source}", At(.location))]
    Parquet {
        /// Where.
        location: Box<Location>,
        /// The underlying error.
        #[source]
        source: Arc<parquet::errors::ParquetError>,
    },
    /// An I/O error of the sink or the file.
    #[error("i/o{}: {source}", At(.location))]
    Io {
        /// Where.
        location: Box<Location>,
        /// The underlying error.
        #[source]
        source: Arc<std::io::Error>,
    },
    /// The writer cannot go on: it was closed (no source), or an earlier
    /// I/O or encoding error (the source) left its output in an unknown state.
    #[error("{}", match .source { Some(_) => "the writer is unusable after an earlier error", None => "the writer was closed" })]
    WriterState {
        /// The error that broke the writer.
        #[source]
        source: Option<Box<Error>>,
    },
}

impl From<std::io::Error> for Error {
    fn from(source: std::io::Error) -> Self {
        Error::Io { location: Box::default(), source: Arc::new(source) }
    }
}

impl From<parquet::errors::ParquetError> for Error {
    fn from(source: parquet::errors::ParquetError) -> Self {
        Error::parquet(Location::default(), source)
    }
}

/// The location of an error (by reference or mutably, as `$error` is
/// given), `None` for the kinds that have none: one list of kinds for both.
macro_rules! located {
    ($error:expr) => {
        match $error {
            Error::Damaged { location, .. }
            | Error::Mismatch { location, .. }
            | Error::Null { location, .. }
            | Error::Value { location, .. }
            | Error::Schema { location, .. }
            | Error::Bug { location, .. }
            | Error::Parquet { location, .. }
            | Error::Io { location, .. } => Some(location),
            Error::Argument { .. } | Error::WriterState { .. } => None,
        }
    };
}

impl Error {
    /// An [`Error::Argument`].
    pub fn argument(message: impl Into<String>) -> Self {
        Error::Argument { message: message.into() }
    }
    /// An [`Error::Damaged`].
    pub fn damaged(location: Location, message: impl Into<String>) -> Self {
        Error::Damaged { location: Box::new(location), message: message.into() }
    }
    /// An [`Error::Mismatch`]; `message` should say what to change in the type.
    pub fn mismatch(location: Location, message: impl Into<String>) -> Self {
        Error::Mismatch { location: Box::new(location), message: message.into() }
    }
    /// An [`Error::Null`]; `message` should say what is null and the type to use.
    pub fn null(location: Location, message: impl Into<String>) -> Self {
        Error::Null { location: Box::new(location), message: message.into() }
    }
    /// An [`Error::Schema`] at field `field`.
    pub fn schema(field: &str, message: impl Into<String>) -> Self {
        Error::Schema { location: Box::new(Location::field(field)), message: message.into() }
    }
    /// An [`Error::Bug`].
    pub fn bug(location: Location, message: impl Into<String>) -> Self {
        Error::Bug { location: Box::new(location), message: message.into() }
    }
    /// An [`Error::Value`].
    pub fn value(location: Location, message: impl Into<String>) -> Self {
        Error::Value { location: Box::new(location), message: message.into() }
    }
    /// An error of the `parquet` crate at `location`: [`Error::Io`] when it
    /// wraps an I/O error of the sink or the file (the crate passes those on
    /// as `External`), else [`Error::Parquet`].
    pub(crate) fn parquet(location: Location, source: parquet::errors::ParquetError) -> Self {
        let location = Box::new(location);
        match source {
            parquet::errors::ParquetError::External(e) => match e.downcast::<std::io::Error>() {
                Ok(io) => Error::Io { location, source: Arc::new(*io) },
                Err(other) => {
                    Error::Parquet { location, source: Arc::new(parquet::errors::ParquetError::External(other)) }
                }
            },
            source => Error::Parquet { location, source: Arc::new(source) },
        }
    }

    /// Where the error happened; `None` for [`Error::Argument`] and
    /// [`Error::WriterState`], which concern the call itself.
    pub fn location(&self) -> Option<&Location> {
        located!(self)
    }

    fn location_mut(&mut self) -> Option<&mut Location> {
        located!(self)
    }

    /// The dotted column path the error names, if any.
    pub fn column(&self) -> Option<&str> {
        self.location()?.column.as_deref()
    }

    /// Whether the error concerns one record's value (a null or a value
    /// that does not fit): the records before it are sound.
    pub fn is_record_error(&self) -> bool {
        matches!(self, Error::Null { .. } | Error::Value { .. })
    }

    /// Fills in the parts of the location that are not set yet, from `outer`.
    pub(crate) fn within(mut self, outer: impl FnOnce(&mut Location)) -> Self {
        if let Some(location) = self.location_mut() {
            outer(location);
        }
        self
    }

    /// Sets the row group, unless already set.
    pub(crate) fn in_row_group(self, group: usize) -> Self {
        self.within(|l| {
            l.row_group.get_or_insert(group);
        })
    }

    /// Sets the record, unless already set.
    pub(crate) fn at_record(self, record: u64) -> Self {
        self.within(|l| {
            l.record.get_or_insert(record);
        })
    }

    /// Sets the file, unless already set.
    pub(crate) fn in_file(self, file: &Option<Arc<Path>>) -> Self {
        match file {
            Some(path) => self.within(|l| {
                l.file.get_or_insert_with(|| path.clone());
            }),
            None => self,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_print_what_they_know() {
        let l = Location { row_group: Some(2), column: Some("a.b".into()), record: Some(17), ..Location::default() };
        assert_eq!(l.to_string(), "row group 2, column `a.b`, record 17");
        let e = Error::damaged(Location::footer(), "bad magic");
        assert_eq!(e.to_string(), "damaged file at footer: bad magic");
        assert_eq!(Error::argument("no").to_string(), "invalid argument: no");
    }

    #[test]
    fn outer_layers_fill_in_only_what_is_missing() {
        let e = Error::damaged(Location::row_group(1), "x").in_row_group(5).at_record(9);
        assert_eq!(e.location().unwrap().row_group, Some(1));
        assert_eq!(e.location().unwrap().record, Some(9));
    }

    #[test]
    fn a_broken_writer_keeps_its_cause() {
        let cause = Error::from(std::io::Error::other("disk full"));
        let e = Error::WriterState { source: Some(Box::new(cause)) };
        let source = std::error::Error::source(&e).unwrap();
        assert_eq!(source.to_string(), "i/o: disk full");
    }
}
