//! The JSON form of typed records, in the encoding of
//! `tests/fixtures/*.expected.json` (see `tests/fixtures/README.md`), and an
//! exact comparison with such JSON.
//!
//! The fixture tests read a file into a Rust struct, turn every record into
//! JSON with [`ToJson`] and compare it with the expected row; the peer example
//! writes the JSON of the records it writes, for the Python checks to compare
//! with what pyarrow and DuckDB read.
//!
//! The text of leaf values (dates, times, timestamps, decimals, bytes,
//! floats) is [`crate::text`]'s, the one the CLI's `cat` prints: the ToJson
//! impls only turn the Rust values into what its functions take.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

use crate::text::{date_text, datetime_text, decimal_text, float, hex, time_text, NANOS_PER_DAY};
use serde_json::Number;
pub use serde_json::Value;

/// What the Rust type alone does not say about a value's JSON form: the
/// fraction digits of a time or timestamp (its unit in the file) and whether
/// an instant gets its `Z` suffix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fmt {
    /// Fraction digits of times and timestamps: 3, 6 or 9.
    pub digits: u8,
    /// `Some(true)`/`Some(false)` forces the `Z` suffix on or off; `None`
    /// gives it to `DateTime<Utc>` and not to `NaiveDateTime`.
    pub zulu: Option<bool>,
}

impl Fmt {
    /// Micros, `Z` by type.
    pub const DEFAULT: Fmt = Fmt { digits: 6, zulu: None };
    /// MILLIS columns.
    pub const MILLIS: Fmt = Fmt { digits: 3, zulu: None };
    /// MICROS columns.
    pub const MICROS: Fmt = Fmt::DEFAULT;
    /// NANOS columns.
    pub const NANOS: Fmt = Fmt { digits: 9, zulu: None };
    /// INT96 columns: nanoseconds, never a `Z`.
    pub const INT96: Fmt = Fmt { digits: 9, zulu: Some(false) };
}

/// A value with a JSON form in the fixtures' encoding.
///
/// Maps become `{"$map": [[k, v], ...]}` (pairs in iteration order), so that
/// [`diff`] can compare them without regard to order (a `HashMap` has none)
/// and [`plain`] can turn them into the fixtures' array of pairs.
pub trait ToJson {
    /// The JSON of the value.
    fn to_json(&self, f: Fmt) -> Value;
}

/// Types whose `Vec` is a JSON array: every [`ToJson`] type but `u8`, since
/// `Vec<u8>` is a byte string (hex), as in the library.
pub trait JsonElem: ToJson {}

