//! The reader builder: the footer is read and checked once, then readers of
//! any row groups, on any thread, share it and the resolved plan.

use std::fs::File;
use std::path::Path;
use std::sync::Arc;

use parquet::bloom_filter::Sbbf;
use parquet::file::metadata::ParquetMetaData;
use parquet::file::page_index::column_index::ColumnIndexMetaData;
use parquet::file::page_index::index_reader::{decode_column_index, decode_offset_index};
use parquet::file::page_index::offset_index::OffsetIndexMetaData;
use parquet::file::reader::ChunkReader;
use parquet::schema::types::{SchemaDescriptor, TypePtr};

use super::{CheckedMetadata, FileRowGroups, Limits, ParquetReader};
use crate::error::Result;
use crate::filter::{page_selection, verdict, BloomFilters, FilterCounts, PageIndexes, Predicate, Verdict};
use crate::guard::catch;
use crate::read::constant_columns::ConstantColumns;
use crate::read::selection::Selection;
use crate::read::{Resolved, DEFAULT_BATCH_SIZE};
use crate::record::{Derived, ParquetRecord, RecordRead};
use crate::ParquetRead;

/// Settings of the readers of one file, over its checked metadata; made by
/// [`ParquetReader::builder`]. Cloning it shares the input and the metadata:
/// readers of the row groups of one file on several threads neither re-read
/// the footer nor, with [`resolve`](Self::resolve) and
/// [`build_resolved`](Self::build_resolved), re-resolve the type.
///
/// ```
/// use magnolify_parquet::{ParquetReader, ParquetType, ParquetWriter};
///
/// #[derive(ParquetType, Debug, PartialEq)]
/// struct Reading { sensor: String, value: f64 }
///
/// let mut w = ParquetWriter::<Reading, _>::new(Vec::new())?;
/// w.write(&Reading { sensor: "a".into(), value: 1.5 })?;
/// let file = bytes::Bytes::from(w.into_inner()?);
///
/// let reader = ParquetReader::builder(file)?
///     .with_batch_size(256)
///     .with_max_page_bytes(64 << 20)
///     .build::<Reading>()?;
/// assert_eq!(reader.metadata().file_metadata().num_rows(), 1);
/// # Ok::<(), magnolify_parquet::Error>(())
/// ```
pub struct ReaderBuilder<R> {
    input: Arc<R>,
    metadata: CheckedMetadata,
    row_groups: Option<Vec<usize>>,
    batch_size: usize,
    threads: usize,
    limits: Limits,
    verify_checksums: bool,
    file: Option<Arc<Path>>,
    /// The rows of some row groups to decode (set by a filtered build).
    selection: Selection,
    /// Columns the file's path gives (a dataset's partition fields).
    constants: Option<Arc<ConstantColumns>>,
}

impl<R> Clone for ReaderBuilder<R> {
    fn clone(&self) -> Self {
        ReaderBuilder {
            input: self.input.clone(),
            metadata: self.metadata.clone(),
            row_groups: self.row_groups.clone(),
            batch_size: self.batch_size,
            threads: self.threads,
            limits: self.limits,
            verify_checksums: self.verify_checksums,
            selection: self.selection.clone(),
            file: self.file.clone(),
            constants: self.constants.clone(),
        }
    }
}

impl ReaderBuilder<File> {
    /// Opens the file at `path`; errors name it.
    pub fn open(path: impl AsRef<Path>) -> Result<Self> {
        let path: Arc<Path> = Arc::from(path.as_ref());
        let located = |e: crate::Error| e.in_file(&Some(path.clone()));
        let file = File::open(&path).map_err(|e| located(e.into()))?;
        let mut builder = ReaderBuilder::new(file).map_err(located)?;
        builder.file = Some(path);
        Ok(builder)
    }
}

