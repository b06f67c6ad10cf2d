//! Field handles for typed predicates (`magnolify_parquet::filter`):
//! `FieldHandle` impls and, on records, `fields()`.
//!
//! A record without generics gets a struct of its fields' handles, each
//! declared through `HandleAs` so that an optional parent makes every
//! handle under it nullable. Its impls carry the field types' bounds as
//! where-clauses: a field type without handles (a hand-written field type)
//! leaves `fields()` unavailable instead of failing the derive. Records with
//! type or const parameters are not addressable. A record that borrows
//! (lifetime parameters only) has the handles of its `'static` form: a
//! predicate on its fields compares their owned form (`&str` as `String`),
//! which is what its columns read as, so one predicate type serves every
//! lifetime the records are lent for.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Generics, Type};

use super::runtime::private;
use super::stored::Stored;
use crate::model::Container;
use crate::types::erase_lifetimes;

/// Whether the container borrows (lifetime parameters).
fn borrows(c: &Container<'_>) -> bool {
    c.generics.lifetimes().next().is_some()
}

/// The record's type with every lifetime `'static` (itself if it has none).
fn static_form(c: &Container<'_>) -> TokenStream {
    let ident = c.ident;
    let lifetimes = c.generics.lifetimes().map(|_| quote!('static));
    if borrows(c) {
        quote!(#ident<#(#lifetimes),*>)
    } else {
        quote!(#ident)
    }
}

/// The container's generics with the record type `__R: 'static` first
/// after the lifetimes (which come before every other parameter).
fn with_root(generics: &Generics) -> Generics {
    let mut generics = generics.clone();
    let lifetimes = generics.lifetimes().count();
    generics.params.insert(lifetimes, syn::parse_quote!(__R: 'static));
    generics
}

/// The impls for a record whose stored fields are `stored`.
pub fn record(c: &Container<'_>, stored: &[Stored<'_>]) -> TokenStream {
    if c.generics.type_params().next().is_some() || c.generics.const_params().next().is_some() {
        return not_addressable(c);
    }
    let p = private();
    let (ident, vis) = (c.ident, c.vis);
    let record = static_form(c);
    let handles = format_ident!("__{}Fields", ident);
    let types: Vec<Type> = stored.iter().map(|s| erase_lifetimes(s.field.ty)).collect();
    let members = stored.iter().zip(&types).map(|(s, ty)| {
        let member = s.field.ident;
        let doc = format!("The handle of `{}`.", s.field.name);
        match s.field.attrs.with {
            Some(_) => quote!(#[doc = #doc] #vis #member: #p::NotAddressable),
            None => quote_spanned!(ty.span()=> #[doc = #doc] #vis #member: <#ty as #p::HandleAs<__R, __N>>::Out),
        }
    });
    let bounds = |n: TokenStream| {
        let addressable = stored.iter().zip(&types).filter(|(s, _)| s.field.attrs.with.is_none());
        let types = addressable.map(|(_, ty)| ty);
        quote!(#(#types: #p::HandleAs<__R, #n>,)*)
    };
    let struct_bounds = bounds(quote!(__N));
    let impl_bounds = {
        let (required, nullable) = (bounds(quote!(#p::Required)), bounds(quote!(#p::Nullable)));
        quote!(#required #nullable)
    };
    let build = |n: TokenStream| {
        let inits = stored.iter().zip(&types).map(|(s, ty)| {
            let (member, name, opts) = (s.field.ident, &s.field.name, &s.opts);
            match s.field.attrs.with {
                Some(_) => quote!(#member: #p::NotAddressable),
                None => quote_spanned!(ty.span()=>
                    #member: <#ty as #p::HandleAs<__R, #n>>::make(
                        __at.child(#name, #opts, |__v: &Self| #p::Some(&__v.#member))
                    )
                ),
            }
        });
        quote!(#handles { #(#inits,)* __record: #p::PhantomData })
    };
    let (required, nullable) = (build(quote!(#p::Required)), build(quote!(#p::Nullable)));
    let handle_impl = struct_of_handles_impl(&record, &handles, &impl_bounds, &required, &nullable);
    let doc = format!(
        "The field handles of [`{ident}`], for typed predicates (`magnolify_parquet::filter`): one member per \
         stored field."
    );
    quote! {
        #[doc = #doc]
        #[allow(non_camel_case_types, private_interfaces, dead_code)]
        #vis struct #handles<__R: 'static, __N> where #struct_bounds {
            #(#members,)*
            #[doc(hidden)]
            #vis __record: #p::PhantomData<fn() -> (__R, __N)>,
        }

        #handle_impl

        #[automatically_derived]
        impl #record {
            /// The handles of the fields, for typed predicates
            /// (`magnolify_parquet::filter`): `fields().name.eq(..)`.
            // The bound names an unused lifetime so that it is checked
            // where `fields()` is called, not here: a field type without
            // handles makes `fields()` unavailable, not the derive fail.
            #[allow(dead_code)]
            #vis fn fields() -> <Self as #p::FieldHandle<Self>>::Handle
            where
                for<'__h> Self: #p::FieldHandle<Self>,
            {
                <Self as #p::FieldHandle<Self>>::handle(#p::At::root())
            }
        }
    }
}

/// `impl FieldHandle` for `record` whose handles are the struct `handles`
/// (required and nullable forms, built by `required` and `nullable` from
/// `__at`), under `bounds`: what records and enums with data share.
pub fn struct_of_handles_impl(
    record: &TokenStream,
    handles: &syn::Ident,
    bounds: &TokenStream,
    required: &TokenStream,
    nullable: &TokenStream,
) -> TokenStream {
    let p = private();
    quote! {
        #[automatically_derived]
        impl<__R: 'static> #p::FieldHandle<__R> for #record where #bounds {
            type Handle = #handles<__R, #p::Required>;
            type OptionalHandle = #handles<__R, #p::Nullable>;
            fn handle(__at: #p::At<__R, Self>) -> Self::Handle {
                #required
            }
            fn optional_handle(__at: #p::At<__R, Self>) -> Self::OptionalHandle {
                #nullable
            }
        }
    }
}

/// A newtype has the handles of what it wraps, and is an argument of them:
/// `fields().user.eq(UserId(7))` as well as `.eq(7)`.
pub fn newtype(c: &Container<'_>, inner: &Type) -> TokenStream {
    if borrows(c) {
        return borrowed_newtype(c, inner);
    }
    let p = private();
    let ident = c.ident;
    let (impl_generics, ty_generics, where_clause) = c.generics.split_for_impl();
    let predicates = where_clause.map(|w| w.predicates.iter().collect::<Vec<_>>()).unwrap_or_default();
    // The bound names an unused lifetime so that a wrapped type which is no
    // filter value (a struct) leaves the impl unusable, not the derive failing.
    let argument = quote! {
        #[automatically_derived]
        impl #impl_generics #p::FilterArg<#inner> for #ident #ty_generics
        where for<'__h> #inner: #p::FilterValue, #(#predicates,)*
        {
            fn into_value(self) -> #inner {
                self.0
            }
        }
    };
    let handle = generic_impl(c, quote!(#inner: #p::FieldHandle<__R>,), handles_of_wrapped(inner));
    quote!(#argument #handle)
}

/// The items of a newtype's `FieldHandle` impl: the handles of `inner`, the
/// type it wraps, reached through `.0`.
fn handles_of_wrapped(inner: &impl quote::ToTokens) -> TokenStream {
    let p = private();
    quote! {
        type Handle = <#inner as #p::FieldHandle<__R>>::Handle;
        type OptionalHandle = <#inner as #p::FieldHandle<__R>>::OptionalHandle;
        fn handle(__at: #p::At<__R, Self>) -> Self::Handle {
            <#inner as #p::FieldHandle<__R>>::handle(__at.map(|__v: &Self| #p::Some(&__v.0)))
        }
        fn optional_handle(__at: #p::At<__R, Self>) -> Self::OptionalHandle {
            <#inner as #p::FieldHandle<__R>>::optional_handle(__at.map(|__v: &Self| #p::Some(&__v.0)))
        }
    }
}

/// A newtype that borrows has the handles of what it wraps in its
/// `'static` form (`struct Name<'a>(&'a str)` compares as a `String`); with
/// type or const parameters it is not addressable.
fn borrowed_newtype(c: &Container<'_>, inner: &Type) -> TokenStream {
    if c.generics.type_params().next().is_some() || c.generics.const_params().next().is_some() {
        return not_addressable(c);
    }
    let p = private();
    let (newtype, inner) = (static_form(c), erase_lifetimes(inner));
    let items = handles_of_wrapped(&inner);
    quote! {
        #[automatically_derived]
        impl<__R: 'static> #p::FieldHandle<__R> for #newtype where #inner: #p::FieldHandle<__R> {
            #items
        }
    }
}

/// A unit enum is a leaf: compared by equality with its symbols (its
/// declaration order is not their byte order, so ranges do not prune).
pub fn unit_enum(c: &Container<'_>, idents: &[&syn::Ident], symbols: &[&str], other: Option<&str>) -> TokenStream {
    if borrows(c) || c.generics.type_params().next().is_some() {
        return TokenStream::new();
    }
    let p = private();
    let ident = c.ident;
    let other_symbol = match other {
        Some(symbol) => quote!(#p::Some(#symbol)),
        None => quote!(#p::None::<&'static str>),
    };
    quote! {
        #[automatically_derived]
        impl<__R: 'static> #p::FieldHandle<__R> for #ident {
            type Handle = #p::Field<__R, Self, #p::Required>;
            type OptionalHandle = #p::Field<__R, Self, #p::Nullable>;
            fn handle(__at: #p::At<__R, Self>) -> Self::Handle {
                #p::Field::new(__at)
            }
            fn optional_handle(__at: #p::At<__R, Self>) -> Self::OptionalHandle {
                #p::Field::new(__at)
            }
        }

        #[automatically_derived]
        impl #p::FilterValue for #ident {
            fn key(&self, __column: &#p::ColumnDescriptor) -> #p::Option<#p::Key> {
                let __symbol: &'static str = match self {
                    #(Self::#idents => #symbols,)*
                };
                // The `other` variant stands for every symbol the enum
                // lacks: it has no key, so nothing is pruned by it.
                if #other_symbol == #p::Some(__symbol) {
                    return #p::None;
                }
                #p::bytes_key(__symbol.as_bytes(), __column)
            }
            fn ordered(&self) -> bool {
                false
            }
        }
    }
}

/// A generic record: a field type, but not addressable, and a `fields()`
/// that does not compile, saying why.
fn not_addressable(c: &Container<'_>) -> TokenStream {
    let p = private();
    let (ident, vis) = (c.ident, c.vis);
    let (impl_generics, ty_generics, where_clause) = c.generics.split_for_impl();
    let fields = quote! {
        #[automatically_derived]
        impl #impl_generics #ident #ty_generics #where_clause {
            /// Not available: records with type or const parameters have no
            /// field handles.
            #[allow(dead_code)]
            #vis fn fields() -> #p::NotAddressable
            where
                Self: #p::WithoutParameters,
            {
                match <Self as #p::WithoutParameters>::unreachable() {}
            }
        }
    };
    let handle = generic_impl(c, TokenStream::new(), not_addressable_items());
    quote!(#fields #handle)
}

/// The items of a `FieldHandle` impl whose handles are `NotAddressable`.
fn not_addressable_items() -> TokenStream {
    let p = private();
    quote! {
        type Handle = #p::NotAddressable;
        type OptionalHandle = #p::NotAddressable;
        fn handle(_: #p::At<__R, Self>) -> #p::NotAddressable {
            #p::NotAddressable
        }
        fn optional_handle(_: #p::At<__R, Self>) -> #p::NotAddressable {
            #p::NotAddressable
        }
    }
}

/// `impl FieldHandle<__R>` for the container, with its generics and
/// where-clause, `bounds` added, and `items`.
fn generic_impl(c: &Container<'_>, bounds: TokenStream, items: TokenStream) -> TokenStream {
    let p = private();
    let ident = c.ident;
    let generics = with_root(c.generics);
    let (impl_generics, _, where_clause) = generics.split_for_impl();
    let (_, ty_generics, _) = c.generics.split_for_impl();
    let predicates = where_clause.map(|w| w.predicates.iter().collect::<Vec<_>>()).unwrap_or_default();
    quote! {
        #[automatically_derived]
        impl #impl_generics #p::FieldHandle<__R> for #ident #ty_generics
        where Self: 'static, #bounds #(#predicates,)*
        {
            #items
        }
    }
}
