//! The field trait impls (`ParquetSchema`, `ParquetWrite`, `ParquetRead`)
//! of the types the library supports, and the read plans they resolve into.

/// The schema and write halves of a type that stands for another (`&T`,
/// `Cow<B>`, `Box<T>`): the Parquet form of `$inner`, written from what the
/// value points to. `$plan` is the read plan (`()` for what only writes).
macro_rules! pointer_schema_write {
    ([$($generics:tt)*] $t:ty => $inner:ty, plan: $plan:ty $(, where $($bound:tt)*)?) => {
        const _: () = {
            use crate::error::Result;
            use crate::field::{Accepts, ParquetSchema, ParquetWrite};
            use crate::options::FieldOptions;
            use crate::shred::{ColumnSink, WriteAt};
            use parquet::{basic::Repetition, schema::types::Type};

            impl<$($generics)*> ParquetSchema for $t $(where $($bound)*)? {
                const LEAVES: usize = <$inner as ParquetSchema>::LEAVES;
                type ReadPlan = $plan;
                const NULLABLE: bool = <$inner as ParquetSchema>::NULLABLE;
                const ACCEPTS: Accepts = <$inner as ParquetSchema>::ACCEPTS;
                const NEEDS_DECIMAL: bool = <$inner as ParquetSchema>::NEEDS_DECIMAL;
                const MAP_KEY: bool = <$inner as ParquetSchema>::MAP_KEY;

                fn schema(name: &str, repetition: Repetition, opts: &FieldOptions) -> Result<Type> {
                    <$inner as ParquetSchema>::schema(name, repetition, opts)
                }

                fn docs(prefix: &str, out: &mut Vec<(String, String)>) {
                    <$inner as ParquetSchema>::docs(prefix, out)
                }

                fn bloom_filters(prefix: &str, out: &mut Vec<(String, crate::options::BloomFilterSpec)>) {
                    <$inner as ParquetSchema>::bloom_filters(prefix, out)
                }

                fn enums(prefix: &str, out: &mut Vec<(String, &'static [&'static str])>) {
                    <$inner as ParquetSchema>::enums(prefix, out)
                }
            }

            impl<$($generics)*> ParquetWrite for $t
            where
                $inner: ParquetWrite,
                $($($bound)*)?
            {
                #[inline]
                fn write(&self, sink: &mut ColumnSink, at: WriteAt, opts: &FieldOptions) -> Result<()> {
                    (**self).write(sink, at, opts)
                }
            }
        };
    };
}

mod borrowed;
// Its `fixed_bytes_type!` serves `Uuid` and `f16`.
#[macro_use]
mod bytes;
mod collections;
mod nonzero;
mod primitive;
mod sequences;
mod tagged;
mod text_forms;
mod wide_int;

// First: its `decimal_schema!` serves the two decimal types.
#[cfg(any(feature = "decimal", feature = "bigdecimal"))]
#[macro_use]
mod decimal_column;

#[cfg(feature = "bigdecimal")]
mod bigdecimal;
#[cfg(feature = "chrono")]
mod chrono;
#[cfg(feature = "chrono")]
mod civil;
#[cfg(feature = "decimal")]
mod decimal;
#[cfg(feature = "chrono")]
mod system_time;
#[cfg(feature = "chrono")]
pub(crate) use system_time::epoch_parts;
#[cfg(feature = "half")]
mod half;
#[cfg(feature = "json")]
mod json;
#[cfg(feature = "uuid")]
mod uuid;
#[cfg(feature = "variant")]
mod variant;

pub use collections::ListElement;
pub use tagged::{enum_read, enum_resolve, enum_schema, EnumPlan, VariantSymbols, VariantTag};
#[cfg(feature = "variant")]
pub use variant::VariantValue;

use crate::assemble::{FileNode, NullCheck, RecordSource};
use crate::error::Result;

/// The plan of a leaf: which cursor it reads and how values convert.
#[derive(Clone, Copy, Debug)]
pub struct LeafPlan<C> {
    /// Cursor index in the [`RecordSource`].
    pub cursor: usize,
    /// Conversion from the file's physical/logical type.
    pub conv: C,
}

/// A field of a group: read from the file, or absent from it.
#[derive(Clone, Debug)]
pub enum Slot<P> {
    /// The field's column(s) exist; read them with this plan.
    Read(P),
    /// The field is not in the file; it takes its missing value or default.
    Missing,
}

/// The plan of a derived struct: a tuple of field slots, and where to check
/// for a null when the file has the group optional but the type requires it.
#[derive(Clone, Debug)]
pub struct StructPlan<F> {
    /// Where to read whether the group is null, when the type requires it
    /// and the file does not.
    pub null_check: Option<NullCheck>,
    /// One [`Slot`] per field, in declaration order.
    pub fields: F,
}

impl<F> StructPlan<F> {
    /// Errors when the group is null in the file.
    #[inline]
    pub fn check_present(&self, source: &RecordSource) -> Result<()> {
        match &self.null_check {
            Some(check) => check.check(source),
            None => Ok(()),
        }
    }
}

/// Rejects a repeated file node where the type wants a single value.
#[doc(hidden)]
pub fn not_repeated(node: &FileNode<'_>, what: &str) -> Result<()> {
    if node.repetition() == parquet::basic::Repetition::REPEATED {
        return Err(node.mismatch(format_args!("{what} reads one value, not a repeated field")));
    }
    Ok(())
}
