//! Structs with named fields: a Parquet group with one node per stored
//! field, in declaration order. Each of the three halves (schema, write,
//! read) is its own impl; the write and read impls reach their field types
//! through `Via` where-clauses (see `expand::halves`), so a struct whose
//! fields only write has no read impl, and an unsupported field type is
//! reported once, at the field's type, by its assertion.

use proc_macro2::{Literal, TokenStream};
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::Ident;

use super::attr_checks::attribute_checks;
use super::halves::{borrowed_type, Halves};
use super::impls::opts_arg;
use super::options::options_const;
use super::runtime::private;
use super::stored::{path_span, stored_fields, Stored};
use crate::model::{Container, Field, Hidden};

pub fn expand(c: &Container<'_>, fields: &[Field<'_>]) -> TokenStream {
    let p = private();
    let stored = stored_fields(fields);
    let skipped: Vec<&Field<'_>> = fields.iter().filter(|f| !f.is_stored()).collect();
    let halves = Halves::new(
        c.generics,
        stored.iter().map(|s| (s.field.ty, s.repr.clone(), s.field.attrs.with.is_none(), s.span)),
        fields.iter().filter(|f| !f.is_stored() || f.attrs.default.is_some()).map(|f| f.ty),
    );
    let impls = halves.impls(c.ident);
    let via = halves.via();

    let option_consts = stored.iter().map(|s| options_const(&s.opts, &s.field.attrs, &c.attrs));
    // The struct that writes an enum's data checks nothing of its own: the
    // one that reads holds the same types and attributes and checks them.
    let checked = if c.hidden == Some(Hidden::Write) { &stored[..0] } else { &stored[..] };
    let (free_checks, inline_checks): (Vec<_>, Vec<_>) = checked.iter().map(|s| attribute_checks(s, &halves)).unzip();
    // Each field's part of the associated items, wholly spanned at the field.
    let leaves = stored.iter().map(|s| {
        let schema = &s.schema;
        quote_spanned!(s.span=> #schema::LEAVES)
    });
    let plans = stored.iter().map(|s| {
        let schema = &s.schema;
        quote_spanned!(s.span=> __mp::Slot<#schema::ReadPlan>)
    });
    let slots: Vec<&Ident> = stored.iter().map(|s| &s.slot).collect();

    let schema_nodes = stored.iter().map(schema_node);
    let writes = write_fields(&stored, &via);
    let resolves = stored.iter().map(|s| resolve_field(s, &via));
    let reads = stored.iter().map(|s| read_field(s, &via));
    let docs = stored.iter().map(docs_field);
    let blooms = stored.iter().map(bloom_field);
    let enums = stored.iter().map(|s| {
        let (schema, name) = (&s.schema, &s.field.name);
        quote!(#schema::enums(&#p::doc_path(__prefix, #name), __out);)
    });
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
    let borrowed = borrowed_type(c.ident, c.generics);

    let schema_impl = impls.schema(
        quote! {
            const LEAVES: usize = #(#leaves)+*;
            // A group is no map key.
            const MAP_KEY: bool = false;
            type ReadPlan = #p::StructPlan<( #(#plans,)* )>;

            fn bloom_filters(__prefix: &str, __out: &mut #p::Vec<(#p::String, #p::BloomFilterSpec)>) {
                #(#blooms)*
            }

            fn enums(__prefix: &str, __out: &mut #p::Vec<(#p::String, &'static [&'static str])>) {
                #(#enums)*
            }
        },
        opts_arg(false),
        quote! {
            #(#inline_checks)*
            let mut __fields = <#p::Vec<#p::Type>>::with_capacity(#field_count);
            #(__fields.push(#schema_nodes);)*
            #p::group(__name, __repetition, #p::None, __fields)
        },
        Some(quote!(#(#docs)*)),
    );
    let write_impl = impls.write(
        opts_arg(false),
        quote! {
            #writes
            #p::Ok(())
        },
    );
    let read_impl = impls.read(
        opts_arg(false),
        quote! {
            let __start = #p::struct_start(__node, __resolver)?;
            #(#resolves)*
            #p::Ok(#p::StructPlan { null_check: __start.finish(__resolver), fields: ( #(#slots,)* ) })
        },
        quote! {
            __plan.check_present(__src)?;
            let ( #(#slots,)* ) = &__plan.fields;
            #(#reads)*
            #p::Ok(Self { #(#stored_inits,)* #(#skipped_inits,)* })
        },
        TokenStream::new(),
    );
    let record_impl = impls.block(
        quote!(ParquetRecord),
        &halves.record(),
        quote! {
            const MESSAGE: &'static str = #message;
            const DOC: #p::Option<&'static str> = #doc;
            type Borrowed<'__a> = #borrowed;
        },
    );
    let list_element = impls.list_element();

    // Nor does it assert its field types' forms.
    let form_assertions = if c.hidden == Some(Hidden::Write) { TokenStream::new() } else { halves.form_assertions() };
    // A hidden struct (of an enum with data) is no record and has no
    // handles; the one that writes has no read impl either.
    let (record_impl, handles) = match c.hidden {
        Some(_) => (TokenStream::new(), TokenStream::new()),
        None => (record_impl, super::handles::record(c, &stored)),
    };
    let read_impl = if c.hidden == Some(Hidden::Write) { TokenStream::new() } else { read_impl };

    quote! {
        #(#option_consts)*
        #form_assertions
        #(#free_checks)*

        #schema_impl

        #write_impl

        #read_impl

        #record_impl

        #list_element

        #handles
    }
}

/// The field's schema node, with its field id.
fn schema_node(s: &Stored<'_>) -> TokenStream {
    let p = private();
    let (schema, opts, name) = (&s.schema, &s.opts, &s.field.name);
    let node = quote!(#schema::schema(#name, #p::Repetition::REQUIRED, &#opts)?);
    match &s.field.attrs.field_id {
        Some(id) => {
            let id = Literal::i32_suffixed(id.value);
            quote!(#p::with_id(#node, #id)?)
        }
        None => node,
    }
}

/// Each field written at its first leaf: the previous field's leaf plus the
/// previous field's leaf count, so the generated code grows linearly with
/// the number of fields.
fn write_fields(stored: &[Stored<'_>], via: &TokenStream) -> TokenStream {
    let p = private();
    let mut out = TokenStream::new();
    let mut previous: Option<&Stored<'_>> = None;
    for s in stored {
        let at = &s.at;
        out.extend(match previous {
            None => quote!(let #at = __at;),
            Some(prev) => {
                let (prev_at, prev_schema) = (&prev.at, &prev.schema);
                quote!(let #at = #prev_at.skip_leaves(#prev_schema::LEAVES);)
            }
        });
        let (repr, opts, name) = (&s.repr, &s.opts, &s.field.name);
        let member = s.field.ident;
        let write = quote_spanned!(s.span=> <#via as __mp::WriteField<#repr>>::write);
        out.extend(match &s.field.attrs.with {
            None => quote! {
                #write(&self.#member, __sink, #at, &#opts)?;
            },
            Some(with) => {
                let path = &with.value;
                // The call spanned at the attribute: functions written for
                // another type than the field's are reported there.
                let to_parquet = quote_spanned!(at_attribute(path)=> #path::to_parquet(&self.#member));
                quote! {
                    match #to_parquet {
                        #p::Ok(__repr) => #write(&__repr, __sink, #at, &#opts)?,
                        #p::Err(__e) => {
                            return #p::Err(#p::with_write_error(__sink, #at.leaf(), #name, __e));
                        }
                    }
                }
            }
        });
        previous = Some(s);
    }
    out
}

fn resolve_field(s: &Stored<'_>, via: &TokenStream) -> TokenStream {
    let p = private();
    let (repr, opts, name, slot) = (&s.repr, &s.opts, &s.field.name, &s.slot);
    let has_default = s.field.attrs.default.is_some();
    let read = quote_spanned!(s.span=> <#via as __mp::ReadField<'__m, #repr, _>>);
    let missing_field = quote_spanned!(s.span=> __mp::missing_field::<#repr>);
    quote! {
        let #slot = match __node.child(#name) {
            #p::Some(__child) => #p::Slot::Read(#read::resolve(&__child, &#opts, __resolver)?),
            #p::None => #missing_field(__node, #name, #has_default, #read::missing().is_some())?,
        };
    }
}

fn read_field(s: &Stored<'_>, via: &TokenStream) -> TokenStream {
    let p = private();
    let (repr, name, slot, value) = (&s.repr, &s.field.name, &s.slot, &s.value);
    let ty = s.field.ty;
    let read = quote_spanned!(s.span=> <#via as __mp::ReadField<'__m, #repr, _>>);
    // What a field absent from the file reads: its default, else the missing
    // value of its form (`None`, empty), checked possible when resolving.
    let missing_value = quote!(#p::missing_value(#read::missing(), #name)?);
    let default = s.field.attrs.default.is_some().then(|| quote_spanned!(ty.span()=> <#ty as #p::Default>::default()));
    match &s.field.attrs.with {
        None => {
            let missing = default.unwrap_or(missing_value);
            quote! {
                let #value = match #slot {
                    #p::Slot::Read(__p) => #read::read(__p, __src)?,
                    #p::Slot::Missing => #missing,
                };
            }
        }
        Some(with) => {
            let path = &with.value;
            // Spanned at the attribute, as the write: a function that gives
            // another type than the field's is reported there.
            let span = at_attribute(path);
            let convert = |repr_value: TokenStream| {
                quote_spanned! {span=>
                    match #path::from_parquet(#repr_value) {
                        #p::Ok(__v) => __v,
                        #p::Err(__e) => return #p::Err(#p::with_read_error(__src, #name, __e)),
                    }
                }
            };
            let from_read = convert(quote!(#read::read(__p, __src)?));
            let missing = default.unwrap_or_else(|| convert(missing_value));
            // Typed, so that a mismatch is found in the conversion above.
            quote! {
                let #value: #ty = match #slot {
                    #p::Slot::Read(__p) => #from_read,
                    #p::Slot::Missing => #missing,
                };
            }
        }
    }
}

fn docs_field(s: &Stored<'_>) -> TokenStream {
    let p = private();
    let (schema, name) = (&s.schema, &s.field.name);
    let own = s.field.doc.as_ref().map(|doc| {
        quote! {
            let mut __text = #p::String::new();
            __text.push_str(#doc);
            __out.push((#p::doc_path(__prefix, #name), __text));
        }
    });
    quote! {
        #own
        #schema::docs(&#p::doc_path(__prefix, #name), __out);
    }
}

/// A field's part of `bloom_filters`: its own `bloom_filter`, then those of
/// its type (a nested struct's fields).
fn bloom_field(s: &Stored<'_>) -> TokenStream {
    let p = private();
    let (schema, name) = (&s.schema, &s.field.name);
    let own = s.field.attrs.bloom_filter.as_ref().map(|bloom| {
        let fpp = match bloom.value.fpp {
            Some(f) => quote!(#p::Some(#f)),
            None => quote!(#p::None),
        };
        let ndv = match bloom.value.ndv {
            Some(n) => quote!(#p::Some(#n)),
            None => quote!(#p::None),
        };
        quote!(__out.push((#p::doc_path(__prefix, #name), #p::BloomFilterSpec { fpp: #fpp, ndv: #ndv }));)
    });
    quote! {
        #own
        #schema::bloom_filters(&#p::doc_path(__prefix, #name), __out);
    }
}

/// Where generated code that calls a `with` module is reported: at the
/// attribute, with the derive's own name resolution (a span taken whole
/// from the attribute would resolve `self` and the generated locals with
/// the attribute's hygiene, which a `macro_rules!` caller may not share).
fn at_attribute(path: &syn::Path) -> proc_macro2::Span {
    proc_macro2::Span::call_site().located_at(path_span(path))
}
