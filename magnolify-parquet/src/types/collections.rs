//! `Option<T>`, `Vec<T>` and `[T]`, `Box<T>`, `HashMap` and `BTreeMap`: the
//! nodes that add definition and repetition levels.

use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasher, Hash};
use std::sync::Arc;

use parquet::basic::Repetition;
use parquet::schema::types::Type;

use super::Slot;
use crate::assemble::{list_shape, map_shape, FileNode, ListLevels, Presence, RecordSource, Resolver};
use crate::error::{Error, Location, Result};
use crate::field::{Accepts, ParquetRead, ParquetSchema, ParquetWrite};
use crate::options::FieldOptions;
use crate::schema;
use crate::shred::{ColumnSink, WriteAt};

/// The plan of an `Option<T>`: where its presence is read, and the inner
/// type's plan (`None` for a column annotated UNKNOWN, Arrow's Null type:
/// every value is null, whatever the Rust type).
#[derive(Clone, Debug)]
pub struct OptionPlan<P> {
    presence: Presence,
    inner: Option<P>,
}

impl<T: ParquetSchema> ParquetSchema for Option<T> {
    const LEAVES: usize = T::LEAVES;
    type ReadPlan = OptionPlan<T::ReadPlan>;
    const NULLABLE: bool = true;
    const ACCEPTS: Accepts = T::ACCEPTS;
    const NEEDS_DECIMAL: bool = T::NEEDS_DECIMAL;
    const MAP_KEY: bool = false;

    fn schema(name: &str, repetition: Repetition, opts: &FieldOptions) -> Result<Type> {
        schema::check_repetition(name, repetition, opts, true)?;
        if T::NULLABLE {
            return Err(Error::schema(name, "Option<Option<T>> has no Parquet form"));
        }
        T::schema(name, Repetition::OPTIONAL, opts)
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

impl<T: ParquetWrite> ParquetWrite for Option<T> {
    #[inline]
    fn write(&self, sink: &mut ColumnSink, at: WriteAt, opts: &FieldOptions) -> Result<()> {
        match self {
            Some(v) => v.write(sink, at.defined(), opts),
            None => sink.push_nulls(at, T::LEAVES),
        }
    }
}

impl<'de, T: ParquetRead<'de>> ParquetRead<'de> for Option<T> {
    fn resolve(node: &FileNode<'_>, opts: &FieldOptions, resolver: &mut Resolver<'_>) -> Result<Self::ReadPlan> {
        let first = resolver.cursors();
        if !node.is_group() && matches!(node.logical_type(), Some(parquet::basic::LogicalType::Unknown)) {
            // Always null: read the levels only, a value there is corruption.
            super::not_repeated(node, "an optional value")?;
            resolver.leaf(node)?;
            return Ok(OptionPlan { presence: Presence::since(node, first, resolver, node.def())?, inner: None });
        }
        // A bare repeated field (1-level list) is never null: the inner type
        // (a list) takes the node as it is, and the option is always present.
        let (inner, def) = if node.repetition() == Repetition::REPEATED {
            (T::resolve(node, opts, resolver)?, 0)
        } else {
            (T::resolve(&node.as_required(), opts, resolver)?, node.def())
        };
        Ok(OptionPlan { presence: Presence::since(node, first, resolver, def)?, inner: Some(inner) })
    }

    #[inline]
    fn read(plan: &Self::ReadPlan, src: &mut RecordSource<'de>) -> Result<Self> {
        match &plan.inner {
            Some(inner) if plan.presence.is_present(src) => T::read(inner, src).map(Some),
            _ => {
                plan.presence.skip(src)?;
                Ok(None)
            }
        }
    }

    fn missing() -> Option<Self> {
        Some(None)
    }
}

pointer_schema_write!([T: ParquetSchema] Box<T> => T, plan: T::ReadPlan);

impl<'de, T: ParquetRead<'de>> ParquetRead<'de> for Box<T> {
    fn resolve(node: &FileNode<'_>, opts: &FieldOptions, resolver: &mut Resolver<'_>) -> Result<Self::ReadPlan> {
        T::resolve(node, opts, resolver)
    }

