//! Row groups ruled out by their column chunks' statistics, trusting only
//! what the format and the writers' known bugs allow.

use std::cmp::Ordering;
use std::sync::Arc;

use parquet::bloom_filter::Sbbf;
use parquet::file::page_index::column_index::ColumnIndexMetaData;
use parquet::file::page_index::offset_index::OffsetIndexMetaData;

use parquet::basic::{ColumnOrder, SortOrder, Type as Physical};
use parquet::file::metadata::{ParquetMetaData, RowGroupMetaData};
use parquet::file::statistics::Statistics;
use parquet::schema::types::{ColumnDescPtr, ColumnDescriptor};

use super::key::Key;
use super::predicate::{Condition, Leaf, Node, Op};
use super::RowRanges;
use crate::guard::catch;
use crate::logical::{float16_to_f64, Annotation};

/// What a row group's statistics allow of a predicate: whether some record
/// may pass it, and whether some record may fail it. Both `true` means
/// nothing is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Truth {
    may_pass: bool,
    may_fail: bool,
}

const UNKNOWN: Truth = Truth { may_pass: true, may_fail: true };

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
}

/// Whether some record of row group `index` of `file` may pass `node`:
/// statistics first, then the bloom filters of the columns that equalities
/// name (read only when statistics cannot decide).
pub(crate) fn verdict<R>(node: &Node<R>, file: &ParquetMetaData, index: usize, blooms: &dyn BloomFilters) -> Verdict {
    let group = Group { file, index, blooms: &NoBloomFilters };
    if !truth(node, &|leaf| leaf_truth(leaf, &group)).may_pass {
        return Verdict::SkipByStatistics;
    }
    let group = Group { file, index, blooms };
    match truth(node, &|leaf| leaf_truth(leaf, &group)).may_pass {
        true => Verdict::Read,
        false => Verdict::SkipByBloomFilters,
    }
}

/// A row group and what can be known of it.
struct Group<'a> {
    file: &'a ParquetMetaData,
    index: usize,
    blooms: &'a dyn BloomFilters,
}

