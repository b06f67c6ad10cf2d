//! A case written both ways: through the `parquet` crate's `ColumnWriter`
//! (keeping its pages) and through our statistics, index and bloom filter
//! types, split at the crate's pages.

use std::ops::Range;
use std::sync::{Arc, Mutex};

use parquet::basic::{Encoding, PageType};
use parquet::bloom_filter::Sbbf;
use parquet::column::page::{CompressedPage, PageWriteSpec, PageWriter};
use parquet::column::writer::{get_column_writer, ColumnCloseResult, ColumnWriter};
use parquet::data_type::{ByteArray, FixedLenByteArray};
use parquet::file::page_index::column_index::ColumnIndexMetaData as Index;
use parquet::file::statistics::Statistics;

use super::cases::Case;
use super::specs::Rng;
use crate::values::{ByteBuffer, ColumnValues};
use crate::write::encode::bloom::BloomWriter;
use crate::write::encode::stats::{ColumnIndexWriter, ValueStats};

/// A data or dictionary page the crate wrote.
#[derive(Debug, Clone)]
pub(crate) struct KeptPage {
    kind: PageType,
    encoding: Encoding,
    /// Levels of a data page.
    levels: usize,
    pub(super) statistics: Option<Statistics>,
}

/// A `PageWriter` that keeps what the tests need of the pages.
struct KeepPages {
    pages: Arc<Mutex<Vec<KeptPage>>>,
    offset: u64,
}

impl PageWriter for KeepPages {
    fn write_page(&mut self, page: CompressedPage) -> parquet::errors::Result<PageWriteSpec> {
        let spec = crate::write::page_spec(&page, &mut self.offset);
        let kept = KeptPage {
            kind: page.page_type(),
            encoding: page.encoding(),
            levels: page.num_values() as usize,
            statistics: page.compressed_page().statistics().cloned(),
        };
        self.pages.lock().map_err(|e| parquet::errors::ParquetError::General(e.to_string()))?.push(kept);
        Ok(spec)
    }

    fn close(&mut self) -> parquet::errors::Result<()> {
        Ok(())
    }
}

/// What the crate's `ColumnWriter` made of a case.
pub(crate) struct Theirs {
    pub(crate) close: ColumnCloseResult,
    /// Its data pages, in order.
    pub(crate) pages: Vec<KeptPage>,
}

fn byte_arrays(buf: &ByteBuffer) -> Vec<Vec<u8>> {
    buf.split().into_iter().map(<[u8]>::to_vec).collect()
}

/// Writes a case through the crate, in batches of whole records.
pub(crate) fn write_theirs(case: &Case, rng: &mut Rng) -> Theirs {
    let pages = Arc::new(Mutex::new(Vec::new()));
    let page_writer = Box::new(KeepPages { pages: pages.clone(), offset: 0 });
    let mut writer = get_column_writer(case.descr.clone(), Arc::new(case.props.clone()), page_writer);
    let max_def = case.descr.max_def_level();
    let (levels, mut level, mut value) = (case.levels(), 0, 0);
    while level < levels {
        let mut end = (level + 1 + rng.below(200)).min(levels);
        while case.rep.get(end).is_some_and(|&r| r != 0) {
            end += 1;
        }
        let def = (max_def > 0).then(|| &case.def[level..end]);
        let rep = (case.descr.max_rep_level() > 0).then(|| &case.rep[level..end]);
        let n = def.map_or(end - level, |d| d.iter().filter(|&&d| d == max_def).count());
        let vs = value..value + n;
        let written = match (&mut writer, &case.values) {
            (ColumnWriter::BoolColumnWriter(w), ColumnValues::Bool(v)) => w.write_batch(&v[vs], def, rep),
            (ColumnWriter::Int32ColumnWriter(w), ColumnValues::I32(v)) => w.write_batch(&v[vs], def, rep),
            (ColumnWriter::Int64ColumnWriter(w), ColumnValues::I64(v)) => w.write_batch(&v[vs], def, rep),
            (ColumnWriter::Int96ColumnWriter(w), ColumnValues::I96(v)) => w.write_batch(&v[vs], def, rep),
            (ColumnWriter::FloatColumnWriter(w), ColumnValues::F32(v)) => w.write_batch(&v[vs], def, rep),
            (ColumnWriter::DoubleColumnWriter(w), ColumnValues::F64(v)) => w.write_batch(&v[vs], def, rep),
            (ColumnWriter::ByteArrayColumnWriter(w), ColumnValues::Bytes(b)) => {
                let v: Vec<ByteArray> = byte_arrays(b)[vs].iter().cloned().map(ByteArray::from).collect();
                w.write_batch(&v, def, rep)
            }
            (ColumnWriter::FixedLenByteArrayColumnWriter(w), ColumnValues::Fixed(b, _)) => {
                let v: Vec<FixedLenByteArray> =
                    byte_arrays(b)[vs].iter().cloned().map(FixedLenByteArray::from).collect();
                w.write_batch(&v, def, rep)
            }
            _ => panic!("values of the wrong type"),
        };
        assert_eq!(written.expect("the crate writes the batch"), n);
        (level, value) = (end, value + n);
    }
    let close = writer.close().expect("the crate closes the chunk");
    let pages = pages.lock().expect("pages").clone();
    let data = pages.into_iter().filter(|p| matches!(p.kind, PageType::DATA_PAGE | PageType::DATA_PAGE_V2));
    Theirs { close, pages: data.collect() }
}

