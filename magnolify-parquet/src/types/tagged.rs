//! The runtime of derived enums with data. Such an enum is a group: a
//! `variant` column naming the variant (the tag) beside one optional field
//! per variant that carries data, or, in parquet-avro's union layout, only
//! the optional `member0..memberN` fields. The derive writes and reads the
//! group through hidden structs; what it cannot express as a struct field,
//! the tag and the check that exactly the variant's field is set, is here,
//! with the ENUM column of unit enums, which the tag is.

use std::marker::PhantomData;

use parquet::basic::{LogicalType, Repetition, Type as PhysicalType};
use parquet::schema::types::Type;

use super::LeafPlan;
use crate::assemble::{FileNode, RecordSource, Resolver};
use crate::error::{Error, Location, Result};
use crate::field::{ParquetRead, ParquetSchema, ParquetWrite};
use crate::logical::Annotation;
use crate::options::FieldOptions;
use crate::schema;
use crate::shred::{ColumnSink, WriteAt};

/// The variants of a derived enum with data, as its tag column names them.
pub trait VariantSymbols {
    /// The enum's name, for errors.
    const ENUM: &'static str;
    /// Each variant's symbol, in declaration order.
    const SYMBOLS: &'static [&'static str];
    /// The index of the `#[parquet(other)]` variant, which reads symbols
    /// the enum lacks.
    const OTHER: Option<usize>;
    /// Whether the tag's column is annotated ENUM (`annotation = "enum"`),
    /// not STRING.
    const ENUM_ANNOTATION: bool = false;
}

/// The tag of an enum with data: which variant a record holds, as an index
/// into `S::SYMBOLS`, stored as the variant's symbol (a STRING column, or ENUM).
pub struct VariantTag<S> {
    /// Index of the variant in `S::SYMBOLS`.
    pub index: usize,
    symbols: PhantomData<fn() -> S>,
}

impl<S> VariantTag<S> {
    /// The tag of variant `index`.
    #[inline]
    pub const fn new(index: usize) -> Self {
        VariantTag { index, symbols: PhantomData }
    }
}

impl<S: VariantSymbols> ParquetSchema for VariantTag<S> {
    const LEAVES: usize = 1;
    const MAP_KEY: bool = false;
    type ReadPlan = LeafPlan<()>;

    fn schema(name: &str, repetition: Repetition, _: &FieldOptions) -> Result<Type> {
        enum_schema(name, repetition, S::ENUM_ANNOTATION)
    }

    fn enums(prefix: &str, out: &mut Vec<(String, &'static [&'static str])>) {
        out.push((prefix.to_owned(), S::SYMBOLS));
    }
}

impl<S: VariantSymbols> ParquetWrite for VariantTag<S> {
    #[inline]
    fn write(&self, sink: &mut ColumnSink, at: WriteAt, _: &FieldOptions) -> Result<()> {
        match S::SYMBOLS.get(self.index) {
            Some(symbol) => sink.push_bytes(at, symbol.as_bytes()),
            None => Err(sink.value_error(at.leaf(), format!("no variant {} in enum {}", self.index, S::ENUM))),
        }
    }
}

impl<'de, S: VariantSymbols> ParquetRead<'de> for VariantTag<S> {
    fn resolve(node: &FileNode<'_>, _: &FieldOptions, resolver: &mut Resolver<'_>) -> Result<LeafPlan<()>> {
        enum_resolve(node, resolver)
    }

    #[inline]
    fn read(plan: &LeafPlan<()>, source: &mut RecordSource<'de>) -> Result<Self> {
        let index = enum_read(plan, source, S::ENUM, S::SYMBOLS, S::OTHER)?;
        Ok(VariantTag::new(index))
    }
}

/// The read plan of an enum with data: its group's plan and the group's
/// path, which the errors about its variants name.
pub struct EnumPlan<P> {
    /// The plan of the hidden struct the enum reads through.
    pub inner: P,
    column: String,
}

