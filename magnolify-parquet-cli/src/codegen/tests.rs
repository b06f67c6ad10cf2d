//! Exact output for schemas covering nesting, every list and map layout,
//! every logical type and odd names; and that outputs pass `rustfmt --check`.

use std::path::PathBuf;
use std::process::Command;

use std::sync::Arc;

use parquet::schema::parser::parse_message_type;
use parquet::schema::types::Type;

use super::{generate, CodegenError, CodegenOptions};

fn opts() -> CodegenOptions {
    CodegenOptions {
        root_name: None,
        source: "data.parquet".to_owned(),
        command: "magnolify-parquet codegen data.parquet".to_owned(),
    }
}

/// Parses `schema`, then renames its nodes through `odd` (the schema text
/// cannot spell names with spaces, dots or control characters).
fn parse(schema: &str) -> Type {
    rename(&parse_message_type(schema).expect("test schema parses"))
}

fn odd(name: &str) -> String {
    name.replace("_SP_", " ").replace("_DOT_", ".").replace("_NL_", "\n").replace("_DASH_", "-")
}

fn rename(t: &Type) -> Type {
    let info = t.get_basic_info();
    let id = info.has_id().then(|| info.id());
    let name = odd(t.name());
    match t {
        Type::PrimitiveType { physical_type, type_length, scale, precision, .. } => {
            let sized =
                Type::primitive_type_builder(&name, *physical_type).with_length(*type_length).with_scale(*scale);
            let annotated = sized
                .with_precision(*precision)
                .with_converted_type(info.converted_type())
                .with_logical_type(info.logical_type_ref().cloned());
            annotated.with_repetition(info.repetition()).with_id(id).build().expect("renamed leaf builds")
        }
        Type::GroupType { fields, .. } => {
            let fields = fields.iter().map(|f| Arc::new(rename(f))).collect();
            let mut b = Type::group_type_builder(&name)
                .with_logical_type(info.logical_type_ref().cloned())
                .with_converted_type(info.converted_type())
                .with_fields(fields)
                .with_id(id);
            if info.has_repetition() {
                b = b.with_repetition(info.repetition());
            }
            b.build().expect("renamed group builds")
        }
    }
}

fn gen(schema: &str) -> String {
    generate(&parse(schema), &opts()).expect("code is generated")
}

/// Checks `code` with `rustfmt --check` at its default settings.
pub(super) fn assert_rustfmt_clean(code: &str) {
    let dir = std::env::temp_dir().join(format!(
        "magnolify-cli-fmt-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file: PathBuf = dir.join("generated.rs");
    std::fs::write(&file, code).expect("write temp file");
    // An empty config file pins rustfmt to its defaults.
    let config = dir.join("rustfmt.toml");
    std::fs::write(&config, "").expect("write config");
    let out = Command::new("rustfmt")
        .args(["--edition", "2021", "--check", "--config-path"])
        .arg(&config)
        .arg(&file)
        .current_dir(&dir)
        .output()
        .expect("rustfmt is installed");
    assert!(
        out.status.success(),
        "rustfmt --check failed:\n{}\n{}\n--- code ---\n{code}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

const NESTED: &str = "message trip_record {
    required int64 trip_id (INTEGER(64,false)) = 1;
    optional group rider = 2 {
        required binary name (STRING);
        optional group address { required binary city (STRING); optional double lat; }
    }
}";

const LISTS: &str = "message lists {
    optional group three (LIST) { repeated group list { optional binary element (STRING); } }
    required group item_named (LIST) { repeated group list { required int32 item; } }
    required group two (LIST) { repeated int32 array; }
    required group tuple (LIST) { repeated group tuple_tuple { required int32 a; } }
    required group multi (LIST) { repeated group rec { required int32 a; required int32 b; } }
    repeated int32 bare;
    repeated group bare_group { required int32 x; }
    required group of_lists (LIST) { repeated group list { optional group element (LIST) { repeated group list { required int32 element (INTEGER(8,false)); } } } }
}";

const MAPS: &str = "message maps {
    required group scores (MAP) { repeated group key_value { required binary key (STRING); optional int64 value; } }
    optional group places (MAP) { repeated group key_value { required int32 key; required group value { required double lat; } } }
    required group legacy (MAP_KEY_VALUE) { repeated group map { required binary key (UTF8); required int32 value; } }
    required group keys_only (MAP) { repeated group key_value { required binary key (STRING); } }
    required group weights (MAP) { repeated group key_value { required double key; required int32 value; } }
}";

const LOGICAL: &str = "message logical {
    required boolean b; required int32 i; required int64 l; required float f; required double d;
    required int32 i8 (INTEGER(8,true)); required int32 i16 (INT_16); required int32 u8 (UINT_8);
    required int32 u16 (INTEGER(16,false)); required int32 u32 (UINT_32); required int64 u64 (INTEGER(64,false));
    required binary s (STRING); required binary e (ENUM); required binary j (JSON); required binary bs (BSON);
    required binary raw; required fixed_len_byte_array(7) fixed;
    required fixed_len_byte_array(16) id (UUID); required fixed_len_byte_array(2) half (FLOAT16);
    required int32 day (DATE); required int32 t_ms (TIME(MILLIS,true)); required int64 t_ns (TIME(NANOS,false));
    required int64 t_us (TIME_MICROS);
    required int64 at (TIMESTAMP(MILLIS,true)); required int64 local (TIMESTAMP(NANOS,false));
    required int64 legacy_at (TIMESTAMP_MICROS); required int96 impala;
    required int32 dec9 (DECIMAL(9,2)); required fixed_len_byte_array(8) dec_fixed (DECIMAL(18,4));
    required binary dec30 (DECIMAL(30,5)); required binary dec80 (DECIMAL(80,1));
    required fixed_len_byte_array(12) span (INTERVAL); optional int32 nothing (UNKNOWN);
}";

