//! The one record writer: records shredded into a [`ColumnSink`], handed in
//! batches of whole records to one column writer per leaf, whose chunks go
//! to any [`ChunkSink`] row group by row group.

use std::sync::Arc;

use parquet::file::properties::WriterProperties;
use parquet::schema::types::SchemaDescriptor;

use super::latch::Latch;
use super::pool::EncodePool;
use super::{ChunkSink, ColumnWriters};
use crate::error::{Error, Result};
use crate::record::RecordWrite;
use crate::shred::ColumnSink;

/// Records shredded before they go to the column writers, unless the
/// writer is told otherwise.
pub const DEFAULT_WRITE_BATCH: usize = 1024;

/// The row group being written.
struct OpenGroup {
    writers: ColumnWriters,
    rows: usize,
    raw_bytes: usize,
}

/// The leaves a writer stores when it stores fewer than the converter
/// shreds (a dataset's files leave out the partition fields, which their
/// paths hold): their buffers are moved here, by index, for the column
/// writers, and back.
struct StoredLeaves {
    sink: ColumnSink,
    /// The converter's leaf index of each stored leaf.
    from: Vec<usize>,
}

/// Writes records through converter `C` into the column chunks of `K`.
///
/// A record that cannot be converted (a value its column cannot hold) is
/// left out entirely and its error returned; the writer goes on. An error
/// while encoding or writing chunks makes the writer unusable: that call
/// returns the error, every later call [`Error::WriterState`] with the error
/// as its source.
pub struct RecordWriter<C: RecordWrite, K: ChunkSink> {
    converter: C,
    schema: Arc<SchemaDescriptor>,
    props: Arc<WriterProperties>,
    shredded: ColumnSink,
    /// With fields left out: the stored leaves (`schema` is then theirs).
    stored: Option<StoredLeaves>,
    group: Option<OpenGroup>,
    batch: usize,
    max_rows: usize,
    max_bytes: usize,
    rows: u64,
    /// Broken by an I/O or encoding error (the output is then in an
    /// unknown state), or closed.
    latch: Latch,
    /// Encoding threads, with more than one thread.
    pool: Option<EncodePool>,
    sink: K,
}

impl<C: RecordWrite, K: ChunkSink> RecordWriter<C, K> {
    /// A writer of `converter`'s records into `sink`, with `props` (its
    /// row-group limits included: `max_row_group_row_count` in records,
    /// `max_row_group_bytes` in raw bytes of the values and levels
    /// shredded), handing `batch` records at a time to the column writers.
    pub fn new(converter: C, props: Arc<WriterProperties>, batch: usize, sink: K) -> Result<Self> {
        if batch == 0 {
            return Err(Error::argument("the write batch must hold at least 1 record"));
        }
        let schema = Arc::new(SchemaDescriptor::new(converter.schema()?));
        super::settings::check(&schema, &props)?;
        Ok(RecordWriter {
            shredded: ColumnSink::new(&schema),
            stored: None,
            max_rows: props.max_row_group_row_count().unwrap_or(usize::MAX),
            max_bytes: props.max_row_group_bytes().unwrap_or(usize::MAX),
            converter,
            schema,
            props,
            group: None,
            batch,
            rows: 0,
            latch: Latch::default(),
            pool: None,
            sink,
        })
    }

    /// Encodes on `threads` threads: with 2 or more, the column chunks of
    /// each batch are split between `threads - 1` encoding threads of the
    /// writer's own and the caller's thread (which also shreds the records);
    /// with 1, everything runs on the caller's thread and no thread starts.
    pub fn threads(mut self, threads: usize) -> Result<Self> {
        self.pool = if threads >= 2 { Some(EncodePool::new(threads - 1)?) } else { None };
        Ok(self)
    }

    /// Stores every field but the top-level fields `omitted` (which the
    /// converter still shreds): the schema written is the converter's
    /// without them. For a writer that has written nothing.
    pub(crate) fn omitting(mut self, omitted: &[String]) -> Result<Self> {
        if omitted.is_empty() {
            return Ok(self);
        }
        if self.rows > 0 {
            return Err(Error::bug(crate::error::Location::default(), "fields left out after records were written"));
        }
        let (stored, from) = crate::schema::without_fields(&self.schema.root_schema_ptr(), omitted)?;
        self.schema = Arc::new(SchemaDescriptor::new(stored));
        self.stored = Some(StoredLeaves { sink: ColumnSink::new(&self.schema), from });
        Ok(self)
    }

