//! The crates' floor plans: no module imports one that imports it back,
//! through any number of others (at every level of the module tree, see
//! `graph`), in the runtime, the derive, the CLI and the other library
//! crates; in the runtime, the pipelines sit above the record traits and
//! the file and page-store adapters never import each other. The analysis
//! is tested first, on crates written here.

mod graph;
mod lex;

use std::collections::BTreeMap;
use std::path::Path;

use graph::{describe, Crate};

/// The runtime's circles of imports allowed: none. (The six the analysis
/// found when it learned to see imports through re-exports and circles of
/// any length, on 2026-12-03, were each a directory's own file calling a
/// child that used an item of that file; the items moved to files of their
/// own below both.) The test fails when a circle appears that is not here,
/// and when one of these is gone (then delete it).
const ALLOWED_RUNTIME_CIRCLES: &[&[&str]] = &[];

/// The CLI's circles allowed: none (`codegen`'s two went the same way).
const ALLOWED_CLI_CIRCLES: &[&[&str]] = &[];

fn crate_at(dir: &str) -> Crate {
    Crate::parse(&graph::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join(dir)))
}

fn shown(circles: &[Vec<String>]) -> Vec<String> {
    circles.iter().map(|c| describe(c)).collect()
}

/// A crate of `files` (path below `src`, text).
fn synthetic(files: &[(&str, &str)]) -> Crate {
    let sources: BTreeMap<String, String> = files.iter().map(|(p, t)| (p.to_string(), t.to_string())).collect();
    Crate::parse(&sources)
}

fn set(items: &[&str]) -> std::collections::BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

#[test]
fn analysis_finds_a_circle_of_three_modules() {
    let krate = synthetic(&[
        ("lib.rs", "mod a;\nmod b;\nmod c;\n"),
        ("a.rs", "use crate::b::B;\npub struct A(B);\n"),
        ("b.rs", "pub struct B;\npub fn f() -> crate::c::C { todo() }\n"),
        ("c.rs", "// crate::b would close a second circle, but this is a comment\npub struct C(super::a::A);\n"),
    ]);
    assert_eq!(krate.circles(), vec![vec!["a".to_owned(), "b".to_owned(), "c".to_owned()]]);
    assert_eq!(shown(&krate.circles()), ["a -> b -> c -> a"]);
}

#[test]
fn analysis_follows_root_re_exports() {
    // Neither module names the other's path, only the root's re-exports.
    let krate = synthetic(&[
        (
            "lib.rs",
            "mod field;\nmod options;\npub use field::ParquetRead;\npub use options::{FieldOptions, TimeUnit};\n",
        ),
        ("field.rs", "use crate::TimeUnit;\npub trait ParquetRead {}\n"),
        ("options.rs", "pub struct TimeUnit;\npub struct FieldOptions;\nimpl crate::ParquetRead for TimeUnit {}\n"),
    ]);
    assert_eq!(krate.edges()["field"], set(&["options"]));
    assert_eq!(krate.edges()["options"], set(&["field"]));
    assert_eq!(krate.circles(), vec![vec!["field".to_owned(), "options".to_owned()]]);
}

#[test]
fn analysis_reads_grouped_and_nested_imports_and_mod_re_exports() {
    let krate = synthetic(&[
        ("lib.rs", "mod a;\nmod b;\nmod c;\nmod d;\n"),
        ("a.rs", "use crate::{b, c::{self, deep::{X as Y}}};\nuse super::d::*;\n"),
        ("b.rs", "pub fn f() {}\n"),
        ("c/mod.rs", "mod deep;\nmod shallow;\npub(crate) use self::shallow::S;\n#[cfg(test)]\nmod tests;\n"),
        ("c/tests.rs", "use crate::a::*;\n"),
        ("c/deep.rs", "pub struct X;\n"),
        ("c/shallow.rs", "pub struct S;\n"),
        ("d.rs", "pub fn g() -> crate::c::S { todo!() }\n"),
    ]);
    let edges = krate.edges();
    assert_eq!(edges["a"], set(&["b", "c", "c::deep", "d"]));
    // `crate::c::S` is `c::shallow`'s, through `c`'s re-export.
    assert_eq!(edges["d"], set(&["c::shallow"]));
    // A re-export alone is no import of its file.
    assert!(!edges.contains_key("c"), "{edges:?}");
    assert_eq!(krate.level(&[]), BTreeMap::from([("a".into(), set(&["b", "c", "d"])), ("d".into(), set(&["c"]))]));
    assert!(krate.circles().is_empty(), "{:?}", krate.circles());
}

