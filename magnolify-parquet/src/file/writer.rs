//! The file writer. Records are shredded into a small buffer, whole batches
//! go to one column writer per leaf, and those encode into per-column
//! in-memory chunks; a full row group is spliced into the file. Memory stays
//! about one encoded row group, whatever the file's size.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use bytes::Bytes;
use parquet::basic::Compression;
use parquet::column::page::{CompressedPage, PageWriteSpec, PageWriter};
use parquet::errors::Result as ParquetResult;
use parquet::file::metadata::{KeyValue, ParquetMetaData};
use parquet::file::properties::{EnabledStatistics, WriterProperties, WriterPropertiesBuilder, WriterVersion};
use parquet::file::writer::{SerializedFileWriter, SerializedPageWriter, TrackedWrite};
use parquet::schema::types::SchemaDescriptor;

use crate::error::{Error, Result};
use crate::mem::DEFAULT_BATCH;
use crate::record::{Derived, ParquetRecord, RecordConverter};
use crate::write::{ColumnSink, ColumnWriters};

type SharedChunk = Arc<Mutex<TrackedWrite<Vec<u8>>>>;

/// Serializes pages (headers included) into a column chunk in memory.
struct ChunkPageWriter {
    chunk: SharedChunk,
}

impl PageWriter for ChunkPageWriter {
    fn write_page(&mut self, page: CompressedPage) -> ParquetResult<PageWriteSpec> {
        let mut chunk = self.chunk.lock().unwrap_or_else(PoisonError::into_inner);
        SerializedPageWriter::new(&mut chunk).write_page(page)
    }

    fn close(&mut self) -> ParquetResult<()> {
        Ok(())
    }
}

/// The row group being written: a column writer and an encoded chunk per leaf.
struct RowGroup {
    writers: ColumnWriters,
    chunks: Vec<SharedChunk>,
    rows: usize,
    raw_bytes: usize,
}

impl RowGroup {
    fn new(schema: &SchemaDescriptor, props: &Arc<WriterProperties>) -> Self {
        let chunks: Vec<SharedChunk> =
            (0..schema.num_columns()).map(|_| Arc::new(Mutex::new(TrackedWrite::new(Vec::new())))).collect();
        let writers = ColumnWriters::new(schema, props, |i| Box::new(ChunkPageWriter { chunk: chunks[i].clone() }));
        RowGroup { writers, chunks, rows: 0, raw_bytes: 0 }
    }
}

/// Settings of a [`ParquetWriter`]: the `parquet` crate's writer properties
/// plus row-group limits.
///
/// ```
/// use magnolify_parquet::{ParquetType, ParquetWriter};
/// use parquet::basic::{Compression, ZstdLevel};
///
/// #[derive(ParquetType)]
/// struct Event { id: u64, name: String }
///
/// let mut w = ParquetWriter::<Event, _>::builder()
///     .compression(Compression::ZSTD(ZstdLevel::default()))
///     .max_row_group_rows(10_000)
///     .key_value("origin", "doc test")
///     .build(Vec::new())
///     .unwrap();
/// w.write(&Event { id: 1, name: "start".into() }).unwrap();
/// let meta = w.close().unwrap();
/// assert_eq!(meta.file_metadata().num_rows(), 1);
/// ```
pub struct WriterBuilder<C> {
    converter: C,
    props: WriterPropertiesBuilder,
    max_rows: usize,
    max_bytes: usize,
    batch: usize,
    key_values: Vec<KeyValue>,
}

impl<C: RecordConverter> WriterBuilder<C> {
    /// Defaults: uncompressed, dictionary on, page statistics, 1 Mi rows and
    /// 128 MiB of raw data per row group.
    pub fn new(converter: C) -> Self {
        WriterBuilder {
            converter,
            props: WriterProperties::builder()
                .set_created_by(concat!("magnolify-parquet-rs ", env!("CARGO_PKG_VERSION")).to_owned()),
            max_rows: 1024 * 1024,
            max_bytes: 128 * 1024 * 1024,
            batch: DEFAULT_BATCH,
            key_values: Vec::new(),
        }
    }

    /// Compression codec of every column.
    pub fn compression(mut self, codec: Compression) -> Self {
        self.props = self.props.set_compression(codec);
        self
    }