impl<R: ChunkReader + 'static> ReaderBuilder<R> {
    /// Reads and checks the footer of `input`.
    pub fn new(input: R) -> Result<Self> {
        Self::reading(input, true)
    }

    /// Reads and checks the footer of `input`, which may hold only the end
    /// of the file (the leading magic is not read): an object store's first
    /// fetch. [`with_input`](Self::with_input) then gives the rest.
    #[cfg(feature = "object_store")]
    pub(crate) fn from_tail(input: R) -> Result<Self> {
        Self::reading(input, false)
    }

    /// The same settings and metadata over `input`: more of the same file.
    #[cfg(feature = "object_store")]
    pub(crate) fn with_input(self, input: R) -> Self {
        ReaderBuilder { input: Arc::new(input), ..self }
    }

    /// The input.
    #[cfg(feature = "object_store")]
    pub(crate) fn input(&self) -> &R {
        &self.input
    }

    /// The row groups chosen by [`with_row_groups`](Self::with_row_groups).
    #[cfg(feature = "object_store")]
    pub(crate) fn row_groups(&self) -> Option<&[usize]> {
        self.row_groups.as_deref()
    }

    fn reading(input: R, head: bool) -> Result<Self> {
        let metadata = CheckedMetadata::read(&input, head)?;
        Ok(ReaderBuilder {
            input: Arc::new(input),
            metadata,
            row_groups: None,
            batch_size: DEFAULT_BATCH_SIZE,
            threads: crate::read::default_threads(),
            limits: Limits::DEFAULT,
            verify_checksums: true,
            file: None,
            selection: Selection::default(),
            constants: None,
        })
    }

    /// Reads the top-level fields `fields` (schema nodes of the record
    /// type, each with its value PLAIN-encoded, `None` for a null) as
    /// columns of the file that hold that value in every record: a
    /// dataset file's partition fields, which its path holds.
    pub(crate) fn with_constant_columns(mut self, fields: Vec<(TypePtr, Option<Vec<u8>>)>) -> Result<Self> {
        self.constants = match fields.is_empty() {
            true => None,
            false => Some(Arc::new(ConstantColumns::new(self.metadata.schema(), fields)?)),
        };
        Ok(self)
    }

    /// The file's metadata, checked.
    pub fn metadata(&self) -> &CheckedMetadata {
        &self.metadata
    }

    /// The file's schema (with the partition fields of a dataset's file).
    pub fn schema(&self) -> &Arc<SchemaDescriptor> {
        match &self.constants {
            Some(constants) => constants.schema(),
            None => self.metadata.schema(),
        }
    }

    /// Reads only these row groups, in this order (checked when building).
    pub fn with_row_groups(mut self, row_groups: Vec<usize>) -> Self {
        self.row_groups = Some(row_groups);
        self
    }

    /// Threads that read (default: the machine's available parallelism).
    /// With 2 or more, that many threads of the reader's own take turns
    /// decoding the next batch and assemble the batches they decoded in
    /// parallel, while the caller's thread takes the records in file order;
    /// with 1, everything runs on the caller's thread and no thread is
    /// started. Records come in file order either way.
    ///
    /// ```
    /// use magnolify_parquet::{ParquetReader, ParquetType, ParquetWriter};
    ///
    /// #[derive(ParquetType, Debug, PartialEq)]
    /// struct Tick { n: u32 }
    ///
    /// let ticks: Vec<Tick> = (0..5000).map(|n| Tick { n }).collect();
    /// let mut w = ParquetWriter::<Tick, _>::new(Vec::new())?;
    /// w.write_all(&ticks)?;
    /// let file = bytes::Bytes::from(w.into_inner()?);
    ///
    /// let back: Vec<Tick> =
    ///     ParquetReader::builder(file)?.with_threads(2).with_batch_size(100).build()?.collect::<Result<_, _>>()?;
    /// assert_eq!(back, ticks);
    /// # Ok::<(), magnolify_parquet::Error>(())
    /// ```
    pub fn with_threads(mut self, threads: usize) -> Self {
        self.threads = threads.max(1);
        self
    }

    /// Records decoded at once (default 1024; at least 1, checked when building).
    pub fn with_batch_size(mut self, records: usize) -> Self {
        self.batch_size = records;
        self
    }

    /// Largest page accepted, in uncompressed bytes (default 256 MiB). The
    /// `parquet` crate reserves a page's claimed size before decompressing
    /// it; a page header claiming more than this is refused as damaged.
    /// Raise it only for files with single values near that size; lower it
    /// to bound memory on untrusted input.
    ///
    /// ```
    /// use magnolify_parquet::{ParquetReader, ParquetType, ParquetWriter};
    ///
    /// #[derive(ParquetType, Debug, PartialEq)]
    /// struct Blob { data: Vec<u8> }
    ///
    /// let mut w = ParquetWriter::<Blob, _>::builder().dictionary(false).build(Vec::new())?;
    /// w.write(&Blob { data: vec![7; 4096] })?;
    /// let file = bytes::Bytes::from(w.into_inner()?);
    ///
    /// let mut strict = ParquetReader::builder(file.clone())?.with_max_page_bytes(1024).build::<Blob>()?;
    /// assert!(strict.next().unwrap().unwrap_err().to_string().contains("with_max_page_bytes"));
    /// let mut default = ParquetReader::<Blob, _>::new(file)?;
    /// assert_eq!(default.next().unwrap()?.data.len(), 4096);
    /// # Ok::<(), magnolify_parquet::Error>(())
    /// ```
    pub fn with_max_page_bytes(mut self, bytes: usize) -> Self {
        self.limits.max_page_bytes = bytes as u64;
        self
    }

    /// Most levels (values, nulls and empty lists) one column may hold in a
    /// page, or hand to one batch of records (default 2^27). Run-length
    /// encoding lets a few bytes of a damaged page stand for billions of
    /// levels, which a reader must materialise to find where a record ends;
    /// this caps them. Raise it for records holding more values than this in
    /// one column; lower it (with [`with_batch_size`](Self::with_batch_size))
    /// to bound memory on untrusted input.
    pub fn with_max_levels(mut self, levels: usize) -> Self {
        self.limits.max_levels = levels as u64;
        self
    }

    /// Whether to check the CRC32 checksum of every page that has one
    /// before decoding it (default: yes). A page whose bytes do not match
    /// its checksum is an error naming its row group, column and page
    /// (counted from 0 in the column chunk, the dictionary page first), so
    /// a damaged page is never decoded into wrong records. Pages written
    /// without a checksum (the format makes it optional) are read
    /// unchecked. In a column chunk whose pages have checksums, the value
    /// counts of the data pages (which no checksum covers) must also add up
    /// to the chunk's count in the footer. Turning this off skips both,
    /// saves one pass over the page bytes (and, for a `File`, one more read
    /// of them); use it to salvage what a damaged file still holds. (Should
    /// another crate of the build turn on the `parquet` crate's own `crc`
    /// feature, that crate checks the checksums too, whatever this says.)
    ///
    /// ```
    /// use magnolify_parquet::{ParquetReader, ParquetType, ParquetWriter};
    ///
    /// #[derive(ParquetType, Debug, PartialEq)]
    /// struct Reading { sensor: String, value: f64 }
    ///
    /// let mut w = ParquetWriter::<Reading, _>::new(Vec::new())?;
    /// w.write(&Reading { sensor: "t1".into(), value: 21.5 })?;
    /// let mut file = w.into_inner()?;
    /// // Flip a bit of the value 21.5 where its page (the dictionary) stores it.
    /// let at = file.windows(8).position(|w| w == 21.5f64.to_le_bytes()).unwrap();
    /// file[at + 7] ^= 0x01;
    /// let file = bytes::Bytes::from(file);
    ///
    /// let checked = ParquetReader::builder(file.clone())?.build::<Reading>()?.next().unwrap();
    /// assert!(checked.unwrap_err().to_string().contains("CRC32"));
    /// let unchecked = ParquetReader::builder(file)?.verify_page_checksums(false).build::<Reading>()?.next().unwrap()?;
    /// assert_ne!(unchecked.value, 21.5);
    /// # Ok::<(), magnolify_parquet::Error>(())
    /// ```
    pub fn verify_page_checksums(mut self, verify: bool) -> Self {
        self.verify_checksums = verify;
        self
    }

    /// Resolves `T` against the file's schema, for readers made with
    /// [`build_resolved`](Self::build_resolved) (wrap it in an `Arc` to share it).
    pub fn resolve<T: ParquetRecord + ParquetRead>(&self) -> Result<Resolved<Derived<T>>> {
        self.resolve_with(Derived::new())
    }

    /// Resolves any converter against the file's schema.
    pub fn resolve_with<C: RecordRead>(&self, converter: C) -> Result<Resolved<C>> {
        Resolved::new(converter, self.schema()).map_err(|e| e.in_file(&self.file))
    }

    /// A reader of `T`.
    pub fn build<T: ParquetRecord + ParquetRead + Send + 'static>(self) -> Result<ParquetReader<T, R>> {
        self.build_with(Derived::new())
    }

    /// A reader of the records of `T` that pass `predicate`, in file order:
    /// row groups whose statistics rule out every record are not read, and
    /// the records of the others are tested after assembly. See
    /// [`crate::filter`]; [`ParquetReader::filter_counts`] tells what was
    /// skipped.
    ///
    /// ```
    /// use magnolify_parquet::{ParquetReader, ParquetType, ParquetWriter};
    ///
    /// #[derive(ParquetType, Debug, PartialEq)]
    /// struct Reading { sensor: String, value: i64 }
    ///
    /// let mut w = ParquetWriter::<Reading, _>::builder().max_row_group_rows(10).build(Vec::new())?;
    /// w.write_all(&(0..100).map(|value| Reading { sensor: format!("s{}", value % 3), value }).collect::<Vec<_>>())?;
    /// let file = bytes::Bytes::from(w.into_inner()?);
    ///
    /// let f = Reading::fields();
    /// let reader = ParquetReader::builder(file)?.build_filtered(f.value.ge(95).and(f.sensor.ne("s0".into())))?;
    /// let values: Vec<i64> = reader.map(|r| r.map(|r| r.value)).collect::<Result<_, _>>()?;
    /// assert_eq!(values, [95, 97, 98]);
    /// # Ok::<(), magnolify_parquet::Error>(())
    /// ```
    pub fn build_filtered<T: ParquetRecord + ParquetRead + Send + 'static>(
        mut self,
        predicate: Predicate<T>,
    ) -> Result<ParquetReader<T, R>> {
        let file = self.metadata.shared().clone();
        let total = file.num_row_groups();
        let selected = self.row_groups.take().unwrap_or_else(|| (0..total).collect());
        let blooms = FileBloomFilters { input: &*self.input, file: &file, max_bytes: self.limits.max_page_bytes };
        let mut counts = FilterCounts::default();
        let mut kept = Vec::with_capacity(selected.len());
        let mut skipped = Vec::new();
        for index in selected {
            // An index out of range stays, for the reader to refuse.
            let verdict = if index < total { verdict(&predicate.node, &file, index, &blooms) } else { Verdict::Read };
            match verdict {
                Verdict::Read => kept.push(index),
                Verdict::SkipByStatistics => skipped.push(index),
                Verdict::SkipByBloomFilters => {
                    skipped.push(index);
                    counts.row_groups_skipped_by_bloom_filters += 1;
                }
            }
        }
        counts.row_groups_read = kept.len();
        counts.row_groups_skipped = skipped.len();
        // Inside the row groups read, the rows the page index leaves.
        let indexes = FilePageIndexes { input: &*self.input, file: &file, max_bytes: self.limits.max_page_bytes };
        let mut selection = Selection::default();
        for &group in kept.iter().filter(|&&g| g < total) {
            if let Some(rows) = page_selection(&predicate.node, &file, group, &indexes) {
                selection.groups.insert(group, rows);
            }
        }
        let skips = selection.counts.clone();
        self.selection = selection;
        self.row_groups = Some(kept.clone());
        let reader = self.build::<T>()?;
        let file = &file;
        let bytes = |groups: &[usize]| -> u64 {
            // Constant columns (after the file's own) have no chunks.
            let stored = file.file_metadata().schema_descr().num_columns();
            let chunks = groups.iter().filter(|&&g| g < total).flat_map(|&g| {
                let columns = reader.projected_columns().iter().filter(move |&&c| c < stored);
                columns.map(move |&c| file.row_group(g).column(c).compressed_size())
            });
            chunks.map(|size| u64::try_from(size).unwrap_or(0)).sum()
        };
        counts.column_bytes_read = bytes(&kept);
        counts.column_bytes_skipped = bytes(&skipped);
        Ok(reader.with_filter(predicate, counts, skips))
    }

    /// A reader through any converter (the Avro baseline's, for example).
    pub fn build_with<C>(self, converter: C) -> Result<ParquetReader<C::Record, R, C>>
    where
        C: RecordRead + Send + Sync + 'static,
        C::Record: Send + 'static,
    {
        let resolved = Arc::new(self.resolve_with(converter)?);
        self.build_resolved(resolved)
    }

    /// A reader with a plan resolved before (by this builder or a clone of
    /// it, or for a file of the same schema).
    pub fn build_resolved<C>(self, resolved: Arc<Resolved<C>>) -> Result<ParquetReader<C::Record, R, C>>
    where
        C: RecordRead + Send + Sync + 'static,
        C::Record: Send + 'static,
    {
        let ReaderBuilder {
            input,
            metadata,
            row_groups,
            batch_size,
            threads,
            limits,
            verify_checksums,
            file,
            selection,
            constants,
        } = self;
        let source = FileRowGroups { input, metadata, limits, verify_checksums, constants };
        let reader = ParquetReader::from_parts(source, resolved, row_groups, batch_size, file, selection)?;
        reader.with_threads(threads)
    }
}

