//! Spark SQL's Parquet data source.
//!
//! Source for every rule unless noted: `ParquetToSparkSchemaConverter`
//! (`convertPrimitiveField`, `convertGroupField`) in
//! <https://github.com/apache/spark/blob/master/sql/core/src/main/scala/org/apache/spark/sql/execution/datasources/parquet/ParquetSchemaConverter.scala>

use crate::TimeUnit;

use super::flag::Flag;
use super::node::{unit_name, Node};
use super::Severity::{self, Different, Unreadable};

/// Spark's `DecimalType.MAX_PRECISION`.
const MAX_DECIMAL_PRECISION: i32 = 38;

/// Spark's findings that one property of the node decides.
pub(super) const FLAGS: &[Flag] = &[
    // FIXED_LEN_BYTE_ARRAY accepts DECIMAL, INTERVAL (not implemented) and
    // no annotation; anything else is `illegalType()`. Reported as
    // "Illegal Parquet type: FIXED_LEN_BYTE_ARRAY (UUID)" in
    // https://github.com/apache/spark/issues/55684 (UUID support is still an
    // open pull request: https://github.com/apache/spark/pull/57003).
    (|n| n.is_uuid(), Unreadable, "Spark has no UUID type: \"Illegal Parquet type: FIXED_LEN_BYTE_ARRAY (UUID)\""),
    (|n| n.is_float16(), Unreadable, "Spark has no FLOAT16 type: \"Illegal Parquet type\""),
    // FIXED_LEN_BYTE_ARRAY (INTERVAL) => typeNotImplemented().
    (|n| n.is_interval(), Unreadable, "INTERVAL is not implemented: \"Parquet type not yet supported\""),
    // MAP groups need a key/value group with exactly two fields.
    (|n| n.is_key_only_map(), Unreadable, "a key-only MAP is an \"Invalid map type\" for Spark"),
];

/// Spark's other findings on one node.
pub(super) fn rules(n: &Node<'_>, out: &mut Vec<(Severity, String)>) {
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
}
