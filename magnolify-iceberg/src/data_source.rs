//! A table's data file read by byte ranges through the table's `FileIO`,
//! so that a scan holds a window of row groups, never a whole file.

use std::io;
use std::ops::Range;

use bytes::Bytes;
use futures::future::BoxFuture;
use iceberg::io::{FileIO, FileRead};
use magnolify_parquet::store::RangedSource;

/// A data file at `path` of `size` bytes (as its manifest says). Data
/// files never change once written, so every range comes from the one
/// version.
pub(crate) struct DataFileSource {
    path: String,
    size: u64,
    reader: Box<dyn FileRead>,
}

impl DataFileSource {
    pub(crate) async fn open(io: &FileIO, path: &str, size: u64) -> iceberg::Result<Self> {
        let reader = io.new_input(path)?.reader().await?;
        Ok(DataFileSource { path: path.to_owned(), size, reader })
    }
}

impl RangedSource for DataFileSource {
    fn name(&self) -> &str {
        &self.path
    }

    fn suffix(&self, len: u64) -> BoxFuture<'_, io::Result<(u64, Bytes)>> {
        let start = self.size.saturating_sub(len);
        Box::pin(async move { Ok((self.size, self.reader.read(start..self.size).await.map_err(io::Error::other)?)) })
    }

    fn get(&self, range: Range<u64>) -> BoxFuture<'_, io::Result<Bytes>> {
        Box::pin(async move { self.reader.read(range).await.map_err(io::Error::other) })
    }
}

impl std::fmt::Debug for DataFileSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DataFileSource").field("path", &self.path).field("size", &self.size).finish()
    }
}