    /// Dictionary encoding on or off.
    pub fn dictionary(mut self, enabled: bool) -> Self {
        self.props = self.props.set_dictionary_enabled(enabled);
        self
    }

    /// Statistics level: none, per chunk or per page.
    pub fn statistics(mut self, level: EnabledStatistics) -> Self {
        self.props = self.props.set_statistics_enabled(level);
        self
    }

    /// Data page format version.
    pub fn writer_version(mut self, version: WriterVersion) -> Self {
        self.props = self.props.set_writer_version(version);
        self
    }

    /// Largest data page in bytes (the writer cuts at record boundaries).
    pub fn data_page_size(mut self, bytes: usize) -> Self {
        self.props = self.props.set_data_page_size_limit(bytes);
        self
    }

    /// Most records in a data page.
    pub fn data_page_rows(mut self, rows: usize) -> Self {
        self.props = self.props.set_data_page_row_count_limit(rows);
        self
    }

    /// Most records in a row group.
    pub fn max_row_group_rows(mut self, rows: usize) -> Self {
        self.max_rows = rows.max(1);
        self
    }

    /// Most raw (uncompressed) bytes of values and levels in a row group.
    pub fn max_row_group_bytes(mut self, bytes: usize) -> Self {
        self.max_bytes = bytes.max(1);
        self
    }

    /// Records shredded before they go to the column writers.
    pub fn batch_size(mut self, records: usize) -> Self {
        self.batch = records.max(1);
        self
    }

    /// The `created_by` string of the footer.
    pub fn created_by(mut self, created_by: impl Into<String>) -> Self {
        self.props = self.props.set_created_by(created_by.into());
        self
    }

    /// A key/value pair for the footer.
    pub fn key_value(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.key_values.push(KeyValue::new(key.into(), value.into()));
        self
    }

    /// Any other setting of the `parquet` crate's writer properties.
    pub fn properties(mut self, f: impl FnOnce(WriterPropertiesBuilder) -> WriterPropertiesBuilder) -> Self {
        self.props = f(self.props);
        self
    }

    /// The writer over `sink`.
    pub fn build<W: Write + Send>(self, sink: W) -> Result<ParquetWriter<C::Record, W, C>> {
        ParquetWriter::from_builder(self, sink, None)
    }

    /// The writer of a file at `path`, written atomically (see
    /// [`ParquetWriter::create`]).
    pub fn create(self, path: impl AsRef<Path>) -> Result<ParquetWriter<C::Record, AtomicFile, C>> {
        let file = AtomicFile::new(path.as_ref())?;
        ParquetWriter::from_builder(self, file, Some(Box::new(AtomicFile::commit)))
    }
}

/// Writes records of `T` (through converter `C`) as a Parquet file into `W`.
///
/// Close it with [`close`](Self::close): a writer dropped without closing
/// leaves an incomplete file. If writing a record fails (a value the schema
/// cannot hold), that record is left out entirely and the writer goes on.
/// An I/O or encoding error makes the writer unusable; every later call
/// returns [`Error::WriterState`].
///
/// ```
/// use magnolify_parquet::{ParquetReader, ParquetType, ParquetWriter};
///
/// #[derive(ParquetType, Debug, PartialEq)]
/// struct Point { x: i32, y: Option<i32> }
///
/// let mut w = ParquetWriter::<Point, _>::new(Vec::new()).unwrap();
/// w.write(&Point { x: 1, y: None }).unwrap();
/// w.write_all([Point { x: 2, y: Some(3) }].iter()).unwrap();
/// let bytes = bytes::Bytes::from(w.into_inner().unwrap());
///
/// let back: Vec<Point> = ParquetReader::<Point, _>::new(bytes).unwrap().collect::<Result<_, _>>().unwrap();
/// assert_eq!(back, [Point { x: 1, y: None }, Point { x: 2, y: Some(3) }]);
/// ```
pub struct ParquetWriter<T, W: Write + Send, C: RecordConverter<Record = T> = Derived<T>> {
    converter: C,
    file: Option<SerializedFileWriter<Sink<W>>>,
    schema: Arc<SchemaDescriptor>,
    props: Arc<WriterProperties>,
    sink: ColumnSink,
    group: Option<RowGroup>,
    max_rows: usize,
    max_bytes: usize,
    batch: usize,
    rows: u64,
    broken: Option<String>,
    commit: Option<Box<dyn FnOnce(W) -> io::Result<()> + Send>>,
}

