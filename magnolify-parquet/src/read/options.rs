//! The read settings: one value that every reader takes (a file's, a store
//! object's, a dataset's on disk or in a store), so that the same settings
//! read the same records from the same data wherever it lies.

use std::fmt;
use std::sync::Arc;

use crate::filter::Predicate;

/// Caps on what a file's claims may make the reader allocate (see
/// [`ReadOptions::max_page_bytes`] and [`ReadOptions::max_levels`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Limits {
    /// Largest uncompressed page accepted.
    pub(crate) max_page_bytes: u64,
    /// Most levels (values and nulls) of one column in a page, and pulled
    /// from one column by one batch of records.
    pub(crate) max_levels: u64,
}

impl Limits {
    /// Far above what any writer produces (pages are about 1 MiB), far below
    /// the 2 GiB a corrupt header can claim.
    pub(crate) const DEFAULT: Limits = Limits { max_page_bytes: 256 << 20, max_levels: 1 << 27 };
}

/// How to read records of `T`: threads, batch size, allocation limits,
/// checksum checks, which row groups, and which records (a predicate). The
/// record type itself is the projection: only the columns it names are
/// decoded.
///
/// Every reader takes one: [`ReaderBuilder::build`](crate::ReaderBuilder::build)
/// for a file, [`StoreReaderBuilder::build`](crate::store::StoreReaderBuilder::build)
/// for an object in a store, and the builders of
/// [`DatasetReader`](crate::dataset::DatasetReader) and
/// [`StoreDatasetReader`](crate::dataset::StoreDatasetReader) for datasets.
/// `ReadOptions::default()` are the settings [`ParquetReader::new`](crate::ParquetReader::new) uses.
///
/// ```
/// use magnolify_parquet::{ParquetType, ParquetWriter, ReadOptions, ReaderBuilder};
///
/// #[derive(ParquetType, Debug, PartialEq)]
/// struct Reading { sensor: String, value: i64 }
///
/// let mut w = ParquetWriter::<Reading, _>::new(Vec::new())?;
/// w.write_all(&(0..100).map(|value| Reading { sensor: format!("s{}", value % 3), value }).collect::<Vec<_>>())?;
/// let file = bytes::Bytes::from(w.into_inner()?);
///
/// let f = Reading::fields();
/// let options = ReadOptions::default().threads(1).batch_size(256).filter(f.value.ge(95).and(f.sensor.ne("s0")));
/// let reader = ReaderBuilder::new(file)?.build(options)?;
/// let values: Vec<i64> = reader.map(|r| r.map(|r| r.value)).collect::<Result<_, _>>()?;
/// assert_eq!(values, [95, 97, 98]);
/// # Ok::<(), magnolify_parquet::Error>(())
/// ```
pub struct ReadOptions<T> {
    pub(crate) threads: usize,
    pub(crate) batch_size: usize,
    pub(crate) limits: Limits,
    pub(crate) verify_checksums: bool,
    pub(crate) row_groups: Option<Vec<usize>>,
    /// Positions left out, sorted, without repeats.
    pub(crate) skipped_rows: Option<Arc<[u64]>>,
    pub(crate) filter: Option<Predicate<T>>,
}

impl<T> Default for ReadOptions<T> {
    fn default() -> Self {
        ReadOptions {
            threads: super::default_threads(),
            batch_size: super::DEFAULT_BATCH_SIZE,
            limits: Limits::DEFAULT,
            verify_checksums: true,
            row_groups: None,
            skipped_rows: None,
            filter: None,
        }
    }
}

// By hand: a predicate clones whatever `T` is.
impl<T> Clone for ReadOptions<T> {
    fn clone(&self) -> Self {
        ReadOptions {
            threads: self.threads,
            batch_size: self.batch_size,
            limits: self.limits,
            verify_checksums: self.verify_checksums,
            row_groups: self.row_groups.clone(),
            skipped_rows: self.skipped_rows.clone(),
            filter: self.filter.clone(),
        }
    }
}

