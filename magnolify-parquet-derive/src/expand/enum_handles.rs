//! Field handles of enums with data, for typed predicates: the tag,
//! compared as text as SQL compares it (`fields().payment.variant.eq("Card")`),
//! and each variant's data, addressable as an optional group's is: a newtype
//! variant's value (`.Transfer`), a struct variant's fields
//! (`.Card.last4`). Members are named by the variants' identifiers; every
//! variant's data is nullable (another variant leaves it null).

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::Type;

use super::options::options_const;
use super::runtime::private;
use crate::check::TAG;
use crate::model::{Container, Field, Variant, VariantData};
use crate::types::erase_lifetimes;

/// A variant with data and its field's Parquet name in the group.
pub struct Named<'v, 'a> {
    pub variant: &'v Variant<'a>,
    pub name: String,
}

/// The handles of an enum with data whose variants with data are
/// `members`; `tagged` when it has a tag (not the union layout).
pub fn data_enum(c: &Container<'_>, variants: &[Variant<'_>], members: &[Named<'_, '_>], tagged: bool) -> TokenStream {
    let p = private();
    let (ident, vis) = (c.ident, c.vis);
    let handles = format_ident!("__{}Fields", ident);
    let nullable = quote!(#p::Nullable);
    let mut items = TokenStream::new();
    let mut decls = Vec::new();
    let mut bounds = Vec::new();
    let mut inits = Vec::new();
    // With an `other` variant, a record's tag is not the file's symbol
    // (an unknown one reads as `other`): a predicate on the tag could
    // prune, or test, differently from the records read, so it has none.
    let other = variants.iter().any(|v| v.attrs.other.is_some());
    if tagged && other {
        decls.push(quote! {
            #[doc = "Not addressable: with an `other` variant, records do not hold the file's symbols."]
            #vis variant: #p::NotAddressable
        });
        inits.push(quote!(variant: #p::NotAddressable));
    } else if tagged {
        let symbols = variants.iter().map(|v| {
            let (variant, symbol) = (v.ident, &v.symbol);
            match v.data {
                VariantData::Unit => quote!(Self::#variant => #symbol),
                VariantData::Newtype(..) => quote!(Self::#variant(..) => #symbol),
                VariantData::Struct(_) => quote!(Self::#variant { .. } => #symbol),
            }
        });
        decls.push(quote! {
            #[doc = "The tag: the variant's symbol, compared as text."]
            #vis variant: #p::Field<__R, #p::String, __N>
        });
        inits.push(quote! {
            variant: #p::Field::of_symbol(
                __at.child(#TAG, #p::FieldOptions::DEFAULT, |__v: &Self| #p::Some(__v)),
                |__v: &Self| -> &'static str { match __v { #(#symbols,)* } },
            )
        });
    }
    for (m_index, m) in members.iter().enumerate() {
        let (variant, name) = (m.variant.ident, &m.name);
        let doc = format!("The data of variant `{variant}` (`{name}`), null in records of other variants.");
        match &m.variant.data {
            VariantData::Unit => {}
            VariantData::Newtype(field, attrs) => {
                let opts = format_ident!("__PARQUET_VARIANT_OPTS_{}", m_index);
                items.extend(options_const(&opts, attrs, &c.attrs));
                let ty = erase_lifetimes(&field.ty);
                if attrs.with.is_some() {
                    decls.push(quote!(#[doc = #doc] #vis #variant: #p::NotAddressable));
                    inits.push(quote!(#variant: #p::NotAddressable));
                    continue;
                }
                decls.push(
                    quote_spanned!(ty.span()=> #[doc = #doc] #vis #variant: <#ty as #p::HandleAs<__R, #nullable>>::Out),
                );
                bounds.push(quote!(#ty: #p::HandleAs<__R, #nullable>,));
                inits.push(quote_spanned!(ty.span()=>
                    #variant: <#ty as #p::HandleAs<__R, #nullable>>::make(__at.child(#name, #opts, |__v: &Self| match __v {
                        Self::#variant(__x) => #p::Some(__x),
                        #[allow(unreachable_patterns)]
                        _ => #p::None,
                    }))
                ));
            }
            VariantData::Struct(fields) => {
                let group = format_ident!("{}{}", handles, variant);
                let stored: Vec<&Field<'_>> = fields.iter().filter(|f| f.is_stored()).collect();
                let mut group_decls = Vec::new();
                let mut group_inits = Vec::new();
                for (f_index, f) in stored.iter().enumerate() {
                    let (member, field_name) = (f.ident, &f.name);
                    let opts = format_ident!("__PARQUET_VARIANT_OPTS_{}_{}", m_index, f_index);
                    items.extend(options_const(&opts, &f.attrs, &c.attrs));
                    let field_doc = format!("The handle of `{name}.{field_name}`.");
                    if f.attrs.with.is_some() {
                        group_decls.push(quote!(#[doc = #field_doc] #vis #member: #p::NotAddressable));
                        group_inits.push(quote!(#member: #p::NotAddressable));
                        continue;
                    }
                    let ty: Type = erase_lifetimes(f.ty);
                    group_decls.push(
                        quote_spanned!(ty.span()=> #[doc = #field_doc] #vis #member: <#ty as #p::HandleAs<__R, #nullable>>::Out),
                    );
                    bounds.push(quote!(#ty: #p::HandleAs<__R, #nullable>,));
                    group_inits.push(quote_spanned!(ty.span()=>
                        #member: <#ty as #p::HandleAs<__R, #nullable>>::make(__group.child(#field_name, #opts, |__v: &Self| match __v {
                            Self::#variant { #member: __x, .. } => #p::Some(__x),
                            #[allow(unreachable_patterns)]
                            _ => #p::None,
                        }))
                    ));
                }
                let group_bounds = bounds_of(&stored);
                items.extend(quote! {
                    #[doc = #doc]
                    #[allow(non_camel_case_types, private_interfaces, dead_code)]
                    #vis struct #group<__R: 'static> where #group_bounds {
                        #(#group_decls,)*
                        #[doc(hidden)]
                        #vis __record: #p::PhantomData<fn() -> __R>,
                    }
                });
                decls.push(quote!(#[doc = #doc] #vis #variant: #group<__R>));
                inits.push(quote! {
                    #variant: {
                        let __group = __at.child(#name, #p::FieldOptions::DEFAULT, |__v: &Self| #p::Some(__v));
                        #group { #(#group_inits,)* __record: #p::PhantomData }
                    }
                });
            }
        }
    }
    let build = quote!(#handles { #(#inits,)* __record: #p::PhantomData });
    let all_bounds = quote!(#(#bounds)*);
    let handle_impl = super::handles::struct_of_handles_impl(&quote!(#ident), &handles, &all_bounds, &build, &build);
    let doc = format!(
        "The field handles of enum [`{ident}`], for typed predicates (`magnolify_parquet::filter`): the tag and \
         each variant's data."
    );
    quote! {
        #items

        #[doc = #doc]
        #[allow(non_camel_case_types, non_snake_case, private_interfaces, dead_code)]
        #vis struct #handles<__R: 'static, __N> where #(#bounds)* {
            #(#decls,)*
            #[doc(hidden)]
            #vis __record: #p::PhantomData<fn() -> (__R, __N)>,
        }

        #handle_impl
    }
}

/// The bounds a struct variant's handles need: each addressable field
/// type's nullable handle.
fn bounds_of(stored: &[&Field<'_>]) -> TokenStream {
    let p = private();
    let types = stored.iter().filter(|f| f.attrs.with.is_none()).map(|f| erase_lifetimes(f.ty));
    quote!(#(#types: #p::HandleAs<__R, #p::Nullable>,)*)
}
