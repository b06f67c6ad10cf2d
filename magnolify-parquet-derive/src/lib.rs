//! `#[derive(ParquetType)]`, the derive macro of the `magnolify-parquet`
//! crate. Use it through that crate (`magnolify_parquet::ParquetType`): the
//! generated code names only `::magnolify_parquet::__private` items.
//!
//! The macro works in three steps, as serde_derive does: *parse* the input
//! and its `#[parquet(...)]` attributes into a small model (`model`,
//! `attr`), *check* that the settings make sense together (`check`), then
//! *expand* into trait impls (`expand`). Every error found in the first two
//! steps is reported, each at the span it concerns, in one compilation.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod attr;
mod case;
mod check;
mod docs;
mod errors;
mod expand;
mod model;
mod types;

use proc_macro2::{Span, TokenStream};
use syn::DeriveInput;

use crate::errors::Errors;
use crate::model::Container;

/// Derives Parquet support: `ParquetSchema`, `ParquetWrite` and
/// `ParquetRead` (the type's schema node, shredding and assembly),
/// `ParquetRecord` (a whole record: message name and doc) for structs with
/// named fields, and `ListElement` (so `Vec<T>` works).
///
/// # Shapes
///
/// | Rust | Parquet |
/// |---|---|
/// | `struct S { a: A, b: B }` | a group with fields `a` and `b`; a record (message) at the top level |
/// | `struct Id(T);` (newtype) | the form of `T`, transparently |
/// | `enum E { A, B }` (unit variants only) | `BYTE_ARRAY (STRING)` holding `"A"` or `"B"`; `(ENUM)` with `#[parquet(annotation = "enum")]`, as parquet-avro writes Avro enums |
/// | `enum E { A { x: X }, B(Y), C }` (variants with data) | a group: `variant` (STRING, or ENUM with `annotation = "enum"`: the variant's symbol), then an OPTIONAL field per variant with data, sorted by name (`A`, a group of `x`; `B`, the form of `Y`); exactly the tag's field is set |
/// | the same with `#[parquet(union = "avro")]` | parquet-avro's union: OPTIONAL `member0`, `member1`, ... in declaration order, exactly one set |
///
/// Unions, unit structs, tuple structs of 0 or 2+ fields, tuple variants of
/// 0 or 2+ values, structs with no stored field (Parquet has no empty
/// groups), enums with data and generic parameters, and recursive types are
/// compile errors. Type parameters are allowed elsewhere: each field type
/// that uses one gets the bound each impl needs.
///
/// ```
/// use magnolify_parquet::{ParquetReader, ParquetType, ParquetWriter};
///
/// #[derive(ParquetType, Debug, PartialEq)]
/// enum Shape {
///     Circle { radius: f64 },
///     Label(String),
///     Empty,
/// }
///
/// #[derive(ParquetType, Debug, PartialEq)]
/// struct Drawing { shapes: Vec<Shape>, main: Option<Shape> }
///
/// let drawing = Drawing {
///     shapes: vec![Shape::Circle { radius: 2.0 }, Shape::Empty],
///     main: Some(Shape::Label("title".into())),
/// };
/// let mut writer = ParquetWriter::<Drawing, _>::new(Vec::new())?;
/// writer.write(&drawing)?;
/// let file = bytes::Bytes::from(writer.into_inner()?);
/// let read: Vec<Drawing> = ParquetReader::<Drawing, _>::new(file)?.collect::<Result<_, _>>()?;
/// assert_eq!(read, [drawing]);
/// # Ok::<(), magnolify_parquet::Error>(())
/// ```
///
/// # Borrowing records
///
/// A struct may have lifetime parameters and borrow its fields (`&str`,
/// `&[T]`, `&T`, `Cow`): it writes without copying, each record borrowing
/// for as long as its own `write` call. Such a struct can only be read if
/// all its fields can (`Cow` reads as owned); reading one with a `&str`
/// field is a compile error naming that field's type.
///
/// ```
/// use std::borrow::Cow;
/// use magnolify_parquet::{ParquetType, ParquetWriter};
///
/// #[derive(ParquetType)]
/// struct Row<'a> { name: &'a str, tags: &'a [String], payload: Cow<'a, [u8]> }
///
/// let mut writer = ParquetWriter::<Row, _>::new(Vec::new())?;
/// for line in ["a b", "c"] {
///     let owned = line.to_uppercase(); // lives for this iteration only
///     let tags: Vec<String> = line.split(' ').map(str::to_owned).collect();
///     writer.write(&Row { name: &owned, tags: &tags, payload: Cow::Borrowed(line.as_bytes()) })?;
/// }
/// assert_eq!(writer.close()?.file_metadata().num_rows(), 2);
/// # Ok::<(), magnolify_parquet::Error>(())
/// ```
///
/// # Attributes
///
/// Several `#[parquet(...)]` attributes may be given; a key set twice is an error.
///
/// On the struct or enum:
///
/// | key | effect |
/// |---|---|
/// | `rename = "Name"` | message name of a record (default: the type's name) |
/// | `rename_all = "..."` | case of field names or variant symbols: `"lowercase"`, `"UPPERCASE"`, `"PascalCase"`, `"camelCase"`, `"snake_case"`, `"SCREAMING_SNAKE_CASE"`, `"kebab-case"`, `"SCREAMING-KEBAB-CASE"` (serde's rules) |
/// | `list = "..."` | list layout of every field that sets none: `"three-level"` (default, the format's standard), `"two-level"` (parquet-avro's `array` layout), `"repeated"` (bare repeated field) |
/// | `union = "avro"` | on an enum with data: parquet-avro's union layout (`member0..memberN`) instead of the tag and variant fields |
///
/// On a field:
///
/// | key | effect |
/// |---|---|
/// | `rename = "name"` | column (or group) name |
/// | `skip` | left out of the schema; reads as `Default::default()`; combines with nothing else |
/// | `default` | when the file has no such column, read `Default::default()` instead of failing |
/// | `list = "..."` | list layout of this field, at every nesting; only on lists and containers of them |
/// | `timestamp = "millis" \| "micros" \| "nanos"` | unit of TIME/TIMESTAMP values (default micros); only on chrono time types and containers of them |
/// | `exact` | with `timestamp`: digits finer than the unit are an error when written, instead of truncated toward the past |
/// | `json` | text annotated JSON instead of STRING (`BYTE_ARRAY (JSON)`), for engines that read JSON columns; only on text types (`String`, `&str`, `Box<str>`, `Cow<str>`) and containers of them |
/// | `decimal(precision = P, scale = S, physical = "...")` | DECIMAL(P, S), 1 ≤ P ≤ 76, 0 ≤ S ≤ P (`scale` defaults to 0); `physical` is `"int32"` (P ≤ 9), `"int64"` (P ≤ 18), `"fixed"` or `"binary"`, chosen by precision when not set; required on decimal types, refused on others |
/// | `with = "path::to::module"` | custom conversion, see below |
/// | `field_id = N` | Parquet field id (0 ≤ N ≤ i32::MAX, unique among siblings) |
/// | `bloom_filter`, `bloom_filter(fpp = 0.01, ndv = 100000)` | a bloom filter on the field's column (false-positive probability, distinct values expected per row group); readers skip the row groups whose filter lacks a value an equality asks for; the field must be one column (or a list of one) |
///
/// Every struct also gets `fields()`: typed handles of its fields for the
/// predicates of `magnolify_parquet::filter`.
///
/// On an enum variant: `rename = "SYMBOL"`; `other` on one unit variant,
/// which then reads every symbol the enum lacks instead of failing. The
/// value of a newtype variant takes the field attributes but `rename`,
/// `skip` and `default`; the fields of a struct variant take them all.
///
/// Doc comments (`///`) on the record and its fields, nested ones included,
/// are written into the file's footer under `magnolify.docs` and
/// `magnolify.docs.<dotted.path>`.
///
/// # `with = "module"`
///
/// Stores a field of any type `T` through another type that has a Parquet
/// form. The module must provide:
///
/// ```text
/// pub type Repr = /* a type with a Parquet form */;
/// pub fn to_parquet(value: &T) -> Result<Repr, E>;
/// pub fn from_parquet(repr: Repr) -> Result<T, E>;
/// ```
///
/// where `T` is the whole field type: on an `Option<U>` field, the
/// functions take `&Option<U>` and give `Option<U>` (so that `None` can be
/// stored as the module chooses), and functions written for `U` are a
/// compile error at the attribute that names both types.
///
/// `E: Display` (each function may have its own error type). The schema
/// is `Repr`'s, and the field's other attributes apply to `Repr`. A
/// conversion error becomes a `magnolify_parquet::Error` naming the field.
/// When the file lacks the column, the field reads as `from_parquet` of
/// `Repr`'s missing value (`None`, empty), or fails when `Repr` has none;
/// with `default` it reads `T::default()`.
///
/// # Example
///
/// ```
/// use magnolify_parquet::{schema, ParquetRecord, ParquetType};
///
/// /// An order.
/// #[derive(ParquetType)]
/// #[parquet(rename = "Order", rename_all = "camelCase")]
/// struct Order {
///     /// Unique per shop.
///     order_id: u64,
///     status: Status,
///     #[parquet(with = "cents", field_id = 7)]
///     total: f64,
///     #[parquet(list = "two-level")]
///     line_skus: Vec<String>,
///     #[parquet(skip)]
///     cache: Option<String>,
/// }
///
/// #[derive(ParquetType)]
/// #[parquet(rename_all = "SCREAMING_SNAKE_CASE")]
/// enum Status { Open, InTransit }
///
/// mod cents {
///     pub type Repr = i64;
///     pub fn to_parquet(value: &f64) -> Result<i64, String> {
///         let cents = (value * 100.0).round();
///         if cents.is_finite() && cents.abs() < 9.0e15 { Ok(cents as i64) } else { Err(format!("{value} is out of range")) }
///     }
///     pub fn from_parquet(repr: i64) -> Result<f64, std::convert::Infallible> {
///         Ok(repr as f64 / 100.0)
///     }
/// }
///
/// let text = schema::to_text(&Order::message().unwrap());
/// assert_eq!(
///     text,
///     "message Order {
///   REQUIRED INT64 orderId (INTEGER(64,false));
///   REQUIRED BYTE_ARRAY status (STRING);
///   REQUIRED INT64 total [7] (INTEGER(64,true));
///   REQUIRED group lineSkus (LIST) {
///     REPEATED BYTE_ARRAY array (STRING);
///   }
/// }
/// "
/// );
/// assert_eq!(Order::DOC, Some("An order."));
/// ```
#[proc_macro_derive(ParquetType, attributes(parquet))]
pub fn derive_parquet_type(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    let input = syn::parse_macro_input!(input as DeriveInput);
    derive(&input).unwrap_or_else(syn::Error::into_compile_error).into()
}

