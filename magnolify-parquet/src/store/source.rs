//! What a store reader fetches from: an object read by byte ranges. An
//! object in an [`ObjectStore`] is one ([`StoreReaderBuilder::open`]); a
//! table format's own file IO (Iceberg's `FileIO`, in `magnolify-iceberg`)
//! is another ([`StoreReaderBuilder::open_source`]).
//!
//! [`StoreReaderBuilder::open`]: super::StoreReaderBuilder::open
//! [`StoreReaderBuilder::open_source`]: super::StoreReaderBuilder::open_source

use std::fmt;
use std::io;
use std::ops::Range;
use std::sync::{Arc, OnceLock};

use bytes::Bytes;
use futures_util::future::BoxFuture;
use object_store::path::Path as ObjectPath;
use object_store::{GetOptions, GetRange, ObjectStore};

/// An object read by byte ranges, as a store reader fetches it: first its
/// tail ([`suffix`](Self::suffix), where the footer is), then the ranges the
/// scan plans ([`get`](Self::get), several at once).
///
/// Every `get` must read the version of the object its `suffix` read, or
/// fail: records are never read from two versions of an object. (An object
/// store's object is pinned by its e_tag; a table's data files never
/// change.) The reader names the object (by [`name`](Self::name)) in the
/// errors these return, and checks that each returns every byte asked for.
///
/// ```
/// use std::ops::Range;
/// use bytes::Bytes;
/// use futures_util::future::BoxFuture;
/// use magnolify_parquet::store::RangedSource;
///
/// /// A file in memory, as a source.
/// #[derive(Debug)]
/// struct InMemory { name: String, bytes: Bytes }
///
/// impl RangedSource for InMemory {
///     fn name(&self) -> &str {
///         &self.name
///     }
///     fn suffix(&self, len: u64) -> BoxFuture<'_, std::io::Result<(u64, Bytes)>> {
///         let size = self.bytes.len() as u64;
///         let start = size.saturating_sub(len) as usize;
///         Box::pin(async move { Ok((size, self.bytes.slice(start..))) })
///     }
///     fn get(&self, range: Range<u64>) -> BoxFuture<'_, std::io::Result<Bytes>> {
///         let got = self.bytes.get(range.start as usize..range.end as usize).map(|b| Bytes::copy_from_slice(b));
///         Box::pin(async move { got.ok_or_else(|| std::io::Error::other("past the end")) })
///     }
/// }
/// ```
pub trait RangedSource: Send + Sync + fmt::Debug {
    /// The object's name, as errors give it.
    fn name(&self) -> &str;

    /// The object's size in bytes, and its last `len` bytes (all of it if
    /// it is smaller).
    fn suffix(&self, len: u64) -> BoxFuture<'_, io::Result<(u64, Bytes)>>;

    /// The bytes of `range`, from the version `suffix` read.
    fn get(&self, range: Range<u64>) -> BoxFuture<'_, io::Result<Bytes>>;
}

/// An object in an object store, pinned to the version its tail came from.
#[derive(Debug)]
pub(crate) struct StoreObject {
    store: Arc<dyn ObjectStore>,
    path: ObjectPath,
    pinned: OnceLock<Pinned>,
}

/// The version of an object its footer was read from.
#[derive(Debug)]
struct Pinned {
    e_tag: Option<String>,
    version: Option<String>,
}

impl StoreObject {
    pub(crate) fn new(store: Arc<dyn ObjectStore>, path: &ObjectPath) -> Self {
        StoreObject { store, path: path.clone(), pinned: OnceLock::new() }
    }
}

impl RangedSource for StoreObject {
    fn name(&self) -> &str {
        self.path.as_ref()
    }

    fn suffix(&self, len: u64) -> BoxFuture<'_, io::Result<(u64, Bytes)>> {
        Box::pin(async move {
            let options = GetOptions::new().with_range(Some(GetRange::Suffix(len)));
            let got = self.store.get_opts(&self.path, options).await.map_err(io::Error::other)?;
            let _ = self.pinned.set(Pinned { e_tag: got.meta.e_tag.clone(), version: got.meta.version.clone() });
            let size = got.meta.size;
            Ok((size, got.bytes().await.map_err(io::Error::other)?))
        })
    }

    fn get(&self, range: Range<u64>) -> BoxFuture<'_, io::Result<Bytes>> {
        Box::pin(async move {
            let pinned = self.pinned.get();
            let options = GetOptions {
                if_match: pinned.and_then(|p| p.e_tag.clone()),
                version: pinned.and_then(|p| p.version.clone()),
                range: Some(GetRange::Bounded(range)),
                ..GetOptions::default()
            };
            let got = self.store.get_opts(&self.path, options).await.map_err(|e| match e {
                object_store::Error::Precondition { .. } => io::Error::other(
                    "the object changed after its footer was read (its e_tag is no longer the footer's): open it \
                     again to read the new version",
                ),
                other => io::Error::other(other),
            })?;
            got.bytes().await.map_err(io::Error::other)
        })
    }
}
