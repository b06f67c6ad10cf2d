//! The field trait impls (`ParquetSchema`, `ParquetWrite`, `ParquetRead`)
//! of the types the library supports, and the read plans they resolve into.

mod borrowed;
mod bytes;
mod collections;
mod primitive;

#[cfg(feature = "bigdecimal")]
mod bigdecimal;
#[cfg(feature = "chrono")]
mod chrono;
#[cfg(feature = "decimal")]
mod decimal;
#[cfg(any(feature = "decimal", feature = "bigdecimal"))]
mod decimal_column;
#[cfg(feature = "half")]
mod half;
#[cfg(feature = "uuid")]
mod uuid;

pub use collections::ListElement;

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
