//! Newtype structs `struct Id(T);`: transparent, with the form of `T` under
//! the name and options of the field that holds them.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::Type;

use super::bounds::with_bounds;
use super::private;
use crate::model::Container;

pub fn expand(c: &Container<'_>, inner: &Type) -> TokenStream {
    let p = private();
    let pf = quote!(#p::ParquetField);
    let generics = with_bounds(c.generics, [(inner, pf.clone())]);
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let ident = c.ident;
    // Spanned at the inner type, so that a type without a Parquet form is reported there.
    let inner_pf = quote_spanned!(inner.span()=> <#inner as ::magnolify_parquet::__private::ParquetField>);
    quote! {
        #[automatically_derived]
        impl #impl_generics #pf for #ident #ty_generics #where_clause {
            const LEAVES: usize = #inner_pf::LEAVES;
            const NULLABLE: bool = #inner_pf::NULLABLE;
            type ReadPlan = #inner_pf::ReadPlan;

            fn schema(
                __name: &str,
                __repetition: #p::Repetition,
                __opts: &#p::FieldOptions,
            ) -> #p::Result<#p::Type> {
                #inner_pf::schema(__name, __repetition, __opts)
            }

            #[inline]
            fn write(
                &self,
                __sink: &mut #p::ColumnSink,
                __at: #p::WriteAt,
                __opts: &#p::FieldOptions,
            ) -> #p::Result<()> {
                #inner_pf::write(&self.0, __sink, __at, __opts)
            }

            fn resolve(
                __node: &#p::FileNode<'_>,
                __opts: &#p::FieldOptions,
                __resolver: &mut #p::Resolver<'_>,
            ) -> #p::Result<Self::ReadPlan> {
                #inner_pf::resolve(__node, __opts, __resolver)
            }

            #[inline]
            fn read(__plan: &Self::ReadPlan, __src: &mut #p::RecordSource) -> #p::Result<Self> {
                #p::Ok(Self(#inner_pf::read(__plan, __src)?))
            }

            fn missing() -> #p::Option<Self> {
                match #inner_pf::missing() {
                    #p::Some(__v) => #p::Some(Self(__v)),
                    #p::None => #p::None,
                }
            }

            fn docs(__prefix: &str, __out: &mut #p::Vec<(#p::String, #p::String)>) {
                #inner_pf::docs(__prefix, __out)
            }
        }

        #[automatically_derived]
        impl #impl_generics #p::ListElement for #ident #ty_generics #where_clause {}
    }
}
