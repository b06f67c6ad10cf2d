//! Newtype structs `struct Id(T);`: transparent, with the form of `T` under
//! the name and options of the field that holds them.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::Type;

use super::halves::Halves;
use super::private;
use crate::model::Container;

pub fn expand(c: &Container<'_>, inner: &Type) -> TokenStream {
    let p = private();
    let halves = Halves::new(c.generics, [(inner, quote!(#inner), true, inner.span())], []);
    let ident = c.ident;
    let ty_generics = halves.ty_generics();
    let (schema_impl, schema_where) = halves.schema();
    let (write_impl, write_where) = halves.write();
    let (read_impl, read_where) = halves.read();
    let via = halves.via();
    // Spanned at the inner type, so that a type without a Parquet form is reported there.
    let schema = quote_spanned!(inner.span()=> <#inner as __mp::ParquetSchema>);
    let write = quote_spanned!(inner.span()=> <#via as __mp::WriteField<#inner>>);
    let read = quote_spanned!(inner.span()=> <#via as __mp::ReadField<#inner, _>>);
    quote! {
        #[automatically_derived]
        impl #schema_impl #p::ParquetSchema for #ident #ty_generics #schema_where {
            const LEAVES: usize = #schema::LEAVES;
            const NULLABLE: bool = #schema::NULLABLE;
            const ACCEPTS: #p::Accepts = #schema::ACCEPTS;
            const NEEDS_DECIMAL: bool = #schema::NEEDS_DECIMAL;
            type ReadPlan = #schema::ReadPlan;

            fn schema(
                __name: &str,
                __repetition: #p::Repetition,
                __opts: &#p::FieldOptions,
            ) -> #p::Result<#p::Type> {
                #schema::schema(__name, __repetition, __opts)
            }

            fn docs(__prefix: &str, __out: &mut #p::Vec<(#p::String, #p::String)>) {
                #schema::docs(__prefix, __out)
            }
        }

        #[automatically_derived]
        impl #write_impl #p::ParquetWrite for #ident #ty_generics #write_where {
            #[inline]
            fn write(
                &self,
                __sink: &mut #p::ColumnSink,
                __at: #p::WriteAt,
                __opts: &#p::FieldOptions,
            ) -> #p::Result<()> {
                #write::write(&self.0, __sink, __at, __opts)
            }
        }

        #[automatically_derived]
        impl #read_impl #p::ParquetRead for #ident #ty_generics #read_where {
            fn resolve(
                __node: &#p::FileNode<'_>,
                __opts: &#p::FieldOptions,
                __resolver: &mut #p::Resolver<'_>,
            ) -> #p::Result<Self::ReadPlan> {
                #read::resolve(__node, __opts, __resolver)
            }

            #[inline]
            fn read(__plan: &Self::ReadPlan, __src: &mut #p::RecordSource) -> #p::Result<Self> {
                #p::Ok(Self(#read::read(__plan, __src)?))
            }

            fn missing() -> #p::Option<Self> {
                match #read::missing() {
                    #p::Some(__v) => #p::Some(Self(__v)),
                    #p::None => #p::None,
                }
            }
        }

        #[automatically_derived]
        impl #schema_impl #p::ListElement for #ident #ty_generics #schema_where {}
    }
}
