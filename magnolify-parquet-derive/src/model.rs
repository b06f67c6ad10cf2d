//! The derive input turned into what the expansion needs: the shape
//! (record, newtype or unit enum), the parsed attributes, the Parquet names.
//! Shapes that have no Parquet form are reported here.

use syn::ext::IdentExt;
use syn::{Data, DeriveInput, Fields, Generics, Ident, Type, Visibility};

use crate::attr::{check_serde, ContainerAttrs, FieldAttrs, SerdePlace, VariantAttrs};
use crate::docs::doc_text;
use crate::errors::Errors;

/// What the derive supports, for the messages about what it does not.
const SUPPORTED: &str =
    "#[derive(ParquetType)] supports structs with named fields, newtype structs (exactly one unnamed field) \
     and enums whose variants are all unit variants";

/// The type being derived.
pub struct Container<'a> {
    pub ident: &'a Ident,
    pub vis: &'a Visibility,
    pub generics: &'a Generics,
    pub attrs: ContainerAttrs,
    /// The type's doc comment.
    pub doc: Option<String>,
    pub body: Body<'a>,
}

/// The three shapes with a Parquet form.
pub enum Body<'a> {
    /// A struct with named fields: a group.
    Record(Vec<Field<'a>>),
    /// `struct Id(T);`: the form of `T`.
    Newtype(&'a Type),
    /// An enum of unit variants: an ENUM string.
    UnitEnum(Vec<Variant<'a>>),
}

/// A named field of a record.
pub struct Field<'a> {
    pub ident: &'a Ident,
    pub ty: &'a Type,
    pub attrs: FieldAttrs,
    pub doc: Option<String>,
    /// The name in the Parquet schema.
    pub name: String,
}

impl Field<'_> {
    /// Whether the field is in the schema.
    pub fn is_stored(&self) -> bool {
        self.attrs.skip.is_none()
    }
}

/// A unit variant of an enum.
pub struct Variant<'a> {
    pub ident: &'a Ident,
    pub attrs: VariantAttrs,
    /// The symbol written.
    pub symbol: String,
}

impl<'a> Container<'a> {
    /// Reads `input`; `None` when its shape has no Parquet form (the error
    /// is recorded in `errors`).
    pub fn from_ast(input: &'a DeriveInput, errors: &mut Errors) -> Option<Container<'a>> {
        let attrs = ContainerAttrs::parse(&input.attrs, errors);
        let has = |key: &str| attrs.present().iter().any(|(k, _)| *k == key);
        check_serde(&input.attrs, &SerdePlace::Container { has: &has }, errors);
        let body = match &input.data {
            Data::Struct(data) => match &data.fields {
                Fields::Named(named) => {
                    Body::Record(named.named.iter().filter_map(|f| record_field(f, &attrs, errors)).collect())
                }
                Fields::Unnamed(unnamed) if unnamed.unnamed.len() == 1 => {
                    let field = &unnamed.unnamed[0];
                    newtype_attrs(field, &attrs, errors);
                    Body::Newtype(&field.ty)
                }
                Fields::Unnamed(unnamed) => {
                    let n = unnamed.unnamed.len();
                    errors.spanned(
                        unnamed,
                        format!(
                            "tuple structs with {n} fields are not supported: give the fields names, \
                             or wrap exactly one value (a newtype); {SUPPORTED}"
                        ),
                    );
                    return None;
                }
                Fields::Unit => {
                    errors.spanned(
                        &input.ident,
                        format!("unit structs are not supported: Parquet has no empty groups; {SUPPORTED}"),
                    );
                    return None;
                }
            },
            Data::Enum(data) if data.variants.is_empty() => {
                errors.spanned(&input.ident, "enums with no variants are not supported: there is no value to store");
                return None;
            }
            Data::Enum(data) => {
                for (key, span) in attrs.present().into_iter().filter(|(key, _)| *key != "rename_all") {
                    errors.at(
                        span,
                        format!(
                            "`{key}` has no effect on an enum: its column takes the name and options of the field \
                             that holds it; rename symbols with `rename` on variants or `rename_all`"
                        ),
                    );
                }
                let mut variants = Vec::new();
                for v in &data.variants {
                    let vattrs = VariantAttrs::parse(&v.attrs, errors);
                    if !matches!(v.fields, Fields::Unit) {
                        errors.spanned(
                            &v.fields,
                            format!(
                                "enum variants with data are not supported: an enum is stored as an ENUM string \
                                 of its variant name; {SUPPORTED}"
                            ),
                        );
                        continue;
                    }
                    let symbol = match (&vattrs.rename, &attrs.rename_all) {
                        (Some(r), _) => r.value.clone(),
                        (None, Some(rule)) => rule.value.apply_to_variant(&v.ident.unraw().to_string()),
                        (None, None) => v.ident.unraw().to_string(),
                    };
                    variants.push(Variant { ident: &v.ident, attrs: vattrs, symbol });
                }
                Body::UnitEnum(variants)
            }
            Data::Union(data) => {
                errors.spanned(data.union_token, format!("unions are not supported; {SUPPORTED}"));
                return None;
            }
        };
        Some(Container {
            ident: &input.ident,
            vis: &input.vis,
            generics: &input.generics,
            attrs,
            doc: doc_text(&input.attrs),
            body,
        })
    }
}

/// A named field, with its Parquet name (`rename`, else `rename_all`, else
/// the identifier without `r#`).
fn record_field<'a>(field: &'a syn::Field, container: &ContainerAttrs, errors: &mut Errors) -> Option<Field<'a>> {
    let ident = field.ident.as_ref()?;
    let attrs = FieldAttrs::parse(&field.attrs, errors);
    let field_name = ident.unraw().to_string();
    let has = |key: &str| {
        attrs.skip.is_some() && key == "skip" || attrs.present_besides_skip().iter().any(|(k, _)| *k == key)
    };
    check_serde(&field.attrs, &SerdePlace::Field { name: &field_name, has: &has }, errors);
    let name = match (&attrs.rename, &container.rename_all) {
        (Some(r), _) => r.value.clone(),
        (None, Some(rule)) => rule.value.apply_to_field(&ident.unraw().to_string()),
        (None, None) => ident.unraw().to_string(),
    };
    Some(Field { ident, ty: &field.ty, attrs, doc: doc_text(&field.attrs), name })
}

/// A newtype is transparent: it has no name or options of its own.
fn newtype_attrs(field: &syn::Field, container: &ContainerAttrs, errors: &mut Errors) {
    for (key, span) in container.present() {
        errors.at(
            span,
            format!(
                "`{key}` has no effect on a newtype struct: it takes the name and options of the field that holds it"
            ),
        );
    }
    let attrs = FieldAttrs::parse(&field.attrs, errors);
    if let Some(skip) = &attrs.skip {
        errors.at(skip.span, "the field of a newtype struct cannot be skipped: it is the whole value");
    }
    for (key, span) in attrs.present_besides_skip() {
        errors.at(
            span,
            format!("`{key}` has no effect inside a newtype struct, which is transparent: put it on the field that holds the newtype"),
        );
    }
}
