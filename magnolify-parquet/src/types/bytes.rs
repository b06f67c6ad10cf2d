//! Strings and byte strings: `str`, `String`, `Box<str>`, `Arc<str>`
//! (STRING), `[u8]`, `Vec<u8>`, `bytes::Bytes` (BYTE_ARRAY) and `[u8; N]`
//! (FIXED_LEN_BYTE_ARRAY). The unsized `str` and `[u8]` only write.

use std::sync::Arc;

use parquet::basic::{LogicalType, Repetition, Type as PhysicalType};
use parquet::schema::types::Type;

use super::{not_repeated, LeafPlan};
use crate::assemble::{FileNode, RecordSource, Resolver};
use crate::error::Result;
use crate::field::{ParquetRead, ParquetSchema, ParquetWrite};
use crate::logical::Annotation;
use crate::options::FieldOptions;
use crate::schema;
use crate::shred::{ColumnSink, WriteAt};

/// Checks that a column holds text: BYTE_ARRAY, unannotated or annotated as
/// STRING, ENUM or JSON. Unannotated bytes are validated as UTF-8 per value.
pub(crate) fn resolve_text(node: &FileNode<'_>, resolver: &mut Resolver<'_>) -> Result<LeafPlan<()>> {
    not_repeated(node, "a string")?;
    let (cursor, descr) = resolver.leaf(node)?;
    let annotation = Annotation::of(node.ty());
    let text = annotation == Annotation::None || annotation.is_text();
    if descr.physical_type() != PhysicalType::BYTE_ARRAY || !text {
        return Err(node.mismatch("a string type reads STRING, ENUM, JSON or unannotated BYTE_ARRAY columns"));
    }
    Ok(LeafPlan { cursor, conv: () })
}

/// Reads a required UTF-8 value, borrowed from the batch.
#[inline]
pub(crate) fn read_text<'de>(plan: &LeafPlan<()>, src: &mut RecordSource<'de>) -> Result<&'de str> {
    let c = plan.cursor;
    match src.take_str(c)? {
        Some(Ok(v)) => Ok(v),
        Some(Err(e)) => Err(src.value_error(c, format!("invalid UTF-8: {e}"))),
        None => Err(src.null_error(c)),
    }
}

/// Checks that a column holds bytes: BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY
/// without a numeric annotation (strings are bytes too).
fn resolve_binary(node: &FileNode<'_>, resolver: &mut Resolver<'_>) -> Result<LeafPlan<()>> {
    not_repeated(node, "bytes")?;
    let (cursor, descr) = resolver.leaf(node)?;
    let numeric =
        matches!(Annotation::of(node.ty()), Annotation::Decimal { .. } | Annotation::Float16 | Annotation::Interval);
    match descr.physical_type() {
        PhysicalType::BYTE_ARRAY | PhysicalType::FIXED_LEN_BYTE_ARRAY if !numeric => Ok(LeafPlan { cursor, conv: () }),
        _ => {
            Err(node
                .mismatch("a byte type reads BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY columns without a numeric annotation"))
        }
    }
}

/// Reads a required byte string, borrowed from the batch.
#[inline]
pub(crate) fn read_binary<'de>(plan: &LeafPlan<()>, src: &mut RecordSource<'de>) -> Result<&'de [u8]> {
    src.take_bytes(plan.cursor)?.ok_or_else(|| src.null_error(plan.cursor))
}

/// The annotation of a text column: JSON with `#[parquet(json)]`, else STRING.
pub(crate) fn text_annotation(opts: &FieldOptions) -> Option<LogicalType> {
    Some(if opts.json { LogicalType::Json } else { LogicalType::String })
}

/// Byte strings are not annotated.
fn no_annotation(_: &FieldOptions) -> Option<LogicalType> {
    None
}

