//! A dataset's records lent batch by batch, file after file: records that
//! borrow their strings and bytes from the batch, their partition fields
//! included.

use std::sync::Arc;

use super::reader::{plan, refuse_row_groups, DatasetReader, DatasetReaderBuilder, FilePlan, Inner};
use crate::error::{Error, Location, Result};
use crate::read::ReadOptions;
use crate::record::{Derived, ParquetRecord, RecordRead};

impl<T: ParquetRecord> DatasetReaderBuilder<T>
where
    Derived<T>: RecordRead,
{
    /// A reader of `T`, a struct that may borrow its strings and bytes from
    /// the batch (`struct Sale<'a> { region: &'a str }`), read batch by batch
    /// with [`DatasetReader::next_batch`]: each batch's records live until
    /// the next call. Files are read one after the other in path order, each
    /// with the options' threads (its reader decodes ahead on them); a batch
    /// never spans two files. Partition fields borrow like the others.
    ///
    /// A predicate (from the handles of `T`, as for owned records) passes
    /// over the files whose partition values rule it out, then filters
    /// each file's records as
    /// [`ReaderBuilder::build_borrowed`](crate::ReaderBuilder::build_borrowed)
    /// does. Options that choose row groups are an error.
    ///
    /// ```
    /// use magnolify_parquet::dataset::{DatasetReader, DatasetWriter};
    /// use magnolify_parquet::{ParquetType, ReadOptions};
    ///
    /// #[derive(ParquetType, Clone)]
    /// struct Sale { region: String, item: String }
    /// #[derive(ParquetType)]
    /// struct SaleRef<'a> { region: &'a str, item: &'a str }
    ///
    /// let dir = std::env::temp_dir().join(format!("lent-sales-{}", std::process::id()));
    /// let mut w = DatasetWriter::builder(&dir).partition_by(&Sale::fields().region).build()?;
    /// for (region, item) in [("north", "tea"), ("south", "rice"), ("north", "salt")] {
    ///     w.write(&Sale { region: region.into(), item: item.into() })?;
    /// }
    /// w.close()?;
    ///
    /// let mut reader = DatasetReader::<SaleRef>::builder(&dir)?.build_borrowed(ReadOptions::default())?;
    /// let mut seen = Vec::new();
    /// while let Some(batch) = reader.next_batch()? {
    ///     seen.extend(batch.iter().map(|s| format!("{} {}", s.region, s.item)));
    /// }
    /// assert_eq!(seen, ["north tea", "north salt", "south rice"]);
    /// assert_eq!(reader.counts().files_read, 2);
    /// # std::fs::remove_dir_all(&dir).unwrap();
    /// # Ok::<(), magnolify_parquet::Error>(())
    /// ```
    pub fn build_borrowed(self, options: ReadOptions<T>) -> Result<DatasetReader<T>> {
        refuse_row_groups(&options)?;
        let (plans, skipped) = plan(self.files, options.filter.as_ref())?;
        let plans = plans.into_iter().map(|(file, constants)| FilePlan { path: file.path, constants }).collect();
        let inner = Inner::Sequential { plans, current: None, options: Arc::new(options) };
        let counts = super::DatasetCounts { files_skipped: skipped, ..Default::default() };
        Ok(DatasetReader { inner, counts, done: false, _root: self.root })
    }
}

impl<T: ParquetRecord> DatasetReader<T>
where
    Derived<T>: RecordRead,
{
    /// The next batch of records, which may borrow from it (a reader built
    /// by [`DatasetReaderBuilder::build_borrowed`]): they live until the
    /// next call. `Ok(None)` after the last batch of the last file; after an
    /// error it ends. Owned records can be lent too, from a reader on one
    /// thread without a predicate; one that reads files on threads (one file
    /// per thread) is iterated.
    pub fn next_batch(&mut self) -> Result<Option<Vec<<Derived<T> as RecordRead>::Record<'_>>>> {
        if self.done {
            return Ok(None);
        }
        let Inner::Sequential { plans, current, options } = &mut self.inner else {
            return Err(Error::argument(
                "next_batch on a dataset reader that reads its files on threads: build it with \
                 `build_borrowed` to lend batches, or iterate its records",
            ));
        };
        loop {
            let reader = match current {
                Some(reader) => reader,
                None => {
                    let Some(plan) = plans.pop_front() else {
                        self.done = true;
                        return Ok(None);
                    };
                    match plan.builder().and_then(|b| b.build_borrowed::<T>((**options).clone())) {
                        Ok(reader) => current.insert(Box::new(reader)),
                        Err(e) => {
                            self.done = true;
                            return Err(e);
                        }
                    }
                }
            };
            match reader.advance() {
                Ok(true) => break,
                Ok(false) => {
                    self.counts.files_read += 1;
                    self.counts.filter += reader.counts();
                    *current = None;
                }
                Err(e) => {
                    self.done = true;
                    return Err(e);
                }
            }
        }
        let reader =
            current.as_mut().ok_or_else(|| Error::bug(Location::default(), "a dataset batch without a file"))?;
        reader.lend().map(Some)
    }
}
