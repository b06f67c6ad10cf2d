//! A row group decided by the dictionaries of the columns that equalities
//! name: where every data page of a column chunk is dictionary-encoded, its
//! dictionary page holds every value the chunk has (and perhaps more), so
//! a value the dictionary lacks is in no record of the row group. This is
//! what decides a row group whose statistics span the value without
//! holding it (`"a"` and `"c"`, asked for `"b"`), and enum tags and other
//! columns of few distinct values.

use std::sync::Arc;

use parquet::basic::Type as Physical;
use parquet::schema::types::ColumnDescriptor;

use super::trust::key_of;
use super::{condition_truth, Chunk, Truth};
use crate::filter::key::Key;
use crate::filter::predicate::{Condition, Op};
use crate::logical::Annotation;

/// The values of a column chunk's dictionary page, each as its PLAIN bytes
/// (a byte array without its length).
pub(crate) type DictionaryValues = Arc<Vec<Vec<u8>>>;

/// Where the dictionary of a column chunk comes from: `None` when the
/// chunk has none, when some data page of the chunk is not
/// dictionary-encoded (its values need not be in the dictionary), or when
/// it cannot be read (then it does not prune).
pub(crate) trait Dictionaries {
    /// The dictionary of column `column` of row group `group`.
    fn dictionary(&self, group: usize, column: usize) -> Option<DictionaryValues>;
}

/// No dictionaries.
pub(crate) struct NoDictionaries;

impl Dictionaries for NoDictionaries {
    fn dictionary(&self, _: usize, _: usize) -> Option<DictionaryValues> {
        None
    }
}

/// Whether a dictionary is worth reading for `condition` on `column`: an
/// equality or a set of values, on a column whose keys compare exactly
/// (not floats, whose two zeros and NaNs equality does not order as keys
/// do; not booleans, whose statistics already say all).
pub(super) fn decides(condition: &Condition, column: &ColumnDescriptor) -> bool {
    let equality = matches!(condition, Condition::Compare(Op::Eq, _) | Condition::In(_));
    let exact = !matches!(column.physical_type(), Physical::FLOAT | Physical::DOUBLE | Physical::BOOLEAN)
        && Annotation::of(column.self_type()) != Annotation::Float16;
    equality && exact
}

/// Whether no record of a chunk whose values are all in `dictionary` can
/// pass `condition` (an equality, see [`decides`]; it fails on nulls).
/// `None` when a value cannot be read as a key: nothing is known.
pub(super) fn rules_out(condition: &Condition, dictionary: &[Vec<u8>], column: &ColumnDescriptor) -> Option<bool> {
    let annotation = Annotation::of(column.self_type());
    for raw in dictionary {
        let key: Key = key_of(raw, column.physical_type(), &annotation, column)?;
        let one =
            Chunk { bounds: Some((key.clone(), key)), all_null: false, may_have_null: false, may_have_nan: false };
        let Truth { may_pass, .. } = condition_truth(condition, &one, column);
        if may_pass {
            return Some(false);
        }
    }
    Some(true)
}
