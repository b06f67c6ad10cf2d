//! Writing a Parquet object into an object store: the one file writer into
//! an upload (`upload.rs`), which sends its parts as they fill.

use std::sync::Arc;

use object_store::path::Path as ObjectPath;
use object_store::ObjectStore;
use parquet::file::metadata::ParquetMetaData;

use super::upload::{Upload, DEFAULT_PART_SIZE};
use crate::error::Result;
use crate::file::PartSink;
use crate::file::{ParquetWriter, WriterBuilder};
use crate::record::{Derived, RecordWrite};

/// Writes records of `T` (through converter `C`) as a Parquet object in a
/// store. The file's bytes are cut into parts of
/// [`DEFAULT_PART_SIZE`](super::DEFAULT_PART_SIZE): when the first part is
/// full a multipart upload starts, and each part is sent by the `write`
/// call that fills it, up to
/// [`parts_in_flight`](Self::parts_in_flight) at once (they run while the
/// writer is awaited); [`close`](Self::close) sends the last and completes
/// the upload. An object smaller than one part is put whole by `close`, in
/// one request. The object appears only then: a writer dropped before (or
/// a failed close) leaves nothing at the path; [`abort`](Self::abort) also
/// removes the parts uploaded, as a part that fails to upload and a failed
/// close do themselves.
///
/// ```
/// # #[cfg(feature = "derive")]
/// # futures_lite_block_on(async {
/// use std::sync::Arc;
/// use futures::TryStreamExt;
/// use magnolify_parquet::store::{StoreReaderBuilder, StoreWriter};
/// use magnolify_parquet::{ParquetType, ParquetWriter, ReadOptions, WriterBuilder};
/// use object_store::{memory::InMemory, path::Path};
///
/// #[derive(ParquetType, Debug, PartialEq)]
/// struct Event { id: u64, name: String }
///
/// let store = Arc::new(InMemory::new());
/// let path = Path::from("events/part-0.parquet");
/// let mut w = StoreWriter::create(store.clone(), &path, WriterBuilder::<Event>::new()).await?;
/// w.write(&Event { id: 1, name: "start".into() }).await?;
/// w.close().await?;
///
/// let reader = StoreReaderBuilder::open(store, &path).await?.build::<Event>(ReadOptions::default()).await?;
/// assert_eq!(reader.try_collect::<Vec<_>>().await?, [Event { id: 1, name: "start".into() }]);
/// # Ok::<(), magnolify_parquet::Error>(())
/// # }).unwrap();
/// # fn futures_lite_block_on<F: std::future::Future>(f: F) -> F::Output {
/// #     tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(f)
/// # }
/// ```
pub struct StoreWriter<T, C: RecordWrite = Derived<T>> {
    writer: ParquetWriter<T, PartSink, C>,
    upload: Upload,
}

impl<T, C: RecordWrite> StoreWriter<T, C> {
    /// A writer of the object at `path` with `builder`'s settings, in parts
    /// of [`DEFAULT_PART_SIZE`] bytes. No request yet: the upload starts
    /// when the first part is full.
    pub async fn create(store: Arc<dyn ObjectStore>, path: &ObjectPath, builder: WriterBuilder<T, C>) -> Result<Self> {
        Self::create_with_part_size(store, path, builder, DEFAULT_PART_SIZE).await
    }

    /// As [`create`](Self::create), with parts of `part_size` bytes (the
    /// store's minimum applies: 5 MiB on S3).
    pub async fn create_with_part_size(
        store: Arc<dyn ObjectStore>,
        path: &ObjectPath,
        builder: WriterBuilder<T, C>,
        part_size: usize,
    ) -> Result<Self> {
        let (upload, sink) = Upload::new(store, path, part_size);
        // A store writer dropped unclosed leaves nothing at its path (see
        // the type): the drop of its file says nothing more.
        let writer = builder.build(sink)?.quiet_on_drop();
        Ok(StoreWriter { writer, upload })
    }

    /// Up to `parts` parts are sent at once (default
    /// [`DEFAULT_PARTS_IN_FLIGHT`](super::DEFAULT_PARTS_IN_FLIGHT), 4): the
    /// writer holds at most that many parts besides the one it fills. `0`
    /// counts as 1.
    pub fn parts_in_flight(mut self, parts: usize) -> Self {
        self.upload.parts_in_flight = parts.max(1);
        self
    }

    /// Writes one record (see [`ParquetWriter::write`]); uploads the parts
    /// it filled.
    pub async fn write(&mut self, record: &C::Record<'_>) -> Result<()> {
        self.upload.full_parts().await?;
        self.writer.write(record)?;
        self.upload.full_parts().await
    }

    /// Writes every record of `records`, stopping at the first error.
    pub async fn write_all<'a, 'b: 'a>(&mut self, records: impl IntoIterator<Item = &'a C::Record<'b>>) -> Result<()>
    where
        C::Record<'b>: 'a,
    {
        for record in records {
            self.write(record).await?;
        }
        Ok(())
    }

    /// Records written so far.
    pub fn rows_written(&self) -> u64 {
        self.writer.rows_written()
    }

    /// Bytes of the file so far (see [`ParquetWriter::bytes_written`]).
    pub fn bytes_written(&self) -> u64 {
        self.writer.bytes_written()
    }

    /// Parts uploaded so far (an object put whole counts none).
    pub fn parts_uploaded(&self) -> usize {
        self.upload.uploaded
    }

    /// Writes the footer, sends the last parts and completes the upload
    /// (or puts a small object whole): the object appears at its path. On
    /// an error the upload is aborted.
    pub async fn close(self) -> Result<ParquetMetaData> {
        let StoreWriter { writer, mut upload } = self;
        let result = match writer.close() {
            Ok(meta) => upload.finish().await.map(|()| meta),
            Err(e) => Err(e),
        };
        if result.is_err() {
            // Best effort: the error above is what the caller needs.
            let _ = upload.abort().await;
        }
        result
    }

    /// Stops the upload and removes the parts uploaded: nothing appears
    /// at the path. (A part that failed to upload has aborted it already.)
    pub async fn abort(mut self) -> Result<()> {
        self.upload.abort().await
    }
}
