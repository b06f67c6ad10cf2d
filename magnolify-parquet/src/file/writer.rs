//! The file writer: the one record writer of [`crate::write`] over a file
//! as its chunk sink, with the settings of a [`WriterBuilder`].

use std::io::{self, Write};
use std::marker::PhantomData;
use std::path::Path;
use std::sync::Arc;

use parquet::basic::Compression;
use parquet::file::metadata::{KeyValue, ParquetMetaData};
use parquet::file::properties::{EnabledStatistics, WriterProperties, WriterPropertiesBuilder, WriterVersion};
use parquet::file::writer::SerializedFileWriter;

use super::atomic::AtomicFile;
use super::chunks::{FileChunks, Sink};
use super::field_columns::{with_bloom_filters, with_sorting_columns};
use crate::engines::{require_readable, Engine};
use crate::error::{Error, Result};
use crate::filter::Field;
use crate::options::BloomFilterSpec;
use crate::record::{Derived, ParquetRecord, RecordWrite};
use crate::write::{RecordWriter, DEFAULT_WRITE_BATCH};

/// Most raw bytes (values and levels as shredded) in a row group, unless
/// the writer is told otherwise.
pub const DEFAULT_MAX_ROW_GROUP_BYTES: usize = 128 * 1024 * 1024;

/// Settings of a [`ParquetWriter`]: the `parquet` crate's writer properties
/// (codec, dictionary, statistics, page and row-group sizes) and the
/// footer's key/value pairs.
///
/// ```
/// use magnolify_parquet::{ParquetType, ParquetWriter};
/// use parquet::basic::{Compression, ZstdLevel};
/// use parquet::file::properties::EnabledStatistics;
///
/// #[derive(ParquetType)]
/// struct Event { id: u64, name: String }
///
/// let mut w = ParquetWriter::<Event, _>::builder()
///     .compression(Compression::ZSTD(ZstdLevel::default()))
///     .max_row_group_rows(10_000)
///     .data_page_size(256 * 1024)
///     .statistics(EnabledStatistics::Page)
///     .key_value("origin", "doc test")
///     .build(Vec::new())?;
/// w.write(&Event { id: 1, name: "start".into() })?;
/// let meta = w.close()?;
/// assert_eq!(meta.file_metadata().num_rows(), 1);
/// # Ok::<(), magnolify_parquet::Error>(())
/// ```
///
/// `T` names the writer's type ([`ParquetWriter<T, W, C>`]): the derived
/// type, or the record type of a dynamic converter.
pub struct WriterBuilder<C: RecordWrite, T = <C as RecordWrite>::Record<'static>> {
    converter: C,
    props: WriterPropertiesBuilder,
    batch: usize,
    threads: usize,
    key_values: Vec<KeyValue>,
    page_checksums: bool,
    readable_by: Vec<Engine>,
    bloom_filters: Vec<(String, BloomFilterSpec)>,
    /// Field paths the records are sorted by, with (descending, nulls first).
    sorted_by: Vec<(String, bool, bool)>,
    /// Top-level fields shredded but not stored (a dataset's partition fields).
    omitted: Vec<String>,
    _record: PhantomData<fn(&T)>,
}

impl<C: RecordWrite> WriterBuilder<C> {
    /// The settings of a writer through any converter, with the defaults:
    /// uncompressed, dictionary on, page statistics, 1 Mi rows and 128 MiB
    /// of raw data per row group.
    pub fn new(converter: C) -> Self {
        Self::named(converter)
    }
}