/// The schema and write halves of byte strings: BYTE_ARRAY columns annotated
/// as `$logical` says for the field's options, which `$accepts`, written from
/// the bytes `$bytes` gives for `$value`. The unsized `str` and `[u8]`
/// (borrowed records) have only these.
macro_rules! byte_string_schema_write {
    ($logical:path, $accepts:expr, |$value:ident| $bytes:expr; $($t:ty),*) => {$(
        impl ParquetSchema for $t {
            const LEAVES: usize = 1;
            // Unused by `str` and `[u8]`, which only write.
            type ReadPlan = LeafPlan<()>;
            const ACCEPTS: crate::field::Accepts = $accepts;

            fn schema(name: &str, repetition: Repetition, opts: &FieldOptions) -> Result<Type> {
                schema::primitive(name, repetition, PhysicalType::BYTE_ARRAY, $logical(opts))
            }
        }

        impl ParquetWrite for $t {
            #[inline(always)]
            fn write(&self, sink: &mut ColumnSink, at: WriteAt, _opts: &FieldOptions) -> Result<()> {
                let $value = self;
                sink.push_bytes(at, $bytes)
            }
        }
    )*};
}

byte_string_schema_write!(text_annotation, crate::field::Accepts::TEXT, |text| text.as_bytes();
    str, String, Box<str>, Arc<str>);
byte_string_schema_write!(no_annotation, crate::field::Accepts::NONE, |bytes| bytes;
    [u8], Vec<u8>, bytes::Bytes, Box<[u8]>);

/// The read half of byte strings: columns checked by `$resolve`, values
/// read by `$read` (borrowed from the batch) and made into each type by its
/// conversion. The references borrow them as they are.
macro_rules! byte_string_read {
    ($resolve:ident, $read:ident; $($t:ty => $from:expr),*) => {$(
        impl<'de> ParquetRead<'de> for $t {
            fn resolve(node: &FileNode<'_>, _: &FieldOptions, resolver: &mut Resolver<'_>) -> Result<Self::ReadPlan> {
                $resolve(node, resolver)
            }

            #[inline]
            fn read(plan: &Self::ReadPlan, src: &mut RecordSource<'de>) -> Result<Self> {
                $read(plan, src).map($from)
            }
        }
    )*};
}

byte_string_read!(resolve_text, read_text;
    String => str::to_owned, Box<str> => Box::from, Arc<str> => Arc::from);
byte_string_read!(resolve_binary, read_binary;
    Vec<u8> => <[u8]>::to_vec, bytes::Bytes => bytes::Bytes::copy_from_slice, Box<[u8]> => Box::from);

/// `&str` and `&[u8]` read for `'de: 'a`: slices of the batch's bytes.
macro_rules! borrowed_read {
    ($resolve:ident, $read:ident; $($t:ty),*) => {$(
        impl<'de: 'a, 'a> ParquetRead<'de> for &'a $t {
            fn resolve(node: &FileNode<'_>, _: &FieldOptions, resolver: &mut Resolver<'_>) -> Result<Self::ReadPlan> {
                $resolve(node, resolver)
            }

            #[inline]
            fn read(plan: &Self::ReadPlan, src: &mut RecordSource<'de>) -> Result<Self> {
                $read(plan, src)
            }
        }
    )*};
}

borrowed_read!(resolve_text, read_text; str);
borrowed_read!(resolve_binary, read_binary; [u8]);

impl<const N: usize> ParquetSchema for [u8; N] {
    const LEAVES: usize = 1;
    type ReadPlan = LeafPlan<()>;

    fn schema(name: &str, repetition: Repetition, _opts: &FieldOptions) -> Result<Type> {
        let len = i32::try_from(N).map_err(|_| crate::Error::schema(name, format!("[u8; {N}] is too long")))?;
        schema::primitive_with(name, repetition, PhysicalType::FIXED_LEN_BYTE_ARRAY, None, |b| b.with_length(len))
    }
}

impl<const N: usize> ParquetWrite for [u8; N] {
    #[inline(always)]
    fn write(&self, sink: &mut ColumnSink, at: WriteAt, _opts: &FieldOptions) -> Result<()> {
        sink.push_bytes(at, self)
    }
}

impl<'de, const N: usize> ParquetRead<'de> for [u8; N] {
    fn resolve(node: &FileNode<'_>, opts: &FieldOptions, resolver: &mut Resolver<'_>) -> Result<Self::ReadPlan> {
        let plan = resolve_binary(node, resolver)?;
        let _ = opts;
        if let Type::PrimitiveType { physical_type: PhysicalType::FIXED_LEN_BYTE_ARRAY, type_length, .. } = node.ty() {
            if usize::try_from(*type_length).ok() != Some(N) {
                return Err(
                    node.error(format!("expected FIXED_LEN_BYTE_ARRAY({N}), found {}({type_length})", node.describe()))
                );
            }
        }
        Ok(plan)
    }

