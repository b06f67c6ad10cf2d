//! The record-level traits every kind of record goes through, split like
//! the field traits (schema, write, read), and their implementation for
//! derived types.

use std::marker::PhantomData;

use parquet::file::metadata::KeyValue;
use parquet::schema::types::{SchemaDescriptor, TypePtr};

use crate::assemble::{FileNode, RecordSource, Resolver};
use crate::error::Result;
use crate::field::{ParquetRead, ParquetReadOwned, ParquetSchema, ParquetWrite};
use crate::options::{BloomFilterSpec, FieldOptions};
use crate::shred::{ColumnSink, WriteAt};

/// What a writer of records needs to know before the first one: the
/// Parquet message and the footer's key/value pairs.
pub trait RecordSchema {
    /// The Parquet message written.
    fn schema(&self) -> Result<TypePtr>;

    /// Footer key/value pairs the writer stores (an Avro schema, field docs).
    fn key_value_metadata(&self) -> Vec<KeyValue> {
        Vec::new()
    }

    /// The bloom filters the record type asks for, as (dotted field path,
    /// settings): each must name one column (lists pass through).
    fn bloom_filters(&self) -> Vec<(String, BloomFilterSpec)> {
        Vec::new()
    }
}

/// Shreds records of one kind into Parquet columns.
///
/// Both compile-time types ([`Derived`]) and dynamic records (the Avro
/// baseline's `AvroConverter`) implement it, so the in-memory store and the
/// file writer are the same code for both.
pub trait RecordWrite: RecordSchema {
    /// The record type, for any lifetime its borrowed fields have: a writer
    /// of a borrowing struct takes records borrowing for as long as each
    /// call lasts.
    type Record<'a>;

    /// Shreds `record` into `sink`. On error the sink may hold part of the
    /// record; callers use [`ColumnSink::record`] to roll it back.
    fn write(&self, record: &Self::Record<'_>, sink: &mut ColumnSink) -> Result<()>;
}

/// Assembles records of one kind from Parquet columns.
///
/// A record may borrow from the batch it is assembled from, for `'de`
/// ([`Record<'de>`](Self::Record)): a derived struct with `&str` fields
/// does. Converters whose records borrow nothing implement
/// [`RecordReadOwned`] too, which the iterators of records ask for.
pub trait RecordRead {
    /// The record type, borrowing from the batch for `'de` (or not at all).
    type Record<'de>;
    /// What reading needs, resolved once per file (see [`resolve`](Self::resolve)).
    type ReadPlan: Send + Sync + 'static;

    /// Resolves the converter against a file's schema: returns the plan and,
    /// in cursor order, the file columns to decode.
    fn resolve(&self, file: &SchemaDescriptor) -> Result<(Self::ReadPlan, Vec<usize>)>;

    /// Assembles one record.
    fn read<'de>(&self, plan: &Self::ReadPlan, source: &mut RecordSource<'de>) -> Result<Self::Record<'de>>;
}

/// A converter whose records borrow nothing: `Record<'de>` is [`Owned`](Self::Owned)
/// for every `'de`. Iterators of records (and threads, which assemble
/// records away from their batch) need it.
///
/// ```
/// use magnolify_parquet::{convert::RecordReadOwned, Derived, ParquetType};
///
/// #[derive(ParquetType)]
/// struct Point { x: i32 }
/// fn owned<C: RecordReadOwned>() {}
/// owned::<Derived<Point>>();
/// ```
pub trait RecordReadOwned: for<'de> RecordRead<Record<'de> = <Self as RecordReadOwned>::Owned> {
    /// The record type.
    type Owned;
}

/// A struct that can be a whole Parquet record: `#[derive(ParquetType)]`
/// implements it for structs with named fields.
pub trait ParquetRecord: ParquetSchema {
    /// The message name written in the schema.
    const MESSAGE: &'static str;

    /// The struct's own doc comment.
    const DOC: Option<&'static str> = None;

    /// The struct with its lifetime parameters set to `'a` (`Self` for a
    /// struct without any): what a writer of it accepts, so that each
    /// record may borrow for as long as its own `write` call.
    type Borrowed<'a>: ParquetWrite + ParquetSchema<ReadPlan = Self::ReadPlan>;

    /// The Parquet message of the type.
    ///
    /// ```
    /// # #[cfg(feature = "derive")] {
    /// use magnolify_parquet::{ParquetRecord, ParquetType, schema};
    ///
    /// #[derive(ParquetType)]
    /// struct Point { x: f64, y: f64 }
    ///
    /// let text = schema::to_text(&Point::message().unwrap());
    /// assert_eq!(text, "message Point {\n  REQUIRED DOUBLE x;\n  REQUIRED DOUBLE y;\n}\n");
    /// # }
    /// ```
    fn message() -> Result<TypePtr> {
        let node = Self::schema(Self::MESSAGE, parquet::basic::Repetition::REQUIRED, &FieldOptions::DEFAULT)?;
        crate::schema::message_from(Self::MESSAGE, node)
    }
}

/// A record type without borrowed fields: it writes as itself
/// (`Borrowed<'a>` is `Self`) and reads. Generic code over derived records
/// asks for this (every struct without lifetime parameters is one).
///
/// ```
/// use magnolify_parquet::{mem::MemPageStore, OwnedRecord, ParquetType, Result};
///
/// fn round_trip<T: OwnedRecord>(rows: &[T]) -> Result<Vec<T>> {
///     MemPageStore::write_all(rows)?.read::<T>()?.collect()
/// }
///
/// #[derive(ParquetType, Debug, PartialEq)]
/// struct Point { x: i32 }
/// assert_eq!(round_trip(&[Point { x: 1 }])?, [Point { x: 1 }]);
/// # Ok::<(), magnolify_parquet::Error>(())
/// ```
///
/// It is `Send + 'static` too, as a file reader needs of its records:
/// they may be assembled on threads of the reader's own.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a record that reads owned",
    label = "a record that borrows, or one that cannot be read",
    note = "a struct with `&str`, `&[u8]` or `Cow` fields borrows from the batch it is read from: read it with \
            `ReaderBuilder::build_borrowed` and `next_batch`, whose records live until the next batch; or make \
            its fields owned (`String`, `Vec<u8>`)"
)]
pub trait OwnedRecord: ParquetReadOwned + for<'a> ParquetRecord<Borrowed<'a> = Self> + Send + 'static {}

