//! The Avro front-end: exact output for a schema covering records used
//! twice, every union form, arrays in both layouts, maps (of nulls too),
//! enums, fixed types and logical types; its errors; rustfmt-clean output.

use apache_avro::Schema;
use magnolify_parquet::ListLayout;

use super::tests::{assert_golden, assert_rustfmt_clean};
use super::{generate_from_avro, CodegenError, CodegenOptions};

const SHOP: &str = r##"{"type": "record", "name": "Order", "namespace": "shop.v1", "doc": "An order.",
 "fields": [
  {"name": "id", "type": "long", "doc": "Unique."},
  {"name": "type", "type": "string"},
  {"name": "customerName", "type": ["null", "string"], "default": null},
  {"name": "note", "type": ["string", "null"]},
  {"name": "ship_to", "type": {"type": "record", "name": "Address", "fields": [
      {"name": "city", "type": "string"}, {"name": "zip", "type": ["null", "int"]}]}},
  {"name": "bill_to", "type": ["null", "Address"]},
  {"name": "lines", "type": {"type": "array", "items": {"type": "record", "name": "Line", "fields": [
      {"name": "sku", "type": "string"},
      {"name": "qty", "type": "int"},
      {"name": "price", "type": {"type": "bytes", "logicalType": "decimal", "precision": 10, "scale": 2}}]}}},
  {"name": "tags", "type": {"type": "array", "items": ["null", "string"]}},
  {"name": "attrs", "type": {"type": "map", "values": ["null", "long"]}},
  {"name": "flags", "type": {"type": "map", "values": "null"}},
  {"name": "status", "type": {"type": "enum", "name": "Status", "symbols": ["OPEN", "in_transit", "Done"]}},
  {"name": "payment", "type": ["null", "string", "long", {"type": "fixed", "name": "Token", "size": 8}]},
  {"name": "big", "type": {"type": "fixed", "name": "Big", "size": 20, "logicalType": "decimal", "precision": 40, "scale": 4}},
  {"name": "id2", "type": {"type": "string", "logicalType": "uuid"}},
  {"name": "at", "type": {"type": "long", "logicalType": "timestamp-micros"}},
  {"name": "local", "type": {"type": "long", "logicalType": "local-timestamp-millis"}},
  {"name": "day", "type": {"type": "int", "logicalType": "date"}},
  {"name": "t", "type": {"type": "int", "logicalType": "time-millis"}},
  {"name": "span", "type": {"type": "fixed", "name": "Span", "size": 12, "logicalType": "duration"}},
  {"name": "nothing", "type": "null"},
  {"name": "history", "type": {"type": "array", "items": {"type": "array", "items": "Status"}}}
 ]}
"##;

fn opts() -> CodegenOptions {
    CodegenOptions {
        root_name: None,
        source: "shop.avsc".to_owned(),
        command: "magnolify-parquet codegen --avro shop.avsc".to_owned(),
        engines: Vec::new(),
    }
}

fn gen(schema: &str, layout: ListLayout) -> Result<String, CodegenError> {
    generate_from_avro(&Schema::parse_str(schema).expect("test schema parses"), layout, &opts())
}

#[test]
fn avro_schema_in_parquet_avro_layout() {
    let code = gen(SHOP, ListLayout::TwoLevel).expect("generated");
    let golden = include_str!("golden/avro_schema_in_parquet_avro_layout.txt");
    assert_golden(&code, golden, "avro_schema_in_parquet_avro_layout.txt");
    assert_rustfmt_clean(&code);
}

#[test]
fn three_level_lists_keep_null_items() {
    let code = gen(SHOP, ListLayout::ThreeLevel).expect("generated");
    assert!(code.contains("    /// Avro: `tags`\n    pub tags: Vec<Option<String>>,\n"), "{code}");
    assert!(!code.contains("two-level"), "{code}");
}

#[test]
fn root_name_and_errors() {
    let mut o = opts();
    o.root_name = Some("ShopOrder".to_owned());
    let code = generate_from_avro(&Schema::parse_str(SHOP).expect("schema"), ListLayout::TwoLevel, &o).expect("code");
    assert!(code.contains("#[parquet(rename = \"shop.v1.Order\")]\npub struct ShopOrder {\n"), "{code}");

    assert_eq!(gen(r#""string""#, ListLayout::TwoLevel), Err(CodegenError::NotARecord));
    let recursive = r#"{"type": "record", "name": "Node", "fields": [
        {"name": "next", "type": ["null", "Node"]}, {"name": "v", "type": "int"}]}"#;
    let e = gen(recursive, ListLayout::TwoLevel).expect_err("recursive");
    assert!(e.to_string().contains("recursive Avro schemas have no Parquet form: Node contains itself"), "{e}");
    let empty = r#"{"type": "record", "name": "E", "fields": [{"name": "n", "type": "null"}]}"#;
    let e = gen(empty, ListLayout::TwoLevel).expect_err("no column");
    assert!(e.to_string().contains("record E has no non-null field"), "{e}");
}

