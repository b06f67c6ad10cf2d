//! Writing a Parquet object into an object store: the one file writer into
//! a buffer cut in parts, each uploaded as a part of a multipart upload as
//! soon as it is full; the upload completes only when the file is.

use std::collections::VecDeque;
use std::io::{self, Write};
use std::sync::{Arc, Mutex, PoisonError};

use bytes::Bytes;
use object_store::path::Path as ObjectPath;
use object_store::{MultipartUpload, ObjectStore, ObjectStoreExt, PutPayload};
use parquet::file::metadata::ParquetMetaData;

use super::store_error;
use crate::error::Result;
use crate::file::{ParquetWriter, WriterBuilder};
use crate::record::{Derived, RecordWrite};
use crate::write::Latch;

/// Bytes in each uploaded part but the last (S3 needs at least 5 MiB).
pub const DEFAULT_PART_SIZE: usize = 8 << 20;

/// Full parts waiting for upload, and the part being filled.
#[derive(Debug, Default)]
struct Parts {
    full: VecDeque<Bytes>,
    filling: Vec<u8>,
    size: usize,
}

/// The file writer's sink: bytes cut into parts of `size`.
struct PartSink(Arc<Mutex<Parts>>);

impl Write for PartSink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut parts = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let mut rest = buf;
        while !rest.is_empty() {
            let room = parts.size - parts.filling.len();
            let (now, later) = rest.split_at(room.min(rest.len()));
            parts.filling.extend_from_slice(now);
            if parts.filling.len() == parts.size {
                let size = parts.size;
                let full = std::mem::replace(&mut parts.filling, Vec::with_capacity(size));
                parts.full.push_back(Bytes::from(full));
            }
            rest = later;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Writes records of `T` (through converter `C`) as a Parquet object in a
/// store, by a multipart upload: each part is uploaded by the `write` call
/// that fills it, and [`close`](Self::close) uploads the last and completes
/// the upload. The object appears only then: a writer dropped before (or a
/// failed close) leaves nothing at the path; [`abort`](Self::abort) also
/// removes the parts uploaded, as a part that fails to upload and a failed
/// close do themselves.
///
/// ```
/// # #[cfg(feature = "derive")]
/// # futures_lite_block_on(async {
/// use std::sync::Arc;
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
/// assert_eq!(reader.collect().await?, [Event { id: 1, name: "start".into() }]);
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

/// The multipart upload and the parts it takes.
struct Upload {
    parts: Arc<Mutex<Parts>>,
    upload: Box<dyn MultipartUpload>,
    path: ObjectPath,
    uploaded: usize,
    /// Broken by a part's upload: the object would lack that part, so the
    /// writer takes nothing more; the upload is aborted there and then.
    latch: Latch,
    aborted: bool,
}

impl Upload {
    /// Uploads the full parts, one after the other.
    async fn full_parts(&mut self) -> Result<()> {
        self.latch.check()?;
        loop {
            let next = self.parts.lock().unwrap_or_else(PoisonError::into_inner).full.pop_front();
            let Some(part) = next else { return Ok(()) };
            let put = self.upload.put_part(PutPayload::from(part)).await;
            if let Err(e) = put {
                self.abort().await;
                return self.latch.guard(Err(store_error(&self.path, e)));
            }
            self.uploaded += 1;
        }
    }

    /// Aborts the upload, once; best effort: the error that led here is
    /// what the caller needs (a store that cannot abort leaves the parts
    /// to its own expiry rules, and no object at the path either way).
    async fn abort(&mut self) {
        if !std::mem::replace(&mut self.aborted, true) {
            let _ = self.upload.abort().await;
        }
    }

    /// Uploads every part left, the last one short, and completes.
    async fn finish(&mut self) -> Result<()> {
        {
            let mut parts = self.parts.lock().unwrap_or_else(PoisonError::into_inner);
            let last = std::mem::take(&mut parts.filling);
            if !last.is_empty() {
                parts.full.push_back(Bytes::from(last));
            }
        }
        self.full_parts().await?;
        self.upload.complete().await.map_err(|e| store_error(&self.path, e))?;
        Ok(())
    }
}

impl<T, C: RecordWrite> StoreWriter<T, C> {
    /// Starts a multipart upload to `path` and a writer with `builder`'s
    /// settings, uploading parts of [`DEFAULT_PART_SIZE`] bytes.
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
        let parts = Arc::new(Mutex::new(Parts { size: part_size.max(1), ..Parts::default() }));
        // A store writer dropped unclosed leaves nothing at its path (see
        // the type): the drop of its file says nothing more.
        let writer = builder.build(PartSink(parts.clone()))?.quiet_on_drop();
        let upload = store.put_multipart(path).await.map_err(|e| store_error(path, e))?;
        Ok(StoreWriter {
            writer,
            upload: Upload { parts, upload, path: path.clone(), uploaded: 0, latch: Latch::default(), aborted: false },
        })
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

    /// Parts uploaded so far.
    pub fn parts_uploaded(&self) -> usize {
        self.upload.uploaded
    }

    /// Writes the footer, uploads the last parts and completes the upload:
    /// the object appears at its path. On an error the upload is aborted.
    pub async fn close(self) -> Result<ParquetMetaData> {
        let StoreWriter { writer, mut upload } = self;
        let result = match writer.close() {
            Ok(meta) => upload.finish().await.map(|()| meta),
            Err(e) => Err(e),
        };
        if result.is_err() {
            upload.abort().await;
        }
        result
    }

    /// Stops the upload and removes the parts uploaded: nothing appears
    /// at the path. (A part that failed to upload has aborted it already.)
    pub async fn abort(mut self) -> Result<()> {
        if std::mem::replace(&mut self.upload.aborted, true) {
            return Ok(());
        }
        self.upload.upload.abort().await.map_err(|e| store_error(&self.upload.path, e))
    }
}
