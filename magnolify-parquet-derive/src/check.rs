//! Checks that the parsed settings make sense together: conflicting field
//! attributes, decimal bounds, duplicate names and ids, empty groups and
//! recursive types.

use std::collections::hash_map::{Entry, HashMap};
use std::hash::Hash;

use crate::attr::{Decimal, FieldAttrs, UnionLayout};
use crate::errors::Errors;
use crate::model::{Body, Container, Field, Variant, VariantData};
use crate::types::is_recursive;

pub fn check(c: &Container<'_>, errors: &mut Errors) {
    match &c.body {
        Body::Record(fields) => check_record(c, fields, errors),
        Body::Newtype(ty) => {
            if is_recursive(ty, c.ident) {
                errors.spanned(ty, "recursive types are not supported: a Parquet schema is finite");
            }
        }
        Body::UnitEnum(variants) => check_enum(variants, errors),
        Body::DataEnum(variants, layout) => {
            check_enum(variants, errors);
            check_data_enum(c, variants, *layout, errors);
            if layout.is_none() {
                check_field_names_case(variants, errors);
            }
        }
    }
}

fn check_record(c: &Container<'_>, fields: &[Field<'_>], errors: &mut Errors) {
    for f in fields {
        check_field_attrs(&f.attrs, errors);
        if f.is_stored() && f.attrs.with.is_none() && is_recursive(f.ty, c.ident) {
            errors.spanned(f.ty, "recursive types are not supported: a Parquet schema is finite");
        }
    }
    if !fields.iter().any(Field::is_stored) {
        errors.spanned(
            c.ident,
            "structs with no fields (or only skipped fields) are not supported: Parquet has no empty groups",
        );
    }
    let mut names: HashMap<&str, &Field<'_>> = HashMap::new();
    let mut ids: HashMap<i32, &Field<'_>> = HashMap::new();
    for f in fields.iter().filter(|f| f.is_stored()) {
        if f.name.is_empty() {
            let span = f.attrs.rename.as_ref().map_or(f.ident.span(), |r| r.span);
            errors.at(span, "a Parquet field name cannot be empty");
        }
        if let Some(first) = first_or_insert(&mut names, f.name.as_str(), f) {
            let span = f.attrs.rename.as_ref().map_or(f.ident.span(), |r| r.span);
            errors.at(
                span,
                format!("duplicate Parquet field name \"{}\" (also the name of field `{}`)", f.name, first.ident),
            );
        }
        if let Some(id) = &f.attrs.field_id {
            if let Some(first) = first_or_insert(&mut ids, id.value, f) {
                errors.at(id.span, format!("duplicate field_id {} (also the id of field `{}`)", id.value, first.ident));
            }
        }
    }
}

fn check_field_attrs(attrs: &FieldAttrs, errors: &mut Errors) {
    if attrs.skip.is_some() {
        for (key, span) in attrs.present_besides_skip() {
            errors.at(span, format!("`skip` cannot be combined with `{key}`: a skipped field is not in the schema"));
        }
        return;
    }
    if let (None, Some(exact)) = (&attrs.timestamp, &attrs.exact) {
        errors.at(
            exact.span,
            "`exact` applies to the unit of `timestamp = \"...\"`: add `timestamp = \"micros\"` (the default unit) \
             or remove `exact`",
        );
    }
    if let (Some(_), Some(decimal)) = (&attrs.timestamp, &attrs.decimal) {
        errors.at(decimal.span, "`timestamp` and `decimal` cannot both be set: a field is either a time or a decimal");
    }
    if let Some(decimal) = &attrs.decimal {
        check_decimal(&decimal.value, decimal.span, errors);
    }
}

fn check_decimal(d: &Decimal, key_span: proc_macro2::Span, errors: &mut Errors) {
    let Some(precision) = &d.precision else {
        errors.at(key_span, "`decimal` needs a precision: `decimal(precision = 10, scale = 2)`");
        return;
    };
    let p = precision.value;
    if !(1..=Decimal::MAX_PRECISION).contains(&p) {
        errors.at(precision.span, format!("decimal precision must be from 1 to {}, found {p}", Decimal::MAX_PRECISION));
        return;
    }
    if let Some(scale) = &d.scale {
        if scale.value > p {
            errors.at(scale.span, format!("decimal scale must be at most the precision ({p}), found {}", scale.value));
        }
    }
    if let Some(physical) = &d.physical {
        let max = physical.value.max_precision();
        if p > max {
            errors.at(physical.span, format!("this physical type holds a precision of at most {max}, not {p}"));
        }
    }
}