    #[inline]
    fn read(plan: &Self::ReadPlan, src: &mut RecordSource<'de>) -> Result<Self> {
        T::read(plan, src).map(Box::new)
    }

    fn missing() -> Option<Self> {
        T::missing().map(Box::new)
    }
}

// `Arc<T>` is `T`, as `Box<T>` is. (`Rc<T>` is not supported: records
// cross threads, so an `Rc` field would make a record no reader can take.)
macro_rules! shared_pointer {
    ($($p:ident),*) => {$(
        pointer_schema_write!([T: ParquetSchema] $p<T> => T, plan: T::ReadPlan);

        impl<'de, T: ParquetRead<'de>> ParquetRead<'de> for $p<T> {
            fn resolve(node: &FileNode<'_>, opts: &FieldOptions, resolver: &mut Resolver<'_>) -> Result<Self::ReadPlan> {
                T::resolve(node, opts, resolver)
            }

            #[inline]
            fn read(plan: &Self::ReadPlan, src: &mut RecordSource<'de>) -> Result<Self> {
                T::read(plan, src).map($p::new)
            }

            fn missing() -> Option<Self> {
                T::missing().map($p::new)
            }
        }

        impl<T: ParquetSchema> ListElement for $p<T> {}
    )*};
}
shared_pointer!(Arc);

/// Types that can be list elements: every field type but `u8`, since
/// `Vec<u8>` is a byte string (BYTE_ARRAY), not a list of integers.
///
/// `#[derive(ParquetType)]` implements it; implement it for a hand-written
/// field type to allow `Vec` of it.
pub trait ListElement: ParquetSchema {}

macro_rules! list_elements {
    ($($t:ty),* $(,)?) => { $(impl ListElement for $t {})* };
}
list_elements!(
    bool,
    i8,
    i16,
    i32,
    i64,
    u16,
    u32,
    u64,
    isize,
    usize,
    f32,
    f64,
    str,
    String,
    Box<str>,
    std::sync::Arc<str>,
    [u8],
    Vec<u8>,
    bytes::Bytes,
    Box<[u8]>
);
impl<const N: usize> ListElement for [u8; N] {}
impl<T: ParquetSchema> ListElement for Option<T> {}
impl<T: ParquetSchema> ListElement for Box<T> {}
impl<T: ListElement> ListElement for [T] {}
impl<T: ListElement + ?Sized> ListElement for &T {}
impl<B: ListElement + ToOwned + ?Sized> ListElement for std::borrow::Cow<'_, B> where B::Owned: ParquetSchema {}
impl<K: ParquetSchema, V: ParquetSchema, S> ListElement for HashMap<K, V, S> {}
impl<K: ParquetSchema, V: ParquetSchema> ListElement for BTreeMap<K, V> {}

/// The plan of a list (or map): its levels, and the element's plan.
#[derive(Clone, Debug)]
pub struct ListPlan<P> {
    levels: ListLevels,
    element: P,
}

impl<P> ListPlan<P> {
    /// Reads a list, calling `element` with the element's plan once per element.
    #[inline]
    pub fn read_with<'de>(
        &self,
        src: &mut RecordSource<'de>,
        mut element: impl FnMut(&P, &mut RecordSource<'de>) -> Result<()>,
    ) -> Result<()> {
        self.levels.read(src, |src| element(&self.element, src))
    }
}

/// Resolves a list node of any layout, with `element` resolving its element.
pub(super) fn resolve_list<P>(
    node: &FileNode<'_>,
    resolver: &mut Resolver<'_>,
    element: impl FnOnce(&FileNode<'_>, &mut Resolver<'_>) -> Result<P>,
) -> Result<ListPlan<P>> {
    let shape = list_shape(node).map_err(|e| node.with_hint(e))?;
    let first = resolver.cursors();
    let element = element(&shape.element, resolver)?;
    let levels = ListLevels::since(node, shape.null_def, &shape.repeated, first, resolver)?;
    Ok(ListPlan { levels, element })
}

