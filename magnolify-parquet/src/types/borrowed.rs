//! References and `Cow`: the forms of borrowing records. A reference has the
//! Parquet form of what it points to and writes it without copying; it
//! cannot be read (a reader owns what it returns). A `Cow` writes the same
//! way and reads as `Cow::Owned`.

use std::borrow::Cow;

use crate::assemble::{FileNode, RecordSource, Resolver};
use crate::error::Result;
use crate::field::{ParquetRead, ParquetSchema};
use crate::options::FieldOptions;

pointer_schema_write!([T: ParquetSchema + ?Sized] &T => T, plan: ());
pointer_schema_write!(
    [B: ParquetSchema + ToOwned + ?Sized] Cow<'_, B> => B,
    plan: <B::Owned as ParquetSchema>::ReadPlan,
    where B::Owned: ParquetSchema
);

/// Reads the owned form: `B::Owned` must read what `B` writes (`String`
/// for `str`, `Vec<u8>` for `[u8]`, `Vec<T>` for `[T]`, `T` for `T: Clone`).
impl<B: ParquetSchema + ToOwned + ?Sized> ParquetRead for Cow<'_, B>
where
    B::Owned: ParquetRead,
{
    fn resolve(node: &FileNode<'_>, opts: &FieldOptions, resolver: &mut Resolver<'_>) -> Result<Self::ReadPlan> {
        B::Owned::resolve(node, opts, resolver)
    }

    #[inline]
    fn read(plan: &Self::ReadPlan, src: &mut RecordSource) -> Result<Self> {
        B::Owned::read(plan, src).map(Cow::Owned)
    }

    fn missing() -> Option<Self> {
        B::Owned::missing().map(Cow::Owned)
    }
}