impl<T: ParquetRecord, W: Write + Send> ParquetWriter<T, W> {
    /// A writer with default settings.
    pub fn new(sink: W) -> Result<Self> {
        WriterBuilder::new(Derived::new()).build(sink)
    }
}

// In an impl of its own with the sink type fixed, so that
// `ParquetWriter::<T, _>::builder()` infers: the sink is chosen later by
// `WriterBuilder::build`.
impl<T: ParquetRecord> ParquetWriter<T, Vec<u8>> {
    /// A builder for the settings; `build(sink)` picks the sink.
    pub fn builder() -> WriterBuilder<Derived<T>> {
        WriterBuilder::new(Derived::new())
    }
}

impl<T: ParquetRecord> ParquetWriter<T, AtomicFile> {
    /// Writes a file at `path`, atomically: the data goes to a temporary file
    /// in the same directory, renamed to `path` by [`close`](Self::close). A
    /// crash or a writer dropped unclosed never leaves a truncated file
    /// under the final name.
    pub fn create(path: impl AsRef<Path>) -> Result<Self> {
        WriterBuilder::new(Derived::new()).create(path)
    }
}

impl<T, W: Write + Send, C: RecordConverter<Record = T>> ParquetWriter<T, W, C> {
    /// A writer through any converter (the Avro baseline's, for example).
    pub fn with_converter(converter: C, sink: W) -> Result<Self> {
        WriterBuilder::new(converter).build(sink)
    }

    fn from_builder(
        builder: WriterBuilder<C>,
        sink: W,
        commit: Option<Box<dyn FnOnce(W) -> io::Result<()> + Send>>,
    ) -> Result<Self> {
        let WriterBuilder { converter, props, max_rows, max_bytes, batch, mut key_values } = builder;
        let mut all = converter.key_value_metadata();
        all.append(&mut key_values);
        let props = if all.is_empty() { props } else { props.set_key_value_metadata(Some(all)) };
        let props = Arc::new(props.build());
        let root = converter.schema()?;
        let schema = Arc::new(SchemaDescriptor::new(root.clone()));
        let file = SerializedFileWriter::new(Sink(Some(sink)), root, props.clone())?;
        Ok(ParquetWriter {
            sink: ColumnSink::new(&schema),
            converter,
            file: Some(file),
            schema,
            props,
            group: None,
            max_rows,
            max_bytes,
            batch,
            rows: 0,
            broken: None,
            commit,
        })
    }

    fn usable(&self) -> Result<()> {
        match (&self.broken, &self.file) {
            (Some(why), _) => Err(Error::WriterState(why.clone())),
            (None, None) => Err(Error::WriterState("the writer was closed".into())),
            _ => Ok(()),
        }
    }

    /// Writes one record. A record that cannot be converted returns its
    /// error and is left out entirely; the writer stays usable.
    pub fn write(&mut self, record: &T) -> Result<()> {
        self.usable()?;
        let converter = &self.converter;
        self.sink.record(|sink| converter.write(record, sink))?;
        self.rows += 1;
        let in_group = self.group.as_ref().map_or(0, |g| g.rows) + self.sink.records();
        if self.sink.records() >= self.batch || in_group >= self.max_rows {
            self.guard(Self::flush_batch)?;
        }
        Ok(())
    }

