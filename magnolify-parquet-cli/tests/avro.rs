//! `avro2parquet` and `parquet2avro` on the Avro fixtures (written by
//! fastavro): the same input gives the same bytes, and Avro → Parquet →
//! Avro gives the same schema and values back.

mod common;

use std::path::{Path, PathBuf};

use apache_avro::types::Value;
use apache_avro::{Reader, Schema};
use common::{fixtures_dir, run, temp_dir};

/// The Avro fixtures, with the flags avro2parquet needs (nested.avro has
/// null array items, which only the three-level layout holds).
fn avro_fixtures() -> Vec<(PathBuf, &'static [&'static str])> {
    let dir = fixtures_dir().join("avro");
    vec![
        (dir.join("primitives.avro"), &[]),
        (dir.join("logical.avro"), &["--codec", "zstd"]),
        (dir.join("nested.avro"), &["--three-level"]),
    ]
}

fn read_avro(path: &Path) -> (Schema, Vec<Value>) {
    let file = std::fs::File::open(path).expect("open the Avro file");
    let reader = Reader::new(std::io::BufReader::new(file)).expect("an Avro file");
    let schema = reader.writer_schema().clone();
    (schema, reader.map(|v| v.expect("a record")).collect())
}

/// Runs the binary and expects success.
fn convert(args: &[&str]) {
    let out = run(&args.iter().map(|a| a.as_ref()).collect::<Vec<_>>());
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    let stderr = String::from_utf8_lossy(&out.stderr);
    // Not a terminal: no bar, one summary line.
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with(&format!("{}: ", args[0])), "{stderr}");
}

#[test]
fn conversions_are_deterministic_and_round_trip() {
    let dir = temp_dir("avro");
    let dir = dir.path();
    for (avro, flags) in avro_fixtures() {
        let name = avro.file_stem().and_then(|s| s.to_str()).expect("a name");
        let input = avro.to_str().expect("a UTF-8 path");
        let outputs: Vec<(String, String)> = (0..2)
            .map(|run| {
                let parquet = dir.join(format!("{name}.{run}.parquet")).to_string_lossy().into_owned();
                let back = dir.join(format!("{name}.{run}.avro")).to_string_lossy().into_owned();
                let mut args = vec!["avro2parquet", input, parquet.as_str()];
                args.extend_from_slice(flags);
                convert(&args);
                convert(&["parquet2avro", &parquet, &back]);
                (parquet, back)
            })
            .collect();
        let bytes = |p: &str| std::fs::read(p).expect("read output");
        assert_eq!(bytes(&outputs[0].0), bytes(&outputs[1].0), "{name}: avro2parquet is not deterministic");
        assert_eq!(bytes(&outputs[0].1), bytes(&outputs[1].1), "{name}: parquet2avro is not deterministic");

        let (schema, records) = read_avro(&avro);
        let (back_schema, back_records) = read_avro(Path::new(&outputs[0].1));
        assert_eq!(back_schema.canonical_form(), schema.canonical_form(), "{name}: schema");
        assert!(!records.is_empty(), "{name}");
        assert_eq!(back_records.len(), records.len(), "{name}: record count");
        for (i, (a, b)) in records.iter().zip(&back_records).enumerate() {
            assert_eq!(b, a, "{name}: record {i}");
        }
    }
}

#[test]
fn every_avro_codec_reads_back() {
    let dir = temp_dir("avro-codecs");
    let dir = dir.path();
    let (_, records) = read_avro(&fixtures_dir().join("avro/primitives.avro"));
    let parquet = dir.join("p.parquet");
    let input = fixtures_dir().join("avro/primitives.avro");
    convert(&["avro2parquet", input.to_str().expect("path"), parquet.to_str().expect("path"), "--codec", "gzip"]);
    for codec in ["null", "deflate", "snappy", "zstd"] {
        let out = dir.join(format!("p.{codec}.avro"));
        convert(&["parquet2avro", parquet.to_str().expect("path"), out.to_str().expect("path"), "--codec", codec]);
        assert_eq!(read_avro(&out).1, records, "{codec}");
    }
}

#[test]
fn failures_leave_no_output() {
    let dir = temp_dir("avro-failures");
    let dir = dir.path();
    let nested = fixtures_dir().join("avro/nested.avro");
    let out_path = dir.join("n.parquet");
    // Null array items need --three-level: a one-line error, exit 2, no file.
    let out = run(&["avro2parquet".as_ref(), nested.as_os_str(), out_path.as_os_str()]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.starts_with(&format!("magnolify-parquet: {}: ", nested.display())), "{stderr}");
    assert!(stderr.contains("--three-level"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    let left: Vec<_> = std::fs::read_dir(dir).expect("dir").collect();
    assert!(left.is_empty(), "{left:?}");

    // Not an Avro file; not a Parquet file.
    let text = dir.join("text.avro");
    std::fs::write(&text, "not avro").expect("write");
    for (cmd, input) in [("avro2parquet", &text), ("parquet2avro", &text)] {
        let target = dir.join("out");
        let out = run(&[cmd.as_ref(), input.as_os_str(), target.as_os_str()]);
        assert_eq!(out.status.code(), Some(2), "{cmd}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.starts_with(&format!("magnolify-parquet: {}: ", text.display())), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(!target.exists(), "{cmd}");
    }
}

#[test]
fn bad_usage_is_exit_2_with_the_usage() {
    let input = fixtures_dir().join("avro/primitives.avro");
    for args in [vec!["avro2parquet".as_ref(), input.as_os_str()], vec!["parquet2avro".as_ref()]] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("required arguments were not provided"), "{stderr}");
        assert!(stderr.contains("Usage: magnolify-parquet"), "{stderr}");
    }
    let out = run(&[
        "avro2parquet".as_ref(),
        input.as_os_str(),
        "out.parquet".as_ref(),
        "--codec".as_ref(),
        "brotli".as_ref(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!std::path::Path::new("out.parquet").exists());
}

/// `schema` on a file `avro2parquet` wrote pretty-prints the Avro schema
/// it embedded: parsed back, it is the Avro file's schema.
#[test]
fn schema_shows_the_embedded_avro_schema() {
    let dir = temp_dir("avro-schema");
    let dir = dir.path();
    for (avro, flags) in avro_fixtures() {
        let parquet = dir.join("embedded.parquet");
        let mut args = vec!["avro2parquet", avro.to_str().expect("path"), parquet.to_str().expect("path")];
        args.extend_from_slice(flags);
        convert(&args);
        let out = run(&["schema".as_ref(), parquet.as_os_str()]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8(out.stdout).expect("UTF-8");
        let block: Vec<&str> = text
            .lines()
            .skip_while(|l| *l != "  parquet.avro.schema:")
            .skip(1)
            .take_while(|l| l.starts_with("    "))
            .collect();
        assert!(block.len() > 3, "{avro:?}: one line per JSON token, pretty-printed: {text}");
        let shown = Schema::parse_str(&block.join("\n")).expect("the shown schema parses");
        assert_eq!(shown.canonical_form(), read_avro(&avro).0.canonical_form(), "{avro:?}");
    }
}
