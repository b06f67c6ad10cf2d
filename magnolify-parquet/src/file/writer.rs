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
/// Close it with [`close`](Self::close) (or [`into_inner`](Self::into_inner)):
/// a writer dropped without closing leaves an incomplete file. If writing a
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
    inner: RecordWriter<C, FileChunks<W>>,
    commit: Option<fn(&mut W) -> io::Result<()>>,
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
        let file = SerializedFileWriter::new(Sink(Some(sink)), schema, props.clone())?;
        let inner = RecordWriter::new(converter, props, batch, FileChunks::new(file, page_checksums))?
            .omitting(&omitted)?
            .threads(threads)?;
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
        self.inner.sink().bytes_written()
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

    /// What both closing calls do: the buffered records, the footer, the
    /// rename of an atomic file.
    fn end(self) -> Result<(ParquetMetaData, W)> {
        let (meta, mut sink) = self.inner.close()?.finish()?;
        if let Some(commit) = self.commit {
            commit(&mut sink).map_err(Error::from)?;
        }
        Ok((meta, sink))
    }
}
