//! The writer builder: the settings of a file writer (the `parquet`
//! crate's writer properties, the footer's pairs, bloom filters, sorting
//! columns, threads), turned into a [`ParquetWriter`] over any sink.

use std::io::Write;
use std::marker::PhantomData;
use std::path::Path;

use parquet::basic::Compression;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::{EnabledStatistics, WriterProperties, WriterPropertiesBuilder, WriterVersion};

use super::ParquetWriter;
use crate::engines::Engine;
use crate::error::Result;
use crate::file::disk::Disk;
use crate::file::AtomicFile;
use crate::filter::Field;
use crate::options::BloomFilterSpec;
use crate::record::{Derived, ParquetRecord, RecordWrite};
use crate::write::DEFAULT_WRITE_BATCH;

/// Most raw bytes (values and levels as shredded) in a row group, unless
/// the writer is told otherwise.
pub const DEFAULT_MAX_ROW_GROUP_BYTES: usize = 128 * 1024 * 1024;

/// Settings of a [`ParquetWriter`]: the `parquet` crate's writer properties
/// (codec, dictionary, statistics, page and row-group sizes) and the
/// footer's key/value pairs.
///
/// ```
/// use magnolify_parquet::{ParquetType, WriterBuilder};
/// use parquet::basic::{Compression, ZstdLevel};
/// use parquet::file::properties::EnabledStatistics;
///
/// #[derive(ParquetType)]
/// struct Event { id: u64, name: String }
///
/// let mut w = WriterBuilder::<Event>::new()
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
/// type ([`new`](Self::new)), or the record type of a converter
/// ([`with_converter`](Self::with_converter)).
#[must_use = "a builder does nothing until it builds"]
pub struct WriterBuilder<T, C: RecordWrite = Derived<T>> {
    pub(super) converter: C,
    pub(super) props: WriterPropertiesBuilder,
    pub(super) batch: usize,
    pub(super) threads: usize,
    pub(super) key_values: Vec<KeyValue>,
    pub(super) page_checksums: bool,
    pub(super) readable_by: Vec<Engine>,
    pub(super) bloom_filters: Vec<(String, BloomFilterSpec)>,
    /// Field paths the records are sorted by, with (descending, nulls first).
    pub(super) sorted_by: Vec<(String, bool, bool)>,
    /// Top-level fields shredded but not stored (a dataset's partition fields).
    pub(super) omitted: Vec<String>,
    _record: PhantomData<fn(&T)>,
}

impl<T: ParquetRecord> WriterBuilder<T> {
    /// The settings of a writer of the derived type `T`, with the
    /// defaults: uncompressed, dictionary on, page statistics, 1 Mi rows
    /// and 128 MiB of raw data per row group; `build(sink)` or
    /// `create(path)` makes the writer.
    pub fn new() -> Self {
        Self::named(Derived::new())
    }
}

impl<T: ParquetRecord> Default for WriterBuilder<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<C: RecordWrite> WriterBuilder<C::Record<'static>, C> {
    /// The settings of a writer through any converter (the Avro
    /// baseline's, for example), with the defaults of [`new`](WriterBuilder::new).
    pub fn with_converter(converter: C) -> Self {
        Self::named(converter)
    }
}

impl<T, C: RecordWrite> WriterBuilder<T, C> {
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
    /// use magnolify_parquet::{ParquetType, WriterBuilder};
    ///
    /// #[derive(ParquetType)]
    /// struct Event { id: u64, name: String }
    ///
    /// let mut w = WriterBuilder::<Event>::new().threads(1).build(Vec::new())?;
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
    /// use magnolify_parquet::{ParquetType, WriterBuilder};
    ///
    /// #[derive(ParquetType)]
    /// struct Event { id: u64 }
    ///
    /// let file = |checksums| -> magnolify_parquet::Result<Vec<u8>> {
    ///     let mut w = WriterBuilder::<Event>::new().page_checksums(checksums).build(Vec::new())?;
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
    /// use magnolify_parquet::{Error, ParquetType, WriterBuilder};
    ///
    /// #[derive(ParquetType)]
    /// struct Reading { sensor: String, value: f64, raw: u64 }
    ///
    /// // Spark reads `raw` as DECIMAL(20,0): readable.
    /// let w = WriterBuilder::<Reading>::new().readable_by(Engine::Spark).build(Vec::new());
    /// assert!(w.is_ok());
    ///
    /// # #[cfg(feature = "uuid")] {
    /// #[derive(ParquetType)]
    /// struct Tagged { id: uuid::Uuid, value: f64 }
    ///
    /// let refused = WriterBuilder::<Tagged>::new().readable_by(Engine::Spark).build(Vec::new());
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
    /// use magnolify_parquet::{ParquetType, ReadOptions, ReaderBuilder, WriterBuilder};
    ///
    /// #[derive(ParquetType, Debug, PartialEq)]
    /// struct Visit { user: String, page: String }
    ///
    /// let visits: Vec<Visit> = (0..400).map(|i| Visit { user: format!("u{}", i % 97), page: format!("p{i}") }).collect();
    /// let mut w = WriterBuilder::<Visit>::new()
    ///     .bloom_filter(&Visit::fields().page)
    ///     .max_row_group_rows(100)
    ///     .build(Vec::new())?;
    /// w.write_all(&visits)?;
    /// let file = bytes::Bytes::from(w.into_inner()?);
    ///
    /// // "p150" is in row group 1; groups 2 and 3 ("p200".."p399") are ruled
    /// // out by their min and max, group 0 ("p0".."p99", a range that holds
    /// // "p150" as text) only by its bloom filter.
    /// let mut reader = ReaderBuilder::new(file)?.build(ReadOptions::default().filter(Visit::fields().page.eq("p150")))?;
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
    /// use magnolify_parquet::{ParquetType, WriterBuilder};
    ///
    /// #[derive(ParquetType)]
    /// struct Event { day: u32, seq: u64 }
    ///
    /// let f = Event::fields();
    /// let mut w = WriterBuilder::<Event>::new().sorted_by(&f.day).sorted_by_descending(&f.seq).build(Vec::new())?;
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
        self.create_on(&Disk::default(), path.as_ref())
    }

    /// [`create`](Self::create) with the file operations going to `disk`.
    pub(crate) fn create_on(self, disk: &Disk, path: &Path) -> Result<ParquetWriter<T, AtomicFile, C>> {
        let file = AtomicFile::new(disk, path)?;
        Ok(ParquetWriter::from_builder(self, file, Some(AtomicFile::commit))?.at_path(path))
    }
}
