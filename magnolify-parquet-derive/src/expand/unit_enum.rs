//! Enums of unit variants: one BYTE_ARRAY leaf annotated ENUM holding the
//! variant's symbol.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::private;
use crate::model::{Container, Variant};

pub fn expand(c: &Container<'_>, variants: &[Variant<'_>]) -> TokenStream {
    let p = private();
    let (impl_generics, ty_generics, where_clause) = c.generics.split_for_impl();
    let ident = c.ident;
    let idents: Vec<_> = variants.iter().map(|v| v.ident).collect();
    let symbols: Vec<&str> = variants.iter().map(|v| v.symbol.as_str()).collect();
    let indices = (0..variants.len()).map(Literal::usize_suffixed);
    quote! {
        #[automatically_derived]
        impl #impl_generics #p::ParquetSchema for #ident #ty_generics #where_clause {
            const LEAVES: usize = 1;
            type ReadPlan = #p::LeafPlan<()>;

            fn schema(
                __name: &str,
                __repetition: #p::Repetition,
                _: &#p::FieldOptions,
            ) -> #p::Result<#p::Type> {
                #p::enum_schema(__name, __repetition)
            }
        }

        #[automatically_derived]
        impl #impl_generics #p::ParquetWrite for #ident #ty_generics #where_clause {
            #[inline]
            fn write(
                &self,
                __sink: &mut #p::ColumnSink,
                __at: #p::WriteAt,
                _: &#p::FieldOptions,
            ) -> #p::Result<()> {
                let __symbol: &'static str = match self {
                    #(Self::#idents => #symbols,)*
                };
                __sink.push_bytes(__at, __symbol.as_bytes())
            }
        }

        #[automatically_derived]
        impl #impl_generics #p::ParquetRead for #ident #ty_generics #where_clause {
            fn resolve(
                __node: &#p::FileNode<'_>,
                _: &#p::FieldOptions,
                __resolver: &mut #p::Resolver<'_>,
            ) -> #p::Result<Self::ReadPlan> {
                #p::enum_resolve(__node, __resolver)
            }

            #[inline]
            fn read(__plan: &Self::ReadPlan, __src: &mut #p::RecordSource) -> #p::Result<Self> {
                match #p::enum_read(__plan, __src, &[#(#symbols),*])? {
                    #(#indices => #p::Ok(Self::#idents),)*
                    // enum_read returns an index into the symbols above.
                    _ => #p::Err(__src.value_error(__plan.cursor, "enum symbol index out of range")),
                }
            }
        }

        #[automatically_derived]
        impl #impl_generics #p::ListElement for #ident #ty_generics #where_clause {}
    }
}
