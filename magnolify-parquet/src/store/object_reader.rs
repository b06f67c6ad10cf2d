//! Reading the records of one object in a store, row group by row group:
//! each row group's chunks fetched (coalesced, pinned to the footer's
//! version), decoded by the one file reader, and freed once read; at most
//! a window of row groups held at once.

use std::collections::VecDeque;
use std::ops::Range;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use futures_util::future::BoxFuture;
use futures_util::Stream;

use super::ahead::Ahead;
use super::fetched::FetchedRanges;
use super::fetcher::Fetcher;
use crate::error::Result;
use crate::file::reader::scan::ScanPlan;
use crate::file::{ParquetReader, ReaderBuilder};
use crate::filter::FilterCounts;
use crate::read::{ReadOptions, Resolved};
use crate::record::{Derived, RecordRead, RecordReadOwned};

/// Row groups a store reader holds at once unless
/// [`StoreReaderBuilder::window`](super::StoreReaderBuilder::window) says
/// otherwise: the one being read, and one fetched ahead.
pub const DEFAULT_WINDOW: usize = 2;

/// One row group's reader, its chunks being fetched.
type Fetching<T, C> = BoxFuture<'static, Result<ParquetReader<T, FetchedRanges, C>>>;

/// Builds one row group's reader (owned or lending records).
pub(crate) type BuildGroup<T, C> = fn(
    ReaderBuilder<FetchedRanges>,
    Arc<Resolved<C>>,
    ReadOptions<T>,
    ScanPlan,
) -> Result<ParquetReader<T, FetchedRanges, C>>;

/// Reads the records of `T` from an object in a store; made by
/// [`StoreReaderBuilder::build`](super::StoreReaderBuilder::build) (a
/// [`Stream`](futures_util::Stream) of owned records, so that `StreamExt`
/// and `TryStreamExt` of the `futures` crate work on it) or
/// [`build_borrowed`](super::StoreReaderBuilder::build_borrowed) (records
/// that borrow from their batch, [`next_batch`](Self::next_batch)).
///
/// The scan is planned as a file's is (row groups by statistics and bloom
/// filters, pages by the page index); then the row groups it reads are
/// fetched one request per group of coalesced chunks, at most
/// [`window`](super::StoreReaderBuilder::window) row groups held at once:
/// the one being read and those fetched ahead, each freed once its records
/// are read. Memory is bound by the window, not by the object's size.
/// The fetches ahead run while the reader is awaited (no runtime assumed,
/// nothing spawned).
///
/// It is `Send` whenever its records are, though rustdoc's auto-trait list
/// says `!Send`.
///
/// ```
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// use std::sync::Arc;
/// use futures::{StreamExt, TryStreamExt};
/// use magnolify_parquet::store::{StoreReaderBuilder, StoreWriter};
/// use magnolify_parquet::{ParquetType, ReadOptions, WriterBuilder};
/// use object_store::{memory::InMemory, path::Path};
///
/// #[derive(ParquetType, Debug, PartialEq)]
/// struct Tick { seq: u32 }
///
/// let store = Arc::new(InMemory::new());
/// let path = Path::from("ticks.parquet");
/// let builder = WriterBuilder::<Tick>::new().max_row_group_rows(100);
/// let mut w = StoreWriter::create(store.clone(), &path, builder).await?;
/// for seq in 0..1_000 {
///     w.write(&Tick { seq }).await?;
/// }
/// w.close().await?;
///
/// // 10 row groups, at most 3 held at once.
/// let builder = StoreReaderBuilder::open(store.clone(), &path).await?.window(3);
/// let mut reader = builder.build::<Tick>(ReadOptions::default()).await?;
/// let mut sum = 0;
/// while let Some(tick) = reader.next().await {
///     sum += tick?.seq;
/// }
/// assert_eq!(sum, 499_500);
/// assert_eq!(reader.counts().row_groups_read, 10);
///
/// // Or any of the streams' adapters: the even ticks of the first 20.
/// let reader = StoreReaderBuilder::open(store, &path).await?.build::<Tick>(ReadOptions::default()).await?;
/// let even: Vec<Tick> = reader.take(20).try_filter(|t| std::future::ready(t.seq % 2 == 0)).try_collect().await?;
/// assert_eq!(even.len(), 10);
/// # Ok::<(), magnolify_parquet::Error>(())
/// # }).unwrap();
/// ```
pub struct StoreReader<T, C: RecordRead = Derived<T>> {
    fetcher: Fetcher,
    /// The footer's builder: its input holds the tail and the indexes.
    builder: ReaderBuilder<FetchedRanges>,
    resolved: Arc<Resolved<C>>,
    options: ReadOptions<T>,
    build: BuildGroup<T, C>,
    coalesce: u64,
    window: usize,
    window_bytes: u64,
    /// The plans of the row groups not fetched yet, in order.
    waiting: VecDeque<ScanPlan>,
    fetching: Ahead<Fetching<T, C>>,
    /// The bytes of the chunks of each row group being fetched, in order,
    /// and of the one being read.
    fetching_bytes: VecDeque<u64>,
    current_bytes: u64,
    /// The reader of the row group being read.
    current: Option<ParquetReader<T, FetchedRanges, C>>,
    /// The counts of the row groups read to their end and of those skipped.
    counts: FilterCounts,
    done: bool,
}