/// What is known of `node`, given what is known of each leaf.
fn truth<R>(node: &Node<R>, leaf_truth: &dyn Fn(&Leaf<R>) -> Truth) -> Truth {
    match node {
        Node::Leaf(leaf) => leaf_truth(leaf),
        Node::And(a, b) => {
            let a = truth(a, leaf_truth);
            // Nothing of `b` is read when `a` already rules the group out.
            if !a.may_pass {
                return Truth { may_pass: false, may_fail: true };
            }
            let b = truth(b, leaf_truth);
            Truth { may_pass: a.may_pass && b.may_pass, may_fail: a.may_fail || b.may_fail }
        }
        Node::Or(a, b) => {
            let (a, b) = (truth(a, leaf_truth), truth(b, leaf_truth));
            Truth { may_pass: a.may_pass || b.may_pass, may_fail: a.may_fail && b.may_fail }
        }
        Node::Not(a) => {
            let a = truth(a, leaf_truth);
            Truth { may_pass: a.may_fail, may_fail: a.may_pass }
        }
    }
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

/// Where the page indexes of column chunks come from: `None` for a chunk
/// without one (or one that cannot be read: then its pages are not pruned).
pub(crate) trait PageIndexes {
    /// The column index and offset index of column `column` of row group `group`.
    fn page_index(&self, group: usize, column: usize) -> Option<(Arc<ColumnIndexMetaData>, Arc<OffsetIndexMetaData>)>;
}

/// The rows of row group `index` that may pass `node`, by the page indexes
/// of the columns it names: `None` when they cannot narrow the group.
pub(crate) fn page_selection<R>(
    node: &Node<R>,
    file: &ParquetMetaData,
    index: usize,
    indexes: &dyn PageIndexes,
) -> Option<RowRanges> {
    let rows = u64::try_from(file.row_group(index).num_rows()).ok()?;
    let group = Group { file, index, blooms: &NoBloomFilters };
    let (pass, _) = page_truth(node, &group, indexes, rows);
    (pass != RowRanges::all(rows)).then_some(pass)
}

/// The rows that may pass `node` and the rows that may fail it.
fn page_truth<R>(node: &Node<R>, group: &Group<'_>, indexes: &dyn PageIndexes, rows: u64) -> (RowRanges, RowRanges) {
    match node {
        Node::Leaf(leaf) => {
            let pages = catch(|| leaf_pages(leaf, group, indexes, rows)).ok().flatten();
            pages.unwrap_or_else(|| (RowRanges::all(rows), RowRanges::all(rows)))
        }
        Node::And(a, b) => {
            let (a, b) = (page_truth(a, group, indexes, rows), page_truth(b, group, indexes, rows));
            (a.0.intersect(&b.0), a.1.union(&b.1))
        }
        Node::Or(a, b) => {
            let (a, b) = (page_truth(a, group, indexes, rows), page_truth(b, group, indexes, rows));
            (a.0.union(&b.0), a.1.intersect(&b.1))
        }
        Node::Not(a) => {
            let (pass, fail) = page_truth(a, group, indexes, rows);
            (fail, pass)
        }
    }
}

/// A leaf's (may pass, may fail) rows, page by page, when its column has a
/// sound page index.
fn leaf_pages<R>(
    leaf: &Leaf<R>,
    group: &Group<'_>,
    indexes: &dyn PageIndexes,
    rows: u64,
) -> Option<(RowRanges, RowRanges)> {
    let file = group.file;
    let schema = file.file_metadata().schema_descr();
    let index = (0..schema.num_columns()).find(|&i| schema.column(i).path().parts() == &leaf.parts[..])?;
    let column = schema.column(index);
    if column.max_rep_level() > 0 {
        return None;
    }
    let (column_index, offset_index) = indexes.page_index(group.index, index)?;
    let locations = offset_index.page_locations();
    let n = locations.len();
    // The checks of PageIndex.md: one entry per page, the first page at row
    // 0, first rows strictly increasing and inside the group.
    let starts: Vec<u64> = locations.iter().map(|l| u64::try_from(l.first_row_index).ok()).collect::<Option<_>>()?;
    if n == 0 || column_index.num_pages() != n as u64 || starts[0] != 0 || starts.windows(2).any(|w| w[0] >= w[1]) {
        return None;
    }
    if starts[n - 1] >= rows {
        return None;
    }
    let float = matches!(column.physical_type(), Physical::FLOAT | Physical::DOUBLE)
        || Annotation::of(column.self_type()) == Annotation::Float16;
    let (mut pass, mut fail) = (Vec::new(), Vec::new());
    for page in 0..n {
        let range = (starts[page], starts.get(page + 1).copied().unwrap_or(rows));
        let all_null = column_index.is_null_page(page);
        let bounds = if all_null { None } else { page_bounds(&column_index, page) }
            .and_then(|(min, max)| trusted(file, index, &column, &min, &max, false));
        let chunk = Chunk {
            bounds,
            all_null,
            may_have_null: column_index.null_count(page) != Some(0),
            may_have_nan: float && column_index.nan_count(page) != Some(0),
        };
        let truth = condition_truth(&leaf.condition, &chunk, &column);
        if truth.may_pass {
            pass.push(range);
        }
        if truth.may_fail {
            fail.push(range);
        }
    }
    Some((RowRanges::from_ranges(pass), RowRanges::from_ranges(fail)))
}

/// A page's min and max in a column index, as PLAIN bytes.
fn page_bounds(index: &ColumnIndexMetaData, page: usize) -> Option<(Vec<u8>, Vec<u8>)> {
    fn both<T>(min: Option<&T>, max: Option<&T>, bytes: impl Fn(&T) -> Vec<u8>) -> Option<(Vec<u8>, Vec<u8>)> {
        Some((bytes(min?), bytes(max?)))
    }
    match index {
        ColumnIndexMetaData::BOOLEAN(i) => both(i.min_value(page), i.max_value(page), |v| vec![u8::from(*v)]),
        ColumnIndexMetaData::INT32(i) => both(i.min_value(page), i.max_value(page), |v| v.to_le_bytes().to_vec()),
        ColumnIndexMetaData::INT64(i) => both(i.min_value(page), i.max_value(page), |v| v.to_le_bytes().to_vec()),
        ColumnIndexMetaData::FLOAT(i) => both(i.min_value(page), i.max_value(page), |v| v.to_le_bytes().to_vec()),
        ColumnIndexMetaData::DOUBLE(i) => both(i.min_value(page), i.max_value(page), |v| v.to_le_bytes().to_vec()),
        ColumnIndexMetaData::BYTE_ARRAY(i) | ColumnIndexMetaData::FIXED_LEN_BYTE_ARRAY(i) => {
            Some((i.min_value(page)?.to_vec(), i.max_value(page)?.to_vec()))
        }
        _ => None,
    }
}

/// One column chunk as a predicate sees it.
struct Chunk {
    /// Trusted bounds of the non-null values (NaN excluded).
    bounds: Option<(Key, Key)>,
    /// The chunk holds only nulls.
    all_null: bool,
    /// The chunk may hold a null.
    may_have_null: bool,
    /// The chunk may hold a NaN (a float column without a NaN count of 0).
    may_have_nan: bool,
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
        Condition::Compare(Op::Eq, value) => std::slice::from_ref(value),
        Condition::In(values) => values.as_slice(),
        _ => return truth,
    };
    let Some(filter) = group.blooms.bloom_filter(group.index, index) else { return truth };
    let absent = values.iter().all(|v| v.key(&column).is_some_and(|key| bloom_absent(&filter, &key, &column)));
    // Absent: every record fails (none passes).
    Truth { may_pass: !absent, may_fail: truth.may_fail || absent }
}

