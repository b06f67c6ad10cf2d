//! `describe` on the footer of a file written here: schema, key/value
//! metadata, row group and column lines, statistics by logical type.

use std::sync::Arc;

use parquet::data_type::{ByteArray, ByteArrayType, Int32Type, Int64Type};
use parquet::file::metadata::{KeyValue, ParquetMetaData};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;

use super::describe;

const SCHEMA: &str = "message trip {
    required binary name (STRING);
    optional int64 at (TIMESTAMP(MILLIS,true));
    required int32 price (DECIMAL(9,2));
    required int32 count (INTEGER(32,false));
}";

/// The footer of a one-row-group file of SCHEMA, with three rows.
fn metadata() -> ParquetMetaData {
    let schema = Arc::new(parse_message_type(SCHEMA).expect("schema"));
    let avro = r#"{"type":"record","name":"trip","fields":[{"name":"name","type":"string"}]}"#;
    let props = WriterProperties::builder()
        .set_key_value_metadata(Some(vec![
            KeyValue::new("parquet.avro.schema".to_owned(), avro.to_owned()),
            KeyValue::new("note".to_owned(), "line\nbreak".to_owned()),
        ]))
        .build();
    let mut writer = SerializedFileWriter::new(Vec::new(), schema, Arc::new(props)).expect("writer");
    let mut rg = writer.next_row_group().expect("row group");
    let mut col = rg.next_column().expect("column").expect("name");
    let names: Vec<ByteArray> = ["b", "a", "c"].iter().map(|s| ByteArray::from(*s)).collect();
    col.typed::<ByteArrayType>().write_batch(&names, None, None).expect("names");
    col.close().expect("close");
    let mut col = rg.next_column().expect("column").expect("at");
    col.typed::<Int64Type>().write_batch(&[1_700_000_000_123, 0], Some(&[1, 0, 1]), None).expect("at");
    col.close().expect("close");
    let mut col = rg.next_column().expect("column").expect("price");
    col.typed::<Int32Type>().write_batch(&[-5, 12_345, 100], None, None).expect("price");
    col.close().expect("close");
    let mut col = rg.next_column().expect("column").expect("count");
    col.typed::<Int32Type>().write_batch(&[-1, 0, 7], None, None).expect("count");
    col.close().expect("close");
    rg.close().expect("row group");
    writer.close().expect("footer")
}

#[test]
fn shows_schema_metadata_and_row_groups() {
    let text = describe(&metadata(), false);
    assert!(
        text.starts_with(
            "message trip {
  REQUIRED BYTE_ARRAY name (STRING);
  OPTIONAL INT64 at (TIMESTAMP(MILLIS,true));
  REQUIRED INT32 price (DECIMAL(9,2));
  REQUIRED INT32 count (INTEGER(32,false));
}

Format version: 1
"
        ),
        "{text}"
    );
    assert!(text.contains("\nRows: 3\n"), "{text}");
    assert!(
        text.contains(
            "Key/value metadata:
  parquet.avro.schema:
    {
      \"type\": \"record\",
      \"name\": \"trip\",
      \"fields\": [
        {
          \"name\": \"name\",
          \"type\": \"string\"
        }
      ]
    }
  note: line\\nbreak
Row groups: 1
Row group 0: 3 rows, "
        ),
        "{text}"
    );
    assert!(text.contains("\n  name: UNCOMPRESSED, encodings "), "{text}");
    assert!(text.contains(", 3 values, "), "{text}");
    assert!(!text.contains("nulls"), "{text}");
}

#[test]
fn shows_statistics_by_logical_type() {
    let text = describe(&metadata(), true);
    let stats: Vec<&str> = text.lines().filter(|l| l.starts_with("    nulls")).collect();
    assert_eq!(
        stats,
        [
            "    nulls 0, distinct -, min \"a\", max \"c\"",
            "    nulls 1, distinct -, min 1970-01-01T00:00:00.000Z, max 2023-11-14T22:13:20.123Z",
            "    nulls 0, distinct -, min -0.05, max 123.45",
            "    nulls 0, distinct -, min 0, max 4294967295",
        ]
    );
}
