//! DuckDB's Parquet reader.
//!
//! Source for every rule: `ParquetReader::DeriveLogicalType` in
//! <https://github.com/duckdb/duckdb/blob/main/extension/parquet/parquet_reader.cpp>

use crate::TimeUnit;

use super::flag::Flag;
use super::node::Node;
use super::Severity::{self, Different, Unreadable};

/// DuckDB's `DecimalType::MaxWidth()`.
const MAX_DECIMAL_PRECISION: i32 = 38;

/// DuckDB's findings that one property of the node decides.
pub(super) const FLAGS: &[Flag] = &[
    // The converted-type switch lists BSON with MAP/LIST under
    // "Unsupported converted type" (and the BSON logical type is not
    // handled before it), so the file is refused.
    (|n| n.is_bson() && !n.ty.is_group(), Unreadable, "BSON columns are refused: \"Unsupported converted type\""),
    // FLOAT16 on FIXED_LEN_BYTE_ARRAY(2) is read as FLOAT.
    (|n| n.is_float16(), Different, "FLOAT16 reads as FLOAT (32-bit)"),
];

/// DuckDB's other findings on one node.
pub(super) fn rules(n: &Node<'_>, out: &mut Vec<(Severity, String)>) {
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
}
