//! What the Parquet and Avro front-ends share: what a field's type
//! collects on the way down (units, decimals, list layouts, notes), how
//! that becomes the field's attributes, and the leaf types both map to.

use super::model::{DecimalAttr, DecimalPhysical, FieldAttrs, ListLayout, RustType, Scalar, TimeUnit};

/// Deepest nesting followed; the library's footer reader refuses deeper
/// schemas, and recursion must stay bounded on any input.
pub const MAX_DEPTH: usize = 100;

/// Longest `[u8; N]` generated: longer fixed-length columns read as
/// `Vec<u8>` (which the runtime also accepts for them), so that huge arrays
/// are not put on the stack.
pub const MAX_ARRAY_LEN: usize = 1024;

/// What one field's type collected on the way down.
#[derive(Default)]
pub struct FieldCx {
    /// Extra doc lines.
    pub notes: Vec<String>,
    /// Why no type reads the column: the field is kept, with `skip`.
    pub unsupported: Option<String>,
    /// Why the field is left out altogether.
    pub omitted: Option<String>,
    /// Units of the times and timestamps inside.
    pub units: Vec<TimeUnit>,
    /// Decimal settings of the decimals inside.
    pub decimals: Vec<DecimalAttr>,
    /// Layouts of the lists inside, `None` for three-level.
    pub layouts: Vec<Option<ListLayout>>,
}

impl FieldCx {
    /// Records why the column cannot be read (the first reason wins).
    pub fn unsupported(&mut self, why: String) {
        if self.unsupported.is_none() {
            self.unsupported = Some(why);
        }
    }

    /// Adds to `attrs` the `timestamp`, `decimal` and `list` settings of
    /// what the type collected, and to `notes` where they cannot say it all.
    pub fn finish(&self, attrs: &mut FieldAttrs, notes: &mut Vec<String>) {
        attrs.timestamp = self.units.iter().copied().max();
        if self.units.iter().any(|u| Some(*u) != attrs.timestamp) {
            notes.push("Its columns have different time units: the finest reads them all.".to_owned());
        }
        match self.decimals.as_slice() {
            [] => {}
            [first, rest @ ..] if rest.iter().all(|d| d == first) => attrs.decimal = Some(*first),
            _ => notes.push(
                "Its decimal columns differ: reads keep each column's scale; writes need a `decimal` attribute."
                    .to_owned(),
            ),
        }
        if attrs.timestamp.is_some() && attrs.decimal.take().is_some() {
            notes.push(
                "Holds times and decimals: `decimal` (needed for writes) cannot be set with `timestamp`.".to_owned(),
            );
        }
        attrs.list = match self.layouts.as_slice() {
            [Some(ListLayout::Repeated)] => Some(ListLayout::Repeated),
            [first @ Some(ListLayout::TwoLevel), rest @ ..] if rest.iter().all(|l| l == first) => *first,
            _ => None,
        };
    }
}

/// The doc lines: the column's name, then the notes as a paragraph of
/// their own (a blank line keeps rustdoc from joining them to the name).
pub fn with_notes(mut doc: Vec<String>, notes: Vec<String>) -> Vec<String> {
    if !notes.is_empty() {
        doc.push(String::new());
        doc.extend(notes);
    }
    doc
}

/// `Vec<element>`; `u8` elements become `u16`, since `Vec<u8>` is a byte
/// string (BYTE_ARRAY) to the runtime, not a list.
pub fn vec_of(element: RustType, cx: &mut FieldCx) -> RustType {
    let element = match element {
        RustType::Scalar(Scalar::U8) => {
            cx.notes.push("Elements are INTEGER(8,false), read as u16: `Vec<u8>` is a byte string.".to_owned());
            RustType::Scalar(Scalar::U16)
        }
        other => other,
    };
    RustType::Vec(Box::new(element))
}

/// `[u8; N]` for a fixed length up to [`MAX_ARRAY_LEN`], else `Vec<u8>`
/// (with a note); `Vec<u8>` for variable-length bytes (`fixed` = None).
pub fn bytes(fixed: Option<usize>, cx: &mut FieldCx) -> Scalar {
    match fixed {
        Some(n) if n <= MAX_ARRAY_LEN => Scalar::FixedBytes(n),
        Some(n) => {
            cx.notes.push(format!("FIXED_LEN_BYTE_ARRAY({n}): read as Vec<u8> rather than a {n}-byte array."));
            Scalar::Bytes
        }
        None => Scalar::Bytes,
    }
}

/// `rust_decimal::Decimal` up to 28 digits, `bigdecimal::BigDecimal` above,
/// with the precision, scale and (when not the default for the precision)
/// physical type, so that writes give the same column. `Err` says why the
/// precision and scale are invalid.
pub fn decimal(precision: u32, scale: u32, physical: DecimalPhysical, cx: &mut FieldCx) -> Result<RustType, String> {
    if precision == 0 || scale > precision {
        return Err(format!("DECIMAL({precision}, {scale}) is invalid"));
    }
    let default = match precision {
        ..=9 => DecimalPhysical::Int32,
        10..=18 => DecimalPhysical::Int64,
        _ => DecimalPhysical::Fixed,
    };
    let physical = if physical == default { DecimalPhysical::Auto } else { physical };
    let attr = DecimalAttr { precision, scale, physical };
    Ok(match precision {
        ..=28 => {
            cx.decimals.push(attr);
            RustType::Scalar(Scalar::Decimal)
        }
        29..=76 => {
            cx.decimals.push(attr);
            RustType::Scalar(Scalar::BigDecimal)
        }
        _ => {
            // Reads keep the file's scale; no attribute declares more than 76 digits.
            cx.notes.push(format!("DECIMAL({precision}, {scale}) has more digits than writes support (76)."));
            RustType::Scalar(Scalar::BigDecimal)
        }
    })
}
