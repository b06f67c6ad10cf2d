//! Typed predicates: conditions on a derived type's fields, checked exactly
//! on each record and used to skip the row groups whose statistics show
//! that no record can match.
//!
//! `#[derive(ParquetType)]` gives every struct a `fields()` function whose
//! members are the handles of its fields, typed by the field's Rust type:
//! `Trip::fields().started.ge(t)` takes a `DateTime<Utc>` if `started` is
//! one, and only `Option` fields have `is_null`. Fields of nested structs
//! are reached through their parent (`Trip::fields().rider.name`); fields
//! inside lists and maps are not addressable (their handle is
//! [`NotAddressable`]), nor are fields read `with` a module.
//!
//! ```
//! use magnolify_parquet::{ParquetType, ParquetWriter, ReadOptions, ReaderBuilder, WriterBuilder};
//!
//! #[derive(ParquetType, Debug, PartialEq)]
//! struct Trip { id: u32, city: String, fare: Option<f64> }
//!
//! let trips: Vec<Trip> = (0..1000)
//!     .map(|id| Trip { id, city: ["Oslo", "Lima"][id as usize % 2].into(), fare: (id % 3 > 0).then(|| f64::from(id)) })
//!     .collect();
//! let mut w = WriterBuilder::<Trip>::new().max_row_group_rows(100).build(Vec::new())?;
//! w.write_all(&trips)?;
//! let file = bytes::Bytes::from(w.into_inner()?);
//!
//! let f = Trip::fields();
//! let wanted = f.id.between(250, 260).and(f.city.eq("Lima")).and(f.fare.is_not_null());
//! let mut reader = ReaderBuilder::new(file)?.build(ReadOptions::default().filter(wanted))?;
//! let ids: Vec<u32> = reader.by_ref().map(|t| t.map(|t| t.id)).collect::<Result<_, _>>()?;
//! assert_eq!(ids, [251, 253, 257, 259]);
//! // Only the row group of ids 200..300 was read.
//! let counts = reader.counts();
//! assert_eq!((counts.row_groups_read, counts.row_groups_skipped), (1, 9));
//! assert_eq!((counts.records_read, counts.records_passed), (100, 4));
//! # Ok::<(), magnolify_parquet::Error>(())
//! ```
//!
//! Row groups are skipped by their column chunks' statistics (min, max,
//! null count, NaN count) compared in each column's own order: integers by
//! value whether signed or unsigned, decimals unscaled at the column's
//! scale on any physical type, byte strings as unsigned bytes, timestamps
//! in the file's unit, floats without NaN bounds. Statistics that cannot be
//! trusted are ignored, and then the row group is read: no column order
//! where the order matters, the deprecated signed min/max of unsigned,
//! decimal and byte columns, byte-array bounds from parquet-mr before
//! 1.8.0, INT96, a column whose type does not match the field. Whatever is
//! skipped, the result is the records that pass the exact test, in file
//! order.

mod column_test;
mod fold;
mod handle;
mod key;
mod predicate;
mod prune;
mod row_ranges;

pub(crate) use column_test::{ColumnFilter, Records};
pub use fold::{LeafTest, PredicateFold};
pub use handle::{
    Addressable, At, Field, FieldHandle, HandleAs, NotAddressable, Nullability, Nullable, Required, WithoutParameters,
};
pub use key::{bytes_key, FilterValue, Key};
pub use predicate::{Comparison, FilterArg, Predicate, Text};
pub(crate) use prune::{
    constants_may_pass, page_selection, verdict, BloomFilters, Dictionaries, DictionaryPage, DictionaryValues,
    PageIndexes, Verdict,
};
pub(crate) use row_ranges::RowRanges;

/// What a reader did (every reader's `counts()`): row groups read and
/// skipped by their statistics or bloom filters, pages decoded and passed
/// over, chunk bytes, records assembled and records that passed the
/// predicate (all of them without one).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct FilterCounts {
    /// Row groups decoded.
    pub row_groups_read: usize,
    /// Row groups ruled out, by their statistics, bloom filters or
    /// dictionaries.
    pub row_groups_skipped: usize,
    /// Of those, the ones only bloom filters ruled out.
    pub row_groups_skipped_by_bloom_filters: usize,
    /// Of those, the ones only dictionaries ruled out: row groups where a
    /// column that an equality names is dictionary-encoded in every data
    /// page (the footer's page encoding statistics say so) and its
    /// dictionary lacks every value asked for.
    pub row_groups_skipped_by_dictionaries: usize,
    /// Data pages decoded, all columns together (so far).
    pub pages_read: u64,
    /// Data pages of the row groups read that the decoders passed without
    /// decompressing them, all columns together: pages outside the rows the
    /// page index leaves, before, between and after those rows (so far).
    /// Each data page of the projected columns in the row groups read is
    /// counted once, here or in `pages_read`, when the reader passes it.
    pub pages_skipped: u64,
    /// Records of the row groups read that were not assembled: outside the
    /// rows the page index leaves (so far).
    pub records_skipped: u64,
    /// Compressed bytes of the column chunks the reader reads: the
    /// projected columns of the row groups read.
    pub column_bytes_read: u64,
    /// Compressed bytes of the projected columns' chunks in the row groups
    /// skipped: what the predicate saved reading.
    pub column_bytes_skipped: u64,
    /// Records assembled from the row groups read (so far).
    pub records_read: u64,
    /// Records that passed the predicate (so far).
    pub records_passed: u64,
}

/// The counts of several readers added up (a dataset's files).
impl std::ops::AddAssign for FilterCounts {
    fn add_assign(&mut self, other: FilterCounts) {
        self.row_groups_read += other.row_groups_read;
        self.row_groups_skipped += other.row_groups_skipped;
        self.row_groups_skipped_by_bloom_filters += other.row_groups_skipped_by_bloom_filters;
        self.row_groups_skipped_by_dictionaries += other.row_groups_skipped_by_dictionaries;
        self.pages_read += other.pages_read;
        self.pages_skipped += other.pages_skipped;
        self.records_skipped += other.records_skipped;
        self.column_bytes_read += other.column_bytes_read;
        self.column_bytes_skipped += other.column_bytes_skipped;
        self.records_read += other.records_read;
        self.records_passed += other.records_passed;
    }
}
