//! Enums with data. The default layout is a group of a tag column,
//! `variant` (the variant's symbol, STRING or with `annotation = "enum"`
//! ENUM), and one optional field per
//! variant with data, named by the variant and sorted by name, so the order
//! of the variants in the source never changes the file. With
//! `union = "avro"` it is parquet-avro's union layout: optional
//! `member0..memberN` in declaration order, exactly one set.
//!
//! The enum writes through a hidden struct of references to its data and
//! reads through a hidden struct that owns it, both expanded as records, so
//! every field type, attribute and nesting a struct supports works in a
//! variant. What a struct cannot say is the runtime's: the tag
//! (`VariantTag`) and the check that the field set is the tag's
//! (`EnumPlan::mismatch`).

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Attribute, DeriveInput, Ident};

use super::enum_handles::Named;
use super::impls::{opts_arg, Impls};
use super::runtime::private;
use crate::attr::{ListLayout, UnionLayout};
use crate::check::{check, TAG};
use crate::errors::Errors;
use crate::model::{Body, Container, Hidden, Variant, VariantData};

/// A variant with data: its field in the group.
struct Member<'v, 'a> {
    variant: &'v Variant<'a>,
    /// Its member in the hidden structs.
    ident: Ident,
    /// Its Parquet name.
    name: String,
    /// Its type in the struct that reads, and in the one that writes.
    read_ty: TokenStream,
    write_ty: TokenStream,
}

