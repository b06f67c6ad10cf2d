//! The dictionary of one column chunk: each distinct value once, in the
//! order first seen, and for each value written, its index.
//!
//! Values are looked up by hash in a table of entry indices, compared
//! against the entries' own bytes: a byte string is copied once, when it is
//! first seen, and nothing is allocated or reference-counted per value.

use std::hash::BuildHasher;
use std::ops::Range;

use hashbrown::HashTable;

use super::plain;
use crate::values::{ColumnValues, SHORT};

/// A dictionary being built.
pub(crate) struct Dictionary {
    /// The entries, in index order.
    entries: ColumnValues,
    /// Each entry's index (low 32 bits) under the high 32 bits of its
    /// hash: growing the table never hashes an entry again, and a slot of
    /// 8 bytes (not 16 for a `(u64, u32)`) halves the memory a rehash moves.
    table: HashTable<u64>,
    state: foldhash::fast::FixedState,
    /// Bytes of the entries once PLAIN encoded: the dictionary page's size.
    encoded: usize,
}

impl Dictionary {
    /// An empty dictionary whose entries are of the kind of `empty`.
    pub(crate) fn new(empty: ColumnValues) -> Self {
        Dictionary { entries: empty, table: HashTable::new(), state: Default::default(), encoded: 0 }
    }

    /// Number of entries.
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// The entries, in index order.
    pub(crate) fn entries(&self) -> &ColumnValues {
        &self.entries
    }

    /// Size of the dictionary page (PLAIN, uncompressed).
    pub(crate) fn encoded_size(&self) -> usize {
        self.encoded
    }

    /// The dictionary page's values: the entries, PLAIN.
    pub(crate) fn page(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.encoded + SHORT);
        plain::encode(&self.entries, 0..self.entries.len(), &mut out);
        out
    }

    /// Appends to `out` the index of each value of `values[range]`, adding
    /// the values not seen before.
    pub(crate) fn intern(&mut self, values: &ColumnValues, range: Range<usize>, out: &mut Vec<u32>) {
        out.reserve(range.len());
        let Dictionary { entries, table, state, encoded } = self;
        // Room for every value of the range being new: the small early
        // growth steps are skipped, and no rehash happens mid-range.
        table.reserve(range.len(), |&slot| rehash(slot));
        macro_rules! fixed {
            ($v:ident, $e:ident, $bits:expr, $width:expr) => {{
                for &x in &$v[range] {
                    let key = $bits(x);
                    let hash = high(state.hash_one(key));
                    let found = table.find(hash, |&slot| same_hash(slot, hash) && $bits($e[index_of(slot)]) == key);
                    let index = match found {
                        Some(&slot) => slot as u32,
                        None => {
                            let i = $e.len() as u32;
                            $e.push(x);
                            *encoded += $width;
                            table.insert_unique(hash, slot(hash, i), |&slot| rehash(slot));
                            i
                        }
                    };
                    out.push(index);
                }
            }};
        }
        match (values, entries) {
            (ColumnValues::I32(v), ColumnValues::I32(e)) => fixed!(v, e, |x: i32| x, 4),
            (ColumnValues::I64(v), ColumnValues::I64(e)) => fixed!(v, e, |x: i64| x, 8),
            // Floats by their bits: -0.0 and 0.0 are distinct values, and a
            // NaN finds itself.
            (ColumnValues::F32(v), ColumnValues::F32(e)) => fixed!(v, e, f32::to_bits, 4),
            (ColumnValues::F64(v), ColumnValues::F64(e)) => fixed!(v, e, f64::to_bits, 8),
            (ColumnValues::I96(v), ColumnValues::I96(e)) => {
                fixed!(v, e, |x: parquet::data_type::Int96| <[u32; 3]>::try_from(x.data()).unwrap_or_default(), 12)
            }
            (ColumnValues::Bytes(v), ColumnValues::Bytes(e))
            | (ColumnValues::Fixed(v, _), ColumnValues::Fixed(e, _)) => {
                // A BYTE_ARRAY entry is PLAIN encoded with a 4-byte length.
                let prefix = if matches!(values, ColumnValues::Bytes(_)) { 4 } else { 0 };
                for i in range {
                    let value = v.get(i).unwrap_or_default();
                    let hash = high(state.hash_one(value));
                    let found = table.find(hash, |&slot| same_hash(slot, hash) && e.get(index_of(slot)) == Some(value));
                    let index = match found {
                        Some(&slot) => slot as u32,
                        None => {
                            let j = e.len() as u32;
                            // Copied from the batch's buffer, where short values copy as a block.
                            e.push_value_of(v, i).unwrap_or_else(|| e.push(value));
                            *encoded += prefix + value.len();
                            table.insert_unique(hash, slot(hash, j), |&slot| rehash(slot));
                            j
                        }
                    };
                    out.push(index);
                }
            }
            // BOOLEAN has no dictionary, and the kinds always match: the
            // encoder made the dictionary for the column it encodes.
            _ => {}
        }
    }
}

