//! The import graph of a crate's sources, and its circles.
//!
//! Each file is a module (`lib.rs` the root `crate`, `a/mod.rs` and `a.rs`
//! module `a`, `a/b.rs` module `a::b`). A module imports another when it
//! names an item of it by path: in a `use` (grouped and nested trees
//! included: `use crate::{a, b::{c, d}}`) or in code (`crate::a::f()`,
//! `super::x`, `self::y::Z`, a child module by its name). A path is
//! followed through the `use` declarations it meets, so `crate::ParquetRead`
//! where `lib.rs` has `pub use field::ParquetRead;` imports `field`, not
//! the root; a re-export (`pub use`, `pub(crate) use`) is itself no import
//! of its file, which only opens a door to the item. A `mod x;` line is no
//! import either. Modules under `#[cfg(test)]` (inline or files) are left out.
//!
//! Circles are looked for at every level of the module tree: among the
//! children of each module (each with everything below it) and that
//! module's own file, so that `read/x.rs → write/y.rs → read/z.rs` is a
//! circle between `read` and `write`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::lex::{tokens, Tok};

/// A module path: `[]` for the crate root, `["expand", "record"]`.
type ModPath = Vec<String>;

/// What one module's text says for resolving paths into it: the names its
/// `use` declarations bind (to absolute paths), its glob imports and the
/// items it defines.
#[derive(Default)]
struct Module {
    bindings: BTreeMap<String, ModPath>,
    globs: Vec<ModPath>,
    defines: BTreeSet<String>,
    /// The file module it lives in (itself unless an inline `mod x { .. }`).
    file: ModPath,
}

/// A crate's modules and the imports between their files.
pub struct Crate {
    modules: BTreeMap<ModPath, Module>,
    files: BTreeSet<ModPath>,
    edges: BTreeMap<ModPath, BTreeSet<ModPath>>,
}

/// The sources of the crate whose `src` directory is `src`: each `.rs`
/// file's path below `src` (with `/`) and its text.
pub fn load(src: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("source dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path.strip_prefix(src).expect("under src").to_string_lossy().replace('\\', "/");
                out.insert(rel, std::fs::read_to_string(&path).expect("source"));
            }
        }
    }
    out
}

/// The module a file below `src` is, or `None` for a binary's (`main.rs`, `bin/`).
fn module_of(rel: &str) -> Option<ModPath> {
    let rel = rel.strip_suffix(".rs")?;
    let mut parts: ModPath = rel.split('/').map(str::to_owned).collect();
    if parts.first().is_some_and(|p| p == "bin") || rel == "main" {
        return None;
    }
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    Some(parts)
}

/// `a::b`, or `crate` for the root.
pub fn show(path: &[String]) -> String {
    if path.is_empty() {
        "crate".to_owned()
    } else {
        path.join("::")
    }
}

/// One path a `use` tree names, with the name it binds (`None` for a glob).
struct UseItem {
    path: Vec<String>,
    binds: Option<String>,
}

/// Parses the use tree at `toks[*i..]` (after `use`) into `out`, each path
/// prefixed by `prefix`; stops after the tree.
fn use_tree(toks: &[Tok], i: &mut usize, prefix: Vec<String>, out: &mut Vec<UseItem>) {
    let mut path = prefix;
    if toks.get(*i) == Some(&Tok::Sep) {
        // `::name`: another crate.
        path.push("::".to_owned());
        *i += 1;
    }
    loop {
        match toks.get(*i) {
            Some(Tok::Punct('*')) => {
                *i += 1;
                out.push(UseItem { path, binds: None });
                return;
            }
            Some(Tok::Punct('{')) => {
                *i += 1;
                while !matches!(toks.get(*i), Some(Tok::Punct('}')) | None) {
                    use_tree(toks, i, path.clone(), out);
                    if toks.get(*i) == Some(&Tok::Punct(',')) {
                        *i += 1;
                    }
                }
                *i += 1;
                return;
            }
            Some(Tok::Ident(name)) => {
                *i += 1;
                if name == "self" && !path.is_empty() && toks.get(*i) != Some(&Tok::Sep) {
                    // `a::{self}` binds `a`.
                } else {
                    path.push(name.clone());
                }
                if toks.get(*i) == Some(&Tok::Sep) {
                    *i += 1;
                    continue;
                }
                let mut binds = path.last().cloned();
                if toks.get(*i) == Some(&Tok::Ident("as".to_owned())) {
                    binds = match toks.get(*i + 1) {
                        Some(Tok::Ident(alias)) => Some(alias.clone()),
                        _ => binds,
                    };
                    *i += 2;
                }
                out.push(UseItem { path, binds });
                return;
            }
            _ => return,
        }
    }
}