    /// Writes one record. A record that cannot be converted returns its
    /// error (with its record number) and is left out entirely.
    pub fn write(&mut self, record: &C::Record<'_>) -> Result<()> {
        self.latch.check()?;
        let converter = &self.converter;
        self.shredded.record(|sink| converter.write(record, sink)).map_err(|e| e.at_record(self.rows))?;
        self.rows += 1;
        let in_group = self.group.as_ref().map_or(0, |g| g.rows) + self.shredded.records();
        if self.shredded.records() >= self.batch || in_group >= self.max_rows {
            self.guard(Self::flush_batch)?;
        }
        Ok(())
    }

    /// Writes the whole records of `batch`, shredded by this writer's
    /// converter into a sink of this writer's schema (the partitioned
    /// writers' held records), as a batch of their own; `batch` is left
    /// empty. For a writer that stores every leaf.
    pub(crate) fn write_shredded(&mut self, batch: &mut ColumnSink) -> Result<()> {
        self.latch.check()?;
        if self.stored.is_some() {
            return Err(Error::bug(
                crate::error::Location::default(),
                "shredded records for a writer leaving fields out",
            ));
        }
        self.guard(|w| {
            w.flush_batch()?;
            std::mem::swap(&mut w.shredded, batch);
            let records = w.shredded.records() as u64;
            let written = w.flush_batch();
            std::mem::swap(&mut w.shredded, batch);
            batch.clear();
            w.rows += records;
            written
        })
    }

    /// Ends the current row group: what is buffered is encoded and handed
    /// to the sink. The next record starts a new row group.
    pub fn flush(&mut self) -> Result<()> {
        self.latch.check()?;
        self.guard(|w| {
            w.flush_batch()?;
            w.close_group()
        })
    }

    /// Writes what is buffered and returns the sink, which then holds
    /// every row group (a file's sink still writes its footer).
    pub fn close(mut self) -> Result<K> {
        self.flush()?;
        self.latch.close();
        Ok(self.sink)
    }

    /// Records written so far.
    pub fn rows_written(&self) -> u64 {
        self.rows
    }

    /// The converter.
    pub fn converter(&self) -> &C {
        &self.converter
    }

    /// The schema written.
    pub fn schema(&self) -> &Arc<SchemaDescriptor> {
        &self.schema
    }

    /// The sink.
    pub fn sink(&self) -> &K {
        &self.sink
    }

    /// Runs a step that touches the encoders or the sink; a failure there
    /// leaves the output in an unknown state, so the writer is marked broken.
    fn guard(&mut self, step: impl FnOnce(&mut Self) -> Result<()>) -> Result<()> {
        let result = step(self);
        self.latch.guard(result)
    }

    /// Hands the buffered records to the column writers, closing the row
    /// group when it is full.
    fn flush_batch(&mut self) -> Result<()> {
        if self.shredded.records() == 0 {
            return Ok(());
        }
        let (schema, props, sink) = (&self.schema, &self.props, &mut self.sink);
        let group = match &mut self.group {
            Some(group) => group,
            None => self.group.insert(OpenGroup {
                writers: ColumnWriters::new(schema, props, |i| sink.page_writer(i))?,
                rows: 0,
                raw_bytes: 0,
            }),
        };
        group.rows += self.shredded.records();
        group.raw_bytes += self.shredded.raw_bytes();
        match &mut self.stored {
            None => group.writers.write(&mut self.shredded, self.pool.as_ref())?,
            Some(stored) => {
                // The stored leaves' buffers go to the column writers (which
                // hand back emptied ones); the others are dropped.
                let full = &mut self.shredded;
                for (j, &i) in stored.from.iter().enumerate() {
                    std::mem::swap(&mut full.leaves[i], &mut stored.sink.leaves[j]);
                }
                stored.sink.records = full.records;
                let written = group.writers.write(&mut stored.sink, self.pool.as_ref());
                for (j, &i) in stored.from.iter().enumerate() {
                    std::mem::swap(&mut full.leaves[i], &mut stored.sink.leaves[j]);
                }
                full.clear();
                written?;
            }
        }
        if group.rows >= self.max_rows || group.raw_bytes >= self.max_bytes {
            self.close_group()?;
        }
        Ok(())
    }

    /// Closes the column writers of the current row group and hands its
    /// chunks to the sink.
    fn close_group(&mut self) -> Result<()> {
        let Some(group) = self.group.take() else { return Ok(()) };
        let columns = group.writers.close(self.pool.as_ref())?;
        self.sink.end_row_group(group.rows, columns)
    }
}
