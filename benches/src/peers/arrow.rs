//! `serde_arrow` + arrow's Parquet writer and reader: records → `RecordBatch`
//! → `ArrowWriter`, and `ParquetRecordBatchReader` → `RecordBatch` → records.

use std::sync::Arc;

use arrow::array::RecordBatch;
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
    encode_only(&record_batch(fields, records)?, props)
}

/// The `RecordBatch` of `records` (built before timing, for the encode-only row).
pub fn record_batch<T: Serialize>(fields: &[FieldRef], records: &[T]) -> Result<RecordBatch, BoxError> {
    Ok(serde_arrow::to_record_batch(fields, &records)?)
}

/// Arrow's encode alone: `batch` through `ArrowWriter` into a file in
/// memory, no record is converted.
pub fn encode_only(batch: &RecordBatch, props: Option<WriterProperties>) -> Result<Vec<u8>, BoxError> {
    let mut writer = ArrowWriter::try_new(Vec::new(), batch.schema(), props)?;
    writer.write(batch)?;
    Ok(writer.into_inner()?)
}

/// Arrow's decode alone: every `RecordBatch` of a file (batches of 1024
/// rows), no record is built; returns the rows read.
pub fn decode_only(file: Bytes) -> Result<usize, BoxError> {
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)?.with_batch_size(1024).build()?;
    let mut rows = 0;
    for batch in reader {
        rows += batch?.num_rows();
    }
    Ok(rows)
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