impl Crate {
    /// The crate of `sources` (as [`load`] gives them).
    pub fn parse(sources: &BTreeMap<String, String>) -> Crate {
        let files: BTreeMap<ModPath, &str> =
            sources.iter().filter_map(|(rel, text)| Some((module_of(rel)?, text.as_str()))).collect();
        let known: BTreeSet<ModPath> = files.keys().cloned().collect();
        let mut modules: BTreeMap<ModPath, Module> = BTreeMap::new();
        // Every path named, with the module (file or inline) naming it.
        let mut named: Vec<(ModPath, Vec<String>)> = Vec::new();
        // Modules under `#[cfg(test)]`, whose files are left out with them.
        let mut test_only: Vec<ModPath> = Vec::new();
        for (file, text) in &files {
            if test_only.iter().any(|t| file.starts_with(t)) {
                continue;
            }
            let toks = tokens(text);
            modules.entry(file.clone()).or_default().file = file.clone();
            // The inline modules open at each brace depth.
            let mut stack: Vec<(String, usize)> = Vec::new();
            let mut depth = 0;
            let mut i = 0;
            while i < toks.len() {
                let current: ModPath = file.iter().cloned().chain(stack.iter().map(|(n, _)| n.clone())).collect();
                let own_depth = stack.last().map_or(0, |(_, d)| d + 1);
                if let Some((name, inline)) = test_module(&toks[i..]) {
                    if inline {
                        // Past the module's closing brace.
                        let mut open = 0;
                        while i < toks.len() {
                            match toks[i] {
                                Tok::Punct('{') => open += 1,
                                Tok::Punct('}') if open == 1 => break,
                                Tok::Punct('}') => open -= 1,
                                _ => {}
                            }
                            i += 1;
                        }
                    } else {
                        test_only.push(current.iter().cloned().chain([name]).collect());
                    }
                    i += 1;
                    continue;
                }
                match &toks[i] {
                    Tok::Punct('{') => depth += 1,
                    Tok::Punct('}') => {
                        depth -= 1;
                        if stack.last().is_some_and(|(_, d)| *d == depth) {
                            stack.pop();
                        }
                    }
                    Tok::Ident(kw) if kw == "mod" => {
                        if let (Some(Tok::Ident(name)), Some(Tok::Punct('{'))) = (toks.get(i + 1), toks.get(i + 2)) {
                            let mut inner = current.clone();
                            inner.push(name.clone());
                            modules.entry(inner).or_default().file = file.clone();
                            stack.push((name.clone(), depth));
                            depth += 1;
                            i += 3;
                            continue;
                        }
                    }
                    Tok::Ident(kw) if kw == "use" => {
                        let public = is_public(&toks[..i]);
                        let mut items = Vec::new();
                        i += 1;
                        use_tree(&toks, &mut i, Vec::new(), &mut items);
                        let module = modules.entry(current.clone()).or_default();
                        for item in items {
                            let Some(abs) = absolute(&current, &item.path, &known) else {
                                continue;
                            };
                            match item.binds {
                                Some(name) if name != "_" => {
                                    module.bindings.insert(name, abs.clone());
                                }
                                Some(_) => {}
                                None => module.globs.push(abs.clone()),
                            }
                            // A re-export is a door, not a use: who names the
                            // item through it imports the item's module.
                            if !public {
                                named.push((current.clone(), abs));
                            }
                        }
                        continue;
                    }
                    Tok::Ident(kw) if kw == "macro_rules" && toks.get(i + 1) == Some(&Tok::Punct('!')) => {
                        if let Some(Tok::Ident(name)) = toks.get(i + 2) {
                            modules.entry(current.clone()).or_default().defines.insert(name.clone());
                        }
                    }
                    Tok::Ident(kw)
                        if depth == own_depth
                            && matches!(
                                kw.as_str(),
                                "fn" | "struct" | "enum" | "union" | "trait" | "type" | "const" | "static"
                            ) =>
                    {
                        if let Some(Tok::Ident(name)) = toks.get(i + 1) {
                            modules.entry(current.clone()).or_default().defines.insert(name.clone());
                        }
                    }
                    Tok::Ident(first) if toks.get(i + 1) == Some(&Tok::Sep) && (i == 0 || toks[i - 1] != Tok::Sep) => {
                        let mut path = vec![first.clone()];
                        let mut j = i + 1;
                        while let (Some(Tok::Sep), Some(Tok::Ident(next))) = (toks.get(j), toks.get(j + 1)) {
                            path.push(next.clone());
                            j += 2;
                        }
                        if let Some(abs) = absolute(&current, &path, &known) {
                            named.push((current, abs));
                        }
                        i = j;
                        continue;
                    }
                    _ => {}
                }
                i += 1;
            }
        }
        let files = files.into_keys().filter(|f| !test_only.iter().any(|t| f.starts_with(t))).collect();
        let mut krate = Crate { files, modules, edges: BTreeMap::new() };
        for (from, path) in named {
            let from_file = krate.modules[&from].file.clone();
            if let Some(to) = krate.resolve(&path, 0) {
                let to_file = krate.modules[&to].file.clone();
                if to_file != from_file {
                    krate.edges.entry(from_file).or_default().insert(to_file);
                }
            }
        }
        krate
    }