/// The JSON object of a struct, fields in the order given.
pub fn object(fields: Vec<(&str, Value)>) -> Value {
    Value::Object(fields.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
}

/// Implements [`ToJson`] for a struct: `to_json_struct!(T { "column" => field, "ts" => ts @ Fmt::MILLIS })`.
#[macro_export]
macro_rules! to_json_struct {
    ($t:ty { $($name:expr => $field:ident $(@ $fmt:expr)?),* $(,)? }) => {
        impl $crate::json::ToJson for $t {
            fn to_json(&self, _f: $crate::json::Fmt) -> $crate::json::Value {
                $crate::json::object(vec![
                    $(($name, $crate::json::ToJson::to_json(&self.$field, $crate::to_json_struct!(@fmt $($fmt)?))),)*
                ])
            }
        }
        impl $crate::json::JsonElem for $t {}
    };
    (@fmt) => { $crate::json::Fmt::DEFAULT };
    (@fmt $fmt:expr) => { $fmt };
}

macro_rules! ints {
    ($($t:ty),*) => {$(
        impl ToJson for $t {
            fn to_json(&self, _f: Fmt) -> Value {
                Value::from(*self)
            }
        }
    )*};
}
ints!(i8, i16, i32, i64, u8, u16, u32, u64);

macro_rules! elems {
    ($($t:ty),*) => {$( impl JsonElem for $t {} )*};
}
elems!(bool, i8, i16, i32, i64, u16, u32, u64, f32, f64, String, Box<str>, Vec<u8>, bytes::Bytes, Box<[u8]>);

impl ToJson for bool {
    fn to_json(&self, _f: Fmt) -> Value {
        Value::Bool(*self)
    }
}

impl ToJson for f32 {
    fn to_json(&self, _f: Fmt) -> Value {
        // Widening is exact, and the fixtures hold the widened double.
        float(f64::from(*self))
    }
}

impl ToJson for f64 {
    fn to_json(&self, _f: Fmt) -> Value {
        float(*self)
    }
}

impl ToJson for half::f16 {
    fn to_json(&self, _f: Fmt) -> Value {
        float(self.to_f64())
    }
}
impl JsonElem for half::f16 {}

impl ToJson for String {
    fn to_json(&self, _f: Fmt) -> Value {
        Value::from(self.as_str())
    }
}

impl ToJson for Box<str> {
    fn to_json(&self, _f: Fmt) -> Value {
        Value::from(&**self)
    }
}

impl ToJson for Vec<u8> {
    fn to_json(&self, _f: Fmt) -> Value {
        Value::from(hex(self))
    }
}

impl ToJson for bytes::Bytes {
    fn to_json(&self, _f: Fmt) -> Value {
        Value::from(hex(self))
    }
}

impl ToJson for Box<[u8]> {
    fn to_json(&self, _f: Fmt) -> Value {
        Value::from(hex(self))
    }
}

// Borrowed text and bytes (records read with `build_borrowed`) have the
// JSON of their owned forms.
impl ToJson for &str {
    fn to_json(&self, _f: Fmt) -> Value {
        Value::from(*self)
    }
}

impl ToJson for &[u8] {
    fn to_json(&self, _f: Fmt) -> Value {
        Value::from(hex(self))
    }
}

impl ToJson for Cow<'_, str> {
    fn to_json(&self, _f: Fmt) -> Value {
        Value::from(&**self)
    }
}
elems!(&str, &[u8], Cow<'_, str>);

/// A row already in JSON (records turned into JSON while their batch lives).
impl ToJson for Value {
    fn to_json(&self, _f: Fmt) -> Value {
        self.clone()
    }
}

impl<const N: usize> ToJson for [u8; N] {
    fn to_json(&self, _f: Fmt) -> Value {
        Value::from(hex(self))
    }
}
impl<const N: usize> JsonElem for [u8; N] {}

impl<T: ToJson> ToJson for Option<T> {
    fn to_json(&self, f: Fmt) -> Value {
        self.as_ref().map_or(Value::Null, |v| v.to_json(f))
    }
}
impl<T: ToJson> JsonElem for Option<T> {}

impl<T: ToJson> ToJson for Box<T> {
    fn to_json(&self, f: Fmt) -> Value {
        (**self).to_json(f)
    }
}
impl<T: ToJson> JsonElem for Box<T> {}

impl<T: JsonElem> ToJson for Vec<T> {
    fn to_json(&self, f: Fmt) -> Value {
        Value::Array(self.iter().map(|v| v.to_json(f)).collect())
    }
}
impl<T: JsonElem> JsonElem for Vec<T> {}

/// The JSON of a map's entries, marked for [`diff`] and [`plain`].
pub fn map<'a, K: ToJson + 'a, V: ToJson + 'a>(entries: impl Iterator<Item = (&'a K, &'a V)>, f: Fmt) -> Value {
    let pairs = entries.map(|(k, v)| Value::Array(vec![k.to_json(f), v.to_json(f)])).collect();
    object(vec![(MAP_MARK, Value::Array(pairs))])
}

/// The key under which [`ToJson`] marks a map.
pub const MAP_MARK: &str = "$map";

impl<K: ToJson, V: ToJson, S> ToJson for HashMap<K, V, S> {
    fn to_json(&self, f: Fmt) -> Value {
        map(self.iter(), f)
    }
}
impl<K: ToJson, V: ToJson, S> JsonElem for HashMap<K, V, S> {}

impl<K: ToJson, V: ToJson> ToJson for BTreeMap<K, V> {
    fn to_json(&self, f: Fmt) -> Value {
        map(self.iter(), f)
    }
}
impl<K: ToJson, V: ToJson> JsonElem for BTreeMap<K, V> {}

// ---------------------------------------------------------------------------
// Logical types
// ---------------------------------------------------------------------------

/// Days from 0001-01-01 (day 1 of [`chrono::Datelike::num_days_from_ce`])
/// to 1970-01-01.
const DAYS_FROM_CE_TO_EPOCH: i64 = 719_163;

/// The days since 1970-01-01 of `d`, as [`date_text`] takes them.
fn epoch_days(d: chrono::NaiveDate) -> i64 {
    use chrono::Datelike;
    i64::from(d.num_days_from_ce()) - DAYS_FROM_CE_TO_EPOCH
}

/// The nanoseconds since midnight of `t`, as [`time_text`] takes them.
fn day_nanos(t: chrono::NaiveTime) -> u64 {
    use chrono::Timelike;
    u64::from(t.num_seconds_from_midnight()) * 1_000_000_000 + u64::from(t.nanosecond())
}

