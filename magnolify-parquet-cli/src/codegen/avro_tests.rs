//! The Avro front-end: exact output for a schema covering records used
//! twice, every union form, arrays in both layouts, maps (of nulls too),
//! enums, fixed types and logical types; its errors; rustfmt-clean output.

use apache_avro::Schema;
use magnolify_parquet::ListLayout;

use super::tests::assert_rustfmt_clean;
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
    assert_eq!(code, include_str!("golden/avro_schema_in_parquet_avro_layout.txt"));
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
