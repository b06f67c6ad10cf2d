//! References and `Cow`: the forms of borrowing records. A reference has the
//! Parquet form of what it points to and writes it without copying; it
//! cannot be read (a reader owns what it returns). A `Cow` writes the same
//! way and reads as `Cow::Owned`.

use std::borrow::Cow;

use parquet::basic::Repetition;
use parquet::schema::types::Type;

use crate::assemble::{FileNode, RecordSource, Resolver};
use crate::error::Result;
use crate::field::{Accepts, ParquetRead, ParquetSchema, ParquetWrite};
use crate::options::FieldOptions;
use crate::shred::{ColumnSink, WriteAt};

impl<T: ParquetSchema + ?Sized> ParquetSchema for &T {
    const LEAVES: usize = T::LEAVES;
    // A reference only writes.
    type ReadPlan = ();
    const NULLABLE: bool = T::NULLABLE;
    const ACCEPTS: Accepts = T::ACCEPTS;
    const NEEDS_DECIMAL: bool = T::NEEDS_DECIMAL;

    fn schema(name: &str, repetition: Repetition, opts: &FieldOptions) -> Result<Type> {
        T::schema(name, repetition, opts)
    }

    fn docs(prefix: &str, out: &mut Vec<(String, String)>) {
        T::docs(prefix, out)
    }
}

impl<T: ParquetWrite + ?Sized> ParquetWrite for &T {
    #[inline]
    fn write(&self, sink: &mut ColumnSink, at: WriteAt, opts: &FieldOptions) -> Result<()> {
        (**self).write(sink, at, opts)
    }
}

impl<B: ParquetSchema + ToOwned + ?Sized> ParquetSchema for Cow<'_, B>
where
    B::Owned: ParquetSchema,
{
    const LEAVES: usize = B::LEAVES;
    type ReadPlan = <B::Owned as ParquetSchema>::ReadPlan;
    const NULLABLE: bool = B::NULLABLE;
    const ACCEPTS: Accepts = B::ACCEPTS;
    const NEEDS_DECIMAL: bool = B::NEEDS_DECIMAL;

    fn schema(name: &str, repetition: Repetition, opts: &FieldOptions) -> Result<Type> {
        B::schema(name, repetition, opts)
    }

    fn docs(prefix: &str, out: &mut Vec<(String, String)>) {
        B::docs(prefix, out)
    }
}

impl<B: ParquetWrite + ToOwned + ?Sized> ParquetWrite for Cow<'_, B>
where
    B::Owned: ParquetSchema,
{
    #[inline]
    fn write(&self, sink: &mut ColumnSink, at: WriteAt, opts: &FieldOptions) -> Result<()> {
        (**self).write(sink, at, opts)
    }
}

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