/// What a [`StoreReader`] is made of.
pub(crate) struct Parts<T, C: RecordRead> {
    pub(crate) fetcher: Fetcher,
    pub(crate) builder: ReaderBuilder<FetchedRanges>,
    pub(crate) resolved: Arc<Resolved<C>>,
    pub(crate) options: ReadOptions<T>,
    pub(crate) build: BuildGroup<T, C>,
    pub(crate) coalesce: u64,
    pub(crate) window: usize,
    pub(crate) window_bytes: u64,
}

impl<T: 'static, C: RecordRead + Send + Sync + 'static> StoreReader<T, C> {
    /// The reader of `scan`, its first row groups' fetches started and the
    /// first one awaited.
    pub(crate) async fn start(parts: Parts<T, C>, scan: ScanPlan) -> Result<Self> {
        let Parts { fetcher, builder, resolved, options, build, coalesce, window, window_bytes } = parts;
        let (groups, rest) = scan.split_by_group();
        let counts = rest.counts(builder.metadata(), resolved.columns());
        let mut reader = StoreReader {
            fetcher,
            builder,
            resolved,
            options,
            build,
            coalesce,
            window,
            window_bytes,
            waiting: groups.into(),
            fetching: Ahead::new(true),
            fetching_bytes: VecDeque::new(),
            current_bytes: 0,
            current: None,
            counts,
            done: false,
        };
        reader.ready().await?;
        Ok(reader)
    }

    /// Requests made of the store for this object so far (its footer's
    /// included).
    pub fn requests(&self) -> usize {
        self.fetcher.requests()
    }

    /// What the reader read and skipped so far, as
    /// [`ParquetReader::counts`] (all of it once the reader has ended).
    pub fn counts(&self) -> FilterCounts {
        let mut counts = self.counts;
        if let Some(reader) = &self.current {
            counts += reader.counts();
        }
        counts
    }

