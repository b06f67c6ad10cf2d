//! Collects every error the macro finds, so that one compilation reports
//! them all instead of stopping at the first.

use std::fmt::Display;

use proc_macro2::Span;

/// The errors found so far, combined into one `syn::Error`.
#[derive(Default)]
pub struct Errors {
    combined: Option<syn::Error>,
}

impl Errors {
    /// Records `error`.
    pub fn push(&mut self, error: syn::Error) {
        match &mut self.combined {
            Some(all) => all.combine(error),
            None => self.combined = Some(error),
        }
    }

    /// Records `message` at `span`.
    pub fn at(&mut self, span: Span, message: impl Display) {
        self.push(syn::Error::new(span, message));
    }

    /// Records `message` spanning `tokens` (all of them, not only the first).
    pub fn spanned(&mut self, tokens: impl quote::ToTokens, message: impl Display) {
        self.push(syn::Error::new_spanned(tokens, message));
    }

    /// `Err` with every error recorded, or `Ok` if there were none.
    pub fn finish(self) -> syn::Result<()> {
        match self.combined {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}