#[test]
fn analysis_finds_circles_between_subtrees_and_through_a_parent_file() {
    let krate = synthetic(&[
        ("lib.rs", "pub mod read;\npub mod write;\n"),
        ("read/mod.rs", "mod x;\nmod z;\npub use x::Reader;\n"),
        ("read/x.rs", "pub struct Reader(crate::write::y::Writer);\n"),
        ("read/z.rs", "pub struct Plan;\nfn f(_: super::Reader) {}\n"),
        ("write/mod.rs", "pub mod y;\npub(crate) fn shared() {}\npub fn first() -> y::Writer { todo!() }\n"),
        ("write/y.rs", "pub struct Writer(crate::read::z::Plan);\nfn g() { super::shared() }\n"),
    ]);
    // No two files import each other, yet `read` and `write` do. `read/z.rs`
    // names `read/x.rs`'s `Reader` through `read/mod.rs`, not an item of
    // it; `write/y.rs` names one (`shared`) of `write/mod.rs`, which names
    // `write/y.rs` back in its own code.
    assert_eq!(krate.edges()["read::z"], set(&["read::x"]));
    assert_eq!(
        krate.circles(),
        vec![vec!["read".to_owned(), "write".to_owned()], vec!["write".to_owned(), "write::y".to_owned()]],
    );
}

/// Asserts that the circles of the crate at `dir` are exactly `allowed`.
fn assert_circles(dir: &str, allowed: &[&[&str]], list: &str) {
    let found = shown(&crate_at(dir).circles());
    let allowed: Vec<String> =
        allowed.iter().map(|c| describe(&c.iter().map(|m| m.to_string()).collect::<Vec<_>>())).collect();
    let new: Vec<&String> = found.iter().filter(|c| !allowed.contains(c)).collect();
    let gone: Vec<&String> = allowed.iter().filter(|c| !found.contains(c)).collect();
    assert!(new.is_empty(), "new circles of imports in {dir}: {new:#?}");
    assert!(gone.is_empty(), "circles gone from {dir}, delete them from {list}: {gone:#?}");
}

#[test]
fn no_runtime_import_circles_but_the_allowed_ones() {
    let edges = crate_at("../magnolify-parquet/src").edges();
    assert!(edges.len() > 60, "the scan found the modules: {edges:?}");
    // Through the root's re-export of `field::ParquetSchema`.
    assert!(edges["record"].contains("field"), "{:?}", edges["record"]);
    assert_circles("../magnolify-parquet/src", ALLOWED_RUNTIME_CIRCLES, "ALLOWED_RUNTIME_CIRCLES");
}

#[test]
fn no_cli_import_circles_but_the_allowed_ones() {
    assert_circles("../magnolify-parquet-cli/src", ALLOWED_CLI_CIRCLES, "ALLOWED_CLI_CIRCLES");
}

#[test]
fn no_import_circles_in_the_other_library_crates() {
    for dir in ["../avro-baseline/src", "../test-kit/src", "../benches/src", "../magnolify-iceberg/src"] {
        assert!(!crate_at(dir).edges().is_empty(), "the scan found the modules of {dir}");
        assert_circles(dir, &[], "the list");
    }
}

#[test]
fn runtime_pipelines_sit_above_the_record_traits() {
    let top = crate_at("../magnolify-parquet/src").level(&[]);
    let file = top.get("file").cloned().unwrap_or_default();
    let mem = top.get("mem").cloned().unwrap_or_default();
    assert!(!file.contains("mem") && !mem.contains("file"), "file: {file:?}, mem: {mem:?}");
    assert!(top["read"].contains("record") && !top["record"].contains("read"), "{top:?}");
    assert!(top["write"].contains("record") && !top["record"].contains("write"), "{top:?}");
}

#[test]
fn no_derive_import_circles() {
    let krate = crate_at("../magnolify-parquet-derive/src");
    let edges = krate.edges();
    assert!(edges["expand::record"].contains("expand::attr_checks"), "the scan found the modules: {edges:?}");
    assert!(edges["expand::halves"].contains("types"), "{edges:?}");
    let circles = shown(&krate.circles());
    assert!(circles.is_empty(), "circles of imports in the derive: {circles:#?}");
}
