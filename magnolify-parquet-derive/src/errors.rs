//! Collects every error the macro finds, so that one compilation reports
//! them all instead of stopping at the first.

use std::fmt::Display;

use proc_macro2::Span;

/// The errors found so far, combined into one `syn::Error`. As serde's
/// `Ctxt`: errors recorded here and never read would make the derive emit
/// code for an input it found wrong, so dropping the collection without
/// [`finish`](Errors::finish) panics (unless the thread already is).
#[derive(Default)]
#[must_use = "the errors recorded must be read with `finish`"]
pub struct Errors {
    combined: Option<syn::Error>,
    finished: bool,
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
    pub fn finish(mut self) -> syn::Result<()> {
        self.finished = true;
        match self.combined.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

impl Drop for Errors {
    fn drop(&mut self) {
        if !self.finished && !std::thread::panicking() {
            panic!("the derive's errors were dropped without `Errors::finish`: some would never be reported");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Errors;
    use proc_macro2::Span;

    #[test]
    fn finish_reports_every_error_in_order() {
        let mut errors = Errors::default();
        errors.at(Span::call_site(), "first");
        errors.at(Span::call_site(), "second");
        let all: Vec<String> = errors.finish().unwrap_err().into_iter().map(|e| e.to_string()).collect();
        assert_eq!(all, ["first", "second"]);
        assert!(Errors::default().finish().is_ok());
    }

    #[test]
    #[should_panic(expected = "the derive's errors were dropped without `Errors::finish`")]
    fn dropping_unread_errors_panics() {
        let mut errors = Errors::default();
        errors.at(Span::call_site(), "never read");
        drop(errors);
    }

    #[test]
    #[should_panic(expected = "the derive's errors were dropped without `Errors::finish`")]
    fn dropping_an_empty_collection_unread_panics_too() {
        // A path that found nothing must still have asked.
        drop(Errors::default());
    }
}
