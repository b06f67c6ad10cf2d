//! The Rust type that reads a file's node as it is: what a schema-mismatch
//! error suggests, so that the message says what to write in the struct.

use parquet::basic::{Repetition, Type as PhysicalType};
use parquet::schema::types::Type;

use super::resolve::{list_shape, map_shape, FileNode};
use crate::error::Error;
use crate::logical::Annotation;
use crate::options::TimeUnit;

// The mismatch errors live here, beside the suggestion they carry, so that
// resolution (below) never imports the suggestion (above) back.
impl FileNode<'_> {
    /// The error for a type that cannot read this node: `expected` says
    /// what the type reads; the message adds what the file holds and the
    /// Rust type that reads it as it is.
    pub fn mismatch(&self, expected: impl std::fmt::Display) -> Error {
        self.error(format!("{expected}, but the file has {}; read it into {}", self.describe(), rust_type(self)))
    }

    /// `error` (a mismatch at this node) with the Rust type that reads the
    /// node as it is added to its message.
    pub(crate) fn with_hint(&self, error: Error) -> Error {
        match error {
            Error::Mismatch { location, message } => {
                let message = format!("{message}; read it into {}", rust_type(self));
                Error::Mismatch { location, message }
            }
            other => other,
        }
    }
}

/// The field type (with the attribute it needs, if any) that reads `node`.
pub(crate) fn rust_type(node: &FileNode<'_>) -> String {
    let (ty, attribute) = bare(node, 0);
    let ty = match node.repetition() {
        Repetition::OPTIONAL => format!("Option<{ty}>"),
        Repetition::REPEATED => format!("Vec<{ty}>"),
        Repetition::REQUIRED => ty,
    };
    let mut out = format!("`{ty}`");
    if let Some(attribute) = attribute {
        out.push_str(&format!(" with {attribute}"));
    }
    if node.is_group() && list_shape(node).is_err() && map_shape(node).is_err() {
        out.push_str(&format!(
            ", where `{}` is a #[derive(ParquetType)] struct with fields {}",
            struct_name(node.name()),
            node.field_names()
        ));
    }
    out
}

/// A struct name for a group: its name in UpperCamelCase.
fn struct_name(name: &str) -> String {
    name.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut chars = w.chars();
            chars.next().map(|c| c.to_ascii_uppercase()).into_iter().chain(chars).collect::<String>()
        })
        .collect()
}

/// Deepest nesting spelled out; below it a list or map element is `_`.
const DEPTH: usize = 4;

/// The type of `node` as if it were required, and the attribute it needs.
fn bare(node: &FileNode<'_>, depth: usize) -> (String, Option<String>) {
    if depth > DEPTH {
        return ("_".to_owned(), None);
    }
    match node.ty() {
        Type::GroupType { .. } => group(node, depth),
        Type::PrimitiveType { physical_type, type_length, .. } => leaf(node.ty(), *physical_type, *type_length),
    }
}

fn group(node: &FileNode<'_>, depth: usize) -> (String, Option<String>) {
    match Annotation::of(node.ty()) {
        Annotation::Map => {
            if let Ok(shape) = map_shape(node) {
                let key = bare(&shape.key, depth + 1).0;
                return match &shape.value {
                    Some(v) => (format!("HashMap<{key}, {}>", element(v, depth)), None),
                    // A key-only map reads as the list of its keys.
                    None => (format!("Vec<{key}>"), None),
                };
            }
        }
        _ => {
            if let Ok(shape) = list_shape(node) {
                return (format!("Vec<{}>", element(&shape.element, depth)), None);
            }
        }
    }
    (struct_name(node.name()), None)
}

/// A list element or map value: `Option<T>` when nullable.
fn element(node: &FileNode<'_>, depth: usize) -> String {
    let t = bare(node, depth + 1).0;
    if node.repetition() == Repetition::OPTIONAL {
        format!("Option<{t}>")
    } else {
        t
    }
}

fn unit_attribute(unit: TimeUnit) -> Option<String> {
    let name = match unit {
        TimeUnit::Millis => "millis",
        TimeUnit::Micros => return None,
        TimeUnit::Nanos => "nanos",
    };
    Some(format!("#[parquet(timestamp = \"{name}\")]"))
}