/// What our types made of a case, split at the crate's pages.
pub(crate) struct Ours {
    pub(crate) chunk: Option<Statistics>,
    pub(crate) page_headers: Vec<Option<Statistics>>,
    pub(crate) index: Option<Index>,
    pub(crate) bloom: Option<Sbbf>,
    pub(crate) page_bytes: Vec<Option<i64>>,
    pub(crate) chunk_bytes: Option<i64>,
    /// The pages' level histograms summed: what the chunk metadata holds.
    pub(crate) rep_histogram: Option<Vec<i64>>,
    pub(crate) def_histogram: Option<Vec<i64>>,
}

/// `range` cut into random pieces.
fn pieces(rng: &mut Rng, range: Range<usize>) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut at = range.start;
    while at < range.end {
        let end = (at + 1 + rng.below(40)).min(range.end);
        out.push(at..end);
        at = end;
    }
    if out.is_empty() || rng.chance(10) {
        // Empty batches change nothing.
        out.push(range.end..range.end);
    }
    out
}

fn histogram(levels: &[i16], max: i16) -> Option<Vec<i64>> {
    (max > 0).then(|| {
        let mut h = vec![0; max as usize + 1];
        for &l in levels {
            h[l as usize] += 1;
        }
        h
    })
}

fn add(sum: &mut Option<Vec<i64>>, page: Option<&Vec<i64>>) {
    if let Some(page) = page {
        let sum = sum.get_or_insert_with(|| vec![0; page.len()]);
        sum.iter_mut().zip(page).for_each(|(s, p)| *s += p);
    }
}

/// Runs a case through our types, the values split at `pages`.
pub(crate) fn write_ours(case: &Case, pages: &[KeptPage], rng: &mut Rng) -> Ours {
    let (descr, props) = (&case.descr, &case.props);
    let (max_def, max_rep) = (descr.max_def_level(), descr.max_rep_level());
    let mut chunk = ValueStats::new(descr);
    let mut page = ValueStats::new(descr);
    let mut index = ColumnIndexWriter::new(descr, props);
    let mut bloom = BloomWriter::new(descr, props).expect("valid bloom filter props");
    let mut ours = Ours {
        chunk: None,
        page_headers: Vec::new(),
        index: None,
        bloom: None,
        page_bytes: Vec::new(),
        chunk_bytes: None,
        // The chunk's histograms are there (zeros) even without pages.
        rep_histogram: histogram(&[], max_rep),
        def_histogram: histogram(&[], max_def),
    };
    let (mut level, mut value) = (0, 0);
    for kept in pages {
        let levels = level..level + kept.levels;
        let def = case.def.get(levels.clone()).unwrap_or_default();
        let rep = case.rep.get(levels.clone()).unwrap_or_default();
        let n = if max_def > 0 { def.iter().filter(|&&d| d == max_def).count() } else { kept.levels };
        let rows = if max_rep > 0 { rep.iter().filter(|&&r| r == 0).count() } else { kept.levels };
        for piece in pieces(rng, value..value + n) {
            page.update(&case.values, piece);
        }
        let nulls = (kept.levels - n) as u64;
        let first = rng.below(nulls as usize + 1) as u64;
        page.add_nulls(first);
        page.add_nulls(nulls - first);
        if let Some(bloom) = &mut bloom {
            for piece in pieces(rng, value..value + n) {
                bloom.insert(&case.values, piece.clone());
                if rng.chance(20) {
                    bloom.insert(&case.values, piece);
                }
            }
        }
        let (rep_h, def_h) = (histogram(rep, max_rep), histogram(def, max_def));
        ours.page_headers.push(page.page_statistics(props));
        ours.page_bytes.push(page.unencoded_byte_array_data_bytes(props));
        chunk.merge(&page);
        if let Some(index) = &mut index {
            index.append_page(&page, rows as u64, rep_h.as_deref(), def_h.as_deref());
        }
        add(&mut ours.rep_histogram, rep_h.as_ref());
        add(&mut ours.def_histogram, def_h.as_ref());
        page.clear();
        (level, value) = (levels.end, value + n);
    }
    assert_eq!((level, value), (case.levels(), case.values.len()), "the crate's pages hold every level");
    ours.chunk = chunk.chunk_statistics(props);
    ours.chunk_bytes = chunk.unencoded_byte_array_data_bytes(props).filter(|_| !pages.is_empty());
    let only_dictionary =
        pages.iter().all(|p| matches!(p.encoding, Encoding::PLAIN_DICTIONARY | Encoding::RLE_DICTIONARY));
    ours.bloom = bloom.and_then(|b| b.finish(only_dictionary));
    ours.index = index.and_then(ColumnIndexWriter::finish);
    ours
}