/// A list is a slice written element by element; `Vec<T>` and `&[T]` share it.
impl<T: ListElement> ParquetSchema for [T] {
    const LEAVES: usize = T::LEAVES;
    // A slice only writes; `Vec<T>` reads.
    type ReadPlan = ();
    const ACCEPTS: Accepts = T::ACCEPTS.in_list();
    const NEEDS_DECIMAL: bool = T::NEEDS_DECIMAL;
    const MAP_KEY: bool = false;

    fn schema(name: &str, repetition: Repetition, opts: &FieldOptions) -> Result<Type> {
        if repetition == Repetition::REPEATED && opts.list != crate::ListLayout::TwoLevel {
            return Err(Error::schema(name, "a list of lists needs the three-level or two-level layout"));
        }
        schema::list(name, repetition, opts.list, |element, rep| T::schema(element, rep, opts))
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

impl<T: ListElement + ParquetWrite> ParquetWrite for [T] {
    #[inline]
    fn write(&self, sink: &mut ColumnSink, at: WriteAt, opts: &FieldOptions) -> Result<()> {
        write_elements(self.iter(), sink, at, opts)
    }
}

/// Writes a list's elements (an empty list writes the nulls that mark it).
#[inline]
pub(super) fn write_elements<'a, T: ParquetWrite + 'a>(
    elements: impl ExactSizeIterator<Item = &'a T>,
    sink: &mut ColumnSink,
    at: WriteAt,
    opts: &FieldOptions,
) -> Result<()> {
    if elements.len() == 0 {
        return sink.push_nulls(at, T::LEAVES);
    }
    for (i, e) in elements.enumerate() {
        e.write(sink, at.element(i), opts)?;
    }
    Ok(())
}

// `Vec<T>`'s schema and write halves are the sequences' (`sequences.rs`).

impl<'de, T: ListElement + ParquetRead<'de>> ParquetRead<'de> for Vec<T> {
    fn resolve(node: &FileNode<'_>, opts: &FieldOptions, resolver: &mut Resolver<'_>) -> Result<Self::ReadPlan> {
        resolve_list(node, resolver, |e, r| T::resolve(e, opts, r))
    }

    #[inline]
    fn read(plan: &Self::ReadPlan, src: &mut RecordSource<'de>) -> Result<Self> {
        let mut out = Vec::new();
        plan.read_with(src, |p, src| {
            out.push(T::read(p, src)?);
            Ok(())
        })?;
        Ok(out)
    }

    fn missing() -> Option<Self> {
        Some(Vec::new())
    }
}

/// The plan of a map: a list of key/value entries.
pub type MapPlan<K, V> = ListPlan<(K, Slot<V>)>;

fn map_schema<K: ParquetSchema, V: ParquetSchema>(
    name: &str,
    repetition: Repetition,
    opts: &FieldOptions,
) -> Result<Type> {
    let key = K::schema("key", Repetition::REQUIRED, opts)?;
    let value = V::schema("value", Repetition::REQUIRED, opts)?;
    schema::map(name, repetition, key, value)
}

fn write_map<'a, K: ParquetWrite + 'a, V: ParquetWrite + 'a>(
    entries: impl ExactSizeIterator<Item = (&'a K, &'a V)>,
    sink: &mut ColumnSink,
    at: WriteAt,
    opts: &FieldOptions,
) -> Result<()> {
    if entries.len() == 0 {
        return sink.push_nulls(at, K::LEAVES + V::LEAVES);
    }
    for (i, (k, v)) in entries.enumerate() {
        let e = at.element(i);
        k.write(sink, e, opts)?;
        v.write(sink, e.skip_leaves(K::LEAVES), opts)?;
    }
    Ok(())
}

fn resolve_map<'de, K: ParquetRead<'de>, V: ParquetRead<'de>>(
    node: &FileNode<'_>,
    opts: &FieldOptions,
    resolver: &mut Resolver<'_>,
) -> Result<MapPlan<K::ReadPlan, V::ReadPlan>> {
    let shape = map_shape(node).map_err(|e| node.with_hint(e))?;
    let first = resolver.cursors();
    let key = K::resolve(&shape.key.as_required(), opts, resolver)?;
    let value = match &shape.value {
        Some(v) => Slot::Read(V::resolve(v, opts, resolver)?),
        None if V::missing().is_some() => Slot::Missing,
        None => {
            return Err(node.error(
                "the map has no values in the file (a key-only map): make the map's value type an `Option<_>`, \
                 which reads as `None`",
            ))
        }
    };
    let levels = ListLevels::since(node, shape.null_def, &shape.repeated, first, resolver)?;
    Ok(ListPlan { levels, element: (key, value) })
}

