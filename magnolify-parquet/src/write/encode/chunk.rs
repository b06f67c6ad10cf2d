//! The encoder of one column chunk: batches of whole records in, pages out
//! to a [`PageWriter`], and at the end the chunk's metadata, statistics,
//! page index and bloom filter, as the `parquet` crate's column writer
//! would give them for the same values and properties.
//!
//! Values are dictionary encoded while the dictionary stays under its page
//! size limit, then PLAIN (booleans: PLAIN, or RLE in v2 files). Data pages
//! written while the dictionary grows are kept until the chunk ends (or the
//! dictionary is given up), since the dictionary page must come first.

use std::collections::BTreeSet;
use std::sync::Arc;

use parquet::basic::{Compression, Encoding, EncodingMask, PageType, Type as PhysicalType};
use parquet::column::page::{CompressedPage, PageWriteSpec, PageWriter};
use parquet::column::writer::ColumnCloseResult;
use parquet::errors::{ParquetError, Result as ParquetResult};
use parquet::file::metadata::{ColumnChunkMetaData, LevelHistogram, OffsetIndexBuilder, PageEncodingStats};
use parquet::file::properties::{EnabledStatistics, WriterProperties, WriterVersion};
use parquet::schema::types::ColumnDescPtr;

use super::bloom::BloomWriter;
use super::compress::Compressor;
use super::dictionary::Dictionary;
use super::page::{Layout, PageBuilder, PageValues};
use super::plain::{self, BitPacker};
use super::stats::{ColumnIndexWriter, ValueStats};
use crate::codec::hybrid::HybridEncoder;
use crate::values::ColumnValues;

/// What the writer properties say about one column, read once.
struct Settings {
    version: WriterVersion,
    dictionary_limit: usize,
    page_bytes: usize,
    page_rows: usize,
    mini_batch: usize,
    compression: Compression,
    statistics: EnabledStatistics,
    v2_ratio: f64,
}

/// The encoder of one column chunk.
pub(crate) struct ChunkEncoder {
    descr: ColumnDescPtr,
    props: Arc<WriterProperties>,
    settings: Settings,
    pages: Box<dyn PageWriter + Send>,
    codec: Option<Compressor>,
    /// The dictionary, while values are dictionary encoded.
    dictionary: Option<Dictionary>,
    page: PageBuilder,
    page_stats: ValueStats,
    page_def_histogram: Option<LevelHistogram>,
    page_rep_histogram: Option<LevelHistogram>,
    /// Data pages waiting for the dictionary page.
    pending: Vec<CompressedPage>,
    chunk_stats: ValueStats,
    column_index: Option<ColumnIndexWriter>,
    offset_index: Option<OffsetIndexBuilder>,
    bloom: Option<BloomWriter>,
    encodings: BTreeSet<Encoding>,
    encoding_stats: Vec<PageEncodingStats>,
    totals: Totals,
    def_histogram: Option<LevelHistogram>,
    rep_histogram: Option<LevelHistogram>,
    /// Whether a data page was not dictionary encoded (for the bloom filter).
    wrote_plain_page: bool,
}

/// What the chunk's metadata counts, from the pages written.
#[derive(Default)]
struct Totals {
    compressed: u64,
    uncompressed: u64,
    bytes_written: u64,
    values: u64,
    rows: u64,
    data_page_offset: Option<u64>,
    dictionary_page_offset: Option<u64>,
}

