//! Where-clauses for generic types, serde style: each field type that uses
//! a type parameter must implement what the generated code asks of it.

use proc_macro2::TokenStream;
use syn::{GenericParam, Generics, Ident, Type, WherePredicate};

use crate::types::uses_params;

/// `generics` with `ty: bound` added for each `(ty, bound)` whose type uses
/// one of the type parameters (other types need no bound: the compiler
/// checks them directly).
pub fn with_bounds<'a>(generics: &Generics, bounds: impl IntoIterator<Item = (&'a Type, TokenStream)>) -> Generics {
    let params: Vec<&Ident> = generics
        .params
        .iter()
        .filter_map(|p| match p {
            GenericParam::Type(t) => Some(&t.ident),
            _ => None,
        })
        .collect();
    let mut out = generics.clone();
    let predicates: Vec<WherePredicate> = bounds
        .into_iter()
        .filter(|(ty, _)| uses_params(ty, &params))
        .map(|(ty, bound)| syn::parse_quote!(#ty: #bound))
        .collect();
    if !predicates.is_empty() {
        out.make_where_clause().predicates.extend(predicates);
    }
    out
}
