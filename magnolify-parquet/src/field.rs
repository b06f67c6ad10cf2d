//! The field-level trait every supported Rust type implements.

use parquet::basic::Repetition;
use parquet::schema::types::Type;

use crate::error::Result;
use crate::options::FieldOptions;
use crate::read::{FileNode, RecordSource, Resolver};
use crate::write::{ColumnSink, WriteAt};

/// A Rust type with a Parquet form: its schema node, how it shreds into leaf
/// columns, and how it is assembled back.
///
/// `#[derive(ParquetType)]` implements it for structs and unit enums by
/// combining the impls of the fields; the library implements it for
/// primitives, strings, bytes, `Option`, `Vec`, maps, `Box` and the logical
/// types. Everything a type needs to know about the file is resolved once
/// into its [`ReadPlan`](Self::ReadPlan), so reading a record does no
/// lookups.
///
/// ```
/// use magnolify_parquet::{FieldOptions, ParquetField, schema};
/// use parquet::basic::Repetition;
///
/// let node = <Option<Vec<u16>>>::schema("xs", Repetition::REQUIRED, &FieldOptions::DEFAULT).unwrap();
/// let text = schema::to_text(&node);
/// assert!(text.contains("OPTIONAL group xs (LIST)"), "{text}");
/// assert!(text.contains("REQUIRED INT32 element (INTEGER(16,false))"), "{text}");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no Parquet form",
    note = "supported: primitives, strings, bytes, Option, Vec, maps, Box, derived structs and enums, and the \
            logical types behind features; convert other types with #[parquet(with = \"module\")]"
)]
pub trait ParquetField: Sized {
    /// Number of leaf columns the type occupies.
    const LEAVES: usize;

    /// Whether the type's node is itself nullable (`Option`): such a type
    /// cannot be wrapped in another `Option` or be a 2-level list element.
    const NULLABLE: bool = false;

    /// What the type needs to read a file: cursor indices, levels,
    /// conversions. Built once per file by [`resolve`](Self::resolve).
    type ReadPlan: Send + Sync + 'static;

    /// The schema node of a field named `name` with `repetition` (REQUIRED
    /// unless a wrapper asks otherwise).
    fn schema(name: &str, repetition: Repetition, opts: &FieldOptions) -> Result<Type>;

    /// Shreds the value: one or more triplets into each of its leaves from `at.leaf`.
    fn write(&self, sink: &mut ColumnSink, at: WriteAt, opts: &FieldOptions) -> Result<()>;

    /// Matches the type against the file's node, choosing its columns.
    fn resolve(node: &FileNode<'_>, opts: &FieldOptions, resolver: &mut Resolver<'_>) -> Result<Self::ReadPlan>;

    /// Assembles one value.
    fn read(plan: &Self::ReadPlan, source: &mut RecordSource) -> Result<Self>;

    /// The value of a field whose column is absent from the file: `None`,
    /// an empty collection, or no value at all (then the field is required).
    fn missing() -> Option<Self> {
        None
    }

    /// Collects the doc comments of the type's fields (derived structs), as
    /// (dotted path under `prefix`, text). Wrappers pass through.
    fn docs(_prefix: &str, _out: &mut Vec<(String, String)>) {}
}