impl<C: RecordWrite, T> WriterBuilder<C, T> {
    fn named(converter: C) -> Self {
        WriterBuilder {
            converter,
            props: WriterProperties::builder()
                .set_created_by(concat!("magnolify-parquet-rs ", env!("CARGO_PKG_VERSION")).to_owned())
                .set_max_row_group_bytes(Some(DEFAULT_MAX_ROW_GROUP_BYTES)),
            batch: DEFAULT_WRITE_BATCH,
            threads: crate::read::default_threads(),
            key_values: Vec::new(),
            page_checksums: true,
            readable_by: Vec::new(),
            bloom_filters: Vec::new(),
            sorted_by: Vec::new(),
            omitted: Vec::new(),
            _record: PhantomData,
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

    /// Most records in a row group (at least 1). The same as the
    /// properties' `max_row_group_row_count`.
    pub fn max_row_group_rows(mut self, rows: usize) -> Self {
        self.props = self.props.set_max_row_group_row_count(Some(rows.max(1)));
        self
    }

    /// Most bytes in a row group (at least 1), estimated as the raw size
    /// of the values and levels shredded: above the encoded size for
    /// dictionary-encoded or compressed data. The same as the properties'
    /// `max_row_group_bytes`.
    pub fn max_row_group_bytes(mut self, bytes: usize) -> Self {
        self.props = self.props.set_max_row_group_bytes(Some(bytes.max(1)));
        self
    }

    /// Records shredded before they go to the column writers.
    pub fn batch_size(mut self, records: usize) -> Self {
        self.batch = records.max(1);
        self
    }

    /// Threads that encode (default: the machine's available parallelism).
    /// With 2 or more, the column chunks of each batch are encoded in
    /// parallel; with 1, everything runs on the caller's thread and no
    /// thread is started. The file is the same either way.
    ///
    /// ```
    /// use magnolify_parquet::{ParquetType, ParquetWriter};
    ///
    /// #[derive(ParquetType)]
    /// struct Event { id: u64, name: String }
    ///
    /// let mut w = ParquetWriter::<Event, _>::builder().threads(1).build(Vec::new())?;
    /// w.write(&Event { id: 1, name: "one thread".into() })?;
    /// assert_eq!(w.close()?.file_metadata().num_rows(), 1);
    /// # Ok::<(), magnolify_parquet::Error>(())
    /// ```
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = threads.max(1);
        self
    }

    /// The `created_by` string of the footer.
    pub fn created_by(mut self, created_by: impl Into<String>) -> Self {
        self.props = self.props.set_created_by(created_by.into());
        self
    }

    /// Whether every page header carries the CRC32 checksum of its page
    /// (default: yes), as parquet-java writes them: readers that verify
    /// checksums (this library's, parquet-java's, Arrow C++'s when asked)
    /// then refuse a damaged page instead of decoding wrong values from it.
    /// The checksum covers the page's bytes as stored (after compression);
    /// computing it costs one pass over them, and it takes 2 to 6 bytes of
    /// each page header.
    ///
    /// ```
    /// use magnolify_parquet::{ParquetType, ParquetWriter};
    ///
    /// #[derive(ParquetType)]
    /// struct Event { id: u64 }
    ///
    /// let file = |checksums| -> magnolify_parquet::Result<Vec<u8>> {
    ///     let mut w = ParquetWriter::<Event, _>::builder().page_checksums(checksums).build(Vec::new())?;
    ///     w.write(&Event { id: 7 })?;
    ///     w.into_inner()
    /// };
    /// // One dictionary page and one data page, 2 to 6 bytes more each.
    /// let grown = file(true)?.len() - file(false)?.len();
    /// assert!((4..=12).contains(&grown), "{grown}");
    /// # Ok::<(), magnolify_parquet::Error>(())
    /// ```
    pub fn page_checksums(mut self, enabled: bool) -> Self {
        self.page_checksums = enabled;
        self
    }

    /// Refuses, when the writer is made, a schema with a column `engine`
    /// cannot read (by the rules of [`crate::engines`], the command-line
    /// tool's `check`): the error names each such column, why, and what to
    /// change. Columns the engine reads as another type (unsigned integers
    /// in Spark, for example) pass. Call it once per engine that will read
    /// the files.
    ///
    /// ```
    /// use magnolify_parquet::engines::Engine;
    /// use magnolify_parquet::{Error, ParquetType, ParquetWriter};
    ///
    /// #[derive(ParquetType)]
    /// struct Reading { sensor: String, value: f64, raw: u64 }
    ///
    /// // Spark reads `raw` as DECIMAL(20,0): readable.
    /// let w = ParquetWriter::<Reading, _>::builder().readable_by(Engine::Spark).build(Vec::new());
    /// assert!(w.is_ok());
    ///
    /// # #[cfg(feature = "uuid")] {
    /// #[derive(ParquetType)]
    /// struct Tagged { id: uuid::Uuid, value: f64 }
    ///
    /// let refused = ParquetWriter::<Tagged, _>::builder().readable_by(Engine::Spark).build(Vec::new());
    /// let Err(Error::Schema { location, message }) = refused else { panic!("Spark has no UUID type") };
    /// assert_eq!(location.column.as_deref(), Some("id"));
    /// assert!(message.starts_with("spark cannot read column `id`: Spark has no UUID type"), "{message}");
    /// # }
    /// # Ok::<(), magnolify_parquet::Error>(())
    /// ```
    pub fn readable_by(mut self, engine: Engine) -> Self {
        if !self.readable_by.contains(&engine) {
            self.readable_by.push(engine);
        }
        self
    }

    /// A bloom filter for the column of `field` (a handle of
    /// `T::fields()`), with the writer's default size; or with `fpp` (the
    /// false-positive probability) and `ndv` (distinct values expected in a
    /// row group) through `#[parquet(bloom_filter(fpp = .., ndv = ..))]` on
    /// the field. Readers given an equality on the field then skip the row
    /// groups whose filter says the value is absent.
    ///
    /// ```
    /// use magnolify_parquet::{ParquetType, ParquetWriter, ReadOptions, ReaderBuilder};
    ///
    /// #[derive(ParquetType, Debug, PartialEq)]
    /// struct Visit { user: String, page: String }
    ///
    /// let visits: Vec<Visit> = (0..400).map(|i| Visit { user: format!("u{}", i % 97), page: format!("p{i}") }).collect();
    /// let mut w = ParquetWriter::<Visit, _>::builder()
    ///     .bloom_filter(&Visit::fields().page)
    ///     .max_row_group_rows(100)
    ///     .build(Vec::new())?;
    /// w.write_all(&visits)?;
    /// let file = bytes::Bytes::from(w.into_inner()?);
    ///
    /// // "p150" is in row group 1; groups 2 and 3 ("p200".."p399") are ruled
    /// // out by their min and max, group 0 ("p0".."p99", a range that holds
    /// // "p150" as text) only by its bloom filter.
    /// let mut reader = ReaderBuilder::new(file)?.build(ReadOptions::default().filter(Visit::fields().page.eq("p150".into())))?;
    /// assert_eq!(reader.by_ref().count(), 1);
    /// let counts = reader.counts();
    /// assert_eq!((counts.row_groups_read, counts.row_groups_skipped_by_bloom_filters), (1, 1));
    /// # Ok::<(), magnolify_parquet::Error>(())
    /// ```
    pub fn bloom_filter<F, N>(mut self, field: &Field<T, F, N>) -> Self {
        self.bloom_filters.push((field.path().to_owned(), BloomFilterSpec::default()));
        self
    }

    /// Records that every row group's records are sorted by `field`
    /// (ascending, nulls first), after the fields of earlier calls: the
    /// footer's `sorting_columns`, which engines use to skip sorting. The
    /// writer does not sort; the caller writes records in that order.
    ///
    /// ```
    /// use magnolify_parquet::{ParquetType, ParquetWriter};
    ///
    /// #[derive(ParquetType)]
    /// struct Event { day: u32, seq: u64 }
    ///
    /// let f = Event::fields();
    /// let mut w = ParquetWriter::<Event, _>::builder().sorted_by(&f.day).sorted_by_descending(&f.seq).build(Vec::new())?;
    /// w.write_all(&[Event { day: 1, seq: 9 }, Event { day: 1, seq: 3 }, Event { day: 2, seq: 5 }])?;
    /// let meta = w.close()?;
    /// let sorting = meta.row_group(0).sorting_columns().unwrap();
    /// assert_eq!((sorting[0].column_idx, sorting[0].descending), (0, false));
    /// assert_eq!((sorting[1].column_idx, sorting[1].descending), (1, true));
    /// # Ok::<(), magnolify_parquet::Error>(())
    /// ```
    pub fn sorted_by<F, N>(mut self, field: &Field<T, F, N>) -> Self {
        self.sorted_by.push((field.path().to_owned(), false, true));
        self
    }

    /// As [`sorted_by`](Self::sorted_by), descending (nulls last).
    pub fn sorted_by_descending<F, N>(mut self, field: &Field<T, F, N>) -> Self {
        self.sorted_by.push((field.path().to_owned(), true, false));
        self
    }

    /// A key/value pair for the footer.
    pub fn key_value(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.key_values.push(KeyValue::new(key.into(), value.into()));
        self
    }

    /// Any other setting of the `parquet` crate's writer properties. All
    /// are honoured: the row-group limits as described at
    /// [`max_row_group_rows`](Self::max_row_group_rows) and
    /// [`max_row_group_bytes`](Self::max_row_group_bytes), key/value pairs
    /// next to the converter's own.
    pub fn properties(mut self, f: impl FnOnce(WriterPropertiesBuilder) -> WriterPropertiesBuilder) -> Self {
        self.props = f(self.props);
        self
    }

    /// Leaves the top-level fields `fields` out of the file: the dataset
    /// writer's files, whose paths hold those values.
    pub(crate) fn omitting(mut self, fields: Vec<String>) -> Self {
        self.omitted = fields;
        self
    }

    /// The writer over `sink`.
    pub fn build<W: Write + Send>(self, sink: W) -> Result<ParquetWriter<T, W, C>> {
        ParquetWriter::from_builder(self, sink, None)
    }

    /// The writer of a file at `path`, written atomically (see
    /// [`ParquetWriter::create`]).
    pub fn create(self, path: impl AsRef<Path>) -> Result<ParquetWriter<T, AtomicFile, C>> {
        let file = AtomicFile::new(path.as_ref())?;
        ParquetWriter::from_builder(self, file, Some(AtomicFile::commit))
    }
}

/// Writes records of `T` (through converter `C`) as a Parquet file into `W`.
///
/// Close it with [`close`](Self::close) (or [`into_inner`](Self::into_inner)):
/// a writer dropped without closing leaves an incomplete file. If writing a
/// record fails (a value the schema cannot hold), that record is left out
/// entirely, its error names the field and the record, and the writer goes
/// on. An I/O or encoding error makes the writer unusable; every later call
/// returns [`Error::WriterState`] with that error as its source.
///
/// ```
/// use magnolify_parquet::{ParquetReader, ParquetType, ParquetWriter};
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
    inner: RecordWriter<C, FileChunks<W>>,
    commit: Option<fn(&mut W) -> io::Result<()>>,
    _record: PhantomData<fn(&T)>,
}

