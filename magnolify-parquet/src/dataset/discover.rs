//! Finding a dataset's files and the partition values their paths hold.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::hive;
use crate::error::{Error, Result};

/// One data file of a dataset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DatasetFile {
    /// Where it is.
    pub path: PathBuf,
    /// Its path under the dataset's root.
    pub relative: PathBuf,
    /// The partition values its directories name, outermost first: each
    /// field's name and text (`None` for a null).
    pub partition: Vec<(String, Option<String>)>,
}

/// The data files under `root` (or `root` itself, a file), sorted by path:
/// hidden files and directories, markers and checksum files are skipped
/// (see [`hive::is_hidden`]); every file must sit under the same
/// partition fields.
pub(crate) fn discover(root: &Path) -> Result<Vec<DatasetFile>> {
    let io = |path: &Path, e: std::io::Error| Error::from(e).in_file(&Some(Arc::from(path)));
    let meta = std::fs::metadata(root).map_err(|e| io(root, e))?;
    let mut files = Vec::new();
    if meta.is_file() {
        files.push(DatasetFile { path: root.to_owned(), relative: PathBuf::new(), partition: Vec::new() });
        return Ok(files);
    }
    let mut stack = vec![(root.to_owned(), Vec::new())];
    while let Some((dir, partition)) = stack.pop() {
        let mut entries = Vec::new();
        for entry in std::fs::read_dir(&dir).map_err(|e| io(&dir, e))? {
            let entry = entry.map_err(|e| io(&dir, e))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if hive::is_hidden(&name) {
                continue;
            }
            let is_dir = entry.file_type().map_err(|e| io(&entry.path(), e))?.is_dir()
                || std::fs::metadata(entry.path()).is_ok_and(|m| m.is_dir());
            entries.push((name, entry.path(), is_dir));
        }
        // Reversed on the stack: directories are walked in name order.
        entries.sort();
        for (name, path, is_dir) in entries.into_iter().rev() {
            if is_dir {
                let mut inner: Vec<(String, Option<String>)> = partition.clone();
                if let Some(value) = hive::parse_segment(&name) {
                    inner.push(value);
                }
                stack.push((path, inner));
            } else {
                let relative = path.strip_prefix(root).unwrap_or(&path).to_owned();
                files.push(DatasetFile { path, relative, partition: partition.clone() });
            }
        }
    }
    files.sort_by(|a, b| a.relative.cmp(&b.relative));
    if let Some(first) = files.first() {
        let names = |f: &DatasetFile| f.partition.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
        let expected = names(first);
        if let Some(odd) = files.iter().find(|f| names(f) != expected) {
            return Err(Error::argument(format!(
                "the dataset's files are not under the same partition fields: `{}` is under {:?}, `{}` under {:?}; \
                 move the files of another layout out of `{}`",
                first.relative.display(),
                expected,
                odd.relative.display(),
                names(odd),
                root.display()
            )));
        }
    }
    Ok(files)
}
