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
//! use magnolify_parquet::partitioned::{PartitionFile, PartitionLimits, Partitions, Routed};
//! use magnolify_parquet::ParquetType;
//!
//! #[derive(ParquetType, Debug, PartialEq)]
//! struct Visit { city: String, user: u32 }
//!
//! /// A file as the example keeps it: its records.
//! struct Rows(Vec<u32>);
//! impl PartitionFile for Rows {
//!     fn rows(&self) -> u64 { self.0.len() as u64 }
//!     fn bytes(&self) -> u64 { 4 * self.0.len() as u64 }
//! }
//!
//! let limits = PartitionLimits { max_open_files: 1, ..PartitionLimits::default() };
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

pub use self::core::{PartitionFile, Partitions, Routed};
pub use self::spill::{HeldPartition, HeldRecords};

/// Held records a partitioned writer keeps in memory before it spills them
/// to disk, unless told otherwise: 64 MiB.
pub const DEFAULT_SPILL_BUDGET: u64 = 64 << 20;

/// Files a partitioned writer keeps open at once, unless told otherwise.
pub const DEFAULT_MAX_OPEN_FILES: usize = 64;

/// The limits of a partitioned writer: how full a file gets, how many are
/// open, and how many bytes of held records stay in memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartitionLimits {
    /// A file is closed once it holds this many records (its partition
    /// goes on in a new file).
    pub max_rows_per_file: u64,
    /// A file is closed once it holds this many bytes (counted as
    /// [`ParquetWriter::bytes_written`](crate::ParquetWriter::bytes_written)
    /// counts them).
    pub max_bytes_per_file: u64,
    /// Partitions with a file open at once (at least 1). Each open file
    /// holds the row group it is writing in memory.
    pub max_open_files: usize,
    /// Bytes of held records kept in memory: they are held as a writer
    /// buffers them (shredded into their values and levels, whose bytes
    /// are counted), and past the budget written to a run in
    /// [`spill_dir`](Self::spill_dir).
    pub spill_budget: u64,
    /// Where spilled runs go (created if missing; each run is removed once
    /// read, or when the writer is dropped).
    pub spill_dir: PathBuf,
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
    /// Whether a file that holds `rows` records and `bytes` bytes is full.
    pub(crate) fn full(&self, rows: u64, bytes: u64) -> bool {
        rows >= self.max_rows_per_file || (self.max_bytes_per_file != u64::MAX && bytes >= self.max_bytes_per_file)
    }
}
