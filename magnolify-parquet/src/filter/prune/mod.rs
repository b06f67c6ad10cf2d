//! Row groups and pages ruled out by their column chunks' statistics,
//! trusting only what the format and the writers' known bugs allow.
//!
//! [`row_groups`] decides a row group by its chunks' statistics, bloom
//! filters and [`dictionaries`] (and a dataset file by its constant columns), [`pages`] narrows a
//! row group to the rows of the pages its column indexes leave, and
//! [`trust`] says which bounds can be believed. What bounds allow of each
//! condition, and of a predicate from its leaves, is here.

mod dictionaries;
mod pages;
mod plain;
mod row_groups;
mod trust;

use std::cmp::Ordering;

use parquet::file::metadata::ParquetMetaData;
use parquet::schema::types::ColumnDescriptor;

pub(crate) use dictionaries::{Dictionaries, DictionaryPage, DictionaryValues};
pub(crate) use pages::{page_selection, PageIndexes};
pub(crate) use row_groups::{constants_may_pass, verdict, BloomFilters, Verdict};

use super::key::Key;
use super::predicate::{Comparison, Condition, Leaf, Node};

/// What a row group's statistics allow of a predicate: whether some record
/// may pass it, and whether some record may fail it. Both `true` means
/// nothing is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Truth {
    may_pass: bool,
    may_fail: bool,
}

const UNKNOWN: Truth = Truth { may_pass: true, may_fail: true };

/// A row group and what can be known of it.
struct Group<'a> {
    file: &'a ParquetMetaData,
    index: usize,
    blooms: &'a dyn BloomFilters,
    dictionaries: &'a dyn Dictionaries,
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

fn condition_truth(condition: &Condition, chunk: &Chunk, column: &ColumnDescriptor) -> Truth {
    match condition {
        Condition::IsNull => Truth { may_pass: chunk.may_have_null, may_fail: !chunk.all_null },
        Condition::IsNotNull => Truth { may_pass: !chunk.all_null, may_fail: chunk.may_have_null },
        // Comparisons fail on nulls; a chunk of nulls passes none.
        _ if chunk.all_null => Truth { may_pass: false, may_fail: true },
        Condition::Compare(op, value) if !matches!(op, Comparison::Eq | Comparison::Ne) && !value.ordered() => UNKNOWN,
        Condition::Compare(op, value) => {
            let (Some((min, max)), Some((key, exact))) = (&chunk.bounds, value.floor_key(column)) else {
                return UNKNOWN;
            };
            // A value between two of the column's values (a finer time, a
            // longer decimal) equals none, and bounds ranges by its floor.
            let op = match (exact, *op) {
                (true, op) => op,
                (false, Comparison::Eq) => return Truth { may_pass: false, may_fail: true },
                (false, Comparison::Ne) => return Truth { may_pass: true, may_fail: chunk.may_have_null },
                (false, Comparison::Lt | Comparison::Le) => Comparison::Le,
                (false, Comparison::Gt | Comparison::Ge) => Comparison::Gt,
            };
            let Some(range) = Range::new(min, max, &key) else { return UNKNOWN };
            let (pass, fail) = range.compare(op);
            // A NaN fails every comparison but `ne`, which it passes.
            let nan = chunk.may_have_nan;
            Truth {
                may_pass: pass || (nan && op == Comparison::Ne),
                may_fail: fail || chunk.may_have_null || (nan && op != Comparison::Ne),
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
                may_pass |= range.compare(Comparison::Eq).0;
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
    fn compare(&self, op: Comparison) -> (bool, bool) {
        use Ordering::*;
        let (lo, hi) = (self.min, self.max);
        // All values equal the key only when min == max == key.
        let all_equal = self.single == Some(Equal);
        match op {
            Comparison::Eq => (lo != Greater && hi != Less, !all_equal),
            Comparison::Ne => (!all_equal, lo != Greater && hi != Less),
            Comparison::Lt => (lo == Less, hi != Less),
            Comparison::Le => (lo != Greater, hi == Greater),
            Comparison::Gt => (hi == Greater, lo != Greater),
            Comparison::Ge => (hi != Less, lo == Less),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comparisons_against_bounds() {
        let range = |min, max, key| Range::new(&Key::Int(min), &Key::Int(max), &Key::Int(key)).unwrap();
        // [10, 20]
        assert_eq!(range(10, 20, 5).compare(Comparison::Eq), (false, true));
        assert_eq!(range(10, 20, 15).compare(Comparison::Eq), (true, true));
        assert_eq!(range(10, 20, 10).compare(Comparison::Lt), (false, true));
        assert_eq!(range(10, 20, 10).compare(Comparison::Le), (true, true));
        assert_eq!(range(10, 20, 20).compare(Comparison::Gt), (false, true));
        assert_eq!(range(10, 20, 21).compare(Comparison::Lt), (true, false));
        assert_eq!(range(10, 20, 9).compare(Comparison::Ge), (true, false));
        assert_eq!(range(7, 7, 7).compare(Comparison::Eq), (true, false));
        assert_eq!(range(7, 7, 7).compare(Comparison::Ne), (false, true));
    }

    #[test]
    fn byte_successors() {
        assert_eq!(successor(b"ab"), Some(b"ac".to_vec()));
        assert_eq!(successor(&[0x61, 0xFF]), Some(vec![0x62]));
        assert_eq!(successor(&[0xFF, 0xFF]), None);
        assert_eq!(successor(b""), None);
    }
}
