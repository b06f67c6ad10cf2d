//! Records of partitions without an open file, held shredded (their
//! values and levels, as a writer buffers them) by partition, up to a
//! budget; past it, written to a run on a local disk, partition after
//! partition; read back partition by partition at the end, each run once,
//! front to back. Holding a record copies nothing but its values, so the
//! record type need not be `Clone`, and the budget counts what is held.

use std::borrow::Borrow;
use std::collections::{HashMap, VecDeque};
use std::fs::File;
use std::hash::Hash;
use std::io::BufWriter;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use bytes::Bytes;
use parquet::basic::Compression;
use parquet::schema::types::SchemaDescriptor;

use super::PartitionLimits;
use crate::error::{Error, Result};
use crate::file::{ParquetReader, ParquetWriter, WriterBuilder};
use crate::record::{Derived, OwnedRecord, RecordSchema, RecordWrite};
use crate::shred::ColumnSink;

/// Held values and levels of one partition in one buffer, and the row
/// groups of a run: what reading a run back holds in memory at a time.
const CHUNK_BYTES: usize = 1 << 20;

/// Runs made by this process, for unique names.
static RUNS: AtomicU64 = AtomicU64::new(0);

/// The held records of one partition in memory: full chunks, and the one
/// being filled.
struct Held {
    full: Vec<ColumnSink>,
    filling: ColumnSink,
    /// `filling`'s allocated bytes, as last counted (so that a record
    /// measures the buffers once, after it is shredded).
    counted: usize,
}

impl Held {
    fn records(&self) -> u64 {
        self.full.iter().chain([&self.filling]).map(|s| s.records() as u64).sum()
    }
}

/// The held records of a partitioned writer.
pub(super) struct Spill<K, T: OwnedRecord> {
    /// Each held partition, by its index (the order it was first held).
    keys: Vec<K>,
    index: HashMap<K, usize>,
    /// The records in memory, by partition index.
    memory: Vec<Held>,
    /// The bytes allocated for them.
    bytes: u64,
    budget: u64,
    dir: PathBuf,
    runs: Vec<Run<T>>,
    spilled: usize,
    schema: SchemaDescriptor,
}

/// Where a run's records are.
enum Stored<T: OwnedRecord> {
    /// On disk, not yet read.
    File(PathBuf),
    /// Being read: from a file (removed when the run drops) or memory.
    Reading(Option<PathBuf>, ParquetReader<T, File>),
    InMemory(ParquetReader<T, Bytes>),
}

/// A run: its records, partition after partition by index.
struct Run<T: OwnedRecord> {
    stored: Stored<T>,
    /// (partition index, records not yet read), in index order.
    segments: VecDeque<(usize, u64)>,
}

impl<T: OwnedRecord> Run<T> {
    fn path(&self) -> Option<&PathBuf> {
        match &self.stored {
            Stored::File(path) | Stored::Reading(Some(path), _) => Some(path),
            _ => None,
        }
    }

    /// The next record, read from the front.
    fn next(&mut self) -> Result<T> {
        let next = match &mut self.stored {
            Stored::Reading(_, reader) => reader.next(),
            Stored::InMemory(reader) => reader.next(),
            Stored::File(_) => None,
        };
        next.unwrap_or_else(|| {
            let name = self.path().map_or_else(|| "in memory".to_owned(), |p| format!("`{}`", p.display()));
            Err(Error::argument(format!("the spilled run {name} ended early: was it changed while the writer ran?")))
        })
    }
}

impl<T: OwnedRecord> Drop for Run<T> {
    /// A run is scratch: removed once read, or with its writer.
    fn drop(&mut self) {
        if let Some(path) = self.path() {
            let _ = std::fs::remove_file(path);
        }
    }
}

impl<K, T: OwnedRecord> Spill<K, T> {
    pub(super) fn bytes(&self) -> u64 {
        self.bytes
    }

    pub(super) fn runs(&self) -> usize {
        self.spilled
    }
}

impl<K: Hash + Eq + Clone, T: OwnedRecord> Spill<K, T> {
    pub(super) fn new(limits: &PartitionLimits) -> Result<Self> {
        Ok(Spill {
            keys: Vec::new(),
            index: HashMap::new(),
            memory: Vec::new(),
            bytes: 0,
            budget: limits.spill_budget,
            dir: limits.spill_dir.clone(),
            runs: Vec::new(),
            spilled: 0,
            schema: SchemaDescriptor::new(Derived::<T>::new().schema()?),
        })
    }

