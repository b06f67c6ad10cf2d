//! Writing converters of your own: everything a record type that is not
//! derived needs, in one place. The Avro baseline (`avro_baseline`) is built
//! on this module alone.
//!
//! A converter implements [`RecordSchema`] and [`RecordWrite`] to write,
//! [`RecordRead`] to read (either alone is fine):
//!
//! - **writing** shreds a record into a [`ColumnSink`]: for each leaf column,
//!   triplets of (value or null, repetition level, definition level), with
//!   [`WriteAt`] tracking the levels as the Dremel paper's recursive striping
//!   does. A failed record is rolled back by the writer.
//! - **reading** resolves the converter against the file's schema once
//!   ([`FileNode`], [`Resolver`], [`list_shape`], [`map_shape`],
//!   [`Annotation`]) into a plan, then assembles each record from a
//!   [`RecordSource`]'s per-leaf cursors, with [`Presence`] for optional
//!   nodes, [`ListLevels`] for lists and maps and [`NullCheck`] for groups
//!   the type requires.
//!
//! The pipelines are [`RecordWriter`] over a [`ChunkSink`] and
//! [`RecordReader`] over a [`RowGroupSource`]; files and the in-memory store
//! are the sinks and sources the library has.
//!
//! ```
//! use magnolify_parquet::convert::*;
//! use magnolify_parquet::{mem::MemPageStore, schema, Result};
//! use parquet::basic::{Repetition, Type as Physical};
//! use parquet::schema::types::{SchemaDescriptor, TypePtr};
//!
//! /// Records of one optional INT64 column `v`, as `Option<i64>`.
//! struct Longs;
//!
//! impl RecordSchema for Longs {
//!     fn schema(&self) -> Result<TypePtr> {
//!         let v = schema::primitive("v", Repetition::OPTIONAL, Physical::INT64, None)?;
//!         schema::message_from("m", schema::group("m", Repetition::REQUIRED, None, vec![v])?)
//!     }
//! }
//!
//! impl RecordWrite for Longs {
//!     type Record<'a> = Option<i64>;
//!     fn write(&self, record: &Option<i64>, sink: &mut ColumnSink) -> Result<()> {
//!         match record {
//!             Some(v) => sink.push_i64(WriteAt::ROOT.defined(), *v),
//!             None => sink.push_null(WriteAt::ROOT),
//!         }
//!     }
//! }
//!
//! impl RecordRead for Longs {
//!     type Record<'de> = Option<i64>;
//!     type ReadPlan = usize;
//!     fn resolve(&self, file: &SchemaDescriptor) -> Result<(usize, Vec<usize>)> {
//!         let root = FileNode::root(file);
//!         let node = root.child("v").ok_or_else(|| root.error("no column `v`: add one, or read another file"))?;
//!         let mut resolver = Resolver::new(file);
//!         let (cursor, _) = resolver.leaf(&node)?;
//!         Ok((cursor, resolver.into_columns()))
//!     }
//!     fn read<'de>(&self, cursor: &usize, source: &mut RecordSource<'de>) -> Result<Option<i64>> {
//!         source.take_i64(*cursor)
//!     }
//! }
//!
//! // Its records borrow nothing: they can be iterated over.
//! impl RecordReadOwned for Longs {
//!     type Owned = Option<i64>;
//! }
//!
//! let mut writer = MemPageStore::writer(Longs)?;
//! writer.write(&Some(7))?;
//! writer.write(&None)?;
//! let store = writer.close()?;
//! let back: Vec<Option<i64>> = store.reader(Longs)?.collect::<Result<_>>()?;
//! assert_eq!(back, [Some(7), None]);
//! # Ok::<(), magnolify_parquet::Error>(())
//! ```

pub use crate::assemble::{
    list_shape, map_shape, FileNode, GroupStart, ListLevels, ListShape, MapShape, NullCheck, Presence, RecordSource,
    Resolver,
};
pub use crate::logical::{float16_to_f64, Annotation};
pub use crate::one_field::OneField;
pub use crate::read::{RecordReader, RowGroupSource};
pub use crate::record::{RecordRead, RecordReadOwned, RecordSchema, RecordWrite};
pub use crate::shred::{ColumnSink, LeafValues, WriteAt};
pub use crate::write::{ChunkSink, RecordWriter};

/// The byte form of decimals: big-endian two's complement, minimal or
/// sign-extended to a fixed length.
pub mod decimal_bytes {
    pub use crate::decimal_bytes::{fit, minimal};
}
