//! Reading the value of one attribute key. A malformed value is recorded as
//! an error and reads as `None`, so parsing goes on with the next key; only
//! tokens that are not even an expression end the attribute.

use proc_macro2::Span;
use quote::quote;
use syn::meta::ParseNestedMeta;
use syn::{Expr, Lit, LitStr, Token};

use crate::errors::Errors;

/// The key as written, for messages. Here, below `attr/mod.rs` and its
/// other files, which all name it: this module imports none of them.
pub fn key_name(meta: &ParseNestedMeta<'_>) -> String {
    let path = &meta.path;
    quote!(#path).to_string().replace(' ', "")
}

/// Skips whatever follows a key: `= expr`, `(...)` or nothing.
pub fn skip(meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        meta.value()?.parse::<Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        let content;
        syn::parenthesized!(content in meta.input);
        content.parse::<proc_macro2::TokenStream>()?;
    }
    Ok(())
}

/// A key that takes no value (`skip`, `default`).
pub fn flag(meta: &ParseNestedMeta<'_>, errors: &mut Errors) -> syn::Result<bool> {
    if meta.input.peek(Token![=]) || meta.input.peek(syn::token::Paren) {
        skip(meta)?;
        errors.spanned(&meta.path, format!("`{}` takes no value: write `{}` alone", key_name(meta), key_name(meta)));
        return Ok(false);
    }
    Ok(true)
}

/// The expression after `key =`, unwrapping the invisible groups that
/// `macro_rules!` puts around `$x:expr`.
fn expr(meta: &ParseNestedMeta<'_>, example: &str, errors: &mut Errors) -> syn::Result<Option<Expr>> {
    if !meta.input.peek(Token![=]) {
        skip(meta)?;
        errors.spanned(&meta.path, format!("expected a value: `{example}`"));
        return Ok(None);
    }
    let mut expr: Expr = meta.value()?.parse()?;
    while let Expr::Group(g) = expr {
        expr = *g.expr;
    }
    Ok(Some(expr))
}

/// A string literal value: `key = "..."`.
pub fn string(meta: &ParseNestedMeta<'_>, example: &str, errors: &mut Errors) -> syn::Result<Option<LitStr>> {
    let Some(expr) = expr(meta, example, errors)? else { return Ok(None) };
    match expr {
        Expr::Lit(syn::ExprLit { lit: Lit::Str(s), .. }) => Ok(Some(s)),
        other => {
            errors.spanned(other, format!("expected a string literal: `{example}`"));
            Ok(None)
        }
    }
}

/// A string value that must be one of `choices`.
pub fn choice<T: Copy>(
    meta: &ParseNestedMeta<'_>,
    choices: &[(&str, T)],
    errors: &mut Errors,
) -> syn::Result<Option<T>> {
    let key = key_name(meta);
    let Some(first) = choices.first() else { return Ok(None) };
    let Some(lit) = string(meta, &format!("{key} = \"{}\"", first.0), errors)? else { return Ok(None) };
    let text = lit.value();
    match choices.iter().find(|(name, _)| *name == text) {
        Some((_, value)) => Ok(Some(*value)),
        None => {
            let names = choices.iter().map(|(n, _)| format!("\"{n}\"")).collect::<Vec<_>>().join(", ");
            errors.spanned(&lit, format!("unknown `{key}` value \"{text}\"; expected one of {names}"));
            Ok(None)
        }
    }
}

/// An integer literal value of type `N` with the span of the literal;
/// `range` describes the accepted values for the message.
pub fn int<N: std::str::FromStr>(
    meta: &ParseNestedMeta<'_>,
    example: &str,
    range: &str,
    errors: &mut Errors,
) -> syn::Result<Option<(N, Span)>>
where
    N::Err: std::fmt::Display,
{
    let Some(expr) = expr(meta, example, errors)? else { return Ok(None) };
    match &expr {
        Expr::Lit(syn::ExprLit { lit: Lit::Int(i), .. }) => match i.base10_parse::<N>() {
            Ok(n) => Ok(Some((n, i.span()))),
            Err(_) => {
                errors.spanned(i, format!("`{}` must be {range}", key_name(meta)));
                Ok(None)
            }
        },
        other => {
            errors.spanned(other, format!("expected an integer literal: `{example}` ({range})"));
            Ok(None)
        }
    }
}

/// A float literal value in the open interval (0, 1): `fpp = 0.01`.
pub fn probability(meta: &ParseNestedMeta<'_>, example: &str, errors: &mut Errors) -> syn::Result<Option<f64>> {
    let Some(expr) = expr(meta, example, errors)? else { return Ok(None) };
    let parsed = match &expr {
        Expr::Lit(syn::ExprLit { lit: Lit::Float(f), .. }) => f.base10_parse::<f64>().ok(),
        _ => None,
    };
    match parsed {
        Some(p) if p > 0.0 && p < 1.0 => Ok(Some(p)),
        _ => {
            errors.spanned(&expr, format!("expected a probability between 0 and 1, exclusive: `{example}`"));
            Ok(None)
        }
    }
}
