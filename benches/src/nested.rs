//! The record of magnolify's own benchmark (`magnolify.test.Simple.Nested`),
//! its fixed seed instance, and generated runs of it.

use magnolify_parquet::ParquetType;
use serde::{Deserialize, Serialize};

use crate::rng::XorShift;

/// Three required leaves; `Nested` holds it required, optional and in a list.
#[derive(ParquetType, Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Required {
    /// A flag.
    pub b: bool,
    /// A number.
    pub i: i32,
    /// A short text.
    pub s: String,
}

/// The seed record: 12 leaf columns, levels (0,0) for `b, i, s, r.*`, (0,1)
/// for `o.*` and (1,1) for `l.array.*`. Lists use parquet-avro's 2-level
/// layout, as magnolify's benchmark does (its `AvroCompat` import).
#[derive(ParquetType, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[parquet(list = "two-level")]
pub struct Nested {
    /// A flag.
    pub b: bool,
    /// A number.
    pub i: i32,
    /// A short text.
    pub s: String,
    /// A required group.
    pub r: Required,
    /// An optional group.
    pub o: Option<Required>,
    /// A list of groups.
    pub l: Vec<Required>,
}

/// The Parquet schema `Nested` derives, written out by hand for the code
/// that may not use the library (the columnar floor); a test checks they agree.
pub const NESTED_MESSAGE: &str = "message Nested {
  REQUIRED BOOLEAN b;
  REQUIRED INT32 i (INTEGER(32,true));
  REQUIRED BYTE_ARRAY s (STRING);
  REQUIRED group r {
    REQUIRED BOOLEAN b;
    REQUIRED INT32 i (INTEGER(32,true));
    REQUIRED BYTE_ARRAY s (STRING);
  }
  OPTIONAL group o {
    REQUIRED BOOLEAN b;
    REQUIRED INT32 i (INTEGER(32,true));
    REQUIRED BYTE_ARRAY s (STRING);
  }
  REQUIRED group l (LIST) {
    REPEATED group array {
      REQUIRED BOOLEAN b;
      REQUIRED INT32 i (INTEGER(32,true));
      REQUIRED BYTE_ARRAY s (STRING);
    }
  }
}
";

fn required(b: bool, i: i32, s: &str) -> Required {
    Required { b, i, s: s.to_owned() }
}

/// The one fixed record of the `seed` group: strings of about ten
/// characters (some non-ASCII), `o` present, `l` of three elements.
pub fn seed_record() -> Nested {
    Nested {
        b: true,
        i: 1_234_567,
        s: "magnolify✓".to_owned(),
        r: required(false, -42, "required-é"),
        o: Some(required(true, 7, "optional-ß")),
        l: vec![required(true, 1, "element-01"), required(false, -2, "élément-02"), required(true, 3, "element-03")],
    }
}

/// One generated record: strings of 4 to 16 characters, `o` present half of
/// the time, lists of 0 to 5 elements.
pub fn random_nested(g: &mut XorShift) -> Nested {
    let req = |g: &mut XorShift| Required { b: g.chance(50), i: g.i32(), s: g.string(4, 16) };
    let (b, i, s) = (g.chance(50), g.i32(), g.string(4, 16));
    let r = req(g);
    let o = if g.chance(50) { Some(req(g)) } else { None };
    let n = g.range(0, 5);
    let l = (0..n).map(|_| req(g)).collect();
    Nested { b, i, s, r, o, l }
}

/// `n` generated records from `seed`: the same for every run.
pub fn generate(n: usize, seed: u64) -> Vec<Nested> {
    let mut g = XorShift::new(seed);
    (0..n).map(|_| random_nested(&mut g)).collect()
}

/// An endless iterator of generated records (for writing more than fits in memory).
pub fn stream(seed: u64) -> impl Iterator<Item = Nested> {
    let mut g = XorShift::new(seed);
    std::iter::repeat_with(move || random_nested(&mut g))
}
