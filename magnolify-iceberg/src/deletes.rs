//! Delete files: the rows each data file of a scan loses. Position deletes
//! (Parquet files of `file_path` and `pos`, as format v2 writes them) and
//! deletion vectors (format v3: Puffin files, see `deletion_vector`) name
//! them; equality deletes name values, and a data file's rows with those
//! values are found by reading its equality columns. Either way the data
//! file's reader leaves the rows out by position (`ReadOptions::skip_rows`),
//! so that they count as skipped and survive row-group and page pruning.
//! Which delete files apply to a data file is iceberg-rust's planning (a
//! position delete of the same or a later sequence number, an equality
//! delete of a later one, each in the data file's partition or, for an
//! equality delete, of an unpartitioned spec); the tests check it against
//! the spec's rules.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use iceberg::io::FileIO;
use iceberg::puffin::PuffinReader;
use iceberg::scan::{FileScanTask, FileScanTaskDeleteFile};
use iceberg::spec::DataContentType;
use magnolify_parquet::store::{RangedSource, StoreReaderBuilder};
use magnolify_parquet::{ParquetType, ReadOptions, ReaderBuilder};

use crate::deletion_vector;
use crate::equality::{Key, KeyColumns};
use crate::error::{Error, Result};

/// A row of a position-delete file (the spec's reserved field ids).
#[derive(ParquetType)]
struct PositionDelete {
    #[parquet(field_id = 2147483546)]
    file_path: String,
    #[parquet(field_id = 2147483545)]
    pos: i64,
}

/// The rows of a scan's data files that delete files delete.
#[derive(Default)]
pub(crate) struct Deletes {
    /// The positions position deletes delete in each data file that has any.
    pub(crate) positions: HashMap<String, Vec<u64>>,
    /// The equality deletes that apply to each data file that has any.
    pub(crate) equality: HashMap<String, Vec<Arc<EqualityDelete>>>,
}

/// An equality-delete file's rows: the keys of the columns `ids`.
pub(crate) struct EqualityDelete {
    ids: Vec<i32>,
    rows: HashSet<Vec<Key>>,
}

/// The delete files of `tasks` that are not delete files: an error naming
/// the first, before anything is read.
pub(crate) fn refuse_unapplied(table: &str, tasks: &[FileScanTask]) -> Result<()> {
    let listed = tasks.iter().find_map(|task| {
        let delete = task.deletes.iter().find(|d| d.file_type == DataContentType::Data)?;
        Some((task, delete))
    });
    match listed {
        Some((task, delete)) => Err(Error::table(
            table,
            format!(
                "the plan lists `{}`, a data file, as a delete file of data file `{}`: the table's manifests are \
                 damaged",
                delete.file_path, task.data_file_path
            ),
        )),
        None => Ok(()),
    }
}

/// Whether a position-delete file is a Puffin file of deletion vectors (as
/// every writer names them), not a Parquet file.
fn is_puffin(path: &str) -> bool {
    path.ends_with(".puffin")
}

/// The deletes of `tasks`' data files: each delete file read once, and of a
/// position-delete file's rows those of the data files whose tasks name it.
pub(crate) async fn read_deletes(io: &FileIO, table: &str, tasks: &[FileScanTask]) -> Result<Deletes> {
    refuse_unapplied(table, tasks)?;
    let mut positions: HashMap<&str, HashMap<String, Vec<u64>>> = HashMap::new();
    let mut equalities: HashMap<&str, Arc<EqualityDelete>> = HashMap::new();
    let mut puffins: HashMap<&str, PuffinReader> = HashMap::new();
    let mut out = Deletes::default();
    for task in tasks {
        let data_file = &task.data_file_path;
        for delete in &task.deletes {
            let path = delete.file_path.as_str();
            if delete.file_type == DataContentType::EqualityDeletes {
                if !equalities.contains_key(path) {
                    equalities.insert(path, Arc::new(equality_delete(io, delete).await?));
                }
                out.equality.entry(data_file.clone()).or_default().push(equalities[path].clone());
                continue;
            }
            if is_puffin(path) {
                if !puffins.contains_key(path) {
                    puffins.insert(path, PuffinReader::new(io.new_input(path)?));
                }
                let deleted = deletion_vector::deleted_in(&puffins[path], path, data_file).await?;
                out.positions.entry(data_file.clone()).or_default().extend(deleted);
                continue;
            }
            if !positions.contains_key(path) {
                positions.insert(path, positions_by_file(io, path).await?);
            }
            if let Some(deleted) = positions[path].get(data_file) {
                out.positions.entry(data_file.clone()).or_default().extend(deleted);
            }
        }
    }
    Ok(out)
}

