//! The whole encoder against the `parquet` crate's column writer: random
//! columns of every type, layout and shape, with random writer properties
//! (versions, page and dictionary limits, statistics levels, truncation,
//! bloom filters, codecs), written both ways. Our chunk must read back,
//! through its own metadata, as the values written (with the crate's reader
//! and ours), and carry the statistics, level histograms, byte counts,
//! encodings and bloom filter the crate's chunk carries.

use std::sync::{Arc, Mutex};

use bytes::Bytes;
use parquet::basic::{Compression, GzipLevel, ZstdLevel};
use parquet::column::page::{CompressedPage, PageWriteSpec, PageWriter};
use parquet::errors::Result as ParquetResult;
use parquet::file::serialized_reader::SerializedPageReader;
use parquet::file::writer::{SerializedPageWriter, TrackedWrite};

use super::testing::{
    assert_same_stats, bitset, expected_index, expected_stats, index_view, random_case, random_props, specs,
    write_theirs, Case, Rng,
};
use super::ChunkEncoder;
use crate::codec::inspect::{decode_chunk, decode_chunk_with_crate, DecodedChunk};
use crate::values::ColumnValues;

/// Serializes pages (headers included) like a file's column chunk.
struct ChunkBytes(Arc<Mutex<TrackedWrite<Vec<u8>>>>);

impl PageWriter for ChunkBytes {
    fn write_page(&mut self, page: CompressedPage) -> ParquetResult<PageWriteSpec> {
        let mut chunk = self.0.lock().expect("chunk");
        SerializedPageWriter::new(&mut chunk).write_page(page)
    }

    fn close(&mut self) -> ParquetResult<()> {
        Ok(())
    }
}

/// The case's levels and values in the comparable form of the decoders.
fn expected(case: &Case) -> DecodedChunk {
    let values = (0..case.values.len()).map(|i| value_bytes(&case.values, i)).collect();
    let keep = |levels: &Vec<i16>, max: i16| if max > 0 { levels.clone() } else { Vec::new() };
    DecodedChunk {
        def: keep(&case.def, case.descr.max_def_level()),
        rep: keep(&case.rep, case.descr.max_rep_level()),
        values,
    }
}

fn value_bytes(values: &ColumnValues, i: usize) -> Vec<u8> {
    let mut one = ColumnValues::new(physical(values), fixed_len(values));
    one.extend_from(values, i..i + 1).expect("value");
    let mut out = Vec::new();
    match &one {
        ColumnValues::Bool(v) => out.push(u8::from(v[0])),
        ColumnValues::Bytes(b) | ColumnValues::Fixed(b, _) => out.extend_from_slice(b.data()),
        other => super::plain::encode(other, 0..1, &mut out),
    }
    out
}

fn physical(values: &ColumnValues) -> parquet::basic::Type {
    use parquet::basic::Type as P;
    match values {
        ColumnValues::Bool(_) => P::BOOLEAN,
        ColumnValues::I32(_) => P::INT32,
        ColumnValues::I64(_) => P::INT64,
        ColumnValues::I96(_) => P::INT96,
        ColumnValues::F32(_) => P::FLOAT,
        ColumnValues::F64(_) => P::DOUBLE,
        ColumnValues::Bytes(_) => P::BYTE_ARRAY,
        ColumnValues::Fixed(..) => P::FIXED_LEN_BYTE_ARRAY,
    }
}

fn fixed_len(values: &ColumnValues) -> i32 {
    match values {
        ColumnValues::Fixed(_, n) => *n as i32,
        _ => 0,
    }
}

/// Writes `case` with our encoder in random batches of whole records.
fn write_ours(case: &Case, rng: &mut Rng) -> (parquet::column::writer::ColumnCloseResult, Bytes) {
    let chunk = Arc::new(Mutex::new(TrackedWrite::new(Vec::new())));
    let props = Arc::new(case.props.clone());
    let mut encoder = ChunkEncoder::new(case.descr.clone(), props, Box::new(ChunkBytes(chunk.clone()))).expect("new");
    let (max_def, max_rep) = (case.descr.max_def_level(), case.descr.max_rep_level());
    let (levels, mut level, mut value) = (case.levels(), 0, 0);
    while level < levels {
        // The batches `write_theirs` makes from the same generator.
        let mut end = (level + 1 + rng.below(200)).min(levels);
        while case.rep.get(end).is_some_and(|&r| r != 0) {
            end += 1;
        }
        let def = if max_def > 0 { &case.def[level..end] } else { &[][..] };
        let rep = if max_rep > 0 { &case.rep[level..end] } else { &[][..] };
        let n = if max_def > 0 { def.iter().filter(|&&d| d == max_def).count() } else { end - level };
        let mut values = ColumnValues::new(physical(&case.values), fixed_len(&case.values));
        values.extend_from(&case.values, value..value + n).expect("values");
        encoder.write(def, rep, &values).expect("write");
        (level, value) = (end, value + n);
    }
    let close = encoder.close().expect("close");
    let mut chunk = chunk.lock().expect("chunk");
    std::io::Write::flush(&mut *chunk).expect("flush");
    let bytes = std::mem::take(chunk.inner_mut());
    (close, Bytes::from(bytes))
}