    /// The module (file or inline) that the item at absolute `path` is
    /// defined in, following `use` declarations (at most `depth` 16 deep).
    fn resolve(&self, path: &[String], depth: usize) -> Option<ModPath> {
        let mut module = path.len();
        while !self.modules.contains_key(&path[..module]) {
            module = module.checked_sub(1)?;
        }
        let (here, rest) = path.split_at(module);
        let Some(name) = rest.first() else { return Some(here.to_vec()) };
        let m = &self.modules[here];
        if m.defines.contains(name) || depth > 16 {
            return Some(here.to_vec());
        }
        if let Some(target) = m.bindings.get(name) {
            let followed: Vec<String> = target.iter().chain(&rest[1..]).cloned().collect();
            return self.resolve(&followed, depth + 1).or_else(|| Some(here.to_vec()));
        }
        for glob in &m.globs {
            let Some(g) = self.resolve(glob, depth + 1) else { continue };
            let gm = &self.modules[&g];
            if gm.defines.contains(name) || gm.bindings.contains_key(name) {
                let followed: Vec<String> = g.iter().chain(rest).cloned().collect();
                return self.resolve(&followed, depth + 1);
            }
        }
        Some(here.to_vec())
    }

    /// The file modules each file module imports.
    pub fn edges(&self) -> BTreeMap<String, BTreeSet<String>> {
        self.edges.iter().map(|(a, bs)| (show(a), bs.iter().map(|b| show(b)).collect())).collect()
    }

    /// The imports among the children of `parent` (each standing for
    /// everything below it) and `parent`'s own file, by module path.
    pub fn level(&self, parent: &[String]) -> BTreeMap<String, BTreeSet<String>> {
        let node = |m: &ModPath| -> Option<ModPath> {
            m.starts_with(parent).then(|| m[..(parent.len() + 1).min(m.len())].to_vec())
        };
        let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (from, tos) in &self.edges {
            for to in tos {
                if let (Some(a), Some(b)) = (node(from), node(to)) {
                    if a != b {
                        out.entry(show(&a)).or_default().insert(show(&b));
                    }
                }
            }
        }
        out
    }