impl<P> EnumPlan<P> {
    /// The plan of the enum at `node`.
    pub fn new(node: &FileNode<'_>, inner: P) -> Self {
        EnumPlan { inner, column: node.path().to_owned() }
    }

    /// A record whose variant fields do not match its tag: `variant` is
    /// the tag's symbol (`None` in the union layout, which has no tag) and
    /// `set` says which variant fields hold a value.
    #[cold]
    pub fn mismatch(&self, source: &RecordSource<'_>, variant: Option<&str>, set: &[(&str, bool)]) -> Error {
        let held: Vec<&str> = set.iter().filter(|(_, is_set)| *is_set).map(|(name, _)| *name).collect();
        let message = match (variant, held.as_slice()) {
            (None, []) => "no member of the union is set: exactly one must be (a null union is an Option)".to_owned(),
            (None, held) => format!("members {held:?} of the union are all set: exactly one must be"),
            (Some(variant), []) => format!("the variant is `{variant}` but its field `{variant}` is null"),
            // The variant's own field null, another's set.
            (Some(variant), held) if set.iter().any(|(name, is_set)| *name == variant && !is_set) => format!(
                "the variant is `{variant}` but its field `{variant}` is null and {held:?} hold values: only the \
                 field of the variant the tag names may be set, and it must be"
            ),
            (Some(variant), held) => format!(
                "the variant is `{variant}` but {held:?} hold values: only the field of the variant the tag names \
                 may be set"
            ),
        };
        let location = Location::column(self.column.clone()).with_record(source.record());
        Error::value(location, message)
    }
}

/// Schema of an enum's symbols (a unit-only enum, the tag of an enum with
/// data): BYTE_ARRAY annotated STRING, which every engine reads as text, or
/// ENUM (`as_enum`), parquet-avro's form of an Avro enum.
pub fn enum_schema(name: &str, repetition: Repetition, as_enum: bool) -> Result<Type> {
    let annotation = if as_enum { LogicalType::Enum } else { LogicalType::String };
    schema::primitive(name, repetition, PhysicalType::BYTE_ARRAY, Some(annotation))
}

/// Resolves a unit-only enum: ENUM, STRING or unannotated BYTE_ARRAY.
pub fn enum_resolve(node: &FileNode<'_>, resolver: &mut Resolver<'_>) -> Result<LeafPlan<()>> {
    super::not_repeated(node, "an enum")?;
    let (cursor, descr) = resolver.leaf(node)?;
    let text = matches!(Annotation::of(node.ty()), Annotation::None | Annotation::String | Annotation::Enum);
    if descr.physical_type() != PhysicalType::BYTE_ARRAY || !text {
        return Err(node.mismatch("an enum reads ENUM or STRING columns"));
    }
    Ok(LeafPlan { cursor, conv: () })
}

/// Reads an enum symbol: its index in `symbols` (of enum `name`), the
/// `other` variant's for a symbol the enum lacks, or else an error naming
/// the unknown symbol, the column and the fix.
#[inline]
pub fn enum_read(
    plan: &LeafPlan<()>,
    source: &mut RecordSource<'_>,
    name: &str,
    symbols: &[&str],
    other: Option<usize>,
) -> Result<usize> {
    let c = plan.cursor;
    let Some(bytes) = source.take_bytes(c)? else {
        return Err(source.null_error(c));
    };
    match (symbols.iter().position(|s| s.as_bytes() == bytes), other) {
        (Some(i), _) | (None, Some(i)) => Ok(i),
        (None, None) => Err(source.value_error(
            c,
            format!(
                "unknown variant {:?} of enum `{name}`, which has {symbols:?}: add the variant, or mark a unit \
                 variant #[parquet(other)] to read the variants the enum does not know",
                String::from_utf8_lossy(bytes)
            ),
        )),
    }
}
