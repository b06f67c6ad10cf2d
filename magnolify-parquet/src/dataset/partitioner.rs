//! Each record's partition directory (`day=2024-03-01/region=North%2FEast`),
//! from the partition fields' typed handles: what every dataset writer
//! routes by.

use std::sync::Arc;

use super::hive;
use super::value::{check_field, PartitionValue};
use crate::error::{Error, Location, Result};
use crate::filter::Field;
use crate::record::OwnedRecord;

/// How a record names its partition value: appended to the buffer, `false`
/// for a null.
type PartitionText<T> = Arc<dyn Fn(&T, &mut String) -> bool + Send + Sync>;

/// The partition fields of a dataset writer, in order.
pub(crate) struct Partitioner<T> {
    /// Each field's name, its escaped `name=`, and its value's text.
    fields: Vec<(String, String, PartitionText<T>)>,
    /// One value's text (reused from record to record).
    value: String,
}

impl<T: OwnedRecord> Partitioner<T> {
    /// No partition fields yet.
    pub(crate) fn new() -> Self {
        Partitioner { fields: Vec::new(), value: String::new() }
    }

    /// `field` after the fields before.
    pub(crate) fn push<F: PartitionValue + 'static, N>(&mut self, field: &Field<T, F, N>) {
        let get = field.get.clone();
        let text: PartitionText<T> = Arc::new(move |record: &T, out: &mut String| {
            get.test(record, |value| match value {
                Some(value) => {
                    value.write_partition_text(out);
                    true
                }
                None => false,
            })
        });
        let name = field.path().to_owned();
        self.fields.push((hive::escape(&name) + "=", name, text));
    }

    /// Checks that every field is a top-level field of `T` that can name a
    /// directory, and none comes twice.
    pub(crate) fn check(&self) -> Result<()> {
        let message = T::message()?;
        for (i, (_, name, _)) in self.fields.iter().enumerate() {
            let field = message.get_fields().iter().find(|f| f.name() == name).ok_or_else(|| {
                Error::schema(name, "partition by a top-level field: a nested field cannot name a directory")
            })?;
            check_field(field)?;
            if self.fields[..i].iter().any(|(_, n, _)| n == name) {
                return Err(Error::schema(name, "the field is partitioned by twice"));
            }
        }
        Ok(())
    }

    /// The partition fields' names, in order.
    pub(crate) fn names(&self) -> Vec<String> {
        self.fields.iter().map(|(_, name, _)| name.clone()).collect()
    }

    /// Writes the directory of `record` (record number `row`) into `key`,
    /// relative to the dataset's root, names joined by `/`. A value no
    /// engine reads back as written (an empty string, the null
    /// directory's name) is an error.
    pub(crate) fn directory(&mut self, record: &T, row: u64, key: &mut String) -> Result<()> {
        key.clear();
        for (prefix, name, text) in &self.fields {
            self.value.clear();
            let present = text(record, &mut self.value);
            if present && self.value == hive::NULL_PARTITION {
                return Err(Error::value(
                    Location::column(name).with_record(row),
                    format!(
                        "`{}` cannot be a partition value: it names the null partition; use `None`",
                        hive::NULL_PARTITION
                    ),
                ));
            }
            if present && self.value.is_empty() {
                return Err(Error::value(
                    Location::column(name).with_record(row),
                    "an empty string cannot be a partition value: Spark, Hive and pyarrow read it back as null; \
                     use `Option<String>` with `None`, or another value",
                ));
            }
            if !key.is_empty() {
                key.push('/');
            }
            key.push_str(prefix);
            hive::push_value(key, present.then_some(self.value.as_str()));
        }
        Ok(())
    }
}
