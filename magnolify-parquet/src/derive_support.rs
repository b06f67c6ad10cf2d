//! Runtime helpers that `#[derive(ParquetType)]` expands into: they keep the
//! generated code small and the error messages in one place.

use std::fmt::Display;
use std::marker::PhantomData;

use crate::assemble::{FileNode, GroupStart, NullCheck, RecordSource, Resolver};
use crate::error::{Error, Location, Result};
use crate::field::{ParquetRead, ParquetSchema, ParquetWrite};
use crate::options::FieldOptions;
use crate::shred::{ColumnSink, WriteAt};
use crate::types::Slot;

/// Checks that `node` can hold a struct and starts resolving it; the
/// returned [`GroupStart`] gives the struct's null check once its fields are
/// resolved.
pub fn struct_start(node: &FileNode<'_>, resolver: &Resolver<'_>) -> Result<GroupStart> {
    if !node.is_group() {
        return Err(node.mismatch("a struct reads a group"));
    }
    crate::types::not_repeated(node, "a struct")?;
    Ok(NullCheck::begin(node, resolver))
}

/// The slot of a field absent from the file: fine when the type has a
/// missing value (`Option`, collections) or the field has `default`; else
/// an error listing the fields the file has.
pub fn missing_field<T: ParquetSchema>(
    node: &FileNode<'_>,
    name: &str,
    has_default: bool,
    has_missing: bool,
) -> Result<Slot<T::ReadPlan>> {
    if has_default || has_missing {
        Ok(Slot::Missing)
    } else {
        Err(node.error(format!(
            "required field `{name}` is not in the file; the file has {}: make the field an `Option<_>`, \
             add #[parquet(default)], or #[parquet(rename = \"...\")] it to one of the file's fields",
            node.field_names()
        )))
    }
}

/// The value of a field absent from the file, `missing` (checked possible
/// when resolving).
pub fn missing_value<T>(missing: Option<T>, name: &str) -> Result<T> {
    missing.ok_or_else(|| Error::bug(Location::field(name), "a field resolved as missing has no missing value"))
}

/// How generated code reaches the write and read halves of its field types:
/// through where-clauses `Via<'m>: WriteField<F>` that name an impl
/// lifetime. Such a clause may be false without an error where the impl is
/// written: a struct with a field that cannot be read (a borrowed `&str`)
/// simply has no `ParquetRead` impl, and using it as one is the error, at
/// the use, naming the field type; a field type with no Parquet form at all
/// is reported once, at the field's type, by the assertion the derive emits
/// for each field: the impls take `F: ParquetSchema` as given (a where
/// clause with a `for<>` binder), so nothing else reports it.
pub struct Via<'a>(PhantomData<&'a ()>);

/// The write half of field type `T`, reached through [`Via`].
#[diagnostic::on_unimplemented(
    message = "`{T}` cannot be written to Parquet",
    label = "this type has no Parquet form",
    note = "the types with a Parquet form are the implementors of `magnolify_parquet::ParquetSchema` (its docs \
            list them, and the features that bring some); convert other types with \
            #[parquet(with = \"module\")]"
)]
pub trait WriteField<T: ?Sized> {
    /// `T::write`.
    fn write(value: &T, sink: &mut ColumnSink, at: WriteAt, opts: &FieldOptions) -> Result<()>;
}

impl<T: ParquetWrite + ?Sized> WriteField<T> for Via<'_> {
    #[inline(always)]
    fn write(value: &T, sink: &mut ColumnSink, at: WriteAt, opts: &FieldOptions) -> Result<()> {
        value.write(sink, at, opts)
    }
}

/// The read half of field type `T`, whose read plan is `P`, reached
/// through [`Via`]. The plan is a parameter, not `T::ReadPlan`, so that
/// naming this trait asks nothing of `T` (the derive's where clauses name
/// `<T as ParquetSchema>::ReadPlan` only under the `T: ParquetSchema` its
/// impls take as given).
#[diagnostic::on_unimplemented(
    message = "`{T}` cannot be read from Parquet",
    label = "a struct with a field of this type can only be written",
    note = "of the borrowed types, `&str`, `&[u8]` and `Cow` read (borrowing from the batch); other \
            references and slices only write: read owned types (`String`, `Vec<T>`, `T`)"
)]
pub trait ReadField<'de, T, P> {
    /// `T::resolve`.
    fn resolve(node: &FileNode<'_>, opts: &FieldOptions, resolver: &mut Resolver<'_>) -> Result<P>;
    /// `T::read`.
    fn read(plan: &P, source: &mut RecordSource<'de>) -> Result<T>;
    /// `T::missing`.
    fn missing() -> Option<T>;
}

impl<'de, T: ParquetRead<'de>> ReadField<'de, T, T::ReadPlan> for Via<'de> {
    #[inline(always)]
    fn resolve(node: &FileNode<'_>, opts: &FieldOptions, resolver: &mut Resolver<'_>) -> Result<T::ReadPlan> {
        T::resolve(node, opts, resolver)
    }
    #[inline(always)]
    fn read(plan: &T::ReadPlan, source: &mut RecordSource<'de>) -> Result<T> {
        T::read(plan, source)
    }
    #[inline(always)]
    fn missing() -> Option<T> {
        T::missing()
    }
}

/// The error of a `with` conversion that failed while writing.
pub fn with_write_error(sink: &ColumnSink, leaf: usize, field: &str, error: impl Display) -> Error {
    sink.value_error(leaf, format!("conversion failed: {error}")).within(|l| l.field = Some(field.to_owned()))
}

/// The error of a `with` conversion that failed while reading.
pub fn with_read_error(source: &RecordSource<'_>, field: &str, error: impl Display) -> Error {
    let location = Location { field: Some(field.to_owned()), ..Location::default() }.with_record(source.record());
    Error::value(location, format!("conversion failed: {error}"))
}

/// Joins a doc path.
pub fn doc_path(prefix: &str, name: &str) -> String {
    if prefix.is_empty() {
        name.to_owned()
    } else {
        format!("{prefix}.{name}")
    }
}
