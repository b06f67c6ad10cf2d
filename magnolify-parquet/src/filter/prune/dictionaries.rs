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

use super::plain::plain_forms;
use crate::filter::predicate::{Comparison, Condition};
use crate::logical::Annotation;

/// The values of a column chunk's dictionary page, decompressed and
/// still PLAIN: looked up as they are, never decoded.
pub(crate) type DictionaryValues = Arc<DictionaryPage>;

/// A dictionary page's `count` PLAIN values: length-prefixed byte arrays,
/// or values of one `width`.
#[derive(Debug)]
pub(crate) struct DictionaryPage {
    plain: bytes::Bytes,
    count: usize,
    width: Option<usize>,
}

impl DictionaryPage {
    /// The page of `count` values of a column of `physical` type (and
    /// `type_length`, for fixed-length byte arrays); `None` for booleans
    /// and INT96, which are not looked up.
    pub(crate) fn new(plain: bytes::Bytes, count: usize, physical: Physical, type_length: i32) -> Option<Self> {
        let width = match physical {
            Physical::BYTE_ARRAY => None,
            Physical::INT32 | Physical::FLOAT => Some(4),
            Physical::INT64 | Physical::DOUBLE => Some(8),
            Physical::FIXED_LEN_BYTE_ARRAY => Some(usize::try_from(type_length).ok().filter(|&w| w > 0)?),
            Physical::BOOLEAN | Physical::INT96 => return None,
        };
        Some(DictionaryPage { plain, count, width })
    }

    /// Whether some value of the page is one of `forms`; `None` when the
    /// page does not hold its `count` values (then nothing is known).
    fn holds_any(&self, forms: &[Vec<u8>]) -> Option<bool> {
        let is_asked = |value: &[u8]| forms.iter().any(|form| form.as_slice() == value);
        match self.width {
            Some(width) => {
                let values = self.plain.get(..self.count.checked_mul(width)?)?;
                Some(values.chunks_exact(width).any(is_asked))
            }
            None => {
                let (mut rest, mut found) = (&self.plain[..], false);
                for _ in 0..self.count {
                    let (length, tail) = rest.split_first_chunk::<4>()?;
                    let length = usize::try_from(u32::from_le_bytes(*length)).ok()?;
                    let (value, tail) = (tail.get(..length)?, &tail[length..]);
                    found |= is_asked(value);
                    rest = tail;
                }
                Some(found)
            }
        }
    }
}

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
/// equality or a set of values, on a column whose values have PLAIN forms
/// to look up (not booleans, whose statistics already say all, nor INT96
/// or FLOAT16).
pub(super) fn decides(condition: &Condition, column: &ColumnDescriptor) -> bool {
    let equality = matches!(condition, Condition::Compare(Comparison::Eq, _) | Condition::In(_));
    let known = !matches!(column.physical_type(), Physical::BOOLEAN | Physical::INT96)
        && Annotation::of(column.self_type()) != Annotation::Float16;
    equality && known
}

/// Whether no record of a chunk whose values are all in `dictionary` can
/// pass `condition` (an equality, see [`decides`]; it fails on nulls): no
/// PLAIN form of any value asked for is in it (compared as bytes). `None` when a value asked for has
/// no known form, or the page does not read: nothing is known.
pub(super) fn rules_out(condition: &Condition, dictionary: &DictionaryPage, column: &ColumnDescriptor) -> Option<bool> {
    let values = match condition {
        Condition::Compare(Comparison::Eq, value) => std::slice::from_ref(value),
        Condition::In(values) => values.as_slice(),
        _ => return None,
    };
    let mut forms = Vec::new();
    for value in values {
        let found = plain_forms(&value.key(column)?, column);
        if found.is_empty() {
            return None;
        }
        forms.extend(found);
    }
    dictionary.holds_any(&forms).map(|held| !held)
}

#[cfg(test)]
mod tests {
    use parquet::basic::Type as Physical;

    use super::DictionaryPage;

    fn byte_arrays(values: &[&str]) -> bytes::Bytes {
        let mut plain = Vec::new();
        for v in values {
            plain.extend_from_slice(&(v.len() as u32).to_le_bytes());
            plain.extend_from_slice(v.as_bytes());
        }
        plain.into()
    }

    #[test]
    fn values_are_looked_up_as_plain_bytes() {
        let page = DictionaryPage::new(byte_arrays(&["Accra", "", "Oslo"]), 3, Physical::BYTE_ARRAY, 0).unwrap();
        let forms = |values: &[&str]| values.iter().map(|v| v.as_bytes().to_vec()).collect::<Vec<_>>();
        assert_eq!(page.holds_any(&forms(&["Oslo"])), Some(true));
        assert_eq!(page.holds_any(&forms(&[""])), Some(true));
        assert_eq!(page.holds_any(&forms(&["Lima", "Osl"])), Some(false));

        let ints: Vec<u8> = [7i32, -1].iter().flat_map(|v| v.to_le_bytes()).collect();
        let page = DictionaryPage::new(ints.into(), 2, Physical::INT32, 0).unwrap();
        assert_eq!(page.holds_any(&[(-1i32).to_le_bytes().to_vec()]), Some(true));
        assert_eq!(page.holds_any(&[8i32.to_le_bytes().to_vec()]), Some(false));
        assert!(DictionaryPage::new(bytes::Bytes::new(), 0, Physical::BOOLEAN, 0).is_none());
    }

    #[test]
    fn a_page_that_holds_fewer_values_than_it_says_knows_nothing() {
        let page = DictionaryPage::new(byte_arrays(&["a", "b"]), 3, Physical::BYTE_ARRAY, 0).unwrap();
        assert_eq!(page.holds_any(&[b"z".to_vec()]), None);
        let mut cut = byte_arrays(&["abc"]).to_vec();
        cut.truncate(5);
        let page = DictionaryPage::new(cut.into(), 1, Physical::BYTE_ARRAY, 0).unwrap();
        assert_eq!(page.holds_any(&[b"abc".to_vec()]), None);
        let page = DictionaryPage::new(vec![0u8; 12].into(), 2, Physical::FIXED_LEN_BYTE_ARRAY, 8).unwrap();
        assert_eq!(page.holds_any(&[vec![0u8; 8]]), None);
    }
}
