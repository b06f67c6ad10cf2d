//! A Variant value as a JSON document: parquet-variant-json's conversion,
//! except for decimals with a fraction, which become the double nearest
//! their exact value.
//!
//! parquet-variant-json 60.1 divides the unscaled integer by `10^scale` in
//! doubles: two roundings, which can land an ulp away. DECIMAL8 unscaled
//! -368216012929531805, scale 3, gives -368216012929531.75, where the
//! nearest double is -368216012929531.8125. Parsing the exact decimal text
//! rounds once, correctly. (To tell upstream: arrow-rs, `to_json.rs`,
//! `Variant::Decimal4/8/16` in `to_json_value` and `to_json`.)

use parquet_variant::Variant;
use parquet_variant_json::VariantToJson;
use serde_json::{Map, Value};

/// `variant` as JSON, or parquet-variant-json's error.
pub(super) fn to_json(variant: &Variant<'_, '_>) -> Result<Value, String> {
    let exact = match variant {
        Variant::Object(object) => {
            let fields = object.iter().map(|(name, value)| Ok((name.to_owned(), to_json(&value)?)));
            return fields.collect::<Result<Map<_, _>, String>>().map(Value::Object);
        }
        Variant::List(list) => {
            return list.iter().map(|value| to_json(&value)).collect::<Result<_, _>>().map(Value::Array)
        }
        Variant::Decimal4(d) => fraction(d.integer().into(), d.scale()),
        Variant::Decimal8(d) => fraction(d.integer().into(), d.scale()),
        Variant::Decimal16(d) => fraction(d.integer(), d.scale()),
        _ => None,
    };
    match exact {
        Some(value) => Ok(value),
        None => variant.to_json_value().map_err(|e| e.to_string()),
    }
}

/// The decimal `unscaled × 10^-scale` as the nearest double, if it has a
/// fraction (a whole decimal stays an integer, as parquet-variant-json
/// writes it).
fn fraction(unscaled: i128, scale: u8) -> Option<Value> {
    let divisor = 10u128.checked_pow(u32::from(scale))?;
    if scale == 0 || unscaled.unsigned_abs().is_multiple_of(divisor) {
        return None;
    }
    let digits = format!("{:0>width$}", unscaled.unsigned_abs(), width = usize::from(scale) + 1);
    let (whole, fraction) = digits.split_at(digits.len() - usize::from(scale));
    let sign = if unscaled < 0 { "-" } else { "" };
    let nearest: f64 = format!("{sign}{whole}.{fraction}").parse().ok()?;
    serde_json::Number::from_f64(nearest).map(Value::Number)
}

#[cfg(test)]
mod tests {
    use parquet_variant::{VariantBuilder, VariantDecimal16, VariantDecimal4, VariantDecimal8};
    use serde_json::json;

    use super::*;

    #[test]
    fn decimals_become_the_nearest_double() {
        let long = Variant::from(VariantDecimal8::try_new(-368_216_012_929_531_805, 3).unwrap());
        // -368216012929531.8 is -368216012929531.8125, the nearest double.
        assert_eq!(to_json(&long).unwrap(), json!(-368216012929531.8));
        // parquet-variant-json's answer, an ulp away.
        assert_eq!(long.to_json_value().unwrap(), json!(-368216012929531.75));
        let small = Variant::from(VariantDecimal4::try_new(-5, 2).unwrap());
        assert_eq!(to_json(&small).unwrap(), json!(-0.05));
        let wide = Variant::from(VariantDecimal16::try_new(123_456_789_012_345_678_901_234_567, 20).unwrap());
        assert_eq!(to_json(&wide).unwrap(), json!(1234567.8901234567));
        // Whole decimals stay integers.
        let whole = Variant::from(VariantDecimal8::try_new(1200, 2).unwrap());
        assert_eq!(to_json(&whole).unwrap(), json!(12));
    }

    #[test]
    fn decimals_inside_objects_and_lists_too() {
        let mut builder = VariantBuilder::new();
        let mut object = builder.new_object();
        let mut list = object.new_list("prices");
        list.append_value(VariantDecimal8::try_new(-368_216_012_929_531_805, 3).unwrap());
        list.append_value("text");
        list.finish();
        object.insert("n", 1i8);
        object.finish();
        let (metadata, value) = builder.finish();
        let variant = Variant::try_new(&metadata, &value).unwrap();
        assert_eq!(to_json(&variant).unwrap(), json!({ "n": 1, "prices": [-368216012929531.8, "text"] }));
    }
}