impl ChunkEncoder {
    /// Whether this encoder writes column `descr` with `props`; a column it
    /// does not (an encoding other than dictionary, PLAIN or RLE booleans,
    /// a legacy codec, content-defined chunking) is left to the `parquet`
    /// crate's writer.
    pub(crate) fn supports(descr: &ColumnDescPtr, props: &WriterProperties) -> bool {
        let path = descr.path();
        let boolean = descr.physical_type() == PhysicalType::BOOLEAN;
        let encoding = match props.encoding(path) {
            Some(e) => e,
            // The crate's choice for the values a dictionary does not take.
            None => match props.writer_version() {
                WriterVersion::PARQUET_1_0 => Encoding::PLAIN,
                WriterVersion::PARQUET_2_0 if boolean => Encoding::RLE,
                WriterVersion::PARQUET_2_0 => match descr.physical_type() {
                    PhysicalType::INT96 | PhysicalType::FLOAT | PhysicalType::DOUBLE => Encoding::PLAIN,
                    _ => return false,
                },
            },
        };
        let fallback_ok = encoding == Encoding::PLAIN || (boolean && encoding == Encoding::RLE);
        fallback_ok && props.content_defined_chunking().is_none() && Compressor::supports(props.compression(path))
    }

    /// An encoder of column `descr` writing its pages to `pages`.
    pub(crate) fn new(
        descr: ColumnDescPtr,
        props: Arc<WriterProperties>,
        pages: Box<dyn PageWriter + Send>,
    ) -> ParquetResult<Self> {
        let path = descr.path();
        let boolean = descr.physical_type() == PhysicalType::BOOLEAN;
        let settings = Settings {
            version: props.writer_version(),
            dictionary_limit: props.column_dictionary_page_size_limit(path),
            page_bytes: props.column_data_page_size_limit(path),
            page_rows: props.column_data_page_row_count_limit(path),
            mini_batch: props.write_batch_size().max(1),
            compression: props.compression(path),
            statistics: props.statistics_enabled(path),
            v2_ratio: props.column_data_page_v2_compression_ratio_threshold(path),
        };
        let codec = Compressor::new(settings.compression)?;
        let empty = ColumnValues::new(descr.physical_type(), descr.type_length());
        let dictionary = (props.dictionary_enabled(path) && !boolean).then(|| Dictionary::new(empty));
        // Booleans are RLE where asked, and by default in v2 files.
        let rle_booleans = boolean
            && match props.encoding(path) {
                Some(encoding) => encoding == Encoding::RLE,
                None => settings.version == WriterVersion::PARQUET_2_0,
            };
        let values = first_values(dictionary.is_some(), boolean, rle_booleans);
        let with_stats = settings.statistics != EnabledStatistics::None;
        let histogram = |max: i16| if with_stats { LevelHistogram::try_new(max) } else { None };
        Ok(ChunkEncoder {
            page: PageBuilder::new(values),
            page_stats: ValueStats::new(&descr),
            page_def_histogram: histogram(descr.max_def_level()),
            page_rep_histogram: histogram(descr.max_rep_level()),
            pending: Vec::new(),
            chunk_stats: ValueStats::new(&descr),
            column_index: ColumnIndexWriter::new(&descr, &props),
            offset_index: (!props.offset_index_disabled()).then(OffsetIndexBuilder::new),
            bloom: BloomWriter::new(&descr, &props).map_err(|e| ParquetError::General(e.to_string()))?,
            encodings: BTreeSet::from([Encoding::RLE]),
            encoding_stats: Vec::new(),
            totals: Totals::default(),
            def_histogram: histogram(descr.max_def_level()),
            rep_histogram: histogram(descr.max_rep_level()),
            wrote_plain_page: false,
            settings,
            dictionary,
            codec,
            pages,
            props,
            descr,
        })
    }

