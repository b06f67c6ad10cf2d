//! How generated code names the runtime. Its own module, below every
//! other of `expand`, so that the modules generating code import it without
//! importing the dispatcher (`expand/mod.rs`) that imports them.

use proc_macro2::TokenStream;
use quote::quote;

/// The path generated code reaches the runtime through: an alias that the
/// `const _` block around every expansion imports from
/// `::magnolify_parquet::__private` (short, so the expansion stays small).
pub fn private() -> TokenStream {
    quote!(__mp)
}
