//! The field-level traits, split along the data flow as serde splits
//! `Serialize` and `Deserialize`: what a type looks like in a schema
//! ([`ParquetSchema`]), how it is shredded into columns ([`ParquetWrite`]),
//! and how it is assembled back ([`ParquetRead`]). A type that only writes
//! (a borrowed `&str`, `&[T]`) implements the first two.

use parquet::basic::Repetition;
use parquet::schema::types::Type;

use crate::assemble::{FileNode, RecordSource, Resolver};
use crate::error::Result;
use crate::options::{BloomFilterSpec, FieldOptions};
use crate::shred::{ColumnSink, WriteAt};

/// A Rust type with a Parquet form: its schema node.
///
/// `#[derive(ParquetType)]` implements it for structs and enums by
/// combining the impls of the fields; the library implements it for the
/// integers (`i128`, `u128`, `usize` and `NonZero` too), floats, `bool`,
/// `char`, strings, bytes, IP addresses, `Option`, `Vec`, `VecDeque`,
/// sets, arrays, slices, maps, `Box`, `Arc`, references, `Cow`, and the
/// logical types of the features `chrono` (with `SystemTime`), `uuid`,
/// `decimal`, `bigdecimal`, `half`, `json` and `variant`. The forms are
/// in the type table of `docs/types.md`.
///
/// ```
/// use magnolify_parquet::{FieldOptions, ParquetSchema, schema};
/// use parquet::basic::Repetition;
///
/// let node = <Option<Vec<u16>>>::schema("xs", Repetition::REQUIRED, &FieldOptions::DEFAULT).unwrap();
/// let text = schema::to_text(&node);
/// assert!(text.contains("OPTIONAL group xs (LIST)"), "{text}");
/// assert!(text.contains("REQUIRED INT32 element (INTEGER(16,false))"), "{text}");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no Parquet form",
    label = "not a Parquet field type",
    note = "supported: integers (with i128, u128, usize and NonZero), floats, bool, char, strings, bytes, IP \
            addresses, Option, Vec and other sequences (VecDeque, sets, arrays), maps, Box, Arc, references, \
            Cow, derived structs and enums; chrono's dates and times and SystemTime, Uuid, rust_decimal's \
            Decimal, BigDecimal, half's f16, serde_json's Value and VariantValue with the magnolify-parquet \
            features `chrono`, `uuid`, `decimal`, `bigdecimal`, `half`, `json` and `variant` (enable the one for \
            the type); convert other types with #[parquet(with = \"module\")]"
)]
pub trait ParquetSchema {
    /// Number of leaf columns the type occupies.
    const LEAVES: usize;

    /// Whether the type's node is itself nullable (`Option`): such a type
    /// cannot be wrapped in another `Option` or be a 2-level list element.
    const NULLABLE: bool = false;

    /// The field attributes that change the type's form; the derive turns
    /// any other on a field of this type into a compile error.
    const ACCEPTS: Accepts = Accepts::NONE;

    /// Whether the type needs `decimal(precision, scale)` to have a schema
    /// (a decimal, or a container of one). The derive turns a missing
    /// `decimal` attribute on such a field into a compile error.
    const NEEDS_DECIMAL: bool = false;

    /// Whether the type can be a map's key: a required primitive value,
    /// not a group, a list, a map or an `Option` (the format's rule for
    /// MAP keys). `HashMap` and `BTreeMap` refuse other keys at compile
    /// time; derived structs, containers and `Option` say `false`.
    const MAP_KEY: bool = true;

    /// What reading the type needs: cursor indices, levels, conversions,
    /// built once per file by [`ParquetRead::resolve`]. Types that only
    /// write (references, `str`, slices) use `()`.
    ///
    /// It lives in this half, not in [`ParquetRead`], so that the plan of a
    /// derived struct is named without asking whether its fields can be
    /// read: a struct with a borrowed field has a plan type but no
    /// [`ParquetRead`] impl.
    type ReadPlan: Send + Sync + 'static;

    /// The schema node of a field named `name` with `repetition` (REQUIRED
    /// unless a wrapper asks otherwise).
    fn schema(name: &str, repetition: Repetition, opts: &FieldOptions) -> Result<Type>;

    /// Collects the doc comments of the type's fields (derived structs), as
    /// (dotted path under `prefix`, text). Wrappers pass through.
    fn docs(_prefix: &str, _out: &mut Vec<(String, String)>) {}

    /// Collects the bloom filters asked for by the type's fields (derived
    /// structs' `#[parquet(bloom_filter)]`), as (dotted field path under
    /// `prefix`, settings), the paths as [`docs`](Self::docs) writes them.
    /// Wrappers and lists pass through.
    fn bloom_filters(_prefix: &str, _out: &mut Vec<(String, BloomFilterSpec)>) {}