    /// Encodes a batch of whole records: their levels (for a column that has
    /// them; checked against the column's maxima by the caller) and dense values.
    ///
    /// The batch goes in mini-batches of `write_batch_size` levels (ending
    /// at record boundaries), cut smaller where the values would overshoot
    /// the page or dictionary size limit; pages end, and the dictionary is
    /// given up, between mini-batches. These are the crate's rules, so that
    /// pages end where its pages end.
    pub(crate) fn write(&mut self, def: &[i16], rep: &[i16], values: &ColumnValues) -> ParquetResult<()> {
        let (max_def, max_rep) = (self.descr.max_def_level(), self.descr.max_rep_level());
        let levels = if max_rep > 0 {
            rep.len()
        } else if max_def > 0 {
            def.len()
        } else {
            values.len()
        };
        let defined = |range: std::ops::Range<usize>| {
            if max_def > 0 {
                def[range].iter().filter(|d| **d == max_def).count()
            } else {
                range.len()
            }
        };
        let record_end = |mut end: usize, limit: usize| {
            while max_rep > 0 && end < limit && rep[end] != 0 {
                end += 1;
            }
            end
        };
        let (mut lvl, mut val) = (0, 0);
        while lvl < levels {
            let end = record_end(levels.min(lvl + self.settings.mini_batch), levels);
            let in_chunk = defined(lvl..end);
            if val + in_chunk > values.len() {
                return Err(ParquetError::General(format!(
                    "{} values for {} defined levels",
                    values.len(),
                    val + in_chunk
                )));
            }
            match self.sub_batch_levels(values, val..val + in_chunk, end - lvl) {
                None => {
                    self.mini_batch(
                        &def[lvl.min(def.len())..end.min(def.len())],
                        &rep[lvl.min(rep.len())..end.min(rep.len())],
                        end - lvl,
                        values,
                        val..val + in_chunk,
                    )?;
                    val += in_chunk;
                }
                Some(window) => {
                    let mut start = lvl;
                    while start < end {
                        let stop = record_end((start + window).min(end), end);
                        let n = defined(start..stop);
                        let (d, r) = (
                            &def[start.min(def.len())..stop.min(def.len())],
                            &rep[start.min(rep.len())..stop.min(rep.len())],
                        );
                        self.mini_batch(d, r, stop - start, values, val..val + n)?;
                        (start, val) = (stop, val + n);
                    }
                }
            }
            lvl = end;
        }
        Ok(())
    }

    /// How many levels a mini-batch of `levels` levels holding `range` of
    /// `values` is cut into, when its values would overshoot the byte
    /// budget: the dictionary's room left, or the page size limit (values
    /// of a fixed width that always fit are never cut).
    fn sub_batch_levels(&self, values: &ColumnValues, range: std::ops::Range<usize>, levels: usize) -> Option<usize> {
        let width = fixed_width(&self.descr);
        let always_fits = |limit: usize| width.is_some_and(|w| w.saturating_mul(self.settings.mini_batch) <= limit);
        let budget = match &self.dictionary {
            Some(_) if always_fits(self.settings.dictionary_limit) => return None,
            Some(d) => self.settings.dictionary_limit.saturating_sub(d.encoded_size()),
            None if always_fits(self.settings.page_bytes) => return None,
            None => self.settings.page_bytes,
        };
        let count = range.len();
        if count == 0 {
            return None;
        }
        let fit = values_within(values, range, budget);
        if fit >= count {
            return None;
        }
        // Levels in proportion to the values that fit.
        let window = if count == levels { fit } else { (fit * levels).div_ceil(count).max(1) };
        Some(levels.min(window.max(1)))
    }

    /// Encodes one mini-batch: `levels` levels (`def` and `rep` where the
    /// column has them) holding `values[range]`; then ends the page, or
    /// gives up the dictionary, if it is time.
    fn mini_batch(
        &mut self,
        def: &[i16],
        rep: &[i16],
        levels: usize,
        values: &ColumnValues,
        range: std::ops::Range<usize>,
    ) -> ParquetResult<()> {
        let rows = if self.descr.max_rep_level() > 0 { rep.iter().filter(|r| **r == 0).count() } else { levels };
        self.page.def.extend_from_slice(def);
        if let Some(h) = &mut self.page_def_histogram {
            count_levels(h, def);
        }
        self.page.rep.extend_from_slice(rep);
        if let Some(h) = &mut self.page_rep_histogram {
            count_levels(h, rep);
        }
        self.page.levels += levels;
        self.page.rows += rows;
        let nulls = (levels - range.len()) as u64;
        self.page.nulls += nulls;
        self.page_stats.add_nulls(nulls);
        self.encode_values(values, range);
        // The page ends first, then the dictionary is given up, as the
        // crate does (the order decides where pages end).
        let dictionary_len = self.dictionary.as_ref().map_or(0, Dictionary::len);
        let size = self.page.values_size(dictionary_len);
        if self.page.rows >= self.settings.page_rows || size >= self.settings.page_bytes {
            self.flush_page()?;
        }
        if self.dictionary.as_ref().is_some_and(|d| d.encoded_size() >= self.settings.dictionary_limit) {
            self.give_up_dictionary()?;
        }
        Ok(())
    }

