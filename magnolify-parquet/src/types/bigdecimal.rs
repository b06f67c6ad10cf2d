//! `bigdecimal::BigDecimal` (feature `bigdecimal`): DECIMAL(precision, scale)
//! with precision up to 76, Spark's DECIMAL(38, 10) and beyond.

use std::borrow::Cow;

use bigdecimal::BigDecimal;
use num_bigint::{BigInt, Sign};

use super::decimal_column as column;
use super::LeafPlan;
use crate::assemble::RecordSource;
use crate::error::Result;
use crate::field::ParquetWrite;
use crate::options::FieldOptions;
use crate::shred::{ColumnSink, WriteAt};
use column::{DecimalConv, Inexact, Limits, Unscaled};

const LIMITS: Limits = Limits { name: "bigdecimal::BigDecimal", max_precision: 76, wider: "" };

fn pow10(k: u64) -> Option<BigInt> {
    Some(BigInt::from(10u8).pow(u32::try_from(k).ok()?))
}

/// `unscaled` × 10^shift exactly: multiplied up, or divided down only when
/// no digit is lost; `None` when the value is unchanged. Bounds are checked
/// on sizes before any power of ten is built, so an absurd exponent costs
/// nothing: a shift beyond `precision` cannot fit it.
fn rescale(unscaled: &BigInt, shift: i128, precision: Option<u32>) -> Result<Option<BigInt>, Inexact> {
    if unscaled.sign() == Sign::NoSign || shift == 0 {
        return Ok(None);
    }
    if shift > 0 {
        if precision.is_some_and(|p| shift > i128::from(p)) {
            return Err(Inexact::TooManyDigits);
        }
        let f = u64::try_from(shift).ok().and_then(pow10).ok_or(Inexact::TooManyDigits)?;
        return Ok(Some(unscaled * f));
    }
    let k = u64::try_from(-shift).map_err(|_| Inexact::FractionLost)?;
    // A nonzero value below 2^bits has at most bits/3 digits (10^k > 2^3k): a power with 3k >= bits never divides it.
    if k.saturating_mul(3) >= unscaled.bits() {
        return Err(Inexact::FractionLost);
    }
    let f = pow10(k).ok_or(Inexact::FractionLost)?;
    if (unscaled % &f).sign() != Sign::NoSign {
        return Err(Inexact::FractionLost);
    }
    Ok(Some(unscaled / f))
}

/// Whether `v` has at most `precision` digits.
fn fits(v: &BigInt, precision: u32) -> bool {
    pow10(u64::from(precision)).is_some_and(|bound| v.magnitude() < bound.magnitude())
}

decimal_schema_read! {
/// Written as `DECIMAL(P, S)` from the field's
/// `#[parquet(decimal(precision = P, scale = S))]`, P up to 76, which
/// writing requires: INT32 for P ≤ 9, INT64 for P ≤ 18, else the shortest
/// FIXED_LEN_BYTE_ARRAY (16 bytes for Spark's DECIMAL(38, 10)), unless the
/// attribute forces a physical type.
///
/// Values are rescaled to S exactly: one with more fraction digits than S,
/// or more than P digits in all, is an error naming the column, never
/// rounded. Reading accepts DECIMAL columns of any physical type, precision
/// and scale, and converts every value exactly to the field's scale, with
/// the same errors; without a declared spec it keeps the file's scale.
///
/// ```
/// use magnolify_parquet::{FieldOptions, ParquetSchema, schema};
/// use parquet::basic::Repetition;
///
/// let opts = FieldOptions::new().decimal(38, 10);
/// let node = bigdecimal::BigDecimal::schema("amount", Repetition::OPTIONAL, &opts).unwrap();
/// assert_eq!(schema::to_text(&node).trim(), "OPTIONAL FIXED_LEN_BYTE_ARRAY (16) amount (DECIMAL(38,10));");
/// ```
BigDecimal, limits: &LIMITS, read: read_value
}

/// Borrowed when the value already has the column's scale: no copy.
impl Unscaled for Cow<'_, BigInt> {
    type Bytes = Vec<u8>;

    fn to_i32(&self) -> Option<i32> {
        i32::try_from(self.as_ref()).ok()
    }

    fn to_i64(&self) -> Option<i64> {
        i64::try_from(self.as_ref()).ok()
    }

    fn be_bytes(&self) -> Vec<u8> {
        self.to_signed_bytes_be()
    }
}

impl ParquetWrite for BigDecimal {
    fn write(&self, sink: &mut ColumnSink, at: WriteAt, opts: &FieldOptions) -> Result<()> {
        column::write_decimal(sink, at, opts, &LIMITS, self, |p, s| {
            let (mantissa, scale) = self.as_bigint_and_scale();
            let unscaled = match rescale(&mantissa, i128::from(s) - i128::from(scale), Some(p))? {
                Some(rescaled) => Cow::Owned(rescaled),
                None => mantissa,
            };
            if fits(&unscaled, p) {
                Ok(unscaled)
            } else {
                Err(Inexact::TooManyDigits)
            }
        })
    }
}

