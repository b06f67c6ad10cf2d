//! pyarrow, which reads Parquet through Arrow C++.
//!
//! Source for every rule unless noted: `GetArrowType`, `FromByteArray`,
//! `FromFLBA` and `FromInt64` in
//! <https://github.com/apache/arrow/blob/main/cpp/src/parquet/arrow/schema_internal.cc>

use super::flag::Flag;
use super::Severity::Different;

/// pyarrow's findings that one property of the node decides (it reads
/// every other column as the schema says).
pub(super) const FLAGS: &[Flag] = &[
    // FromByteArray: ENUM (like BSON and no annotation) is binary().
    (|n| n.is_enum(), Different, "ENUM reads as binary, not string"),
    // FromFLBA: UUID is fixed_size_binary(16) unless Arrow extension types
    // are enabled (then the arrow.uuid extension type).
    (
        |n| n.is_uuid(),
        Different,
        "UUID reads as fixed_size_binary(16) (arrow.uuid only with arrow_extensions_enabled=True)",
    ),
    // FromFLBA: INTERVAL is plain fixed_size_binary.
    (|n| n.is_interval(), Different, "INTERVAL reads as fixed_size_binary(12), not as an interval"),
    // GetArrowType: INT96 -> timestamp(coerce_int96_timestamp_unit), "ns"
    // by default, which holds 1677-09-21 to 2262-04-11 only.
    (
        |n| n.is_int96(),
        Different,
        "INT96 reads as timestamp[ns] by default: values outside 1677-2262 overflow \
         (set coerce_int96_timestamp_unit)",
    ),
    // (MakeArrowInt64 also refuses INTEGER(8..32) on INT64, but the
    // `parquet` crate refuses such a schema before any rule sees it.)
];
