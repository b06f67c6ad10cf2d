//! The file writer: the one record writer of [`crate::write`] over a file
//! as its chunk sink, with the settings of a [`WriterBuilder`].

mod builder;

use std::io::{self, Write};
use std::marker::PhantomData;
use std::path::Path;
use std::sync::Arc;

use parquet::file::metadata::ParquetMetaData;
use parquet::file::writer::SerializedFileWriter;

pub use builder::{WriterBuilder, DEFAULT_MAX_ROW_GROUP_BYTES};

use super::atomic::AtomicFile;
use super::chunks::{FileChunks, Sink};
use super::field_columns::{with_bloom_filters, with_sorting_columns};
use crate::engines::require_readable;
use crate::error::{Error, Result};
use crate::record::{Derived, ParquetRecord, RecordWrite};
use crate::write::RecordWriter;

/// Writes records of `T` (through converter `C`) as a Parquet file into `W`.
///
/// Close it with [`close`](Self::close) (or [`into_inner`](Self::into_inner)),
/// which writes the footer and returns the errors of the last writes.
/// Dropped unclosed, a writer commits nothing, as atomic file writers do
/// (tempfile's `NamedTempFile`, `atomic-write-file`): a drop cannot tell a
/// forgotten `close` from an early return on an error, and the final name
/// only ever holds a file the program finished. A
/// [`create`](ParquetWriter::create) writer then leaves no file under its
/// name (an older file there untouched), a plain sink keeps the row groups
/// written so far with no footer (nothing at all before the first: the
/// leading magic waits for what follows it); and unless the thread is panicking, the
/// drop prints to stderr the file and the number of records it discarded.
/// [`discard`](Self::discard) drops them on purpose, without that line. If writing a
/// record fails (a value the schema cannot hold), that record is left out
/// entirely, its error names the field and the record, and the writer goes
/// on. An I/O or encoding error makes the writer unusable; every later call
/// returns [`Error::WriterState`] with that error as its source.
///
/// ```
/// use magnolify_parquet::{ParquetReader, ParquetType, ParquetWriter, WriterBuilder};
///
/// #[derive(ParquetType, Debug, PartialEq)]
/// struct Point { x: i32, y: Option<i32> }
///
/// let mut w = ParquetWriter::<Point, _>::new(Vec::new())?;
/// w.write(&Point { x: 1, y: None })?;
/// w.write_all(&[Point { x: 2, y: Some(3) }])?;
/// let bytes = bytes::Bytes::from(w.into_inner()?);
///
/// let back: Vec<Point> = ParquetReader::<Point, _>::new(bytes)?.collect::<Result<_, _>>()?;
/// assert_eq!(back, [Point { x: 1, y: None }, Point { x: 2, y: Some(3) }]);
/// # Ok::<(), magnolify_parquet::Error>(())
/// ```
pub struct ParquetWriter<T, W: Write + Send, C: RecordWrite = Derived<T>> {
    /// `None` once closed, discarded or dropped: a closing call takes it, so
    /// that `Drop` knows what is left to close.
    inner: Option<RecordWriter<C, FileChunks<W>>>,
    commit: Option<fn(&mut W) -> io::Result<()>>,
    /// Whether a drop of an unclosed writer says so on stderr: not for a
    /// dataset's or a store's files, whose owner does the closing.
    warn_on_drop: bool,
    /// The final path, for a [`create`](ParquetWriter::create) writer: what
    /// the drop's line names.
    target: Option<Box<Path>>,
    _record: PhantomData<fn(&T)>,
}

impl<T: ParquetRecord, W: Write + Send> ParquetWriter<T, W> {
    /// A writer with default settings.
    pub fn new(sink: W) -> Result<Self> {
        WriterBuilder::<T>::new().build(sink)
    }
}

impl<T: ParquetRecord> ParquetWriter<T, AtomicFile> {
    /// Writes a file at `path`, atomically: the data goes to a temporary file
    /// in the same directory, renamed to `path` by [`close`](Self::close) or
    /// [`into_inner`](Self::into_inner). A crash or a writer dropped unclosed
    /// never leaves a file under the final name, and leaves an older file
    /// there untouched.
    pub fn create(path: impl AsRef<Path>) -> Result<Self> {
        WriterBuilder::<T>::new().create(path)
    }
}

