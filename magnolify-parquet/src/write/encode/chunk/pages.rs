//! Pages ended and written: the page being filled finished (its statistics
//! into the column index and the chunk's), data pages held back until the
//! dictionary page is written, and the chunk's counts of what was written.

use parquet::basic::{Encoding, PageType};
use parquet::column::page::{CompressedPage, PageWriteSpec};
use parquet::errors::Result as ParquetResult;
use parquet::file::metadata::{LevelHistogram, PageEncodingStats};

use super::ChunkEncoder;
use crate::write::encode::dictionary::Dictionary;
use crate::write::encode::hybrid::HybridEncoder;
use crate::write::encode::page::{Layout, PageValues};
use crate::write::encode::plain::BitPacker;

impl ChunkEncoder {
    /// Ends the page being filled (if it holds anything).
    pub(super) fn flush_page(&mut self) -> ParquetResult<()> {
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
    pub(super) fn write_dictionary(&mut self) -> ParquetResult<()> {
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
    pub(super) fn give_up_dictionary(&mut self) -> ParquetResult<()> {
        self.flush_page()?;
        self.write_dictionary()?;
        self.page.values = PageValues::Plain(Vec::new());
        Ok(())
    }
}

/// Adds a page's level histogram to the chunk's and resets the page's.
fn merge_histogram(chunk: &mut Option<LevelHistogram>, page: &mut Option<LevelHistogram>) {
    if let (Some(chunk), Some(page)) = (chunk, page) {
        chunk.add(page);
        page.reset();
    }
}