fn check(case: &Case, rng: &mut Rng) {
    let what = format!("{:?} with {:?}", case.descr.self_type(), case.props);
    // Both writers get the same batches.
    let theirs = write_theirs(case, &mut rng.clone());
    let (ours, bytes) = write_ours(case, rng);
    let rows = ours.rows_written as usize;
    let pages = || {
        let reader = SerializedPageReader::new(Arc::new(bytes.clone()), &ours.metadata, rows, None).expect("reader");
        Box::new(reader)
    };
    let expected = expected(case);
    assert_eq!(decode_chunk_with_crate(case.descr.clone(), pages()).expect("crate decodes"), expected, "{what}");
    assert_eq!(decode_chunk(case.descr.clone(), pages(), u64::MAX).expect("we decode"), expected, "{what}");

    let (meta, their_meta) = (&ours.metadata, &theirs.close.metadata);
    assert_eq!(ours.rows_written, theirs.close.rows_written, "rows of {what}");
    assert_eq!(meta.num_values(), their_meta.num_values(), "levels of {what}");
    assert_eq!(meta.compression(), their_meta.compression(), "{what}");
    let their_stats = expected_stats(&case.descr, their_meta.statistics());
    assert_same_stats(meta.statistics(), their_stats.as_ref(), &format!("chunk statistics of {what}"));
    assert_eq!(meta.unencoded_byte_array_data_bytes(), their_meta.unencoded_byte_array_data_bytes(), "{what}");
    assert_eq!(meta.repetition_level_histogram(), their_meta.repetition_level_histogram(), "{what}");
    assert_eq!(meta.definition_level_histogram(), their_meta.definition_level_histogram(), "{what}");
    assert_eq!(ours.offset_index.is_some(), theirs.close.offset_index.is_some(), "offset index of {what}");
    let first_rows = |i: &Option<parquet::file::page_index::offset_index::OffsetIndexMetaData>| {
        i.as_ref().map(|i| i.page_locations().iter().map(|l| l.first_row_index).collect::<Vec<_>>())
    };
    // Pages end where the crate's pages end: the same mini-batches, cut by
    // the same byte budgets, checked against the same limits.
    assert_eq!(first_rows(&ours.offset_index), first_rows(&theirs.close.offset_index), "pages of {what}");
    let their_index = expected_index(&case.descr, theirs.close.column_index.as_ref().map(index_view));
    assert_eq!(ours.column_index.as_ref().map(index_view), their_index, "column index of {what}");
    assert_eq!(meta.encodings_mask(), their_meta.encodings_mask(), "encodings of {what}");
    assert_eq!(
        ours.bloom_filter.as_ref().map(bitset),
        theirs.close.bloom_filter.as_ref().map(bitset),
        "bloom filter of {what}"
    );
}

fn run(group: &str, seed: u64, cases: usize) {
    let mut rng = Rng::new(seed);
    use Compression as C;
    let codecs = [C::UNCOMPRESSED, C::SNAPPY, C::GZIP(GzipLevel::default()), C::ZSTD(ZstdLevel::default()), C::LZ4_RAW];
    let mut written = 0;
    for spec in specs(group) {
        for _ in 0..cases {
            let props = random_props(&mut rng).set_compression(rng.pick(&codecs)).build();
            let case = random_case(&mut rng, &spec, props);
            if ChunkEncoder::supports(&case.descr, &case.props) {
                check(&case, &mut rng);
                written += 1;
            }
        }
    }
    // Some cases go to the crate's writer (v2 defaults to DELTA encodings).
    assert!(written >= cases / 2, "{written} cases written");
}

#[test]
fn integers_and_booleans_write_as_the_crate_writes_them() {
    for (group, seed) in [("bool", 101), ("i32", 102), ("u32", 103), ("i64", 104), ("i96", 105)] {
        run(group, seed, 30);
    }
}

#[test]
fn floats_write_as_the_crate_writes_them() {
    for (group, seed) in [("f16", 106), ("f32", 107), ("f64", 108)] {
        run(group, seed, 30);
    }
}

#[test]
fn byte_arrays_write_as_the_crate_writes_them() {
    for (group, seed) in [("binary", 109), ("text", 110), ("fixed", 111)] {
        run(group, seed, 30);
    }
}
