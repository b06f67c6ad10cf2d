//! The projection of `cat --columns`: which fields are printed, and the
//! error naming the paths a file has when one is not there.

use magnolify_parquet::convert::FileNode;
use parquet::schema::types::SchemaDescriptor;

use super::error::CatError;
use crate::shape::{shape, Shape};

/// The fields `cat` prints: dotted paths of top-level or nested fields
/// (`a`, `b.c`), through lists and map values to the fields of their
/// elements (`stops.name`). Empty: every field.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Columns {
    paths: Vec<String>,
}

impl Columns {
    /// Every field.
    pub fn all() -> Self {
        Columns::default()
    }

    /// `a,b.c`: comma-separated dotted paths.
    pub fn parse(spec: &str) -> std::result::Result<Self, String> {
        let paths: Vec<String> = spec.split(',').map(|p| p.trim().to_owned()).collect();
        if let Some(bad) = paths.iter().find(|p| p.is_empty() || p.split('.').any(str::is_empty)) {
            return Err(format!("invalid column path `{bad}` in `{spec}`: expected dotted names such as `a,b.c`"));
        }
        Ok(Columns { paths })
    }

    pub(super) fn selection(&self) -> Selection {
        match self.paths.is_empty() {
            true => Selection::All,
            false => Selection::Some(
                self.paths.iter().map(|p| (p.clone(), p.split('.').map(str::to_owned).collect())).collect(),
            ),
        }
    }
}

/// A projection at one node: everything, or these (full path, remaining
/// segments) pairs.
pub(super) enum Selection {
    All,
    Some(Vec<(String, Vec<String>)>),
}

impl Selection {
    /// The selection within the child `name`, if it is selected at all.
    /// Segments are matched greedily, so a field whose name holds dots
    /// (`a.b`) is selected by its name too.
    pub(super) fn child(&self, name: &str) -> Option<Selection> {
        let Selection::Some(paths) = self else { return Some(Selection::All) };
        let mut rest = Vec::new();
        for (full, segments) in paths {
            if let Some(k) = (1..=segments.len()).find(|&k| segments[..k].join(".") == name) {
                if k == segments.len() {
                    return Some(Selection::All);
                }
                rest.push((full.clone(), segments[k..].to_vec()));
            }
        }
        (!rest.is_empty()).then_some(Selection::Some(rest))
    }

    /// The full paths that no child of the group named `names` selects.
    pub(super) fn unknown<'a>(&'a self, names: &[&str]) -> Option<&'a str> {
        let Selection::Some(paths) = self else { return None };
        paths
            .iter()
            .find(|(_, segments)| !(1..=segments.len()).any(|k| names.contains(&segments[..k].join(".").as_str())))
            .map(|(full, _)| full.as_str())
    }
}

/// The error for `column`, listing the paths the schema has.
pub(super) fn unknown(schema: &SchemaDescriptor, column: String) -> CatError {
    let mut columns = Vec::new();
    field_paths(&FileNode::root(schema), "", &mut columns, 0);
    CatError::UnknownColumn { column, columns }
}

/// The dotted paths `--columns` accepts under `node`, depth first.
fn field_paths(node: &FileNode<'_>, prefix: &str, out: &mut Vec<String>, depth: usize) {
    // The library's footer reader refuses deeper schemas; recursion stays bounded anyway.
    if depth > 100 {
        return;
    }
    let node = node.as_required();
    match shape(&node) {
        Shape::Leaf => {}
        Shape::List(list) | Shape::Keys(list) => field_paths(&list.element, prefix, out, depth + 1),
        Shape::Map(map) => {
            if let Some(value) = &map.value {
                field_paths(value, prefix, out, depth + 1);
            }
        }
        Shape::Group { .. } => {
            for child in node.children() {
                let path =
                    if prefix.is_empty() { child.name().to_owned() } else { format!("{prefix}.{}", child.name()) };
                out.push(path.clone());
                field_paths(&child, &path, out, depth + 1);
            }
        }
    }
}
