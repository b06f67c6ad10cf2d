//! The `FieldOptions` constant of each field: its attributes, over the
//! container's list layout.

use proc_macro2::{Ident, Literal, TokenStream};
use quote::quote;

use super::runtime::private;
use crate::attr::{ContainerAttrs, FieldAttrs};

/// `const NAME: FieldOptions = FieldOptions::new()…;`
pub fn options_const(name: &Ident, field: &FieldAttrs, container: &ContainerAttrs) -> TokenStream {
    let p = private();
    let mut calls = TokenStream::new();
    if let Some(list) = field.list.as_ref().or(container.list.as_ref()) {
        let layout = list.value.tokens();
        calls.extend(quote!(.list(#layout)));
    }
    if let Some(unit) = &field.timestamp {
        let unit = unit.value.tokens();
        calls.extend(quote!(.timestamp(#unit)));
    }
    if field.exact.is_some() {
        calls.extend(quote!(.exact_time()));
    }
    if field.json.is_some() {
        calls.extend(quote!(.json()));
    }
    if let Some(decimal) = &field.decimal {
        let d = &decimal.value;
        let precision = Literal::u8_suffixed(d.precision.as_ref().map_or(0, |p| p.value));
        let scale = Literal::u8_suffixed(d.scale.as_ref().map_or(0, |s| s.value));
        calls.extend(quote!(.decimal(#precision, #scale)));
        if let Some(physical) = &d.physical {
            let physical = physical.value.tokens();
            calls.extend(quote!(.decimal_physical(#physical)));
        }
    }
    quote! {
        const #name: #p::FieldOptions = #p::FieldOptions::new() #calls;
    }
}
