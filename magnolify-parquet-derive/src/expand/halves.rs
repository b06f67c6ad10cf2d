//! The generics of the three impls a derive emits (schema, write, read),
//! serde style: each field type that uses a type parameter must implement
//! what the generated code asks of it.
//!
//! The write and read impls take one more lifetime, `'__m`, and reach every
//! field type through `Via<'__m>: WriteField<F>` / `ReadField<F>` clauses.
//! A clause naming an impl parameter may be false without an error where
//! the impl is written, so a struct with a field that only writes (`&str`)
//! has no read impl (using it as one is the error, naming the field type),
//! and a field type with no Parquet form is reported once, by the schema impl.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::{GenericParam, Generics, Ident, Type, WherePredicate};

use super::impls::{Bounds, Impls};
use super::private;
use crate::types::uses_params;

pub struct Halves {
    original: Generics,
    schema: Generics,
    write: Generics,
    read: Generics,
    record: Generics,
}

impl Halves {
    /// The impls' generics for `fields` (field type, the type its form
    /// comes from, whether that is the field type itself: not `with`, and
    /// the span to report its problems at) and the types read with
    /// `Default` (skipped or `default` fields).
    pub fn new<'a>(
        generics: &Generics,
        fields: impl IntoIterator<Item = (&'a Type, TokenStream, bool, Span)>,
        defaults: impl IntoIterator<Item = &'a Type>,
    ) -> Self {
        let p = private();
        let type_params: Vec<Ident> = generics
            .params
            .iter()
            .filter_map(|p| match p {
                GenericParam::Type(t) => Some(t.ident.clone()),
                _ => None,
            })
            .collect();
        let params: Vec<&Ident> = type_params.iter().collect();
        let mut schema = generics.clone();
        let mut record = if rebinds_lifetimes(generics) { generics.clone() } else { with_via_lifetime(generics) };
        let mut write = with_via_lifetime(generics);
        let mut read = with_via_lifetime(generics);
        for (ty, repr, plain, span) in fields {
            if plain && uses_params(ty, &params) {
                // The write and read halves extend the schema half: they need its bounds too.
                for generics in [&mut schema, &mut write, &mut read] {
                    add(generics, syn::parse_quote!(#ty: #p::ParquetSchema));
                }
                add(&mut record, syn::parse_quote!(#ty: #p::ParquetSchema));
            }
            // Spanned at the field's type: a type with no Parquet form is
            // reported there, once, as the schema half reports it.
            let at = quote_spanned!(span=> __mp);
            let write_field = quote_spanned!(span=> #at::Via<'__m>: #at::WriteField<#repr>);
            let read_field =
                quote_spanned!(span=> #at::Via<'__m>: #at::ReadField<#repr, <#repr as #at::ParquetSchema>::ReadPlan>);
            add(&mut write, syn::parse_quote!(#write_field));
            // The record impl names its writable form: it needs the write
            // bounds too, unless that form is the struct at other lifetimes
            // (the bounds would tie it to its own).
            if !rebinds_lifetimes(generics) {
                add(&mut record, syn::parse_quote!(#write_field));
            }
            add(&mut read, syn::parse_quote!(#read_field));
        }
        for ty in defaults {
            if uses_params(ty, &params) {
                add(&mut read, syn::parse_quote!(#ty: #p::Default));
            }
        }
        Halves { original: generics.clone(), schema, write, read, record }
    }

    /// The impls for the type `ident`, each with its half's generics.
    pub fn impls<'a>(&'a self, ident: &'a Ident) -> Impls<'a> {
        Impls {
            ident,
            ty_generics: self.original.split_for_impl().1,
            schema: bounds(&self.schema),
            write: bounds(&self.write),
            read: bounds(&self.read),
        }
    }

    /// The `ParquetRecord` impl's generics: the schema half's bounds and
    /// the write half's (a record names its writable form).
    pub fn record(&self) -> Bounds<'_> {
        bounds(&self.record)
    }

    /// `Via<'__m>`, as the write and read impls name it.
    pub fn via(&self) -> TokenStream {
        let p = private();
        quote!(#p::Via<'__m>)
    }

    /// Whether the type has type or const parameters: its checks then need
    /// a generic context (a free constant cannot name them, and a const
    /// parameter may hide in an array length).
    pub fn is_generic(&self) -> bool {
        self.original.type_params().next().is_some() || self.original.const_params().next().is_some()
    }
}

/// The parameters and where-clause of an impl with `generics`.
fn bounds(generics: &Generics) -> Bounds<'_> {
    let (impl_generics, _, where_clause) = generics.split_for_impl();
    (impl_generics, where_clause)
}

/// Whether `ParquetRecord::Borrowed<'a>` is the struct at lifetime `'a`
/// rather than `Self`: for structs with lifetimes and no type parameters.
fn rebinds_lifetimes(generics: &Generics) -> bool {
    generics.lifetimes().next().is_some() && generics.type_params().next().is_none()
}

fn with_via_lifetime(generics: &Generics) -> Generics {
    let mut out = generics.clone();
    out.params.insert(0, syn::parse_quote!('__m));
    out
}

fn add(generics: &mut Generics, predicate: WherePredicate) {
    generics.make_where_clause().predicates.push(predicate);
}

/// `ParquetRecord::Borrowed<'__a>`: the struct with every lifetime set to
/// `'__a`, so that each record written may borrow for as long as its own
/// call; `Self` for a struct without lifetimes, or with type parameters
/// (whose own bounds may tie them to the lifetimes).
pub fn borrowed_type(ident: &Ident, generics: &Generics) -> TokenStream {
    if !rebinds_lifetimes(generics) {
        return quote!(Self);
    }
    let args = generics.params.iter().map(|p| match p {
        GenericParam::Lifetime(_) => quote!('__a),
        GenericParam::Const(c) => {
            let ident = &c.ident;
            quote!(#ident)
        }
        GenericParam::Type(t) => {
            let ident = &t.ident;
            quote!(#ident)
        }
    });
    quote!(#ident<#(#args),*>)
}
