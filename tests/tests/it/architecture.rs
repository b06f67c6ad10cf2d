//! The runtime's floor plan: no module of `magnolify-parquet` imports a
//! module that imports it back (the pipelines sit above the traits, the
//! traits above shredding and assembly), and the file and page-store
//! adapters never import each other.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The top-level modules each module of `src` names through `crate::…`,
/// comments and unit tests left out.
fn imports(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
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
            let first = rel.components().next().expect("a component").as_os_str().to_string_lossy();
            let module = first.trim_end_matches(".rs").to_owned();
            let text = std::fs::read_to_string(&path).expect("source");
            let text = text.split("#[cfg(test)]\nmod tests").next().unwrap_or_default();
            for line in text.lines().map(str::trim_start).filter(|l| !l.starts_with("//")) {
                for (i, _) in line.match_indices("crate::") {
                    let name: String =
                        line[i + 7..].chars().take_while(|c| c.is_ascii_lowercase() || *c == '_').collect();
                    if !name.is_empty() && name != module {
                        out.entry(module.clone()).or_default().insert(name);
                    }
                }
            }
        }
    }
    out
}

#[test]
fn no_runtime_module_imports_one_that_imports_it_back() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../magnolify-parquet/src");
    let graph = imports(&src);
    assert!(graph.len() > 10, "the scan found the modules: {graph:?}");
    let mut cycles = Vec::new();
    for (a, targets) in &graph {
        for b in targets {
            if a < b && graph.get(b).is_some_and(|t| t.contains(a)) {
                cycles.push(format!("{a} <-> {b}"));
            }
        }
    }
    assert!(cycles.is_empty(), "modules importing each other: {cycles:?}");
    let file = graph.get("file").cloned().unwrap_or_default();
    let mem = graph.get("mem").cloned().unwrap_or_default();
    assert!(!file.contains("mem") && !mem.contains("file"), "file: {file:?}, mem: {mem:?}");
    // The pipelines are above the record traits, not below.
    assert!(graph["read"].contains("record") && !graph["record"].contains("read"), "{graph:?}");
    assert!(graph["write"].contains("record") && !graph["record"].contains("write"), "{graph:?}");
}
