//! Spark SQL's Parquet data source.
//!
//! Source for every rule unless noted: `ParquetToSparkSchemaConverter`
//! (`convertPrimitiveField`, `convertGroupField`) in
//! <https://github.com/apache/spark/blob/master/sql/core/src/main/scala/org/apache/spark/sql/execution/datasources/parquet/ParquetSchemaConverter.scala>

use magnolify_parquet::TimeUnit;

use super::node::{unit_name, Node};
use super::Severity::{self, Different, Unreadable};

/// Spark's `DecimalType.MAX_PRECISION`.
const MAX_DECIMAL_PRECISION: i32 = 38;

/// Spark's findings on one node.
pub fn rules(n: &Node<'_>) -> Vec<(Severity, String)> {
    let mut out = Vec::new();
    // FIXED_LEN_BYTE_ARRAY accepts DECIMAL, INTERVAL (not implemented) and
    // no annotation; anything else is `illegalType()`. Reported as
    // "Illegal Parquet type: FIXED_LEN_BYTE_ARRAY (UUID)" in
    // https://github.com/apache/spark/issues/55684 (UUID support is still an
    // open pull request: https://github.com/apache/spark/pull/57003).
    if n.is_uuid() {
        out.push((Unreadable, "Spark has no UUID type: \"Illegal Parquet type: FIXED_LEN_BYTE_ARRAY (UUID)\"".into()));
    }
    if n.is_float16() {
        out.push((Unreadable, "Spark has no FLOAT16 type: \"Illegal Parquet type\"".into()));
    }
    // FIXED_LEN_BYTE_ARRAY (INTERVAL) => typeNotImplemented().
    if n.is_interval() {
        out.push((Unreadable, "INTERVAL is not implemented: \"Parquet type not yet supported\"".into()));
    }
    // INT64 TIMESTAMP(NANOS) is LongType only with nanosAsLong
    // (SPARK-40819), else illegal.
    if let Some((TimeUnit::Nanos, _)) = n.timestamp() {
        out.push((
            Unreadable,
            "TIMESTAMP(NANOS) is refused; with spark.sql.legacy.parquet.nanosAsLong=true it reads as BIGINT \
             nanoseconds"
                .into(),
        ));
    }
    // Only INT64 TIME(MICROS, isAdjustedToUTC = false) maps to TimeType,
    // which Spark 4.1 added (SPARK-51610,
    // https://github.com/apache/spark/pull/50389); other TIME columns are illegal.
    if let Some((unit, utc)) = n.time() {
        let reason = if unit == TimeUnit::Micros && !utc {
            "TIME(MICROS,false) reads as TIME(6) in Spark 4.1 and later only; earlier versions have no TIME type"
                .to_owned()
        } else {
            format!("TIME({},{utc}) is refused: Spark reads only TIME(MICROS,false), from 4.1 on", unit_name(unit))
        };
        out.push((Unreadable, reason));
    }
    // Unsigned integers widen: UINT_8 -> ShortType, UINT_16 -> IntegerType,
    // UINT_32 -> LongType, UINT_64 -> DecimalType(20, 0) (SPARK-34817,
    // SPARK-34786). (Spark also refuses INTEGER(8..32) on INT64, but the
    // `parquet` crate refuses such a schema before any rule sees it.)
    match n.integer() {
        Some((64, false)) => {
            out.push((Different, "UINT_64 reads as DECIMAL(20,0): Spark has no unsigned types".into()))
        }
        Some((w, false)) => {
            let to = match w {
                8 => "SMALLINT",
                16 => "INT",
                _ => "BIGINT",
            };
            out.push((Different, format!("UINT_{w} reads as the wider signed {to}: Spark has no unsigned types")));
        }
        _ => {}
    }
    // makeDecimalType: DecimalType holds at most 38 digits.
    if let Some(p) = n.decimal_precision().filter(|&p| p > MAX_DECIMAL_PRECISION) {
        out.push((Unreadable, format!("DECIMAL precision {p} exceeds Spark's maximum of {MAX_DECIMAL_PRECISION}")));
    }
    // MAP groups need a key/value group with exactly two fields.
    if n.is_key_only_map() {
        out.push((Unreadable, "a key-only MAP is an \"Invalid map type\" for Spark".into()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::test_util::findings;
    use super::super::{Engine, Severity::*};

    fn spark(schema: &str) -> Vec<(String, super::Severity)> {
        findings(Engine::Spark, schema)
    }

    #[test]
    fn uuid_float16_interval_are_unreadable() {
        let f = spark(
            "message m { required fixed_len_byte_array(16) u (UUID); required fixed_len_byte_array(2) h (FLOAT16);
             required fixed_len_byte_array(12) i (INTERVAL); required fixed_len_byte_array(16) plain; }",
        );
        assert_eq!(f, [("u".into(), Unreadable), ("h".into(), Unreadable), ("i".into(), Unreadable)]);
    }

    #[test]
    fn nanos_timestamps_are_unreadable() {
        let f = spark(
            "message m { required int64 a (TIMESTAMP(NANOS,true)); required int64 b (TIMESTAMP(MICROS,false));
             required int64 c (TIMESTAMP_MILLIS); required int96 d; }",
        );
        assert_eq!(f, [("a".into(), Unreadable)]);
    }

    #[test]
    fn times_need_spark_4_1_and_micros() {
        let f = spark(
            "message m { required int32 a (TIME(MILLIS,false)); required int64 b (TIME(MICROS,false));
             required int64 c (TIME(NANOS,false)); required int64 d (TIME(MICROS,true)); }",
        );
        assert_eq!(f.len(), 4);
        assert!(f.iter().all(|(_, s)| *s == Unreadable));
    }

    #[test]
    fn unsigned_integers_widen() {
        let f = spark(
            "message m { required int32 a (INTEGER(8,false)); required int64 b (UINT_64);
             required int32 d (INT_16); required int64 e (INTEGER(64,true)); }",
        );
        assert_eq!(f, [("a".into(), Different), ("b".into(), Different)]);
    }

    #[test]
    fn wide_decimals_and_key_only_maps_are_unreadable() {
        let f = spark(
            "message m { required fixed_len_byte_array(20) a (DECIMAL(40,2)); required int64 b (DECIMAL(18,2));
             required group s (MAP) { repeated group key_value { required binary key (STRING); } }
             required group ok (MAP) { repeated group key_value { required binary key (STRING); optional int32 value; } } }",
        );
        assert_eq!(f, [("a".into(), Unreadable), ("s".into(), Unreadable)]);
    }
}
