//! Attributes checked against the field's type at compile time: a
//! `timestamp` unit, a `decimal(..)`, a `list` layout or `json` only applies
//! to a type whose form it changes, and a decimal needs its `decimal(..)`. Each
//! check is a constant assertion on the type's `ACCEPTS` / `NEEDS_DECIMAL`,
//! spanned at the attribute (or the field's type), so the error lands there.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::Type;

use super::halves::Halves;
use super::runtime::private;
use super::stored::Stored;
use crate::types::{erase_lifetimes, type_text};

/// The checks of one field: as free constant items, and as inline
/// constants for `schema()` (for types that use a type parameter, which
/// only a generic context can name; they fail when the type is used).
pub fn attribute_checks(s: &Stored<'_>, halves: &Halves) -> (TokenStream, TokenStream) {
    let p = private();
    let attrs = &s.field.attrs;
    let repr_ty: Option<&Type> = attrs.with.is_none().then_some(s.field.ty);
    let shown = match repr_ty {
        Some(ty) => type_text(ty),
        None => "the `with` module's Repr".to_owned(),
    };
    let mut checks: Vec<(Span, TokenStream, String)> = Vec::new();
    if let Some(t) = &attrs.timestamp {
        checks.push((
            t.span,
            quote!(ACCEPTS.timestamp),
            format!(
                "`timestamp` does not apply to `{shown}`: it sets the unit of chrono::NaiveTime, NaiveDateTime and \
                 DateTime<Utc>, and of Options, lists and maps of them"
            ),
        ));
    }
    if let Some(j) = &attrs.json {
        checks.push((
            j.span,
            quote!(ACCEPTS.json),
            format!(
                "`json` does not apply to `{shown}`: it annotates text (String, &str, Box<str>, Cow<str>, and \
                 Options, lists and maps of them) as JSON; serde_json::Value is always JSON"
            ),
        ));
    }
    if let Some(d) = &attrs.decimal {
        checks.push((
            d.span,
            quote!(ACCEPTS.decimal),
            format!(
                "`decimal` does not apply to `{shown}`: it sets the precision and scale of rust_decimal::Decimal and \
                 bigdecimal::BigDecimal, and of Options, lists and maps of them"
            ),
        ));
    } else {
        checks.push((
            s.span,
            quote!(NEEDS_DECIMAL == false),
            format!("`{shown}` holds a decimal: add #[parquet(decimal(precision = P, scale = S))] to the field"),
        ));
    }
    if let Some(l) = &attrs.list {
        checks.push((
            l.span,
            quote!(ACCEPTS.list),
            format!(
                "`list` does not apply to `{shown}`: it sets the layout of lists (Vec<T>, &[T]) and of Options and \
                 maps of them; Vec<u8> is a byte string, not a list"
            ),
        ));
    }
    let generic = halves.is_generic();
    let repr = &s.repr;
    let mut free = TokenStream::new();
    let mut inline = TokenStream::new();
    for (span, condition, message) in checks {
        if generic {
            inline.extend(quote_spanned! {span=>
                const { ::core::assert!(<#repr as #p::ParquetSchema>::#condition, #message) };
            });
        } else {
            // A free constant cannot name the struct's lifetimes: any
            // lifetime will do, the answer does not depend on it.
            let ty = match repr_ty {
                Some(ty) => {
                    let erased = erase_lifetimes(ty);
                    quote!(#erased)
                }
                None => repr.clone(),
            };
            free.extend(quote_spanned! {span=>
                const _: () = ::core::assert!(<#ty as #p::ParquetSchema>::#condition, #message);
            });
        }
    }
    (free, inline)
}
