//! `serde_arrow` + arrow's Parquet writer and reader: records → `RecordBatch`
//! → `ArrowWriter`, and `ParquetRecordBatchReader` → `RecordBatch` → records.

use std::sync::Arc;

use arrow::datatypes::{DataType, Field, FieldRef, TimeUnit};
use bytes::Bytes;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::arrow::ArrowWriter;
use parquet::file::properties::WriterProperties;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_arrow::schema::{SchemaLike, TracingOptions};

use super::BoxError;
use crate::flat::Flat;
use crate::nested::Nested;

/// Arrow fields of `T`, traced from its serde form with the defaults.
pub fn traced_fields<'de, T: Deserialize<'de>>() -> Result<Vec<FieldRef>, BoxError> {
    Ok(Vec::<FieldRef>::from_type::<T>(TracingOptions::default())?)
}

/// The fields of [`Nested`].
pub fn nested_fields() -> Result<Vec<FieldRef>, BoxError> {
    traced_fields::<Nested>()
}

/// The fields of [`Flat`]: the timestamp, serialized as epoch
/// milliseconds, is declared a millisecond timestamp (tracing sees an i64).
pub fn flat_fields() -> Result<Vec<FieldRef>, BoxError> {
    let fields = traced_fields::<Flat>()?;
    Ok(fields
        .into_iter()
        .map(|f| {
            if f.name() == "ts" {
                Arc::new(Field::new("ts", DataType::Timestamp(TimeUnit::Millisecond, None), false))
            } else {
                f
            }
        })
        .collect())
}

/// Writes `records` as one `RecordBatch` through `ArrowWriter` into a file in memory.
pub fn write<T: Serialize>(
    fields: &[FieldRef],
    records: &[T],
    props: Option<WriterProperties>,
) -> Result<Vec<u8>, BoxError> {
    let batch = serde_arrow::to_record_batch(fields, &records)?;
    let mut writer = ArrowWriter::try_new(Vec::new(), batch.schema(), props)?;
    writer.write(&batch)?;
    Ok(writer.into_inner()?)
}

/// Reads every record of a file through `ParquetRecordBatchReader`
/// (default batches of 1024 rows) and `serde_arrow`.
pub fn read<T: DeserializeOwned>(file: Bytes) -> Result<Vec<T>, BoxError> {
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)?.build()?;
    let mut out = Vec::new();
    for batch in reader {
        let mut records: Vec<T> = serde_arrow::from_record_batch(&batch?)?;
        out.append(&mut records);
    }
    Ok(out)
}