const NAMES: &str = "message _DASH_odd_DOT_names {
    required int32 type; required int32 self; required int32 Self; required int32 crate;
    required int32 userId; required int32 user_id; required int32 first_SP_name;
    required int32 1st; required int32 a_DOT_b; required int32 x_NL_y; required int32 __index_level_0__;
    optional group option { required int32 x; }
    optional group Option { required int32 y; }
    optional group inner { optional group option { required int32 z; } }
}";

#[test]
fn nested_groups() {
    assert_eq!(
        gen(NESTED),
        r#"// Generated by `magnolify-parquet codegen data.parquet`
// from the schema of `data.parquet`.
// Reads the file with magnolify-parquet (`ParquetReader::<T, _>::new(file)`).

use magnolify_parquet::ParquetType;

/// Parquet message `trip_record`.
#[derive(Debug, Clone, PartialEq, ParquetType)]
#[parquet(rename = "trip_record")]
pub struct TripRecord {
    /// Parquet: `trip_id`, field id 1
    #[parquet(field_id = 1)]
    pub trip_id: u64,
    /// Parquet: `rider`, field id 2
    #[parquet(field_id = 2)]
    pub rider: Option<Rider>,
}

/// Parquet group `rider`.
#[derive(Debug, Clone, PartialEq, ParquetType)]
pub struct Rider {
    /// Parquet: `name`
    pub name: String,
    /// Parquet: `address`
    pub address: Option<Address>,
}

/// Parquet group `rider.address`.
#[derive(Debug, Clone, PartialEq, ParquetType)]
pub struct Address {
    /// Parquet: `city`
    pub city: String,
    /// Parquet: `lat`
    pub lat: Option<f64>,
}
"#
    );
}

#[test]
fn root_name_option() {
    let mut o = opts();
    o.root_name = Some("Trip".to_owned());
    let code = generate(&parse(NESTED), &o).expect("generated");
    assert!(code.contains("#[parquet(rename = \"trip_record\")]\npub struct Trip {\n"), "{code}");
    o.root_name = Some("my trip".to_owned());
    let code = generate(&parse(NESTED), &o).expect("generated");
    assert!(code.contains("pub struct MyTrip {\n"), "{code}");
}

