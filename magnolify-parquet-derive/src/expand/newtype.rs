//! Newtype structs `struct Id(T);`: transparent, with the form of `T` under
//! the name and options of the field that holds them.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::Type;

use super::halves::Halves;
use super::impls::opts_arg;
use super::runtime::private;
use crate::model::Container;

pub fn expand(c: &Container<'_>, inner: &Type) -> TokenStream {
    let p = private();
    let halves = Halves::new(c.generics, [(inner, quote!(#inner), true, inner.span())], []);
    let impls = halves.impls(c.ident);
    let via = halves.via();
    // Spanned at the inner type, so that what goes wrong with it is reported there.
    let schema = quote_spanned!(inner.span()=> <#inner as __mp::ParquetSchema>);
    let write = quote_spanned!(inner.span()=> <#via as __mp::WriteField<#inner>>);
    let read = quote_spanned!(inner.span()=> <#via as __mp::ReadField<'__m, #inner, _>>);
    let opts = opts_arg(true);
    let schema_impl = impls.schema(
        quote! {
            const LEAVES: usize = #schema::LEAVES;
            const NULLABLE: bool = #schema::NULLABLE;
            const ACCEPTS: #p::Accepts = #schema::ACCEPTS;
            const NEEDS_DECIMAL: bool = #schema::NEEDS_DECIMAL;
            const MAP_KEY: bool = #schema::MAP_KEY;
            type ReadPlan = #schema::ReadPlan;

            fn bloom_filters(__prefix: &str, __out: &mut #p::Vec<(#p::String, #p::BloomFilterSpec)>) {
                #schema::bloom_filters(__prefix, __out)
            }

            fn enums(__prefix: &str, __out: &mut #p::Vec<(#p::String, &'static [&'static str])>) {
                #schema::enums(__prefix, __out)
            }
        },
        opts.clone(),
        quote!(#schema::schema(__name, __repetition, __opts)),
        Some(quote!(#schema::docs(__prefix, __out))),
    );
    let write_impl = impls.write(opts.clone(), quote!(#write::write(&self.0, __sink, __at, __opts)));
    let read_impl = impls.read(
        opts,
        quote!(#read::resolve(__node, __opts, __resolver)),
        quote!(#p::Ok(Self(#read::read(__plan, __src)?))),
        quote! {
            fn missing() -> #p::Option<Self> {
                match #read::missing() {
                    #p::Some(__v) => #p::Some(Self(__v)),
                    #p::None => #p::None,
                }
            }
        },
    );
    let list_element = impls.list_element();
    let form_assertions = halves.form_assertions();
    let handles = super::handles::newtype(c, inner);
    quote!(#form_assertions #schema_impl #write_impl #read_impl #list_element #handles)
}