pub fn expand(c: &Container<'_>, variants: &[Variant<'_>], layout: Option<UnionLayout>) -> TokenStream {
    let p = private();
    let (ident, vis) = (c.ident, c.vis);
    let read = format_ident!("__{}Read", ident);
    let write = format_ident!("__{}Write", ident);
    let symbols = format_ident!("__{}Symbols", ident);
    let list = c.attrs.list.as_ref().map(|l| list_attribute(l.value));

    let mut hidden = TokenStream::new();
    let mut members: Vec<Member<'_, '_>> = Vec::new();
    for (index, v) in variants.iter().enumerate() {
        let (read_ty, write_ty) = match &v.data {
            VariantData::Unit => continue,
            VariantData::Newtype(field, _) => {
                let ty = &field.ty;
                (quote!(#ty), quote_spanned!(ty.span()=> &'__r #ty))
            }
            VariantData::Struct(fields) => {
                let (read_v, write_v) = (format_ident!("{}{}", read, v.ident), format_ident!("{}{}", write, v.ident));
                let read_fields = fields.iter().map(|f| {
                    let (attrs, member, ty) = (kept(f.written), f.ident, f.ty);
                    quote!(#(#attrs)* #member: #ty)
                });
                let write_fields = fields.iter().filter(|f| f.is_stored()).map(|f| {
                    let (attrs, member, ty) = (kept(f.written), f.ident, f.ty);
                    quote!(#(#attrs)* #member: &'__r #ty)
                });
                hidden.extend(hidden_struct(quote!(#list #vis struct #read_v { #(#read_fields,)* }), Hidden::Read));
                hidden.extend(hidden_struct(
                    quote!(#list #vis struct #write_v<'__r> { #(#write_fields,)* }),
                    Hidden::Write,
                ));
                (quote!(#read_v), quote!(#write_v<'__r>))
            }
        };
        let name = v.symbol.clone();
        members.push(Member { variant: v, ident: format_ident!("__v{}", index), name, read_ty, write_ty });
    }
    match layout {
        None => members.sort_by(|a, b| a.name.cmp(&b.name)),
        Some(UnionLayout::Avro) => {
            for (k, m) in members.iter_mut().enumerate() {
                m.name = format!("member{k}");
            }
        }
    }

    // The group: the tag (default layout), then each member, optional.
    let tag = layout.is_none().then(|| quote!(#[parquet(rename = #TAG)] __tag: #p::VariantTag<#symbols>,));
    let group_fields = |write_side: bool| {
        let fields = members.iter().map(|m| {
            let (member, name) = (&m.ident, &m.name);
            let ty = if write_side { &m.write_ty } else { &m.read_ty };
            let doc = m.variant.doc.as_ref().map(|d| quote!(#[doc = #d]));
            let attrs = match &m.variant.data {
                VariantData::Newtype(field, _) => kept(&field.attrs).filter(|a| doc.is_none() || !is_doc(a)).collect(),
                _ => Vec::new(),
            };
            // Spanned at the variant's type: its problems are reported there.
            let span = match &m.variant.data {
                VariantData::Newtype(field, _) => field.ty.span(),
                _ => m.variant.ident.span(),
            };
            let ty = quote_spanned!(span=> ::core::option::Option<#ty>);
            quote!(#doc #(#attrs)* #[parquet(rename = #name)] #member: #ty)
        });
        quote!(#tag #(#fields,)*)
    };
    let (read_fields, write_fields) = (group_fields(false), group_fields(true));
    hidden.extend(hidden_struct(quote!(#list #vis struct #read { #read_fields }), Hidden::Read));
    hidden.extend(hidden_struct(quote!(#list #vis struct #write<'__r> { #write_fields }), Hidden::Write));

    let enum_name = ident.to_string();
    let all_symbols = variants.iter().map(|v| v.symbol.as_str());
    let other = match variants.iter().position(|v| v.attrs.other.is_some()) {
        Some(i) => quote!(#p::Some(#i)),
        None => quote!(#p::None),
    };
    let as_enum = c.attrs.enum_annotation();
    let symbols_impl = quote! {
        #[allow(non_camel_case_types)]
        #vis struct #symbols;
        impl #p::VariantSymbols for #symbols {
            const ENUM: &'static str = #enum_name;
            const SYMBOLS: &'static [&'static str] = &[#(#all_symbols),*];
            const OTHER: #p::Option<usize> = #other;
            const ENUM_ANNOTATION: bool = #as_enum;
        }
    };

    // An enum with data has no generics of its own; the read impl names
    // the batch's lifetime. The where-clauses have binders, so they are not
    // checked where the impls are written: a variant type without a
    // Parquet form is reported at that type by the assertions of the
    // hidden structs that read (`tests/ui/enum_variant_type.stderr`: once
    // per type, and once more at a struct variant's name).
    let (impl_generics, ty_generics, _) = c.generics.split_for_impl();
    let read_generics: syn::Generics = syn::parse_quote!(<'__m>);
    let schema_where: syn::WhereClause = syn::parse_quote!(where for<'__s> #read: #p::ParquetSchema);
    // The write and read impls repeat the schema's clause: `ParquetSchema`
    // is their supertrait, which is checked where they are written.
    let write_where: syn::WhereClause = syn::parse_quote!(
        where for<'__s> #read: #p::ParquetSchema, for<'__s> #write<'__s>: #p::ParquetWrite
    );
    let read_where: syn::WhereClause = syn::parse_quote!(
        where for<'__s> #read: #p::ParquetSchema, for<'__s> #read: #p::ParquetRead<'__m>
    );
    let impls = Impls {
        ident,
        ty_generics,
        schema: (impl_generics.clone(), Some(&schema_where)),
        write: (impl_generics, Some(&write_where)),
        read: (read_generics.split_for_impl().0, Some(&read_where)),
    };
    let schema = quote!(<#read as #p::ParquetSchema>);
    let schema_impl = impls.schema(
        quote! {
            const LEAVES: usize = #schema::LEAVES;
            // A group is no map key.
            const MAP_KEY: bool = false;
            type ReadPlan = #p::EnumPlan<#schema::ReadPlan>;

            fn bloom_filters(__prefix: &str, __out: &mut #p::Vec<(#p::String, #p::BloomFilterSpec)>) {
                #schema::bloom_filters(__prefix, __out)
            }

            fn enums(__prefix: &str, __out: &mut #p::Vec<(#p::String, &'static [&'static str])>) {
                #schema::enums(__prefix, __out)
            }
        },
        opts_arg(true),
        quote!(#schema::schema(__name, __repetition, __opts)),
        Some(quote!(#schema::docs(__prefix, __out))),
    );
    let write_impl = impls.write(opts_arg(true), write_body(variants, &members, &write, layout.is_none()));
    let read_impl = impls.read(
        opts_arg(true),
        quote! {
            let __inner = <#read as #p::ParquetRead<'__m>>::resolve(__node, __opts, __resolver)?;
            #p::Ok(#p::EnumPlan::new(__node, __inner))
        },
        read_body(variants, &members, &read, &symbols, layout.is_none()),
        TokenStream::new(),
    );
    let list_element = impls.list_element();
    let named: Vec<Named<'_, '_>> =
        members.iter().map(|m| Named { variant: m.variant, name: m.name.clone() }).collect();
    let handles = super::enum_handles::data_enum(c, variants, &named, layout.is_none());
    quote!(#hidden #symbols_impl #schema_impl #write_impl #read_impl #list_element #handles)
}

/// `write`: the hidden struct of references, built from the variant.
fn write_body(variants: &[Variant<'_>], members: &[Member<'_, '_>], write: &Ident, tagged: bool) -> TokenStream {
    let p = private();
    let arms = variants.iter().enumerate().map(|(index, v)| {
        let variant = v.ident;
        let tag = tagged.then(|| quote!(__tag: #p::VariantTag::new(#index),));
        let (pattern, value) = match &v.data {
            VariantData::Unit => (quote!(Self::#variant), TokenStream::new()),
            VariantData::Newtype(..) => (quote!(Self::#variant(__f)), quote!(__f)),
            VariantData::Struct(fields) => {
                let stored: Vec<&Ident> = fields.iter().filter(|f| f.is_stored()).map(|f| f.ident).collect();
                let bindings: Vec<Ident> = (0..stored.len()).map(|i| format_ident!("__f{}", i)).collect();
                let write_v = format_ident!("{}{}", write, variant);
                (quote!(Self::#variant { #(#stored: #bindings,)* .. }), quote!(#write_v { #(#stored: #bindings,)* }))
            }
        };
        let fields = members.iter().map(|m| {
            let member = &m.ident;
            if std::ptr::eq(m.variant, v) {
                quote!(#member: #p::Some(#value))
            } else {
                quote!(#member: #p::None)
            }
        });
        quote!(#pattern => #write { #tag #(#fields,)* })
    });
    quote! {
        let __hidden = match self { #(#arms,)* };
        #p::ParquetWrite::write(&__hidden, __sink, __at, __opts)
    }
}

/// `read`: the hidden struct that owns the data, then the variant its tag
/// names (default layout) or its one member set (union layout), checked
/// against the members that are set.
fn read_body(
    variants: &[Variant<'_>],
    members: &[Member<'_, '_>],
    read: &Ident,
    symbols: &Ident,
    tagged: bool,
) -> TokenStream {
    let p = private();
    let member_idents: Vec<&Ident> = members.iter().map(|m| &m.ident).collect();
    let names = members.iter().map(|m| &m.name);
    let arms = variants.iter().enumerate().filter(|(_, v)| tagged || !matches!(v.data, VariantData::Unit));
    let arms = arms.map(|(index, v)| {
        let variant = v.ident;
        let held =
            members.iter().map(|m| if std::ptr::eq(m.variant, v) { quote!(#p::Some(__d)) } else { quote!(#p::None) });
        let value = match &v.data {
            VariantData::Unit => quote!(Self::#variant),
            VariantData::Newtype(..) => quote!(Self::#variant(__d)),
            VariantData::Struct(fields) => {
                let all = fields.iter().map(|f| f.ident);
                let all2 = fields.iter().map(|f| f.ident);
                quote!(Self::#variant { #(#all: __d.#all2,)* })
            }
        };
        let tag = tagged.then(|| {
            let index = Literal::usize_unsuffixed(index);
            quote!(#index,)
        });
        quote!((#tag #(#held,)*) => #p::Ok(#value))
    });
    // What the error names is worked out in its arm only, from the tuple
    // matched: nothing more is done per record than the match.
    let first_member = usize::from(tagged);
    let positions = (0..members.len()).map(|i| syn::Index::from(first_member + i));
    let (tag, tag_name) = if tagged {
        (quote!(__hidden.__tag.index,), quote!(<#symbols as #p::VariantSymbols>::SYMBOLS.get(__other.0).copied()))
    } else {
        (TokenStream::new(), quote!(#p::None))
    };
    quote! {
        let __hidden = <#read as #p::ParquetRead<'__m>>::read(&__plan.inner, __src)?;
        match (#tag #(__hidden.#member_idents,)*) {
            #(#arms,)*
            __other => {
                let __set = [#((#names, __other.#positions.is_some()),)*];
                #p::Err(__plan.mismatch(__src, #tag_name, &__set))
            }
        }
    }
}

/// The attributes copied onto a hidden struct's field: `#[parquet]` and docs.
fn kept(attrs: &[Attribute]) -> impl Iterator<Item = &Attribute> {
    attrs.iter().filter(|a| a.path().is_ident("parquet") || is_doc(a))
}

fn is_doc(attr: &Attribute) -> bool {
    attr.path().is_ident("doc")
}

/// The enum's `list` setting, for the hidden structs to apply in turn.
fn list_attribute(layout: ListLayout) -> TokenStream {
    let text = ListLayout::CHOICES.iter().find(|(_, l)| *l == layout).map_or("three-level", |(text, _)| text);
    quote!(#[parquet(list = #text)])
}

/// A hidden struct and its impls, derived as a record without field
/// handles; errors the enum's own checks missed are reported at its tokens.
/// The struct is emitted without its `#[parquet]` attributes (no derive
/// declares them there), its impls in a block of their own (each record's
/// option constants have the same names).
fn hidden_struct(item: TokenStream, role: Hidden) -> TokenStream {
    let input: DeriveInput = match syn::parse2(item) {
        Ok(input) => input,
        Err(e) => return e.into_compile_error(),
    };
    let mut errors = Errors::default();
    let container = Container::from_ast(&input, &mut errors).map(|mut c| {
        c.hidden = Some(role);
        c
    });
    if let Some(c) = &container {
        check(c, &mut errors);
    }
    let impls = match (&container, errors.finish()) {
        (Some(c), Ok(())) => match &c.body {
            Body::Record(fields) => super::record::expand(c, fields),
            _ => syn::Error::new_spanned(&input.ident, "a hidden struct must have named fields").into_compile_error(),
        },
        (_, Err(e)) => e.into_compile_error(),
        (None, Ok(())) => syn::Error::new_spanned(&input.ident, "the hidden struct was refused").into_compile_error(),
    };
    let mut plain = input.clone();
    plain.attrs.retain(is_doc);
    if let syn::Data::Struct(data) = &mut plain.data {
        for field in data.fields.iter_mut() {
            field.attrs.retain(is_doc);
        }
    }
    quote! {
        #[allow(non_camel_case_types, dead_code, private_interfaces)]
        #plain
        const _: () = { #impls };
    }
}
