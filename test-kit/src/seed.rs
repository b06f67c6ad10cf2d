//! The record of magnolify's own benchmark (`magnolify.test.Simple.Nested`)
//! in each list layout, its fixed seed instance and generated runs.
//!
//! [`two_level`] is the benchmark's own (parquet-avro's layout, as
//! magnolify's `AvroCompat` import writes it); the others differ only in
//! `list`. The default re-exported at this module's root is `two_level`.

use serde::{Deserialize, Serialize};

use crate::rng::XorShift;

/// Three required leaves; `Nested` holds it required, optional and in a list
/// (the same type in every layout: it has no list).
#[derive(magnolify_parquet::ParquetType, Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Required {
    /// A flag.
    pub b: bool,
    /// A number.
    pub i: i32,
    /// A short text.
    pub s: String,
}
crate::to_json_struct!(Required { "b" => b, "i" => i, "s" => s });

/// The three leaves of [`Required`] in a message's text, each line indented
/// by `$indent`.
macro_rules! required_leaves {
    ($indent:literal) => {
        concat!(
            $indent,
            "REQUIRED BOOLEAN b;\n",
            $indent,
            "REQUIRED INT32 i (INTEGER(32,true));\n",
            $indent,
            "REQUIRED BYTE_ARRAY s (STRING);\n"
        )
    };
}

/// A layout's module: `Nested` with `list = $layout`, its message text (with
/// `$list`, the text of `l`) and its rows.
macro_rules! seed_layout {
    ($layout:literal, $list:expr) => {
        pub use super::Required;

        /// The seed record: 12 leaf columns, levels (0,0) for `b, i, s, r.*`,
        /// (0,1) for `o.*` and (1,1) for the list's leaves.
        #[derive(magnolify_parquet::ParquetType, super::Serialize, super::Deserialize, Clone, Debug, PartialEq)]
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
            /// A list of groups, in the module's layout.
            #[parquet(list = $layout)]
            pub l: Vec<Required>,
        }
        crate::to_json_struct!(Nested { "b" => b, "i" => i, "s" => s, "r" => r, "o" => o, "l" => l });

        /// The Parquet schema of [`Nested`], written out by hand.
        pub const MESSAGE: &str = concat!(
            "message Nested {\n",
            required_leaves!("  "),
            "  REQUIRED group r {\n",
            required_leaves!("    "),
            "  }\n",
            "  OPTIONAL group o {\n",
            required_leaves!("    "),
            "  }\n",
            $list,
            "}\n"
        );

        fn required(b: bool, i: i32, s: &str) -> Required {
            Required { b, i, s: s.to_owned() }
        }

        /// Sample rows: lists empty, of one and of several elements, `o`
        /// absent and present, extreme numbers, empty and non-ASCII strings.
        pub fn rows() -> Vec<Nested> {
            vec![
                Nested {
                    b: true,
                    i: 42,
                    s: "magnolify".into(),
                    r: required(false, -1, ""),
                    o: Some(required(true, i32::MAX, "ø")),
                    l: vec![required(true, 1, "a"), required(false, 2, "bb"), required(true, 3, "")],
                },
                Nested { b: false, i: i32::MIN, s: String::new(), r: required(true, 0, "x"), o: None, l: vec![] },
                Nested {
                    b: true,
                    i: 0,
                    s: "日本語".into(),
                    r: required(false, 7, "y"),
                    o: None,
                    l: vec![required(false, -9, "z")],
                },
            ]
        }

        /// The one fixed record of the `seed` bench group: strings of about
        /// ten characters (some non-ASCII), `o` present, `l` of three elements.
        pub fn seed_record() -> Nested {
            Nested {
                b: true,
                i: 1_234_567,
                s: "magnolify✓".to_owned(),
                r: required(false, -42, "required-é"),
                o: Some(required(true, 7, "optional-ß")),
                l: vec![
                    required(true, 1, "element-01"),
                    required(false, -2, "élément-02"),
                    required(true, 3, "element-03"),
                ],
            }
        }

        /// One generated record: strings of 4 to 16 characters, `o` present
        /// half of the time, lists of 0 to 5 elements.
        pub fn random(g: &mut super::XorShift) -> Nested {
            let req = |g: &mut super::XorShift| Required { b: g.chance(50), i: g.i32(), s: g.string(4, 16) };
            let (b, i, s) = (g.chance(50), g.i32(), g.string(4, 16));
            let r = req(g);
            let o = if g.chance(50) { Some(req(g)) } else { None };
            let n = g.range(0, 5);
            let l = (0..n).map(|_| req(g)).collect();
            Nested { b, i, s, r, o, l }
        }

        /// `n` generated records from `seed`: the same for every run.
        pub fn generate(n: usize, seed: u64) -> Vec<Nested> {
            let mut g = super::XorShift::new(seed);
            (0..n).map(|_| random(&mut g)).collect()
        }

        /// An endless iterator of generated records (for writing more than fits in memory).
        pub fn stream(seed: u64) -> impl Iterator<Item = Nested> {
            let mut g = super::XorShift::new(seed);
            std::iter::repeat_with(move || random(&mut g))
        }
    };
}

/// The seed record with 3-level lists (the format's standard).
pub mod three_level {
    seed_layout!(
        "three-level",
        concat!(
            "  REQUIRED group l (LIST) {\n",
            "    REPEATED group list {\n",
            "      REQUIRED group element {\n",
            required_leaves!("        "),
            "      }\n",
            "    }\n",
            "  }\n"
        )
    );
}

/// The seed record with 2-level `array` lists: the benchmark's own.
pub mod two_level {
    seed_layout!(
        "two-level",
        concat!(
            "  REQUIRED group l (LIST) {\n",
            "    REPEATED group array {\n",
            required_leaves!("      "),
            "    }\n",
            "  }\n"
        )
    );
}

/// The seed record with bare repeated fields (1-level lists).
pub mod repeated {
    seed_layout!("repeated", concat!("  REPEATED group l {\n", required_leaves!("    "), "  }\n"));
}

pub use two_level::*;

/// The Parquet schema of the two-level [`Nested`], for the code that may not
/// use the library (the benches' columnar floor); a test checks it is what
/// the derive gives.
pub const NESTED_MESSAGE: &str = two_level::MESSAGE;

impl From<three_level::Nested> for two_level::Nested {
    fn from(n: three_level::Nested) -> Self {
        two_level::Nested { b: n.b, i: n.i, s: n.s, r: n.r, o: n.o, l: n.l }
    }
}

#[cfg(test)]
mod tests {
    use magnolify_parquet::{schema, ParquetRecord};

    #[test]
    fn the_hand_written_message_is_the_derived_one() {
        assert_eq!(schema::to_text(&super::Nested::message().expect("schema")), super::NESTED_MESSAGE);
    }
}
