//! The code `codegen` generates compiles and reads the files it was
//! generated for: one module per fixture (every readable Parquet fixture of
//! parquet-testing, pyarrow and DuckDB, and the Parquet files `avro2parquet`
//! writes from the Avro fixtures, with `codegen --avro` of their schema) in
//! one temporary crate, built once (`#![deny(warnings)]`, against the
//! library by path, in this build's target directory so that the library
//! is not built again). The crate, its binary and the files it writes are
//! this run's own, so that two runs at once do not meet.
//!
//! The structs have no JSON form of their own, so the crate reads each file
//! with its generated root type (which must succeed, every row), writes the
//! records back with `ParquetWriter`, and this test compares `cat` of what
//! was written with the fixture's expected JSON, row for row (for the
//! files made from Avro fixtures, with `cat` of the file read). Every
//! generated module also passes `rustfmt --check`, and its header lists
//! exactly the crates its code names (the `Cargo.toml` lines a user pastes).

mod common;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{fixtures, json_equal, run, temp_dir};
use serde_json::Value;
use tempfile::TempDir;

/// Fixtures whose rows the generated types cannot all read or write back,
/// with why; the other rows must still match.
const PARTIAL: &[(&str, &str)] = &[(
    "parquet-testing/int96_from_spark",
    "row 5 is in the year 290000, past chrono's range; row 2 (year 9999) is read, but the INT64 \
     TIMESTAMP(NANOS) an INT96 column is written back as holds 1677 to 2262 only",
)];

/// One generated module and the file it reads.
struct Case {
    name: String,
    module: String,
    input: PathBuf,
    output: PathBuf,
    /// The fixture's expected rows (`None` for the files made from Avro
    /// fixtures, compared with `cat` of the file they were made into).
    expected: Option<Vec<Value>>,
}