    /// Collects the symbols of the enums among the type's fields (unit
    /// enums, and the `variant` tags of enums with data), as (dotted field
    /// path under `prefix`, symbols), the paths as [`docs`](Self::docs)
    /// writes them (a map's values at the map's path, its keys under `.key`):
    /// what [`ENUMS_KEY`](crate::ENUMS_KEY) records in a file.
    fn enums(_prefix: &str, _out: &mut Vec<(String, &'static [&'static str])>) {}
}

/// Which field attributes change a type's Parquet form (see
/// [`ParquetSchema::ACCEPTS`]): `timestamp` for chrono times, `decimal` for
/// decimals, `list` for lists, `json` for text; containers accept what
/// their elements do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Accepts {
    /// `timestamp = "millis" | "micros" | "nanos"`.
    pub timestamp: bool,
    /// `decimal(precision = P, scale = S)`.
    pub decimal: bool,
    /// `list = "three-level" | "two-level" | "repeated"`.
    pub list: bool,
    /// `json`: text annotated JSON instead of STRING.
    pub json: bool,
}

impl Accepts {
    /// No attribute changes the form.
    pub const NONE: Accepts = Accepts { timestamp: false, decimal: false, list: false, json: false };
    /// A chrono time type.
    pub const TIMESTAMP: Accepts = Accepts { timestamp: true, ..Accepts::NONE };
    /// A decimal type.
    pub const DECIMAL: Accepts = Accepts { decimal: true, ..Accepts::NONE };
    /// A text type (`String`, `&str`, ...).
    pub const TEXT: Accepts = Accepts { json: true, ..Accepts::NONE };

    /// What either accepts (a map's key and value).
    pub const fn or(self, other: Accepts) -> Accepts {
        Accepts {
            timestamp: self.timestamp || other.timestamp,
            decimal: self.decimal || other.decimal,
            list: self.list || other.list,
            json: self.json || other.json,
        }
    }

    /// What a list of elements accepting `self` accepts.
    pub const fn in_list(self) -> Accepts {
        Accepts { list: true, ..self }
    }
}

/// The write half: shreds a value into triplets of its leaf columns.
///
/// It takes `&self`, so borrowed values write without copying: a struct
/// of `&str`, `&[T]` and `Cow` fields can be derived and written.
pub trait ParquetWrite: ParquetSchema {
    /// Shreds the value: one or more triplets into each of its leaves from `at.leaf`.
    fn write(&self, sink: &mut ColumnSink, at: WriteAt, opts: &FieldOptions) -> Result<()>;
}

/// The read half: resolves the type against a file's node once, then
/// assembles values that may borrow from the decoded batch for `'de`, as
/// serde's `Deserialize<'de>` borrows from its input.
///
/// Everything a type needs to know about the file is resolved once into its
/// [`ReadPlan`](ParquetSchema::ReadPlan), so reading a record does no lookups.
/// Owned types read for every `'de` (`for<'de> ParquetRead<'de>`, which
/// [`ParquetReadOwned`] names); `&'a str`, `&'a [u8]` and `Cow<'a, str>`
/// read for `'de: 'a`, borrowing their bytes from the batch.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be read from Parquet",
    label = "`{Self}` does not implement `ParquetRead`",
    note = "of the borrowed types, `&str`, `&[u8]` and `Cow<str>` / `Cow<[u8]>` read, borrowing from the batch \
            (`next_batch`); other references and slices only write: read owned types (`String`, `Vec<T>`, `T`)",
    note = "in generic code, bound the type with `ParquetReadOwned` (or `OwnedRecord` for a whole record)"
)]
pub trait ParquetRead<'de>: ParquetSchema + Sized {
    /// Matches the type against the file's node, choosing its columns.
    fn resolve(node: &FileNode<'_>, opts: &FieldOptions, resolver: &mut Resolver<'_>) -> Result<Self::ReadPlan>;

    /// Assembles one value.
    fn read(plan: &Self::ReadPlan, source: &mut RecordSource<'de>) -> Result<Self>;

    /// The value of a field whose column is absent from the file: `None`,
    /// an empty collection, or no value at all (then the field is required).
    fn missing() -> Option<Self> {
        None
    }
}

/// A type that reads without borrowing: [`ParquetRead`] for every `'de`,
/// as serde's `DeserializeOwned`. Bound generic code that reads owned
/// values with it.
///
/// ```
/// use magnolify_parquet::ParquetReadOwned;
///
/// fn readable<T: ParquetReadOwned>() {}
/// readable::<Vec<Option<String>>>();
/// ```
pub trait ParquetReadOwned: for<'de> ParquetRead<'de> {}

impl<T> ParquetReadOwned for T where T: for<'de> ParquetRead<'de> {}