fn check_enum(variants: &[Variant<'_>], errors: &mut Errors) {
    let mut others = variants.iter().filter_map(|v| v.attrs.other.as_ref());
    if let (Some(_), Some(second)) = (others.next(), others.next()) {
        errors.at(second.span, "only one variant can be `other`: it reads every variant the enum lacks");
    }
    for v in variants {
        if let (Some(other), false) = (&v.attrs.other, matches!(v.data, VariantData::Unit)) {
            errors.at(other.span, "`other` goes on a unit variant: an unknown variant's data has no type to read into");
        }
    }
    let mut symbols: HashMap<&str, &Variant<'_>> = HashMap::new();
    for v in variants {
        let span = v.attrs.rename.as_ref().map_or(v.ident.span(), |r| r.span);
        if v.symbol.is_empty() {
            errors.at(span, "an enum symbol cannot be empty");
        }
        if let Some(first) = first_or_insert(&mut symbols, v.symbol.as_str(), v) {
            errors.at(
                span,
                format!("duplicate enum symbol \"{}\" (also the symbol of variant `{}`)", v.symbol, first.ident),
            );
        }
    }
}

/// What a group of a tag and variant fields, or of union members, needs.
fn check_data_enum(c: &Container<'_>, variants: &[Variant<'_>], layout: Option<UnionLayout>, errors: &mut Errors) {
    for v in variants {
        match &v.data {
            VariantData::Unit => {}
            VariantData::Newtype(field, attrs) => {
                check_field_attrs(attrs, errors);
                if attrs.with.is_none() && is_recursive(&field.ty, c.ident) {
                    errors.spanned(&field.ty, "recursive types are not supported: a Parquet schema is finite");
                }
            }
            VariantData::Struct(fields) => check_record(c, fields, errors),
        }
        match layout {
            None if v.symbol.eq_ignore_ascii_case(TAG) && !matches!(v.data, VariantData::Unit) => {
                let span = v.attrs.rename.as_ref().map_or(v.ident.span(), |r| r.span);
                errors.at(
                    span,
                    format!(
                        "a variant with data cannot be named \"{}\": the tag column is named \"{TAG}\", and engines \
                         compare field names without case",
                        v.symbol
                    ),
                );
            }
            None => {}
            Some(UnionLayout::Avro) => {
                if matches!(v.data, VariantData::Unit) {
                    errors.spanned(
                        v.ident,
                        "an Avro union member holds a value: make this a newtype or struct variant, or make the \
                         field an Option for Avro's null branch",
                    );
                }
                if let Some(rename) = &v.attrs.rename {
                    errors.at(
                        rename.span,
                        "union members are named by position (member0, member1, ...): remove `rename`",
                    );
                }
                if let Some(other) = &v.attrs.other {
                    errors.at(other.span, "a union has no tag to read an unknown variant from: remove `other`");
                }
            }
        }
    }
}

/// Variants with data whose names differ only in case: engines that
/// compare field names without case (Spark, DuckDB) cannot tell the fields
/// apart. (Equal names are reported by `check_enum`.)
fn check_field_names_case(variants: &[Variant<'_>], errors: &mut Errors) {
    let mut seen: HashMap<String, &Variant<'_>> = HashMap::new();
    for v in variants.iter().filter(|v| !matches!(v.data, VariantData::Unit)) {
        if let Some(first) = first_or_insert(&mut seen, v.symbol.to_ascii_lowercase(), v) {
            if first.symbol != v.symbol {
                let span = v.attrs.rename.as_ref().map_or(v.ident.span(), |r| r.span);
                errors.at(
                    span,
                    format!(
                        "\"{}\" and \"{}\" (variant `{}`) differ only in case: engines that compare field names \
                         without case (Spark, DuckDB) cannot tell their fields apart; rename one",
                        v.symbol, first.symbol, first.ident
                    ),
                );
            }
        }
    }
}

/// The name of the tag column of an enum with data.
pub const TAG: &str = "variant";

/// The value already under `key`, if any; else inserts `value`. Duplicates
/// are reported against the first occurrence.
fn first_or_insert<K: Hash + Eq, V: Copy>(map: &mut HashMap<K, V>, key: K, value: V) -> Option<V> {
    match map.entry(key) {
        Entry::Occupied(e) => Some(*e.get()),
        Entry::Vacant(e) => {
            e.insert(value);
            None
        }
    }
}
