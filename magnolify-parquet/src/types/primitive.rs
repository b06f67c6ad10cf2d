//! bool, integers (signed and unsigned, with range checks) and floats.

use parquet::basic::{LogicalType, Repetition, Type as PhysicalType};
use parquet::schema::types::Type;

use super::{not_repeated, LeafPlan};
use crate::assemble::{FileNode, RecordSource, Resolver};
use crate::error::{Error, Result};
use crate::field::{ParquetRead, ParquetSchema, ParquetWrite};
use crate::logical::Annotation;
use crate::options::FieldOptions;
use crate::schema;
use crate::shred::{ColumnSink, WriteAt};

/// How integers are stored in the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntSource {
    /// INT32, signed.
    I32,
    /// INT32 holding an unsigned value's bits.
    U32,
    /// INT64, signed.
    I64,
    /// INT64 holding an unsigned value's bits.
    U64,
}

/// The declared range of an integer column: (source, min, max).
pub(super) fn int_column(node: &FileNode<'_>, physical: PhysicalType) -> Result<(IntSource, i128, i128)> {
    let bits = match physical {
        PhysicalType::INT32 => 32,
        PhysicalType::INT64 => 64,
        _ => return Err(node.mismatch("an integer type reads INT32 or INT64 columns")),
    };
    let (width, signed) = match Annotation::of(node.ty()) {
        Annotation::Integer { bits, signed } => (i32::from(bits), signed),
        Annotation::None => (bits, true),
        other => return Err(node.mismatch(format!("an integer type reads plain integers, not {other:?} values"))),
    };
    if !(1..=bits).contains(&width) {
        return Err(Error::damaged(node.location(), format!("integer width {width} does not fit {}", node.describe())));
    }
    let (min, max) =
        if signed { (-(1i128 << (width - 1)), (1i128 << (width - 1)) - 1) } else { (0, (1i128 << width) - 1) };
    let source = match (bits, signed) {
        (32, true) => IntSource::I32,
        (32, false) => IntSource::U32,
        (64, true) => IntSource::I64,
        _ => IntSource::U64,
    };
    Ok((source, min, max))
}

macro_rules! int_field {
    ($t:ty, $physical:ident, $width:expr, $signed:expr, $push:ident, $stored:ty) => {
        impl ParquetSchema for $t {
            const LEAVES: usize = 1;
            type ReadPlan = LeafPlan<IntSource>;

            fn schema(name: &str, repetition: Repetition, _opts: &FieldOptions) -> Result<Type> {
                schema::primitive(
                    name,
                    repetition,
                    PhysicalType::$physical,
                    Some(LogicalType::integer($width, $signed)),
                )
            }
        }

        impl ParquetWrite for $t {
            #[inline(always)]
            fn write(&self, sink: &mut ColumnSink, at: WriteAt, _opts: &FieldOptions) -> Result<()> {
                // Unsigned values are stored as the bits of the signed type, as the format says.
                sink.$push(at, *self as $stored)
            }
        }

        impl<'de> ParquetRead<'de> for $t {
            fn resolve(
                node: &FileNode<'_>,
                _opts: &FieldOptions,
                resolver: &mut Resolver<'_>,
            ) -> Result<Self::ReadPlan> {
                not_repeated(node, stringify!($t))?;
                let (cursor, descr) = resolver.leaf(node)?;
                let (conv, min, max) = int_column(node, descr.physical_type())?;
                // `as`: every integer type here widens to i128 without loss.
                if min < <$t>::MIN as i128 || max > <$t>::MAX as i128 {
                    return Err(node.mismatch(format_args!(
                        "`{}` cannot hold every value of the column ({min}..={max})",
                        stringify!($t)
                    )));
                }
                Ok(LeafPlan { cursor, conv })
            }

            #[inline]
            fn read(plan: &Self::ReadPlan, src: &mut RecordSource<'de>) -> Result<Self> {
                let c = plan.cursor;
                let converted = match plan.conv {
                    IntSource::I32 => src.take_i32(c)?.map(|v| <$t>::try_from(v).map_err(|_| i128::from(v))),
                    IntSource::U32 => {
                        src.take_i32(c)?.map(|v| <$t>::try_from(v as u32).map_err(|_| i128::from(v as u32)))
                    }
                    IntSource::I64 => src.take_i64(c)?.map(|v| <$t>::try_from(v).map_err(|_| i128::from(v))),
                    IntSource::U64 => {
                        src.take_i64(c)?.map(|v| <$t>::try_from(v as u64).map_err(|_| i128::from(v as u64)))
                    }
                };
                match converted {
                    Some(Ok(v)) => Ok(v),
                    Some(Err(v)) => Err(src.value_error(c, format!("{v} is out of range for {}", stringify!($t)))),
                    None => Err(src.null_error(c)),
                }
            }
        }
    };
}

