//! Looking inside field types: which type parameters they use (to bound
//! them), whether they name the type being derived (a recursive type), the
//! type at `'static` (for checks outside the impls) and its text as written
//! (for messages). Below both `check` and `expand`: it imports neither.

use quote::quote;
use syn::{GenericArgument, Ident, PathArguments, ReturnType, Type, TypeParamBound};

/// Whether `ty` names a path whose first segment satisfies `pred`: `T`,
/// `T::Assoc` and `Vec<T>` all name `T`.
pub fn mentions(ty: &Type, pred: &dyn Fn(&syn::Path) -> bool) -> bool {
    match ty {
        Type::Path(p) => {
            if pred(&p.path) {
                return true;
            }
            if let Some(q) = &p.qself {
                if mentions(&q.ty, pred) {
                    return true;
                }
            }
            path_args_mention(&p.path, pred)
        }
        Type::Array(a) => mentions(&a.elem, pred),
        Type::Slice(s) => mentions(&s.elem, pred),
        Type::Reference(r) => mentions(&r.elem, pred),
        Type::Ptr(p) => mentions(&p.elem, pred),
        Type::Paren(p) => mentions(&p.elem, pred),
        Type::Group(g) => mentions(&g.elem, pred),
        Type::Tuple(t) => t.elems.iter().any(|e| mentions(e, pred)),
        Type::BareFn(f) => {
            f.inputs.iter().any(|a| mentions(&a.ty, pred))
                || matches!(&f.output, ReturnType::Type(_, t) if mentions(t, pred))
        }
        Type::TraitObject(t) => bounds_mention(t.bounds.iter(), pred),
        Type::ImplTrait(t) => bounds_mention(t.bounds.iter(), pred),
        _ => false,
    }
}

fn path_args_mention(path: &syn::Path, pred: &dyn Fn(&syn::Path) -> bool) -> bool {
    path.segments.iter().any(|seg| match &seg.arguments {
        PathArguments::AngleBracketed(args) => args.args.iter().any(|arg| match arg {
            GenericArgument::Type(t) => mentions(t, pred),
            GenericArgument::AssocType(a) => mentions(&a.ty, pred),
            _ => false,
        }),
        PathArguments::Parenthesized(args) => {
            args.inputs.iter().any(|t| mentions(t, pred))
                || matches!(&args.output, ReturnType::Type(_, t) if mentions(t, pred))
        }
        PathArguments::None => false,
    })
}

fn bounds_mention<'a>(bounds: impl Iterator<Item = &'a TypeParamBound>, pred: &dyn Fn(&syn::Path) -> bool) -> bool {
    bounds
        .into_iter()
        .any(|b| matches!(b, TypeParamBound::Trait(t) if pred(&t.path) || path_args_mention(&t.path, pred)))
}

/// Whether `ty` uses one of the type parameters `params`.
pub fn uses_params(ty: &Type, params: &[&Ident]) -> bool {
    !params.is_empty()
        && mentions(ty, &|path| {
            path.leading_colon.is_none() && path.segments.first().is_some_and(|s| params.contains(&&s.ident))
        })
}

/// Whether `ty` names `ident` (or `Self`) as a one-segment path: the type
/// contains itself, which no finite Parquet schema can describe.
pub fn is_recursive(ty: &Type, ident: &Ident) -> bool {
    mentions(ty, &|path| {
        path.leading_colon.is_none()
            && path.segments.len() == 1
            && path.segments.first().is_some_and(|s| s.ident == *ident || s.ident == "Self")
    })
}

/// `ty` with every lifetime made `'static`.
pub fn erase_lifetimes(ty: &Type) -> Type {
    let mut ty = ty.clone();
    syn::visit_mut::visit_type_mut(&mut StaticLifetimes, &mut ty);
    ty
}

struct StaticLifetimes;

impl syn::visit_mut::VisitMut for StaticLifetimes {
    fn visit_lifetime_mut(&mut self, lifetime: &mut syn::Lifetime) {
        *lifetime = syn::Lifetime::new("'static", lifetime.span());
    }
    fn visit_type_reference_mut(&mut self, reference: &mut syn::TypeReference) {
        if reference.lifetime.is_none() {
            reference.lifetime = Some(syn::Lifetime::new("'static", proc_macro2::Span::call_site()));
        }
        syn::visit_mut::visit_type_reference_mut(self, reference);
    }
}

/// A type as a user writes it: `Vec<Option<u8>>`, not `Vec < Option < u8 > >`.
pub fn type_text(ty: &Type) -> String {
    let raw = quote!(#ty).to_string();
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if c == ' ' {
            let prev = out.chars().last();
            let next = chars.peek().copied();
            let glue = matches!(prev, Some('<' | '&' | ':' | '\'' | '(' | '['))
                || matches!(next, Some('<' | '>' | ':' | ',' | ')' | ']' | ';'));
            if glue {
                continue;
            }
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use syn::parse_quote;

    #[test]
    fn finds_params() {
        let t: Ident = parse_quote!(T);
        let params = [&t];
        let yes: [Type; 5] = [
            parse_quote!(T),
            parse_quote!(Vec<T>),
            parse_quote!(Option<(u8, T)>),
            parse_quote!(T::Assoc),
            parse_quote!([T; 3]),
        ];
        for ty in &yes {
            assert!(uses_params(ty, &params), "{}", quote::quote!(#ty));
        }
        let no: [Type; 3] = [parse_quote!(Vec<u8>), parse_quote!(::T), parse_quote!(other::T)];
        for ty in &no {
            assert!(!uses_params(ty, &params), "{}", quote::quote!(#ty));
        }
    }

    #[test]
    fn finds_recursion() {
        let node: Ident = parse_quote!(Node);
        assert!(is_recursive(&parse_quote!(Vec<Node>), &node));
        assert!(is_recursive(&parse_quote!(Option<Box<Self>>), &node));
        assert!(!is_recursive(&parse_quote!(other::Node), &node));
        assert!(!is_recursive(&parse_quote!(Vec<Nodes>), &node));
    }

    #[test]
    fn types_read_as_written() {
        let t: Type = syn::parse_quote!(Vec<Option<u8>>);
        assert_eq!(type_text(&t), "Vec<Option<u8>>");
        let t: Type = syn::parse_quote!(&'a [std::string::String]);
        assert_eq!(type_text(&t), "&'a [std::string::String]");
        let t: Type = syn::parse_quote!(HashMap<String, (u8, u16)>);
        assert_eq!(type_text(&t), "HashMap<String, (u8, u16)>");
    }

    #[test]
    fn lifetimes_become_static() {
        let t: Type = syn::parse_quote!(Cow<'a, [&str]>);
        assert_eq!(type_text(&erase_lifetimes(&t)), "Cow<'static, [&'static str]>");
    }
}