impl<W: Write + Send, C: RecordWrite> ParquetWriter<C::Record<'static>, W, C> {
    /// A writer through any converter (the Avro baseline's, for example),
    /// with default settings; [`WriterBuilder::with_converter`] sets them.
    pub fn with_converter(converter: C, sink: W) -> Result<Self> {
        WriterBuilder::with_converter(converter).build(sink)
    }
}

impl<T, W: Write + Send, C: RecordWrite> ParquetWriter<T, W, C> {
    fn from_builder(
        builder: WriterBuilder<T, C>,
        sink: W,
        commit: Option<fn(&mut W) -> io::Result<()>>,
    ) -> Result<Self> {
        let WriterBuilder {
            converter,
            props,
            batch,
            threads,
            key_values,
            page_checksums,
            readable_by,
            bloom_filters,
            sorted_by,
            omitted,
            ..
        } = builder;
        let schema = match omitted.is_empty() {
            true => converter.schema()?,
            false => crate::schema::without_fields(&converter.schema()?, &omitted)?.0,
        };
        require_readable(&schema, &readable_by)?;
        // The type's bloom filters, then the builder's.
        let mut blooms = converter.bloom_filters();
        blooms.extend(bloom_filters);
        // A field left out has no column to filter.
        blooms.retain(|(path, _)| !omitted.iter().any(|o| path == o || path.starts_with(&format!("{o}."))));
        let props = with_bloom_filters(props, &schema, &blooms)?;
        let props = with_sorting_columns(props, &schema, &sorted_by)?;
        // The converter's pairs, then those set on the properties, then the builder's.
        let props = props.build();
        let mut all = converter.key_value_metadata();
        all.extend(props.key_value_metadata().into_iter().flatten().cloned());
        all.extend(key_values);
        let props = Arc::new(props.into_builder().set_key_value_metadata((!all.is_empty()).then_some(all)).build());
        let file = SerializedFileWriter::new(Sink::new(sink), schema, props.clone())?;
        let inner = RecordWriter::new(converter, props, batch, FileChunks::new(file, page_checksums))?
            .omitting(&omitted)?
            .threads(threads)?;
        Ok(ParquetWriter { inner: Some(inner), commit, warn_on_drop: true, target: None, _record: PhantomData })
    }

    /// The writer of the file at `path` (what a drop's line names).
    pub(crate) fn at_path(mut self, path: &Path) -> Self {
        self.target = Some(path.into());
        self
    }

    /// A writer whose drop says nothing: the dataset and store writers
    /// commit their files only in their own close, and document it there.
    pub(crate) fn quiet_on_drop(mut self) -> Self {
        self.warn_on_drop = false;
        self
    }

    /// The record writer; `Err` only after a closing call took it, which no
    /// caller can observe (they take `self`).
    fn open(&mut self) -> Result<&mut RecordWriter<C, FileChunks<W>>> {
        self.inner.as_mut().ok_or_else(|| Error::WriterState { source: None })
    }

    /// Writes one record. A record that cannot be converted returns its
    /// error and is left out entirely; the writer stays usable.
    pub fn write(&mut self, record: &C::Record<'_>) -> Result<()> {
        self.open()?.write(record)
    }

    /// Writes every record of `records`, stopping at the first error.
    pub fn write_all<'a, 'b: 'a>(&mut self, records: impl IntoIterator<Item = &'a C::Record<'b>>) -> Result<()>
    where
        C::Record<'b>: 'a,
    {
        records.into_iter().try_for_each(|r| self.write(r))
    }

    /// Writes records already shredded into `batch` (see
    /// [`RecordWriter::write_shredded`](crate::write::RecordWriter)).
    pub(crate) fn write_shredded(&mut self, batch: &mut crate::shred::ColumnSink) -> Result<()> {
        self.open()?.write_shredded(batch)
    }

