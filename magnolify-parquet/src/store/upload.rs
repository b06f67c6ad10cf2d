//! The upload of one object while its file is written: the bytes cut into
//! parts; a multipart upload started when the first part is full, its
//! parts sent a few at once; an object smaller than one part put whole at
//! the end, in one request. Nothing is visible at the path before the end.

use std::sync::Arc;

use object_store::path::Path as ObjectPath;
use object_store::{MultipartUpload, ObjectStore, ObjectStoreExt, PutPayload, UploadPart};

use super::ahead::Ahead;
use super::store_error;
use crate::error::Result;
use crate::file::{PartSink, Parts};
use crate::write::Latch;

/// Bytes in each uploaded part but the last (S3 needs at least 5 MiB).
pub const DEFAULT_PART_SIZE: usize = 8 << 20;

/// Parts of one object uploaded at once unless
/// [`StoreWriter::parts_in_flight`](super::StoreWriter::parts_in_flight)
/// says otherwise.
pub const DEFAULT_PARTS_IN_FLIGHT: usize = 4;

/// The upload of the object at `path`.
pub(super) struct Upload {
    store: Arc<dyn ObjectStore>,
    path: ObjectPath,
    parts: Parts,
    /// Started when the first part is full.
    multipart: Option<Box<dyn MultipartUpload>>,
    /// The parts being sent.
    sending: Ahead<UploadPart>,
    pub(super) parts_in_flight: usize,
    pub(super) uploaded: usize,
    /// Broken by a failed request: the object would lack a part, so the
    /// writer takes nothing more; the upload is aborted there and then.
    latch: Latch,
    aborted: bool,
}

impl Upload {
    /// The upload of an object at `path` in parts of `part_size` bytes, and
    /// the sink its file writes into. Nothing is sent yet.
    pub(super) fn new(store: Arc<dyn ObjectStore>, path: &ObjectPath, part_size: usize) -> (Self, PartSink) {
        let (sink, parts) = Parts::new(part_size);
        let upload = Upload {
            store,
            path: path.clone(),
            parts,
            multipart: None,
            sending: Ahead::new(false),
            parts_in_flight: DEFAULT_PARTS_IN_FLIGHT,
            uploaded: 0,
            latch: Latch::default(),
            aborted: false,
        };
        (upload, sink)
    }

    /// Sends the full parts (the multipart upload started at the first),
    /// at most `parts_in_flight` at once, waiting for room; then lets the
    /// parts in flight run once and counts those done.
    pub(super) async fn full_parts(&mut self) -> Result<()> {
        self.latch.check()?;
        while let Some(part) = self.parts.next_full() {
            self.send(part).await?;
        }
        self.sending.progress().await;
        while let Some(done) = self.sending.take_ready() {
            self.landed(done).await?;
        }
        Ok(())
    }

    /// Sends `part` once fewer than `parts_in_flight` are on their way
    /// (the multipart upload started at the first).
    async fn send(&mut self, part: bytes::Bytes) -> Result<()> {
        while self.sending.len() >= self.parts_in_flight.max(1) {
            let Some(done) = self.sending.next().await else { break };
            self.landed(done).await?;
        }
        let multipart = match &mut self.multipart {
            Some(multipart) => multipart,
            None => {
                let started = self.store.put_multipart(&self.path).await.map_err(|e| store_error(&self.path, e));
                self.multipart.insert(self.latch.guard(started)?)
            }
        };
        let put = multipart.put_part(PutPayload::from(part));
        self.sending.push(put);
        Ok(())
    }

    /// Counts a part sent, or aborts the upload on its error.
    async fn landed(&mut self, done: object_store::Result<()>) -> Result<()> {
        match done {
            Ok(()) => {
                self.uploaded += 1;
                Ok(())
            }
            Err(e) => {
                let _ = self.abort().await;
                self.latch.guard(Err(store_error(&self.path, e)))
            }
        }
    }

    /// Sends what is left and ends: the multipart upload completed once
    /// every part is in, or an object smaller than one part put whole.
    pub(super) async fn finish(&mut self) -> Result<()> {
        self.latch.check()?;
        let last = self.parts.rest();
        if self.multipart.is_none() && !self.parts.has_full() {
            let put = self.store.put(&self.path, PutPayload::from(last)).await;
            return put.map(drop).map_err(|e| store_error(&self.path, e));
        }
        self.full_parts().await?;
        if !last.is_empty() {
            self.send(last).await?;
        }
        while let Some(done) = self.sending.next().await {
            self.landed(done).await?;
        }
        let Some(multipart) = &mut self.multipart else { return Ok(()) };
        multipart.complete().await.map(drop).map_err(|e| store_error(&self.path, e))
    }

    /// Aborts the upload, once: the parts in flight dropped, those sent
    /// removed. Nothing is at the path either way.
    pub(super) async fn abort(&mut self) -> Result<()> {
        if std::mem::replace(&mut self.aborted, true) {
            return Ok(());
        }
        self.sending = Ahead::new(false);
        match &mut self.multipart {
            Some(multipart) => multipart.abort().await.map_err(|e| store_error(&self.path, e)),
            None => Ok(()),
        }
    }
}