/// The JSON of a date and time: `f.digits` fraction digits, and a `Z` when
/// `f` says so, else when `zulu`.
fn datetime_json(dt: chrono::NaiveDateTime, f: Fmt, zulu: bool) -> Value {
    let nanos = i128::from(epoch_days(dt.date())) * NANOS_PER_DAY + i128::from(day_nanos(dt.time()));
    Value::from(datetime_text(nanos, f.digits, f.zulu.unwrap_or(zulu)))
}

impl ToJson for chrono::NaiveDate {
    fn to_json(&self, _f: Fmt) -> Value {
        Value::from(date_text(epoch_days(*self)))
    }
}
impl JsonElem for chrono::NaiveDate {}

impl ToJson for chrono::NaiveTime {
    fn to_json(&self, f: Fmt) -> Value {
        Value::from(time_text(day_nanos(*self), f.digits))
    }
}
impl JsonElem for chrono::NaiveTime {}

impl ToJson for chrono::NaiveDateTime {
    fn to_json(&self, f: Fmt) -> Value {
        datetime_json(*self, f, false)
    }
}
impl JsonElem for chrono::NaiveDateTime {}

impl ToJson for chrono::DateTime<chrono::Utc> {
    fn to_json(&self, f: Fmt) -> Value {
        datetime_json(self.naive_utc(), f, true)
    }
}
impl JsonElem for chrono::DateTime<chrono::Utc> {}

impl ToJson for uuid::Uuid {
    fn to_json(&self, _f: Fmt) -> Value {
        Value::from(hex(self.as_bytes()))
    }
}
impl JsonElem for uuid::Uuid {}

impl ToJson for rust_decimal::Decimal {
    fn to_json(&self, _f: Fmt) -> Value {
        // Display keeps the scale's trailing zeros and never uses an exponent.
        Value::from(self.to_string())
    }
}
impl JsonElem for rust_decimal::Decimal {}

impl ToJson for bigdecimal::BigDecimal {
    fn to_json(&self, _f: Fmt) -> Value {
        let (digits, scale) = self.as_bigint_and_exponent();
        Value::from(decimal_text(&digits.to_string(), scale))
    }
}
impl JsonElem for bigdecimal::BigDecimal {}

// ---------------------------------------------------------------------------
// Comparison
// ---------------------------------------------------------------------------

/// JSON text used to order map entries by key.
fn sort_key(pair: &Value) -> String {
    match pair {
        Value::Array(kv) if !kv.is_empty() => kv[0].to_string(),
        other => other.to_string(),
    }
}

/// Compares `actual` (from [`ToJson`]) with `expected` (from a fixture) and
/// appends one line per difference to `out`, prefixed by the JSON path.
///
/// Exact: integers by value (i64/u64, never through f64), doubles bit for bit
/// (so `-0.0` differs from `0.0`; NaN is the string `"NaN"`), strings and
/// objects' key sets exactly. A map of `actual` is compared with an array of
/// pairs in `expected` regardless of order.
pub fn diff(actual: &Value, expected: &Value, path: &str, out: &mut Vec<String>) {
    match (actual, expected) {
        (Value::Object(a), Value::Array(e)) if a.len() == 1 && a.contains_key(MAP_MARK) => {
            let Some(Value::Array(pairs)) = a.get(MAP_MARK) else { return out.push(format!("{path}: bad map marker")) };
            let mut pairs: Vec<&Value> = pairs.iter().collect();
            let mut e: Vec<&Value> = e.iter().collect();
            pairs.sort_by_key(|p| sort_key(p));
            e.sort_by_key(|p| sort_key(p));
            if pairs.len() != e.len() {
                out.push(format!(
                    "{path}: map of {} entries, expected {}: {actual} vs {expected}",
                    pairs.len(),
                    e.len()
                ));
                return;
            }
            for (i, (p, q)) in pairs.iter().zip(&e).enumerate() {
                diff(p, q, &format!("{path}{{{i}}}"), out);
            }
        }
        (Value::Number(a), Value::String(e)) if e.starts_with(FLOAT_MARK) => {
            let text = &e[FLOAT_MARK.len()..];
            let same =
                a.is_f64() && a.as_f64().zip(text.parse::<f64>().ok()).is_some_and(|(x, y)| x.to_bits() == y.to_bits());
            if !same {
                out.push(format!("{path}: {a} expected {text}"));
            }
        }
        (Value::Number(a), Value::Number(e)) => {
            let same = match (a.as_f64(), a.is_f64(), e.is_f64()) {
                (Some(x), true, true) => e.as_f64().is_some_and(|y| x.to_bits() == y.to_bits()),
                (_, false, false) => int(a) == int(e),
                _ => false,
            };
            if !same {
                out.push(format!("{path}: {a} expected {e}"));
            }
        }
        (Value::Array(a), Value::Array(e)) => {
            if a.len() != e.len() {
                out.push(format!("{path}: {} elements, expected {}: {actual} vs {expected}", a.len(), e.len()));
                return;
            }
            for (i, (x, y)) in a.iter().zip(e).enumerate() {
                diff(x, y, &format!("{path}[{i}]"), out);
            }
        }
        (Value::Object(a), Value::Object(e)) => {
            for k in e.keys().filter(|k| !a.contains_key(*k)) {
                out.push(format!("{path}.{k}: missing (expected {})", e[k]));
            }
            for (k, x) in a {
                match e.get(k) {
                    Some(y) => diff(x, y, &format!("{path}.{k}"), out),
                    None => out.push(format!("{path}.{k}: not in the expected row")),
                }
            }
        }
        (a, e) if a == e => {}
        (a, e) => out.push(format!("{path}: {a} expected {e}")),
    }
}