/// The rows of the position-delete file at `path`, by data file.
async fn positions_by_file(io: &FileIO, path: &str) -> Result<HashMap<String, Vec<u64>>> {
    let in_file = |source: magnolify_parquet::Error| Error::DataFile { path: path.to_owned(), source };
    let bytes = io.new_input(path)?.read().await?;
    let reader = ReaderBuilder::new(bytes).and_then(|b| b.build::<PositionDelete>(ReadOptions::default().threads(1)));
    let mut out: HashMap<String, Vec<u64>> = HashMap::new();
    for row in reader.map_err(in_file)? {
        let row = row.map_err(in_file)?;
        let pos = u64::try_from(row.pos).map_err(|_| {
            in_file(magnolify_parquet::Error::argument(format!(
                "a position delete of `{}` at position {}: positions start at 0",
                row.file_path, row.pos
            )))
        })?;
        out.entry(row.file_path).or_default().push(pos);
    }
    Ok(out)
}

/// The rows of an equality-delete file, by the ids its manifest entry names.
async fn equality_delete(io: &FileIO, delete: &FileScanTaskDeleteFile) -> Result<EqualityDelete> {
    let path = delete.file_path.as_str();
    let in_file = |source: magnolify_parquet::Error| Error::DataFile { path: path.to_owned(), source };
    let ids = delete.equality_ids.clone().unwrap_or_default();
    if ids.is_empty() {
        let message = "an equality-delete file whose manifest entry names no equality ids: it would delete every row";
        return Err(in_file(magnolify_parquet::Error::argument(message)));
    }
    let bytes = io.new_input(path)?.read().await?;
    let keys = KeyColumns { ids: ids.clone().into(), mapping: Default::default(), defaults: None };
    let reader = ReaderBuilder::new(bytes).and_then(|b| b.build_with(keys, ReadOptions::default().threads(1)));
    let rows = reader.map_err(in_file)?.collect::<magnolify_parquet::Result<_>>().map_err(in_file)?;
    Ok(EqualityDelete { ids, rows })
}

/// The positions of the rows of the data file `source` whose keys one of
/// `deletes` holds: its equality columns read once (the union of the
/// deletes' ids), through `keys` (the table's name mapping and defaults).
pub(crate) async fn equal_positions(
    source: Arc<dyn RangedSource>,
    keys: &KeyColumns,
    deletes: &[Arc<EqualityDelete>],
) -> magnolify_parquet::Result<Vec<u64>> {
    let mut ids: Vec<i32> = deletes.iter().flat_map(|d| d.ids.iter().copied()).collect();
    ids.sort_unstable();
    ids.dedup();
    // Each delete's columns among the union's, in the delete's order.
    let index = |id: &i32| ids.binary_search(id).unwrap_or_default();
    let projections: Vec<Vec<usize>> = deletes.iter().map(|d| d.ids.iter().map(index).collect()).collect();
    let keys = KeyColumns { ids: ids.clone().into(), ..keys.clone() };
    let mut rows = StoreReaderBuilder::open_source(source).await?.build_with(keys, ReadOptions::default()).await?;
    let mut deleted = Vec::new();
    let mut position = 0u64;
    let mut key = Vec::new();
    while let Some(row) = futures::StreamExt::next(&mut rows).await {
        let row = row?;
        let hit = deletes.iter().zip(&projections).any(|(delete, projection)| {
            if projection.len() == ids.len() && projection.iter().enumerate().all(|(i, &j)| i == j) {
                return delete.rows.contains(&row);
            }
            key.clear();
            key.extend(projection.iter().map(|&i| row[i].clone()));
            delete.rows.contains(&key)
        });
        if hit {
            deleted.push(position);
        }
        position += 1;
    }
    Ok(deleted)
}
