//! Finding a dataset's files and the partition values their paths hold.

use std::path::{Path, PathBuf};

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

/// The data files under `root` (or `root` itself, a file), sorted by path,
/// with the partition values their directories name: what a
/// [`DatasetReader`](super::DatasetReader) reads, for a reader without a
/// record type (the CLI's `cat` of a dataset). Hidden files and
/// directories, markers and checksum files are skipped; every file must sit
/// under the same partition fields.
///
/// ```
/// use magnolify_parquet::{dataset, ParquetType};
///
/// #[derive(ParquetType, Clone)]
/// struct Sale { id: i64, region: String }
///
/// let root = std::env::temp_dir().join(format!("discover-doc-{}", std::process::id()));
/// let mut writer = dataset::DatasetWriter::<Sale>::builder(&root).partition_by(&Sale::fields().region).build()?;
/// writer.write(&Sale { id: 1, region: "north".into() })?;
/// writer.close()?;
/// let files = dataset::discover(&root)?;
/// assert_eq!(files.len(), 1);
/// assert_eq!(files[0].partition, [("region".to_owned(), Some("north".to_owned()))]);
/// # std::fs::remove_dir_all(&root).ok();
/// # Ok::<(), magnolify_parquet::Error>(())
/// ```
pub fn discover(root: &Path) -> Result<Vec<DatasetFile>> {
    let io = super::in_dir;
    let meta = std::fs::metadata(root).map_err(|e| io(root, e))?;
    if meta.is_file() {
        return Ok(vec![DatasetFile { path: root.to_owned(), relative: PathBuf::new(), partition: Vec::new() }]);
    }
    let mut found = Vec::new();
    let mut stack = vec![root.to_owned()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).map_err(|e| io(&dir, e))? {
            let entry = entry.map_err(|e| io(&dir, e))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if hive::is_hidden(&name) {
                continue;
            }
            let path = entry.path();
            let kind = entry.file_type().map_err(|e| io(&path, e))?;
            if kind.is_dir() {
                stack.push(path);
            } else if kind.is_symlink() && std::fs::metadata(&path).is_ok_and(|m| m.is_dir()) {
                // Links to directories are not followed: a link back up
                // the tree would make the walk endless.
                continue;
            } else {
                let relative = path.strip_prefix(root).unwrap_or(&path).to_owned();
                found.push((path, relative));
            }
        }
    }
    partitioned(found, &root.display().to_string())
}

/// The files `found` (each path, and its path under the dataset's root
/// `root`) with the partition values of their directories, sorted by
/// path; those under a hidden name are left out. Every file must sit under
/// the same partition fields.
pub(crate) fn partitioned(found: Vec<(PathBuf, PathBuf)>, root: &str) -> Result<Vec<DatasetFile>> {
    let mut files = Vec::with_capacity(found.len());
    for (path, relative) in found {
        let names: Vec<String> = relative.iter().map(|c| c.to_string_lossy().into_owned()).collect();
        let Some((_, dirs)) = names.split_last() else { continue };
        if names.iter().any(|n| hive::is_hidden(n)) {
            continue;
        }
        let partition = dirs.iter().filter_map(|d| hive::parse_segment(d)).collect();
        files.push(DatasetFile { path, relative, partition });
    }
    files.sort_by(|a, b| a.relative.cmp(&b.relative));
    if let Some(first) = files.first() {
        let names = |f: &DatasetFile| f.partition.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
        let expected = names(first);
        if let Some(odd) = files.iter().find(|f| names(f) != expected) {
            return Err(Error::argument(format!(
                "the dataset's files are not under the same partition fields: `{}` is under {:?}, `{}` under {:?}; \
                 move the files of another layout out of `{root}`",
                first.relative.display(),
                expected,
                odd.relative.display(),
                names(odd),
            )));
        }
    }
    Ok(files)
}