impl<T> fmt::Debug for ReadOptions<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ReadOptions")
            .field("threads", &self.threads)
            .field("batch_size", &self.batch_size)
            .field("max_page_bytes", &self.limits.max_page_bytes)
            .field("max_levels", &self.limits.max_levels)
            .field("verify_page_checksums", &self.verify_checksums)
            .field("row_groups", &self.row_groups)
            .field("skipped_rows", &self.skipped_rows.as_ref().map(|p| p.len()))
            .field("filter", &self.filter)
            .finish()
    }
}

impl<T> ReadOptions<T> {
    /// Threads that read (default: the machine's available parallelism).
    /// With 2 or more, that many threads of the reader's own take turns
    /// decoding the next batch and assemble the batches they decoded in
    /// parallel (a dataset's reader gives each a file of its own), while the
    /// caller's thread takes the records in order; with 1, everything runs
    /// on the caller's thread and no thread is started. Records come in file
    /// order either way.
    ///
    /// ```
    /// use magnolify_parquet::{ParquetType, ParquetWriter, ReadOptions, ReaderBuilder};
    ///
    /// #[derive(ParquetType, Debug, PartialEq)]
    /// struct Tick { n: u32 }
    ///
    /// let ticks: Vec<Tick> = (0..5000).map(|n| Tick { n }).collect();
    /// let mut w = ParquetWriter::<Tick, _>::new(Vec::new())?;
    /// w.write_all(&ticks)?;
    /// let file = bytes::Bytes::from(w.into_inner()?);
    ///
    /// let options = ReadOptions::default().threads(2).batch_size(100);
    /// let back: Vec<Tick> = ReaderBuilder::new(file)?.build(options)?.collect::<Result<_, _>>()?;
    /// assert_eq!(back, ticks);
    /// # Ok::<(), magnolify_parquet::Error>(())
    /// ```
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = threads.max(1);
        self
    }

    /// Records decoded at once (default 1024; at least 1, checked when building).
    pub fn batch_size(mut self, records: usize) -> Self {
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
    /// use magnolify_parquet::{ParquetReader, ParquetType, ReadOptions, ReaderBuilder, WriterBuilder};
    ///
    /// #[derive(ParquetType, Debug, PartialEq)]
    /// struct Blob { data: Vec<u8> }
    ///
    /// let mut w = WriterBuilder::<Blob>::new().dictionary(false).build(Vec::new())?;
    /// w.write(&Blob { data: vec![7; 4096] })?;
    /// let file = bytes::Bytes::from(w.into_inner()?);
    ///
    /// let mut strict = ReaderBuilder::new(file.clone())?.build::<Blob>(ReadOptions::default().max_page_bytes(1024))?;
    /// assert!(strict.next().unwrap().unwrap_err().to_string().contains("max_page_bytes"));
    /// let mut default = ParquetReader::<Blob, _>::new(file)?;
    /// assert_eq!(default.next().unwrap()?.data.len(), 4096);
    /// # Ok::<(), magnolify_parquet::Error>(())
    /// ```
    pub fn max_page_bytes(mut self, bytes: usize) -> Self {
        self.limits.max_page_bytes = bytes as u64;
        self
    }

    /// Most levels (values, nulls and empty lists) one column may hold in a
    /// page, or hand to one batch of records (default 2^27). Run-length
    /// encoding lets a few bytes of a damaged page stand for billions of
    /// levels, which a reader must materialise to find where a record ends;
    /// this caps them. Raise it for records holding more values than this in
    /// one column; lower it (with [`batch_size`](Self::batch_size)) to bound
    /// memory on untrusted input.
    pub fn max_levels(mut self, levels: usize) -> Self {
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
    /// use magnolify_parquet::{ParquetType, ParquetWriter, ReadOptions, ReaderBuilder};
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
    /// let checked = ReaderBuilder::new(file.clone())?.build::<Reading>(ReadOptions::default())?.next().unwrap();
    /// assert!(checked.unwrap_err().to_string().contains("CRC32"));
    /// let unchecked = ReadOptions::default().verify_page_checksums(false);
    /// let salvaged = ReaderBuilder::new(file)?.build::<Reading>(unchecked)?.next().unwrap()?;
    /// assert_ne!(salvaged.value, 21.5);
    /// # Ok::<(), magnolify_parquet::Error>(())
    /// ```
    pub fn verify_page_checksums(mut self, verify: bool) -> Self {
        self.verify_checksums = verify;
        self
    }

    /// Reads only these row groups of a file, in this order (checked when
    /// building). A dataset's readers refuse it: their files' row groups
    /// are not known before they are opened.
    ///
    /// ```
    /// use magnolify_parquet::{ParquetType, ReadOptions, ReaderBuilder, WriterBuilder};
    ///
    /// #[derive(ParquetType, Debug, PartialEq)]
    /// struct Event { id: u32 }
    ///
    /// let mut w = WriterBuilder::<Event>::new().max_row_group_rows(2).build(Vec::new())?;
    /// w.write_all(&[Event { id: 1 }, Event { id: 2 }, Event { id: 3 }])?;
    /// let file = bytes::Bytes::from(w.into_inner()?);
    ///
    /// let builder = ReaderBuilder::new(file)?;
    /// assert_eq!(builder.metadata().num_row_groups(), 2);
    /// let last: Vec<Event> = builder.build(ReadOptions::default().row_groups(vec![1]))?.collect::<Result<_, _>>()?;
    /// assert_eq!(last, [Event { id: 3 }]);
    /// # Ok::<(), magnolify_parquet::Error>(())
    /// ```
    pub fn row_groups(mut self, row_groups: Vec<usize>) -> Self {
        self.row_groups = Some(row_groups);
        self
    }

    /// Leaves out the records at `positions` of the file (0-based, counted
    /// from its first record across row groups), as Iceberg's position
    /// deletes and a query engine's row selections ask: they are not
    /// assembled (pages holding only such records are not decoded), and
    /// count in [`FilterCounts::records_skipped`](crate::filter::FilterCounts)
    /// (and `pages_skipped`). With a predicate, the other records must also
    /// pass it. Positions past the file's records are ignored. For a reader
    /// of one file: a dataset's or a table's reader gives each of its files
    /// its own.
    ///
    /// ```
    /// use magnolify_parquet::{ParquetType, ReadOptions, ReaderBuilder, WriterBuilder};
    ///
    /// #[derive(ParquetType, Debug, PartialEq)]
    /// struct Event { id: u32 }
    ///
    /// let mut w = WriterBuilder::<Event>::new().max_row_group_rows(3).build(Vec::new())?;
    /// w.write_all(&(0..7).map(|id| Event { id }).collect::<Vec<_>>())?;
    /// let file = bytes::Bytes::from(w.into_inner()?);
    ///
    /// let options = ReadOptions::default().skip_rows([1, 3, 4, 5, 99]);
    /// let kept: Vec<Event> = ReaderBuilder::new(file)?.build(options)?.collect::<Result<_, _>>()?;
    /// assert_eq!(kept, [Event { id: 0 }, Event { id: 2 }, Event { id: 6 }]);
    /// # Ok::<(), magnolify_parquet::Error>(())
    /// ```
    pub fn skip_rows(mut self, positions: impl IntoIterator<Item = u64>) -> Self {
        let mut positions: Vec<u64> = positions.into_iter().collect();
        positions.sort_unstable();
        positions.dedup();
        self.skipped_rows = Some(positions.into());
        self
    }

    /// Reads only the records that pass `predicate`, in file order: row
    /// groups (and a dataset's files) whose statistics, bloom filters or
    /// partition values rule out every record are not read, pages the page
    /// index rules out are not decoded, and the records of the rest are
    /// tested after assembly. See [`crate::filter`]; every reader's
    /// `counts()` tells what was skipped.
    pub fn filter(mut self, predicate: Predicate<T>) -> Self {
        self.filter = Some(predicate);
        self
    }
}
