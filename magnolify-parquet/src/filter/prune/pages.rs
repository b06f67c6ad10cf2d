//! A row group narrowed to the rows of the pages that its columns' page
//! indexes (column index and offset index) leave.

use std::sync::Arc;

use parquet::basic::Type as Physical;
use parquet::file::metadata::ParquetMetaData;
use parquet::file::page_index::column_index::ColumnIndexMetaData;
use parquet::file::page_index::offset_index::OffsetIndexMetaData;

use super::dictionaries::NoDictionaries;
use super::row_groups::NoBloomFilters;
use super::trust::trusted;
use super::{condition_truth, Chunk, Group};
use crate::filter::predicate::{Leaf, Node};
use crate::filter::RowRanges;
use crate::guard::catch;
use crate::logical::Annotation;

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
    let group = Group { file, index, blooms: &NoBloomFilters, dictionaries: &NoDictionaries };
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