impl<T> OwnedRecord for T where T: ParquetReadOwned + for<'a> ParquetRecord<Borrowed<'a> = T> + Send + 'static {}

/// The converter of a derived type: zero-sized, everything is in the type.
pub struct Derived<T>(PhantomData<fn() -> PhantomData<T>>);

impl<T> Derived<T> {
    /// The converter of `T`.
    pub const fn new() -> Self {
        Derived(PhantomData)
    }
}

impl<T> Default for Derived<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T> Clone for Derived<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Derived<T> {}

impl<T> std::fmt::Debug for Derived<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Derived<{}>", std::any::type_name::<T>())
    }
}

/// Key of the footer entry that holds a derived type's doc comments.
pub const DOCS_KEY: &str = "magnolify.docs";

/// Prefix of the footer entries that hold the symbols of a derived type's
/// enums: `magnolify.enum.<field path>` (the path as in [`DOCS_KEY`]'s
/// entries: a list's or a map's values at its path, a map's keys under
/// `.key`), a JSON
/// array of the symbols in declaration order. A unit enum's column, or an
/// enum with data's `variant` tag (`<path>.variant`), is a STRING column: the
/// entry tells a reader (the CLI's `codegen`) that it holds an enum.
///
/// ```
/// use magnolify_parquet::{ParquetType, ParquetWriter, ENUMS_KEY};
///
/// #[derive(ParquetType)]
/// enum Status { Open, Shipped }
/// #[derive(ParquetType)]
/// struct Order { id: u64, status: Status }
///
/// let mut w = ParquetWriter::<Order, _>::new(Vec::new())?;
/// w.write(&Order { id: 1, status: Status::Open })?;
/// let metadata = w.close()?;
/// let entries = metadata.file_metadata().key_value_metadata().unwrap();
/// let status = entries.iter().find(|kv| kv.key == format!("{ENUMS_KEY}.status")).unwrap();
/// assert_eq!(status.value.as_deref(), Some(r#"["Open","Shipped"]"#));
/// # Ok::<(), magnolify_parquet::Error>(())
/// ```
pub const ENUMS_KEY: &str = "magnolify.enum";

impl<T: ParquetRecord> RecordSchema for Derived<T> {
    fn schema(&self) -> Result<TypePtr> {
        T::message()
    }

    fn bloom_filters(&self) -> Vec<(String, BloomFilterSpec)> {
        let mut out = Vec::new();
        T::bloom_filters("", &mut out);
        out
    }

    fn key_value_metadata(&self) -> Vec<KeyValue> {
        let mut docs: Vec<(String, String)> = T::DOC.map(|d| (String::new(), d.to_owned())).into_iter().collect();
        T::docs("", &mut docs);
        let mut enums = Vec::new();
        T::enums("", &mut enums);
        let docs = docs.into_iter().map(|(path, doc)| {
            let key = if path.is_empty() { DOCS_KEY.to_owned() } else { format!("{DOCS_KEY}.{path}") };
            KeyValue::new(key, doc)
        });
        let enums =
            enums.into_iter().map(|(path, symbols)| KeyValue::new(format!("{ENUMS_KEY}.{path}"), json_array(symbols)));
        docs.chain(enums).collect()
    }
}

/// `symbols` as a JSON array of strings.
fn json_array(symbols: &[&str]) -> String {
    let mut out = String::from("[");
    for (i, symbol) in symbols.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push('"');
        for c in symbol.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
                c => out.push(c),
            }
        }
        out.push('"');
    }
    out.push(']');
    out
}

impl<T: ParquetRecord> RecordWrite for Derived<T> {
    type Record<'a> = T::Borrowed<'a>;

    #[inline]
    fn write(&self, record: &T::Borrowed<'_>, sink: &mut ColumnSink) -> Result<()> {
        record.write(sink, WriteAt::ROOT, &FieldOptions::DEFAULT)
    }
}

/// Reads `T` at the batch's lifetime: a struct with lifetimes borrows from
/// the batch, one without reads owned.
impl<T: ParquetRecord> RecordRead for Derived<T>
where
    for<'de> T::Borrowed<'de>: ParquetRead<'de>,
{
    type Record<'de> = T::Borrowed<'de>;
    type ReadPlan = T::ReadPlan;

    fn resolve(&self, file: &SchemaDescriptor) -> Result<(T::ReadPlan, Vec<usize>)> {
        let mut resolver = Resolver::new(file);
        let plan = <T::Borrowed<'_> as ParquetRead<'_>>::resolve(
            &FileNode::root(file),
            &FieldOptions::DEFAULT,
            &mut resolver,
        )?;
        Ok((plan, resolver.into_columns()))
    }

    #[inline]
    fn read<'de>(&self, plan: &T::ReadPlan, source: &mut RecordSource<'de>) -> Result<T::Borrowed<'de>> {
        <T::Borrowed<'de> as ParquetRead<'de>>::read(plan, source)
    }
}

impl<T: OwnedRecord> RecordReadOwned for Derived<T> {
    type Owned = T;
}