    /// Every circle of imports, at every level of the module tree, each as
    /// the modules it passes through from its least one (`[a, b, c]` for
    /// `a → b → c → a`), in order.
    pub fn circles(&self) -> Vec<Vec<String>> {
        let parents: BTreeSet<ModPath> =
            self.files.iter().filter_map(|f| f.split_last().map(|(_, p)| p.to_vec())).collect();
        let mut out: Vec<Vec<String>> = parents.iter().flat_map(|p| circles(&self.level(p))).collect();
        out.sort();
        out.dedup();
        out
    }
}

/// For `#[cfg(test)] mod name` at the start of `toks`: the name, and
/// whether the module is inline (`{ … }`) rather than a file (`;`).
fn test_module(toks: &[Tok]) -> Option<(String, bool)> {
    let ident = |s: &str| Tok::Ident(s.to_owned());
    let head = [Tok::Punct('#'), Tok::Punct('['), ident("cfg"), Tok::Punct('('), ident("test"), Tok::Punct(')')];
    if !toks.starts_with(&head) || toks.get(6) != Some(&Tok::Punct(']')) || toks.get(7) != Some(&ident("mod")) {
        return None;
    }
    match (toks.get(8), toks.get(9)) {
        (Some(Tok::Ident(name)), Some(Tok::Punct(c))) if *c == ';' || *c == '{' => Some((name.clone(), *c == '{')),
        _ => None,
    }
}

/// Whether the `use` after `before` is `pub` or `pub(…)`.
fn is_public(before: &[Tok]) -> bool {
    let pub_kw = Tok::Ident("pub".to_owned());
    match before.last() {
        Some(t) if *t == pub_kw => true,
        Some(Tok::Punct(')')) => {
            let open = before.iter().rposition(|t| *t == Tok::Punct('('));
            open.is_some_and(|o| o > 0 && before[o - 1] == pub_kw)
        }
        _ => false,
    }
}

/// `path` as named in module `current`, made absolute; `None` when it
/// leads out of the crate (`std::…`, `::other`, a local name). `known`:
/// the file modules, for a child module named without a prefix.
fn absolute(current: &[String], path: &[String], known: &BTreeSet<ModPath>) -> Option<ModPath> {
    let (first, rest) = path.split_first()?;
    match first.as_str() {
        "crate" => Some(rest.to_vec()),
        "self" => Some(current.iter().chain(rest).cloned().collect()),
        "super" => {
            let mut base = current.to_vec();
            base.pop()?;
            let mut rest = rest;
            while rest.first().is_some_and(|s| s == "super") {
                base.pop()?;
                rest = &rest[1..];
            }
            Some(base.into_iter().chain(rest.iter().cloned()).collect())
        }
        _ => {
            // A child module named by its name (`use field::X;` in `lib.rs`).
            let mut child = current.to_vec();
            child.push(first.clone());
            known.contains(&child).then(|| current.iter().chain(path).cloned().collect())
        }
    }
}

/// The elementary circles of `graph`, each from its least node: every
/// cycle is found once, from its least node, walking only greater ones.
pub fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    fn walk(
        graph: &BTreeMap<String, BTreeSet<String>>,
        start: &str,
        path: &mut Vec<String>,
        out: &mut Vec<Vec<String>>,
    ) {
        let last = path.last().cloned().unwrap_or_default();
        for next in graph.get(&last).into_iter().flatten() {
            if next == start {
                out.push(path.clone());
                assert!(out.len() < 10_000, "too many circles to list: {out:?}");
            } else if next.as_str() > start && !path.contains(next) {
                path.push(next.clone());
                walk(graph, start, path, out);
                path.pop();
            }
        }
    }
    let mut out = Vec::new();
    for start in graph.keys() {
        walk(graph, start, &mut vec![start.clone()], &mut out);
    }
    out
}

/// `a -> b -> c -> a`.
pub fn describe(circle: &[String]) -> String {
    let mut text = circle.join(" -> ");
    if let Some(first) = circle.first() {
        text.push_str(" -> ");
        text.push_str(first);
    }
    text
}
