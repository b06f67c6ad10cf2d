//! `flat/transform_*`: a Parquet→Parquet transform, the whole of a common
//! job (read a file, keep half of its records, write them): through records
//! that borrow from the batch, through owned records, and through arrow
//! (`ParquetRecordBatchReader` → `filter_record_batch` → `ArrowWriter`).
//! Each reads and writes on the caller's thread.

use arrow::array::{BooleanArray, Int64Array};
use arrow::compute::filter_record_batch;
use arrow::record_batch::RecordBatchReader;
use bytes::Bytes;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::arrow::ArrowWriter;

use crate::borrowed::FlatBorrowed;
use crate::flat::Flat;
use crate::peers::BoxError;
use magnolify_parquet::{ReadOptions, ReaderBuilder, WriterBuilder};

/// The records kept: those with an even id (half of a generated run).
pub fn keep(id: i64) -> bool {
    id % 2 == 0
}

/// Borrowed records in, the kept ones written as they were read: no copy
/// of their strings and bytes.
pub fn borrowed(file: Bytes) -> magnolify_parquet::Result<Vec<u8>> {
    let mut reader = ReaderBuilder::new(file)?.build_borrowed::<FlatBorrowed>(ReadOptions::default().threads(1))?;
    let mut writer = WriterBuilder::<FlatBorrowed>::new().threads(1).build(Vec::new())?;
    while let Some(batch) = reader.next_batch()? {
        for record in batch.iter().filter(|r| keep(r.id)) {
            writer.write(record)?;
        }
    }
    writer.into_inner()
}

/// Owned records in, the kept ones written.
pub fn owned(file: Bytes) -> magnolify_parquet::Result<Vec<u8>> {
    let reader = ReaderBuilder::new(file)?.build::<Flat>(ReadOptions::default().threads(1))?;
    let mut writer = WriterBuilder::<Flat>::new().threads(1).build(Vec::new())?;
    for record in reader {
        let record = record?;
        if keep(record.id) {
            writer.write(&record)?;
        }
    }
    writer.into_inner()
}

/// Arrow's batches in (1024 rows), filtered by a mask on `id`, written.
pub fn arrow(file: Bytes) -> Result<Vec<u8>, BoxError> {
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)?.with_batch_size(1024).build()?;
    let mut writer = ArrowWriter::try_new(Vec::new(), reader.schema(), None)?;
    for batch in reader {
        let batch = batch?;
        let ids = batch
            .column_by_name("id")
            .and_then(|c| c.as_any().downcast_ref::<Int64Array>())
            .ok_or("no INT64 column `id`")?;
        let mask: BooleanArray = ids.values().iter().map(|&id| Some(keep(id))).collect();
        writer.write(&filter_record_batch(&batch, &mask)?)?;
    }
    Ok(writer.into_inner()?)
}