    /// Ends the current row group: what is buffered is encoded and written
    /// to the sink, and the next record starts a new row group.
    pub fn flush(&mut self) -> Result<()> {
        self.open()?.flush()
    }

    /// Records written so far.
    pub fn rows_written(&self) -> u64 {
        self.inner.as_ref().map_or(0, RecordWriter::rows_written)
    }

    /// Bytes the file holds so far: its row groups written, and the pages
    /// of the open row group encoded so far (the records of the last batch,
    /// not yet encoded, are not counted). What a size limit compares with.
    ///
    /// ```
    /// use magnolify_parquet::{ParquetType, WriterBuilder};
    ///
    /// #[derive(ParquetType)]
    /// struct Event { id: u64 }
    ///
    /// let mut w = WriterBuilder::<Event>::new().max_row_group_rows(100).build(Vec::new())?;
    /// let before = w.bytes_written();
    /// w.write_all(&(0..100).map(|id| Event { id }).collect::<Vec<_>>())?;
    /// assert!(w.bytes_written() > before + 800);
    /// # Ok::<(), magnolify_parquet::Error>(())
    /// ```
    pub fn bytes_written(&self) -> u64 {
        self.inner.as_ref().map_or(0, |w| w.sink().bytes_written())
    }

    /// Writes what is buffered and the footer; returns the file's metadata.
    /// A writer made by [`create`](ParquetWriter::create) renames its file
    /// to the final name here.
    pub fn close(self) -> Result<ParquetMetaData> {
        self.end().map(|(meta, _)| meta)
    }

    /// Closes the file like [`close`](Self::close) and returns the sink (the
    /// bytes, for a `Vec<u8>`; the committed file, for a writer made by
    /// [`create`](ParquetWriter::create)).
    pub fn into_inner(self) -> Result<W> {
        self.end().map(|(_, sink)| sink)
    }

    /// Drops the records written and the file, as a drop does but without
    /// its line on stderr: nothing is committed (a
    /// [`create`](ParquetWriter::create) writer leaves no file under its
    /// name, and an older file there untouched); a plain sink keeps the
    /// bytes written so far, with no footer.
    ///
    /// ```
    /// use magnolify_parquet::{ParquetType, ParquetWriter};
    ///
    /// #[derive(ParquetType)]
    /// struct Event { id: u64 }
    ///
    /// let dir = tempfile::tempdir()?;
    /// let path = dir.path().join("events.parquet");
    /// let mut w = ParquetWriter::<Event, _>::create(&path)?;
    /// w.write(&Event { id: 1 })?;
    /// w.discard();
    /// assert!(!path.exists());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn discard(mut self) {
        self.inner = None;
    }

    /// What both closing calls do: the buffered records, the footer, the
    /// rename of an atomic file.
    fn end(mut self) -> Result<(ParquetMetaData, W)> {
        let inner = self.inner.take().ok_or(Error::WriterState { source: None })?;
        let (meta, mut sink) = inner.close()?.finish()?;
        if let Some(commit) = self.commit {
            commit(&mut sink).map_err(Error::from)?;
        }
        Ok((meta, sink))
    }
}

impl<T, W: Write + Send, C: RecordWrite> Drop for ParquetWriter<T, W, C> {
    /// Discards an unclosed writer (see the type's docs), saying so on
    /// stderr, the one channel a drop has: a loss the program did not ask
    /// for should not go unseen.
    fn drop(&mut self) {
        let Some(inner) = &self.inner else { return };
        if !self.warn_on_drop || inner.rows_written() == 0 || std::thread::panicking() {
            return;
        }
        let file = match &self.target {
            Some(path) => format!("for {}", path.display()),
            None => "over a sink".to_owned(),
        };
        let records = match inner.rows_written() {
            1 => "1 record".to_owned(),
            n => format!("{n} records"),
        };
        eprintln!(
            "magnolify-parquet: a ParquetWriter {file} was dropped without close(), discarding {records}: \
             no file was committed; call close() to write it, or discard() to drop it quietly"
        );
    }
}
