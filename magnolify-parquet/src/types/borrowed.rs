//! References and `Cow`: the forms of borrowing records. A reference has the
//! Parquet form of what it points to and writes it without copying; `&str`
//! and `&[u8]` also read, borrowing from the batch (see `bytes.rs`), other
//! references only write. A `Cow` writes the same way; `Cow<str>` and
//! `Cow<[u8]>` read borrowed, the others as `Cow::Owned`.

use std::borrow::Cow;

use super::bytes::{read_binary, read_text};
use super::ListElement;
use crate::assemble::{FileNode, RecordSource, Resolver};
use crate::error::Result;
use crate::field::ParquetRead;
use crate::options::FieldOptions;

pointer_schema_write!([T: ParquetSchema + ?Sized] &T => T, plan: T::ReadPlan);
pointer_schema_write!(
    [B: ParquetSchema + ToOwned + ?Sized] Cow<'_, B> => B,
    plan: <B::Owned as ParquetSchema>::ReadPlan,
    where B::Owned: ParquetSchema
);

/// `Cow<str>` and `Cow<[u8]>`: `Cow::Borrowed`, a slice of the batch.
macro_rules! borrowed_cow {
    ($($t:ty => $owned:ty, $read:ident);*) => {$(
        impl<'de: 'a, 'a> ParquetRead<'de> for Cow<'a, $t> {
            fn resolve(node: &FileNode<'_>, opts: &FieldOptions, resolver: &mut Resolver<'_>) -> Result<Self::ReadPlan> {
                <$owned>::resolve(node, opts, resolver)
            }

            #[inline]
            fn read(plan: &Self::ReadPlan, src: &mut RecordSource<'de>) -> Result<Self> {
                $read(plan, src).map(Cow::Borrowed)
            }
        }
    )*};
}

borrowed_cow!(str => String, read_text; [u8] => Vec<u8>, read_binary);

/// A list reads as `Cow::Owned`: its elements are not contiguous in a batch.
impl<'de, T: ListElement + Clone> ParquetRead<'de> for Cow<'_, [T]>
where
    Vec<T>: ParquetRead<'de>,
{
    fn resolve(node: &FileNode<'_>, opts: &FieldOptions, resolver: &mut Resolver<'_>) -> Result<Self::ReadPlan> {
        Vec::<T>::resolve(node, opts, resolver)
    }

    #[inline]
    fn read(plan: &Self::ReadPlan, src: &mut RecordSource<'de>) -> Result<Self> {
        Vec::<T>::read(plan, src).map(Cow::Owned)
    }

    fn missing() -> Option<Self> {
        Vec::<T>::missing().map(Cow::Owned)
    }
}

/// Any other value reads as `Cow::Owned`.
impl<'de, T: ParquetRead<'de> + Clone> ParquetRead<'de> for Cow<'_, T> {
    fn resolve(node: &FileNode<'_>, opts: &FieldOptions, resolver: &mut Resolver<'_>) -> Result<Self::ReadPlan> {
        T::resolve(node, opts, resolver)
    }

    #[inline]
    fn read(plan: &Self::ReadPlan, src: &mut RecordSource<'de>) -> Result<Self> {
        T::read(plan, src).map(Cow::Owned)
    }

    fn missing() -> Option<Self> {
        T::missing().map(Cow::Owned)
    }
}
