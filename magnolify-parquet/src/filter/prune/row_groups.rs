//! A row group decided by its column chunks' statistics, then by the bloom
//! filters and then the dictionaries of the columns that equalities name; a
//! dataset file decided by the columns that hold one value in every record.

use std::sync::Arc;

use parquet::basic::Type as Physical;
use parquet::bloom_filter::Sbbf;
use parquet::file::metadata::{ParquetMetaData, RowGroupMetaData};
use parquet::schema::types::{ColumnDescPtr, ColumnDescriptor};

use super::dictionaries::{decides, rules_out, Dictionaries, NoDictionaries};
use super::plain::plain_forms;
use super::trust::{key_of, trusted_bounds};
use super::{condition_truth, truth, Chunk, Group, Truth, UNKNOWN};
use crate::filter::key::Key;
use crate::filter::predicate::{Comparison, Condition, Leaf, Node};
use crate::guard::catch;
use crate::logical::Annotation;

/// Where the bloom filter of a column chunk comes from: `None` when the
/// chunk has none (or it cannot be read: then it does not prune).
pub(crate) trait BloomFilters {
    /// The bloom filter of column `column` of row group `group`.
    fn bloom_filter(&self, group: usize, column: usize) -> Option<Arc<Sbbf>>;
}

/// No bloom filters.
pub(crate) struct NoBloomFilters;

impl BloomFilters for NoBloomFilters {
    fn bloom_filter(&self, _: usize, _: usize) -> Option<Arc<Sbbf>> {
        None
    }
}

/// What row group `index` of `file` is, for `node`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// Some record may pass: read it.
    Read,
    /// Its statistics show that no record passes.
    SkipByStatistics,
    /// Its bloom filters show that no record passes.
    SkipByBloomFilters,
    /// Its dictionaries show that no record passes.
    SkipByDictionaries,
}

/// Whether some record of row group `index` of `file` may pass `node`:
/// statistics first, then the bloom filters of the columns that equalities
/// name (read only when statistics cannot decide), then the dictionaries of
/// those without a bloom filter.
pub(crate) fn verdict<R>(
    node: &Node<R>,
    file: &ParquetMetaData,
    index: usize,
    blooms: &dyn BloomFilters,
    dictionaries: &dyn Dictionaries,
) -> Verdict {
    let stages: [(&dyn BloomFilters, &dyn Dictionaries, Verdict); 3] = [
        (&NoBloomFilters, &NoDictionaries, Verdict::SkipByStatistics),
        (blooms, &NoDictionaries, Verdict::SkipByBloomFilters),
        // Bloom filters said what they could: not read again.
        (&NoBloomFilters, dictionaries, Verdict::SkipByDictionaries),
    ];
    for (blooms, dictionaries, skip) in stages {
        let group = Group { file, index, blooms, dictionaries };
        if !truth(node, &|leaf| leaf_truth(leaf, &group)).may_pass {
            return skip;
        }
    }
    Verdict::Read
}

/// A column that holds one value in every record, and that value (PLAIN
/// bytes, `None` for a null).
pub(crate) type Constant = (ColumnDescPtr, Option<Vec<u8>>);

/// Whether some record may pass `node` when some columns hold one known
/// value in every record (a dataset file's partition fields): `constant`
/// gives, for a leaf's path, its column and value (PLAIN bytes, `None`
/// for a null); leaves on other columns may pass or fail.
pub(crate) fn constants_may_pass<R>(node: &Node<R>, constant: &dyn Fn(&[String]) -> Option<Constant>) -> bool {
    let leaf_truth = |leaf: &Leaf<R>| {
        let Some((column, value)) = constant(&leaf.parts) else { return UNKNOWN };
        let key = value
            .as_deref()
            .map(|raw| key_of(raw, column.physical_type(), &Annotation::of(column.self_type()), &column));
        let chunk = Chunk {
            bounds: match key {
                Some(Some(key)) => Some((key.clone(), key)),
                _ => None,
            },
            all_null: value.is_none(),
            may_have_null: value.is_none(),
            may_have_nan: false,
        };
        condition_truth(&leaf.condition, &chunk, &column)
    };
    truth(node, &leaf_truth).may_pass
}

fn leaf_truth<R>(leaf: &Leaf<R>, group: &Group<'_>) -> Truth {
    let file = group.file;
    let schema = file.file_metadata().schema_descr();
    // A field the file does not have reads as null or its default: the
    // exact test decides, nothing is pruned.
    let Some(index) = (0..schema.num_columns()).find(|&i| schema.column(i).path().parts() == &leaf.parts[..]) else {
        return UNKNOWN;
    };
    let column = schema.column(index);
    if column.max_rep_level() > 0 {
        return UNKNOWN;
    }
    let Some(chunk) = chunk(file, &file.row_groups()[group.index], index, &column) else { return UNKNOWN };
    let truth = condition_truth(&leaf.condition, &chunk, &column);
    if !truth.may_pass {
        return truth;
    }
    // Equalities: a bloom filter may show that no value is there.
    let values = match &leaf.condition {
        Condition::Compare(Comparison::Eq, value) => std::slice::from_ref(value),
        Condition::In(values) => values.as_slice(),
        _ => return truth,
    };
    let absent = group.blooms.bloom_filter(group.index, index).is_some_and(|filter| {
        values.iter().all(|v| v.key(&column).is_some_and(|key| bloom_absent(&filter, &key, &column)))
    });
    // Equalities fail on nulls: a value in no record passes no record. A
    // chunk with a bloom filter has answered already: its false positives
    // (1 % by default) cost less to read than every dictionary would.
    let bloom = file.row_groups()[group.index].column(index).bloom_filter_offset().is_some();
    let absent = absent
        || (!bloom
            && decides(&leaf.condition, &column)
            && group
                .dictionaries
                .dictionary(group.index, index)
                .is_some_and(|dictionary| rules_out(&leaf.condition, &dictionary, &column) == Some(true)));
    // Absent: every record fails (none passes).
    Truth { may_pass: !absent, may_fail: truth.may_fail || absent }
}

/// Whether `filter` shows that no value of the column equals `key`: the
/// key's PLAIN bytes, as the writer hashed them, are absent (each form of a
/// key whose column holds several, such as both zeros of a float).
fn bloom_absent(filter: &Sbbf, key: &Key, column: &ColumnDescriptor) -> bool {
    let forms = plain_forms(key, column);
    // A filter whose bits do not index as its header says may panic: then
    // it answers nothing.
    !forms.is_empty() && forms.iter().all(|form| catch(|| !filter.check(form.as_slice())).unwrap_or(false))
}

fn chunk(file: &ParquetMetaData, group: &RowGroupMetaData, index: usize, column: &ColumnDescriptor) -> Option<Chunk> {
    let meta = group.column(index);
    let stats = meta.statistics()?;
    let values = u64::try_from(meta.num_values()).ok()?;
    let nulls = stats.null_count_opt();
    let float = matches!(column.physical_type(), Physical::FLOAT | Physical::DOUBLE)
        || Annotation::of(column.self_type()) == Annotation::Float16;
    Some(Chunk {
        bounds: trusted_bounds(file, index, column, stats),
        all_null: nulls == Some(values),
        may_have_null: nulls != Some(0),
        may_have_nan: float && stats.nan_count_opt() != Some(0),
    })
}
