//! The bookkeeping of a dataset writer, without I/O: the open file of
//! each partition, the write clock, eviction of the file written least
//! recently, the roll test, file names, the summary and the broken-writer
//! latch. It says what to do (open a file, close one); the sync driver
//! (`writer.rs`) and the async one (`store_writer.rs`) do it.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hash, Hasher};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crate::error::Result;
use crate::write::Latch;

/// What [`DatasetWriter::close`](super::DatasetWriter::close) (and the
/// store's) wrote.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DatasetSummary {
    /// The files written, relative to the root, sorted.
    pub files: Vec<PathBuf>,
    /// Records written.
    pub rows: u64,
}

/// An open file as the bookkeeping sees it: how much it holds.
pub(super) trait Written {
    /// Records written into it.
    fn rows(&self) -> u64;
    /// Bytes it holds so far.
    fn bytes(&self) -> u64;
}

/// When a file is full, and how many may be open.
#[derive(Clone, Copy, Debug)]
pub(super) struct Limits {
    pub(super) max_rows: u64,
    pub(super) max_bytes: u64,
    pub(super) max_open: usize,
}

impl Limits {
    /// The roll test: whether `file` is closed after the record just written
    /// (its partition then goes on in a new file).
    pub(super) fn full(&self, file: &impl Written) -> bool {
        file.rows() >= self.max_rows || (self.max_bytes != u64::MAX && file.bytes() >= self.max_bytes)
    }
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
    /// Close `evict` (the file written least recently, past the bound of
    /// open files), then open `file` and hand it to [`Core::opened`].
    Open { evict: Option<Closing<F>>, file: NewFile },
}

struct Open<F> {
    relative: PathBuf,
    file: F,
    /// The clock when it was last written to.
    used: u64,
}

/// The open files of some partitions (those of one thread, or all) and
/// what has been closed.
pub(super) struct Core<F> {
    open: HashMap<String, Open<F>>,
    limits: Limits,
    names: Names,
    clock: u64,
    summary: DatasetSummary,
    /// Broken by an error after which records already accepted may be
    /// lost: nothing more is written and there is no `_SUCCESS`.
    pub(super) latch: Latch,
}

impl<F: Written> Core<F> {
    pub(super) fn new(limits: Limits, names: Names) -> Self {
        Core {
            open: HashMap::new(),
            limits,
            names,
            clock: 0,
            summary: DatasetSummary::default(),
            latch: Latch::default(),
        }
    }

    /// The limits (a copy: the roll test runs while a file is borrowed).
    pub(super) fn limits(&self) -> Limits {
        self.limits
    }