    /// The next batch of records, which may borrow from it (a reader built
    /// by [`build_borrowed`](super::StoreReaderBuilder::build_borrowed)):
    /// they live until the next call; `Ok(None)` after the last, as
    /// [`ParquetReader::next_batch`].
    pub async fn next_batch(&mut self) -> Result<Option<Vec<C::Record<'_>>>> {
        if !self.advance().await? {
            return Ok(None);
        }
        match &mut self.current {
            Some(reader) => reader.lend().map(Some),
            None => Ok(None),
        }
    }

    /// Whether there is a next batch, made ready to lend by the reader of
    /// the row group it is in (for the readers of many objects).
    pub(crate) async fn advance(&mut self) -> Result<bool> {
        self.fetching.progress().await;
        while self.ready().await? {
            let Some(reader) = &mut self.current else { break };
            match reader.advance() {
                Ok(true) => return Ok(true),
                Ok(false) => self.finish_group(),
                Err(e) => return Err(self.stop(e)),
            }
        }
        Ok(false)
    }

    /// The records of the batch [`advance`](Self::advance) made ready.
    pub(crate) fn lend(&mut self) -> Result<Vec<C::Record<'_>>> {
        match &mut self.current {
            Some(reader) => reader.lend(),
            None => Ok(Vec::new()),
        }
    }

    /// Makes the reader of the next row group current if none is (its
    /// fetch awaited), and starts fetching ahead to fill the window;
    /// `false` once every row group is read.
    async fn ready(&mut self) -> Result<bool> {
        if self.current.is_some() {
            return Ok(true);
        }
        if self.done {
            return Ok(false);
        }
        self.fill()?;
        match self.fetching.next().await {
            Some(Ok(reader)) => {
                self.current = Some(reader);
                self.current_bytes = self.fetching_bytes.pop_front().unwrap_or(0);
            }
            Some(Err(e)) => return Err(self.stop(e)),
            None => {
                self.done = true;
                return Ok(false);
            }
        }
        self.fill()?;
        // Poll the fetches ahead once: their requests go out now, not at
        // the next nudge.
        self.fetching.progress().await;
        Ok(true)
    }

    /// Starts the fetches of the next row groups until the window is full
    /// (the row group being read counts), in row groups or in bytes: a row
    /// group that would take the bytes held past the window's waits until
    /// it fits, or until nothing is held.
    fn fill(&mut self) -> Result<()> {
        while self.fetching.len() + usize::from(self.current.is_some()) < self.window {
            let Some(plan) = self.waiting.front() else { break };
            let ranges = self.chunk_ranges(plan).map_err(|e| self.stop(e))?;
            let bytes: u64 = ranges.iter().map(|r| r.end - r.start).sum();
            let held = self.current_bytes + self.fetching_bytes.iter().sum::<u64>();
            if held > 0 && held.saturating_add(bytes) > self.window_bytes {
                break;
            }
            let Some(plan) = self.waiting.pop_front() else { break };
            self.fetching_bytes.push_back(bytes);
            let (fetcher, builder, gap) = (self.fetcher.clone(), self.builder.clone(), self.coalesce);
            let (resolved, options, build) = (self.resolved.clone(), self.options.clone(), self.build);
            self.fetching.push(Box::pin(async move {
                let input = fetcher.fetch(builder.input(), ranges, gap).await?;
                build(builder.with_input(input), resolved, options, plan)
            }));
        }
        Ok(())
    }

    /// The byte ranges of the chunks `plan` reads.
    fn chunk_ranges(&self, plan: &ScanPlan) -> Result<Vec<Range<u64>>> {
        let object = Some(self.fetcher.object().clone());
        let metadata = self.builder.metadata();
        let len = parquet::file::reader::Length::len(self.builder.input());
        let mut ranges = Vec::new();
        for (group, column, _) in plan.chunks_read(metadata, self.resolved.columns()) {
            let (start, length) = metadata.chunk_range(group, column, len).map_err(|e| e.in_file(&object))?;
            ranges.push(start..start + length);
        }
        Ok(ranges)
    }

    /// Counts the row group just read and frees it.
    fn finish_group(&mut self) {
        if let Some(reader) = self.current.take() {
            self.counts += reader.counts();
        }
        self.current_bytes = 0;
    }

    /// Ends the reader with `error`.
    fn stop(&mut self, error: crate::Error) -> crate::Error {
        self.done = true;
        self.current = None;
        error
    }
}

// The reader is never pinned in place: `poll_next` moves nothing it holds.
impl<T, C: RecordRead> Unpin for StoreReader<T, C> {}

impl<T: Send + 'static, C> Stream for StoreReader<T, C>
where
    C: RecordReadOwned<Owned = T> + Send + Sync + 'static,
{
    type Item = Result<T>;

    /// The next record; `None` after the last. After an error it ends.
    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<T>>> {
        let this = self.get_mut();
        loop {
            if let Some(reader) = &mut this.current {
                match reader.next() {
                    Some(Err(e)) => return Poll::Ready(Some(Err(this.stop(e)))),
                    Some(record) => {
                        // The fetches ahead are polled now and then (their
                        // requests go out), not per record.
                        if this.fetching.nudge_due() {
                            this.fetching.poll_progress(cx);
                        }
                        return Poll::Ready(Some(record));
                    }
                    None => this.finish_group(),
                }
                continue;
            }
            if this.done {
                return Poll::Ready(None);
            }
            if let Err(e) = this.fill() {
                return Poll::Ready(Some(Err(e)));
            }
            match std::task::ready!(this.fetching.poll_next(cx)) {
                Some(Ok(reader)) => {
                    this.current = Some(reader);
                    this.current_bytes = this.fetching_bytes.pop_front().unwrap_or(0);
                    if let Err(e) = this.fill() {
                        return Poll::Ready(Some(Err(e)));
                    }
                    // Their requests go out now, not at the next nudge.
                    this.fetching.poll_progress(cx);
                }
                Some(Err(e)) => return Poll::Ready(Some(Err(this.stop(e)))),
                None => this.done = true,
            }
        }
    }
}
