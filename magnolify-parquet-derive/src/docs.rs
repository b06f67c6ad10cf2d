//! Doc comments, which travel into the file's key/value metadata.

use syn::{Attribute, Expr, Lit, Meta};

/// The text of the `///` (or `#[doc = "..."]`) comments in `attrs`: every
/// line trimmed, joined with `\n`, blank lines at either end dropped; `None`
/// when there is no text.
pub fn doc_text(attrs: &[Attribute]) -> Option<String> {
    let mut lines = Vec::new();
    for attr in attrs {
        let Meta::NameValue(nv) = &attr.meta else { continue };
        if !nv.path.is_ident("doc") {
            continue;
        }
        if let Expr::Lit(syn::ExprLit { lit: Lit::Str(s), .. }) = &nv.value {
            // A block comment `/** */` arrives as one string of many lines;
            // an empty `///` line as "", which stays a (paragraph) break.
            lines.extend(s.value().split('\n').map(|l| l.trim().to_owned()));
        }
    }
    let text = lines.join("\n");
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_owned())
}

#[cfg(test)]
mod tests {
    use super::doc_text;
    use syn::parse_quote;

    #[test]
    fn joins_trimmed_lines() {
        let item: syn::ItemStruct = parse_quote! {
            ///
            /// The id.
            ///   Unique per customer.
            ///
            /// Never reused.
            ///
            struct S;
        };
        assert_eq!(doc_text(&item.attrs).as_deref(), Some("The id.\nUnique per customer.\n\nNever reused."));
    }

    #[test]
    fn block_comments_and_none() {
        let item: syn::ItemStruct = parse_quote! {
            /** First
               second */
            struct S;
        };
        assert_eq!(doc_text(&item.attrs).as_deref(), Some("First\nsecond"));
        let item: syn::ItemStruct = parse_quote! { #[derive(Debug)] struct S; };
        assert_eq!(doc_text(&item.attrs), None);
    }
}