fn leaf(ty: &Type, physical: PhysicalType, length: i32) -> (String, Option<String>) {
    use PhysicalType as P;
    let plain = |t: &str| (t.to_owned(), None);
    match (Annotation::of(ty), physical) {
        (Annotation::Decimal { precision, scale }, _) => {
            let rust = if precision <= 28 { "rust_decimal::Decimal" } else { "bigdecimal::BigDecimal" };
            (rust.to_owned(), Some(format!("#[parquet(decimal(precision = {precision}, scale = {scale}))]")))
        }
        (Annotation::Integer { bits, signed }, _) => plain(&format!("{}{bits}", if signed { "i" } else { "u" })),
        (Annotation::Date, _) => plain("chrono::NaiveDate"),
        (Annotation::Time { unit, .. }, _) => ("chrono::NaiveTime".to_owned(), unit_attribute(unit)),
        (Annotation::Timestamp { unit, utc: true }, _) => {
            ("chrono::DateTime<chrono::Utc>".to_owned(), unit_attribute(unit))
        }
        (Annotation::Timestamp { unit, utc: false }, _) => ("chrono::NaiveDateTime".to_owned(), unit_attribute(unit)),
        (Annotation::Uuid, _) => plain("uuid::Uuid"),
        (Annotation::Float16, _) => plain("half::f16"),
        // An always-null column (UNKNOWN) is optional: any `Option` of a
        // type of its physical kind reads it, as the arms below give.
        (a, P::BYTE_ARRAY) if a.is_text() => plain("String"),
        (_, P::BOOLEAN) => plain("bool"),
        (_, P::INT32) => plain("i32"),
        (_, P::INT64) => plain("i64"),
        (_, P::INT96) => plain("chrono::NaiveDateTime"),
        (_, P::FLOAT) => plain("f32"),
        (_, P::DOUBLE) => plain("f64"),
        (_, P::BYTE_ARRAY) => plain("Vec<u8>"),
        (_, P::FIXED_LEN_BYTE_ARRAY) => plain(&format!("[u8; {length}]")),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use parquet::schema::parser::parse_message_type;
    use parquet::schema::types::SchemaDescriptor;

    use super::*;

    fn hints(text: &str) -> Vec<String> {
        let schema = SchemaDescriptor::new(Arc::new(parse_message_type(text).expect("schema")));
        FileNode::root(&schema).children().iter().map(rust_type).collect()
    }

    #[test]
    fn leaves_read_as_their_natural_type() {
        let got = hints(
            "message m {
                required int32 a (INTEGER(16,false));
                optional int64 b (TIMESTAMP(MILLIS,true));
                required fixed_len_byte_array(16) c (UUID);
                optional binary d (DECIMAL(30,4));
                required binary e (STRING);
                required int96 f;
            }",
        );
        assert_eq!(
            got,
            [
                "`u16`",
                "`Option<chrono::DateTime<chrono::Utc>>` with #[parquet(timestamp = \"millis\")]",
                "`uuid::Uuid`",
                "`Option<bigdecimal::BigDecimal>` with #[parquet(decimal(precision = 30, scale = 4))]",
                "`String`",
                "`chrono::NaiveDateTime`",
            ]
        );
    }

    #[test]
    fn groups_lists_and_maps() {
        let got = hints(
            "message m {
                optional group l (LIST) { repeated group list { optional int32 element; } }
                required group m (MAP) { repeated group key_value { required binary key (STRING); required double value; } }
                required group s { required int32 x; optional binary y; }
                optional group k (MAP) { repeated group key_value { required int32 key; } }
                optional int32 n (UNKNOWN);
            }",
        );
        assert_eq!(
            got,
            [
                "`Option<Vec<Option<i32>>>`",
                "`HashMap<String, f64>`",
                "`S`, where `S` is a #[derive(ParquetType)] struct with fields [x, y]",
                "`Option<Vec<i32>>`",
                "`Option<i32>`",
            ]
        );
    }
}
