//! DuckDB's Parquet reader.
//!
//! Source for every rule: `ParquetReader::DeriveLogicalType` in
//! <https://github.com/duckdb/duckdb/blob/main/extension/parquet/parquet_reader.cpp>

use magnolify_parquet::TimeUnit;

use super::node::Node;
use super::Severity::{self, Different, Unreadable};

/// DuckDB's `DecimalType::MaxWidth()`.
const MAX_DECIMAL_PRECISION: i32 = 38;

/// DuckDB's findings on one node.
pub fn rules(n: &Node<'_>) -> Vec<(Severity, String)> {
    let mut out = Vec::new();
    // The converted-type switch lists BSON with MAP/LIST under
    // "Unsupported converted type" (and the BSON logical type is not
    // handled before it), so the file is refused.
    if n.is_bson() && !n.ty.is_group() {
        out.push((Unreadable, "BSON columns are refused: \"Unsupported converted type\"".into()));
    }
    // FLOAT16 on FIXED_LEN_BYTE_ARRAY(2) is read as FLOAT.
    if n.is_float16() {
        out.push((Different, "FLOAT16 reads as FLOAT (32-bit)".into()));
    }
    // TIME with isAdjustedToUTC = true becomes TIME WITH TIME ZONE; TIME
    // NANOS becomes TIME, which holds microseconds.
    if let Some((unit, utc)) = n.time() {
        if utc {
            out.push((Different, "TIME with isAdjustedToUTC=true reads as TIME WITH TIME ZONE".into()));
        }
        if unit == TimeUnit::Nanos {
            out.push((Different, "TIME(NANOS) reads as TIME, in microseconds: nanosecond digits are dropped".into()));
        }
    }
    // TIMESTAMP(NANOS) is TIMESTAMP_NS only when not adjusted to UTC; an
    // instant becomes TIMESTAMP WITH TIME ZONE, in microseconds.
    if let Some((TimeUnit::Nanos, true)) = n.timestamp() {
        out.push((
            Different,
            "TIMESTAMP(NANOS,true) reads as TIMESTAMP WITH TIME ZONE, in microseconds: nanosecond digits are dropped"
                .into(),
        ));
    }
    // DECIMAL wider than DecimalType::MaxWidth() is read as DOUBLE.
    if let Some(p) = n.decimal_precision().filter(|&p| p > MAX_DECIMAL_PRECISION) {
        out.push((
            Different,
            format!("DECIMAL precision {p} exceeds DuckDB's {MAX_DECIMAL_PRECISION}: reads as DOUBLE"),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::test_util::findings;
    use super::super::{Engine, Severity::*};

    fn duckdb(schema: &str) -> Vec<(String, super::Severity)> {
        findings(Engine::DuckDb, schema)
    }

    #[test]
    fn bson_is_unreadable() {
        assert_eq!(
            duckdb("message m { required binary b (BSON); required binary j (JSON); }"),
            [("b".into(), Unreadable)]
        );
    }

    #[test]
    fn float16_and_wide_decimals_read_differently() {
        let f = duckdb(
            "message m { required fixed_len_byte_array(2) h (FLOAT16); required binary d (DECIMAL(50,10));
             required fixed_len_byte_array(16) u (UUID); required fixed_len_byte_array(12) i (INTERVAL); }",
        );
        assert_eq!(f, [("h".into(), Different), ("d".into(), Different)]);
    }

    #[test]
    fn times_and_timestamps() {
        let f = duckdb(
            "message m { required int64 a (TIME(NANOS,false)); required int32 b (TIME(MILLIS,true));
             required int64 c (TIMESTAMP(NANOS,true)); required int64 d (TIMESTAMP(NANOS,false));
             required int64 e (TIME(MICROS,false)); }",
        );
        assert_eq!(f, [("a".into(), Different), ("b".into(), Different), ("c".into(), Different)]);
    }
}
