//! Partition values: a field's value as its directory names it, and that
//! text read back as the field's column holds it.

use parquet::basic::{LogicalType, Repetition, Type as Physical};
use parquet::schema::types::Type;

use crate::error::{Error, Result};

/// A type whose values can name a partition directory (`name=value`):
/// what [`DatasetWriterBuilder::partition_by`](super::DatasetWriterBuilder::partition_by)
/// takes. The text is the one Spark, DuckDB and pyarrow write and parse
/// for the same column type: integers in decimal, booleans as `true` or
/// `false`, dates as `YYYY-MM-DD`, strings as they are (escaped in the path).
///
/// ```
/// use magnolify_parquet::dataset::PartitionValue;
///
/// assert_eq!(42u16.partition_text(), "42");
/// assert_eq!("Oslo".to_string().partition_text(), "Oslo");
/// ```
pub trait PartitionValue {
    /// Appends the value as its partition directory names it (before
    /// escaping) to `out`: the writer calls this for every record, into a
    /// buffer it reuses.
    fn write_partition_text(&self, out: &mut String);

    /// The value as its partition directory names it (before escaping).
    fn partition_text(&self) -> String {
        let mut out = String::new();
        self.write_partition_text(&mut out);
        out
    }
}

macro_rules! display_partition_value {
    ($($t:ty),*) => {$(
        impl PartitionValue for $t {
            fn write_partition_text(&self, out: &mut String) {
                use std::fmt::Write;
                // Writing into a `String` cannot fail.
                let _ = write!(out, "{self}");
            }
        }
    )*};
}

display_partition_value!(bool, i8, i16, i32, i64, u8, u16, u32, u64);

impl PartitionValue for String {
    fn write_partition_text(&self, out: &mut String) {
        out.push_str(self);
    }
}

#[cfg(feature = "chrono")]
impl PartitionValue for chrono::NaiveDate {
    fn write_partition_text(&self, out: &mut String) {
        use std::fmt::Write;
        let _ = write!(out, "{}", self.format("%Y-%m-%d"));
    }
}

/// What a partition field's column can be: the types whose text is the
/// same in every engine.
const SUPPORTED: &str = "partition fields must be booleans, integers, strings or dates (`NaiveDate`)";

/// Checks that `field` (a top-level node of the record's schema) can be a
/// partition field.
pub(crate) fn check_field(field: &Type) -> Result<()> {
    let refuse = |what: &str| Err(Error::schema(field.name(), format!("{SUPPORTED}; `{}` is {what}", field.name())));
    let Type::PrimitiveType { physical_type, .. } = field else { return refuse("a group") };
    if field.get_basic_info().repetition() == Repetition::REPEATED {
        return refuse("repeated");
    }
    let logical = field.get_basic_info().logical_type_ref().cloned();
    match (physical_type, logical) {
        (Physical::BOOLEAN, None)
        | (Physical::INT32 | Physical::INT64, None | Some(LogicalType::Integer(_)) | Some(LogicalType::Date))
        | (Physical::BYTE_ARRAY, Some(LogicalType::String | LogicalType::Enum)) => Ok(()),
        (physical, logical) => refuse(&match logical {
            Some(l) => format!("{physical} ({l:?})"),
            None => physical.to_string(),
        }),
    }
}

/// `text` (from a directory name) as the PLAIN bytes of `field`'s column
/// (a node [`check_field`] accepts); `None` text is a null.
pub(crate) fn plain_value(field: &Type, text: Option<&str>) -> Result<Option<Vec<u8>>> {
    check_field(field)?;
    let Some(text) = text else { return Ok(None) };
    let name = field.name();
    let bad = |what: &str| {
        Error::value(
            crate::error::Location::column(name),
            format!("the partition directory `{name}={text}` does not hold {what}; rename it or read `{name}` as a `String`"),
        )
    };
    let info = field.get_basic_info();
    let bytes = match (field.get_physical_type(), info.logical_type_ref()) {
        (Physical::BOOLEAN, _) => match text {
            "true" => vec![1],
            "false" => vec![0],
            _ => return Err(bad("`true` or `false`")),
        },
        (Physical::INT32, Some(LogicalType::Date)) => {
            days(text).ok_or_else(|| bad("a date (YYYY-MM-DD)"))?.to_le_bytes().to_vec()
        }
        (Physical::INT32, logical) => {
            let (bits, signed) = integer(logical, 32);
            let v = parse_integer(text, bits, signed).ok_or_else(|| bad(&integer_kind(bits, signed)))?;
            (v as i32).to_le_bytes().to_vec()
        }
        (Physical::INT64, logical) => {
            let (bits, signed) = integer(logical, 64);
            let v = parse_integer(text, bits, signed).ok_or_else(|| bad(&integer_kind(bits, signed)))?;
            (v as i64).to_le_bytes().to_vec()
        }
        _ => text.as_bytes().to_vec(),
    };
    Ok(Some(bytes))
}