impl<T: ParquetRecord, W: Write + Send> ParquetWriter<T, W> {
    /// A writer with default settings.
    pub fn new(sink: W) -> Result<Self> {
        ParquetWriter::<T, Vec<u8>>::builder().build(sink)
    }
}

// In an impl of its own with the sink type fixed, so that
// `ParquetWriter::<T, _>::builder()` infers: the sink is chosen later by
// `WriterBuilder::build`.
impl<T: ParquetRecord> ParquetWriter<T, Vec<u8>> {
    /// A builder for the settings; `build(sink)` or `create(path)` makes the writer.
    pub fn builder() -> WriterBuilder<Derived<T>, T> {
        WriterBuilder::named(Derived::new())
    }
}

impl<T: ParquetRecord> ParquetWriter<T, AtomicFile> {
    /// Writes a file at `path`, atomically: the data goes to a temporary file
    /// in the same directory, renamed to `path` by [`close`](Self::close) or
    /// [`into_inner`](Self::into_inner). A crash or a writer dropped unclosed
    /// never leaves a file under the final name, and leaves an older file
    /// there untouched.
    pub fn create(path: impl AsRef<Path>) -> Result<Self> {
        WriterBuilder::<Derived<T>, T>::named(Derived::new()).create(path)
    }
}

impl<W: Write + Send, C: RecordWrite> ParquetWriter<C::Record<'static>, W, C> {
    /// A writer through any converter (the Avro baseline's, for example),
    /// with default settings; [`WriterBuilder::new`] sets them.
    pub fn with_converter(converter: C, sink: W) -> Result<Self> {
        WriterBuilder::new(converter).build(sink)
    }
}