    fn encode_values(&mut self, values: &ColumnValues, range: std::ops::Range<usize>) {
        if range.is_empty() {
            return;
        }
        if self.settings.statistics != EnabledStatistics::None {
            self.page_stats.update(values, range.clone());
        }
        match (&mut self.page.values, &mut self.dictionary) {
            (PageValues::Indices(out), Some(dictionary)) => {
                let known = dictionary.len();
                dictionary.intern(values, range, out);
                // The filter holds sets of hashes: each distinct value once
                // sets the same bits as every occurrence of it.
                if let Some(bloom) = &mut self.bloom {
                    bloom.insert(dictionary.entries(), known..dictionary.len());
                }
            }
            (page, _) => {
                if let Some(bloom) = &mut self.bloom {
                    bloom.insert(values, range.clone());
                }
                match page {
                    PageValues::Plain(out) => plain::encode(values, range, out),
                    PageValues::Bits(packer) => {
                        if let ColumnValues::Bool(v) = values {
                            packer.extend(&v[range]);
                        }
                    }
                    PageValues::RleBits(e) => {
                        if let ColumnValues::Bool(v) = values {
                            v[range].iter().for_each(|b| e.put(u32::from(*b)));
                        }
                    }
                    // Indices without a dictionary: not made (the encoder
                    // switches to PLAIN pages when it gives the dictionary up).
                    PageValues::Indices(_) => {}
                }
            }
        }
    }

    /// Ends the page being filled (if it holds anything).
    fn flush_page(&mut self) -> ParquetResult<()> {
        if self.page.levels == 0 {
            return Ok(());
        }
        let dictionary_len = self.dictionary.as_ref().map_or(0, Dictionary::len);
        let header_stats = self.page_stats.page_statistics(&self.props);
        let next = match &self.page.values {
            PageValues::Indices(_) if self.dictionary.is_some() => PageValues::Indices(Vec::new()),
            PageValues::Indices(_) | PageValues::Plain(_) => PageValues::Plain(Vec::new()),
            PageValues::Bits(_) => PageValues::Bits(BitPacker::default()),
            PageValues::RleBits(_) => PageValues::RleBits(HybridEncoder::new(1)),
        };
        let rows = self.page.rows;
        if let Some(index) = &mut self.column_index {
            index.append_page(
                &self.page_stats,
                rows as u64,
                self.page_rep_histogram.as_ref().map(LevelHistogram::values),
                self.page_def_histogram.as_ref().map(LevelHistogram::values),
            );
        }
        if let Some(offsets) = &mut self.offset_index {
            offsets.append_row_count(rows as i64);
            offsets
                .append_unencoded_byte_array_data_bytes(self.page_stats.unencoded_byte_array_data_bytes(&self.props));
        }
        self.chunk_stats.merge(&self.page_stats);
        self.page_stats.clear();
        merge_histogram(&mut self.def_histogram, &mut self.page_def_histogram);
        merge_histogram(&mut self.rep_histogram, &mut self.page_rep_histogram);
        let layout = Layout {
            version: self.settings.version,
            max_def: self.descr.max_def_level(),
            max_rep: self.descr.max_rep_level(),
            dictionary_len,
            codec: self.codec.as_mut(),
            v2_ratio: self.settings.v2_ratio,
            statistics: header_stats,
        };
        let page = self.page.finish(layout, next)?;
        self.totals.rows += rows as u64;
        if self.dictionary.is_some() {
            self.pending.push(page);
            Ok(())
        } else {
            self.write_data_page(page)
        }
    }

