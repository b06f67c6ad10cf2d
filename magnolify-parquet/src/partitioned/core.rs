//! The open file of each partition, and the partitions held for later.

use std::borrow::Borrow;
use std::collections::HashMap;
use std::hash::Hash;

use super::spill::{HeldRecords, Spill};
use super::PartitionLimits;
use crate::error::Result;
use crate::file::ParquetWriter;
use crate::record::{OwnedRecord, RecordWrite};

/// An open file as the core sees it: how much it holds.
pub trait PartitionFile {
    /// What has been written into it so far.
    fn written(&self) -> Written;
}

/// How much a file holds: what the core's roll test compares with the
/// limits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Written {
    /// Records written into it.
    pub rows: u64,
    /// Bytes it holds, counted as
    /// [`ParquetWriter::bytes_written`](crate::ParquetWriter::bytes_written)
    /// counts them.
    pub bytes: u64,
}

impl<T, W: std::io::Write + Send, C: RecordWrite> PartitionFile for ParquetWriter<T, W, C> {
    fn written(&self) -> Written {
        Written { rows: self.rows_written(), bytes: self.bytes_written() }
    }
}

#[cfg(feature = "object_store")]
impl<T, C: RecordWrite> PartitionFile for crate::store::StoreWriter<T, C> {
    fn written(&self) -> Written {
        Written { rows: self.rows_written(), bytes: self.bytes_written() }
    }
}

/// What the driver does with a record, as [`Partitions::route`] says.
#[derive(Debug)]
pub enum Routed<'a, F> {
    /// Write it into its partition's open file.
    Write(&'a mut F),
    /// Open a file for its partition, hand it to [`Partitions::opened`],
    /// and write the record into it.
    Open,
    /// Nothing: the core holds the record (its values) until
    /// [`held`](Partitions::held).
    Held,
}

/// The open files of a partitioned writer, keyed by partition `K` (a Hive
/// directory, an Iceberg partition tuple), and the records of partitions
/// held for later. See the [module](super) docs.
pub struct Partitions<K, F, T: OwnedRecord> {
    open: HashMap<K, F>,
    spill: Spill<K, T>,
    limits: PartitionLimits,
}

impl<K, F, T> Partitions<K, F, T>
where
    K: Hash + Eq + Clone,
    F: PartitionFile,
    T: OwnedRecord,
{
    /// No file open, nothing held.
    pub fn new(limits: &PartitionLimits) -> Result<Self> {
        let limits = PartitionLimits { max_open_files: limits.max_open_files.max(1), ..limits.clone() };
        Ok(Partitions { open: HashMap::new(), spill: Spill::new(&limits)?, limits })
    }

    /// What to do with `record` of partition `key`: write it into the open
    /// file, open one (while fewer than `max_open_files` are), or nothing
    /// (the core holds it: a partition held once is held to the end, so
    /// that it makes one file). Holding a record may spill held records to
    /// disk: an error then names the run's path. A record that cannot be
    /// held (a value its column cannot hold) is an error, and left out.
    pub fn route<Q>(&mut self, key: &Q, record: &T) -> Result<Routed<'_, F>>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ToOwned<Owned = K> + ?Sized,
    {
        if self.open.contains_key(key) {
            return Ok(Routed::Write(self.open.get_mut(key).expect("checked above")));
        }
        if self.spill.holds(key) || self.open.len() >= self.limits.max_open_files {
            self.spill.hold(key, record)?;
            return Ok(Routed::Held);
        }
        Ok(Routed::Open)
    }

    /// The records held, partition by partition in the order they were
    /// first held, each partition's in the order they came; the core holds
    /// nothing after. Write them once the open files are closed: routed
    /// again, each partition opens one file (more at the size limits).
    pub fn held(&mut self) -> Result<HeldRecords<K, T>> {
        self.spill.drain()
    }
}

impl<K: Hash + Eq, F: PartitionFile, T: OwnedRecord> Partitions<K, F, T> {
    /// Records `file`, opened as [`Routed::Open`] said, as the open file of
    /// `key`; returns it to write into.
    pub fn opened(&mut self, key: K, file: F) -> &mut F {
        self.open.entry(key).insert_entry(file).into_mut()
    }

    /// The open file of `key` taken out if it is full (at a limit of rows
    /// or bytes), for the driver to close; its partition goes on in a new
    /// file.
    pub fn take_full<Q>(&mut self, key: &Q) -> Option<F>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let file = self.open.get(key)?;
        match self.limits.full(file.written()) {
            true => self.open.remove(key),
            false => None,
        }
    }

    /// The open file of `key` taken out, to be closed.
    pub fn take<Q>(&mut self, key: &Q) -> Option<F>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.open.remove(key)
    }

    /// Every open file taken out, to be closed (or abandoned), in no
    /// particular order.
    pub fn close_all(&mut self) -> Vec<(K, F)> {
        self.open.drain().collect()
    }

    /// Files open now.
    pub fn open_files(&self) -> usize {
        self.open.len()
    }

    /// Bytes of held records in memory now (see
    /// [`PartitionLimits::spill_budget`]).
    pub fn held_bytes(&self) -> u64 {
        self.spill.bytes()
    }

    /// Runs spilled to disk so far.
    pub fn spilled_runs(&self) -> usize {
        self.spill.runs()
    }
}
