//! Structs with named fields: a Parquet group with one node per stored
//! field, in declaration order.

use proc_macro2::{Literal, Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::Ident;

use super::bounds::with_bounds;
use super::options::options_const;
use super::private;
use crate::model::{Container, Field};

/// A field in the schema, with what every method needs to know of it.
struct Stored<'a> {
    field: &'a Field<'a>,
    /// The type the Parquet form comes from: the field's, or `with::Repr`.
    repr: TokenStream,
    /// `<repr as ParquetField>`, spanned at the field's type (or `with`
    /// path), so that a type without a Parquet form is reported there.
    pf: TokenStream,
    span: Span,
    /// Name of the field's `FieldOptions` constant.
    opts: Ident,
    /// The field's slot in the read plan, and its value once read.
    slot: Ident,
    value: Ident,
    /// Index of its first leaf within the struct's leaves.
    offset: TokenStream,
}

pub fn expand(c: &Container<'_>, fields: &[Field<'_>]) -> TokenStream {
    let p = private();
    let pf = quote!(#p::ParquetField);
    let stored = stored_fields(fields);
    let skipped: Vec<&Field<'_>> = fields.iter().filter(|f| !f.is_stored()).collect();

    let generics = with_bounds(c.generics, bounds(fields));
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let ident = c.ident;

    let option_consts = stored.iter().map(|s| options_const(&s.opts, &s.field.attrs, &c.attrs));
    let pfs: Vec<&TokenStream> = stored.iter().map(|s| &s.pf).collect();
    let slots: Vec<&Ident> = stored.iter().map(|s| &s.slot).collect();

    let schema_nodes = stored.iter().map(schema_node);
    let writes = stored.iter().map(write_field);
    let resolves = stored.iter().map(resolve_field);
    let reads = stored.iter().map(read_field);
    let docs = stored.iter().map(docs_field);
    let field_count = stored.len();

    let stored_inits = stored.iter().map(|s| {
        let (member, value) = (s.field.ident, &s.value);
        quote!(#member: #value)
    });
    let skipped_inits = skipped.iter().map(|f| {
        let (member, ty) = (f.ident, f.ty);
        quote_spanned!(ty.span()=> #member: <#ty as #p::Default>::default())
    });

    let message = c.attrs.rename.as_ref().map_or_else(|| c.ident.to_string(), |r| r.value.clone());
    let doc = match &c.doc {
        Some(d) => quote!(#p::Some(#d)),
        None => quote!(#p::None),
    };

    quote! {
        #(#option_consts)*

        #[automatically_derived]
        impl #impl_generics #pf for #ident #ty_generics #where_clause {
            const LEAVES: usize = #(#pfs::LEAVES)+*;
            type ReadPlan = #p::StructPlan<( #(#p::Slot<#pfs::ReadPlan>,)* )>;

            fn schema(
                __name: &str,
                __repetition: #p::Repetition,
                _: &#p::FieldOptions,
            ) -> #p::Result<#p::Type> {
                let mut __fields = <#p::Vec<#p::Type>>::with_capacity(#field_count);
                #(__fields.push(#schema_nodes);)*
                #p::group(__name, __repetition, #p::None, __fields)
            }

            #[inline]
            fn write(
                &self,
                __sink: &mut #p::ColumnSink,
                __at: #p::WriteAt,
                _: &#p::FieldOptions,
            ) -> #p::Result<()> {
                #(#writes)*
                #p::Ok(())
            }

            fn resolve(
                __node: &#p::FileNode<'_>,
                _: &#p::FieldOptions,
                __resolver: &mut #p::Resolver<'_>,
            ) -> #p::Result<Self::ReadPlan> {
                let __start = #p::struct_start(__node, __resolver)?;
                #(#resolves)*
                #p::Ok(#p::StructPlan { null_check: __start.finish(__resolver), fields: ( #(#slots,)* ) })
            }

            #[inline]
            fn read(__plan: &Self::ReadPlan, __src: &mut #p::RecordSource) -> #p::Result<Self> {
                __plan.check_present(__src)?;
                let ( #(#slots,)* ) = &__plan.fields;
                #(#reads)*
                #p::Ok(Self { #(#stored_inits,)* #(#skipped_inits,)* })
            }

            fn docs(__prefix: &str, __out: &mut #p::Vec<(#p::String, #p::String)>) {
                #(#docs)*
            }
        }

        #[automatically_derived]
        impl #impl_generics #p::ParquetRecord for #ident #ty_generics #where_clause {
            const MESSAGE: &'static str = #message;
            const DOC: #p::Option<&'static str> = #doc;
        }

        #[automatically_derived]
        impl #impl_generics #p::ListElement for #ident #ty_generics #where_clause {}
    }
}

/// The stored fields with their generated names and leaf offsets.
fn stored_fields<'a>(fields: &'a [Field<'a>]) -> Vec<Stored<'a>> {
    let mut out: Vec<Stored<'a>> = Vec::new();
    for (i, field) in fields.iter().filter(|f| f.is_stored()).enumerate() {
        let offset = if out.is_empty() {
            quote!(0usize)
        } else {
            let before = out.iter().map(|s| &s.pf);
            quote!(#(#before::LEAVES)+*)
        };
        let (repr, span) = match &field.attrs.with {
            Some(with) => {
                let path = &with.value;
                (quote!(#path::Repr), path_span(path))
            }
            None => {
                let ty = field.ty;
                (quote!(#ty), ty.span())
            }
        };
        let pf = quote_spanned!(span=> <#repr as ::magnolify_parquet::__private::ParquetField>);
        out.push(Stored {
            field,
            repr,
            pf,
            span,
            opts: format_ident!("__PARQUET_OPTS_{}", i),
            slot: format_ident!("__slot_{}", i),
            value: format_ident!("__value_{}", i),
            offset,
        });
    }
    out
}

/// What each field type must implement when it uses a type parameter.
fn bounds<'a>(fields: &'a [Field<'a>]) -> Vec<(&'a syn::Type, TokenStream)> {
    let p = private();
    let mut out = Vec::new();
    for f in fields {
        if f.is_stored() && f.attrs.with.is_none() {
            out.push((f.ty, quote!(#p::ParquetField)));
        }
        if !f.is_stored() || f.attrs.default.is_some() {
            out.push((f.ty, quote!(#p::Default)));
        }
    }
    out
}

/// The field's schema node, with its field id.
fn schema_node(s: &Stored<'_>) -> TokenStream {
    let p = private();
    let (pf, opts, name) = (&s.pf, &s.opts, &s.field.name);
    let node = quote!(#pf::schema(#name, #p::Repetition::REQUIRED, &#opts)?);
    match &s.field.attrs.field_id {
        Some(id) => {
            let id = Literal::i32_suffixed(id.value);
            quote!(#p::with_id(#node, #id)?)
        }
        None => node,
    }
}

fn write_field(s: &Stored<'_>) -> TokenStream {
    let p = private();
    let (pf, opts, offset, name) = (&s.pf, &s.opts, &s.offset, &s.field.name);
    let member = s.field.ident;
    match &s.field.attrs.with {
        None => quote! {
            #pf::write(&self.#member, __sink, __at.skip_leaves(#offset), &#opts)?;
        },
        Some(with) => {
            let path = &with.value;
            let to_parquet = quote_spanned!(path_span(path)=> #path::to_parquet);
            quote! {
                match #to_parquet(&self.#member) {
                    #p::Ok(__repr) => {
                        #pf::write(&__repr, __sink, __at.skip_leaves(#offset), &#opts)?
                    }
                    #p::Err(__e) => {
                        return #p::Err(#p::with_write_error(__sink, __at.skip_leaves(#offset).leaf(), #name, __e));
                    }
                }
            }
        }
    }
}

fn resolve_field(s: &Stored<'_>) -> TokenStream {
    let p = private();
    let (repr, pf, opts, name, slot) = (&s.repr, &s.pf, &s.opts, &s.field.name, &s.slot);
    let has_default = s.field.attrs.default.is_some();
    let missing_field = quote_spanned!(s.span=> ::magnolify_parquet::__private::missing_field::<#repr>);
    quote! {
        let #slot = match __node.child(#name) {
            #p::Some(__child) => #p::Slot::Read(#pf::resolve(&__child, &#opts, __resolver)?),
            #p::None => #missing_field(__node, #name, #has_default)?,
        };
    }
}

fn read_field(s: &Stored<'_>) -> TokenStream {
    let p = private();
    let (repr, pf, name, slot, value) = (&s.repr, &s.pf, &s.field.name, &s.slot, &s.value);
    let ty = s.field.ty;
    let read = quote!(#pf::read(__p, __src)?);
    let missing_value = quote_spanned!(s.span=> ::magnolify_parquet::__private::missing_value::<#repr>);
    // What a field absent from the file reads: its default, else the missing
    // value of its form (`None`, empty), checked possible when resolving.
    let missing = if s.field.attrs.default.is_some() {
        quote_spanned!(ty.span()=> <#ty as #p::Default>::default())
    } else {
        quote!(#missing_value(#name)?)
    };
    match &s.field.attrs.with {
        None => quote! {
            let #value = match #slot {
                #p::Slot::Read(__p) => #read,
                #p::Slot::Missing => #missing,
            };
        },
        Some(with) => {
            let path = &with.value;
            let from_parquet = quote_spanned!(path_span(path)=> #path::from_parquet);
            let convert = |repr_value: TokenStream| {
                quote! {
                    match #from_parquet(#repr_value) {
                        #p::Ok(__v) => __v,
                        #p::Err(__e) => return #p::Err(#p::with_read_error(__src, #name, __e)),
                    }
                }
            };
            let from_read = convert(read);
            let missing =
                if s.field.attrs.default.is_some() { missing } else { convert(quote!(#missing_value(#name)?)) };
            quote! {
                let #value = match #slot {
                    #p::Slot::Read(__p) => #from_read,
                    #p::Slot::Missing => #missing,
                };
            }
        }
    }
}

fn docs_field(s: &Stored<'_>) -> TokenStream {
    let p = private();
    let (pf, name) = (&s.pf, &s.field.name);
    let own = s.field.doc.as_ref().map(|doc| {
        quote! {
            let mut __text = #p::String::new();
            __text.push_str(#doc);
            __out.push((#p::doc_path(__prefix, #name), __text));
        }
    });
    quote! {
        #own
        #pf::docs(&#p::doc_path(__prefix, #name), __out);
    }
}

/// The span of a `with` path: the string literal it was parsed from.
fn path_span(path: &syn::Path) -> Span {
    path.segments.first().map_or_else(Span::call_site, |s| s.ident.span())
}