    fn write_data_page(&mut self, page: CompressedPage) -> ParquetResult<()> {
        let encoding = page.encoding();
        if encoding != Encoding::RLE_DICTIONARY {
            self.wrote_plain_page = true;
        }
        self.encodings.insert(encoding);
        match self.encoding_stats.last_mut() {
            Some(s) if s.page_type == page.page_type() && s.encoding == encoding => s.count += 1,
            _ => self.encoding_stats.push(PageEncodingStats { page_type: page.page_type(), encoding, count: 1 }),
        }
        let spec = self.pages.write_page(page)?;
        if let Some(offsets) = &mut self.offset_index {
            offsets.append_offset_and_size(spec.offset as i64, spec.compressed_size as i32);
        }
        self.count(&spec);
        Ok(())
    }

    fn count(&mut self, spec: &PageWriteSpec) {
        let t = &mut self.totals;
        t.uncompressed += spec.uncompressed_size as u64;
        t.compressed += spec.compressed_size as u64;
        t.bytes_written += spec.bytes_written;
        match spec.page_type {
            PageType::DICTIONARY_PAGE => t.dictionary_page_offset = Some(spec.offset),
            _ => {
                t.values += u64::from(spec.num_values);
                t.data_page_offset.get_or_insert(spec.offset);
            }
        }
    }

    /// Writes the dictionary page, then the data pages that waited for it.
    fn write_dictionary(&mut self) -> ParquetResult<()> {
        let Some(dictionary) = self.dictionary.take() else { return Ok(()) };
        let buf = dictionary.page();
        let uncompressed = buf.len();
        let buf = match &mut self.codec {
            Some(codec) => {
                let mut out = Vec::with_capacity(uncompressed / 2);
                codec.compress(&buf, &mut out)?;
                out
            }
            None => buf,
        };
        let encoding = self.props.dictionary_page_encoding();
        let page = parquet::column::page::Page::DictionaryPage {
            buf: buf.into(),
            num_values: dictionary.len() as u32,
            encoding,
            is_sorted: false,
        };
        self.encodings.insert(encoding);
        self.encoding_stats.insert(0, PageEncodingStats { page_type: PageType::DICTIONARY_PAGE, encoding, count: 1 });
        let spec = self.pages.write_page(CompressedPage::new(page, uncompressed))?;
        self.count(&spec);
        for page in std::mem::take(&mut self.pending) {
            self.write_data_page(page)?;
        }
        Ok(())
    }

    /// The dictionary grew past its limit: the page being filled ends with
    /// it, the dictionary and the pages so far are written, and values are
    /// PLAIN from here on.
    fn give_up_dictionary(&mut self) -> ParquetResult<()> {
        self.flush_page()?;
        self.write_dictionary()?;
        self.page.values = PageValues::Plain(Vec::new());
        Ok(())
    }

