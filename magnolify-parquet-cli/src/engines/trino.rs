//! Trino's Parquet reader (Hive, Iceberg and Delta Lake connectors).
//!
//! Trino reads a column into the type the table declares; these rules say
//! when no Trino type matches the Parquet column, or only a different one.
//! Source for every rule unless noted: `ColumnReaderFactory.create` in
//! <https://github.com/trinodb/trino/blob/master/lib/trino-parquet/src/main/java/io/trino/parquet/reader/ColumnReaderFactory.java>

use magnolify_parquet::TimeUnit;

use super::node::Node;
use super::Severity::{self, Different, Unreadable};

/// Trino's largest DECIMAL precision
/// (<https://trino.io/docs/current/language/types.html>).
const MAX_DECIMAL_PRECISION: i32 = 38;

/// Trino's findings on one node.
pub fn rules(n: &Node<'_>) -> Vec<(Severity, String)> {
    let mut out = Vec::new();
    // FLOAT16 throws "Float16 type not supported"
    // (https://github.com/trinodb/trino/pull/21916).
    if n.is_float16() {
        out.push((Unreadable, "FLOAT16 is not supported".into()));
    }
    // A FIXED_LEN_BYTE_ARRAY is read into VARBINARY whatever its
    // annotation; no interval type reads INTERVAL.
    if n.is_interval() {
        out.push((Different, "INTERVAL reads only as VARBINARY (its raw 12 bytes)".into()));
    }
    // TimeType reads INT64 TIME(MICROS) only; other INT64 TIME columns read
    // as BIGINT, INT32 TIME(MILLIS) not at all.
    if let Some((unit, _)) = n.time() {
        match unit {
            TimeUnit::Micros => {}
            TimeUnit::Millis => {
                out.push((Unreadable, "TIME(MILLIS) has no Trino type: only TIME(MICROS) reads as TIME".into()))
            }
            TimeUnit::Nanos => {
                out.push((Different, "TIME(NANOS) reads only as BIGINT: only TIME(MICROS) reads as TIME".into()))
            }
        }
    }
    // TimestampWithTimeZoneType refuses NANOS: a nanosecond instant reads
    // only as a timestamp without time zone.
    if let Some((TimeUnit::Nanos, true)) = n.timestamp() {
        out.push((
            Different,
            "TIMESTAMP(NANOS,true) reads only as TIMESTAMP(9) without time zone, not WITH TIME ZONE".into(),
        ));
    }
    // Trino has no unsigned types: INT64 reads as BIGINT (values from 2^63
    // come out negative); large UINT_32 values have failed as corrupted
    // statistics (https://github.com/trinodb/trino/issues/27274).
    match n.integer() {
        Some((64, false)) => {
            out.push((Different, "UINT_64 reads as BIGINT: values from 2^63 come out negative".into()))
        }
        Some((32, false)) => out.push((
            Different,
            "UINT_32 has no Trino type: read it as BIGINT (values above 2^31-1 have been reported as corrupted \
             statistics)"
                .into(),
        )),
        _ => {}
    }
    if let Some(p) = n.decimal_precision().filter(|&p| p > MAX_DECIMAL_PRECISION) {
        out.push((Unreadable, format!("DECIMAL precision {p} exceeds Trino's maximum of {MAX_DECIMAL_PRECISION}")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::test_util::findings;
    use super::super::{Engine, Severity::*};

    fn trino(schema: &str) -> Vec<(String, super::Severity)> {
        findings(Engine::Trino, schema)
    }

    #[test]
    fn float16_and_wide_decimals_are_unreadable() {
        let f = trino(
            "message m { required fixed_len_byte_array(2) h (FLOAT16); required binary d (DECIMAL(39,0));
             required fixed_len_byte_array(16) u (UUID); }",
        );
        assert_eq!(f, [("h".into(), Unreadable), ("d".into(), Unreadable)]);
    }

    #[test]
    fn times_and_timestamps() {
        let f = trino(
            "message m { required int32 a (TIME(MILLIS,false)); required int64 b (TIME(MICROS,false));
             required int64 c (TIME(NANOS,false)); required int64 d (TIMESTAMP(NANOS,true));
             required int64 e (TIMESTAMP(NANOS,false)); }",
        );
        assert_eq!(f, [("a".into(), Unreadable), ("c".into(), Different), ("d".into(), Different)]);
    }

    #[test]
    fn unsigned_and_interval_read_differently() {
        let f = trino(
            "message m { required int64 a (UINT_64); required int32 b (UINT_32); required int32 c (UINT_16);
             required fixed_len_byte_array(12) i (INTERVAL); optional group g { required int64 n (UINT_64); } }",
        );
        assert_eq!(
            f,
            [("a".into(), Different), ("b".into(), Different), ("i".into(), Different), ("g.n".into(), Different)]
        );
    }
}