fn integer(logical: Option<&LogicalType>, width: u8) -> (u8, bool) {
    match logical {
        Some(LogicalType::Integer(i)) => (i.bit_width as u8, i.is_signed),
        _ => (width, true),
    }
}

fn integer_kind(bits: u8, signed: bool) -> String {
    format!("a {}{bits} integer", if signed { "i" } else { "u" })
}

/// `text` as an integer of `bits` bits, as its bit pattern in an i128
/// (unsigned values above the signed range wrap when cast to the column).
fn parse_integer(text: &str, bits: u8, signed: bool) -> Option<i128> {
    let v: i128 = text.parse().ok()?;
    let (min, max) = match signed {
        true => (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1),
        false => (0, (1i128 << bits) - 1),
    };
    (min..=max).contains(&v).then_some(v)
}

/// Days since 1970-01-01 of the proleptic Gregorian date `YYYY-MM-DD` (a
/// year of 4 digits or more, possibly signed).
fn days(text: &str) -> Option<i32> {
    let (sign, rest) = match text.strip_prefix('-') {
        Some(rest) => (-1, rest),
        None => (1, text.strip_prefix('+').unwrap_or(text)),
    };
    let mut parts = rest.split('-');
    let (year, month, day) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() || year.len() < 4 || month.len() != 2 || day.len() != 2 {
        return None;
    }
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit()).then(|| s.parse::<i64>().ok()).flatten();
    let (year, month, day) = (sign * digits(year)?, digits(month)?, digits(day)?);
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let length = [31, if leap { 29 } else { 28 }, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    if !(1..=12).contains(&month) || day < 1 || day > length[month as usize - 1] {
        return None;
    }
    // Days from civil (H. Hinnant's algorithm), years starting in March.
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let year_of_era = y - era * 400;
    let m = (month + 9) % 12;
    let day_of_year = (153 * m + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    i32::try_from(era * 146_097 + day_of_era - 719_468).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use parquet::schema::parser::parse_message_type;

    fn field(text: &str) -> Type {
        let message = parse_message_type(&format!("message m {{ {text} }}")).unwrap();
        (*message.get_fields()[0]).clone()
    }

    #[test]
    fn dates() {
        assert_eq!(days("1970-01-01"), Some(0));
        assert_eq!(days("2024-02-29"), Some(19_782));
        assert_eq!(days("1969-12-31"), Some(-1));
        assert_eq!(days("0001-01-01"), Some(-719_162));
        assert_eq!(days("2023-02-29"), None);
        assert_eq!(days("2024-13-01"), None);
        assert_eq!(days("2024-1-01"), None);
        assert_eq!(days("20240101"), None);
    }

    #[test]
    fn texts_read_as_their_column_holds_them() {
        let date = field("required int32 d (DATE);");
        assert_eq!(plain_value(&date, Some("1970-01-02")).unwrap(), Some(1i32.to_le_bytes().to_vec()));
        let small = field("required int32 n (INTEGER(8,true));");
        assert_eq!(plain_value(&small, Some("-128")).unwrap(), Some((-128i32).to_le_bytes().to_vec()));
        assert!(plain_value(&small, Some("128")).is_err());
        let unsigned = field("required int64 n (INTEGER(64,false));");
        assert_eq!(plain_value(&unsigned, Some("18446744073709551615")).unwrap(), Some((-1i64).to_le_bytes().to_vec()));
        assert!(plain_value(&unsigned, Some("-1")).is_err());
        let text = field("optional binary s (STRING);");
        assert_eq!(plain_value(&text, Some("a=b")).unwrap(), Some(b"a=b".to_vec()));
        assert_eq!(plain_value(&text, None).unwrap(), None);
        let flag = field("required boolean b;");
        assert_eq!(plain_value(&flag, Some("true")).unwrap(), Some(vec![1]));
        let message = plain_value(&flag, Some("yes")).unwrap_err().to_string();
        assert!(message.contains("`b=yes` does not hold `true` or `false`"), "{message}");
    }

    #[test]
    fn other_types_cannot_partition() {
        for text in ["required double x;", "required int64 t (TIMESTAMP(MICROS,true));", "required binary b;"] {
            let message = check_field(&field(text)).unwrap_err().to_string();
            assert!(message.contains("partition fields must be booleans, integers, strings or dates"), "{message}");
        }
    }
}
