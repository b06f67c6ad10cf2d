//! The sequences stored as lists: the schema and write halves of
//! `Vec<T>` (read in `collections.rs`), and all of `VecDeque<T>`,
//! `BTreeSet<T>`, `HashSet<T>` and `[T; N]` (of elements that are not
//! bytes: `[u8; N]` is FIXED_LEN_BYTE_ARRAY). Reading checks what the type
//! promises: a set's elements are distinct, an array has exactly N.

use std::collections::{BTreeSet, HashSet, VecDeque};
use std::hash::{BuildHasher, Hash};

use parquet::basic::Repetition;
use parquet::schema::types::Type;

use super::collections::{resolve_list, write_elements, ListPlan};
use super::ListElement;
use crate::assemble::{FileNode, RecordSource, Resolver};
use crate::error::{Error, Location, Result};
use crate::field::{Accepts, ParquetRead, ParquetSchema, ParquetWrite};
use crate::options::FieldOptions;
use crate::shred::{ColumnSink, WriteAt};

/// The plan of a sequence: the list's, and where the list is, for the
/// errors of values the type cannot hold.
#[derive(Clone, Debug)]
pub struct SequencePlan<P> {
    list: ListPlan<P>,
    at: Location,
}

impl<P> SequencePlan<P> {
    fn resolve<'de, T: ParquetRead<'de, ReadPlan = P>>(
        node: &FileNode<'_>,
        opts: &FieldOptions,
        resolver: &mut Resolver<'_>,
    ) -> Result<Self> {
        let list = resolve_list(node, resolver, |e, r| T::resolve(e, opts, r))?;
        Ok(SequencePlan { list, at: node.location() })
    }

    /// Reads the list's elements into `add`, which says why one cannot be added.
    #[inline]
    fn read<'de, T: ParquetRead<'de, ReadPlan = P>>(
        &self,
        src: &mut RecordSource<'de>,
        mut add: impl FnMut(T) -> Result<(), String>,
    ) -> Result<()> {
        self.list.read_with(src, |p, src| {
            let element = T::read(p, src)?;
            add(element).map_err(|why| self.error(src, why))
        })
    }

    fn error(&self, src: &RecordSource<'_>, why: String) -> Error {
        Error::value(self.at.clone().with_record(src.record()), why)
    }
}

/// The schema and write halves of a sequence type, as `[T]`'s.
macro_rules! sequence_schema_write {
    ([$($generics:tt)*] $t:ty, plan: $plan:ident) => {
        impl<T: ListElement, $($generics)*> ParquetSchema for $t {
            const LEAVES: usize = T::LEAVES;
            type ReadPlan = $plan<T::ReadPlan>;
            const ACCEPTS: Accepts = T::ACCEPTS.in_list();
            const NEEDS_DECIMAL: bool = T::NEEDS_DECIMAL;
            const MAP_KEY: bool = false;

            fn schema(name: &str, repetition: Repetition, opts: &FieldOptions) -> Result<Type> {
                <[T]>::schema(name, repetition, opts)
            }

            fn docs(prefix: &str, out: &mut Vec<(String, String)>) {
                T::docs(prefix, out)
            }

            fn bloom_filters(prefix: &str, out: &mut Vec<(String, crate::options::BloomFilterSpec)>) {
                T::bloom_filters(prefix, out)
            }

            fn enums(prefix: &str, out: &mut Vec<(String, &'static [&'static str])>) {
                T::enums(prefix, out)
            }
        }

        impl<T: ListElement + ParquetWrite, $($generics)*> ParquetWrite for $t {
            #[inline]
            fn write(&self, sink: &mut ColumnSink, at: WriteAt, opts: &FieldOptions) -> Result<()> {
                write_elements(self.iter(), sink, at, opts)
            }
        }

        impl<T: ListElement, $($generics)*> ListElement for $t {}
    };
}

sequence_schema_write!([] Vec<T>, plan: ListPlan);
sequence_schema_write!([] VecDeque<T>, plan: SequencePlan);
sequence_schema_write!([] BTreeSet<T>, plan: SequencePlan);
sequence_schema_write!([S] HashSet<T, S>, plan: SequencePlan);
sequence_schema_write!([const N: usize] [T; N], plan: SequencePlan);

impl<'de, T: ListElement + ParquetRead<'de>> ParquetRead<'de> for VecDeque<T> {
    fn resolve(node: &FileNode<'_>, opts: &FieldOptions, resolver: &mut Resolver<'_>) -> Result<Self::ReadPlan> {
        SequencePlan::resolve::<T>(node, opts, resolver)
    }

    #[inline]
    fn read(plan: &Self::ReadPlan, src: &mut RecordSource<'de>) -> Result<Self> {
        let mut out = VecDeque::new();
        plan.read(src, |e: T| {
            out.push_back(e);
            Ok(())
        })?;
        Ok(out)
    }

    fn missing() -> Option<Self> {
        Some(VecDeque::new())
    }
}

/// Why a set cannot take an element again.
const DUPLICATE: &str = "the list holds an element twice, which a set cannot: read it into a `Vec`";

impl<'de, T: ListElement + ParquetRead<'de> + Ord> ParquetRead<'de> for BTreeSet<T> {
    fn resolve(node: &FileNode<'_>, opts: &FieldOptions, resolver: &mut Resolver<'_>) -> Result<Self::ReadPlan> {
        SequencePlan::resolve::<T>(node, opts, resolver)
    }

    #[inline]
    fn read(plan: &Self::ReadPlan, src: &mut RecordSource<'de>) -> Result<Self> {
        let mut out = BTreeSet::new();
        plan.read(src, |e: T| if out.insert(e) { Ok(()) } else { Err(DUPLICATE.to_owned()) })?;
        Ok(out)
    }

    fn missing() -> Option<Self> {
        Some(BTreeSet::new())
    }
}

impl<'de, T, S> ParquetRead<'de> for HashSet<T, S>
where
    T: ListElement + ParquetRead<'de> + Eq + Hash,
    S: BuildHasher + Default,
{
    fn resolve(node: &FileNode<'_>, opts: &FieldOptions, resolver: &mut Resolver<'_>) -> Result<Self::ReadPlan> {
        SequencePlan::resolve::<T>(node, opts, resolver)
    }

    #[inline]
    fn read(plan: &Self::ReadPlan, src: &mut RecordSource<'de>) -> Result<Self> {
        let mut out = HashSet::default();
        plan.read(src, |e: T| if out.insert(e) { Ok(()) } else { Err(DUPLICATE.to_owned()) })?;
        Ok(out)
    }

    fn missing() -> Option<Self> {
        Some(HashSet::default())
    }
}

impl<'de, T: ListElement + ParquetRead<'de>, const N: usize> ParquetRead<'de> for [T; N] {
    fn resolve(node: &FileNode<'_>, opts: &FieldOptions, resolver: &mut Resolver<'_>) -> Result<Self::ReadPlan> {
        SequencePlan::resolve::<T>(node, opts, resolver)
    }

    #[inline]
    fn read(plan: &Self::ReadPlan, src: &mut RecordSource<'de>) -> Result<Self> {
        let mut out = Vec::with_capacity(N);
        plan.read(src, |e: T| {
            out.push(e);
            if out.len() > N {
                return Err(format!("the list has more than {N} elements, the length of the array"));
            }
            Ok(())
        })?;
        let len = out.len();
        <[T; N]>::try_from(out)
            .map_err(|_| plan.error(src, format!("the list has {len} elements, the array takes exactly {N}")))
    }
}
