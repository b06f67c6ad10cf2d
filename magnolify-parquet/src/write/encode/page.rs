//! One data page being filled: its levels, its values as they will be
//! written, and the counts its header and the page index need; assembled
//! into a (compressed) page when full.

use parquet::basic::Encoding;
use parquet::column::page::{CompressedPage, Page};
use parquet::errors::Result as ParquetResult;
use parquet::file::properties::WriterVersion;
use parquet::file::statistics::Statistics;

use super::compress::Compressor;
use super::hybrid::HybridEncoder;
use super::plain::BitPacker;
use crate::codec::hybrid::bit_width;

/// A page's values, in the form they are written.
pub(crate) enum PageValues {
    /// PLAIN bytes (all types but BOOLEAN).
    Plain(Vec<u8>),
    /// PLAIN booleans, one bit each.
    Bits(BitPacker),
    /// Booleans in the hybrid encoding (RLE, the v2 default).
    RleBits(HybridEncoder),
    /// Dictionary indices.
    Indices(Vec<u32>),
}

impl PageValues {
    /// The encoding a data page of these values declares.
    pub(crate) fn encoding(&self) -> Encoding {
        match self {
            PageValues::Plain(_) | PageValues::Bits(_) => Encoding::PLAIN,
            PageValues::RleBits(_) => Encoding::RLE,
            PageValues::Indices(_) => Encoding::RLE_DICTIONARY,
        }
    }
}

/// The data page being filled.
pub(crate) struct PageBuilder {
    pub(crate) def: Vec<i16>,
    pub(crate) rep: Vec<i16>,
    pub(crate) values: PageValues,
    /// Levels (values and nulls), rows, and levels below the maximum
    /// definition level.
    pub(crate) levels: usize,
    pub(crate) rows: usize,
    pub(crate) nulls: u64,
}

/// How a page is assembled.
pub(crate) struct Layout<'a> {
    pub(crate) version: WriterVersion,
    pub(crate) max_def: i16,
    pub(crate) max_rep: i16,
    /// Entries of the dictionary the indices point into.
    pub(crate) dictionary_len: usize,
    pub(crate) codec: Option<&'a mut Compressor>,
    /// v2 values stay uncompressed unless compression brings them below this
    /// fraction of the page.
    pub(crate) v2_ratio: f64,
    pub(crate) statistics: Option<Statistics>,
}

impl PageBuilder {
    pub(crate) fn new(values: PageValues) -> Self {
        PageBuilder { def: Vec::new(), rep: Vec::new(), values, levels: 0, rows: 0, nulls: 0 }
    }

    /// Encoded size of the values so far, what the page size limit counts
    /// (as the crate counts it); `dictionary_len` is the dictionary's size.
    pub(crate) fn values_size(&self, dictionary_len: usize) -> usize {
        match &self.values {
            PageValues::Plain(v) => v.len(),
            PageValues::Bits(p) => p.len(),
            PageValues::RleBits(e) => e.len(),
            PageValues::Indices(v) => {
                // The most the indices can take: runs of 8 values, either
                // bit-packed (a header byte and `width` bytes) or repeated (a
                // header byte and the value's bytes).
                let width = usize::from(bit_width(dictionary_len.saturating_sub(1) as u32));
                let runs = v.len().div_ceil(8);
                (runs * (1 + width)).max(runs * (1 + width.div_ceil(8)))
            }
        }
    }