int_field!(i8, INT32, 8, true, push_i32, i32);
int_field!(i16, INT32, 16, true, push_i32, i32);
int_field!(i32, INT32, 32, true, push_i32, i32);
int_field!(i64, INT64, 64, true, push_i64, i64);
int_field!(u8, INT32, 8, false, push_i32, i32);
int_field!(u16, INT32, 16, false, push_i32, i32);
int_field!(u32, INT32, 32, false, push_i32, i32);
int_field!(u64, INT64, 64, false, push_i64, i64);
// As their 64-bit forms, whatever the target's width; reads check the range.
int_field!(isize, INT64, 64, true, push_i64, i64);
int_field!(usize, INT64, 64, false, push_i64, i64);

/// Rejects annotations on a column read as a plain bool or float.
fn plain(node: &FileNode<'_>, what: &str) -> Result<()> {
    match Annotation::of(node.ty()) {
        Annotation::None => Ok(()),
        _ => Err(node.mismatch(format_args!("`{what}` reads unannotated columns"))),
    }
}

/// The schema and the writer of an unannotated leaf of `$physical`, pushed by
/// `$push`; `$plan` is what its reader learns from the file.
macro_rules! plain_leaf {
    ($ty:ty, $physical:ident, $push:ident, $plan:ty) => {
        impl ParquetSchema for $ty {
            const LEAVES: usize = 1;
            type ReadPlan = LeafPlan<$plan>;

            fn schema(name: &str, repetition: Repetition, _opts: &FieldOptions) -> Result<Type> {
                schema::primitive(name, repetition, PhysicalType::$physical, None)
            }
        }

        impl ParquetWrite for $ty {
            #[inline(always)]
            fn write(&self, sink: &mut ColumnSink, at: WriteAt, _opts: &FieldOptions) -> Result<()> {
                sink.$push(at, *self)
            }
        }
    };
}

/// The reader of a leaf that reads its own physical type only, taken by
/// `$take`.
macro_rules! exact_read {
    ($ty:ty, $physical:ident, $take:ident) => {
        impl<'de> ParquetRead<'de> for $ty {
            fn resolve(node: &FileNode<'_>, _: &FieldOptions, resolver: &mut Resolver<'_>) -> Result<Self::ReadPlan> {
                not_repeated(node, stringify!($ty))?;
                let (cursor, descr) = resolver.leaf(node)?;
                if descr.physical_type() != PhysicalType::$physical {
                    return Err(node.mismatch(concat!(
                        "`",
                        stringify!($ty),
                        "` reads ",
                        stringify!($physical),
                        " columns"
                    )));
                }
                plain(node, stringify!($ty))?;
                Ok(LeafPlan { cursor, conv: () })
            }

            #[inline]
            fn read(plan: &Self::ReadPlan, src: &mut RecordSource<'de>) -> Result<Self> {
                src.$take(plan.cursor)?.ok_or_else(|| src.null_error(plan.cursor))
            }
        }
    };
}

plain_leaf!(bool, BOOLEAN, push_bool, ());
plain_leaf!(f32, FLOAT, push_f32, ());
// The plan of an f64 is `true` when the file holds FLOAT, widened exactly.
plain_leaf!(f64, DOUBLE, push_f64, bool);
exact_read!(bool, BOOLEAN, take_bool);
exact_read!(f32, FLOAT, take_f32);

impl<'de> ParquetRead<'de> for f64 {
    fn resolve(node: &FileNode<'_>, _opts: &FieldOptions, resolver: &mut Resolver<'_>) -> Result<Self::ReadPlan> {
        not_repeated(node, "f64")?;
        let (cursor, descr) = resolver.leaf(node)?;
        let widen = match descr.physical_type() {
            PhysicalType::DOUBLE => false,
            PhysicalType::FLOAT => true,
            _ => return Err(node.mismatch("`f64` reads DOUBLE or FLOAT columns")),
        };
        plain(node, "f64")?;
        Ok(LeafPlan { cursor, conv: widen })
    }

    #[inline]
    fn read(plan: &Self::ReadPlan, src: &mut RecordSource<'de>) -> Result<Self> {
        let v = if plan.conv { src.take_f32(plan.cursor)?.map(f64::from) } else { src.take_f64(plan.cursor)? };
        v.ok_or_else(|| src.null_error(plan.cursor))
    }
}
