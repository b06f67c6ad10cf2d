//! The impls every derive emits, with the trait methods' signatures written
//! once: records, newtypes and enums differ only in the generics of each
//! impl, the associated items and the method bodies.

use proc_macro2::{Ident, TokenStream};
use quote::quote;
use syn::{ImplGenerics, TypeGenerics, WhereClause};

use super::runtime::private;

/// The generics of one impl: its parameters and where-clause.
pub type Bounds<'a> = (ImplGenerics<'a>, Option<&'a WhereClause>);

/// The type an expansion implements the traits for.
pub struct Impls<'a> {
    pub ident: &'a Ident,
    pub ty_generics: TypeGenerics<'a>,
    pub schema: Bounds<'a>,
    pub write: Bounds<'a>,
    pub read: Bounds<'a>,
}

/// How a method names its `&FieldOptions` argument: `_` where it is unused.
pub fn opts_arg(used: bool) -> TokenStream {
    if used {
        quote!(__opts)
    } else {
        quote!(_)
    }
}

impl Impls<'_> {
    /// `impl <bounds> __mp::<trait_name> for Type<..> { <items> }`.
    pub fn block(&self, trait_name: TokenStream, bounds: &Bounds<'_>, items: TokenStream) -> TokenStream {
        let p = private();
        let (ident, ty_generics) = (self.ident, &self.ty_generics);
        let (impl_generics, where_clause) = bounds;
        quote! {
            #[automatically_derived]
            impl #impl_generics #p::#trait_name for #ident #ty_generics #where_clause {
                #items
            }
        }
    }

    /// `ParquetSchema`: the associated `items`, `schema` (taking the field
    /// options as `opts`) with `body`, and `docs` when given.
    pub fn schema(
        &self,
        items: TokenStream,
        opts: TokenStream,
        body: TokenStream,
        docs: Option<TokenStream>,
    ) -> TokenStream {
        let p = private();
        let docs = docs.map(|docs| {
            quote! {
                fn docs(__prefix: &str, __out: &mut #p::Vec<(#p::String, #p::String)>) {
                    #docs
                }
            }
        });
        self.block(
            quote!(ParquetSchema),
            &self.schema,
            quote! {
                #items

                fn schema(
                    __name: &str,
                    __repetition: #p::Repetition,
                    #opts: &#p::FieldOptions,
                ) -> #p::Result<#p::Type> {
                    #body
                }

                #docs
            },
        )
    }

    /// `ParquetWrite`: `write` (taking the field options as `opts`) with `body`.
    pub fn write(&self, opts: TokenStream, body: TokenStream) -> TokenStream {
        let p = private();
        self.block(
            quote!(ParquetWrite),
            &self.write,
            quote! {
                #[inline]
                fn write(
                    &self,
                    __sink: &mut #p::ColumnSink,
                    __at: #p::WriteAt,
                    #opts: &#p::FieldOptions,
                ) -> #p::Result<()> {
                    #body
                }
            },
        )
    }

    /// `ParquetRead`: `resolve` (taking the field options as `opts`) and
    /// `read` with their bodies, then the `extra` methods.
    pub fn read(&self, opts: TokenStream, resolve: TokenStream, read: TokenStream, extra: TokenStream) -> TokenStream {
        let p = private();
        self.block(
            quote!(ParquetRead<'__m>),
            &self.read,
            quote! {
                fn resolve(
                    __node: &#p::FileNode<'_>,
                    #opts: &#p::FieldOptions,
                    __resolver: &mut #p::Resolver<'_>,
                ) -> #p::Result<Self::ReadPlan> {
                    #resolve
                }

                #[inline]
                fn read(__plan: &Self::ReadPlan, __src: &mut #p::RecordSource<'__m>) -> #p::Result<Self> {
                    #read
                }

                #extra
            },
        )
    }

    /// `ListElement`, with the schema impl's bounds.
    pub fn list_element(&self) -> TokenStream {
        self.block(quote!(ListElement), &self.schema, TokenStream::new())
    }
}