/// Reads one value of a resolved DECIMAL column at the field's scale.
#[inline]
fn read_value(plan: &LeafPlan<DecimalConv>, src: &mut RecordSource) -> Result<BigDecimal> {
    let (c, conv) = (plan.cursor, &plan.conv);
    let unscaled = column::read_unscaled(plan, src, |b| Ok(BigInt::from_signed_bytes_be(b)))?;
    let fail = |src: &RecordSource, v: &BigInt, scale: u32, e: Inexact| {
        let shown = column::show(&v.to_string(), scale);
        src.value_error(c, format!("{shown} {}", e.describe(conv.precision, conv.scale, &LIMITS)))
    };
    let value = match rescale(&unscaled, i128::from(conv.shift()), conv.precision) {
        Ok(v) => v.unwrap_or(unscaled),
        Err(e) => return Err(fail(src, &unscaled, conv.file_scale, e)),
    };
    if conv.precision.is_some_and(|p| !fits(&value, p)) {
        return Err(fail(src, &value, conv.scale, Inexact::TooManyDigits));
    }
    Ok(BigDecimal::new(value, i64::from(conv.scale)))
}

#[cfg(test)]
mod tests {
    //! Round trips and errors of `BigDecimal`, through a one-field converter
    //! written over the runtime (the tests crate does not depend on bigdecimal).

    use std::str::FromStr;

    use bigdecimal::BigDecimal;

    use crate::convert::OneField;
    use crate::mem::MemPageStore;
    use crate::{
        schema, DecimalPhysical, Error, FieldOptions, ParquetReadOwned, ParquetWrite, ParquetWriter, ReadOptions,
        ReaderBuilder, RecordSchema,
    };

    fn one<T>(opts: FieldOptions) -> OneField<T> {
        OneField::new("v", opts)
    }

    fn big(s: &str) -> BigDecimal {
        BigDecimal::from_str(s).unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    fn dec(p: u8, s: u8) -> FieldOptions {
        FieldOptions::new().decimal(p, s)
    }

    fn write<T: ParquetWrite>(opts: FieldOptions, values: &[T]) -> crate::Result<bytes::Bytes> {
        let mut writer = ParquetWriter::with_converter(one::<T>(opts), Vec::new())?;
        for v in values {
            writer.write(v)?;
        }
        Ok(bytes::Bytes::from(writer.into_inner()?))
    }

    fn read<T: ParquetReadOwned + Send + 'static>(opts: FieldOptions, file: &bytes::Bytes) -> crate::Result<Vec<T>> {
        ReaderBuilder::new(file.clone())?.build_with(one::<T>(opts), ReadOptions::default())?.collect()
    }

    fn texts(values: &[BigDecimal]) -> Vec<String> {
        values.iter().map(|v| v.to_string()).collect()
    }

    fn column_text(file: &bytes::Bytes) -> String {
        let builder = ReaderBuilder::new(file.clone()).unwrap_or_else(|e| panic!("{e}"));
        let descr = builder.schema().column(0);
        schema::to_text(descr.self_type()).trim().to_owned()
    }

    /// Writes and reads back through the page store and a file, exactly and
    /// at the declared scale.
    fn round_trip(opts: FieldOptions, text: &str, values: &[&str]) {
        let values: Vec<BigDecimal> = values.iter().map(|v| big(v)).collect();
        let scale = opts.decimal.map_or(0, |s| i64::from(s.scale));
        let expected: Vec<String> = values.iter().map(|v| v.with_scale(scale).to_string()).collect();

        let mut writer = MemPageStore::writer(one::<BigDecimal>(opts)).expect("writer");
        for v in &values {
            writer.write(v).unwrap_or_else(|e| panic!("{v}: {e}"));
        }
        let store = writer.close().expect("store");
        let back: Vec<BigDecimal> = store.reader(one(opts)).expect("reader").collect::<Result<_, _>>().expect("read");
        assert_eq!(back, values);
        assert_eq!(texts(&back), expected);

        let file = write(opts, &values).expect("file");
        assert_eq!(column_text(&file), text);
        let back = read::<BigDecimal>(opts, &file).expect("read file");
        assert_eq!(texts(&back), expected);
    }

    #[test]
    fn spark_decimal_38_10_round_trips_in_16_bytes() {
        round_trip(
            dec(38, 10),
            "REQUIRED FIXED_LEN_BYTE_ARRAY (16) v (DECIMAL(38,10));",
            &[
                "9999999999999999999999999999.9999999999",
                "-9999999999999999999999999999.9999999999",
                "0",
                "-0.0000000001",
                "12.5",
            ],
        );
    }

