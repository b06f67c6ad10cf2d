//! The bloom filter of a column chunk, built as the `parquet` crate's
//! `ColumnWriter` builds it (its `column/writer/encoder.rs`): sized from the
//! column's `BloomFilterProperties` (ndv, fpp), every value hashed by the
//! bytes of its PLAIN encoding (without a length for byte arrays), and
//! folded down to the target fpp at the end.
//!
//! Inserting a value twice changes nothing, so an encoder may insert its
//! dictionary's distinct values once instead of every value (as the crate
//! does while it dictionary-encodes).

use std::ops::Range;

use parquet::bloom_filter::Sbbf;
use parquet::file::properties::WriterProperties;
use parquet::schema::types::ColumnDescPtr;

use crate::error::Result;
use crate::values::ColumnValues;

/// The bloom filter of one chunk, values inserted batch by batch.
pub(crate) struct BloomWriter {
    filter: Sbbf,
    /// The target false positive probability the filter folds down to.
    fpp: f64,
    /// `bloom_filter_for_dictionary_encoded_chunks`: whether a chunk whose
    /// data pages are all dictionary-encoded keeps its filter.
    for_dictionary_chunks: bool,
}

impl BloomWriter {
    /// The filter of a column's chunk, `None` when the props set no bloom
    /// filter for the column; an error for properties the crate refuses.
    pub(crate) fn new(descr: &ColumnDescPtr, props: &WriterProperties) -> Result<Option<Self>> {
        let Some(settings) = props.bloom_filter_properties(descr.path()) else {
            return Ok(None);
        };
        Ok(Some(BloomWriter {
            filter: Sbbf::new_with_ndv_fpp(settings.ndv(), settings.fpp())?,
            fpp: settings.fpp(),
            for_dictionary_chunks: props.bloom_filter_for_dictionary_encoded_chunks(),
        }))
    }

    /// Inserts `values[range]` (nothing if the range is not in the values).
    pub(crate) fn insert(&mut self, values: &ColumnValues, range: Range<usize>) {
        // Each value hashes as the crate's `AsBytes` sees it, so that readers
        // probing the filter with the crate find it.
        match values {
            ColumnValues::Bool(v) => v.get(range).unwrap_or_default().iter().for_each(|v| self.filter.insert(v)),
            ColumnValues::I32(v) => v.get(range).unwrap_or_default().iter().for_each(|v| self.filter.insert(v)),
            ColumnValues::I64(v) => v.get(range).unwrap_or_default().iter().for_each(|v| self.filter.insert(v)),
            ColumnValues::I96(v) => v.get(range).unwrap_or_default().iter().for_each(|v| self.filter.insert(v)),
            ColumnValues::F32(v) => v.get(range).unwrap_or_default().iter().for_each(|v| self.filter.insert(v)),
            ColumnValues::F64(v) => v.get(range).unwrap_or_default().iter().for_each(|v| self.filter.insert(v)),
            ColumnValues::Bytes(b) | ColumnValues::Fixed(b, _) => {
                let ends = b.ends();
                let data = b.data();
                let mut start = match range.start.checked_sub(1) {
                    Some(before) => ends.get(before).copied().unwrap_or(0),
                    None => 0,
                };
                for &end in ends.get(range).unwrap_or_default() {
                    self.filter.insert(data.get(start..end).unwrap_or_default());
                    start = end;
                }
            }
        }
    }

    /// The filter, folded to the target fpp, as the crate writes it for the
    /// chunk: `None` when `only_dictionary_pages` (no data page of the chunk
    /// is encoded otherwise than by dictionary, which is also so of a chunk
    /// without data pages) and the props set
    /// `bloom_filter_for_dictionary_encoded_chunks` to false.
    pub(crate) fn finish(mut self, only_dictionary_pages: bool) -> Option<Sbbf> {
        if only_dictionary_pages && !self.for_dictionary_chunks {
            return None;
        }
        self.filter.fold_to_target_fpp(self.fpp);
        Some(self.filter)
    }
}

#[cfg(test)]
mod tests {
    use parquet::file::properties::{BloomFilterProperties, WriterPropertiesBuilder};
    use parquet::schema::types::ColumnPath;

    use super::super::testing::{check, descriptor, run_with, specs, Case, Layout, Ours, Rng, Spec, Theirs};
    use super::*;
    use crate::values::ByteBuffer;

    fn spec(name: &str) -> Spec {
        specs("all").into_iter().find(|s| s.name == name).unwrap_or_else(|| panic!("no spec {name}"))
    }

    fn bitset(filter: &Sbbf) -> Vec<u8> {
        let mut bytes = Vec::new();
        filter.write_bitset(&mut bytes).expect("bitset");
        bytes
    }

    fn strings(values: &[&str]) -> ColumnValues {
        let mut buf = ByteBuffer::default();
        values.iter().for_each(|v| buf.push(v.as_bytes()));
        ColumnValues::Bytes(buf)
    }

    fn run(name: &str, values: ColumnValues, props: WriterPropertiesBuilder) -> (Ours, Theirs) {
        let case = Case {
            descr: descriptor(&spec(name), Layout::Required),
            props: props.build(),
            def: vec![],
            rep: vec![],
            values,
        };
        check(&case, &mut Rng::new(3))
    }

