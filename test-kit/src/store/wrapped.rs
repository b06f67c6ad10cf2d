//! The wrapper: every request asks the behaviour first, then goes to the
//! inner store; requests and multipart uploads are counted.

use std::fmt;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;

use async_trait::async_trait;
use bytes::Bytes;
use futures_util::future::BoxFuture;
use futures_util::stream::BoxStream;
use futures_util::{FutureExt, StreamExt, TryStreamExt};
use object_store::path::Path;
use object_store::{
    CopyOptions, GetOptions, GetResult, GetResultPayload, ListResult, MultipartUpload, ObjectMeta, ObjectStore,
    PutMultipartOptions, PutOptions, PutPayload, PutResult, Result, UploadPart,
};

/// The kinds of request a store serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Request {
    /// A get (a range, the whole object or only its metadata).
    Get,
    Put,
    List,
    Delete,
    Copy,
    /// The start of a multipart upload.
    StartUpload,
    Part,
    CompleteUpload,
    AbortUpload,
}

/// What a [`Wrapped`] store does with each request.
pub trait Behaviour: fmt::Debug + Send + Sync + 'static {
    /// Before request `n` (counted from 1, over the store and its uploads)
    /// of kind `request` at `location` reaches the inner store: `Ok` once it
    /// may go on, or the error it returns instead.
    fn before(&self, n: usize, request: Request, location: &Path) -> BoxFuture<'static, Result<()>>;

    /// The body a get returns for request `n`, given the inner store's.
    fn body(&self, _n: usize, bytes: Bytes) -> Bytes {
        bytes
    }
}

/// Lets every request through: a store that only counts.
#[derive(Clone, Copy, Debug, Default)]
pub struct Passes;

impl Behaviour for Passes {
    fn before(&self, _n: usize, _request: Request, _location: &Path) -> BoxFuture<'static, Result<()>> {
        futures_util::future::ready(Ok(())).boxed()
    }
}

/// A store that only counts its requests.
pub type Counting = Wrapped<Passes>;

impl Counting {
    /// `inner`, its requests counted.
    pub fn counting(inner: Arc<dyn ObjectStore>) -> Self {
        Wrapped::new(inner, Passes)
    }
}

/// A store that asks `B` about every request before passing it to the
/// inner store, and counts requests and uploads.
#[derive(Debug)]
pub struct Wrapped<B> {
    inner: Arc<dyn ObjectStore>,
    hooks: Hooks<B>,
}

/// The behaviour and the counters, shared with the uploads.
#[derive(Debug)]
struct Hooks<B> {
    behaviour: Arc<B>,
    counts: Arc<Counts>,
}

impl<B> Clone for Hooks<B> {
    fn clone(&self) -> Self {
        Hooks { behaviour: self.behaviour.clone(), counts: self.counts.clone() }
    }
}

#[derive(Debug, Default)]
struct Counts {
    requests: AtomicUsize,
    uploads_started: AtomicUsize,
    uploads_ended: AtomicUsize,
    /// Gets (whatever their kind) and the bytes of the ranges they got.
    gets: AtomicUsize,
    bytes_got: AtomicU64,
    /// Gets, puts and parts under way, and the most there ever were.
    in_flight: AtomicUsize,
    peak_in_flight: AtomicUsize,
}

/// A get, put or part under way, until dropped.
struct Entered(Arc<Counts>);

impl Entered {
    fn new(counts: &Arc<Counts>) -> Self {
        let now = counts.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
        counts.peak_in_flight.fetch_max(now, Ordering::SeqCst);
        Entered(counts.clone())
    }
}

impl Drop for Entered {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::SeqCst);
    }
}

impl<B: Behaviour> Hooks<B> {
    /// Counts a request and asks the behaviour about it.
    fn before(&self, request: Request, location: &Path) -> (usize, BoxFuture<'static, Result<()>>) {
        let n = self.counts.requests.fetch_add(1, Ordering::SeqCst) + 1;
        (n, self.behaviour.before(n, request, location))
    }
}

impl<B: Behaviour> Wrapped<B> {
    pub fn new(inner: Arc<dyn ObjectStore>, behaviour: B) -> Self {
        Wrapped { inner, hooks: Hooks { behaviour: Arc::new(behaviour), counts: Arc::default() } }
    }

    /// The inner store (reached without the behaviour or the counts).
    pub fn inner(&self) -> &Arc<dyn ObjectStore> {
        &self.inner
    }

    /// Gets made so far (of a range, an object or its metadata), and the
    /// bytes of the ranges they returned.
    pub fn gets(&self) -> (u64, u64) {
        let counts = &self.hooks.counts;
        (counts.gets.load(Ordering::SeqCst) as u64, counts.bytes_got.load(Ordering::SeqCst))
    }

    /// Requests made so far (each part and each end of an upload counts).
    pub fn requests(&self) -> usize {
        self.hooks.counts.requests.load(Ordering::SeqCst)
    }

    /// The most gets, puts and parts that were ever under way at once.
    pub fn peak_in_flight(&self) -> usize {
        self.hooks.counts.peak_in_flight.load(Ordering::SeqCst)
    }