/// The high 32 bits of a hash, where the table's slots keep them. The table
/// places a slot by the hash's low bits and tags it with the top 7, so the
/// hash it is given repeats the kept bits in both halves ([`rehash`]).
fn high(hash: u64) -> u64 {
    rehash(hash)
}

/// The hash the table is given for a slot (or for a hash's high bits).
fn rehash(slot: u64) -> u64 {
    let kept = slot >> 32;
    (kept << 32) | kept
}

/// The slot of entry `index`, whose value hashed to `hash` (as [`high`] made it).
fn slot(hash: u64, index: u32) -> u64 {
    (hash & !u64::from(u32::MAX)) | u64::from(index)
}

/// Whether `slot` was made from the value hashed to `hash` (as [`high`] made it).
fn same_hash(slot: u64, hash: u64) -> bool {
    slot >> 32 == hash >> 32
}

/// The entry index a slot holds.
fn index_of(slot: u64) -> usize {
    (slot & u64::from(u32::MAX)) as usize
}

#[cfg(test)]
mod tests {
    use parquet::basic::Type as PhysicalType;

    use super::*;
    use crate::values::ByteBuffer;

    #[test]
    fn each_value_once_in_first_seen_order() {
        let mut d = Dictionary::new(ColumnValues::new(PhysicalType::INT64, 0));
        let mut out = Vec::new();
        d.intern(&ColumnValues::I64(vec![5, 7, 5, 9, 7, 7]), 0..6, &mut out);
        d.intern(&ColumnValues::I64(vec![9, 1]), 0..2, &mut out);
        assert_eq!(out, [0, 1, 0, 2, 1, 1, 2, 3]);
        assert_eq!(d.len(), 4);
        assert_eq!(d.encoded_size(), 32);
        let page = d.page();
        assert_eq!(&page[..8], &5i64.to_le_bytes());
        assert_eq!(&page[24..], &1i64.to_le_bytes());
    }

    #[test]
    fn byte_strings_and_float_bits() {
        let mut b = ByteBuffer::default();
        for s in ["ab", "", "ab", "c", ""] {
            b.push(s.as_bytes());
        }
        let mut d = Dictionary::new(ColumnValues::new(PhysicalType::BYTE_ARRAY, 0));
        let mut out = Vec::new();
        d.intern(&ColumnValues::Bytes(b), 1..5, &mut out);
        assert_eq!(out, [0, 1, 2, 0]);
        assert_eq!(d.page(), [0, 0, 0, 0, 2, 0, 0, 0, b'a', b'b', 1, 0, 0, 0, b'c']);
        assert_eq!(d.encoded_size(), 15);

        let mut d = Dictionary::new(ColumnValues::new(PhysicalType::DOUBLE, 0));
        let mut out = Vec::new();
        d.intern(&ColumnValues::F64(vec![0.0, -0.0, f64::NAN, f64::NAN, 0.0]), 0..5, &mut out);
        assert_eq!(out, [0, 1, 2, 2, 0]);
    }

    #[test]
    fn many_entries_survive_the_table_growing() {
        let mut d = Dictionary::new(ColumnValues::new(PhysicalType::INT32, 0));
        let values: Vec<i32> = (0..10_000).map(|i| (i * 7919) % 3001).collect();
        let mut out = Vec::new();
        d.intern(&ColumnValues::I32(values.clone()), 0..values.len(), &mut out);
        assert_eq!(d.len(), 3001);
        let ColumnValues::I32(entries) = &d.entries else { panic!("type") };
        assert!(out.iter().zip(&values).all(|(i, v)| entries[*i as usize] == *v));
    }
}
