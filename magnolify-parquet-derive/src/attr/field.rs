//! Attributes on struct fields and enum variants.

use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::Attribute;

use super::{
    parse_keys, set_choice, set_flag, set_once, set_string, value, BloomFilter, Decimal, DecimalPhysical, ListLayout,
    Spanned, TimeUnit,
};
use crate::errors::Errors;

/// `#[parquet(...)]` on a struct field.
#[derive(Default)]
pub struct FieldAttrs {
    /// `rename = "..."`: the column (or group) name.
    pub rename: Option<Spanned<String>>,
    /// `skip`: not in the schema; reads as `Default::default()`.
    pub skip: Option<Spanned<()>>,
    /// `default`: a file without the column reads `Default::default()`.
    pub default: Option<Spanned<()>>,
    /// `list = "..."`: the layout of lists in this field.
    pub list: Option<Spanned<ListLayout>>,
    /// `timestamp = "..."`: the unit of times in this field.
    pub timestamp: Option<Spanned<TimeUnit>>,
    /// `exact`: finer digits than the unit are an error, not truncated.
    pub exact: Option<Spanned<()>>,
    /// `json`: text annotated JSON instead of STRING.
    pub json: Option<Spanned<()>>,
    /// `decimal(...)`: DECIMAL precision, scale and physical type.
    pub decimal: Option<Spanned<Decimal>>,
    /// `with = "module"`: conversion through the module's `Repr`.
    pub with: Option<Spanned<syn::Path>>,
    /// `field_id = N`: the Parquet field id.
    pub field_id: Option<Spanned<i32>>,
    /// `bloom_filter` or `bloom_filter(fpp = .., ndv = ..)`: a bloom filter
    /// on the field's column.
    pub bloom_filter: Option<Spanned<BloomFilter>>,
}

const FIELD_KEYS: [&str; 11] =
    ["rename", "skip", "default", "list", "timestamp", "exact", "json", "decimal", "with", "field_id", "bloom_filter"];
const BLOOM_FILTER_KEYS: [&str; 2] = ["fpp", "ndv"];
const DECIMAL_KEYS: [&str; 3] = ["precision", "scale", "physical"];
const VARIANT_KEYS: [&str; 2] = ["rename", "other"];

impl FieldAttrs {
    pub fn parse(attrs: &[Attribute], errors: &mut Errors) -> Self {
        parse_keys(attrs, errors, "field", &FIELD_KEYS, |out: &mut Self, meta, key, errors| {
            match key {
                "rename" => set_string(&mut out.rename, meta, "rename = \"name\"", errors)?,
                "skip" => set_flag(&mut out.skip, meta, errors)?,
                "default" => set_flag(&mut out.default, meta, errors)?,
                "list" => set_choice(&mut out.list, meta, &ListLayout::CHOICES, errors)?,
                "timestamp" => set_choice(&mut out.timestamp, meta, &TimeUnit::CHOICES, errors)?,
                "exact" => set_flag(&mut out.exact, meta, errors)?,
                "json" => set_flag(&mut out.json, meta, errors)?,
                "decimal" => {
                    if let Some(decimal) = parse_decimal(meta, errors)? {
                        set_once(&mut out.decimal, meta, decimal, errors);
                    }
                }
                "with" => {
                    if let Some(s) = value::string(meta, "with = \"path::to::module\"", errors)? {
                        match s.parse::<syn::Path>() {
                            Ok(path) => set_once(&mut out.with, meta, path, errors),
                            Err(_) => {
                                errors.spanned(&s, "expected the path of a module: `with = \"path::to::module\"`")
                            }
                        }
                    }
                }
                "bloom_filter" => {
                    if let Some(bloom) = parse_bloom_filter(meta, errors)? {
                        set_once(&mut out.bloom_filter, meta, bloom, errors);
                    }
                }
                "field_id" => {
                    let range = "an integer from 0 to 2147483647";
                    if let Some((id, _)) = value::int::<i32>(meta, "field_id = 1", range, errors)? {
                        set_once(&mut out.field_id, meta, id, errors);
                    }
                }
                _ => return Ok(false),
            }
            Ok(true)
        })
    }

