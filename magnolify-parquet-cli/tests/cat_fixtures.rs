//! `cat` on every fixture of `tests/fixtures` (files of parquet-testing,
//! pyarrow and DuckDB, each with its `*.expected.json`): the JSON lines,
//! parsed back, equal the expected `rows` exactly; the damaged files of
//! `bad_data` give exit 2 and one line naming the file.

mod common;

use common::{fixtures, json_equal, run};
use serde_json::Value;

#[test]
fn cat_prints_every_fixture_as_expected() {
    let all = fixtures();
    assert!(all.len() >= 30, "the fixtures were not found: {all:?}");
    let mut failures = Vec::new();
    let mut readable = 0;
    for fixture in &all {
        let out = run(&["cat".as_ref(), fixture.parquet.as_os_str()]);
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        let name = fixture.name.as_str();
        if fixture.expects_error() {
            let prefix = format!("magnolify-parquet: {}: ", fixture.parquet.display());
            if out.status.code() != Some(2) || !stderr.starts_with(&prefix) || stderr.lines().count() != 1 {
                failures.push(format!("{name}: expected exit 2 and one error line, got {:?}: {stderr}", out.status));
            }
            continue;
        }
        readable += 1;
        if !out.status.success() {
            failures.push(format!("{name}: exit {:?}: {stderr}", out.status));
            continue;
        }
        let stdout = String::from_utf8_lossy(&out.stdout);
        let rows: Vec<Value> = match stdout.lines().map(serde_json::from_str).collect() {
            Ok(rows) => rows,
            Err(e) => {
                failures.push(format!("{name}: output is not JSON lines: {e}"));
                continue;
            }
        };
        let expected = fixture.rows();
        if rows.len() != expected.len() {
            failures.push(format!("{name}: {} rows, expected {}", rows.len(), expected.len()));
        }
        for (i, (got, want)) in rows.iter().zip(expected).enumerate() {
            if let Err(diff) = json_equal(got, want, &format!("row {i}")) {
                failures.push(format!("{name}: {diff}"));
                break;
            }
        }
    }
    assert!(readable >= 25, "only {readable} readable fixtures");
    assert!(failures.is_empty(), "{} fixture(s) differ:\n{}", failures.len(), failures.join("\n"));
}
