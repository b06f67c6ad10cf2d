//! The bookkeeping of a dataset writer, without I/O but the spill: the
//! partitioned writers' core (open files, held records, the roll test)
//! with the dataset's file names, summary and broken-writer latch. It
//! says what to do (open a file, close one); the sync driver (`writer.rs`)
//! and the async one (`store_writer.rs`) do it.

use std::hash::{BuildHasher, Hash, Hasher};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crate::error::Result;
use crate::partitioned::{HeldRecords, PartitionFile, PartitionLimits, Partitions, Routed, Written};
use crate::record::OwnedRecord;
use crate::write::Latch;

/// What [`DatasetWriter::close`](super::DatasetWriter::close) (and the
/// store's) wrote.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DatasetSummary {
    /// The files written, relative to the root, sorted.
    pub files: Vec<PathBuf>,
    /// Records written.
    pub rows: u64,
    /// Runs of held records spilled to disk (see
    /// [`DatasetWriterBuilder::spill_budget`](super::DatasetWriterBuilder::spill_budget)).
    pub spilled_runs: usize,
}

/// File names: `part-<sequence>-<writer id>.parquet`, the sequence shared
/// by the threads of one writer.
#[derive(Clone, Debug)]
pub(super) struct Names {
    writer_id: Arc<str>,
    sequence: Arc<AtomicU64>,
}

impl Names {
    /// The names of a writer with `writer_id` (default: random).
    pub(super) fn new(writer_id: Option<String>) -> Self {
        let id = writer_id.unwrap_or_else(random_id);
        Names { writer_id: Arc::from(id), sequence: Arc::default() }
    }

    /// The writer's part of every name.
    pub(super) fn writer_id(&self) -> &str {
        &self.writer_id
    }

    fn next(&self, key: &str) -> NewFile {
        let seq = self.sequence.fetch_add(1, Ordering::Relaxed);
        let name = format!("part-{seq:05}-{}.parquet", self.writer_id);
        NewFile { key: key.to_owned(), relative: PathBuf::from(key).join(&name), name }
    }
}

/// A file to open, for the partition directory `key`.
#[derive(Debug)]
pub(super) struct NewFile {
    /// The partition directory, relative to the root (empty without partitions).
    pub(super) key: String,
    /// The file's name in it.
    pub(super) name: String,
    /// Its path relative to the root.
    pub(super) relative: PathBuf,
}

impl NewFile {
    /// The path relative to the root with `/` between segments (an
    /// object's key under the prefix).
    #[cfg(any(test, feature = "object_store"))]
    pub(super) fn key_path(&self) -> String {
        match self.key.is_empty() {
            true => self.name.clone(),
            false => format!("{}/{}", self.key, self.name),
        }
    }
}

/// A file taken out of the open ones, for the driver to close.
pub(super) struct Closing<F> {
    pub(super) relative: PathBuf,
    pub(super) rows: u64,
    pub(super) file: F,
}

/// What the driver does for a record of a partition.
pub(super) enum Action<'a, F> {
    /// Write into the partition's open file.
    Write(&'a mut F),
    /// Open `file` and hand it to [`Core::opened`].
    Open(NewFile),
    /// Nothing: the core holds the record until [`Core::held`].
    Held,
}

/// An open file and its path relative to the root.
pub(super) struct Open<F> {
    relative: PathBuf,
    file: F,
}

impl<F: PartitionFile> PartitionFile for Open<F> {
    fn written(&self) -> Written {
        self.file.written()
    }
}

impl<F: PartitionFile> From<Open<F>> for Closing<F> {
    fn from(open: Open<F>) -> Self {
        Closing { relative: open.relative, rows: open.file.written().rows, file: open.file }
    }
}

/// The open files of some partitions (those of one thread, or all), the
/// records held for later, and what has been closed: the partitioned
/// writers' core with the dataset's names, summary and latch.
pub(super) struct Core<T: OwnedRecord, F> {
    partitions: Partitions<String, Open<F>, T>,
    names: Names,
    summary: DatasetSummary,
    /// Broken by an error after which records already accepted may be
    /// lost: nothing more is written and there is no `_SUCCESS`.
    pub(super) latch: Latch,
}

impl<T: OwnedRecord, F: PartitionFile> Core<T, F> {
    pub(super) fn new(limits: &PartitionLimits, names: Names) -> Result<Self> {
        let partitions = Partitions::new(limits)?;
        Ok(Core { partitions, names, summary: DatasetSummary::default(), latch: Latch::default() })
    }

