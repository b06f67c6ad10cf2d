//! The `Cargo.toml` lines the generated code needs: magnolify-parquet with
//! the features of the types it names, and the crates those types come from
//! (`chrono::NaiveDate` needs `chrono` in the user's own dependencies, since
//! the generated code names it by path).
//!
//! Exactly the types the code names count: a file of integers and strings
//! needs magnolify-parquet alone.

use std::collections::BTreeSet;

use super::model::{Item, Model, Scalar};

/// A crate a generated type comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Dependency {
    /// The crate's name in `Cargo.toml`.
    pub krate: &'static str,
    /// The version requirement: the one magnolify-parquet itself depends on
    /// (the workspace's `Cargo.toml`), so that both resolve to one copy.
    pub version: &'static str,
    /// The magnolify-parquet feature that implements its traits for the type.
    pub feature: &'static str,
}

/// The crate and feature of a leaf type outside std; `None` for std types.
pub fn dependency(scalar: &Scalar) -> Option<Dependency> {
    let (krate, version, feature) = match scalar {
        Scalar::F16 => ("half", "2", "half"),
        Scalar::Uuid => ("uuid", "1", "uuid"),
        Scalar::Date | Scalar::Time | Scalar::LocalTimestamp | Scalar::UtcTimestamp => ("chrono", "0.4", "chrono"),
        Scalar::Decimal => ("rust_decimal", "1", "decimal"),
        Scalar::BigDecimal => ("bigdecimal", "0.4", "bigdecimal"),
        _ => return None,
    };
    Some(Dependency { krate, version, feature })
}

/// magnolify-parquet's version requirement, `major.minor` of this crate's
/// version: the CLI and the library both take the workspace's version, so
/// the CLI generates code for the library of its own release.
fn library_version() -> String {
    let mut parts = env!("CARGO_PKG_VERSION").split('.');
    match (parts.next(), parts.next()) {
        (Some(major), Some(minor)) => format!("{major}.{minor}"),
        _ => env!("CARGO_PKG_VERSION").to_owned(),
    }
}

/// The comment lines (without `//`) naming the `[dependencies]` the code of
/// `model` needs. A skipped field's type needs its crate (the code names
/// it) but no feature (nothing reads or writes it).
pub fn cargo_lines(model: &Model) -> Vec<String> {
    let mut crates = BTreeSet::new();
    let mut features = BTreeSet::new();
    for s in &model.structs {
        for item in &s.items {
            let Item::Field(f) = item else { continue };
            for dep in f.ty.scalars().into_iter().filter_map(dependency) {
                crates.insert((dep.krate, dep.version));
                if !f.attrs.skip {
                    features.insert(dep.feature);
                }
            }
        }
    }
    let version = library_version();
    let library = if features.is_empty() {
        format!("magnolify-parquet = \"{version}\"")
    } else {
        let list: Vec<String> = features.iter().map(|f| format!("\"{f}\"")).collect();
        format!("magnolify-parquet = {{ version = \"{version}\", features = [{}] }}", list.join(", "))
    };
    let mut lines = vec!["Cargo.toml [dependencies] this code needs:".to_owned(), library];
    lines.extend(crates.iter().map(|(krate, version)| format!("{krate} = \"{version}\"")));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codegen::model::{FieldAttrs, FieldDef, RustType, StructDef};

    fn model(fields: &[(RustType, bool)]) -> Model {
        let items = fields
            .iter()
            .enumerate()
            .map(|(i, (ty, skip))| {
                let attrs = FieldAttrs { skip: *skip, ..FieldAttrs::default() };
                Item::Field(FieldDef { ident: format!("f{i}"), doc: Vec::new(), ty: ty.clone(), attrs })
            })
            .collect();
        Model { structs: vec![StructDef { name: "R".into(), rename: None, doc: Vec::new(), items }], enums: Vec::new() }
    }

    fn scalar(s: Scalar) -> RustType {
        RustType::Scalar(s)
    }

    #[test]
    fn std_types_need_the_library_alone() {
        let m = model(&[(scalar(Scalar::I64), false), (RustType::Vec(Box::new(scalar(Scalar::String))), false)]);
        assert_eq!(cargo_lines(&m), ["Cargo.toml [dependencies] this code needs:", "magnolify-parquet = \"0.1\""]);
    }

    #[test]
    fn each_crate_once_with_its_feature() {
        let nested = RustType::Map(
            Box::new(scalar(Scalar::Uuid)),
            Box::new(RustType::Option(Box::new(scalar(Scalar::UtcTimestamp)))),
        );
        let m = model(&[
            (scalar(Scalar::Date), false),
            (nested, false),
            (scalar(Scalar::Decimal), false),
            (scalar(Scalar::BigDecimal), false),
            (scalar(Scalar::F16), false),
        ]);
        assert_eq!(
            cargo_lines(&m),
            [
                "Cargo.toml [dependencies] this code needs:",
                "magnolify-parquet = { version = \"0.1\", features = [\"bigdecimal\", \"chrono\", \"decimal\", \
                 \"half\", \"uuid\"] }",
                "bigdecimal = \"0.4\"",
                "chrono = \"0.4\"",
                "half = \"2\"",
                "rust_decimal = \"1\"",
                "uuid = \"1\"",
            ]
        );
    }

    #[test]
    fn a_skipped_field_needs_its_crate_but_no_feature() {
        let m = model(&[(scalar(Scalar::Uuid), true), (scalar(Scalar::Time), false)]);
        assert_eq!(
            cargo_lines(&m),
            [
                "Cargo.toml [dependencies] this code needs:",
                "magnolify-parquet = { version = \"0.1\", features = [\"chrono\"] }",
                "chrono = \"0.4\"",
                "uuid = \"1\"",
            ]
        );
    }

    /// The versions named are the workspace's: the library's own version
    /// and the requirements it puts on the crates of its features.
    #[test]
    fn versions_are_the_workspace_ones() {
        let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../Cargo.toml");
        let text = std::fs::read_to_string(&manifest).expect("the workspace manifest");
        let line = |krate: &str| {
            text.lines().find(|l| l.starts_with(&format!("{krate} = "))).unwrap_or_else(|| panic!("{krate} in {text}"))
        };
        assert!(line("magnolify-parquet").contains(&format!("version = \"{}.", library_version())), "{text}");
        for s in [Scalar::F16, Scalar::Uuid, Scalar::Date, Scalar::Decimal, Scalar::BigDecimal] {
            let dep = dependency(&s).expect("a dependency");
            let l = line(dep.krate);
            let requirement = format!("\"{}\"", dep.version);
            assert!(l.ends_with(&requirement) || l.contains(&format!("version = {requirement}")), "{l}");
            let library = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../magnolify-parquet/Cargo.toml");
            let library = std::fs::read_to_string(library).expect("the library's manifest");
            assert!(library.contains(&format!("\n{} = [", dep.feature)), "feature {} of the library", dep.feature);
        }
        for toml in ["Cargo.toml", "../magnolify-parquet/Cargo.toml"] {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(toml);
            let text = std::fs::read_to_string(&path).expect("a manifest");
            assert!(text.contains("\nversion.workspace = true\n"), "{toml} takes the workspace version");
        }
    }
}
