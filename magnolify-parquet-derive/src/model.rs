//! The derive input turned into what the expansion needs: the shape
//! (record, newtype, unit enum or enum with data), the parsed attributes,
//! the Parquet names.
//! Shapes that have no Parquet form are reported here.

use syn::ext::IdentExt;
use syn::{Data, DeriveInput, Fields, Generics, Ident, Type, Visibility};

use crate::attr::{check_serde, ContainerAttrs, FieldAttrs, SerdePlace, UnionLayout, VariantAttrs};
use crate::docs::doc_text;
use crate::errors::Errors;

/// What the derive supports, for the messages about what it does not.
const SUPPORTED: &str = "#[derive(ParquetType)] supports structs with named fields, newtype structs (exactly \
     one unnamed field), and enums whose variants are unit variants, newtype variants (one unnamed field) or \
     struct variants (named fields)";

/// The type being derived.
pub struct Container<'a> {
    pub ident: &'a Ident,
    pub vis: &'a Visibility,
    pub generics: &'a Generics,
    pub attrs: ContainerAttrs,
    /// The type's doc comment.
    pub doc: Option<String>,
    pub body: Body<'a>,
    /// A struct the derive made for an enum with data to write or read
    /// through: no field handles and no record impl of its own.
    pub hidden: Option<Hidden>,
}

/// What a hidden struct of an enum with data is for.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Hidden {
    /// It owns the data read: it reads (and has the schema).
    Read,
    /// It borrows the data written: it writes only, so it has no read impl
    /// (its fields are references, which `with` and `default` cannot make).
    Write,
}

/// The shapes with a Parquet form.
pub enum Body<'a> {
    /// A struct with named fields: a group.
    Record(Vec<Field<'a>>),
    /// `struct Id(T);`: the form of `T`.
    Newtype(&'a Type),
    /// An enum of unit variants: a column of its symbols (STRING, or ENUM).
    UnitEnum(Vec<Variant<'a>>),
    /// An enum with data (or with `union` set): a group of a tag and one
    /// optional field per variant with data, or parquet-avro's members.
    DataEnum(Vec<Variant<'a>>, Option<UnionLayout>),
}

/// A named field of a record.
pub struct Field<'a> {
    pub ident: &'a Ident,
    pub ty: &'a Type,
    /// The field's attributes as written (an enum variant's fields are
    /// copied, with them, into the structs the enum reads through).
    pub written: &'a [syn::Attribute],
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

/// A variant of an enum.
pub struct Variant<'a> {
    pub ident: &'a Ident,
    pub attrs: VariantAttrs,
    /// The symbol written.
    pub symbol: String,
    /// The variant's doc comment.
    pub doc: Option<String>,
    pub data: VariantData<'a>,
}

/// What a variant holds.
pub enum VariantData<'a> {
    /// Nothing: `Cash`.
    Unit,
    /// One value: `Transfer(String)`, with its field attributes.
    Newtype(&'a syn::Field, Box<FieldAttrs>),
    /// Named fields: `Card { last4: String }`.
    Struct(Vec<Field<'a>>),
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
                    for (key, span) in attrs.present() {
                        if matches!(key, "union" | "annotation") {
                            errors.at(span, format!("`{key}` has no effect on a struct: it applies to enums"));
                        }
                    }
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
            Data::Enum(data) => enum_body(input, data, &attrs, errors)?,
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
            hidden: None,
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
    Some(Field { ident, ty: &field.ty, written: &field.attrs, attrs, doc: doc_text(&field.attrs), name })
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

/// An enum: unit variants only make a column of symbols (unless `union` is
/// set), any variant with data makes a group.
fn enum_body<'a>(
    input: &'a DeriveInput,
    data: &'a syn::DataEnum,
    attrs: &ContainerAttrs,
    errors: &mut Errors,
) -> Option<Body<'a>> {
    let has_data = data.variants.iter().any(|v| !matches!(v.fields, Fields::Unit));
    let layout = attrs.union.as_ref().map(|u| u.value);
    let grouped = has_data || layout.is_some();
    for (key, span) in attrs.present() {
        let effect = match key {
            "rename_all" => continue,
            "list" | "union" if grouped => continue,
            "annotation" if layout.is_none() => continue,
            "annotation" => "a union has no tag, whose column it annotates",
            "list" => "it applies to the lists inside enums with data; a unit enum is one column of its symbols",
            "union" => "it applies to enums with data; a unit enum is one column of its symbols",
            _ => {
                "its column takes the name and options of the field that holds it; rename symbols with \
                  `rename` on variants or `rename_all`"
            }
        };
        errors.at(span, format!("`{key}` has no effect on this enum: {effect}"));
    }
    if grouped && !input.generics.params.is_empty() {
        errors.spanned(
            &input.generics,
            "enums with data cannot have generic parameters: give the variants concrete types (an enum of unit \
             variants may have them)",
        );
        return None;
    }
    let mut variants = Vec::new();
    for v in &data.variants {
        let vattrs = VariantAttrs::parse(&v.attrs, errors);
        let data = match &v.fields {
            Fields::Unit => VariantData::Unit,
            Fields::Unnamed(unnamed) if unnamed.unnamed.len() == 1 => {
                let field = &unnamed.unnamed[0];
                VariantData::Newtype(field, Box::new(newtype_variant_attrs(field, errors)))
            }
            Fields::Named(named) if !named.named.is_empty() => {
                // `rename_all` renames the variants, not their fields (as serde's).
                let unrenamed = ContainerAttrs::default();
                VariantData::Struct(named.named.iter().filter_map(|f| record_field(f, &unrenamed, errors)).collect())
            }
            other => {
                errors.spanned(
                    other,
                    "a variant holds nothing (a unit variant), one value (`Transfer(String)`) or named fields \
                     (`Card { last4: String }`): give these fields names",
                );
                continue;
            }
        };
        let symbol = match (&vattrs.rename, &attrs.rename_all) {
            (Some(r), _) => r.value.clone(),
            (None, Some(rule)) => rule.value.apply_to_variant(&v.ident.unraw().to_string()),
            (None, None) => v.ident.unraw().to_string(),
        };
        variants.push(Variant { ident: &v.ident, attrs: vattrs, symbol, doc: doc_text(&v.attrs), data });
    }
    Some(if grouped { Body::DataEnum(variants, layout) } else { Body::UnitEnum(variants) })
}

/// The value of a newtype variant is stored under the variant's name, as
/// the variant's field: it takes every field attribute but those that
/// name or leave out a field.
fn newtype_variant_attrs(field: &syn::Field, errors: &mut Errors) -> FieldAttrs {
    let attrs = FieldAttrs::parse(&field.attrs, errors);
    if let Some(skip) = &attrs.skip {
        errors.at(skip.span, "the value of a newtype variant cannot be skipped: it is the variant's data");
    }
    if let Some(rename) = &attrs.rename {
        errors.at(rename.span, "the value of a newtype variant is named by its variant: `rename` the variant");
    }
    if let Some(default) = &attrs.default {
        errors.at(default.span, "a variant's field is optional: a file without it reads as another variant");
    }
    if let Some(with) = &attrs.with {
        errors.at(
            with.span,
            "`with` on the value of a newtype variant is not supported: make it a struct variant \
             (`V { value: T }`) and put `with` on its field",
        );
    }
    attrs
}