/// Whether `filter` shows that no value of the column equals `key`: the
/// key's PLAIN bytes, as the writer hashed them, are absent (each form of a
/// key whose column holds several, such as both zeros of a float).
fn bloom_absent(filter: &Sbbf, key: &Key, column: &ColumnDescriptor) -> bool {
    let annotation = Annotation::of(column.self_type());
    let unsigned = matches!(annotation, Annotation::Integer { signed: false, .. });
    let forms: Vec<Vec<u8>> = match (key, column.physical_type()) {
        (Key::Int(v), Physical::INT32) if unsigned => {
            u32::try_from(*v).map(|v| vec![v.to_le_bytes().to_vec()]).unwrap_or_default()
        }
        (Key::Int(v), Physical::INT32) => i32::try_from(*v).map(|v| vec![v.to_le_bytes().to_vec()]).unwrap_or_default(),
        (Key::Int(v), Physical::INT64) if unsigned => {
            u64::try_from(*v).map(|v| vec![v.to_le_bytes().to_vec()]).unwrap_or_default()
        }
        (Key::Int(v), Physical::INT64) => i64::try_from(*v).map(|v| vec![v.to_le_bytes().to_vec()]).unwrap_or_default(),
        (Key::Int(v), Physical::FIXED_LEN_BYTE_ARRAY) if matches!(annotation, Annotation::Decimal { .. }) => {
            let width = usize::try_from(column.type_length()).unwrap_or(0);
            let bytes = v.to_be_bytes();
            match width {
                1..=16 => vec![bytes[16 - width..].to_vec()],
                _ => return false,
            }
        }
        (Key::Float(v), Physical::DOUBLE) if *v == 0.0 => {
            vec![0f64.to_le_bytes().to_vec(), (-0f64).to_le_bytes().to_vec()]
        }
        (Key::Float(v), Physical::DOUBLE) => vec![v.to_le_bytes().to_vec()],
        (Key::Float(v), Physical::FLOAT) if *v == 0.0 => {
            vec![0f32.to_le_bytes().to_vec(), (-0f32).to_le_bytes().to_vec()]
        }
        (Key::Float(v), Physical::FLOAT) => vec![(*v as f32).to_le_bytes().to_vec()],
        (Key::Bytes(b), Physical::BYTE_ARRAY | Physical::FIXED_LEN_BYTE_ARRAY) => vec![b.clone()],
        // Booleans, decimals of varying width, FLOAT16: not looked up.
        _ => return false,
    };
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

fn condition_truth(condition: &Condition, chunk: &Chunk, column: &ColumnDescriptor) -> Truth {
    match condition {
        Condition::IsNull => Truth { may_pass: chunk.may_have_null, may_fail: !chunk.all_null },
        Condition::IsNotNull => Truth { may_pass: !chunk.all_null, may_fail: chunk.may_have_null },
        // Comparisons fail on nulls; a chunk of nulls passes none.
        _ if chunk.all_null => Truth { may_pass: false, may_fail: true },
        Condition::Compare(op, value) if !matches!(op, Op::Eq | Op::Ne) && !value.ordered() => UNKNOWN,
        Condition::Compare(op, value) => {
            let (Some((min, max)), Some((key, exact))) = (&chunk.bounds, value.floor_key(column)) else {
                return UNKNOWN;
            };
            // A value between two of the column's values (a finer time, a
            // longer decimal) equals none, and bounds ranges by its floor.
            let op = match (exact, *op) {
                (true, op) => op,
                (false, Op::Eq) => return Truth { may_pass: false, may_fail: true },
                (false, Op::Ne) => return Truth { may_pass: true, may_fail: chunk.may_have_null },
                (false, Op::Lt | Op::Le) => Op::Le,
                (false, Op::Gt | Op::Ge) => Op::Gt,
            };
            let Some(range) = Range::new(min, max, &key) else { return UNKNOWN };
            let (pass, fail) = range.compare(op);
            // A NaN fails every comparison but `ne`, which it passes.
            let nan = chunk.may_have_nan;
            Truth {
                may_pass: pass || (nan && op == Op::Ne),
                may_fail: fail || chunk.may_have_null || (nan && op != Op::Ne),
            }
        }
        Condition::In(values) => {
            let Some((min, max)) = &chunk.bounds else { return UNKNOWN };
            let mut may_pass = false;
            let mut may_fail = chunk.may_have_null || chunk.may_have_nan;
            let mut holds_the_one = false;
            for value in values {
                let Some((key, exact)) = value.floor_key(column) else { return UNKNOWN };
                if !exact {
                    // Equal to no value of the column.
                    continue;
                }
                let Some(range) = Range::new(min, max, &key) else { return UNKNOWN };
                may_pass |= range.compare(Op::Eq).0;
                holds_the_one |= range.single == Some(Ordering::Equal);
            }
            may_fail |= !holds_the_one;
            Truth { may_pass, may_fail }
        }
        Condition::StartsWith(prefix) => {
            let Some((Key::Bytes(min), Key::Bytes(max))) = &chunk.bounds else { return UNKNOWN };
            // Strings with the prefix lie in [prefix, successor of prefix).
            let below_max = max.as_slice() >= prefix.as_slice();
            let above_min = successor(prefix).is_none_or(|next| min.as_slice() < next.as_slice());
            Truth { may_pass: below_max && above_min, may_fail: true }
        }
    }
}

/// The smallest byte string greater than every string starting with
/// `prefix` (`None` when every string from `prefix` on qualifies).
fn successor(prefix: &[u8]) -> Option<Vec<u8>> {
    let mut next = prefix.to_vec();
    while let Some(last) = next.pop() {
        if last < 0xFF {
            next.push(last + 1);
            return Some(next);
        }
    }
    None
}

/// A key placed against a chunk's bounds.
struct Range {
    /// `min` against the key.
    min: Ordering,
    /// `max` against the key.
    max: Ordering,
    /// When `min == max` (one value), that value against the key.
    single: Option<Ordering>,
}

impl Range {
    fn new(min: &Key, max: &Key, key: &Key) -> Option<Range> {
        let single = (min.compare(max)? == Ordering::Equal).then_some(min.compare(key)?);
        Some(Range { min: min.compare(key)?, max: max.compare(key)?, single })
    }

    /// Whether some value in `[min, max]` may pass `op` with the key, and
    /// whether some may fail it.
    fn compare(&self, op: Op) -> (bool, bool) {
        use Ordering::*;
        let (lo, hi) = (self.min, self.max);
        // All values equal the key only when min == max == key.
        let all_equal = self.single == Some(Equal);
        match op {
            Op::Eq => (lo != Greater && hi != Less, !all_equal),
            Op::Ne => (!all_equal, lo != Greater && hi != Less),
            Op::Lt => (lo == Less, hi != Less),
            Op::Le => (lo != Greater, hi == Greater),
            Op::Gt => (hi == Greater, lo != Greater),
            Op::Ge => (hi != Less, lo == Less),
        }
    }
}

/// The chunk's min and max as keys, when they can be trusted for this
/// column (parquet-format's `ColumnOrder` and sort orders, and the known
/// bugs of old writers).
fn trusted_bounds(
    file: &ParquetMetaData,
    index: usize,
    column: &ColumnDescriptor,
    stats: &Statistics,
) -> Option<(Key, Key)> {
    let (min, max) = (stats.min_bytes_opt()?, stats.max_bytes_opt()?);
    trusted(file, index, column, min, max, stats.is_min_max_deprecated())
}

/// `min` and `max` (PLAIN bytes, from statistics or a column index) as
/// keys, when the column's order and writer let them be trusted;
/// `deprecated` says they come from the legacy signed fields.
fn trusted(
    file: &ParquetMetaData,
    index: usize,
    column: &ColumnDescriptor,
    min: &[u8],
    max: &[u8],
    deprecated: bool,
) -> Option<(Key, Key)> {
    let annotation = Annotation::of(column.self_type());
    let physical = column.physical_type();
    let unsigned = matches!(annotation, Annotation::Integer { signed: false, .. });
    let decimal = matches!(annotation, Annotation::Decimal { .. });
    let bytes = matches!(physical, Physical::BYTE_ARRAY | Physical::FIXED_LEN_BYTE_ARRAY);
    // Orders that differ from the legacy signed one: unsigned integers,
    // decimals and byte strings.
    let order_sensitive = unsigned || decimal || bytes;
    let equal = min == max;
    match file.file_metadata().column_order(index) {
        ColumnOrder::TYPE_DEFINED_ORDER(SortOrder::UNDEFINED) => return None,
        ColumnOrder::TYPE_DEFINED_ORDER(_) => {}
        // Floats in total order keep NaNs in their bounds: not read here.
        ColumnOrder::IEEE_754_TOTAL_ORDER | ColumnOrder::INT96_TIMESTAMP_ORDER => return None,
        // No order in the footer: the legacy signed order, right for
        // signed types only.
        ColumnOrder::UNDEFINED if order_sensitive && !equal => return None,
        ColumnOrder::UNDEFINED => {}
        _ => return None,
    }
    // The deprecated min/max fields are signed-ordered.
    if deprecated && order_sensitive && !equal {
        return None;
    }
    // parquet-mr before 1.8.0 wrote byte-array bounds in the wrong order
    // (PARQUET-251).
    // (min == max too: its bug reused the value buffer, leaving the last value in both).
    if bytes && !trusted_writer(file.file_metadata().created_by()) {
        return None;
    }
    let key = |raw: &[u8]| key_of(raw, physical, &annotation, column);
    Some((key(min)?, key(max)?))
}

/// Whether `created_by` names a writer whose byte-array statistics are
/// sound: anything but a missing or unparsable name and parquet-mr before
/// 1.8.0 (or without a version).
fn trusted_writer(created_by: Option<&str>) -> bool {
    let Some(created_by) = created_by.filter(|c| !c.trim().is_empty()) else { return false };
    let Some((app, rest)) = created_by.split_once(" version ") else { return !created_by.starts_with("parquet-mr") };
    if app.trim() != "parquet-mr" {
        return true;
    }
    let version = rest.split([' ', '-']).next().unwrap_or("");
    let mut parts = version.split('.').map(|p| p.parse::<u32>().ok());
    match (parts.next().flatten(), parts.next().flatten()) {
        (Some(major), Some(minor)) => (major, minor) >= (1, 8),
        _ => false,
    }
}

/// A statistics value (PLAIN bytes, no length prefix) as a key.
fn key_of(raw: &[u8], physical: Physical, annotation: &Annotation, column: &ColumnDescriptor) -> Option<Key> {
    let unsigned = matches!(annotation, Annotation::Integer { signed: false, .. });
    match physical {
        Physical::BOOLEAN => Some(Key::Bool(*raw.first()? != 0)),
        Physical::INT32 => {
            let v = i32::from_le_bytes(raw.try_into().ok()?);
            Some(Key::Int(if unsigned { i128::from(v as u32) } else { i128::from(v) }))
        }
        Physical::INT64 => {
            let v = i64::from_le_bytes(raw.try_into().ok()?);
            Some(Key::Int(if unsigned { i128::from(v as u64) } else { i128::from(v) }))
        }
        Physical::FLOAT => float_key(f64::from(f32::from_le_bytes(raw.try_into().ok()?))),
        Physical::DOUBLE => float_key(f64::from_le_bytes(raw.try_into().ok()?)),
        Physical::INT96 => None,
        Physical::BYTE_ARRAY | Physical::FIXED_LEN_BYTE_ARRAY => match annotation {
            Annotation::Decimal { .. } => signed_be(raw).map(Key::Int),
            Annotation::Float16 if column.type_length() == 2 => {
                float_key(float16_to_f64(u16::from_le_bytes(raw.try_into().ok()?)))
            }
            Annotation::Float16 | Annotation::Interval | Annotation::Other(_) => None,
            _ => Some(Key::Bytes(raw.to_vec())),
        },
    }
}

fn float_key(v: f64) -> Option<Key> {
    (!v.is_nan()).then_some(Key::Float(v))
}

/// A big-endian two's complement integer of 1 to 16 bytes.
fn signed_be(raw: &[u8]) -> Option<i128> {
    if raw.is_empty() || raw.len() > 16 {
        return None;
    }
    let fill = if raw[0] & 0x80 != 0 { 0xFF } else { 0 };
    let mut bytes = [fill; 16];
    bytes[16 - raw.len()..].copy_from_slice(raw);
    Some(i128::from_be_bytes(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writers_with_sound_byte_statistics() {
        assert!(trusted_writer(Some("parquet-mr version 1.8.0 (build abc)")));
        assert!(trusted_writer(Some("parquet-mr version 1.12.3")));
        assert!(trusted_writer(Some("parquet-cpp-arrow version 14.0.0")));
        assert!(trusted_writer(Some("magnolify-parquet-rs 0.1.0")));
        assert!(!trusted_writer(Some("parquet-mr version 1.7.9")));
        assert!(!trusted_writer(Some("parquet-mr")));
        assert!(!trusted_writer(Some("")));
        assert!(!trusted_writer(None));
    }

    #[test]
    fn comparisons_against_bounds() {
        let range = |min, max, key| Range::new(&Key::Int(min), &Key::Int(max), &Key::Int(key)).unwrap();
        // [10, 20]
        assert_eq!(range(10, 20, 5).compare(Op::Eq), (false, true));
        assert_eq!(range(10, 20, 15).compare(Op::Eq), (true, true));
        assert_eq!(range(10, 20, 10).compare(Op::Lt), (false, true));
        assert_eq!(range(10, 20, 10).compare(Op::Le), (true, true));
        assert_eq!(range(10, 20, 20).compare(Op::Gt), (false, true));
        assert_eq!(range(10, 20, 21).compare(Op::Lt), (true, false));
        assert_eq!(range(10, 20, 9).compare(Op::Ge), (true, false));
        assert_eq!(range(7, 7, 7).compare(Op::Eq), (true, false));
        assert_eq!(range(7, 7, 7).compare(Op::Ne), (false, true));
    }

    #[test]
    fn byte_successors() {
        assert_eq!(successor(b"ab"), Some(b"ac".to_vec()));
        assert_eq!(successor(&[0x61, 0xFF]), Some(vec![0x62]));
        assert_eq!(successor(&[0xFF, 0xFF]), None);
        assert_eq!(successor(b""), None);
    }

    #[test]
    fn decimal_bounds_decode() {
        assert_eq!(signed_be(&[0xFF, 0x38]), Some(-200));
        assert_eq!(signed_be(&[0x00, 0xC8]), Some(200));
        assert_eq!(signed_be(&[]), None);
    }
}