    /// Every column type, with filters of random ndv and fpp set in every way
    /// the props allow; the harness compares the bitsets.
    #[test]
    fn bloom_filters_match_the_crate_for_every_type() {
        let coverage = run_with("all", 21, 40, |props, rng| {
            let path = ColumnPath::from("v");
            let ndv = rng.pick(&[0, 1, 7, 100, 3000]);
            let fpp = rng.pick(&[0.9, 0.3, 0.05, 0.01, 0.0001]);
            match rng.below(4) {
                // The ndv then is the max row group row count (100 or 5000).
                0 => props.set_bloom_filter_enabled(true),
                1 => props.set_bloom_filter_fpp(fpp),
                2 => props.set_column_bloom_filter_properties(
                    path,
                    BloomFilterProperties::builder().with_fpp(fpp).with_max_ndv(ndv).build(),
                ),
                _ => props.set_bloom_filter_fpp(fpp).set_bloom_filter_max_ndv(ndv),
            }
        });
        assert!(coverage.blooms > coverage.cases / 2 && coverage.dropped_blooms > 0, "{coverage:?}");
    }

    #[test]
    fn default_filters_fold_from_a_megabyte() {
        let descr = descriptor(&spec("BYTE_ARRAY STRING"), Layout::Required);
        let props = WriterProperties::builder().set_bloom_filter_enabled(true).build();
        let writer = BloomWriter::new(&descr, &props).expect("valid").expect("a filter");
        // 1,048,576 values at fpp 0.05: 7.2 million bits, a MiB of 32-byte blocks.
        assert_eq!((writer.filter.num_blocks(), writer.fpp), (32768, 0.05));
        let values = strings(&["a", "b", "c"]);
        let (ours, theirs) =
            run("BYTE_ARRAY STRING", values, WriterProperties::builder().set_bloom_filter_enabled(true));
        let (ours, theirs) = (ours.bloom.expect("ours"), theirs.close.bloom_filter.expect("theirs"));
        assert_eq!(bitset(&ours), bitset(&theirs));
        assert_eq!(ours.num_blocks(), 1, "three values fold to one block");
        let none = WriterProperties::builder().build();
        assert!(BloomWriter::new(&descr, &none).expect("valid").is_none());
    }

    #[test]
    fn dictionary_encoded_chunks_drop_the_filter_when_asked() {
        let values = || strings(&["x", "y", "x", "z"]);
        let props = |dictionary_limit: usize, keep: bool| {
            WriterProperties::builder()
                .set_bloom_filter_fpp(0.01)
                .set_bloom_filter_max_ndv(10)
                .set_dictionary_page_size_limit(dictionary_limit)
                .set_write_batch_size(1)
                .set_bloom_filter_for_dictionary_encoded_chunks(keep)
        };
        let filter = |props| {
            let (ours, theirs) = run("BYTE_ARRAY STRING", values(), props);
            assert_eq!(ours.bloom.as_ref().map(bitset), theirs.close.bloom_filter.as_ref().map(bitset));
            ours.bloom.is_some()
        };
        assert!(!filter(props(1 << 20, false)), "dictionary pages only");
        assert!(filter(props(1 << 20, true)));
        assert!(filter(props(1, false)), "the dictionary overflowed: plain pages follow");
        let empty = || ColumnValues::Bytes(ByteBuffer::default());
        let (ours, theirs) = run("BYTE_ARRAY STRING", empty(), props(1 << 20, false));
        assert!(ours.bloom.is_none() && theirs.close.bloom_filter.is_none(), "no pages: none");
        let (ours, _) = run("BYTE_ARRAY STRING", empty(), props(1 << 20, true));
        assert_eq!(ours.bloom.map(|b| b.num_blocks()), Some(1), "an empty filter folds to one block");
    }

    #[test]
    fn every_value_inserted_is_found() {
        let props = WriterProperties::builder().set_bloom_filter_fpp(0.01).set_bloom_filter_max_ndv(50).build();
        let mut rng = Rng::new(5);
        for spec in specs("all") {
            let descr = descriptor(&spec, Layout::Required);
            let mut writer = BloomWriter::new(&descr, &props).expect("valid").expect("a filter");
            let values = random_values(&spec, &mut rng);
            writer.insert(&values, 0..values.len());
            let filter = writer.finish(false).expect("a filter");
            let found = match &values {
                ColumnValues::Bool(v) => v.iter().all(|v| filter.check(v)),
                ColumnValues::I32(v) => v.iter().all(|v| filter.check(v)),
                ColumnValues::I64(v) => v.iter().all(|v| filter.check(v)),
                ColumnValues::I96(v) => v.iter().all(|v| filter.check(v)),
                ColumnValues::F32(v) => v.iter().all(|v| filter.check(v)),
                ColumnValues::F64(v) => v.iter().all(|v| filter.check(v)),
                ColumnValues::Bytes(b) | ColumnValues::Fixed(b, _) => b.split().into_iter().all(|v| filter.check(v)),
            };
            assert!(found, "{}", spec.name);
        }
    }

    /// Some values of a column type, through a case of the stats harness.
    fn random_values(spec: &Spec, rng: &mut Rng) -> ColumnValues {
        let props = WriterProperties::builder().build();
        super::super::testing::random_case(rng, spec, props).values
    }

    #[test]
    fn ranges_out_of_the_values_insert_nothing() {
        let descr = descriptor(&spec("INT32"), Layout::Required);
        let props = WriterProperties::builder().set_bloom_filter_max_ndv(10).build();
        let empty = BloomWriter::new(&descr, &props).expect("valid").expect("a filter").finish(false).expect("kept");
        let mut writer = BloomWriter::new(&descr, &props).expect("valid").expect("a filter");
        writer.insert(&ColumnValues::I32(vec![1, 2, 3]), 2..9);
        writer.insert(&ColumnValues::I32(vec![1, 2, 3]), 3..3);
        let mut buf = ByteBuffer::default();
        buf.push(b"ab");
        writer.insert(&ColumnValues::Bytes(buf), 1..4);
        assert_eq!(bitset(&writer.finish(false).expect("kept")), bitset(&empty));
    }
}
