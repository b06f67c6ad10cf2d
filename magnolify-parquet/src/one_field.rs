//! A converter of records that hold one field of any field type, with
//! options chosen at run time.

use std::marker::PhantomData;

use parquet::basic::Repetition;
use parquet::schema::types::{SchemaDescriptor, TypePtr};

use crate::assemble::{FileNode, RecordSource, Resolver};
use crate::error::Result;
use crate::field::{ParquetReadOwned, ParquetSchema, ParquetWrite};
use crate::options::FieldOptions;
use crate::record::{RecordRead, RecordReadOwned, RecordSchema, RecordWrite};
use crate::schema;
use crate::shred::{ColumnSink, WriteAt};

/// Records of one field `name` of type `T`, with options given at run time:
/// a column of values without a struct around them, or a unit or decimal
/// chosen while the program runs.
///
/// ```
/// use magnolify_parquet::convert::OneField;
/// use magnolify_parquet::{mem::MemPageStore, FieldOptions, TimeUnit};
///
/// let millis = OneField::<Vec<i64>>::new("xs", FieldOptions::new());
/// let mut writer = MemPageStore::writer(millis.clone())?;
/// writer.write(&vec![1, 2])?;
/// let back: Vec<Vec<i64>> = writer.close()?.reader(millis)?.collect::<Result<_, _>>()?;
/// assert_eq!(back, [vec![1, 2]]);
/// # Ok::<(), magnolify_parquet::Error>(())
/// ```
pub struct OneField<T> {
    name: String,
    opts: FieldOptions,
    _t: PhantomData<fn() -> T>,
}

impl<T> OneField<T> {
    /// Records of field `name` with `opts`.
    pub fn new(name: impl Into<String>, opts: FieldOptions) -> Self {
        OneField { name: name.into(), opts, _t: PhantomData }
    }
}

impl<T> Clone for OneField<T> {
    fn clone(&self) -> Self {
        OneField { name: self.name.clone(), opts: self.opts, _t: PhantomData }
    }
}

impl<T: ParquetSchema> RecordSchema for OneField<T> {
    fn schema(&self) -> Result<TypePtr> {
        let field = T::schema(&self.name, Repetition::REQUIRED, &self.opts)?;
        schema::message_from("record", schema::group("record", Repetition::REQUIRED, None, vec![field])?)
    }
}

impl<T: ParquetWrite> RecordWrite for OneField<T> {
    type Record<'a> = T;

    #[inline]
    fn write(&self, record: &T, sink: &mut ColumnSink) -> Result<()> {
        record.write(sink, WriteAt::ROOT, &self.opts)
    }
}

impl<T: ParquetReadOwned> RecordRead for OneField<T> {
    type Record<'de> = T;
    type ReadPlan = T::ReadPlan;

    fn resolve(&self, file: &SchemaDescriptor) -> Result<(T::ReadPlan, Vec<usize>)> {
        let root = FileNode::root(file);
        let node = root.child(&self.name).ok_or_else(|| {
            root.error(format!("the file has no field `{}`; it has {}", self.name, root.field_names()))
        })?;
        let mut resolver = Resolver::new(file);
        let plan = T::resolve(&node, &self.opts, &mut resolver)?;
        Ok((plan, resolver.into_columns()))
    }

    #[inline]
    fn read<'de>(&self, plan: &T::ReadPlan, source: &mut RecordSource<'de>) -> Result<T> {
        T::read(plan, source)
    }
}

impl<T: ParquetReadOwned> RecordReadOwned for OneField<T> {
    type Owned = T;
}