#[test]
fn every_list_layout() {
    assert_eq!(
        gen(LISTS),
        r#"// Generated by `magnolify-parquet codegen data.parquet`
// from the schema of `data.parquet`.
// Reads the file with magnolify-parquet (`ParquetReader::<T, _>::new(file)`).

use magnolify_parquet::ParquetType;

/// Parquet message `lists`.
#[derive(Debug, Clone, PartialEq, ParquetType)]
#[parquet(rename = "lists")]
pub struct Lists {
    /// Parquet: `three`
    pub three: Option<Vec<Option<String>>>,
    /// Parquet: `item_named`
    pub item_named: Vec<i32>,
    /// Parquet: `two`
    #[parquet(list = "two-level")]
    pub two: Vec<i32>,
    /// Parquet: `tuple`
    #[parquet(list = "two-level")]
    pub tuple: Vec<Tuple>,
    /// Parquet: `multi`
    #[parquet(list = "two-level")]
    pub multi: Vec<Multi>,
    /// Parquet: `bare`
    #[parquet(list = "repeated")]
    pub bare: Vec<i32>,
    /// Parquet: `bare_group`
    #[parquet(list = "repeated")]
    pub bare_group: Vec<BareGroup>,
    /// Parquet: `of_lists`
    ///
    /// Elements are INTEGER(8,false), read as u16: `Vec<u8>` is a byte string.
    pub of_lists: Vec<Option<Vec<u16>>>,
}

/// Parquet group `tuple`.
#[derive(Debug, Clone, PartialEq, ParquetType)]
pub struct Tuple {
    /// Parquet: `a`
    pub a: i32,
}

/// Parquet group `multi`.
#[derive(Debug, Clone, PartialEq, ParquetType)]
pub struct Multi {
    /// Parquet: `a`
    pub a: i32,
    /// Parquet: `b`
    pub b: i32,
}

/// Parquet group `bare_group`.
#[derive(Debug, Clone, PartialEq, ParquetType)]
pub struct BareGroup {
    /// Parquet: `x`
    pub x: i32,
}
"#
    );
}

#[test]
fn maps() {
    assert_eq!(
        gen(MAPS),
        r#"// Generated by `magnolify-parquet codegen data.parquet`
// from the schema of `data.parquet`.
// Reads the file with magnolify-parquet (`ParquetReader::<T, _>::new(file)`).

use magnolify_parquet::ParquetType;

/// Parquet message `maps`.
#[derive(Debug, Clone, PartialEq, ParquetType)]
#[parquet(rename = "maps")]
pub struct Maps {
    /// Parquet: `scores`
    pub scores: std::collections::BTreeMap<String, Option<i64>>,
    /// Parquet: `places`
    pub places: Option<std::collections::BTreeMap<i32, PlacesValue>>,
    /// Parquet: `legacy`
    pub legacy: std::collections::BTreeMap<String, i32>,
    /// Parquet: `keys_only`
    ///
    /// A key-only map (a set): read as the list of its keys.
    pub keys_only: Vec<String>,
    /// Parquet: `weights`
    ///
    /// A map with floating-point keys, which cannot be map keys (not `Ord`): read as a list of key/value entries; written back as a LIST, not a MAP.
    pub weights: Vec<WeightsEntry>,
}

/// Parquet group `places`.
#[derive(Debug, Clone, PartialEq, ParquetType)]
pub struct PlacesValue {
    /// Parquet: `lat`
    pub lat: f64,
}

/// Parquet group `weights.key_value`.
#[derive(Debug, Clone, PartialEq, ParquetType)]
pub struct WeightsEntry {
    /// Parquet: `key`
    pub key: f64,
    /// Parquet: `value`
    pub value: i32,
}
"#
    );
}