    /// Writes every record of `records`, stopping at the first error.
    pub fn write_all<'a>(&mut self, records: impl IntoIterator<Item = &'a T>) -> Result<()>
    where
        T: 'a,
    {
        records.into_iter().try_for_each(|r| self.write(r))
    }

    /// Records written so far.
    pub fn rows_written(&self) -> u64 {
        self.rows
    }

    /// Runs a step that touches the encoders or the sink; a failure there
    /// leaves the output in an unknown state, so the writer is marked broken.
    fn guard(&mut self, step: impl FnOnce(&mut Self) -> Result<()>) -> Result<()> {
        let result = step(self);
        if let Err(e) = &result {
            self.broken = Some(e.to_string());
        }
        result
    }

    /// Hands the buffered records to the column writers, closing the row
    /// group when it is full.
    fn flush_batch(&mut self) -> Result<()> {
        if self.sink.records() == 0 {
            return Ok(());
        }
        let group = self.group.get_or_insert_with(|| RowGroup::new(&self.schema, &self.props));
        group.rows += self.sink.records();
        group.raw_bytes += self.sink.raw_bytes();
        group.writers.write(&mut self.sink)?;
        if group.rows >= self.max_rows || group.raw_bytes >= self.max_bytes {
            self.close_group()?;
        }
        Ok(())
    }

    /// Splices the encoded chunks of the current row group into the file.
    fn close_group(&mut self) -> Result<()> {
        let (Some(group), Some(file)) = (self.group.take(), self.file.as_mut()) else { return Ok(()) };
        let results = group.writers.close()?;
        let mut row_group = file.next_row_group()?;
        for (chunk, result) in group.chunks.into_iter().zip(results) {
            let bytes = {
                let mut chunk = chunk.lock().unwrap_or_else(PoisonError::into_inner);
                chunk.flush()?;
                Bytes::from(std::mem::take(chunk.inner_mut()))
            };
            row_group.append_column(&bytes, result)?;
        }
        row_group.close()?;
        Ok(())
    }

    /// Writes what is buffered and the footer; returns the file's metadata.
    /// A writer made by [`create`](ParquetWriter::create) renames its file
    /// to the final name here.
    pub fn close(mut self) -> Result<ParquetMetaData> {
        let (meta, sink) = self.finish()?;
        if let Some(commit) = self.commit.take() {
            commit(sink)?;
        }
        Ok(meta)
    }

    /// Closes the file and returns the sink (the bytes, for a `Vec<u8>`).
    /// For a writer made by [`create`](ParquetWriter::create) the file is
    /// not renamed: use [`close`](Self::close).
    pub fn into_inner(mut self) -> Result<W> {
        self.finish().map(|(_, w)| w)
    }

    fn finish(&mut self) -> Result<(ParquetMetaData, W)> {
        self.usable()?;
        self.guard(|w| {
            w.flush_batch()?;
            w.close_group()
        })?;
        let Some(mut file) = self.file.take() else { return Err(Error::WriterState("the writer was closed".into())) };
        let meta = file.finish()?;
        let sink = file.inner_mut().0.take().ok_or_else(|| Error::WriterState("the sink was already taken".into()))?;
        Ok((meta, sink))
    }
}

/// The caller's sink, taken back out of the file writer once the footer is
/// written (the `parquet` crate only hands it back by writing the footer again).
struct Sink<W>(Option<W>);

impl<W: Write> Write for Sink<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.0 {
            Some(w) => w.write(buf),
            None => Err(io::Error::other("the sink was taken")),
        }
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match &mut self.0 {
            Some(w) => w.write_all(buf),
            None => Err(io::Error::other("the sink was taken")),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        self.0.as_mut().map_or(Ok(()), Write::flush)
    }
}

/// A file written under a temporary name and renamed on commit; removed if
/// dropped uncommitted.
pub struct AtomicFile {
    file: Option<File>,
    temp: PathBuf,
    target: PathBuf,
}

impl AtomicFile {
    fn new(target: &Path) -> io::Result<Self> {
        let dir = target.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let name =
            target.file_name().ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "path has no file name"))?;
        let temp = dir.join(format!(".{}.{}.tmp", name.to_string_lossy(), std::process::id()));
        let file = File::create(&temp)?;
        Ok(AtomicFile { file: Some(file), temp, target: target.to_owned() })
    }

    fn commit(mut self) -> io::Result<()> {
        if let Some(file) = self.file.take() {
            file.sync_all()?;
        }
        std::fs::rename(&self.temp, &self.target)
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.file {
            Some(f) => f.write(buf),
            None => Err(io::Error::other("file already committed")),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        self.file.as_mut().map_or(Ok(()), Write::flush)
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            let _ = std::fs::remove_file(&self.temp);
        }
    }
}