    /// What to do for a record of directory `key`: one map lookup for a
    /// partition already open (the common case).
    pub(super) fn route(&mut self, key: &str) -> Result<Action<'_, F>> {
        self.latch.check()?;
        self.clock += 1;
        let clock = self.clock;
        if !self.open.contains_key(key) {
            let evict = match self.open.len() >= self.limits.max_open {
                true => self.least_recent().and_then(|k| self.take(&k)),
                false => None,
            };
            return Ok(Action::Open { evict, file: self.names.next(key) });
        }
        let open = self.open.get_mut(key).expect("checked above");
        open.used = clock;
        Ok(Action::Write(&mut open.file))
    }

    /// Records `file`, opened as [`Action::Open`] said, as the file of its
    /// partition; returns it to write into.
    pub(super) fn opened(&mut self, new: NewFile, file: F) -> &mut F {
        let open = Open { relative: new.relative, file, used: self.clock };
        &mut self.open.entry(new.key).insert_entry(open).into_mut().file
    }

    /// The open file of `key`, taken out to be closed (a full one, after
    /// [`Limits::full`]).
    pub(super) fn take(&mut self, key: &str) -> Option<Closing<F>> {
        let open = self.open.remove(key)?;
        Some(Closing { relative: open.relative, rows: open.file.rows(), file: open.file })
    }

    /// Counts a file the driver closed.
    pub(super) fn closed(&mut self, relative: PathBuf, rows: u64) {
        self.summary.files.push(relative);
        self.summary.rows += rows;
    }

    /// Every open file, by directory, to be closed (an error if the
    /// writer is broken).
    pub(super) fn close_all(&mut self) -> Result<Vec<Closing<F>>> {
        self.latch.check()?;
        let mut keys: Vec<String> = self.open.keys().cloned().collect();
        keys.sort();
        Ok(keys.iter().filter_map(|k| self.take(k)).collect())
    }

    /// Every open file, taken out to be abandoned (the writer broke).
    #[cfg(feature = "object_store")]
    pub(super) fn abandon_all(&mut self) -> Vec<F> {
        self.open.drain().map(|(_, open)| open.file).collect()
    }

    /// What was closed so far, files sorted; the count starts again.
    pub(super) fn summary(&mut self) -> DatasetSummary {
        let mut summary = std::mem::take(&mut self.summary);
        summary.files.sort();
        summary
    }

    fn least_recent(&self) -> Option<String> {
        self.open.iter().min_by_key(|(_, f)| f.used).map(|(k, _)| k.clone())
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

#[cfg(test)]
mod tests {
    use super::*;

    struct Fake(u64);

    impl Written for Fake {
        fn rows(&self) -> u64 {
            self.0
        }
        fn bytes(&self) -> u64 {
            self.0 * 10
        }
    }

    fn core(max_open: usize) -> Core<Fake> {
        let limits = Limits { max_rows: 2, max_bytes: u64::MAX, max_open };
        Core::new(limits, Names::new(Some("w".into())))
    }

    /// Writes one row into the file of `key` as a driver does; the names
    /// of the files it opened and closed.
    fn write(core: &mut Core<Fake>, key: &str) -> (Option<String>, Vec<String>) {
        let mut closed = Vec::new();
        let mut opened = None;
        let limits = core.limits();
        let file = match core.route(key).unwrap() {
            Action::Write(file) => file,
            Action::Open { evict, file } => {
                if let Some(c) = evict {
                    closed.push(c.relative.display().to_string());
                    core.closed(c.relative, c.rows);
                }
                opened = Some(file.key_path());
                core.opened(file, Fake(0))
            }
        };
        file.0 += 1;
        if limits.full(file) {
            let c = core.take(key).unwrap();
            closed.push(c.relative.display().to_string());
            core.closed(c.relative, c.rows);
        }
        (opened, closed)
    }

    #[test]
    fn files_roll_at_the_row_limit_and_the_least_recent_is_evicted() {
        let mut c = core(2);
        assert_eq!(write(&mut c, "a=1"), (Some("a=1/part-00000-w.parquet".into()), vec![]));
        assert_eq!(write(&mut c, "a=2"), (Some("a=2/part-00001-w.parquet".into()), vec![]));
        // a=1 reaches 2 rows: rolled.
        assert_eq!(write(&mut c, "a=1"), (None, vec!["a=1/part-00000-w.parquet".into()]));
        assert_eq!(write(&mut c, "a=3"), (Some("a=3/part-00002-w.parquet".into()), vec![]));
        // Two open (a=2, a=3): a=4 evicts a=2, written least recently.
        assert_eq!(
            write(&mut c, "a=4"),
            (Some("a=4/part-00003-w.parquet".into()), vec!["a=2/part-00001-w.parquet".into()])
        );
        let rest: Vec<String> = c.close_all().unwrap().into_iter().map(|c| c.relative.display().to_string()).collect();
        assert_eq!(rest, ["a=3/part-00002-w.parquet", "a=4/part-00003-w.parquet"]);
        let summary = c.summary();
        assert_eq!((summary.files.len(), summary.rows), (2, 3));
    }

    #[test]
    fn a_broken_core_routes_nothing() {
        let mut c = core(2);
        c.latch.set(&crate::Error::argument("disk full"));
        assert!(matches!(c.route("a=1"), Err(crate::Error::WriterState { source: Some(_) })));
        assert!(c.close_all().is_err());
    }

    #[test]
    fn without_partitions_the_name_is_the_path() {
        let mut c = core(1);
        let Ok(Action::Open { file, .. }) = c.route("") else { panic!("a new file") };
        assert_eq!(
            (file.key_path(), file.relative),
            ("part-00000-w.parquet".to_owned(), PathBuf::from("part-00000-w.parquet"))
        );
    }
}
