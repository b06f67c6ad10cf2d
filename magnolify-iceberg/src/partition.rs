//! Partitioning by Iceberg's transforms of typed fields, and each record's
//! partition tuple.

use std::sync::Arc;

use iceberg::spec::{
    Datum, Literal, PartitionSpec, PrimitiveLiteral, PrimitiveType, Schema, Struct, Transform, UnboundPartitionSpec,
};
use iceberg::transform::{create_transform_function, BoxedTransformFunction};
use magnolify_parquet::filter::Field;

use crate::error::{Error, Result};
use crate::value::{Bucketable, Hourly, IcebergValue, Temporal, Truncatable};

/// How a record gives a partition field's source value, as a [`Datum`] of
/// the column's type (`None` for a null).
type Source<T> = Arc<dyn Fn(&T, &PrimitiveType) -> Option<Datum> + Send + Sync>;

/// One field of a partition spec: a transform of a top-level field.
struct PartitionBy<T> {
    source: String,
    transform: Transform,
    value: Source<T>,
}

impl<T> Clone for PartitionBy<T> {
    fn clone(&self) -> Self {
        PartitionBy { source: self.source.clone(), transform: self.transform, value: self.value.clone() }
    }
}

/// How a table of `T` is partitioned: Iceberg's transforms of fields of
/// `T`, each taken by its typed handle, so that a transform a field's type
/// does not allow (`day` of a string, `truncate` of a date) does not compile.
///
/// ```
/// use magnolify_iceberg::Partitioning;
/// use magnolify_parquet::ParquetType;
///
/// #[derive(ParquetType)]
/// struct Click {
///     user_id: i64,
///     #[parquet(timestamp = "micros")]
///     ts: chrono::DateTime<chrono::Utc>,
/// }
///
/// let fields = Click::fields();
/// let by = Partitioning::new().day(&fields.ts).bucket(8, &fields.user_id);
/// let spec = by.spec(&magnolify_iceberg::iceberg_schema::<Click>()?)?;
/// let names: Vec<_> = spec.fields().iter().map(|f| f.name.as_str()).collect();
/// assert_eq!(names, ["ts_day", "user_id_bucket"]);
/// # Ok::<(), magnolify_iceberg::Error>(())
/// ```
///
/// The day of a string is no partition: this does not compile (`String`
/// is not [`Temporal`]).
///
/// ```compile_fail
/// use magnolify_iceberg::Partitioning;
/// use magnolify_parquet::ParquetType;
///
/// #[derive(ParquetType)]
/// struct Page { url: String }
///
/// let by = Partitioning::new().day(&Page::fields().url);
/// ```
pub struct Partitioning<T> {
    fields: Vec<PartitionBy<T>>,
}

impl<T> Clone for Partitioning<T> {
    fn clone(&self) -> Self {
        Partitioning { fields: self.fields.clone() }
    }
}

impl<T> std::fmt::Debug for Partitioning<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let fields: Vec<_> = self.fields.iter().map(|p| format!("{}({})", p.transform, p.source)).collect();
        f.debug_tuple("Partitioning").field(&fields).finish()
    }
}

impl<T: 'static> Default for Partitioning<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: 'static> Partitioning<T> {
    /// No partition fields: an unpartitioned table.
    pub fn new() -> Self {
        Partitioning { fields: Vec::new() }
    }