/// A module name for a fixture name.
fn module_name(name: &str) -> String {
    let mut out = String::from("m_");
    out.extend(name.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' }));
    out
}

/// Runs the binary, expecting success; returns stdout.
fn stdout_of(args: &[&str]) -> String {
    let out = run(&args.iter().map(|a| a.as_ref()).collect::<Vec<_>>());
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// The JSON rows `cat` prints for `file` (at most `limit`).
fn cat(file: &Path, limit: Option<usize>) -> Vec<Value> {
    let path = file.to_str().expect("UTF-8 path");
    let limit = limit.map(|n| n.to_string());
    let mut args = vec!["cat", path];
    if let Some(n) = &limit {
        args.extend(["--limit", n.as_str()]);
    }
    stdout_of(&args).lines().map(|l| serde_json::from_str(l).expect("a JSON line")).collect()
}

/// The target directory of this build (the binary is `<target>/<profile>/magnolify-parquet`).
fn target_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("CARGO_TARGET_DIR") {
        return PathBuf::from(dir);
    }
    let bin = Path::new(env!("CARGO_BIN_EXE_magnolify-parquet"));
    bin.parent().and_then(Path::parent).expect("the binary is in <target>/<profile>").to_owned()
}

#[test]
fn generated_code_compiles_and_reads_every_fixture() {
    let started = std::time::Instant::now();
    let work = temp_dir("codegen-compile");
    let work = work.path();
    let scratch = Scratch::new();
    let krate = scratch.dir.path();
    std::fs::create_dir_all(krate.join("src")).expect("crate dir");

    let mut cases = Vec::new();
    for fixture in fixtures().iter().filter(|f| !f.expects_error()) {
        let module = module_name(&fixture.name);
        let path = fixture.parquet.to_str().expect("UTF-8 path");
        let code = stdout_of(&["codegen", path, "--name", "Root"]);
        std::fs::write(krate.join("src").join(format!("{module}.rs")), code).expect("write module");
        let output = work.join(format!("{module}.parquet"));
        let expected = Some(fixture.rows().to_vec());
        cases.push(Case { name: fixture.name.clone(), module, input: fixture.parquet.clone(), output, expected });
    }
    assert!(cases.len() >= 25, "{} readable fixtures", cases.len());

    // The Avro fixtures: their schema through `codegen --avro`, their records
    // through `avro2parquet`, with the same list layout.
    let avro_dir = common::fixtures_dir().join("avro");
    for (stem, three_level) in [("primitives", false), ("logical", false), ("nested", true)] {
        let avro = avro_dir.join(format!("{stem}.avro"));
        let reader = apache_avro::Reader::new(std::fs::File::open(&avro).expect("open")).expect("an Avro file");
        let avsc = work.join(format!("{stem}.avsc"));
        std::fs::write(&avsc, serde_json::to_string(reader.writer_schema()).expect("schema JSON")).expect("write");
        let parquet = work.join(format!("{stem}.from-avro.parquet"));
        let (avsc, avro, parquet_path) = (avsc.to_str().unwrap(), avro.to_str().unwrap(), parquet.to_str().unwrap());
        let layout: &[&str] = if three_level { &["--three-level"] } else { &[] };
        let mut args = vec!["avro2parquet", avro, parquet_path];
        args.extend_from_slice(layout);
        stdout_of(&args);
        let mut args = vec!["codegen", "--avro", avsc, "--name", "Root"];
        args.extend_from_slice(layout);
        let name = format!("avro/{stem}");
        let module = module_name(&name);
        std::fs::write(krate.join("src").join(format!("{module}.rs")), stdout_of(&args)).expect("write module");
        let output = work.join(format!("{module}.parquet"));
        cases.push(Case { name, module, input: parquet, output, expected: None });
    }

    assert_rustfmt_clean(krate, &cases);
    assert_dependencies_listed(krate, &cases);
    write_crate(krate, &scratch.name, &cases);
    let build_started = std::time::Instant::now();
    let build = Command::new(env!("CARGO"))
        .args(["build", "--quiet", "--manifest-path"])
        .arg(krate.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", target_dir())
        .output()
        .expect("cargo runs");
    assert!(build.status.success(), "the generated code does not build:\n{}", String::from_utf8_lossy(&build.stderr));
    let build_time = build_started.elapsed();

    let exe = target_dir().join("debug").join(format!("{}{}", scratch.name, std::env::consts::EXE_SUFFIX));
    let out = Command::new(&exe).output().expect("the check binary runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report = String::from_utf8(out.stdout).expect("UTF-8 report");

    let mut failures = Vec::new();
    for (case, line) in cases.iter().zip(report.lines()) {
        let mut parts = line.splitn(4, '\t');
        let (name, rows, skipped, error) = (parts.next(), parts.next(), parts.next(), parts.next().unwrap_or(""));
        assert_eq!(name, Some(case.name.as_str()), "report out of order: {line}");
        let rows: usize = rows.and_then(|r| r.parse().ok()).expect("a row count");
        let skipped: Vec<usize> = skipped.unwrap_or("").split(',').filter_map(|i| i.parse().ok()).collect();
        let partial = PARTIAL.iter().any(|(n, _)| *n == case.name);
        let complete = error.is_empty() && skipped.is_empty();
        if !complete && !partial {
            failures.push(format!("{}: {rows} rows read, {skipped:?} not written back; {error}", case.name));
            continue;
        }
        if complete && partial {
            failures.push(format!("{}: listed as partial, but every row was read and written back", case.name));
        }
        let limit = partial.then_some(rows);
        let mut original = match &case.expected {
            Some(expected) => expected.iter().take(limit.unwrap_or(usize::MAX)).cloned().collect(),
            None => cat(&case.input, limit),
        };
        let mut index = 0;
        original.retain(|_| {
            index += 1;
            !skipped.contains(&(index - 1))
        });
        let rewritten = cat(&case.output, None);
        if complete && original.len() != rows {
            failures.push(format!("{}: {rows} rows read, the file has {}", case.name, original.len()));
        }
        if original.len() != rewritten.len() {
            failures.push(format!("{}: {} rows written back, {} read", case.name, rewritten.len(), original.len()));
            continue;
        }
        for (i, (a, b)) in rewritten.iter().zip(&original).enumerate() {
            if let Err(diff) = json_equal(a, b, &format!("row {i}")) {
                failures.push(format!("{}: written back differs: {diff}", case.name));
                break;
            }
        }
    }
    assert_eq!(report.lines().count(), cases.len(), "{report}");
    assert!(failures.is_empty(), "{} case(s) failed:\n{}", failures.len(), failures.join("\n"));
    eprintln!(
        "{} generated modules built in {:.1} s; test total {:.1} s",
        cases.len(),
        build_time.as_secs_f64(),
        started.elapsed().as_secs_f64()
    );
}

/// This run's check crate: its folder (removed when dropped), and its
/// package name, which names its binary and artifacts in the shared target
/// directory.
///
/// The crate is built in this build's target directory, so that the library
/// and its dependencies are not built again. That is safe with two runs at
/// once: cargo locks the directory while it builds, the library of another
/// checkout is another package (its path differs), and the name holds this
/// process's id, so no other run builds into, runs or removes this run's
/// binary. A folder of its own is not enough: with one name, a run could
/// execute the binary another run has just built (which writes that run's
/// files, not this one's). Its artifacts are removed when dropped.
struct Scratch {
    dir: TempDir,
    name: String,
}

impl Scratch {
    fn new() -> Self {
        let dir = tempfile::Builder::new().prefix("magnolify-parquet-codegen-check-").tempdir().expect("crate dir");
        Scratch { dir, name: format!("magnolify-parquet-codegen-check-{}", std::process::id()) }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let debug = target_dir().join("debug");
        let stem = self.name.replace('-', "_");
        let mut leftovers = vec![debug.join(format!("{}{}", self.name, std::env::consts::EXE_SUFFIX))];
        leftovers.push(debug.join(format!("{}.d", self.name)));
        for (dir, prefix) in [("deps", &stem), (".fingerprint", &self.name), ("incremental", &stem)] {
            let Ok(entries) = std::fs::read_dir(debug.join(dir)) else { continue };
            let ours = |n: &str| n.strip_prefix(prefix.as_str()).is_some_and(|rest| rest.starts_with(['-', '.']));
            leftovers.extend(entries.flatten().filter(|e| ours(&e.file_name().to_string_lossy())).map(|e| e.path()));
        }
        for path in leftovers {
            let _ = std::fs::remove_dir_all(&path).or_else(|_| std::fs::remove_file(&path));
        }
    }
}

/// Every generated module passes `rustfmt --check` at rustfmt's defaults,
/// in one run.
fn assert_rustfmt_clean(krate: &Path, cases: &[Case]) {
    let files: Vec<PathBuf> = cases.iter().map(|c| krate.join("src").join(format!("{}.rs", c.module))).collect();
    if let Err(output) = magnolify_parquet_cli::codegen::rustfmt_check(krate, &files) {
        panic!("generated code is not rustfmt-clean:\n{output}");
    }
}

/// The crates generated code may name, each with the magnolify-parquet
/// feature for its types.
const CRATES: &[(&str, &str)] = &[
    ("bigdecimal", "bigdecimal"),
    ("chrono", "chrono"),
    ("half", "half"),
    ("rust_decimal", "decimal"),
    ("uuid", "uuid"),
];

/// The `Cargo.toml` lines of each module's header name exactly the crates
/// its code names, and magnolify-parquet with their features, so that a
/// user who pastes them has what the code needs and nothing more.
fn assert_dependencies_listed(krate: &Path, cases: &[Case]) {
    let mut failures = Vec::new();
    for case in cases {
        let code = std::fs::read_to_string(krate.join("src").join(format!("{}.rs", case.module))).expect("a module");
        let (header, body): (Vec<&str>, Vec<&str>) = code.lines().partition(|l| l.starts_with("// "));
        let listed: Vec<&str> = CRATES
            .iter()
            .map(|(c, _)| *c)
            .filter(|c| header.iter().any(|l| l.starts_with(&format!("// {c} = \""))))
            .collect();
        let named: Vec<&str> =
            CRATES.iter().map(|(c, _)| *c).filter(|c| body.iter().any(|l| l.contains(&format!("{c}::")))).collect();
        if listed != named {
            failures.push(format!("{}: the header lists {listed:?}, the code names {named:?}", case.name));
        }
        let Some(library) = header.iter().find(|l| l.starts_with("// magnolify-parquet = ")) else {
            failures.push(format!("{}: no magnolify-parquet line in the header", case.name));
            continue;
        };
        for (c, feature) in CRATES {
            if named.contains(c) != library.contains(&format!("\"{feature}\"")) {
                failures.push(format!("{}: `{library}` for the crates {named:?}", case.name));
            }
        }
    }
    assert!(failures.is_empty(), "headers that do not list what the code needs:\n{}", failures.join("\n"));
}

/// Writes the crate: a manifest on the library by path (features and
/// dependency settings as the workspace's, so that the build reuses the
/// library's), this crate's lock file, and a main reading every case.
fn write_crate(krate: &Path, name: &str, cases: &[Case]) {
    let library = Path::new(env!("CARGO_MANIFEST_DIR")).join("../magnolify-parquet");
    let library = library.canonicalize().expect("the library's folder");
    let manifest = format!(
        r#"[package]
name = "{name}"
version = "0.0.0"
edition = "2021"
publish = false

[workspace]

[dependencies]
magnolify-parquet = {{ path = {library:?}, features = ["derive", "chrono", "uuid", "decimal", "bigdecimal", "half"] }}
chrono = {{ version = "0.4", default-features = false, features = ["std"] }}
uuid = {{ version = "1", default-features = false, features = ["std"] }}
rust_decimal = {{ version = "1", default-features = false, features = ["std"] }}
bigdecimal = "0.4"
half = {{ version = "2", default-features = false, features = ["std"] }}
"#
    );
    std::fs::write(krate.join("Cargo.toml"), manifest).expect("write manifest");
    let lock = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.lock");
    if lock.exists() {
        std::fs::copy(lock, krate.join("Cargo.lock")).expect("copy the lock file");
    }
    let mut main = String::from(
        "//! Reads each file with its generated type and writes the records back.\n\
         #![deny(warnings)]\n\n\
         use magnolify_parquet::{OwnedRecord, ParquetReader, ParquetWriter};\n\n",
    );
    for case in cases {
        let _ = writeln!(main, "mod {};", case.module);
    }
    main.push_str(
        r#"
/// Reads `input` into `T` until the end or an error, writes what was read
/// to `output`, and prints `name<TAB>rows read<TAB>indices of the rows not
/// written back<TAB>error`.
fn check<T: OwnedRecord>(name: &str, input: &str, output: &str) {
    let mut rows = Vec::new();
    let mut error = String::new();
    match std::fs::File::open(input).map_err(magnolify_parquet::Error::from).and_then(ParquetReader::<T, _>::new) {
        Ok(reader) => {
            for record in reader {
                match record {
                    Ok(r) => rows.push(r),
                    Err(e) => {
                        error = e.to_string();
                        break;
                    }
                }
            }
        }
        Err(e) => error = e.to_string(),
    }
    // A record the schema cannot hold is left out and the writer goes on.
    let mut skipped = Vec::new();
    let written = ParquetWriter::<T, _>::create(output).and_then(|mut w| {
        for (i, row) in rows.iter().enumerate() {
            if w.write(row).is_err() {
                skipped.push(i.to_string());
            }
        }
        w.close()
    });
    if let Err(e) = written {
        error = format!("writing back: {e}");
    }
    println!("{name}\t{}\t{}\t{}", rows.len(), skipped.join(","), error.replace(['\t', '\n'], " "));
}

fn main() {
"#,
    );
    for case in cases {
        let _ = writeln!(
            main,
            "    check::<{}::Root>({:?}, {:?}, {:?});",
            case.module,
            case.name,
            case.input.to_str().expect("UTF-8 path"),
            case.output.to_str().expect("UTF-8 path")
        );
    }
    main.push_str("}\n");
    std::fs::write(krate.join("src/main.rs"), main).expect("write main");
}
