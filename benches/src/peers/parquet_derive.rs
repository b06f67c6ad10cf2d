//! `parquet_derive`: `#[derive(ParquetRecordWriter)]` writes a slice of
//! records as one row group of a `SerializedFileWriter`;
//! `#[derive(ParquetRecordReader)]` reads a row group into a `Vec`.

use std::sync::Arc;

use bytes::Bytes;
use parquet::file::properties::WriterProperties;
use parquet::file::reader::FileReader;
use parquet::file::serialized_reader::SerializedFileReader;
use parquet::file::writer::SerializedFileWriter;
use parquet::record::{RecordReader, RecordWriter};

use super::BoxError;
use crate::flat::{Flat, FlatRequired};

/// Writes `records` as one row group into a file in memory.
pub fn write(records: &[Flat], props: WriterProperties) -> Result<Vec<u8>, BoxError> {
    let schema = records.schema()?;
    let mut writer = SerializedFileWriter::new(Vec::new(), schema, Arc::new(props))?;
    let mut group = writer.next_row_group()?;
    records.write_to_row_group(&mut group)?;
    group.close()?;
    Ok(writer.into_inner()?)
}

/// Reads the columns of [`FlatRequired`] from every row group. Each row
/// group goes into a fresh `Vec`: reading a second one into a non-empty
/// `Vec` overwrites it from index 0.
pub fn read(file: Bytes) -> Result<Vec<FlatRequired>, BoxError> {
    let reader = SerializedFileReader::new(file)?;
    let mut out = Vec::new();
    for i in 0..reader.num_row_groups() {
        let mut group = reader.get_row_group(i)?;
        let rows = usize::try_from(group.metadata().num_rows())?;
        let mut records: Vec<FlatRequired> = Vec::with_capacity(rows);
        records.read_from_row_group(&mut *group, rows)?;
        out.append(&mut records);
    }
    Ok(out)
}