fn int(n: &Number) -> Option<i128> {
    n.as_i64().map(i128::from).or_else(|| n.as_u64().map(i128::from))
}

/// What [`parse_exact`] puts before the text of a non-integer number.
pub const FLOAT_MARK: &str = "\u{1}float:";

/// Parses JSON text, keeping every non-integer number as its text: a string
/// starting with [`FLOAT_MARK`], which [`diff`] parses with `str::parse`.
///
/// serde_json's default float parsing is not correctly rounded (it can be
/// one unit in the last place off), which an exact comparison cannot accept.
pub fn parse_exact(text: &str) -> serde_json::Result<Value> {
    let mut out = String::with_capacity(text.len() + text.len() / 4);
    let mut chars = text.char_indices().peekable();
    let (mut in_string, mut escaped) = (false, false);
    while let Some((i, c)) = chars.next() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
            continue;
        }
        if c == '-' || c.is_ascii_digit() {
            let mut end = i + 1;
            while let Some(&(j, d)) = chars.peek() {
                if !(d.is_ascii_digit() || matches!(d, '.' | 'e' | 'E' | '+' | '-')) {
                    break;
                }
                end = j + 1;
                chars.next();
            }
            let token = &text[i..end];
            if token.contains(['.', 'e', 'E']) {
                out.push_str("\"\\u0001float:");
                out.push_str(token);
                out.push('"');
            } else {
                out.push_str(token);
            }
            continue;
        }
        in_string = c == '"';
        out.push(c);
    }
    serde_json::from_str(&out)
}

/// Turns map markers into the fixtures' arrays of `[key, value]` pairs.
pub fn plain(v: Value) -> Value {
    match v {
        Value::Object(mut o) if o.len() == 1 && o.contains_key(MAP_MARK) => {
            o.remove(MAP_MARK).map_or(Value::Null, plain)
        }
        Value::Object(o) => Value::Object(o.into_iter().map(|(k, v)| (k, plain(v))).collect()),
        Value::Array(a) => Value::Array(a.into_iter().map(plain).collect()),
        other => other,
    }
}

/// `v` with every object's keys in sorted order, as serde_json prints them
/// without its `preserve_order` feature, which the CLI turns on for every
/// crate built with it.
pub fn sorted_keys(v: &Value) -> Value {
    match v {
        Value::Object(o) => {
            let mut entries: Vec<(&String, &Value)> = o.iter().collect();
            entries.sort_by_key(|(k, _)| *k);
            Value::Object(entries.into_iter().map(|(k, v)| (k.clone(), sorted_keys(v))).collect())
        }
        Value::Array(a) => Value::Array(a.iter().map(sorted_keys).collect()),
        other => other.clone(),
    }
}

/// Compares records with the expected rows; the error lists the first
/// differences and how many there are.
pub fn check_rows<T: ToJson>(actual: &[T], expected: &[Value]) -> Result<(), String> {
    let mut out = Vec::new();
    if actual.len() != expected.len() {
        out.push(format!("{} rows read, expected {}", actual.len(), expected.len()));
    }
    for (i, (a, e)) in actual.iter().zip(expected).enumerate() {
        diff(&a.to_json(Fmt::DEFAULT), e, &format!("row {i}"), &mut out);
    }
    if out.is_empty() {
        return Ok(());
    }
    let total = out.len();
    out.truncate(20);
    Err(format!("{total} difference(s):\n  {}", out.join("\n  ")))
}

#[cfg(test)]
mod tests;
