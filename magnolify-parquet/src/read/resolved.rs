//! A converter resolved against a file's schema, once, and shared by every
//! reader of files with that schema (and by a reader's threads).

use std::sync::Arc;

use parquet::schema::types::SchemaDescriptor;

use crate::error::Result;
use crate::record::RecordRead;

/// A converter resolved against one schema: its read plan and the file
/// columns it reads, made once and shared (`Arc`) by every reader of files
/// with that schema, on any thread.
///
/// ```
/// use std::sync::Arc;
/// use magnolify_parquet::{ParquetType, ReadOptions, ReaderBuilder, WriterBuilder};
///
/// #[derive(ParquetType, Debug, PartialEq)]
/// struct Point { x: i32, y: i32 }
///
/// let mut w = WriterBuilder::<Point>::new().max_row_group_rows(1).build(Vec::new())?;
/// w.write_all(&[Point { x: 1, y: 2 }, Point { x: 3, y: 4 }])?;
/// let file = bytes::Bytes::from(w.into_inner()?);
///
/// let builder = ReaderBuilder::new(file)?;
/// let plan = Arc::new(builder.resolve::<Point>()?);
/// let points: Vec<Point> = std::thread::scope(|s| {
///     let readers: Vec<_> = (0..2)
///         .map(|g| {
///             let reader = builder.clone().build_resolved(plan.clone(), ReadOptions::default().row_groups(vec![g]));
///             s.spawn(move || reader?.collect::<Result<Vec<_>, _>>())
///         })
///         .collect();
///     readers.into_iter().flat_map(|r| r.join().unwrap().unwrap()).collect()
/// });
/// assert_eq!(points, [Point { x: 1, y: 2 }, Point { x: 3, y: 4 }]);
/// # Ok::<(), magnolify_parquet::Error>(())
/// ```
pub struct Resolved<C: RecordRead> {
    converter: C,
    plan: C::ReadPlan,
    columns: Vec<usize>,
    schema: Arc<SchemaDescriptor>,
}

impl<C: RecordRead> Resolved<C> {
    /// Resolves `converter` against `schema`.
    pub fn new(converter: C, schema: &Arc<SchemaDescriptor>) -> Result<Self> {
        let (plan, columns) = converter.resolve(schema)?;
        Ok(Resolved { converter, plan, columns, schema: schema.clone() })
    }

    /// The converter.
    pub fn converter(&self) -> &C {
        &self.converter
    }

    /// The file columns read, in cursor order (indices among the file's leaves).
    pub fn columns(&self) -> &[usize] {
        &self.columns
    }

    /// The converter and its plan.
    pub(crate) fn parts(&self) -> (&C, &C::ReadPlan) {
        (&self.converter, &self.plan)
    }

    /// The schema the plan was made for.
    pub(crate) fn schema(&self) -> &Arc<SchemaDescriptor> {
        &self.schema
    }

    /// Whether this plan was made for `schema` (the same descriptor, or an equal one).
    pub fn fits(&self, schema: &Arc<SchemaDescriptor>) -> bool {
        Arc::ptr_eq(&self.schema, schema) || self.schema.root_schema() == schema.root_schema()
    }
}
