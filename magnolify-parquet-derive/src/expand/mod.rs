//! Code generation. Everything generated sits in an anonymous `const _`
//! block that imports the runtime by absolute path
//! (`use ::magnolify_parquet::__private as __mp;`), names it only through
//! that alias, and binds only `__`-prefixed locals, so the caller's imports,
//! type names and constants can neither break nor be touched by it.

mod attr_checks;
mod data_enum;
mod enum_handles;
mod halves;
mod handles;
mod impls;
mod newtype;
mod options;
mod record;
mod runtime;
mod stored;
mod unit_enum;

use proc_macro2::TokenStream;
use quote::quote;

use crate::model::{Body, Container};

/// The impls for `c`.
pub fn expand(c: &Container<'_>) -> TokenStream {
    let impls = match &c.body {
        Body::Record(fields) => record::expand(c, fields),
        Body::Newtype(ty) => newtype::expand(c, ty),
        Body::UnitEnum(variants) => unit_enum::expand(c, variants),
        Body::DataEnum(variants, layout) => data_enum::expand(c, variants, *layout),
    };
    quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals, unused_qualifications, unused_lifetimes, clippy::all)]
        const _: () = {
            use ::magnolify_parquet::__private as __mp;
            #impls
        };
    }
}
