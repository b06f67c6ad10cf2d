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
    /// Whether each text column inside is annotated JSON.
    pub texts: Vec<bool>,
}

impl FieldCx {
    /// Records why the column cannot be read (the first reason wins).
    pub fn unsupported(&mut self, why: String) {
        if self.unsupported.is_none() {
            self.unsupported = Some(why);
        }
    }

    /// Adds to `attrs` the `timestamp`, `decimal`, `list` and `json`
    /// settings of what the type collected, and to `notes` where they
    /// cannot say it all.
    pub fn finish(&self, attrs: &mut FieldAttrs, notes: &mut Vec<String>) {
        attrs.json = !self.texts.is_empty() && self.texts.iter().all(|json| *json);
        if !attrs.json && self.texts.contains(&true) {
            notes.push(
                "Not kept: the JSON annotation of some of its text columns (the others are not JSON; all are \
                 written back as STRING)."
                    .to_owned(),
            );
        }
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
            cx.notes.push(
                "Elements are INTEGER(8,false), read as u16: `Vec<u8>` is a byte string. Not kept: the 8-bit width \
                 (written back as INTEGER(16,false))."
                    .to_owned(),
            );
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
            cx.notes.push(format!(
                "FIXED_LEN_BYTE_ARRAY({n}): read as Vec<u8> rather than a {n}-byte array. Not kept: the fixed \
                 length (written back as BYTE_ARRAY)."
            ));
            Scalar::Bytes
        }
        None => Scalar::Bytes,
    }
}

/// `rust_decimal::Decimal` up to 28 digits, `bigdecimal::BigDecimal` above,
/// with the precision, scale and (when not the default for the precision)
/// physical type, so that writes give the same column; `fixed` is the
/// length of a fixed-length one, noted when writes use another. `Err` says
/// why the precision and scale are invalid.
pub fn decimal(
    precision: u32,
    scale: u32,
    physical: DecimalPhysical,
    fixed: Option<usize>,
    cx: &mut FieldCx,
) -> Result<RustType, String> {
    if precision == 0 || scale > precision {
        return Err(format!("DECIMAL({precision}, {scale}) is invalid"));
    }
    let fewest = min_fixed_len(precision);
    match fixed {
        // The attribute has no length: writes use the fewest bytes that hold the precision.
        Some(n) if physical == DecimalPhysical::Fixed && precision <= 76 && n != fewest => cx.notes.push(format!(
            "Not kept: the length of its {n} fixed bytes (written back in {fewest}, the fewest that hold \
             {precision} digits)."
        )),
        _ => {}
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

/// The fewest bytes of a FIXED_LEN_BYTE_ARRAY DECIMAL that hold `precision`
/// digits, the length the runtime writes: `n` bytes hold
/// ⌊log10(2^(8n-1))⌋ digits (a power of two is never a power of ten, so
/// the float never lands on an integer, where rounding could misfloor).
pub fn min_fixed_len(precision: u32) -> usize {
    (1..)
        .find(|&n: &usize| ((8 * n - 1) as f64 * std::f64::consts::LOG10_2).floor() >= f64::from(precision))
        .unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use super::min_fixed_len;

    /// The format's table, which the runtime's writer follows.
    #[test]
    fn fixed_lengths_of_decimals() {
        for (precision, len) in
            [(1, 1), (2, 1), (3, 2), (9, 4), (10, 5), (18, 8), (20, 9), (28, 12), (38, 16), (40, 17), (76, 32)]
        {
            assert_eq!(min_fixed_len(precision), len, "{precision}");
        }
    }
}