    /// Writes what is left and returns the chunk's metadata.
    pub(crate) fn close(mut self) -> ParquetResult<ColumnCloseResult> {
        self.flush_page()?;
        self.write_dictionary()?;
        let t = &self.totals;
        let mut builder = ColumnChunkMetaData::builder(self.descr.clone())
            .set_compression(self.settings.compression)
            .set_encodings_mask(EncodingMask::new_from_encodings(self.encodings.iter()))
            .set_page_encoding_stats(self.encoding_stats.clone())
            .set_total_compressed_size(t.compressed as i64)
            .set_total_uncompressed_size(t.uncompressed as i64)
            .set_num_values(t.values as i64)
            .set_data_page_offset(t.data_page_offset.unwrap_or(0) as i64)
            .set_dictionary_page_offset(t.dictionary_page_offset.map(|o| o as i64));
        if self.settings.statistics != EnabledStatistics::None {
            if let Some(statistics) = self.chunk_stats.chunk_statistics(&self.props) {
                builder = builder.set_statistics(statistics);
            }
            builder = builder
                // None for a chunk without pages, as the crate writes it.
                .set_unencoded_byte_array_data_bytes(
                    self.chunk_stats
                        .unencoded_byte_array_data_bytes(&self.props)
                        .filter(|_| t.data_page_offset.is_some()),
                )
                .set_repetition_level_histogram(self.rep_histogram.take())
                .set_definition_level_histogram(self.def_histogram.take());
        }
        let metadata = builder.build()?;
        self.pages.close()?;
        let only_dictionary_pages = !self.wrote_plain_page;
        Ok(ColumnCloseResult {
            bytes_written: self.totals.bytes_written,
            rows_written: self.totals.rows,
            metadata,
            bloom_filter: self.bloom.and_then(|b| b.finish(only_dictionary_pages)),
            column_index: self.column_index.and_then(ColumnIndexWriter::finish),
            offset_index: self.offset_index.map(OffsetIndexBuilder::build),
        })
    }
}

/// The values a chunk's first page is written in.
fn first_values(dictionary: bool, boolean: bool, rle_booleans: bool) -> PageValues {
    match (dictionary, boolean, rle_booleans) {
        (true, _, _) => PageValues::Indices(Vec::new()),
        (false, true, true) => PageValues::RleBits(HybridEncoder::new(1)),
        (false, true, false) => PageValues::Bits(BitPacker::default()),
        (false, false, _) => PageValues::Plain(Vec::new()),
    }
}

/// Adds a page's level histogram to the chunk's and resets the page's.
fn merge_histogram(chunk: &mut Option<LevelHistogram>, page: &mut Option<LevelHistogram>) {
    if let (Some(chunk), Some(page)) = (chunk, page) {
        chunk.add(page);
        page.reset();
    }
}

/// Counts each level of `levels` in `histogram`.
fn count_levels(histogram: &mut LevelHistogram, levels: &[i16]) {
    for &level in levels {
        histogram.increment_by(level, 1);
    }
}

/// Bytes of each value of a fixed-width column, as the crate counts them
/// for its byte budgets; `None` for BYTE_ARRAY.
fn fixed_width(descr: &ColumnDescPtr) -> Option<usize> {
    match descr.physical_type() {
        PhysicalType::BOOLEAN => Some(1),
        PhysicalType::INT32 | PhysicalType::FLOAT => Some(4),
        PhysicalType::INT64 | PhysicalType::DOUBLE => Some(8),
        PhysicalType::INT96 => Some(12),
        PhysicalType::FIXED_LEN_BYTE_ARRAY => Some(descr.type_length().max(0) as usize),
        PhysicalType::BYTE_ARRAY => None,
    }
}

/// How many of `values[range]` fit in `budget` PLAIN bytes, counting the
/// value that crosses it (at least one).
fn values_within(values: &ColumnValues, range: std::ops::Range<usize>, budget: usize) -> usize {
    let count = range.len();
    let per = match values {
        ColumnValues::Bool(_) => 1,
        ColumnValues::I32(_) | ColumnValues::F32(_) => 4,
        ColumnValues::I64(_) | ColumnValues::F64(_) => 8,
        ColumnValues::I96(_) => 12,
        ColumnValues::Bytes(b) | ColumnValues::Fixed(b, _) => {
            let prefix = if matches!(values, ColumnValues::Bytes(_)) { 4 } else { 0 };
            let mut total = 0usize;
            for (i, v) in range.filter_map(|i| b.get(i)).enumerate() {
                total = total.saturating_add(prefix + v.len());
                if total > budget {
                    return i + 1;
                }
            }
            return count;
        }
    };
    (budget / per).clamp(1, count.max(1)).min(count)
}
