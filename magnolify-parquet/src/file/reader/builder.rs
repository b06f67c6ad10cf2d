//! The reader builder: the footer is read and checked once, then readers of
//! any row groups, with any [`ReadOptions`], on any thread, share it and
//! the resolved plan.

use std::fs::File;
use std::marker::PhantomData;
use std::path::Path;
use std::sync::Arc;

use parquet::file::reader::ChunkReader;
use parquet::schema::types::{SchemaDescriptor, TypePtr};

use super::scan::ScanPlan;
use super::{CheckedMetadata, FileRowGroups, ParquetReader};
use crate::error::Result;
use crate::read::{BoxedSource, ConstantColumns, ReadOptions, RecordReader, Resolved, SourceLayer};
use crate::record::{Derived, OwnedRecord, ParquetRecord, RecordRead, RecordReadOwned};

/// The readers of one file, over its checked metadata: made by
/// [`new`](Self::new) or [`open`](Self::open), each reader then built with
/// its [`ReadOptions`]. Cloning it shares the input and the metadata:
/// readers of the row groups of one file on several threads neither re-read
/// the footer nor, with [`resolve`](Self::resolve) and
/// [`build_resolved`](Self::build_resolved), re-resolve the type.
///
/// ```
/// use std::sync::Arc;
/// use magnolify_parquet::{ParquetType, ParquetWriter, ReadOptions, ReaderBuilder};
///
/// #[derive(ParquetType, Debug, PartialEq)]
/// struct Reading { sensor: String, value: f64 }
///
/// let mut w = ParquetWriter::<Reading, _>::new(Vec::new())?;
/// w.write(&Reading { sensor: "a".into(), value: 1.5 })?;
/// let file = bytes::Bytes::from(w.into_inner()?);
///
/// let builder = ReaderBuilder::new(file)?;
/// assert_eq!(builder.metadata().file_metadata().num_rows(), 1);
/// let plan = Arc::new(builder.resolve::<Reading>()?);
/// for _ in 0..2 {
///     let reader = builder.clone().build_resolved(plan.clone(), ReadOptions::default().threads(1))?;
///     assert_eq!(reader.collect::<Result<Vec<_>, _>>()?, [Reading { sensor: "a".into(), value: 1.5 }]);
/// }
/// # Ok::<(), magnolify_parquet::Error>(())
/// ```
#[must_use = "a builder does nothing until it builds"]
pub struct ReaderBuilder<R> {
    input: Arc<R>,
    metadata: CheckedMetadata,
    file: Option<Arc<Path>>,
    /// Leaves the readers add after the file's own (a dataset's partition
    /// fields), with the schema they make.
    layer: Option<Arc<dyn SourceLayer>>,
}

