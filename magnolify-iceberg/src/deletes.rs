//! Position deletes: the rows each data file of a scan loses, read from
//! the position-delete files iceberg-rust's planning pairs with it (Parquet
//! files of `file_path` and `pos`, as format v2 writes them). Equality
//! deletes and deletion vectors are refused, never passed over.

use std::collections::HashMap;

use iceberg::io::FileIO;
use iceberg::scan::FileScanTask;
use iceberg::spec::DataContentType;
use magnolify_parquet::{ParquetType, ReadOptions, ReaderBuilder};

use crate::error::{Error, Result};

/// A row of a position-delete file (the spec's reserved field ids).
#[derive(ParquetType)]
struct PositionDelete {
    #[parquet(field_id = 2147483546)]
    file_path: String,
    #[parquet(field_id = 2147483545)]
    pos: i64,
}

/// The positions deleted in each data file of `tasks` that has delete
/// files: each position-delete file read once, and of its rows those of
/// the data files whose tasks name it.
pub(crate) async fn deleted_positions(
    io: &FileIO,
    table: &str,
    tasks: &[FileScanTask],
) -> Result<HashMap<String, Vec<u64>>> {
    let mut read: HashMap<&str, HashMap<String, Vec<u64>>> = HashMap::new();
    let mut out: HashMap<String, Vec<u64>> = HashMap::new();
    for task in tasks {
        for delete in &task.deletes {
            let path = delete.file_path.as_str();
            refuse_unapplied(table, &task.data_file_path, path, delete.file_type, delete.equality_ids.as_deref())?;
            if !read.contains_key(path) {
                read.insert(path, positions_by_file(io, path).await?);
            }
            if let Some(positions) = read[path].get(&task.data_file_path) {
                out.entry(task.data_file_path.clone()).or_default().extend(positions);
            }
        }
    }
    Ok(out)
}

/// An error for a delete file this library does not apply.
fn refuse_unapplied(
    table: &str,
    data_file: &str,
    delete_file: &str,
    kind: DataContentType,
    equality_ids: Option<&[i32]>,
) -> Result<()> {
    let what = match kind {
        DataContentType::PositionDeletes if delete_file.ends_with(".puffin") => {
            "a deletion vector (format v3)".to_owned()
        }
        DataContentType::PositionDeletes => return Ok(()),
        DataContentType::EqualityDeletes => format!("equality deletes on field ids {:?}", equality_ids.unwrap_or(&[])),
        DataContentType::Data => "a data file listed as a delete file".to_owned(),
    };
    Err(Error::table(
        table,
        format!(
            "data file `{data_file}` has {what} in `{delete_file}`, which this library does not apply yet (it \
             applies position deletes): compact the table (rewrite its data files) before reading it here"
        ),
    ))
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
