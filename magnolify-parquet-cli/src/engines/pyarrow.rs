//! pyarrow, which reads Parquet through Arrow C++.
//!
//! Source for every rule unless noted: `GetArrowType`, `FromByteArray`,
//! `FromFLBA` and `FromInt64` in
//! <https://github.com/apache/arrow/blob/main/cpp/src/parquet/arrow/schema_internal.cc>

use super::node::Node;
use super::Severity::{self, Different};

/// pyarrow's findings on one node.
pub fn rules(n: &Node<'_>) -> Vec<(Severity, String)> {
    let mut out = Vec::new();
    // FromByteArray: ENUM (like BSON and no annotation) is binary().
    if n.is_enum() {
        out.push((Different, "ENUM reads as binary, not string".into()));
    }
    // FromFLBA: UUID is fixed_size_binary(16) unless Arrow extension types
    // are enabled (then the arrow.uuid extension type).
    if n.is_uuid() {
        out.push((
            Different,
            "UUID reads as fixed_size_binary(16) (arrow.uuid only with arrow_extensions_enabled=True)".into(),
        ));
    }
    // FromFLBA: INTERVAL is plain fixed_size_binary.
    if n.is_interval() {
        out.push((Different, "INTERVAL reads as fixed_size_binary(12), not as an interval".into()));
    }
    // GetArrowType: INT96 -> timestamp(coerce_int96_timestamp_unit), "ns"
    // by default, which holds 1677-09-21 to 2262-04-11 only.
    if n.is_int96() {
        out.push((
            Different,
            "INT96 reads as timestamp[ns] by default: values outside 1677-2262 overflow \
             (set coerce_int96_timestamp_unit)"
                .into(),
        ));
    }
    // (MakeArrowInt64 also refuses INTEGER(8..32) on INT64, but the
    // `parquet` crate refuses such a schema before any rule sees it.)
    out
}

#[cfg(test)]
mod tests {
    use super::super::test_util::findings;
    use super::super::{Engine, Severity::*};

    fn pyarrow(schema: &str) -> Vec<(String, super::Severity)> {
        findings(Engine::PyArrow, schema)
    }

    #[test]
    fn enum_uuid_interval_int96_read_differently() {
        let f = pyarrow(
            "message m { required binary e (ENUM); required fixed_len_byte_array(16) u (UUID);
             required fixed_len_byte_array(12) i (INTERVAL); required int96 t; required binary s (STRING);
             required fixed_len_byte_array(2) h (FLOAT16); }",
        );
        assert_eq!(
            f,
            [("e".into(), Different), ("u".into(), Different), ("i".into(), Different), ("t".into(), Different)]
        );
    }
}