/// Unions in arrays are named after the array's singular, unless another
/// type has that name (here the record `LegUnion`) or there is none; enum
/// variants are UpperCamelCase, renamed to their symbols; what the types do
/// not keep of the times is noted.
#[test]
fn element_unions_enums_and_times() {
    let schema = r#"{"type": "record", "name": "Trip", "fields": [
      {"name": "stops", "type": {"type": "array", "items": ["string", "long"]}},
      {"name": "legs", "type": {"type": "array", "items": ["null", "string", "long"]}},
      {"name": "history", "type": {"type": "array", "items": ["string", "long"]}},
      {"name": "leg", "type": {"type": "record", "name": "LegUnion", "fields": [{"name": "n", "type": "int"}]}},
      {"name": "kind", "type": {"type": "enum", "name": "Kind", "symbols": ["SMALL_CAR", "Van", "suv", "Self"]}},
      {"name": "at", "type": {"type": "long", "logicalType": "timestamp-nanos"}},
      {"name": "local", "type": {"type": "long", "logicalType": "local-timestamp-nanos"}},
      {"name": "t", "type": {"type": "long", "logicalType": "time-micros"}}
    ]}"#;
    let code = gen(schema, ListLayout::ThreeLevel).expect("generated");
    let expected = r#"// Generated by `magnolify-parquet codegen --avro shop.avsc`
// from the Avro schema `shop.avsc`.
// Reads the Parquet files written from its records (by `magnolify-parquet avro2parquet`
// or parquet-avro) with magnolify-parquet (`ParquetReader::<T, _>::new(file)`).
//
// Cargo.toml [dependencies] this code needs:
// magnolify-parquet = { version = "0.1", features = ["chrono"] }
// chrono = "0.4"

use magnolify_parquet::ParquetType;

/// Avro record `Trip`.
#[derive(Debug, Clone, PartialEq, ParquetType)]
pub struct Trip {
    /// Avro: `stops`
    pub stops: Vec<StopUnion>,
    /// Avro: `legs`
    pub legs: Vec<Option<LegsUnion>>,
    /// Avro: `history`
    pub history: Vec<HistoryUnion>,
    /// Avro: `leg`
    pub leg: LegUnion,
    /// Avro: `kind`
    pub kind: Kind,
    /// Avro: `at`
    ///
    /// parquet-avro writes timestamp-nanos as a plain INT64 (no TIMESTAMP annotation), which this type does not read: read its files' column as i64 (`avro2parquet` annotates it).
    #[parquet(timestamp = "nanos")]
    pub at: chrono::DateTime<chrono::Utc>,
    /// Avro: `local`
    ///
    /// Not kept: a time zone. Avro local-timestamp-nanos is a date and time in no time zone (Parquet TIMESTAMP with isAdjustedToUTC=false): the zone it was local to is not in the data.
    /// parquet-avro writes local-timestamp-nanos as a plain INT64 (no TIMESTAMP annotation), which this type does not read: read its files' column as i64 (`avro2parquet` annotates it).
    #[parquet(timestamp = "nanos")]
    pub local: chrono::NaiveDateTime,
    /// Avro: `t`
    ///
    /// Not kept: isAdjustedToUTC=true, which parquet-avro writes time-micros with (NaiveTime is a time of day in no time zone; written back as TIME with isAdjustedToUTC=false).
    #[parquet(timestamp = "micros")]
    pub t: chrono::NaiveTime,
}

/// The Avro union of `stops`: one member is set.
///
/// Stored as parquet-avro stores unions: a group of optional `memberN` fields.
#[derive(Debug, Clone, PartialEq, ParquetType)]
pub struct StopUnion {
    /// Union branch `string`.
    pub member0: Option<String>,
    /// Union branch `long`.
    pub member1: Option<i64>,
}

/// The Avro union of `legs`: one member is set.
///
/// Stored as parquet-avro stores unions: a group of optional `memberN` fields.
#[derive(Debug, Clone, PartialEq, ParquetType)]
pub struct LegsUnion {
    /// Union branch `string`.
    pub member0: Option<String>,
    /// Union branch `long`.
    pub member1: Option<i64>,
}

/// The Avro union of `history`: one member is set.
///
/// Stored as parquet-avro stores unions: a group of optional `memberN` fields.
#[derive(Debug, Clone, PartialEq, ParquetType)]
pub struct HistoryUnion {
    /// Union branch `string`.
    pub member0: Option<String>,
    /// Union branch `long`.
    pub member1: Option<i64>,
}

/// Avro record `LegUnion`.
#[derive(Debug, Clone, PartialEq, ParquetType)]
pub struct LegUnion {
    /// Avro: `n`
    pub n: i32,
}

/// Avro enum `Kind`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ParquetType)]
#[parquet(annotation = "enum")]
pub enum Kind {
    #[parquet(rename = "SMALL_CAR")]
    SmallCar,
    Van,
    #[parquet(rename = "suv")]
    Suv,
    #[parquet(rename = "Self")]
    Self_,
}
"#;
    assert_eq!(code, expected);
    assert_rustfmt_clean(&code);
}
