//! A file written under a temporary name and renamed when complete, so that
//! no reader ever sees a partial file under the final name.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::disk::Disk;

/// A file written under a temporary name in the target's directory,
/// renamed to the target when the writer closes it.
///
/// Dropped before that (a writer dropped unclosed, or an error), it removes
/// its temporary file and leaves whatever was at the target untouched. Once
/// committed it is the plain file at the target: dropping it closes it.
#[derive(Debug)]
pub struct AtomicFile {
    file: File,
    temp: PathBuf,
    target: PathBuf,
    committed: bool,
    disk: Disk,
}

impl AtomicFile {
    /// Creates the temporary file for `target` on `disk`.
    pub(crate) fn new(disk: &Disk, target: &Path) -> io::Result<Self> {
        let dir = target.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let name =
            target.file_name().ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "path has no file name"))?;
        let temp = dir.join(format!(".{}.{}.tmp", name.to_string_lossy(), std::process::id()));
        // Never another writer's temporary file.
        let file = disk.create_new(&temp)?;
        Ok(AtomicFile { file, temp, target: target.to_owned(), committed: false, disk: disk.clone() })
    }

    /// Syncs the data to disk and renames the file to its target.
    pub(crate) fn commit(&mut self) -> io::Result<()> {
        if !self.committed {
            self.disk.sync(&self.file, &self.temp)?;
            self.disk.rename(&self.temp, &self.target)?;
            self.committed = true;
        }
        Ok(())
    }

    /// The final path of the file.
    pub fn path(&self) -> &Path {
        &self.target
    }

    /// Whether the file was renamed to its final path.
    pub fn is_committed(&self) -> bool {
        self.committed
    }

    /// The open file (at its final path once committed).
    pub fn file(&self) -> &File {
        &self.file
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.disk.write(&mut self.file, &self.temp, buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.disk.flush(&mut self.file, &self.temp)
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if !self.committed {
            // Best effort: the file is unusable either way, and a drop cannot report.
            let _ = self.disk.remove(&self.temp);
        }
    }
}