impl<T, W: Write + Send, C: RecordWrite> ParquetWriter<T, W, C> {
    fn from_builder(
        builder: WriterBuilder<C, T>,
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
        let file = SerializedFileWriter::new(Sink(Some(sink)), schema, props.clone())?;
        let inner = RecordWriter::new(converter, props, batch, FileChunks::new(file, page_checksums))?
            .omitting(&omitted)?
            .with_threads(threads)?;
        Ok(ParquetWriter { inner, commit, _record: PhantomData })
    }

    /// Writes one record. A record that cannot be converted returns its
    /// error and is left out entirely; the writer stays usable.
    pub fn write(&mut self, record: &C::Record<'_>) -> Result<()> {
        self.inner.write(record)
    }

    /// Writes every record of `records`, stopping at the first error.
    pub fn write_all<'a, 'b: 'a>(&mut self, records: impl IntoIterator<Item = &'a C::Record<'b>>) -> Result<()>
    where
        C::Record<'b>: 'a,
    {
        records.into_iter().try_for_each(|r| self.write(r))
    }

    /// Ends the current row group: what is buffered is encoded and written
    /// to the sink, and the next record starts a new row group.
    pub fn flush(&mut self) -> Result<()> {
        self.inner.flush()
    }

    /// Records written so far.
    pub fn rows_written(&self) -> u64 {
        self.inner.rows_written()
    }

