//! `#[parquet(...)]` attributes parsed into a small model. Parsing reports
//! unknown keys, duplicates and malformed values; whether the settings make
//! sense together is left to `check`.

mod container;
mod field;
mod value;

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::meta::ParseNestedMeta;
use syn::Attribute;

use crate::errors::Errors;

pub use container::ContainerAttrs;
pub use field::{FieldAttrs, VariantAttrs};

/// A setting and the span of the key that set it (errors about the setting
/// point there).
#[derive(Clone, Debug)]
pub struct Spanned<T> {
    pub value: T,
    pub span: Span,
}

/// Stores `value` in `slot`, or reports a duplicate key.
fn set_once<T>(slot: &mut Option<Spanned<T>>, meta: &ParseNestedMeta<'_>, value: T, errors: &mut Errors) {
    if slot.is_some() {
        errors.spanned(&meta.path, format!("duplicate parquet attribute `{}`", key_name(meta)));
    } else {
        *slot = Some(Spanned { value, span: span_of(&meta.path) });
    }
}

/// The span of all of `path` (a multi-segment key included).
fn span_of(path: &syn::Path) -> Span {
    let first = path.segments.first().map(|s| s.ident.span());
    let last = path.segments.last().map(|s| s.ident.span());
    match (first, last) {
        (Some(a), Some(b)) => a.join(b).unwrap_or(a),
        _ => Span::call_site(),
    }
}

/// The key as written, for messages.
fn key_name(meta: &ParseNestedMeta<'_>) -> String {
    let path = &meta.path;
    quote!(#path).to_string().replace(' ', "")
}

/// Runs `on_key` on each key of every `#[parquet(...)]` attribute in
/// `attrs` (several such attributes are allowed); syntax errors are recorded
/// and end that attribute only.
fn for_each_key(
    attrs: &[Attribute],
    errors: &mut Errors,
    mut on_key: impl FnMut(&ParseNestedMeta<'_>, &str, &mut Errors) -> syn::Result<()>,
) {
    for attr in attrs.iter().filter(|a| a.path().is_ident("parquet")) {
        let result = attr.parse_nested_meta(|meta| {
            let key = key_name(&meta);
            on_key(&meta, &key, errors)
        });
        if let Err(e) = result {
            errors.push(e);
        }
    }
}

/// Records an unknown key (skipping its value so the next keys are read).
fn unknown_key(meta: &ParseNestedMeta<'_>, place: &str, known: &[&str], errors: &mut Errors) -> syn::Result<()> {
    value::skip(meta)?;
    let known = known.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ");
    errors.spanned(
        &meta.path,
        format!("unknown parquet {place} attribute `{}`; expected one of {known}", key_name(meta)),
    );
    Ok(())
}

/// How lists are laid out (mirrors `magnolify_parquet::ListLayout`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListLayout {
    ThreeLevel,
    TwoLevel,
    Repeated,
}

impl ListLayout {
    pub const CHOICES: [(&'static str, ListLayout); 3] = [
        ("three-level", ListLayout::ThreeLevel),
        ("two-level", ListLayout::TwoLevel),
        ("repeated", ListLayout::Repeated),
    ];

    /// The runtime value, by absolute path.
    pub fn tokens(self) -> TokenStream {
        match self {
            ListLayout::ThreeLevel => quote!(__mp::ListLayout::ThreeLevel),
            ListLayout::TwoLevel => quote!(__mp::ListLayout::TwoLevel),
            ListLayout::Repeated => quote!(__mp::ListLayout::Repeated),
        }
    }
}

/// Unit of times (mirrors `magnolify_parquet::TimeUnit`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeUnit {
    Millis,
    Micros,
    Nanos,
}

impl TimeUnit {
    pub const CHOICES: [(&'static str, TimeUnit); 3] =
        [("millis", TimeUnit::Millis), ("micros", TimeUnit::Micros), ("nanos", TimeUnit::Nanos)];

    pub fn tokens(self) -> TokenStream {
        match self {
            TimeUnit::Millis => quote!(__mp::TimeUnit::Millis),
            TimeUnit::Micros => quote!(__mp::TimeUnit::Micros),
            TimeUnit::Nanos => quote!(__mp::TimeUnit::Nanos),
        }
    }
}

/// Physical type of a decimal (mirrors `magnolify_parquet::DecimalPhysical`,
/// without `Auto`, which is what no setting means).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecimalPhysical {
    Int32,
    Int64,
    Fixed,
    Binary,
}

impl DecimalPhysical {
    pub const CHOICES: [(&'static str, DecimalPhysical); 4] = [
        ("int32", DecimalPhysical::Int32),
        ("int64", DecimalPhysical::Int64),
        ("fixed", DecimalPhysical::Fixed),
        ("binary", DecimalPhysical::Binary),
    ];

    pub fn tokens(self) -> TokenStream {
        match self {
            DecimalPhysical::Int32 => quote!(__mp::DecimalPhysical::Int32),
            DecimalPhysical::Int64 => quote!(__mp::DecimalPhysical::Int64),
            DecimalPhysical::Fixed => quote!(__mp::DecimalPhysical::Fixed),
            DecimalPhysical::Binary => quote!(__mp::DecimalPhysical::Binary),
        }
    }

    /// The largest precision the physical type holds.
    pub fn max_precision(self) -> u8 {
        match self {
            DecimalPhysical::Int32 => 9,
            DecimalPhysical::Int64 => 18,
            DecimalPhysical::Fixed | DecimalPhysical::Binary => Decimal::MAX_PRECISION,
        }
    }
}

/// `decimal(precision = P, scale = S, physical = "...")`; each part carries
/// the span of its value.
#[derive(Clone, Debug)]
pub struct Decimal {
    pub precision: Option<Spanned<u8>>,
    pub scale: Option<Spanned<u8>>,
    pub physical: Option<Spanned<DecimalPhysical>>,
}

impl Decimal {
    /// The largest precision supported (32-byte FIXED_LEN_BYTE_ARRAY).
    pub const MAX_PRECISION: u8 = 76;
}