#[test]
fn logical_types() {
    assert_eq!(
        gen(LOGICAL),
        r#"// Generated by `magnolify-parquet codegen data.parquet`
// from the schema of `data.parquet`.
// Reads the file with magnolify-parquet (`ParquetReader::<T, _>::new(file)`).
// Needs the crates `bigdecimal`, `chrono`, `half`, `rust_decimal`, `uuid`; magnolify-parquet features `bigdecimal`, `chrono`, `decimal`, `half`, `uuid`.

use magnolify_parquet::ParquetType;

/// Parquet message `logical`.
#[derive(Debug, Clone, PartialEq, ParquetType)]
#[parquet(rename = "logical")]
pub struct Logical {
    /// Parquet: `b`
    pub b: bool,
    /// Parquet: `i`
    pub i: i32,
    /// Parquet: `l`
    pub l: i64,
    /// Parquet: `f`
    pub f: f32,
    /// Parquet: `d`
    pub d: f64,
    /// Parquet: `i8`
    pub i8: i8,
    /// Parquet: `i16`
    pub i16: i16,
    /// Parquet: `u8`
    pub u8: u8,
    /// Parquet: `u16`
    pub u16: u16,
    /// Parquet: `u32`
    pub u32: u32,
    /// Parquet: `u64`
    pub u64: u64,
    /// Parquet: `s`
    pub s: String,
    /// Parquet: `e`
    pub e: String,
    /// Parquet: `j`
    pub j: String,
    /// Parquet: `bs`
    pub bs: Vec<u8>,
    /// Parquet: `raw`
    pub raw: Vec<u8>,
    /// Parquet: `fixed`
    pub fixed: [u8; 7],
    /// Parquet: `id`
    pub id: uuid::Uuid,
    /// Parquet: `half`
    pub half: half::f16,
    /// Parquet: `day`
    pub day: chrono::NaiveDate,
    /// Parquet: `t_ms`
    #[parquet(timestamp = "millis")]
    pub t_ms: chrono::NaiveTime,
    /// Parquet: `t_ns`
    #[parquet(timestamp = "nanos")]
    pub t_ns: chrono::NaiveTime,
    /// Parquet: `t_us`
    #[parquet(timestamp = "micros")]
    pub t_us: chrono::NaiveTime,
    /// Parquet: `at`
    #[parquet(timestamp = "millis")]
    pub at: chrono::DateTime<chrono::Utc>,
    /// Parquet: `local`
    #[parquet(timestamp = "nanos")]
    pub local: chrono::NaiveDateTime,
    /// Parquet: `legacy_at`
    #[parquet(timestamp = "micros")]
    pub legacy_at: chrono::DateTime<chrono::Utc>,
    /// Parquet: `impala`
    ///
    /// INT96 timestamp (Impala/Spark legacy): read to the nanosecond; written back as INT64 TIMESTAMP(NANOS), which holds 1677-09-21 to 2262-04-11 only.
    #[parquet(timestamp = "nanos")]
    pub impala: chrono::NaiveDateTime,
    /// Parquet: `dec9`
    #[parquet(decimal(precision = 9, scale = 2))]
    pub dec9: rust_decimal::Decimal,
    /// Parquet: `dec_fixed`
    #[parquet(decimal(precision = 18, scale = 4, physical = "fixed"))]
    pub dec_fixed: rust_decimal::Decimal,
    /// Parquet: `dec30`
    #[parquet(decimal(precision = 30, scale = 5, physical = "binary"))]
    pub dec30: bigdecimal::BigDecimal,
    /// Parquet: `dec80`
    ///
    /// DECIMAL(80, 1) has more digits than writes support (76).
    pub dec80: bigdecimal::BigDecimal,
    /// Parquet: `span`
    ///
    /// Skipped: no magnolify-parquet type reads `REQUIRED FIXED_LEN_BYTE_ARRAY (12) span (INTERVAL)` (INTERVAL is not supported).
    #[parquet(skip)]
    pub span: [u8; 12],
    /// Parquet: `nothing`
    ///
    /// Always null (UNKNOWN): reads as None.
    pub nothing: Option<i32>,
}
"#
    );
}

#[test]
fn odd_names_and_collisions() {
    assert_eq!(
        gen(NAMES),
        r#"// Generated by `magnolify-parquet codegen data.parquet`
// from the schema of `data.parquet`.
// Reads the file with magnolify-parquet (`ParquetReader::<T, _>::new(file)`).

use magnolify_parquet::ParquetType;

/// Parquet message `-odd.names`.
#[derive(Debug, Clone, PartialEq, ParquetType)]
#[parquet(rename = "-odd.names")]
pub struct OddNames {
    /// Parquet: `type`
    pub r#type: i32,
    /// Parquet: `self`
    #[parquet(rename = "self")]
    pub self_: i32,
    /// Parquet: `Self`
    #[parquet(rename = "Self")]
    pub self_2: i32,
    /// Parquet: `crate`
    #[parquet(rename = "crate")]
    pub crate_: i32,
    /// Parquet: `userId`
    #[parquet(rename = "userId")]
    pub user_id: i32,
    /// Parquet: `user_id`
    #[parquet(rename = "user_id")]
    pub user_id_2: i32,
    /// Parquet: `first name`
    #[parquet(rename = "first name")]
    pub first_name: i32,
    /// Parquet: `1st`
    #[parquet(rename = "1st")]
    pub _1st: i32,
    /// Parquet: `a.b`
    #[parquet(rename = "a.b")]
    pub a_b: i32,
    /// Parquet: `x\u{a}y`
    #[parquet(rename = "x\u{a}y")]
    pub x_y: i32,
    /// Parquet: `__index_level_0__`
    pub __index_level_0__: i32,
    /// Parquet: `option`
    pub option: Option<Option2>,
    /// Parquet: `Option`
    #[parquet(rename = "Option")]
    pub option_2: Option<Option3>,
    /// Parquet: `inner`
    pub inner: Option<Inner>,
}

/// Parquet group `option`.
#[derive(Debug, Clone, PartialEq, ParquetType)]
pub struct Option2 {
    /// Parquet: `x`
    pub x: i32,
}

/// Parquet group `Option`.
#[derive(Debug, Clone, PartialEq, ParquetType)]
pub struct Option3 {
    /// Parquet: `y`
    pub y: i32,
}

/// Parquet group `inner`.
#[derive(Debug, Clone, PartialEq, ParquetType)]
pub struct Inner {
    /// Parquet: `option`
    pub option: Option<Option4>,
}

/// Parquet group `inner.option`.
#[derive(Debug, Clone, PartialEq, ParquetType)]
pub struct Option4 {
    /// Parquet: `z`
    pub z: i32,
}
"#
    );
}