/// The bloom filters of a file's column chunks, read when asked. One that
/// cannot be read (damaged, larger than a page may be, or without its
/// length in the footer, which older writers leave out and without which
/// its header alone would say how much to read) is treated as absent: it
/// prunes nothing, and the records are read and tested.
struct FileBloomFilters<'a, R> {
    input: &'a R,
    file: &'a ParquetMetaData,
    max_bytes: u64,
}

impl<R: ChunkReader> BloomFilters for FileBloomFilters<'_, R> {
    fn bloom_filter(&self, group: usize, column: usize) -> Option<Arc<Sbbf>> {
        let chunk = self.file.row_group(group).column(column);
        let length = chunk.bloom_filter_length().and_then(|l| u64::try_from(l).ok())?;
        if length > self.max_bytes {
            return None;
        }
        let filter = catch(|| Sbbf::read_from_column_chunk(chunk, self.input)).ok()?.ok()??;
        // The format's filters hold a power of two of 32-byte blocks; one
        // cut short (its length in the footer too small) would look values
        // up in the wrong blocks and call them absent.
        let blocks = filter.num_blocks();
        (blocks >= 1 && blocks.is_power_of_two()).then(|| Arc::new(filter))
    }
}

/// The page indexes of a file's column chunks, read when asked. One that
/// cannot be read (damaged, or larger than a page may be) is treated as
/// absent: the chunk's pages are not pruned.
struct FilePageIndexes<'a, R> {
    input: &'a R,
    file: &'a ParquetMetaData,
    max_bytes: u64,
}

impl<R: ChunkReader> FilePageIndexes<'_, R> {
    fn bytes(&self, offset: Option<i64>, length: Option<i32>) -> Option<bytes::Bytes> {
        let offset = u64::try_from(offset?).ok()?;
        let length = u64::try_from(length?).ok().filter(|&l| l <= self.max_bytes)?;
        catch(|| self.input.get_bytes(offset, usize::try_from(length).ok()?).ok()).ok()?
    }
}

impl<R: ChunkReader> PageIndexes for FilePageIndexes<'_, R> {
    fn page_index(&self, group: usize, column: usize) -> Option<(Arc<ColumnIndexMetaData>, Arc<OffsetIndexMetaData>)> {
        let chunk = self.file.row_group(group).column(column);
        let columns = self.bytes(chunk.column_index_offset(), chunk.column_index_length())?;
        let offsets = self.bytes(chunk.offset_index_offset(), chunk.offset_index_length())?;
        let physical = chunk.column_type();
        let column_index = catch(|| decode_column_index(&columns, physical)).ok()?.ok()?;
        let offset_index = catch(|| decode_offset_index(&offsets)).ok()?.ok()?;
        Some((Arc::new(column_index), Arc::new(offset_index)))
    }
}
