//! The fixture files of `tests/fixtures` (files written by other
//! implementations, with their expected rows; provenance in its README).

use std::path::{Path, PathBuf};

use bytes::Bytes;

use crate::json::{parse_exact, Value};

/// The `tests/fixtures` folder of the workspace.
pub fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures")
}

/// The bytes of the fixture file at `path` under `tests/fixtures`.
pub fn bytes(path: &str) -> Bytes {
    let file = dir().join(path);
    Bytes::from(std::fs::read(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display())))
}

/// A fixture's Parquet file and its parsed expectation; `name` is the path
/// under `tests/fixtures` without `.parquet`.
pub fn with_expected(name: &str) -> (PathBuf, Value) {
    let dir = dir();
    let file = dir.join(format!("{name}.parquet"));
    let json = dir.join(format!("{name}.expected.json"));
    let text = std::fs::read_to_string(&json).unwrap_or_else(|e| panic!("{}: {e}", json.display()));
    let doc = parse_exact(&text).unwrap_or_else(|e| panic!("{}: {e}", json.display()));
    (file, doc)
}

/// The `rows` of an expectation.
pub fn rows(doc: &Value) -> &[Value] {
    doc.get("rows").and_then(Value::as_array).map_or(&[], Vec::as_slice)
}