    #[inline]
    fn read(plan: &Self::ReadPlan, src: &mut RecordSource<'de>) -> Result<Self> {
        read_array(plan, src, format_args!("[u8; {N}]"))
    }
}

/// Reads a required value of exactly `N` bytes (FIXED_LEN_BYTE_ARRAY(N), or
/// bytes checked per value); `what` names the type in the error.
#[inline]
pub(crate) fn read_array<const N: usize>(
    plan: &LeafPlan<()>,
    src: &mut RecordSource<'_>,
    what: std::fmt::Arguments<'_>,
) -> Result<[u8; N]> {
    let c = plan.cursor;
    match src.take_bytes(c)?.map(|b| <[u8; N]>::try_from(b).map_err(|_| b.len())) {
        Some(Ok(v)) => Ok(v),
        Some(Err(len)) => Err(src.value_error(c, format!("{len} bytes where {what} needs {N}"))),
        None => Err(src.null_error(c)),
    }
}

/// The three halves of a value stored as `FIXED_LEN_BYTE_ARRAY($len)`
/// annotated `$logical` (`Uuid`, `f16`): written from the bytes `$to` gives,
/// read from columns of that length whose annotation matches `$reads` (else
/// the mismatch says `$expected`), converted back by `$from`.
#[cfg(any(feature = "uuid", feature = "half"))]
macro_rules! fixed_bytes_type {
    (
        $(#[$doc:meta])*
        $t:ty: $len:literal bytes annotated $logical:expr,
        reads $reads:pat, else $expected:literal,
        write |$value:ident| $to:expr,
        read $what:literal with $from:expr $(,)?
    ) => {
        const _: () = {
            use crate::assemble::{FileNode, RecordSource, Resolver};
            use crate::error::Result;
            use crate::field::{ParquetRead, ParquetSchema, ParquetWrite};
            use crate::logical::Annotation;
            use crate::options::FieldOptions;
            use crate::shred::{ColumnSink, WriteAt};
            use crate::types::{bytes::read_array, not_repeated, LeafPlan, ListElement};
            use parquet::basic::{Repetition, Type as PhysicalType};
            use parquet::schema::types::Type;

            $(#[$doc])*
            impl ParquetSchema for $t {
                const LEAVES: usize = 1;
                type ReadPlan = LeafPlan<()>;

                fn schema(name: &str, repetition: Repetition, _: &FieldOptions) -> Result<Type> {
                    let physical = PhysicalType::FIXED_LEN_BYTE_ARRAY;
                    crate::schema::primitive_with(name, repetition, physical, Some($logical), |b| b.with_length($len))
                }
            }

            impl ParquetWrite for $t {
                #[inline]
                fn write(&self, sink: &mut ColumnSink, at: WriteAt, _: &FieldOptions) -> Result<()> {
                    let $value = self;
                    sink.push_bytes(at, $to)
                }
            }

            impl<'de> ParquetRead<'de> for $t {
                fn resolve(node: &FileNode<'_>, _: &FieldOptions, resolver: &mut Resolver<'_>) -> Result<LeafPlan<()>> {
                    not_repeated(node, $what)?;
                    let (cursor, descr) = resolver.leaf(node)?;
                    let annotated = matches!(Annotation::of(node.ty()), $reads);
                    let fixed = descr.physical_type() == PhysicalType::FIXED_LEN_BYTE_ARRAY;
                    if !fixed || descr.type_length() != $len || !annotated {
                        return Err(node.mismatch($expected));
                    }
                    Ok(LeafPlan { cursor, conv: () })
                }

                #[inline]
                fn read(plan: &LeafPlan<()>, src: &mut RecordSource<'de>) -> Result<Self> {
                    read_array(plan, src, format_args!($what)).map($from)
                }
            }

            impl ListElement for $t {}
        };
    };
}
