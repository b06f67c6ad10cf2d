//! serde's attributes beside ours: the derive sees every attribute of the
//! item, and a `#[serde(rename)]` or `#[serde(skip)]` that silently did
//! nothing to the Parquet schema would surprise whoever wrote it. Those
//! that change a name or a field's presence both ways (`rename`,
//! `rename_all`, `skip`, `flatten`) are refused unless the same place also
//! says what Parquet should do (`#[parquet(..)]`); the others
//! (`skip_serializing`, `default`, `serialize_with`, `borrow`, ...) concern
//! one direction of serde alone.

use syn::meta::ParseNestedMeta;
use syn::Attribute;

use crate::errors::Errors;

/// Where serde's attributes are read.
pub enum SerdePlace<'a> {
    /// On the struct: `has` says which container keys of ours are set.
    Container { has: &'a dyn Fn(&str) -> bool },
    /// On the field `name`: `has` says which field keys of ours are set.
    Field { name: &'a str, has: &'a dyn Fn(&str) -> bool },
}

/// Records an error for each serde key in `attrs` that would change the
/// Parquet schema if it applied, and that no key of ours decides.
pub fn check_serde(attrs: &[Attribute], place: &SerdePlace<'_>, errors: &mut Errors) {
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        // serde reports its own syntax errors; ours would be a second one.
        let _ = attr.parse_nested_meta(|meta| {
            let key = meta.path.get_ident().map(ToString::to_string).unwrap_or_default();
            let value = skip_value(&meta)?;
            if let Some(message) = refusal(&key, value.as_deref(), place) {
                errors.spanned(&meta.path, message);
            }
            Ok(())
        });
    }
}

/// Consumes what follows a key (`= value` or `(...)`); the string of a
/// `= "..."` value.
fn skip_value(meta: &ParseNestedMeta<'_>) -> syn::Result<Option<String>> {
    if meta.input.peek(syn::Token![=]) {
        let expr: syn::Expr = meta.value()?.parse()?;
        if let syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) = expr {
            return Ok(Some(s.value()));
        }
    } else if meta.input.peek(syn::token::Paren) {
        let _: proc_macro2::TokenTree = meta.input.parse()?;
    }
    Ok(None)
}

/// The error for serde's `key` at `place`, if it would go unheeded.
fn refusal(key: &str, value: Option<&str>, place: &SerdePlace<'_>) -> Option<String> {
    let shown = match value {
        Some(v) => format!("#[serde({key} = {v:?})]"),
        None => format!("#[serde({key})]"),
    };
    match (place, key) {
        (_, "flatten") => Some(format!(
            "`{shown}` has no Parquet form: a flattened struct's fields would be columns of this one; \
             nest the struct as a field (a group), or write its fields here"
        )),
        (SerdePlace::Field { name, has }, "rename") if !has("rename") => {
            let same = value.map_or_else(|| "\"...\"".to_owned(), |v| format!("{v:?}"));
            Some(format!(
                "`{shown}` does not rename the Parquet column: add `#[parquet(rename = {same})]` for the same \
                 name, or `#[parquet(rename = {name:?})]` to keep the field's name"
            ))
        }
        (SerdePlace::Field { has, .. }, "skip") if !has("skip") => Some(format!(
            "`{shown}` does not leave the field out of the Parquet schema: add `#[parquet(skip)]` to leave it \
                 out (it then reads as `Default::default()`), or remove the serde attribute"
        )),
        (SerdePlace::Container { has }, "rename_all") if !has("rename_all") => {
            let same = value.map_or_else(|| "\"...\"".to_owned(), |v| format!("{v:?}"));
            Some(format!(
                "`{shown}` does not rename the Parquet columns: add `#[parquet(rename_all = {same})]` for the same \
                 names, or remove the serde attribute"
            ))
        }
        (SerdePlace::Container { has }, "rename") if !has("rename") => {
            let same = value.map_or_else(|| "\"...\"".to_owned(), |v| format!("{v:?}"));
            Some(format!(
                "`{shown}` does not rename the Parquet group: add `#[parquet(rename = {same})]` for the same name"
            ))
        }
        _ => None,
    }
}
