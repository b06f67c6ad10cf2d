//! The core every partitioned writer drives: the dataset writer on a disk
//! and in an object store, and the Iceberg crate's table writer.
//!
//! Records go to the open file of their partition. Up to
//! [`max_open_files`](PartitionLimits::max_open_files) partitions have a
//! file open; the records of any other partition are held, in memory up to
//! a [`spill_budget`](PartitionLimits::spill_budget) and past it in
//! sorted runs on a local disk ([`spill_dir`](PartitionLimits::spill_dir)),
//! and are written when the writer closes, one partition after another, as
//! Spark's dynamic-partition writes fall back to sorting. So the order of
//! the input never decides how many files there are: each partition makes
//! one file, more only where a file reaches
//! [`max_rows_per_file`](PartitionLimits::max_rows_per_file) or
//! [`max_bytes_per_file`](PartitionLimits::max_bytes_per_file).
//!
//! The core does no I/O of its own but the spill: it says what to do with
//! each record ([`Routed`]), and the driver opens, writes and closes its
//! files, blocking or `async`.
//!
//! ```
//! use magnolify_parquet::partitioned::{PartitionFile, PartitionLimits, Partitions, Routed, Written};
//! use magnolify_parquet::ParquetType;
//!
//! #[derive(ParquetType, Debug, PartialEq)]
//! struct Visit { city: String, user: u32 }
//!
//! /// A file as the example keeps it: its records.
//! struct Rows(Vec<u32>);
//! impl PartitionFile for Rows {
//!     fn written(&self) -> Written { Written { rows: self.0.len() as u64, bytes: 4 * self.0.len() as u64 } }
//! }
//!
//! let limits = PartitionLimits::default().max_open_files(1);
//! let mut core = Partitions::<String, Rows, Visit>::new(&limits)?;
//! let mut files = Vec::new();
//! for (city, user) in [("Oslo", 1), ("Lima", 2), ("Oslo", 3), ("Lima", 4)] {
//!     let visit = Visit { city: city.into(), user };
//!     match core.route(city, &visit)? {
//!         Routed::Write(file) => file.0.push(user),
//!         Routed::Open => drop(core.opened(city.to_owned(), Rows(vec![user]))),
//!         Routed::Held => {} // Lima: no room; held until the end.
//!     }
//! }
//! files.extend(core.close_all());
//! let mut held = core.held()?;
//! while let Some((city, records)) = held.next_partition() {
//!     let users = records.map(|v| v.map(|v| v.user)).collect::<Result<Vec<_>, _>>()?;
//!     files.push((city, Rows(users)));
//! }
//! let files: Vec<(String, Vec<u32>)> = files.into_iter().map(|(c, r)| (c, r.0)).collect();
//! assert_eq!(files, [("Oslo".to_owned(), vec![1, 3]), ("Lima".to_owned(), vec![2, 4])]);
//! # Ok::<(), magnolify_parquet::Error>(())
//! ```

mod core;
mod spill;

use std::path::PathBuf;

pub use self::core::{PartitionFile, Partitions, Routed, Written};
pub use self::spill::{HeldPartition, HeldRecords};

/// Held records a partitioned writer keeps in memory before it spills them
/// to disk, unless told otherwise: 64 MiB.
pub const DEFAULT_SPILL_BUDGET: u64 = 64 << 20;

/// Files a partitioned writer keeps open at once, unless told otherwise.
pub const DEFAULT_MAX_OPEN_FILES: usize = 64;

/// The limits of a partitioned writer: how full a file gets, how many are
/// open, and how many bytes of held records stay in memory. Every
/// partitioned writer's builder takes them as one value
/// (`DatasetWriterBuilder::limits`, the Iceberg crate's
/// `TableWriterBuilder::limits`), set from its defaults:
///
/// ```
/// use magnolify_parquet::dataset::DatasetWriter;
/// use magnolify_parquet::ParquetType;
///
/// #[derive(ParquetType, Clone)]
/// struct Visit { city: String, user: u32 }
///
/// let dir = tempfile::tempdir()?;
/// let f = Visit::fields();
/// let writer = DatasetWriter::<Visit>::builder(dir.path())
///     .partition_by(&f.city)
///     .limits(|l| l.max_rows_per_file(1_000_000).max_open_files(16).spill_budget(256 << 20))
///     .build()?;
/// # drop(writer);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartitionLimits {
    pub(crate) max_rows_per_file: u64,
    pub(crate) max_bytes_per_file: u64,
    pub(crate) max_open_files: usize,
    pub(crate) spill_budget: u64,
    pub(crate) spill_dir: PathBuf,
}

impl Default for PartitionLimits {
    /// No file limits, [`DEFAULT_MAX_OPEN_FILES`] open files,
    /// [`DEFAULT_SPILL_BUDGET`] in memory, runs in the system's temporary
    /// directory.
    fn default() -> Self {
        PartitionLimits {
            max_rows_per_file: u64::MAX,
            max_bytes_per_file: u64::MAX,
            max_open_files: DEFAULT_MAX_OPEN_FILES,
            spill_budget: DEFAULT_SPILL_BUDGET,
            spill_dir: std::env::temp_dir(),
        }
    }
}

impl PartitionLimits {
    /// A file is closed once it holds `rows` records (at least 1), and its
    /// partition goes on in a new file.
    pub fn max_rows_per_file(mut self, rows: u64) -> Self {
        self.max_rows_per_file = rows.max(1);
        self
    }

    /// A file is closed once it holds `bytes` bytes (at least 1), counted
    /// as [`ParquetWriter::bytes_written`](crate::ParquetWriter::bytes_written)
    /// counts them (so a file ends up to one write batch of records past
    /// it), and its partition goes on in a new file.
    pub fn max_bytes_per_file(mut self, bytes: u64) -> Self {
        self.max_bytes_per_file = bytes.max(1);
        self
    }

    /// At most `files` partitions have a file open (at least 1; a dataset
    /// writer's threads share them). The records of partitions that come
    /// when that many are open are held (in memory up to
    /// [`spill_budget`](Self::spill_budget), then spilled to disk) and
    /// written when the writer closes, one file per partition (see the
    /// [module](self) docs). Each open file holds one write batch of
    /// records and the pages of its open row group, so this bounds memory.
    pub fn max_open_files(mut self, files: usize) -> Self {
        self.max_open_files = files.max(1);
        self
    }

    /// Bytes of held records kept in memory (a dataset writer's threads
    /// share them): held as a writer buffers them (shredded into their
    /// values and levels; the budget counts the bytes their buffers
    /// allocate), and past the budget written to a run in
    /// [`spill_dir`](Self::spill_dir).
    pub fn spill_budget(mut self, bytes: u64) -> Self {
        self.spill_budget = bytes;
        self
    }

    /// Where spilled runs go (created if missing; each run is removed once
    /// read, or when the writer is dropped). A run that cannot be written
    /// there is an error naming it, and the writer stops.
    pub fn spill_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.spill_dir = dir.into();
        self
    }
}

impl PartitionLimits {
    /// Whether a file that holds what `written` says is full.
    pub(crate) fn full(&self, written: Written) -> bool {
        written.rows >= self.max_rows_per_file
            || (self.max_bytes_per_file != u64::MAX && written.bytes >= self.max_bytes_per_file)
    }
}
