//! Trino's Parquet reader (Hive, Iceberg and Delta Lake connectors).
//!
//! Trino reads a column into the type the table declares; these rules say
//! when no Trino type matches the Parquet column, or only a different one.
//! Source for every rule unless noted: `ColumnReaderFactory.create` in
//! <https://github.com/trinodb/trino/blob/master/lib/trino-parquet/src/main/java/io/trino/parquet/reader/ColumnReaderFactory.java>

use crate::TimeUnit;

use super::flag::Flag;
use super::node::Node;
use super::Severity::{self, Different, Unreadable};

/// Trino's largest DECIMAL precision
/// (<https://trino.io/docs/current/language/types.html>).
const MAX_DECIMAL_PRECISION: i32 = 38;

/// Trino's findings that one property of the node decides.
pub(super) const FLAGS: &[Flag] = &[
    // FLOAT16 throws "Float16 type not supported"
    // (https://github.com/trinodb/trino/pull/21916).
    (|n| n.is_float16(), Unreadable, "FLOAT16 is not supported"),
    // A FIXED_LEN_BYTE_ARRAY is read into VARBINARY whatever its
    // annotation; no interval type reads INTERVAL.
    (|n| n.is_interval(), Different, "INTERVAL reads only as VARBINARY (its raw 12 bytes)"),
];

/// Trino's other findings on one node.
pub(super) fn rules(n: &Node<'_>, out: &mut Vec<(Severity, String)>) {
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
}
