//! The encoder of one column chunk: batches of whole records in, pages out
//! to a [`PageWriter`], and at the end the chunk's metadata, statistics,
//! page index and bloom filter, as the `parquet` crate's column writer
//! would give them for the same values and properties.
//!
//! Values are dictionary encoded while the dictionary stays under its page
//! size limit, then PLAIN (booleans: PLAIN, or RLE in v2 files). Data pages
//! written while the dictionary grows are kept until the chunk ends (or the
//! dictionary is given up), since the dictionary page must come first.
//!
//! [`batches`] cuts a batch of records into mini-batches and encodes their
//! levels and values into the page being filled; [`pages`] ends pages and
//! writes them, the dictionary page first.

mod batches;
mod pages;

use std::collections::BTreeSet;
use std::sync::Arc;

use parquet::basic::{Compression, Encoding, EncodingMask, Type as PhysicalType};
use parquet::column::page::{CompressedPage, PageWriter};
use parquet::column::writer::ColumnCloseResult;
use parquet::errors::{ParquetError, Result as ParquetResult};
use parquet::file::metadata::{ColumnChunkMetaData, LevelHistogram, OffsetIndexBuilder, PageEncodingStats};
use parquet::file::properties::{EnabledStatistics, WriterProperties, WriterVersion};
use parquet::schema::types::ColumnDescPtr;

use super::bloom::BloomWriter;
use super::compress::Compressor;
use super::dictionary::Dictionary;
use super::hybrid::HybridEncoder;
use super::page::{PageBuilder, PageValues};
use super::plain::BitPacker;
use super::stats::{ColumnIndexWriter, ValueStats};
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