    /// Bytes the file holds so far: its row groups written, and the pages
    /// of the open row group encoded so far (the records of the last batch,
    /// not yet encoded, are not counted). What a size limit compares with.
    ///
    /// ```
    /// use magnolify_parquet::{ParquetType, ParquetWriter};
    ///
    /// #[derive(ParquetType)]
    /// struct Event { id: u64 }
    ///
    /// let mut w = ParquetWriter::<Event, _>::builder().max_row_group_rows(100).build(Vec::new())?;
    /// let before = w.bytes_written();
    /// w.write_all(&(0..100).map(|id| Event { id }).collect::<Vec<_>>())?;
    /// assert!(w.bytes_written() > before + 800);
    /// # Ok::<(), magnolify_parquet::Error>(())
    /// ```
    pub fn bytes_written(&self) -> u64 {
        self.inner.sink().bytes_written()
    }

    /// Writes what is buffered and the footer; returns the file's metadata.
    /// A writer made by [`create`](ParquetWriter::create) renames its file
    /// to the final name here.
    pub fn close(mut self) -> Result<ParquetMetaData> {
        self.finish().map(|(meta, _)| meta)
    }

    /// Closes the file like [`close`](Self::close) and returns the sink (the
    /// bytes, for a `Vec<u8>`; the committed file, for a writer made by
    /// [`create`](ParquetWriter::create)).
    pub fn into_inner(mut self) -> Result<W> {
        self.finish().map(|(_, sink)| sink)
    }

    fn finish(&mut self) -> Result<(ParquetMetaData, W)> {
        self.inner.finish()?;
        let (meta, mut sink) = self.inner.sink_mut().finish().inspect_err(|e| self.inner.break_with(e))?;
        if let Some(commit) = self.commit {
            commit(&mut sink).map_err(Error::from)?;
        }
        Ok((meta, sink))
    }
}
