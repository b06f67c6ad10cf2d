//! Attributes checked against the field's type at compile time: a
//! `timestamp` unit, a `decimal(..)` or a `list` layout only applies to a
//! type whose form it changes, and a decimal needs its `decimal(..)`. Each
//! check is a constant assertion on the type's `ACCEPTS` / `NEEDS_DECIMAL`,
//! spanned at the attribute (or the field's type), so the error lands there.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::Type;

use super::halves::Halves;
use super::private;
use super::record::Stored;

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

/// `ty` with every lifetime made `'static`.
pub(super) fn erase_lifetimes(ty: &Type) -> Type {
    let mut ty = ty.clone();
    syn::visit_mut::visit_type_mut(&mut StaticLifetimes, &mut ty);
    ty
}

struct StaticLifetimes;

impl syn::visit_mut::VisitMut for StaticLifetimes {
    fn visit_lifetime_mut(&mut self, lifetime: &mut syn::Lifetime) {
        *lifetime = syn::Lifetime::new("'static", lifetime.span());
    }
    fn visit_type_reference_mut(&mut self, reference: &mut syn::TypeReference) {
        if reference.lifetime.is_none() {
            reference.lifetime = Some(syn::Lifetime::new("'static", proc_macro2::Span::call_site()));
        }
        syn::visit_mut::visit_type_reference_mut(self, reference);
    }
}

/// A type as a user writes it: `Vec<Option<u8>>`, not `Vec < Option < u8 > >`.
pub fn type_text(ty: &Type) -> String {
    let raw = quote!(#ty).to_string();
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if c == ' ' {
            let prev = out.chars().last();
            let next = chars.peek().copied();
            let glue = matches!(prev, Some('<' | '&' | ':' | '\'' | '(' | '['))
                || matches!(next, Some('<' | '>' | ':' | ',' | ')' | ']' | ';'));
            if glue {
                continue;
            }
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_read_as_written() {
        let t: Type = syn::parse_quote!(Vec<Option<u8>>);
        assert_eq!(type_text(&t), "Vec<Option<u8>>");
        let t: Type = syn::parse_quote!(&'a [std::string::String]);
        assert_eq!(type_text(&t), "&'a [std::string::String]");
        let t: Type = syn::parse_quote!(HashMap<String, (u8, u16)>);
        assert_eq!(type_text(&t), "HashMap<String, (u8, u16)>");
    }
}
