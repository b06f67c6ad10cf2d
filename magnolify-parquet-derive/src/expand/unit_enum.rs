//! Enums of unit variants: one BYTE_ARRAY leaf annotated STRING (or ENUM,
//! with `annotation = "enum"`) holding the
//! variant's symbol.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::impls::{opts_arg, Impls};
use super::runtime::private;
use crate::model::{Container, Variant};

pub fn expand(c: &Container<'_>, variants: &[Variant<'_>]) -> TokenStream {
    let p = private();
    let (impl_generics, ty_generics, where_clause) = c.generics.split_for_impl();
    let bounds = (impl_generics, where_clause);
    // The read impl names the batch's lifetime (`ParquetRead<'__m>`).
    let mut read_generics = c.generics.clone();
    read_generics.params.insert(0, syn::parse_quote!('__m));
    let (read_impl_generics, _, read_where) = read_generics.split_for_impl();
    let read = (read_impl_generics, read_where);
    let impls = Impls { ident: c.ident, ty_generics, schema: bounds.clone(), write: bounds, read };
    let idents: Vec<_> = variants.iter().map(|v| v.ident).collect();
    let symbols: Vec<&str> = variants.iter().map(|v| v.symbol.as_str()).collect();
    let indices = (0..variants.len()).map(Literal::usize_suffixed);
    let enum_name = c.ident.to_string();
    let other = match variants.iter().position(|v| v.attrs.other.is_some()) {
        Some(i) => quote!(#p::Some(#i)),
        None => quote!(#p::None),
    };
    let schema_impl = impls.schema(
        quote! {
            const LEAVES: usize = 1;
            type ReadPlan = #p::LeafPlan<()>;

            fn enums(__prefix: &str, __out: &mut #p::Vec<(#p::String, &'static [&'static str])>) {
                __out.push((#p::String::from(__prefix), &[#(#symbols),*]));
            }
        },
        opts_arg(false),
        {
            let as_enum = c.attrs.enum_annotation();
            quote!(#p::enum_schema(__name, __repetition, #as_enum))
        },
        None,
    );
    let write_impl = impls.write(
        opts_arg(false),
        quote! {
            let __symbol: &'static str = match self {
                #(Self::#idents => #symbols,)*
            };
            __sink.push_bytes(__at, __symbol.as_bytes())
        },
    );
    let read_impl = impls.read(
        opts_arg(false),
        quote!(#p::enum_resolve(__node, __resolver)),
        quote! {
            match #p::enum_read(__plan, __src, #enum_name, &[#(#symbols),*], #other)? {
                #(#indices => #p::Ok(Self::#idents),)*
                // enum_read returns an index into the symbols above.
                _ => #p::Err(__src.value_error(__plan.cursor, "enum symbol index out of range")),
            }
        },
        TokenStream::new(),
    );
    let list_element = impls.list_element();
    let other_symbol = variants.iter().find(|v| v.attrs.other.is_some()).map(|v| v.symbol.as_str());
    let handles = super::handles::unit_enum(c, &idents, &symbols, other_symbol);
    quote!(#schema_impl #write_impl #read_impl #list_element #handles)
}