    /// The page, leaving the builder empty for the next, its values in `next`.
    pub(crate) fn finish(&mut self, layout: Layout<'_>, next: PageValues) -> ParquetResult<CompressedPage> {
        let values = std::mem::replace(&mut self.values, next);
        let encoding = values.encoding();
        let num_values = self.levels as u32;
        // Each stream is encoded straight into the buffer that is written:
        // no stream is copied into the page after it is made.
        let page = match layout.version {
            WriterVersion::PARQUET_1_0 => {
                let mut buf = Vec::new();
                for (levels, max) in [(&self.rep, layout.max_rep), (&self.def, layout.max_def)] {
                    if max > 0 {
                        let at = buf.len();
                        buf.extend_from_slice(&[0; 4]);
                        buf = encode_levels(buf, levels, max);
                        let len = (buf.len() - at - 4) as u32;
                        buf[at..at + 4].copy_from_slice(&len.to_le_bytes());
                    }
                }
                buf = encode_values(buf, values, layout.dictionary_len);
                let uncompressed = buf.len();
                if let Some(codec) = layout.codec {
                    let mut compressed = Vec::with_capacity(uncompressed / 2);
                    codec.compress(&buf, &mut compressed)?;
                    buf = compressed;
                }
                let page = Page::DataPage {
                    buf: buf.into(),
                    num_values,
                    encoding,
                    def_level_encoding: Encoding::RLE,
                    rep_level_encoding: Encoding::RLE,
                    statistics: layout.statistics,
                };
                CompressedPage::new(page, uncompressed)
            }
            WriterVersion::PARQUET_2_0 => {
                let mut buf = Vec::new();
                if layout.max_rep > 0 {
                    buf = encode_levels(buf, &self.rep, layout.max_rep);
                }
                let rep_len = buf.len();
                if layout.max_def > 0 {
                    buf = encode_levels(buf, &self.def, layout.max_def);
                }
                let levels_len = buf.len();
                let values = encode_values(Vec::new(), values, layout.dictionary_len);
                let uncompressed = levels_len + values.len();
                let mut compressed = false;
                if let Some(codec) = layout.codec {
                    codec.compress(&values, &mut buf)?;
                    // Values that compress badly are kept as they are.
                    compressed = ((buf.len() - levels_len) as f64) < (uncompressed as f64) * layout.v2_ratio;
                    if !compressed {
                        buf.truncate(levels_len);
                    }
                }
                if !compressed {
                    buf.extend_from_slice(&values);
                }
                let page = Page::DataPageV2 {
                    buf: buf.into(),
                    num_values,
                    encoding,
                    num_nulls: self.nulls as u32,
                    num_rows: self.rows as u32,
                    def_levels_byte_len: (levels_len - rep_len) as u32,
                    rep_levels_byte_len: rep_len as u32,
                    is_compressed: compressed,
                    statistics: layout.statistics,
                };
                CompressedPage::new(page, uncompressed)
            }
        };
        self.def.clear();
        self.rep.clear();
        self.levels = 0;
        self.rows = 0;
        self.nulls = 0;
        Ok(page)
    }
}

/// `out` followed by `levels` in the hybrid encoding.
fn encode_levels(out: Vec<u8>, levels: &[i16], max: i16) -> Vec<u8> {
    let mut e = HybridEncoder::appending(bit_width(max as u32), out);
    e.put_all(levels.iter().map(|l| *l as u32));
    e.finish()
}

/// `out` followed by a page's values, encoded; `dictionary_len` sizes the
/// indices' bit width. PLAIN values after nothing are the buffer itself.
fn encode_values(mut out: Vec<u8>, values: PageValues, dictionary_len: usize) -> Vec<u8> {
    match values {
        PageValues::Plain(v) if out.is_empty() => v,
        PageValues::Plain(v) => {
            out.extend_from_slice(&v);
            out
        }
        PageValues::Bits(mut p) => {
            out.extend_from_slice(&p.finish());
            out
        }
        PageValues::RleBits(e) => {
            let stream = e.finish();
            out.extend_from_slice(&(stream.len() as u32).to_le_bytes());
            out.extend_from_slice(&stream);
            out
        }
        PageValues::Indices(v) => {
            let width = bit_width(dictionary_len.saturating_sub(1) as u32);
            out.push(width);
            let mut e = HybridEncoder::appending(width, out);
            e.put_slice(&v);
            e.finish()
        }
    }
}