#[inline]
fn read_entry<'de, K: ParquetRead<'de>, V: ParquetRead<'de>>(
    plan: &(K::ReadPlan, Slot<V::ReadPlan>),
    src: &mut RecordSource<'de>,
) -> Result<(K, V)> {
    let key = K::read(&plan.0, src)?;
    let value = match &plan.1 {
        Slot::Read(p) => V::read(p, src)?,
        // Resolution chose `Missing` only for value types that have a missing value.
        Slot::Missing => V::missing().ok_or_else(|| {
            Error::bug(Location::default(), "a key-only map was resolved into a value type without a missing value")
        })?,
    };
    Ok((key, value))
}

/// One impl per map type: both are a list of key/value entries, and differ
/// only in how entries are collected.
macro_rules! map_field {
    ($map:ty, $new:expr, [$($params:tt)*], [$($key:tt)*], [$($extra:tt)*]) => {
        impl<K: ParquetSchema, V: ParquetSchema, $($params)*> ParquetSchema for $map {
            // The key's rule checked when the map type is used: a compile
            // error (this constant fails to evaluate), not a run-time one.
            const LEAVES: usize = {
                assert!(
                    K::MAP_KEY,
                    "a map key must be a primitive value (a number, text, bytes, a date, ...): not a struct, \
                     a list, a map or an Option; store such pairs as a Vec of structs"
                );
                K::LEAVES + V::LEAVES
            };
            type ReadPlan = MapPlan<K::ReadPlan, V::ReadPlan>;
            const ACCEPTS: Accepts = K::ACCEPTS.or(V::ACCEPTS);
            const NEEDS_DECIMAL: bool = K::NEEDS_DECIMAL || V::NEEDS_DECIMAL;
            const MAP_KEY: bool = false;

            fn schema(name: &str, repetition: Repetition, opts: &FieldOptions) -> Result<Type> {
                map_schema::<K, V>(name, repetition, opts)
            }

            fn docs(prefix: &str, out: &mut Vec<(String, String)>) {
                V::docs(prefix, out)
            }

            fn enums(prefix: &str, out: &mut Vec<(String, &'static [&'static str])>) {
                K::enums(&format!("{prefix}.key"), out);
                V::enums(prefix, out)
            }
        }

        impl<K: ParquetWrite, V: ParquetWrite, $($params)*> ParquetWrite for $map {
            #[inline]
            fn write(&self, sink: &mut ColumnSink, at: WriteAt, opts: &FieldOptions) -> Result<()> {
                write_map(self.iter(), sink, at, opts)
            }
        }

        impl<'de, K: ParquetRead<'de> + $($key)*, V: ParquetRead<'de>, $($params)* $($extra)*> ParquetRead<'de> for $map {
            fn resolve(node: &FileNode<'_>, opts: &FieldOptions, resolver: &mut Resolver<'_>) -> Result<Self::ReadPlan> {
                resolve_map::<K, V>(node, opts, resolver)
            }

            #[inline]
            fn read(plan: &Self::ReadPlan, src: &mut RecordSource<'de>) -> Result<Self> {
                let mut out = $new;
                plan.read_with(src, |p, src| {
                    let (k, v) = read_entry::<K, V>(p, src)?;
                    // Duplicate keys: the last value wins, as the format says.
                    out.insert(k, v);
                    Ok(())
                })?;
                Ok(out)
            }

            fn missing() -> Option<Self> {
                Some($new)
            }
        }
    };
}

map_field!(HashMap<K, V, S>, HashMap::default(), [S], [Eq + Hash], [: BuildHasher + Default]);
map_field!(BTreeMap<K, V>, BTreeMap::new(), [], [Ord], []);
