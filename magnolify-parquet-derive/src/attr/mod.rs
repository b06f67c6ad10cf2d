//! `#[parquet(...)]` attributes parsed into a small model. Parsing reports
//! unknown keys, duplicates and malformed values; whether the settings make
//! sense together is left to `check`.

mod container;
mod field;
mod serde;
mod value;

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::meta::ParseNestedMeta;
use syn::Attribute;

use crate::errors::Errors;
use value::key_name;

pub use container::{ContainerAttrs, UnionLayout};
pub use field::{FieldAttrs, VariantAttrs};
pub use serde::{check_serde, SerdePlace};

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

/// Parses every `#[parquet(...)]` attribute in `attrs` (several are
/// allowed) into the default `T`: `on_key` reads each key into it, and a key
/// it does not take (`Ok(false)`) is reported as unknown for `place`,
/// listing the `known` ones. Syntax errors are recorded and end that
/// attribute only.
fn parse_keys<T: Default>(
    attrs: &[Attribute],
    errors: &mut Errors,
    place: &str,
    known: &[&str],
    mut on_key: impl FnMut(&mut T, &ParseNestedMeta<'_>, &str, &mut Errors) -> syn::Result<bool>,
) -> T {
    let mut out = T::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident("parquet")) {
        let result = attr.parse_nested_meta(|meta| {
            let key = key_name(&meta);
            if !on_key(&mut out, &meta, &key, errors)? {
                unknown_key(&meta, place, known, errors)?;
            }
            Ok(())
        });
        if let Err(e) = result {
            errors.push(e);
        }
    }
    out
}

/// Parses the parts of a nested setting (`place(key = value, ...)`):
/// `on_part` reads each into the setting and returns `Some(valid)` for a key
/// it takes, `None` for one it does not, which is reported as unknown for
/// `place`, listing the `known` ones. Returns whether every part was valid.
fn parse_parts(
    meta: &ParseNestedMeta<'_>,
    errors: &mut Errors,
    place: &str,
    known: &[&str],
    mut on_part: impl FnMut(&ParseNestedMeta<'_>, &str, &mut Errors) -> syn::Result<Option<bool>>,
) -> syn::Result<bool> {
    let mut valid = true;
    meta.parse_nested_meta(|inner| {
        match on_part(&inner, &key_name(&inner), errors)? {
            Some(part) => valid &= part,
            None => {
                unknown_key(&inner, place, known, errors)?;
                valid = false;
            }
        }
        Ok(())
    })?;
    Ok(valid)
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

/// `key = "..."` (`example` shows how) into `slot`.
fn set_string(
    slot: &mut Option<Spanned<String>>,
    meta: &ParseNestedMeta<'_>,
    example: &str,
    errors: &mut Errors,
) -> syn::Result<()> {
    if let Some(s) = value::string(meta, example, errors)? {
        set_once(slot, meta, s.value(), errors);
    }
    Ok(())
}

/// `key = "..."`, one of `choices`, into `slot`.
fn set_choice<T: Copy>(
    slot: &mut Option<Spanned<T>>,
    meta: &ParseNestedMeta<'_>,
    choices: &[(&str, T)],
    errors: &mut Errors,
) -> syn::Result<()> {
    if let Some(choice) = value::choice(meta, choices, errors)? {
        set_once(slot, meta, choice, errors);
    }
    Ok(())
}

/// A key that takes no value (`skip`, `default`) into `slot`.
fn set_flag(slot: &mut Option<Spanned<()>>, meta: &ParseNestedMeta<'_>, errors: &mut Errors) -> syn::Result<()> {
    if value::flag(meta, errors)? {
        set_once(slot, meta, (), errors);
    }
    Ok(())
}

/// An enum of attribute values that mirrors one of the runtime's: the
/// spelling the attribute takes for each variant (`CHOICES`) and the
/// runtime's variant by absolute path (`tokens`).
macro_rules! choice_enum {
    ($(#[$doc:meta])* $name:ident { $($variant:ident = $text:literal),* $(,)? }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum $name {
            $($variant),*
        }

        impl $name {
            pub const CHOICES: [(&'static str, $name); [$($text),*].len()] = [$(($text, $name::$variant)),*];

            /// The runtime value, by absolute path.
            pub fn tokens(self) -> TokenStream {
                match self {
                    $($name::$variant => quote!(__mp::$name::$variant)),*
                }
            }
        }
    };
}

choice_enum! {
    /// How lists are laid out (mirrors `magnolify_parquet::ListLayout`).
    ListLayout { ThreeLevel = "three-level", TwoLevel = "two-level", Repeated = "repeated" }
}

choice_enum! {
    /// Unit of times (mirrors `magnolify_parquet::TimeUnit`).
    TimeUnit { Millis = "millis", Micros = "micros", Nanos = "nanos" }
}

choice_enum! {
    /// Physical type of a decimal (mirrors `magnolify_parquet::DecimalPhysical`,
    /// without `Auto`, which is what no setting means).
    DecimalPhysical { Int32 = "int32", Int64 = "int64", Fixed = "fixed", Binary = "binary" }
}

impl DecimalPhysical {
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

/// `bloom_filter` (writer defaults) or `bloom_filter(fpp = 0.01, ndv = 100000)`.
#[derive(Clone, Copy, Debug, Default)]
pub struct BloomFilter {
    pub fpp: Option<f64>,
    pub ndv: Option<u64>,
}

impl Decimal {
    /// The largest precision supported (32-byte FIXED_LEN_BYTE_ARRAY).
    pub const MAX_PRECISION: u8 = 76;
}
