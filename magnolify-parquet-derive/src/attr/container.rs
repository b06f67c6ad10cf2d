//! Attributes on the struct or enum itself.

use syn::Attribute;

use super::{for_each_key, set_once, unknown_key, value, ListLayout, Spanned};
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
}

const KEYS: [&str; 3] = ["rename", "rename_all", "list"];

impl ContainerAttrs {
    pub fn parse(attrs: &[Attribute], errors: &mut Errors) -> Self {
        let mut out = ContainerAttrs::default();
        for_each_key(attrs, errors, |meta, key, errors| {
            match key {
                "rename" => {
                    if let Some(s) = value::string(meta, "rename = \"Name\"", errors)? {
                        set_once(&mut out.rename, meta, s.value(), errors);
                    }
                }
                "rename_all" => {
                    if let Some(rule) = value::choice(meta, &RenameRule::ALL, errors)? {
                        set_once(&mut out.rename_all, meta, rule, errors);
                    }
                }
                "list" => {
                    if let Some(layout) = value::choice(meta, &ListLayout::CHOICES, errors)? {
                        set_once(&mut out.list, meta, layout, errors);
                    }
                }
                _ => unknown_key(meta, "container", &KEYS, errors)?,
            }
            Ok(())
        });
        out
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
        out
    }
}