    /// Partitions by the field's value itself.
    pub fn identity<F: IcebergValue, N: 'static>(self, field: &Field<T, F, N>) -> Self {
        self.by(Transform::Identity, field)
    }

    /// Partitions by Iceberg's 32-bit Murmur3 hash of the value, modulo `n`.
    pub fn bucket<F: Bucketable, N: 'static>(self, n: u32, field: &Field<T, F, N>) -> Self {
        self.by(Transform::Bucket(n), field)
    }

    /// Partitions by the value truncated to `width` (integers rounded down
    /// to a multiple, strings and bytes cut to a prefix).
    pub fn truncate<F: Truncatable, N: 'static>(self, width: u32, field: &Field<T, F, N>) -> Self {
        self.by(Transform::Truncate(width), field)
    }

    /// Partitions a date or timestamp by its year.
    pub fn year<F: Temporal, N: 'static>(self, field: &Field<T, F, N>) -> Self {
        self.by(Transform::Year, field)
    }

    /// Partitions a date or timestamp by its month.
    pub fn month<F: Temporal, N: 'static>(self, field: &Field<T, F, N>) -> Self {
        self.by(Transform::Month, field)
    }

    /// Partitions a date or timestamp by its day.
    pub fn day<F: Temporal, N: 'static>(self, field: &Field<T, F, N>) -> Self {
        self.by(Transform::Day, field)
    }

    /// Partitions a timestamp by its hour.
    pub fn hour<F: Hourly, N: 'static>(self, field: &Field<T, F, N>) -> Self {
        self.by(Transform::Hour, field)
    }

    fn by<F: IcebergValue, N: 'static>(mut self, transform: Transform, field: &Field<T, F, N>) -> Self {
        let handle = field.clone();
        let value: Source<T> = Arc::new(move |record: &T, ty: &PrimitiveType| {
            handle.with_value(record, |value| value.and_then(|v| v.datum(ty)))
        });
        self.fields.push(PartitionBy { source: field.path().to_owned(), transform, value });
        self
    }

    /// The partition spec over `schema` (a table's, or the type's own from
    /// [`iceberg_schema`](crate::iceberg_schema)), named as Spark and
    /// pyiceberg name them: `ts_day`, `user_id_bucket`, `name_trunc`.
    pub fn spec(&self, schema: &Schema) -> Result<PartitionSpec> {
        let mut builder = PartitionSpec::builder(schema.clone());
        for field in &self.fields {
            let target = format!("{}{}", field.source, suffix(&field.transform));
            builder = builder.add_partition_field(&field.source, target, field.transform)?;
        }
        Ok(builder.build()?)
    }

    /// The same spec, unbound (what a table is created with).
    pub(crate) fn unbound(&self, schema: &Schema) -> Result<UnboundPartitionSpec> {
        Ok(self.spec(schema)?.into_unbound())
    }

    /// The record-side partitioner for a table whose default spec is
    /// `spec` over `schema`: the spec must be this partitioning.
    pub(crate) fn bind(&self, spec: &PartitionSpec, schema: &Schema, table: &str) -> Result<Partitioner<T>> {
        let mut bound = Vec::with_capacity(self.fields.len());
        let mismatch = || {
            let theirs: Vec<_> = spec
                .fields()
                .iter()
                .map(|f| format!("{}({})", f.transform, schema.name_by_field_id(f.source_id).unwrap_or("?")))
                .collect();
            let ours: Vec<_> = self.fields.iter().map(|f| format!("{}({})", f.transform, f.source)).collect();
            Error::table(
                table,
                format!(
                    "the table is partitioned by [{}], the writer by [{}]: give the table's partitioning",
                    theirs.join(", "),
                    ours.join(", ")
                ),
            )
        };
        if spec.fields().len() != self.fields.len() {
            return Err(mismatch());
        }
        for (ours, theirs) in self.fields.iter().zip(spec.fields()) {
            let source = schema.field_by_name(&ours.source).ok_or_else(mismatch)?;
            if source.id != theirs.source_id || ours.transform != theirs.transform {
                return Err(mismatch());
            }
            let Some(ty) = source.field_type.as_primitive_type().cloned() else {
                return Err(mismatch());
            };
            let function = create_transform_function(&ours.transform)?;
            let (source, value, transform) = (ours.source.clone(), ours.value.clone(), ours.transform);
            bound.push(Bound { source, ty, value, transform, function });
        }
        Ok(Partitioner { fields: bound, spec: spec.clone(), schema: Arc::new(schema.clone()) })
    }
}

/// The name suffix of a transform's partition field.
fn suffix(transform: &Transform) -> &'static str {
    match transform {
        Transform::Identity => "",
        Transform::Bucket(_) => "_bucket",
        Transform::Truncate(_) => "_trunc",
        Transform::Year => "_year",
        Transform::Month => "_month",
        Transform::Day => "_day",
        Transform::Hour => "_hour",
        Transform::Void | Transform::Unknown => "_void",
    }
}

struct Bound<T> {
    source: String,
    ty: PrimitiveType,
    value: Source<T>,
    transform: Transform,
    function: BoxedTransformFunction,
}

impl<T> Bound<T> {
    /// The partition value of `source`.
    fn transformed(&self, source: &Datum) -> iceberg::Result<Option<Datum>> {
        match (self.transform, source.literal()) {
            // iceberg-rust 0.10.1 truncates no binary value (its function
            // says "Unsupported data type"); the spec's truncate of a
            // binary is its first `width` bytes.
            (Transform::Truncate(width), PrimitiveLiteral::Binary(bytes)) => {
                Ok(Some(Datum::binary(bytes.iter().copied().take(width as usize))))
            }
            _ => self.function.transform_literal(source),
        }
    }
}

/// Each record's partition tuple and directory under a table's spec.
pub(crate) struct Partitioner<T> {
    fields: Vec<Bound<T>>,
    spec: PartitionSpec,
    schema: Arc<Schema>,
}

impl<T> Partitioner<T> {
    /// The partition tuple of `record` (number `row`, for errors).
    pub(crate) fn partition(&self, record: &T, row: u64) -> Result<Struct> {
        let values = self.fields.iter().map(|field| {
            let Some(source) = (field.value)(record, &field.ty) else {
                return Ok(None);
            };
            let value = field.transformed(&source).map_err(|e| {
                Error::schema(&field.source, format!("record {row}: cannot partition the value {source}: {e}"))
            })?;
            Ok(value.map(Literal::from))
        });
        values.collect()
    }

    /// The partition's directory, as the table's other writers name it
    /// (`ts_day=2024-03-01/user_id_bucket=3`); empty for an unpartitioned table.
    pub(crate) fn directory(&self, partition: &Struct) -> String {
        if self.fields.is_empty() {
            return String::new();
        }
        self.spec.partition_to_path(partition, self.schema.clone())
    }

    /// The spec's id.
    pub(crate) fn spec_id(&self) -> i32 {
        self.spec.spec_id()
    }
}
