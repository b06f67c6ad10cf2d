//! The settings of an [`AvroConverter`](crate::AvroConverter): parquet-avro's
//! configuration keys that change the Parquet form, plus the few places where
//! this crate can do better, each behind its own switch.

pub use magnolify_parquet::ListLayout;

/// How Avro schemas map to Parquet, and how values are checked.
///
/// The defaults reproduce parquet-avro's defaults, except where noted on a
/// field. Build them with the `const` methods:
///
/// ```
/// use avro_baseline::{AvroOptions, ListLayout};
///
/// const OPTS: AvroOptions = AvroOptions::new().list_layout(ListLayout::ThreeLevel).parquet_uuid(true);
/// assert_eq!(OPTS.list_layout, ListLayout::ThreeLevel);
/// assert_eq!(AvroOptions::default().list_layout, ListLayout::TwoLevel);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AvroOptions {
    /// Layout of Avro arrays. [`ListLayout::TwoLevel`] (`repeated <T> array`)
    /// is parquet-avro's default (`parquet.avro.write-old-list-structure=true`)
    /// and cannot hold null elements; [`ListLayout::ThreeLevel`]
    /// (`repeated group list { element }`) is the format's standard form.
    /// [`ListLayout::Repeated`] (bare repeated fields) is accepted for arrays
    /// that are neither nullable nor nested in arrays.
    pub list_layout: ListLayout,
    /// Writes Avro `uuid` as `fixed_len_byte_array(16) (UUID)` instead of a
    /// STRING (`parquet.avro.write-parquet-uuid`, default false).
    pub parquet_uuid: bool,
    /// Annotates `timestamp-nanos` / `local-timestamp-nanos` as
    /// `TIMESTAMP(NANOS, true|false)`. parquet-avro leaves them plain `int64`;
    /// on by default here because the annotation costs nothing and every
    /// modern reader understands it.
    pub nanos_timestamps: bool,
    /// Annotates Avro `int` / `long` as `INTEGER(32,true)` / `INTEGER(64,true)`,
    /// as typed writers (magnolify, the derive) do. parquet-avro writes them
    /// unannotated (default false).
    pub integer_annotations: bool,
    /// Writes map entries sorted by key, so that equal maps give equal files.
    /// parquet-avro writes them in the map's iteration order, which for a
    /// `HashMap` changes from run to run (default false: sorting costs a
    /// vector per map per record).
    pub sort_map_keys: bool,
    /// Checks, for every record written, that each field of a `Value::Record`
    /// has the schema's name at its position. Fields are always taken by
    /// position and their count always checked; names are compared only with
    /// this switch, as parquet-avro never compares them (default false).
    pub check_field_names: bool,
    /// Reads INT96 columns as Avro `fixed(12)` named `INT96` when no Avro
    /// schema is stored in the file (`parquet.avro.readInt96AsFixed`,
    /// default false: such files are an error).
    pub read_int96_as_fixed: bool,
}

/// `const` builder methods that set the field of their name.
macro_rules! setters {
    ($($(#[$doc:meta])* $field:ident($arg:ident: $ty:ty);)*) => {$(
        $(#[$doc])*
        pub const fn $field(mut self, $arg: $ty) -> Self {
            self.$field = $arg;
            self
        }
    )*};
}

impl AvroOptions {
    /// The defaults: parquet-avro's.
    pub const fn new() -> Self {
        AvroOptions {
            list_layout: ListLayout::TwoLevel,
            parquet_uuid: false,
            nanos_timestamps: true,
            integer_annotations: false,
            sort_map_keys: false,
            check_field_names: false,
            read_int96_as_fixed: false,
        }
    }

    setters! {
        /// With list layout `layout`.
        list_layout(layout: ListLayout);
        /// With the UUID annotation on or off.
        parquet_uuid(on: bool);
        /// With nanosecond timestamps annotated or plain.
        nanos_timestamps(on: bool);
        /// With `INTEGER` annotations on `int` and `long`, or without.
        integer_annotations(on: bool);
        /// With map entries sorted by key, or in iteration order.
        sort_map_keys(on: bool);
        /// With record field names checked on every write, or not.
        check_field_names(on: bool);
        /// With INT96 columns read as `fixed(12)`, or rejected.
        read_int96_as_fixed(on: bool);
    }
}

impl Default for AvroOptions {
    fn default() -> Self {
        Self::new()
    }
}