    pub(super) fn holds<Q>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.index.contains_key(key)
    }

    /// Holds `record` of partition `key`, shredded; spills past the budget.
    /// A record that cannot be shredded (a value its column cannot hold) is
    /// an error, and left out.
    pub(super) fn hold<Q>(&mut self, key: &Q, record: &T) -> Result<()>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ToOwned<Owned = K> + ?Sized,
    {
        let i = match self.index.get(key) {
            Some(&i) => i,
            None => {
                let key = key.to_owned();
                self.index.insert(key.clone(), self.keys.len());
                self.keys.push(key);
                self.memory.push(Held { full: Vec::new(), filling: ColumnSink::new(&self.schema), counted: 0 });
                self.keys.len() - 1
            }
        };
        let held = &mut self.memory[i];
        let converter = Derived::<T>::new();
        held.filling.record(|sink| converter.write(record, sink))?;
        // What the buffers have grown by (a record that fits in the room
        // they have costs nothing more; one that makes them grow, the room).
        let after = held.filling.allocated_bytes();
        self.bytes += after.saturating_sub(held.counted) as u64;
        held.counted = after;
        if held.filling.raw_bytes() >= CHUNK_BYTES {
            let full = std::mem::replace(&mut held.filling, ColumnSink::new(&self.schema));
            held.full.push(full);
            held.counted = 0;
        }
        if self.bytes > self.budget {
            self.spill()?;
        }
        Ok(())
    }

    /// Writes the records in memory to a new run on disk.
    fn spill(&mut self) -> Result<()> {
        let n = RUNS.fetch_add(1, Ordering::Relaxed);
        let path = self.dir.join(format!("magnolify-spill-{}-{n:06}.parquet", std::process::id()));
        let at = |e: Error| e.in_file(&Some(Arc::from(path.as_path())));
        // Made before it is written: a run cut short by an error is removed.
        let mut run = Run { stored: Stored::File(path.clone()), segments: VecDeque::new() };
        std::fs::create_dir_all(&self.dir).map_err(|e| at(e.into()))?;
        let file = File::create(&path).map_err(|e| at(e.into()))?;
        let mut writer = run_writer(BufWriter::new(file)).map_err(at)?;
        self.write_memory(&mut writer, &mut run).map_err(at)?;
        writer.close().map_err(at)?;
        self.spilled += 1;
        self.runs.push(run);
        Ok(())
    }

    /// Writes the records in memory into `writer`, partition after
    /// partition, noting each partition's segment in `run`.
    fn write_memory<W: std::io::Write + Send>(
        &mut self,
        writer: &mut ParquetWriter<T, W>,
        run: &mut Run<T>,
    ) -> Result<()> {
        for (i, held) in self.memory.iter_mut().enumerate() {
            let records = held.records();
            if records == 0 {
                continue;
            }
            for chunk in held.full.iter_mut().chain([&mut held.filling]) {
                writer.write_shredded(chunk)?;
            }
            // A partition's segment ends its row group: reading it back
            // decodes no other partition's records.
            writer.flush()?;
            // Freed: what is held from now on is counted from nothing.
            held.full.clear();
            held.filling = ColumnSink::new(&self.schema);
            held.counted = 0;
            run.segments.push_back((i, records));
        }
        self.bytes = 0;
        Ok(())
    }

    /// Everything held, to be read back partition by partition (the
    /// records still in memory encoded once more, as a last run in
    /// memory); nothing is held after.
    pub(super) fn drain(&mut self) -> Result<HeldRecords<K, T>> {
        let mut runs = Vec::with_capacity(self.runs.len() + 1);
        for mut run in self.runs.drain(..) {
            if let Stored::File(path) = &run.stored {
                let reader = ParquetReader::<T, File>::open(path)?;
                run.stored = Stored::Reading(Some(path.clone()), reader);
            }
            runs.push(run);
        }
        if self.memory.iter().any(|held| held.records() > 0) {
            let mut writer = run_writer(Vec::new())?;
            let mut run = Run { stored: Stored::File(PathBuf::new()), segments: VecDeque::new() };
            self.write_memory(&mut writer, &mut run)?;
            let bytes = Bytes::from(writer.into_inner()?);
            // No path: nothing to remove when it drops.
            run.stored = Stored::InMemory(ParquetReader::<T, Bytes>::new(bytes)?);
            runs.push(run);
        }
        self.index.clear();
        self.memory.clear();
        self.bytes = 0;
        Ok(HeldRecords { keys: std::mem::take(&mut self.keys).into_iter().enumerate().collect(), runs })
    }
}

