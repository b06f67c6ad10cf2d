//! Attributes on the struct or enum itself.

use syn::Attribute;

use super::{parse_keys, set_choice, set_string, ListLayout, Spanned};
use crate::case::RenameRule;
use crate::errors::Errors;

/// `#[parquet(...)]` on the type.
#[derive(Default)]
pub struct ContainerAttrs {
    /// `rename = "..."`: the message name of a record.
    pub rename: Option<Spanned<String>>,
    /// `rename_all = "..."`: the case of field or variant names.
    pub rename_all: Option<Spanned<RenameRule>>,
    /// `list = "..."`: the list layout of every field that does not set one.
    pub list: Option<Spanned<ListLayout>>,
    /// `union = "avro"`: an enum with data in parquet-avro's union layout.
    pub union: Option<Spanned<UnionLayout>>,
    /// `annotation = "enum"`: an enum's symbols in a column annotated ENUM
    /// (parquet-avro's enums), not STRING.
    pub annotation: Option<Spanned<SymbolAnnotation>>,
}

/// The annotation of the column that holds an enum's symbols (a unit
/// enum's, or the tag of an enum with data).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SymbolAnnotation {
    /// STRING: text to every engine.
    #[default]
    String,
    /// ENUM: parquet-avro's enums (pyarrow reads it as binary).
    Enum,
}

const SYMBOL_ANNOTATIONS: [(&str, SymbolAnnotation); 2] =
    [("string", SymbolAnnotation::String), ("enum", SymbolAnnotation::Enum)];

/// The layouts of an enum with data besides the default (a tag and one
/// field per variant with data).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnionLayout {
    /// parquet-avro's: optional `member0..memberN`, exactly one set.
    Avro,
}

const UNION_LAYOUTS: [(&str, UnionLayout); 1] = [("avro", UnionLayout::Avro)];

const KEYS: [&str; 5] = ["rename", "rename_all", "list", "union", "annotation"];

impl ContainerAttrs {
    /// Whether an enum's symbols are annotated ENUM (else STRING).
    pub fn enum_annotation(&self) -> bool {
        self.annotation.as_ref().is_some_and(|a| a.value == SymbolAnnotation::Enum)
    }

    pub fn parse(attrs: &[Attribute], errors: &mut Errors) -> Self {
        parse_keys(attrs, errors, "container", &KEYS, |out: &mut Self, meta, key, errors| {
            match key {
                "rename" => set_string(&mut out.rename, meta, "rename = \"Name\"", errors)?,
                "rename_all" => set_choice(&mut out.rename_all, meta, &RenameRule::ALL, errors)?,
                "list" => set_choice(&mut out.list, meta, &ListLayout::CHOICES, errors)?,
                "union" => set_choice(&mut out.union, meta, &UNION_LAYOUTS, errors)?,
                "annotation" => set_choice(&mut out.annotation, meta, &SYMBOL_ANNOTATIONS, errors)?,
                _ => return Ok(false),
            }
            Ok(true)
        })
    }

    /// The keys that are set, with their spans.
    pub fn present(&self) -> Vec<(&'static str, proc_macro2::Span)> {
        let mut out = Vec::new();
        if let Some(s) = &self.rename {
            out.push(("rename", s.span));
        }
        if let Some(s) = &self.rename_all {
            out.push(("rename_all", s.span));
        }
        if let Some(s) = &self.list {
            out.push(("list", s.span));
        }
        if let Some(s) = &self.union {
            out.push(("union", s.span));
        }
        if let Some(s) = &self.annotation {
            out.push(("annotation", s.span));
        }
        out
    }
}
