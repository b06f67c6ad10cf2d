//! The Avro schema as the JSON text stored in the footer.
//!
//! `apache_avro` 0.21 serializes a `duration` as a logical type whose
//! `type` is a nested fixed object (`{"type": {"type": "fixed", …},
//! "logicalType": "duration"}`) and repeats the `decimal` attributes of a
//! fixed; other readers (fastavro, Java) reject the former. The text is
//! normalized here so that any Avro library can parse the footer.

use apache_avro::Schema;
use magnolify_parquet::Result;
use serde_json::Value as Json;

use crate::error::schema_error;

/// The schema's JSON, with logical types on named types written flat.
pub(crate) fn to_json(schema: &Schema) -> Result<String> {
    // Going through `serde_json::Value` also drops repeated keys.
    let mut json = serde_json::to_value(schema).map_err(|e| schema_error("", e.to_string()))?;
    flatten_logical(&mut json);
    serde_json::to_string(&json).map_err(|e| schema_error("", e.to_string()))
}

fn flatten_logical(json: &mut Json) {
    match json {
        Json::Object(map) => {
            if map.contains_key("logicalType") {
                if let Some(Json::Object(inner)) = map.get("type").cloned() {
                    map.remove("type");
                    for (k, v) in inner {
                        map.entry(k).or_insert(v);
                    }
                }
            }
            map.values_mut().for_each(flatten_logical);
        }
        Json::Array(items) => items.iter_mut().for_each(flatten_logical),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duration_is_written_flat() {
        let schema = Schema::parse_str(
            r#"{"type": "record", "name": "R", "fields": [
                {"name": "d", "type": {"type": "fixed", "name": "D", "size": 12, "logicalType": "duration"}}
            ]}"#,
        )
        .unwrap();
        let json = to_json(&schema).unwrap();
        let parsed: Json = serde_json::from_str(&json).unwrap();
        let d = &parsed["fields"][0]["type"];
        assert_eq!(d["type"], "fixed");
        assert_eq!(d["size"], 12);
        assert_eq!(d["logicalType"], "duration");
        assert_eq!(Schema::parse_str(&json).unwrap(), schema);
    }
}
