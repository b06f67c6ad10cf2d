//! What the integration tests share: the binary, the fixtures of
//! `tests/fixtures` with their expected JSON, and an exact comparison of
//! JSON values.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

/// Runs the binary with `args`.
pub fn run(args: &[&OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_magnolify-parquet")).args(args).output().expect("the binary runs")
}

/// The binary's standard output.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The binary's standard error.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Runs the binary with `args`, checks that it exits with `code` (showing
/// its stderr if not) and returns its standard output.
pub fn stdout_of(args: &[&OsStr], code: i32) -> String {
    let out = run(args);
    assert_eq!(out.status.code(), Some(code), "{}", stderr(&out));
    stdout(&out)
}

/// A fresh directory for one test's files, its own whatever else runs at
/// the same time, removed when dropped.
pub fn temp_dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new().prefix(&format!("magnolify-cli-test-{name}-")).tempdir().expect("temp dir")
}

/// The workspace's `tests/fixtures` folder.
pub fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures")
}

/// A Parquet fixture and its expectation.
#[derive(Debug)]
pub struct Fixture {
    /// `parquet-testing/nested_lists.snappy`: the path under `tests/fixtures`, without `.parquet`.
    pub name: String,
    /// The Parquet file.
    pub parquet: PathBuf,
    /// The parsed `*.expected.json`.
    pub expected: Value,
}

impl Fixture {
    /// Whether reading the file must fail (`"expect": "error"`).
    pub fn expects_error(&self) -> bool {
        self.expected.get("expect").and_then(Value::as_str) == Some("error")
    }

    /// The expected rows.
    pub fn rows(&self) -> &[Value] {
        self.expected.get("rows").and_then(Value::as_array).map_or(&[], Vec::as_slice)
    }
}

/// Every Parquet fixture with an expectation: parquet-testing (and its
/// bad_data) and the pyarrow and DuckDB peers, sorted by name.
pub fn fixtures() -> Vec<Fixture> {
    let root = fixtures_dir();
    let mut out = Vec::new();
    for dir in ["parquet-testing", "parquet-testing/bad_data", "peers", "ours"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else { continue };
        for entry in entries {
            let path = entry.expect("directory entry").path();
            let Some(stem) = path.file_name().and_then(OsStr::to_str).and_then(|n| n.strip_suffix(".parquet")) else {
                continue;
            };
            let json = root.join(dir).join(format!("{stem}.expected.json"));
            let Ok(text) = std::fs::read_to_string(&json) else { continue };
            let expected = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", json.display()));
            out.push(Fixture { name: format!("{dir}/{stem}"), parquet: path.clone(), expected });
        }
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// Compares `got` with `want` exactly: integers by value, doubles bit for
/// bit (an integer never equals a double), strings, arrays in order and
/// objects by key. Arrays of `[key, value]` pairs (maps) that differ in
/// order only are equal. `Err` names the first difference by its path.
pub fn json_equal(got: &Value, want: &Value, at: &str) -> Result<(), String> {
    let differ = || Err(format!("{at}: {got} where {want} is expected"));
    match (got, want) {
        (Value::Number(a), Value::Number(b)) => {
            let same = match (a.is_f64(), b.is_f64()) {
                (true, true) => a.as_f64().map(f64::to_bits) == b.as_f64().map(f64::to_bits),
                (false, false) => integer(a) == integer(b),
                _ => false,
            };
            if same {
                Ok(())
            } else {
                differ()
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            if a.len() != b.len() {
                return Err(format!("{at}: {} elements where {} are expected: {got} vs {want}", a.len(), b.len()));
            }
            let in_order =
                a.iter().zip(b).enumerate().try_for_each(|(i, (x, y))| json_equal(x, y, &format!("{at}[{i}]")));
            match in_order {
                Err(e) if is_pairs(a) && is_pairs(b) => same_entries(a, b).map_err(|_| e),
                other => other,
            }
        }
        (Value::Object(a), Value::Object(b)) => {
            if let Some(k) = b.keys().find(|k| !a.contains_key(*k)) {
                return Err(format!("{at}.{k}: missing"));
            }
            if let Some(k) = a.keys().find(|k| !b.contains_key(*k)) {
                return Err(format!("{at}.{k}: not expected"));
            }
            a.iter().try_for_each(|(k, v)| json_equal(v, &b[k], &format!("{at}.{k}")))
        }
        (a, b) if a == b => Ok(()),
        _ => differ(),
    }
}

fn integer(n: &serde_json::Number) -> Option<i128> {
    n.as_i64().map(i128::from).or_else(|| n.as_u64().map(i128::from))
}

/// Whether every element is a `[key, value]` pair.
fn is_pairs(items: &[Value]) -> bool {
    items.iter().all(|p| matches!(p, Value::Array(kv) if kv.len() == 2))
}

/// Map entries equal in some order: each entry of `a` matches a distinct one of `b`.
fn same_entries(a: &[Value], b: &[Value]) -> Result<(), ()> {
    let mut unused: Vec<&Value> = b.iter().collect();
    for entry in a {
        let i = unused.iter().position(|candidate| json_equal(entry, candidate, "").is_ok()).ok_or(())?;
        unused.swap_remove(i);
    }
    Ok(())
}