    /// What to do for `record` of directory `key`.
    pub(super) fn route(&mut self, key: &str, record: &T) -> Result<Action<'_, F>> {
        self.latch.check()?;
        Ok(match self.partitions.route(key, record)? {
            Routed::Write(open) => Action::Write(&mut open.file),
            Routed::Open => Action::Open(self.names.next(key)),
            Routed::Held => Action::Held,
        })
    }

    /// Records `file`, opened as [`Action::Open`] said, as the file of its
    /// partition; returns it to write into.
    pub(super) fn opened(&mut self, new: NewFile, file: F) -> &mut F {
        &mut self.partitions.opened(new.key, Open { relative: new.relative, file }).file
    }

    /// The open file of `key`, taken out to be closed if it is full.
    pub(super) fn take_full(&mut self, key: &str) -> Option<Closing<F>> {
        self.partitions.take_full(key).map(Closing::from)
    }

    /// The open file of `key`, taken out to be closed.
    pub(super) fn take(&mut self, key: &str) -> Option<Closing<F>> {
        self.partitions.take(key).map(Closing::from)
    }

    /// Counts a file the driver closed.
    pub(super) fn closed(&mut self, relative: PathBuf, rows: u64) {
        self.summary.files.push(relative);
        self.summary.rows += rows;
    }

    /// Every open file, by path, to be closed (an error if the writer is
    /// broken). The held records come next ([`held`](Self::held)).
    pub(super) fn close_all(&mut self) -> Result<Vec<Closing<F>>> {
        self.latch.check()?;
        let mut closing: Vec<Closing<F>> = self.partitions.close_all().into_iter().map(|(_, f)| f.into()).collect();
        closing.sort_by(|a, b| a.relative.cmp(&b.relative));
        Ok(closing)
    }

    /// The records held, to be written partition by partition once the
    /// open files are closed.
    pub(super) fn held(&mut self) -> Result<HeldRecords<String, T>> {
        self.latch.check()?;
        let held = self.partitions.held();
        self.latch.guard(held)
    }

    /// Every open file, taken out to be abandoned (the writer broke).
    #[cfg(feature = "object_store")]
    pub(super) fn abandon_all(&mut self) -> Vec<F> {
        self.partitions.close_all().into_iter().map(|(_, open)| open.file).collect()
    }

    /// What was closed so far, files sorted; the count starts again.
    pub(super) fn summary(&mut self) -> DatasetSummary {
        let mut summary = std::mem::take(&mut self.summary);
        summary.files.sort();
        summary.spilled_runs = self.partitions.spilled_runs();
        summary
    }
}

/// 16 hex digits that differ between writers and processes: the process,
/// the time and a per-process random seed, hashed.
fn random_id() -> String {
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    std::process::id().hash(&mut hasher);
    std::time::SystemTime::now().hash(&mut hasher);
    format!("{:016x}", hasher.finish())
}

#[cfg(all(test, feature = "derive"))]
mod tests {
    use super::*;
    use crate::ParquetType;

    #[derive(ParquetType, Debug, PartialEq)]
    struct Row {
        n: u32,
    }

    struct Fake(u64);

    impl PartitionFile for Fake {
        fn written(&self) -> Written {
            Written { rows: self.0, bytes: self.0 * 10 }
        }
    }

    fn core(max_open_files: usize) -> Core<Row, Fake> {
        let limits = PartitionLimits::default().max_rows_per_file(2).max_open_files(max_open_files);
        Core::new(&limits, Names::new(Some("w".into()))).unwrap()
    }

    /// Writes record `n` into the file of `key` as a driver does; the
    /// names of the files it opened and closed (`None`, `[]` for a record
    /// held).
    fn write(core: &mut Core<Row, Fake>, key: &str, n: u32) -> (Option<String>, Vec<String>) {
        let mut closed = Vec::new();
        let mut opened = None;
        let file = match core.route(key, &Row { n }).unwrap() {
            Action::Write(file) => file,
            Action::Open(file) => {
                opened = Some(file.key_path());
                core.opened(file, Fake(0))
            }
            Action::Held => return (None, closed),
        };
        file.0 += 1;
        if let Some(c) = core.take_full(key) {
            closed.push(c.relative.display().to_string());
            core.closed(c.relative, c.rows);
        }
        (opened, closed)
    }

    #[test]
    fn files_roll_at_the_row_limit_and_partitions_past_the_bound_are_held() {
        let mut c = core(2);
        assert_eq!(write(&mut c, "a=1", 1), (Some("a=1/part-00000-w.parquet".into()), vec![]));
        assert_eq!(write(&mut c, "a=2", 2), (Some("a=2/part-00001-w.parquet".into()), vec![]));
        // a=1 reaches 2 rows: rolled.
        assert_eq!(write(&mut c, "a=1", 3), (None, vec!["a=1/part-00000-w.parquet".into()]));
        assert_eq!(write(&mut c, "a=3", 4), (Some("a=3/part-00002-w.parquet".into()), vec![]));
        // Two open (a=2, a=3): a=4 is held, and so is a=1 (no room), to the end.
        assert_eq!(write(&mut c, "a=4", 5), (None, vec![]));
        assert_eq!(write(&mut c, "a=1", 6), (None, vec![]));
        assert_eq!(write(&mut c, "a=4", 7), (None, vec![]));
        let rest: Vec<String> = c.close_all().unwrap().into_iter().map(|c| c.relative.display().to_string()).collect();
        assert_eq!(rest, ["a=2/part-00001-w.parquet", "a=3/part-00002-w.parquet"]);
        let mut held = c.held().unwrap();
        let mut partitions = Vec::new();
        while let Some((key, records)) = held.next_partition() {
            let rows: Vec<u32> = records.map(|r| r.unwrap().n).collect();
            partitions.push((key, rows));
        }
        assert_eq!(partitions, [("a=4".to_owned(), vec![5, 7]), ("a=1".to_owned(), vec![6])]);
        // Written after: each held partition opens a file of its own.
        assert_eq!(write(&mut c, "a=4", 5), (Some("a=4/part-00003-w.parquet".into()), vec![]));
        let summary = c.summary();
        assert_eq!((summary.files.len(), summary.rows), (1, 2));
    }

    #[test]
    fn a_broken_core_routes_nothing() {
        let mut c = core(2);
        c.latch.set(&crate::Error::argument("disk full"));
        assert!(matches!(c.route("a=1", &Row { n: 1 }), Err(crate::Error::WriterState { source: Some(_) })));
        assert!(c.close_all().is_err());
        assert!(c.held().is_err());
    }

    #[test]
    fn without_partitions_the_name_is_the_path() {
        let mut c = core(1);
        let Ok(Action::Open(file)) = c.route("", &Row { n: 1 }) else { panic!("a new file") };
        assert_eq!(
            (file.key_path(), file.relative),
            ("part-00000-w.parquet".to_owned(), PathBuf::from("part-00000-w.parquet"))
        );
    }
}
