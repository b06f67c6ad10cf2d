//! The stored fields of a struct (those in the schema), each with the
//! type its form comes from, the span its problems are reported at and the
//! names of the locals and constants generated for it: what the record's
//! methods and its attribute checks both read.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::Ident;

use crate::model::Field;

/// A field in the schema, with what every method needs to know of it.
pub struct Stored<'a> {
    pub field: &'a Field<'a>,
    /// The type the Parquet form comes from: the field's, or `with::Repr`.
    pub repr: TokenStream,
    /// `<repr as ParquetSchema>`, spanned at the field's type (or `with`
    /// path), so that what goes wrong with it is reported there.
    pub schema: TokenStream,
    pub span: Span,
    /// Name of the field's `FieldOptions` constant.
    pub opts: Ident,
    /// The field's slot in the read plan, and its value once read.
    pub slot: Ident,
    pub value: Ident,
    /// Where its first leaf is while writing.
    pub at: Ident,
}

/// The stored fields with their generated names.
pub fn stored_fields<'a>(fields: &'a [Field<'a>]) -> Vec<Stored<'a>> {
    fields
        .iter()
        .filter(|f| f.is_stored())
        .enumerate()
        .map(|(i, field)| {
            let (repr, span) = match &field.attrs.with {
                Some(with) => {
                    // Wholly spanned at the path, so that the type it
                    // names is reported there.
                    let path = &with.value;
                    let span = path_span(path);
                    (quote_spanned!(span=> #path::Repr), span)
                }
                None => {
                    let ty = field.ty;
                    (quote!(#ty), ty.span())
                }
            };
            let schema = quote_spanned!(span=> <#repr as __mp::ParquetSchema>);
            Stored {
                field,
                repr,
                schema,
                span,
                opts: format_ident!("__PARQUET_OPTS_{}", i),
                slot: format_ident!("__slot_{}", i),
                value: format_ident!("__value_{}", i),
                at: format_ident!("__at_{}", i),
            }
        })
        .collect()
}

/// The span of a `with` path: the string literal it was parsed from.
pub fn path_span(path: &syn::Path) -> Span {
    path.segments.first().map_or_else(Span::call_site, |s| s.ident.span())
}
