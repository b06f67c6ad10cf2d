//! The generics of the three impls a derive emits (schema, write, read),
//! serde style: each field type that uses a type parameter must implement
//! what the generated code asks of it.
//!
//! The write and read impls take one more lifetime, `'__m`, and reach every
//! field type through `Via<'__m>: WriteField<F>` / `ReadField<'__m, F>`
//! clauses; `'__m` is also the lifetime the read impl borrows from the batch
//! for (`ParquetRead<'__m>`), so a `&'a str` field reads for `'__m: 'a`.
//! A clause naming an impl parameter may be false without an error where
//! the impl is written, so a struct with a field that only writes (`&str`)
//! has no read impl (using it as one is the error, naming the field type).
//!
//! Whether a field type has a Parquet form at all is asked once, by one
//! assertion per field (`form_assertions`), spanned at the field's type.
//! Every impl takes it as given instead, through a clause
//! `for<'__s> F: ParquetSchema`: a clause with a binder is not checked where
//! the impl is written either, so the items that name `F`'s schema (the
//! read plan, `LEAVES`, the method bodies) add no error of their own, and a
//! field type with no Parquet form is reported once, at that type, never at
//! the derive (but for a struct with lifetimes and no type parameters, whose
//! record impl names the struct at other lifetimes: there the derive reports
//! it too). The impls of a struct with such a field hold nowhere.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::{GenericParam, Generics, Ident, Type, WherePredicate};

use super::impls::{Bounds, Impls};
use super::runtime::private;
use crate::types::{erase_lifetimes, uses_params};

pub struct Halves {
    original: Generics,
    schema: Generics,
    write: Generics,
    read: Generics,
    record: Generics,
    /// One statement per field asking that its type have a Parquet form.
    forms: Vec<TokenStream>,
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
        let rebinds = rebinds_lifetimes(generics);
        let mut schema = generics.clone();
        let mut record = if rebinds { generics.clone() } else { with_via_lifetime(generics) };
        let mut write = with_via_lifetime(generics);
        let mut read = with_via_lifetime(generics);
        let mut forms = Vec::new();
        for (ty, repr, plain, span) in fields {
            // Spanned at the field's type, as is everything below that names it.
            let at = quote_spanned!(span=> __mp);
            if plain && uses_params(ty, &params) {
                // The write and read halves extend the schema half: they need its bounds too.
                for generics in [&mut schema, &mut write, &mut read] {
                    add(generics, syn::parse_quote!(#ty: #p::ParquetSchema));
                }
                add(&mut record, syn::parse_quote!(#ty: #p::ParquetSchema));
            } else {
                // Asked once, by the assertion; taken as given by the impls.
                let assumed = quote_spanned!(span=> for<'__s> #repr: #at::ParquetSchema);
                for generics in [&mut schema, &mut write, &mut read] {
                    add(generics, syn::parse_quote!(#assumed));
                }
                if !rebinds {
                    add(&mut record, syn::parse_quote!(#assumed));
                }
                // At `'static`, as the attribute checks name it (`attr_checks`),
                // so that their errors are the same; in a generic context, the
                // lifetimes would need the bounds the struct implies.
                let asked = if plain {
                    let erased = erase_lifetimes(ty);
                    quote!(#erased)
                } else {
                    repr.clone()
                };
                forms.push(quote_spanned!(span=> let _ = <#asked as #at::ParquetSchema>::LEAVES;));
            }
            let write_field = quote_spanned!(span=> #at::Via<'__m>: #at::WriteField<#repr>);
            let read_field = quote_spanned!(span=> #at::Via<'__m>: #at::ReadField<'__m, #repr, <#repr as #at::ParquetSchema>::ReadPlan>);
            add(&mut write, syn::parse_quote!(#write_field));
            // The record impl names its writable form: it needs the write
            // bounds too, unless that form is the struct at other lifetimes
            // (the bounds would tie it to its own, and at any lifetimes they
            // would not hold for a field whose lifetimes are bounded, as in
            // `Label<'a, 'b: 'a>`). There, a field type with no Parquet form
            // is also reported at the derive.
            if !rebinds {
                add(&mut record, syn::parse_quote!(#write_field));
            }
            add(&mut read, syn::parse_quote!(#read_field));
        }
        for ty in defaults {
            if uses_params(ty, &params) {
                add(&mut read, syn::parse_quote!(#ty: #p::Default));
            }
        }
        Halves { original: generics.clone(), schema, write, read, record, forms }
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
        has_type_or_const_params(&self.original)
    }

    /// The assertions that each field type (not using a type parameter:
    /// those are bounded instead) has a Parquet form, the one place where
    /// one without is reported: a constant, or in a generic context a
    /// function never called (its body is still type-checked).
    pub fn form_assertions(&self) -> TokenStream {
        let forms = &self.forms;
        if forms.is_empty() {
            return TokenStream::new();
        }
        if self.is_generic() {
            let (impl_generics, _, where_clause) = self.original.split_for_impl();
            quote! {
                #[allow(dead_code)]
                fn __parquet_forms #impl_generics () #where_clause {
                    #(#forms)*
                }
            }
        } else {
            quote! {
                const _: () = {
                    #(#forms)*
                };
            }
        }
    }
}

fn has_type_or_const_params(generics: &Generics) -> bool {
    generics.type_params().next().is_some() || generics.const_params().next().is_some()
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
