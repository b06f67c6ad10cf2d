//! `i128` and `u128`: DECIMAL(38, 0) in a FIXED_LEN_BYTE_ARRAY(16), the
//! widest integer engines read as a number (Spark, DuckDB, pyarrow and
//! Trino stop at 38 digits). Values of 39 digits (beyond ±(10^38 − 1))
//! are a write error naming the column, never cut. Reads take any DECIMAL
//! of scale 0 (INT32, INT64, FIXED_LEN_BYTE_ARRAY, BYTE_ARRAY) and integer
//! columns, and check each value's range.

use parquet::basic::{LogicalType, Repetition, Type as PhysicalType};
use parquet::schema::types::Type;

use super::primitive::{int_column, IntSource};
use super::{not_repeated, LeafPlan, ListElement};
use crate::assemble::{FileNode, RecordSource, Resolver};
use crate::decimal_bytes::{fit, minimal};
use crate::error::Result;
use crate::field::{ParquetRead, ParquetSchema, ParquetWrite};
use crate::logical::Annotation;
use crate::options::FieldOptions;
use crate::schema;
use crate::shred::{ColumnSink, WriteAt};

/// The largest magnitude DECIMAL(38, 0) holds: 10^38 − 1.
const MAX_38: u128 = 10u128.pow(38) - 1;

/// Where a column's integers come from: an integer column (as the
/// other integer types read it) or DECIMAL bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WideSource {
    /// INT32 or INT64, signed or holding an unsigned value's bits.
    Int(IntSource),
    /// Big-endian two's complement bytes.
    Bytes,
}

fn resolve_wide(node: &FileNode<'_>, resolver: &mut Resolver<'_>, what: &str) -> Result<LeafPlan<WideSource>> {
    not_repeated(node, what)?;
    let (cursor, descr) = resolver.leaf(node)?;
    let source = match (Annotation::of(node.ty()), descr.physical_type()) {
        (Annotation::Decimal { scale: 0, .. }, PhysicalType::FIXED_LEN_BYTE_ARRAY | PhysicalType::BYTE_ARRAY) => {
            WideSource::Bytes
        }
        // An unscaled DECIMAL in an integer: signed.
        (Annotation::Decimal { scale: 0, .. }, PhysicalType::INT32) => WideSource::Int(IntSource::I32),
        (Annotation::Decimal { scale: 0, .. }, PhysicalType::INT64) => WideSource::Int(IntSource::I64),
        (Annotation::None | Annotation::Integer { .. }, physical @ (PhysicalType::INT32 | PhysicalType::INT64)) => {
            // Every integer column's range fits an i128; u128 checks each value.
            WideSource::Int(int_column(node, physical)?.0)
        }
        _ => {
            return Err(node.mismatch(format_args!(
                "`{what}` reads DECIMAL columns of scale 0 and integer columns; read other decimals into \
                 rust_decimal::Decimal or bigdecimal::BigDecimal"
            )))
        }
    };
    Ok(LeafPlan { cursor, conv: source })
}

/// One value as an i128: `None` for a null, `Err` for bytes of more than 16.
fn read_i128(plan: &LeafPlan<WideSource>, src: &mut RecordSource<'_>) -> Result<Option<Result<i128, usize>>> {
    let c = plan.cursor;
    Ok(match plan.conv {
        WideSource::Int(IntSource::I32) => src.take_i32(c)?.map(|v| Ok(i128::from(v))),
        WideSource::Int(IntSource::U32) => src.take_i32(c)?.map(|v| Ok(i128::from(v as u32))),
        WideSource::Int(IntSource::I64) => src.take_i64(c)?.map(|v| Ok(i128::from(v))),
        WideSource::Int(IntSource::U64) => src.take_i64(c)?.map(|v| Ok(i128::from(v as u64))),
        WideSource::Bytes => src.take_bytes(c)?.map(|b| {
            let mut out = [0; 16];
            // An empty value is no number: it fits nowhere.
            if !b.is_empty() && fit(b, &mut out) {
                Ok(i128::from_be_bytes(out))
            } else {
                Err(minimal(b).len())
            }
        }),
    })
}

macro_rules! wide_int {
    ($($t:ty => $magnitude:expr),*) => {$(
        impl ParquetSchema for $t {
            const LEAVES: usize = 1;
            type ReadPlan = LeafPlan<WideSource>;

            fn schema(name: &str, repetition: Repetition, _opts: &FieldOptions) -> Result<Type> {
                let decimal = LogicalType::decimal(0, 38);
                schema::primitive_with(name, repetition, PhysicalType::FIXED_LEN_BYTE_ARRAY, Some(decimal), |b| {
                    b.with_length(16).with_precision(38).with_scale(0)
                })
            }
        }

        impl ParquetWrite for $t {
            #[inline]
            fn write(&self, sink: &mut ColumnSink, at: WriteAt, _opts: &FieldOptions) -> Result<()> {
                let magnitude: fn($t) -> u128 = $magnitude;
                if magnitude(*self) > MAX_38 {
                    return Err(sink.value_error(
                        at.leaf(),
                        format!("{self} has 39 digits: DECIMAL(38, 0) holds at most 38"),
                    ));
                }
                // At most 10^38 − 1 in magnitude: an i128 holds it.
                sink.push_bytes(at, &(*self as i128).to_be_bytes())
            }
        }

        impl<'de> ParquetRead<'de> for $t {
            fn resolve(node: &FileNode<'_>, _: &FieldOptions, resolver: &mut Resolver<'_>) -> Result<Self::ReadPlan> {
                resolve_wide(node, resolver, stringify!($t))
            }

            #[inline]
            fn read(plan: &Self::ReadPlan, src: &mut RecordSource<'de>) -> Result<Self> {
                let c = plan.cursor;
                match read_i128(plan, src)? {
                    Some(Ok(v)) => <$t>::try_from(v)
                        .map_err(|_| src.value_error(c, format!("{v} is out of range for {}", stringify!($t)))),
                    Some(Err(len)) => Err(src.value_error(
                        c,
                        format!("a {len}-byte value is no integer an {} holds", stringify!($t)),
                    )),
                    None => Err(src.null_error(c)),
                }
            }
        }

        impl ListElement for $t {}
    )*};
}

wide_int!(i128 => i128::unsigned_abs, u128 => |v| v);
