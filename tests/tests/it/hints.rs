//! Every `Type::method` a message or a guide tells a user to call exists:
//! the paths are taken from the string literals of the library crates'
//! sources (error messages, hints) and from the README and `docs/*.md`, and
//! each whose type is one of the public API's (`api/*.txt`) must name a
//! method of that type there, so a new hint is checked without a list kept
//! by hand. (A hint once said `ReaderBuilder::verify_page_checksums(false)`;
//! the method is `ReadOptions::verify_page_checksums`.)

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Methods the API listings leave out because they come from a trait
/// implementation (`impl Default for ReadOptions`), which the listing
/// names but not method by method.
const TRAIT_METHODS: &[(&str, &str)] = &[
    ("Default", "default"),
    ("Clone", "clone"),
    ("Iterator", "next"),
    ("Stream", "poll_next"),
    ("From", "from"),
    ("Debug", "fmt"),
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The public types of the API listings, and each one's methods.
fn api() -> BTreeMap<String, BTreeSet<String>> {
    let mut types: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for entry in std::fs::read_dir(root().join("api")).expect("api/") {
        let text = std::fs::read_to_string(entry.expect("entry").path()).expect("listing");
        for line in text.lines() {
            for kind in ["pub struct ", "pub enum ", "pub trait ", "pub type "] {
                if let Some(rest) = line.split(kind).nth(1) {
                    types.entry(last_name(path_before(rest))).or_default();
                }
            }
            // `pub fn a::b::Type<..>::method(`, `pub async fn ..`, `pub const fn ..`.
            if let Some(rest) = line.split(" fn ").nth(1).filter(|_| line.starts_with("pub ")) {
                if let [.., ty, method] = segments(rest.split('(').next().unwrap_or_default()).as_slice() {
                    types.entry(ty.clone()).or_default().insert(method.clone());
                }
            }
            // `impl<..> a::Trait for b::Type<..>`: the trait's methods.
            let Some((head, ty)) = line.strip_prefix("impl").and_then(|l| l.split_once(" for ")) else { continue };
            for (name, method) in TRAIT_METHODS {
                if segments(head).last().is_some_and(|t| t.ends_with(name)) {
                    types.entry(last_name(path_before(ty))).or_default().insert((*method).to_owned());
                }
            }
        }
    }
    types
}

/// `a::b::Name<T>::c` up to the generics or the end: `a::b::Name`.
fn path_before(text: &str) -> &str {
    let end = text.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':')).unwrap_or(text.len());
    &text[..end]
}

fn last_name(path: &str) -> String {
    path.rsplit("::").next().unwrap_or(path).to_owned()
}

/// The segments of a path, generics (`<..>`, nested) left out.
fn segments(path: &str) -> Vec<String> {
    let mut depth = 0;
    let mut plain = String::new();
    for c in path.chars() {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            c if depth == 0 => plain.push(c),
            _ => {}
        }
    }
    plain.split("::").map(str::to_owned).collect()
}

/// The contents of the string literals of a Rust source (plain and raw).
fn string_literals(source: &str) -> Vec<String> {
    let c: Vec<char> = source.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        match c[i] {
            '/' if c.get(i + 1) == Some(&'/') => {
                while i < c.len() && c[i] != '\n' {
                    i += 1;
                }
            }
            '\'' if c.get(i + 2) == Some(&'\'') => i += 3,
            '\'' if c.get(i + 1) == Some(&'\\') => {
                i += 2;
                while i < c.len() && c[i] != '\'' {
                    i += 1;
                }
                i += 1;
            }
            'r' if c.get(i + 1).is_some_and(|&n| n == '#' || n == '"') && (i == 0 || !c[i - 1].is_alphanumeric()) => {
                let hashes = c[i + 1..].iter().take_while(|&&h| h == '#').count();
                if c.get(i + 1 + hashes) != Some(&'"') {
                    i += 1;
                    continue;
                }
                let start = i + 2 + hashes;
                let close: String = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
                let rest: String = c[start..].iter().collect();
                let len = rest.find(&close).unwrap_or(rest.len());
                out.push(rest[..len].to_owned());
                i = start + rest[..len].chars().count() + close.len();
            }
            '"' => {
                let mut text = String::new();
                i += 1;
                while i < c.len() && c[i] != '"' {
                    if c[i] == '\\' {
                        i += 1;
                    }
                    text.extend(c.get(i));
                    i += 1;
                }
                out.push(text);
                i += 1;
            }
            _ => i += 1,
        }
    }
    out
}

/// The `Type::method` paths in `text` (a type in UpperCamelCase, a method
/// in snake_case).
fn type_methods(text: &str) -> Vec<(String, String)> {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = Vec::new();
    for (at, _) in text.match_indices("::") {
        let before = &text[..at];
        let ty_start = before.rfind(|c: char| !ident(c)).map_or(0, |i| i + 1);
        let ty = &before[ty_start..];
        let after = &text[at + 2..];
        let method = &after[..after.find(|c: char| !ident(c)).unwrap_or(after.len())];
        let camel = ty.starts_with(|c: char| c.is_ascii_uppercase()) && !ty.contains('_');
        let snake = method.starts_with(|c: char| c.is_ascii_lowercase() || c == '_')
            && !method.contains(|c: char| c.is_ascii_uppercase());
        if camel && snake && !method.is_empty() {
            out.push((ty.to_owned(), method.to_owned()));
        }
    }
    out
}

fn rust_sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("source dir") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_type_method_a_message_or_a_guide_names_exists() {
    let api = api();
    assert!(api.get("ReadOptions").is_some_and(|m| m.contains("verify_page_checksums")), "the listing is read");
    let mut texts: Vec<(String, String)> = Vec::new();
    for krate in ["magnolify-parquet", "magnolify-iceberg", "magnolify-parquet-cli"] {
        let mut files = Vec::new();
        rust_sources(&root().join(krate).join("src"), &mut files);
        for file in files {
            let source = std::fs::read_to_string(&file).expect("source");
            let name = file.strip_prefix(root()).unwrap_or(&file).display().to_string();
            texts.extend(string_literals(&source).into_iter().map(|s| (name.clone(), s)));
        }
    }
    let mut guides = vec![root().join("README.md")];
    for entry in std::fs::read_dir(root().join("docs")).expect("docs/") {
        guides.push(entry.expect("entry").path());
    }
    for guide in guides.into_iter().filter(|p| p.extension().is_some_and(|e| e == "md")) {
        let name = guide.strip_prefix(root()).unwrap_or(&guide).display().to_string();
        texts.push((name, std::fs::read_to_string(&guide).expect("guide")));
    }

    let mut checked = 0;
    let mut missing = BTreeSet::new();
    for (file, text) in &texts {
        for (ty, method) in type_methods(text) {
            let Some(methods) = api.get(&ty) else { continue };
            checked += 1;
            if !methods.contains(&method) {
                missing.insert(format!("{file}: `{ty}::{method}`"));
            }
        }
    }
    assert!(missing.is_empty(), "named but not in api/*.txt:\n{}", missing.into_iter().collect::<Vec<_>>().join("\n"));
    // The paths are found: 93 when this test was written.
    assert!(checked >= 80, "{checked} paths checked");
}
