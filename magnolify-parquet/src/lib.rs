//! Typed Parquet for Rust.
//!
//! `#[derive(ParquetType)]` on a struct generates, at compile time, the code
//! that shreds its values into Parquet columns (with definition and
//! repetition levels) and assembles them back. The same record traits
//! ([`RecordWrite`], [`RecordRead`]) carry derived types and dynamic records
//! (see the `avro-baseline` crate) through one write pipeline and one read
//! pipeline, into and out of an in-memory page store ([`mem::MemPageStore`])
//! or files ([`ParquetWriter`], [`ParquetReader`]).
//!
//! ```
//! use magnolify_parquet::{ParquetReader, ParquetType, ParquetWriter};
//! use std::collections::BTreeMap;
//!
//! #[derive(ParquetType, Debug, PartialEq)]
//! struct Order {
//!     id: u64,
//!     customer: Option<String>,
//!     lines: Vec<Line>,
//!     attributes: BTreeMap<String, i32>,
//! }
//!
//! #[derive(ParquetType, Debug, PartialEq)]
//! struct Line { sku: String, quantity: u16 }
//!
//! let order = Order {
//!     id: 1,
//!     customer: None,
//!     lines: vec![Line { sku: "A-1".into(), quantity: 2 }],
//!     attributes: BTreeMap::from([("priority".into(), 3)]),
//! };
//! let mut writer = ParquetWriter::<Order, _>::new(Vec::new())?;
//! writer.write(&order)?;
//! let file = bytes::Bytes::from(writer.into_inner()?);
//!
//! let orders = ParquetReader::<Order, _>::new(file)?.collect::<Result<Vec<_>, _>>()?;
//! assert_eq!(orders, [order]);
//! # Ok::<(), magnolify_parquet::Error>(())
//! ```
//!
//! # Where to go next
//!
//! - the attributes of `#[derive(ParquetType)]`: the table in the docs of
//!   [`ParquetType`](derive@ParquetType);
//! - writer settings: [`WriterBuilder`]; reader settings, row-group
//!   selection and shared plans: [`ReaderBuilder`];
//! - errors and what they tell: [`Error`];
//! - converters of your own (the Avro baseline is one): [`convert`].
#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

// The derive's absolute paths, for this crate's own tests.
#[cfg(test)]
extern crate self as magnolify_parquet;

mod assemble;
mod codec;
pub mod convert;
pub mod dataset;
mod decimal_bytes;
mod derive_support;
pub mod engines;
mod error;
mod field;
pub mod file;
pub mod filter;
mod guard;
mod logical;
pub mod mem;
mod one_field;
mod options;
pub mod partitioned;
mod read;
mod record;
pub mod schema;
mod shred;
#[cfg(feature = "object_store")]
#[cfg_attr(docsrs, doc(cfg(feature = "object_store")))]
pub mod store;
mod types;
mod values;
mod write;

pub use error::{Error, Location, Result};
pub use field::{Accepts, ParquetRead, ParquetReadOwned, ParquetSchema, ParquetWrite};
pub use file::{AtomicFile, CheckedMetadata, ParquetReader, ParquetWriter, ReaderBuilder, WriterBuilder};
pub use options::{BloomFilterSpec, DecimalPhysical, DecimalSpec, FieldOptions, ListLayout, TimeUnit};
pub use read::{ReadOptions, Resolved};
pub use record::{Derived, OwnedRecord, ParquetRecord, RecordRead, RecordSchema, RecordWrite, DOCS_KEY, ENUMS_KEY};
pub use types::ListElement;
#[cfg(feature = "variant")]
#[cfg_attr(docsrs, doc(cfg(feature = "variant")))]
pub use types::VariantValue;

/// Re-export of the `parquet` crate this library is built on, so users name
/// the same version (compression codecs, writer properties, metadata).
pub use parquet;

#[cfg(feature = "derive")]
pub use magnolify_parquet_derive::ParquetType;

/// Page decoding on its own, for the differential test, the fuzz target and
/// the benches' floor; not a public API.
#[doc(hidden)]
pub mod __decode {
    pub use crate::codec::inspect::{decode_chunk, decode_chunk_with_crate, DecodedChunk};
    pub use crate::codec::page_queue::PageQueue;
}

/// What generated code names; not a public API.
#[doc(hidden)]
pub mod __private {
    pub use crate::assemble::{FileNode, RecordSource, Resolver};
    pub use crate::derive_support::*;
    pub use crate::error::{Error, Result};
    pub use crate::field::{Accepts, ParquetRead, ParquetReadOwned, ParquetSchema, ParquetWrite};
    pub use crate::filter::{
        bytes_key, At, Field, FieldHandle, FilterArg, FilterValue, HandleAs, Key, NotAddressable, Nullable, Required,
        WithoutParameters,
    };
    pub use crate::options::{BloomFilterSpec, DecimalPhysical, FieldOptions, ListLayout, TimeUnit};
    pub use crate::record::ParquetRecord;
    pub use crate::schema::{group, message_from, with_id};
    pub use crate::shred::{ColumnSink, WriteAt};
    pub use crate::types::LeafPlan;
    pub use crate::types::{
        enum_read, enum_resolve, enum_schema, EnumPlan, ListElement, Slot, StructPlan, VariantSymbols, VariantTag,
    };
    pub use core::marker::PhantomData;
    pub use core::option::Option::{self, None, Some};
    pub use core::result::Result::{Err, Ok};
    pub use parquet::basic::Repetition;
    pub use parquet::schema::types::ColumnDescriptor;
    pub use parquet::schema::types::Type;
    pub use std::boxed::Box;
    pub use std::default::Default;
    pub use std::format;
    pub use std::string::String;
    pub use std::vec::Vec;
}