    #[test]
    fn every_physical_type_round_trips_at_its_limits() {
        let nines = "9".repeat(76);
        let minus_nines = format!("-{nines}");
        round_trip(
            dec(76, 0),
            "REQUIRED FIXED_LEN_BYTE_ARRAY (32) v (DECIMAL(76,0));",
            &[&nines, &minus_nines, "0", "-1"],
        );
        round_trip(
            dec(50, 25).decimal_physical(DecimalPhysical::Binary),
            "REQUIRED BYTE_ARRAY v (DECIMAL(50,25));",
            &["-1234567890123456789012345.1234567890123456789012345", "0", "-0.0000000000000000000000001"],
        );
        round_trip(dec(9, 2), "REQUIRED INT32 v (DECIMAL(9,2));", &["9999999.99", "-9999999.99", "0"]);
        round_trip(dec(18, 0), "REQUIRED INT64 v (DECIMAL(18,0));", &["999999999999999999", "-999999999999999999"]);
        round_trip(
            dec(3, 1).decimal_physical(DecimalPhysical::Fixed),
            "REQUIRED FIXED_LEN_BYTE_ARRAY (2) v (DECIMAL(3,1));",
            &["99.9", "-99.9", "0.1"],
        );
    }

    #[test]
    fn values_are_rescaled_exactly_or_refused() {
        // 1E+5 has a negative scale; 1.50 and 1.5 are the same number.
        let file = write(dec(8, 2), &[big("1E+5"), big("1.5"), big("-2")]).expect("write");
        assert_eq!(texts(&read::<BigDecimal>(dec(8, 2), &file).expect("read")), ["100000.00", "1.50", "-2.00"]);
        let refused = |opts, v: BigDecimal| match write(opts, &[v]) {
            Ok(_) => panic!("should fail"),
            Err(e) => {
                assert_eq!(e.column(), Some("v"), "{e}");
                e.to_string()
            }
        };
        assert!(refused(dec(8, 2), big("1.005")).contains("more than 2 fraction digits"));
        assert!(refused(dec(8, 2), big("1000000")).contains("does not fit DECIMAL(8, 2)"));
        // Absurd exponents are refused from their size, without building the number.
        assert!(refused(dec(76, 0), BigDecimal::new(1.into(), -1_000_000_000)).contains("does not fit DECIMAL(76, 0)"));
        assert!(refused(dec(76, 0), BigDecimal::new(1.into(), 1_000_000_000)).contains("more than 0 fraction digits"));
        assert!(refused(dec(76, 0), BigDecimal::new(1.into(), i64::MIN)).contains("does not fit"));
        assert!(refused(dec(76, 0), BigDecimal::new(7.into(), i64::MAX)).contains("fraction digits"));
    }

    #[test]
    fn reads_convert_to_the_declared_scale_exactly() {
        let file = write(dec(38, 10), &[big("1.25"), big("-3"), big("1.0000000001")]).expect("write");
        let up = read::<BigDecimal>(dec(60, 20), &file).expect("up");
        assert_eq!(texts(&up), ["1.25000000000000000000", "-3.00000000000000000000", "1.00000000010000000000"]);
        let plain = read::<BigDecimal>(FieldOptions::new(), &file).expect("file scale");
        assert_eq!(texts(&plain), ["1.2500000000", "-3.0000000000", "1.0000000001"]);
        let e = read::<BigDecimal>(dec(10, 2), &file).expect_err("inexact");
        assert!(matches!(&e, Error::Value { .. }) && e.location().unwrap().record == Some(2), "{e}");
        assert!(e.to_string().contains("1.0000000001 has more than 2 fraction digits"), "{e}");
        let e = read::<BigDecimal>(dec(2, 2), &file).expect_err("too wide");
        assert!(matches!(&e, Error::Value { .. }) && e.location().unwrap().record == Some(0), "{e}");
        assert!(e.to_string().contains("1.25 does not fit DECIMAL(2, 2)"), "{e}");
        // rust_decimal and BigDecimal read the same file the same way.
        #[cfg(feature = "decimal")]
        {
            let small = read::<rust_decimal::Decimal>(dec(12, 3), &file.clone()).err();
            assert!(small.is_some_and(|e| e.to_string().contains("more than 3 fraction digits")));
        }
    }

    #[test]
    fn schema_errors_name_the_field() {
        let error = |opts| one::<BigDecimal>(opts).schema().expect_err("schema error").to_string();
        assert!(error(FieldOptions::new()).contains("#[parquet(decimal(precision = P, scale = S))]"));
        assert!(error(dec(77, 0)).contains("1 to 76 digits"));
        assert!(error(dec(10, 0).decimal_physical(DecimalPhysical::Int32)).contains("INT32 holds at most 9"));
        assert!(error(dec(77, 0)).starts_with("unsupported type at field `v`"));
    }
}