    /// The keys set besides `skip`, with their spans.
    pub fn present_besides_skip(&self) -> Vec<(&'static str, Span)> {
        let mut out = Vec::new();
        let mut add = |name, span: Option<Span>| {
            if let Some(span) = span {
                out.push((name, span));
            }
        };
        add("rename", self.rename.as_ref().map(|s| s.span));
        add("default", self.default.as_ref().map(|s| s.span));
        add("list", self.list.as_ref().map(|s| s.span));
        add("timestamp", self.timestamp.as_ref().map(|s| s.span));
        add("exact", self.exact.as_ref().map(|s| s.span));
        add("json", self.json.as_ref().map(|s| s.span));
        add("decimal", self.decimal.as_ref().map(|s| s.span));
        add("with", self.with.as_ref().map(|s| s.span));
        add("field_id", self.field_id.as_ref().map(|s| s.span));
        add("bloom_filter", self.bloom_filter.as_ref().map(|s| s.span));
        out
    }
}

/// `bloom_filter`, or `bloom_filter(fpp = 0.01, ndv = 100000)`.
fn parse_bloom_filter(meta: &ParseNestedMeta<'_>, errors: &mut Errors) -> syn::Result<Option<BloomFilter>> {
    let mut bloom = BloomFilter::default();
    if !meta.input.peek(syn::token::Paren) {
        return Ok(value::flag(meta, errors)?.then_some(bloom));
    }
    let valid = super::parse_parts(meta, errors, "bloom_filter", &BLOOM_FILTER_KEYS, |inner, key, errors| {
        Ok(Some(match key {
            "fpp" => match value::probability(inner, "fpp = 0.01", errors)? {
                Some(p) => {
                    bloom.fpp = Some(p);
                    true
                }
                None => false,
            },
            "ndv" => match value::int::<u64>(inner, "ndv = 100000", "a positive integer", errors)? {
                Some((0, span)) => {
                    errors.at(span, "`ndv` must be a positive integer");
                    false
                }
                Some((n, _)) => {
                    bloom.ndv = Some(n);
                    true
                }
                None => false,
            },
            _ => return Ok(None),
        }))
    })?;
    Ok(valid.then_some(bloom))
}

/// `decimal(precision = P, scale = S, physical = "...")`. A part with a bad
/// value is reported once and voids the setting, so that the later checks
/// (such as "needs a precision") do not repeat it.
fn parse_decimal(meta: &ParseNestedMeta<'_>, errors: &mut Errors) -> syn::Result<Option<Decimal>> {
    const EXAMPLE: &str = "decimal(precision = 10, scale = 2)";
    if !meta.input.peek(syn::token::Paren) {
        value::skip(meta)?;
        errors.spanned(&meta.path, format!("expected `{EXAMPLE}`"));
        return Ok(None);
    }
    let mut decimal = Decimal { precision: None, scale: None, physical: None };
    let valid = super::parse_parts(meta, errors, "decimal", &DECIMAL_KEYS, |inner, key, errors| {
        let (example, range) = match key {
            "precision" => ("precision = 10", "an integer from 1 to 76"),
            "scale" => ("scale = 2", "an integer from 0 to the precision"),
            "physical" => {
                let Some(p) = value::choice(inner, &DecimalPhysical::CHOICES, errors)? else { return Ok(Some(false)) };
                set_once(&mut decimal.physical, inner, p, errors);
                return Ok(Some(true));
            }
            _ => return Ok(None),
        };
        let Some((n, span)) = value::int::<u8>(inner, example, range, errors)? else { return Ok(Some(false)) };
        let slot = if key == "precision" { &mut decimal.precision } else { &mut decimal.scale };
        set_value_once(slot, inner, n, span, errors);
        Ok(Some(true))
    })?;
    Ok(valid.then_some(decimal))
}

/// [`set_once`] for a part whose later errors point at its value (`span`)
/// rather than its key.
fn set_value_once<T>(
    slot: &mut Option<Spanned<T>>,
    meta: &ParseNestedMeta<'_>,
    value: T,
    span: Span,
    errors: &mut Errors,
) {
    let fresh = slot.is_none();
    set_once(slot, meta, value, errors);
    if let (true, Some(s)) = (fresh, slot) {
        s.span = span;
    }
}

/// `#[parquet(...)]` on an enum variant.
#[derive(Default)]
pub struct VariantAttrs {
    /// `rename = "..."`: the symbol written.
    pub rename: Option<Spanned<String>>,
    /// `other`: this unit variant reads the symbols the enum lacks.
    pub other: Option<Spanned<()>>,
}

impl VariantAttrs {
    pub fn parse(attrs: &[Attribute], errors: &mut Errors) -> Self {
        parse_keys(attrs, errors, "variant", &VARIANT_KEYS, |out: &mut Self, meta, key, errors| {
            match key {
                "rename" => set_string(&mut out.rename, meta, "rename = \"SYMBOL\"", errors)?,
                "other" => set_flag(&mut out.other, meta, errors)?,
                _ => return Ok(false),
            }
            Ok(true)
        })
    }
}
