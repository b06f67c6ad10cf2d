//! The runtime's floor plan: no module of `magnolify-parquet` imports a
//! module that imports it back (the pipelines sit above the traits, the
//! traits above shredding and assembly), and the file and page-store
//! adapters never import each other.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// What each module of `src` names through `prefix` (`crate::` or
/// `super::`), comments and unit tests left out: `name(dir, stem)` gives a
/// file's module name (`None` to skip it), `target(dir, name)` an imported one's.
fn scan(
    src: &Path,
    prefix: &str,
    name: impl Fn(&str, &str) -> Option<String>,
    target: impl Fn(&str, &str) -> String,
) -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("source dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let rel = path.strip_prefix(src).expect("under src");
            let dir_name = rel.parent().map(|p| p.to_string_lossy().into_owned()).unwrap_or_default();
            let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            let Some(module) = name(&dir_name, &stem) else { continue };
            let text = std::fs::read_to_string(&path).expect("source");
            let text = text.split("#[cfg(test)]\nmod tests").next().unwrap_or_default();
            for line in text.lines().map(str::trim_start).filter(|l| !l.starts_with("//")) {
                for (i, _) in line.match_indices(prefix) {
                    let imported: String =
                        line[i + prefix.len()..].chars().take_while(|c| c.is_ascii_lowercase() || *c == '_').collect();
                    let imported = target(&dir_name, &imported);
                    if !imported.ends_with('/') && !imported.is_empty() && imported != module {
                        out.entry(module.clone()).or_default().insert(imported);
                    }
                }
            }
        }
    }
    out
}

/// The pairs of modules of `graph` that import each other.
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let mut cycles = Vec::new();
    for (a, targets) in graph {
        for b in targets {
            if a < b && graph.get(b).is_some_and(|t| t.contains(a)) {
                cycles.push(format!("{a} <-> {b}"));
            }
        }
    }
    cycles
}

/// The top-level modules each module of `src` names through `crate::…`.
fn imports(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let top = |dir: &str, stem: &str| Some(dir.split('/').find(|s| !s.is_empty()).unwrap_or(stem).to_owned());
    scan(src, "crate::", top, |_, name| name.to_owned())
}

/// For each directory of `src`, the sibling modules each of its files names
/// through `super::…`.
fn sibling_imports(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let module = |dir: &str, stem: &str| (stem != "mod" && !dir.is_empty()).then(|| format!("{dir}/{stem}"));
    scan(src, "super::", module, |dir, name| format!("{dir}/{name}"))
}

#[test]
fn no_runtime_module_imports_one_that_imports_it_back() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../magnolify-parquet/src");
    let graph = imports(&src);
    assert!(graph.len() > 10, "the scan found the modules: {graph:?}");
    let cycles = cycles(&graph);
    assert!(cycles.is_empty(), "modules importing each other: {cycles:?}");
    let file = graph.get("file").cloned().unwrap_or_default();
    let mem = graph.get("mem").cloned().unwrap_or_default();
    assert!(!file.contains("mem") && !mem.contains("file"), "file: {file:?}, mem: {mem:?}");
    // The pipelines are above the record traits, not below.
    assert!(graph["read"].contains("record") && !graph["record"].contains("read"), "{graph:?}");
    assert!(graph["write"].contains("record") && !graph["record"].contains("write"), "{graph:?}");
}

#[test]
fn no_runtime_submodule_imports_a_sibling_that_imports_it_back() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../magnolify-parquet/src");
    let graph = sibling_imports(&src);
    assert!(graph.contains_key("read/record_reader"), "the scan found the submodules: {graph:?}");
    let cycles = cycles(&graph);
    assert!(cycles.is_empty(), "submodules importing each other: {cycles:?}");
}
