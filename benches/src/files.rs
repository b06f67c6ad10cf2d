//! The derive's file rows of every group: records into a Parquet file held
//! in memory and back, on a given number of threads (1 in every row but
//! the `file` group's `*_threads2`, to compare like for like with the
//! single-threaded peers).

use bytes::Bytes;
use magnolify_parquet::parquet::basic::Compression;
use magnolify_parquet::{OwnedRecord, ReadOptions, ReaderBuilder, WriterBuilder};

/// Writes `records` into a file in memory, pages in `compression`.
pub fn write<T: OwnedRecord>(
    records: &[T],
    compression: Compression,
    threads: usize,
) -> magnolify_parquet::Result<Vec<u8>> {
    let mut writer = WriterBuilder::<T>::new().compression(compression).threads(threads).build(Vec::new())?;
    writer.write_all(records)?;
    writer.into_inner()
}

/// Reads every record of `file`.
pub fn read<T: OwnedRecord>(file: Bytes, threads: usize) -> magnolify_parquet::Result<Vec<T>> {
    ReaderBuilder::new(file)?.build::<T>(ReadOptions::default().threads(threads))?.collect()
}
