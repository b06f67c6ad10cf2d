//! The file operations of the writers that write to disk (atomic files and
//! the dataset writers), in one place, so that the tests of this crate can
//! fail any one of them and check what a writer leaves behind.
//!
//! Outside tests a [`Disk`] is an empty value and each operation is the
//! `std::fs` call it names.

use std::fs::File;
use std::io::{self, Write};
use std::path::Path;

/// An operation on the disk, as a fault-injecting test sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    CreateDir,
    Create,
    Write,
    Flush,
    Sync,
    Rename,
    Remove,
    Marker,
}

/// Decides, before each operation, whether it fails (tests only).
#[cfg(test)]
pub(crate) type Faults = std::sync::Arc<dyn Fn(Op, &Path) -> io::Result<()> + Send + Sync>;

/// Where the writers' file operations go.
#[derive(Clone, Default)]
pub(crate) struct Disk {
    #[cfg(test)]
    faults: Option<Faults>,
}

impl std::fmt::Debug for Disk {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Disk")
    }
}

impl Disk {
    /// A disk whose operations are first put to `faults`.
    #[cfg(test)]
    pub(crate) fn failing(faults: Faults) -> Self {
        Disk { faults: Some(faults) }
    }

    #[cfg(test)]
    fn check(&self, op: Op, path: &Path) -> io::Result<()> {
        self.faults.as_ref().map_or(Ok(()), |faults| faults(op, path))
    }

    #[cfg(not(test))]
    #[inline(always)]
    fn check(&self, _op: Op, _path: &Path) -> io::Result<()> {
        Ok(())
    }

    pub(crate) fn create_dir_all(&self, dir: &Path) -> io::Result<()> {
        self.check(Op::CreateDir, dir)?;
        std::fs::create_dir_all(dir)
    }

    /// Creates `path`, which must not exist.
    pub(crate) fn create_new(&self, path: &Path) -> io::Result<File> {
        self.check(Op::Create, path)?;
        std::fs::OpenOptions::new().write(true).create_new(true).open(path)
    }

    pub(crate) fn write(&self, file: &mut File, path: &Path, buf: &[u8]) -> io::Result<usize> {
        self.check(Op::Write, path)?;
        file.write(buf)
    }

    pub(crate) fn flush(&self, file: &mut File, path: &Path) -> io::Result<()> {
        self.check(Op::Flush, path)?;
        file.flush()
    }

    pub(crate) fn sync(&self, file: &File, path: &Path) -> io::Result<()> {
        self.check(Op::Sync, path)?;
        file.sync_all()
    }

    pub(crate) fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
        self.check(Op::Rename, from)?;
        std::fs::rename(from, to)
    }

    pub(crate) fn remove(&self, path: &Path) -> io::Result<()> {
        self.check(Op::Remove, path)?;
        std::fs::remove_file(path)
    }

    /// Writes an empty marker file at `path` (such as `_SUCCESS`).
    pub(crate) fn marker(&self, path: &Path) -> io::Result<()> {
        self.check(Op::Marker, path)?;
        std::fs::write(path, b"")
    }
}
