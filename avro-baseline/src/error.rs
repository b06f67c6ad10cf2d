//! Building the library's errors with the Avro path they concern, and
//! describing a value briefly for a message.

use apache_avro::types::Value;
use magnolify_parquet::{Error, Location};

/// The Avro schema cannot be converted (or is invalid) at `path`.
pub(crate) fn schema_error(path: &str, message: impl Into<String>) -> Error {
    match location(path).field {
        Some(field) => Error::schema(&field, message),
        None => Error::Schema { location: Box::default(), message: message.into() },
    }
}

/// A value being written does not fit the schema at `path`.
pub(crate) fn value_error(path: &str, message: impl Into<String>) -> Error {
    Error::value(location(path), message)
}

/// `expected …, found …` for a value of the wrong kind.
#[cold]
pub(crate) fn mismatch(path: &str, expected: &str, found: &Value) -> Error {
    value_error(path, format!("expected {expected}, found {}", describe(found)))
}

/// The Avro field at `path`: none for the record itself.
fn location(path: &str) -> Location {
    if path.is_empty() {
        Location::default()
    } else {
        Location::field(path)
    }
}

/// A short description of a value: scalars in full (strings and bytes cut),
/// containers by size, so that a message stays one line.
pub(crate) fn describe(value: &Value) -> String {
    const MAX: usize = 40;
    match value {
        Value::String(s) if s.len() > MAX => {
            let cut = (0..=MAX).rev().find(|i| s.is_char_boundary(*i)).unwrap_or(0);
            format!("String({:?}…)", &s[..cut])
        }
        Value::Bytes(b) if b.len() > MAX => format!("Bytes({} bytes)", b.len()),
        Value::Fixed(n, b) if b.len() > MAX => format!("Fixed({n}, {} bytes)", b.len()),
        Value::Array(items) => format!("Array({} items)", items.len()),
        Value::Map(entries) => format!("Map({} entries)", entries.len()),
        Value::Record(fields) => {
            let names: Vec<&str> = fields.iter().take(8).map(|(n, _)| n.as_str()).collect();
            let more = if fields.len() > 8 { ", …" } else { "" };
            format!("Record with fields [{}{more}]", names.join(", "))
        }
        Value::Union(i, inner) => format!("Union({i}, {})", describe(inner)),
        other => format!("{other:?}"),
    }
}