    /// Multipart uploads started and neither completed nor aborted.
    pub fn uploads_open(&self) -> usize {
        let started = self.hooks.counts.uploads_started.load(Ordering::SeqCst);
        started - self.hooks.counts.uploads_ended.load(Ordering::SeqCst)
    }
}

impl<B> fmt::Display for Wrapped<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Wrapped({})", self.inner)
    }
}

#[async_trait]
impl<B: Behaviour> ObjectStore for Wrapped<B> {
    async fn put_opts(&self, location: &Path, payload: PutPayload, opts: PutOptions) -> Result<PutResult> {
        let _entered = Entered::new(&self.hooks.counts);
        self.hooks.before(Request::Put, location).1.await?;
        self.inner.put_opts(location, payload, opts).await
    }

    async fn put_multipart_opts(&self, location: &Path, opts: PutMultipartOptions) -> Result<Box<dyn MultipartUpload>> {
        self.hooks.before(Request::StartUpload, location).1.await?;
        let upload = self.inner.put_multipart_opts(location, opts).await?;
        self.hooks.counts.uploads_started.fetch_add(1, Ordering::SeqCst);
        Ok(Box::new(WrappedUpload { upload, hooks: self.hooks.clone(), location: location.clone(), ended: false }))
    }

    async fn get_opts(&self, location: &Path, options: GetOptions) -> Result<GetResult> {
        let _entered = Entered::new(&self.hooks.counts);
        let (n, before) = self.hooks.before(Request::Get, location);
        before.await?;
        let head = options.head;
        let got = self.inner.get_opts(location, options).await?;
        self.hooks.counts.gets.fetch_add(1, Ordering::SeqCst);
        self.hooks.counts.bytes_got.fetch_add(got.range.end - got.range.start, Ordering::SeqCst);
        if head {
            return Ok(got);
        }
        // The whole body, as the behaviour returns it.
        let (meta, range, attributes) = (got.meta.clone(), got.range.clone(), got.attributes.clone());
        let bytes = self.hooks.behaviour.body(n, got.bytes().await?);
        let payload = GetResultPayload::Stream(futures_util::stream::once(async move { Ok(bytes) }).boxed());
        Ok(GetResult { payload, meta, range, attributes, extensions: Default::default() })
    }

    fn delete_stream(&self, locations: BoxStream<'static, Result<Path>>) -> BoxStream<'static, Result<Path>> {
        let hooks = self.hooks.clone();
        let asked = locations.and_then(move |path| {
            let before = hooks.before(Request::Delete, &path).1;
            before.map(|r| r.map(|()| path))
        });
        self.inner.delete_stream(asked.boxed())
    }

    fn list(&self, prefix: Option<&Path>) -> BoxStream<'static, Result<ObjectMeta>> {
        let before = self.hooks.before(Request::List, prefix.unwrap_or(&Path::default())).1;
        let listed = self.inner.list(prefix);
        futures_util::stream::once(before.map(|r| r.map(|()| listed))).try_flatten().boxed()
    }

    async fn list_with_delimiter(&self, prefix: Option<&Path>) -> Result<ListResult> {
        self.hooks.before(Request::List, prefix.unwrap_or(&Path::default())).1.await?;
        self.inner.list_with_delimiter(prefix).await
    }

    async fn copy_opts(&self, from: &Path, to: &Path, options: CopyOptions) -> Result<()> {
        self.hooks.before(Request::Copy, to).1.await?;
        self.inner.copy_opts(from, to, options).await
    }

    async fn get_ranges(&self, location: &Path, ranges: &[Range<u64>]) -> Result<Vec<Bytes>> {
        // One request per range, each through `get_opts`.
        let mut out = Vec::with_capacity(ranges.len());
        for range in ranges {
            let options = GetOptions { range: Some(range.clone().into()), ..GetOptions::default() };
            out.push(self.get_opts(location, options).await?.bytes().await?);
        }
        Ok(out)
    }
}

/// An upload whose parts and end go through the hooks, counted as ended
/// once completed or aborted.
#[derive(Debug)]
struct WrappedUpload<B> {
    upload: Box<dyn MultipartUpload>,
    hooks: Hooks<B>,
    location: Path,
    ended: bool,
}

#[async_trait]
impl<B: Behaviour> MultipartUpload for WrappedUpload<B> {
    fn put_part(&mut self, data: PutPayload) -> UploadPart {
        let before = self.hooks.before(Request::Part, &self.location).1;
        // The inner upload takes the part now (uploads number their parts
        // in order of the calls); its result waits for the behaviour's.
        let part = self.upload.put_part(data);
        let entered = Entered::new(&self.hooks.counts);
        async move {
            let _entered = entered;
            before.await?;
            part.await
        }
        .boxed()
    }

    async fn complete(&mut self) -> Result<PutResult> {
        self.hooks.before(Request::CompleteUpload, &self.location).1.await?;
        let done = self.upload.complete().await?;
        self.end();
        Ok(done)
    }

    async fn abort(&mut self) -> Result<()> {
        self.hooks.before(Request::AbortUpload, &self.location).1.await?;
        self.upload.abort().await?;
        self.end();
        Ok(())
    }
}

impl<B> WrappedUpload<B> {
    fn end(&mut self) {
        if !std::mem::replace(&mut self.ended, true) {
            self.hooks.counts.uploads_ended.fetch_add(1, Ordering::SeqCst);
        }
    }
}