/// Parse, check, expand.
fn derive(input: &DeriveInput) -> syn::Result<TokenStream> {
    let mut errors = Errors::default();
    let container = Container::from_ast(input, &mut errors);
    if let Some(c) = &container {
        check::check(c, &mut errors);
    }
    errors.finish()?;
    match container {
        Some(c) => Ok(expand::expand(&c)),
        // from_ast records an error whenever it returns None.
        None => Err(syn::Error::new(Span::call_site(), "ParquetType cannot be derived for this type")),
    }
}

#[cfg(test)]
mod tests {
    use super::derive;

    /// The expansion of a struct of `n` fields of a few kinds.
    fn expansion(n: usize) -> String {
        let kinds = ["u32", "Option<String>", "Vec<i64>"];
        let fields: Vec<String> = (0..n).map(|i| format!("f{i}: {}", kinds[i % kinds.len()])).collect();
        let input: syn::DeriveInput =
            syn::parse_str(&format!("struct Wide {{ {} }}", fields.join(", "))).expect("struct parses");
        derive(&input).expect("expands").to_string()
    }

    #[test]
    fn expansion_grows_linearly_with_the_fields() {
        let (small, large) = (expansion(150).len(), expansion(300).len());
        // Twice the fields, about twice the code (each field's offset is the
        // previous one plus its leaves, not the sum of all before it).
        let ratio = large as f64 / small as f64;
        assert!(ratio < 2.1, "150 fields: {small} bytes, 300 fields: {large} bytes, ratio {ratio:.2}");
        println!("expansion of a 300-field struct: {large} bytes of tokens (150 fields: {small})");
    }
}