/// The writer of a run: LZ4 (fast, as Spark's spills), row groups of
/// about one chunk.
fn run_writer<T: OwnedRecord, W: std::io::Write + Send>(sink: W) -> Result<ParquetWriter<T, W>> {
    let builder = WriterBuilder::<T>::new().compression(Compression::LZ4_RAW).max_row_group_bytes(CHUNK_BYTES);
    Ok(builder.build(sink)?.quiet_on_drop())
}

/// The held records of a partitioned writer, partition by partition; made
/// by [`Partitions::held`](super::Partitions::held). Reading a partition's
/// records reads the runs spilled to disk, each a row group (that
/// partition's, at most about 1 MiB) at a time, then the records that were
/// still in memory.
pub struct HeldRecords<K, T: OwnedRecord> {
    keys: VecDeque<(usize, K)>,
    runs: Vec<Run<T>>,
}

impl<K, T: OwnedRecord> HeldRecords<K, T> {
    /// The next partition and its records (a lending iterator: the records
    /// of one partition are read before the next is asked for; records
    /// left unread are passed over).
    #[allow(clippy::should_implement_trait)]
    pub fn next_partition(&mut self) -> Option<(K, HeldPartition<'_, T>)> {
        let (index, key) = self.keys.pop_front()?;
        Some((key, HeldPartition { index, runs: &mut self.runs, run: 0 }))
    }

    /// Partitions not yet read.
    pub fn partitions_left(&self) -> usize {
        self.keys.len()
    }
}

/// The held records of one partition, in the order they came: an
/// iterator of `Result<T>` (reading a run may fail; the error names it).
pub struct HeldPartition<'a, T: OwnedRecord> {
    index: usize,
    runs: &'a mut [Run<T>],
    /// The run being read.
    run: usize,
}

impl<T: OwnedRecord> Iterator for HeldPartition<'_, T> {
    type Item = Result<T>;

    fn next(&mut self) -> Option<Result<T>> {
        while let Some(run) = self.runs.get_mut(self.run) {
            // Segments of earlier partitions left unread are passed over.
            while let Some(&(i, left)) = run.segments.front() {
                if i > self.index {
                    break;
                }
                if left == 0 {
                    run.segments.pop_front();
                    continue;
                }
                run.segments[0].1 -= 1;
                let record = run.next();
                if i == self.index || record.is_err() {
                    return Some(record);
                }
            }
            self.run += 1;
        }
        None
    }
}

#[cfg(all(test, feature = "derive"))]
mod tests {
    use super::*;
    use crate::ParquetType;

    #[derive(ParquetType, Debug, PartialEq)]
    struct Row {
        n: u32,
        text: String,
    }

    fn row(n: u32) -> Row {
        Row { n, text: format!("row {n}") }
    }

    /// Rows 0..60 held by partition `n % 3`, spilled every few rows into
    /// `dir`: partition 0 read half, then partition 2 (1 skipped whole).
    #[test]
    fn held_records_come_back_by_partition_in_order_across_runs_and_memory() {
        let dir = tempfile::tempdir().unwrap();
        let limits = PartitionLimits::default().spill_budget(200).spill_dir(dir.path());
        let mut spill = Spill::<u32, Row>::new(&limits).unwrap();
        for n in 0..60 {
            spill.hold(&(n % 3), &row(n)).unwrap();
        }
        let runs = spill.runs();
        assert!(runs >= 3, "{runs} runs");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), runs);
        assert!(spill.bytes() > 0, "the last records are still in memory");
        let mut held = spill.drain().unwrap();
        let (key, records) = held.next_partition().unwrap();
        let first: Vec<u32> = records.take(10).map(|r| r.unwrap().n).collect();
        assert_eq!((key, first), (0, (0..30).step_by(3).collect::<Vec<_>>()));
        let _skipped = held.next_partition().unwrap();
        let (key, records) = held.next_partition().unwrap();
        let last: Vec<Row> = records.map(Result::unwrap).collect();
        assert_eq!((key, last), (2, (2..60).step_by(3).map(row).collect::<Vec<_>>()));
        assert!(held.next_partition().is_none());
        drop(held);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "the runs are removed");
    }
}