impl<R> Clone for ReaderBuilder<R> {
    fn clone(&self) -> Self {
        ReaderBuilder {
            input: self.input.clone(),
            metadata: self.metadata.clone(),
            file: self.file.clone(),
            layer: self.layer.clone(),
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
    /// fetch of the object `file`, which its errors name.
    /// [`with_input`](Self::with_input) then gives the rest.
    #[cfg(feature = "object_store")]
    pub(crate) fn from_tail(input: R, file: Arc<Path>) -> Result<Self> {
        let file = Some(file);
        let builder = Self::reading(input, false).map_err(|e| e.in_file(&file))?;
        Ok(ReaderBuilder { file, ..builder })
    }

    /// The same metadata over `input`: more of the same file.
    #[cfg(feature = "object_store")]
    pub(crate) fn with_input(self, input: R) -> Self {
        ReaderBuilder { input: Arc::new(input), ..self }
    }

    /// The input.
    #[cfg(feature = "object_store")]
    pub(crate) fn input(&self) -> &R {
        &self.input
    }

    fn reading(input: R, head: bool) -> Result<Self> {
        let metadata = CheckedMetadata::read(&input, head)?;
        Ok(ReaderBuilder { input: Arc::new(input), metadata, file: None, layer: None })
    }

    /// Readers read `columns` as if the file stored them after its own:
    /// each a top-level primitive field (a node of a Parquet schema, with
    /// its annotation and field id) with one value in every record, given
    /// PLAIN-encoded without a length prefix (`None` for a null, of an
    /// optional field). For values a file's reader knows but the file does
    /// not hold: a table's default for a column added after the file was
    /// written, a value of the file's path. A column the file stores under
    /// the same name is read from the file. Replaces the columns added
    /// before. Records read, pruned and filtered the same with them.
    ///
    /// ```
    /// use magnolify_parquet::{ParquetRecord, ParquetType, ParquetWriter, ReadOptions, ReaderBuilder};
    ///
    /// #[derive(ParquetType)]
    /// struct Click { id: i64 }
    /// #[derive(ParquetType, Debug, PartialEq)]
    /// struct Sourced { id: i64, source: String }
    ///
    /// let mut w = ParquetWriter::<Click, _>::new(Vec::new())?;
    /// w.write_all(&[Click { id: 1 }, Click { id: 2 }])?;
    /// let file = bytes::Bytes::from(w.into_inner()?);
    ///
    /// let source = Sourced::message()?.get_fields()[1].clone();
    /// let builder = ReaderBuilder::new(file)?.constant_columns(vec![(source, Some(b"web".to_vec()))])?;
    /// let read: Vec<Sourced> = builder.build(ReadOptions::default())?.collect::<Result<_, _>>()?;
    /// assert_eq!(read, [Sourced { id: 1, source: "web".into() }, Sourced { id: 2, source: "web".into() }]);
    /// # Ok::<(), magnolify_parquet::Error>(())
    /// ```
    pub fn constant_columns(self, columns: Vec<(TypePtr, Option<Vec<u8>>)>) -> Result<Self> {
        let file = self.file.clone();
        let layer = ConstantColumns::layer(self.metadata.schema(), columns).map_err(|e| e.in_file(&file))?;
        Ok(ReaderBuilder { layer: Some(layer), ..self })
    }

    /// The file's metadata, checked.
    pub fn metadata(&self) -> &CheckedMetadata {
        &self.metadata
    }

    /// The schema records are read from: the file's (with the partition
    /// fields of a dataset's file).
    pub fn schema(&self) -> &Arc<SchemaDescriptor> {
        self.layer.as_ref().map_or(self.metadata.schema(), |layer| layer.schema())
    }

    /// Resolves `T` against the file's schema, for readers made with
    /// [`build_resolved`](Self::build_resolved) (wrap it in an `Arc` to share it).
    pub fn resolve<T: ParquetRecord>(&self) -> Result<Resolved<Derived<T>>>
    where
        Derived<T>: RecordRead,
    {
        self.resolve_with(Derived::new())
    }

    /// Resolves any converter against the file's schema.
    pub fn resolve_with<C: RecordRead>(&self, converter: C) -> Result<Resolved<C>> {
        Resolved::new(converter, self.schema()).map_err(|e| e.in_file(&self.file))
    }

    /// A reader of `T` with `options`.
    pub fn build<T: OwnedRecord>(self, options: ReadOptions<T>) -> Result<ParquetReader<T, R>> {
        self.build_with(Derived::new(), options)
    }

    /// A reader of `T`, a struct that borrows its strings and bytes from the
    /// batch (`struct Row<'a> { name: &'a str }`), read batch by batch with
    /// [`ParquetReader::next_batch`]: each batch's records live until the
    /// next call. Any struct reads this way, without copies for the fields
    /// that borrow. A predicate (from the handles of the struct, as for
    /// owned records) skips row groups and pages alike, and is tested on
    /// each batch's columns: the records lent are those an owned read with
    /// the same predicate returns, and [`ParquetReader::counts`] counts
    /// alike.
    ///
    /// ```
    /// use magnolify_parquet::{ParquetType, ParquetWriter, ReadOptions, ReaderBuilder};
    ///
    /// #[derive(ParquetType)]
    /// struct Row<'a> { name: &'a str, tags: Vec<&'a str> }
    ///
    /// let mut w = ParquetWriter::<Row, _>::new(Vec::new())?;
    /// w.write(&Row { name: "ada", tags: vec!["x", "y"] })?;
    /// w.write(&Row { name: "bob", tags: vec![] })?;
    /// let file = bytes::Bytes::from(w.into_inner()?);
    ///
    /// let mut reader = ReaderBuilder::new(file.clone())?.build_borrowed::<Row>(ReadOptions::default())?;
    /// let mut names = Vec::new();
    /// while let Some(batch) = reader.next_batch()? {
    ///     for row in &batch {
    ///         names.push(format!("{}: {}", row.name, row.tags.join(",")));
    ///     }
    /// }
    /// assert_eq!(names, ["ada: x,y", "bob: "]);
    ///
    /// // Filtered: the handles of `Row` compare `name` as a `String`.
    /// let wanted = ReadOptions::default().filter(Row::fields().name.eq("bob"));
    /// let mut reader = ReaderBuilder::new(file)?.build_borrowed::<Row>(wanted)?;
    /// let batch = reader.next_batch()?.expect("a batch with bob");
    /// assert_eq!(batch.iter().map(|r| r.name).collect::<Vec<_>>(), ["bob"]);
    /// drop(batch);
    /// assert_eq!((reader.counts().records_read, reader.counts().records_passed), (2, 1));
    /// # Ok::<(), magnolify_parquet::Error>(())
    /// ```
    pub fn build_borrowed<T: ParquetRecord>(self, options: ReadOptions<T>) -> Result<ParquetReader<T, R>>
    where
        Derived<T>: RecordRead,
    {
        let resolved = Arc::new(self.resolve_with(Derived::new())?);
        let scan = ScanPlan::of_file(
            &*self.input,
            self.metadata.shared(),
            options.row_groups.as_deref(),
            options.filter.as_ref(),
            options.limits.max_page_bytes,
        )
        .leaving_out(self.metadata.shared(), options.skipped_rows.as_deref());
        self.build_lending(resolved, options, scan)
    }

    /// A reader that lends what `scan` chose, testing `options`'s predicate
    /// on the columns of each batch.
    pub(crate) fn build_lending<C: RecordRead, T>(
        self,
        resolved: Arc<Resolved<C>>,
        mut options: ReadOptions<T>,
        scan: ScanPlan,
    ) -> Result<ParquetReader<T, R, C>> {
        let filter = options.filter.take();
        let file = self.file.clone();
        let mut reader = self.build_unfiltered(resolved, options, scan)?;
        reader.inner.set_column_filter(filter.as_ref()).map_err(|e| e.in_file(&file))?;
        Ok(reader)
    }

    /// A reader through any converter (the Avro baseline's, for example).
    pub fn build_with<C>(self, converter: C, options: ReadOptions<C::Owned>) -> Result<ParquetReader<C::Owned, R, C>>
    where
        C: RecordReadOwned + Send + Sync + 'static,
        C::Owned: Send + 'static,
    {
        let resolved = Arc::new(self.resolve_with(converter)?);
        self.build_resolved(resolved, options)
    }

    /// A reader with a plan resolved before (by this builder or a clone of
    /// it, or for a file of the same schema).
    pub fn build_resolved<C>(
        self,
        resolved: Arc<Resolved<C>>,
        options: ReadOptions<C::Owned>,
    ) -> Result<ParquetReader<C::Owned, R, C>>
    where
        C: RecordReadOwned + Send + Sync + 'static,
        C::Owned: Send + 'static,
    {
        let (row_groups, predicate) = (options.row_groups.as_deref(), options.filter.as_ref());
        let max_bytes = options.limits.max_page_bytes;
        let scan = ScanPlan::of_file(&*self.input, self.metadata.shared(), row_groups, predicate, max_bytes)
            .leaving_out(self.metadata.shared(), options.skipped_rows.as_deref());
        self.build_planned(resolved, options, scan)
    }

    /// A reader of what `scan` chose.
    pub(crate) fn build_planned<C>(
        self,
        resolved: Arc<Resolved<C>>,
        mut options: ReadOptions<C::Owned>,
        scan: ScanPlan,
    ) -> Result<ParquetReader<C::Owned, R, C>>
    where
        C: RecordReadOwned + Send + Sync + 'static,
        C::Owned: Send + 'static,
    {
        let filter = options.filter.take();
        let mut reader = self.build_unfiltered(resolved, options, scan)?;
        reader.inner.set_filter(filter);
        Ok(reader)
    }

    /// A reader of what `scan` chose, testing no predicate (`options`'s is
    /// the caller's to set).
    pub(crate) fn build_unfiltered<C: RecordRead, T>(
        self,
        resolved: Arc<Resolved<C>>,
        options: ReadOptions<T>,
        scan: ScanPlan,
    ) -> Result<ParquetReader<T, R, C>> {
        let ReaderBuilder { input, metadata, file, layer } = self;
        let located = |e: crate::Error| e.in_file(&file);
        let counts = scan.counts(&metadata, resolved.columns());
        let ReadOptions { threads, batch_size, limits, verify_checksums, .. } = options;
        let files = FileRowGroups { input, metadata: metadata.clone(), limits, verify_checksums };
        let source: BoxedSource = Box::new(files);
        let source = match &layer {
            Some(layer) => layer.over(source),
            None => source,
        };
        let skips = scan.selection.counts.clone();
        let inner = RecordReader::new(source, resolved, Some(scan.groups), batch_size)
            .map_err(located)?
            .with_selection(scan.selection)
            .with_threads(threads);
        Ok(ParquetReader { inner, metadata, file, counts, skips, _input: PhantomData })
    }
}