#[test]
fn outputs_are_rustfmt_clean() {
    let all: String = [NESTED, LISTS, MAPS, LOGICAL, NAMES].iter().map(|s| gen(s)).collect::<Vec<_>>().join("\n");
    // One file: the `use` lines repeat, which rustfmt does not mind.
    assert_rustfmt_clean(&all);
}

/// Names and types of every length around the 100-column limit, where
/// rustfmt starts breaking attributes and types.
#[test]
fn long_lines_are_laid_out_as_rustfmt_does() {
    let mut fields = String::new();
    for n in 40..=110 {
        let name = format!("f{}", "x".repeat(n));
        fields.push_str(&format!(
            "optional group {name}_NL_ (MAP) {{ repeated group key_value {{ required binary key (STRING);
               optional group value (LIST) {{ repeated group list {{ optional int64 element (TIMESTAMP(MILLIS,true)); }} }} }} }}
             required int32 {name};\n"
        ));
        // No rename: the identifier alone pushes the type past the limit.
        fields.push_str(&format!(
            "optional group g{name} (LIST) {{ repeated group list {{ optional binary element (STRING); }} }}
             optional int64 t{name} (TIMESTAMP(MICROS,true));\n"
        ));
    }
    let code = gen(&format!("message m {{ {fields} }}"));
    assert_rustfmt_clean(&code);
}

#[test]
fn errors() {
    let leaf = Type::primitive_type_builder("x", parquet::basic::Type::INT32).build().expect("leaf");
    assert_eq!(generate(&leaf, &opts()), Err(CodegenError::NotAMessage));
    let empty = Type::group_type_builder("m").build().expect("group");
    assert_eq!(generate(&empty, &opts()), Err(CodegenError::NoColumns));
    let interval = parse("message m { required fixed_len_byte_array(12) i (INTERVAL); optional group g { } }");
    assert!(matches!(generate(&interval, &opts()), Err(CodegenError::NothingReadable(_))));
}

#[test]
fn deep_nesting_is_left_out_not_overflowed() {
    let mut node = Type::primitive_type_builder("leaf", parquet::basic::Type::INT32)
        .with_repetition(parquet::basic::Repetition::REQUIRED)
        .build()
        .expect("leaf");
    for depth in 0..150 {
        node = Type::group_type_builder(&format!("g{depth}"))
            .with_repetition(parquet::basic::Repetition::OPTIONAL)
            .with_fields(vec![Arc::new(node)])
            .build()
            .expect("group");
    }
    let plain = Type::primitive_type_builder("id", parquet::basic::Type::INT64)
        .with_repetition(parquet::basic::Repetition::REQUIRED)
        .build()
        .expect("leaf");
    let message =
        Type::group_type_builder("m").with_fields(vec![Arc::new(plain), Arc::new(node)]).build().expect("message");
    let code = generate(&message, &opts()).expect("generated");
    assert!(code.contains("    // Parquet: `g149` is left out: nested deeper than 100 levels\n"), "{code}");
    assert_rustfmt_clean(&code);
}
