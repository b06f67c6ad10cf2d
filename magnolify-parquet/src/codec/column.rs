//! The decoder of one column chunk: pages in, batches of whole records out.
//!
//! Each data page's levels are decoded whole when the page is reached (they
//! are needed to find where records end), and checked against the column's
//! maxima once; its values are decoded batch by batch straight into the
//! batch's buffers: fixed-width values in bulk, byte strings into one
//! contiguous buffer, dictionary indices gathered from the decoded
//! dictionary; values in the DELTA encodings and BYTE_STREAM_SPLIT are
//! decoded with their whole page.

use std::sync::Arc;

use bytes::Bytes;
use parquet::basic::Encoding;
use parquet::column::page::{Page, PageReader};
use parquet::schema::types::ColumnDescPtr;

use super::bit_packed::decode_bit_packed_levels;
use super::dictionary::{check_indices, decode_dictionary, gather};
use super::hybrid::Hybrid;
use super::plain::Plain;
use super::skip_counts::SkipCounts;
use super::whole::{decode_levels, decode_whole, u32_at};
use crate::error::{Error, Location, Result};
use crate::guard::catch;
use crate::logical::Annotation;
use crate::values::{ColumnValues, LeafBatch};

/// Where the current page's values are read from.
enum PageValues {
    Plain(Plain),
    /// Dictionary indices.
    Dictionary(Hybrid),
    /// Booleans in the hybrid encoding, one bit wide.
    RleBooleans(Hybrid),
    /// Values decoded with the whole page (DELTA encodings,
    /// BYTE_STREAM_SPLIT), and the next to hand on.
    Decoded(ColumnValues, usize),
}

/// The decoder of one column chunk.
pub(crate) struct ColumnDecoder {
    pages: Box<dyn PageReader>,
    descr: ColumnDescPtr,
    max_def: i16,
    max_rep: i16,
    /// The chunk's decoded dictionary.
    dictionary: Option<Arc<ColumnValues>>,
    /// The current data page's bytes, levels and values.
    buf: Bytes,
    def: Vec<i16>,
    rep: Vec<i16>,
    levels: usize,
    /// The next level of the current page.
    next: usize,
    values: PageValues,
    /// Pages taken from the chunk so far (the current one is the last).
    pages_read: usize,
    /// Where data pages decoded are counted, when someone asks.
    counts: Option<Arc<SkipCounts>>,
    /// Dictionary indices, when a batch's values are copied out of the dictionary.
    indices: Vec<u32>,
    /// Most levels the pages reached by one batch may hold, and what is
    /// left of it for the current batch.
    max_levels: u64,
    budget: u64,
    /// Annotated as text (STRING, ENUM, JSON): each batch's dense values are
    /// checked as UTF-8 once, for the records that read them as text.
    text: bool,
}

/// Records of a repeated column decoded at once to pass over them.
const SKIP_STEP: usize = 1024;

impl ColumnDecoder {
    /// A decoder of `pages`, whose pages reached by one batch hold at most
    /// `max_levels` levels: run-length encoding lets a few bytes claim
    /// billions of levels, which are decoded in full.
    pub(crate) fn new(descr: ColumnDescPtr, pages: Box<dyn PageReader>, max_levels: u64) -> Self {
        let text =
            matches!(Annotation::of(descr.self_type()), Annotation::String | Annotation::Enum | Annotation::Json);
        ColumnDecoder {
            text,
            pages,
            max_def: descr.max_def_level(),
            max_rep: descr.max_rep_level(),
            descr,
            dictionary: None,
            buf: Bytes::new(),
            def: Vec::new(),
            rep: Vec::new(),
            levels: 0,
            next: 0,
            values: PageValues::Plain(Plain::new(0, 0)),
            pages_read: 0,
            counts: None,
            indices: Vec::new(),
            max_levels,
            budget: max_levels,
        }
    }

    /// Counts the data pages it decodes in `counts`.
    pub(crate) fn count_pages(&mut self, counts: Arc<SkipCounts>) {
        self.counts = Some(counts);
    }

    /// Dotted path of the column.
    pub(crate) fn path(&self) -> String {
        self.descr.path().string()
    }

    /// Appends up to `records` whole records to `batch`. Returns how many
    /// records it appended; fewer than asked only at the chunk's end.
    pub(crate) fn fill(&mut self, records: usize, batch: &mut LeafBatch) -> Result<usize> {
        let filled = self.fill_inner(records, batch).map_err(|message| {
            let location = Location::column(self.descr.path().string());
            Error::damaged(location.with_page(self.pages_read.saturating_sub(1)), message)
        })?;
        if let (true, ColumnValues::Bytes(values)) = (self.text, &mut batch.values) {
            // Here, on the decoding thread, once per batch.
            values.check_text();
        }
        Ok(filled)
    }

    /// Passes over up to `records` whole records (`scratch` holds what is
    /// decoded to pass over, and is left empty). Returns how many records it
    /// passed (fewer only at the chunk's end) and how many data pages it
    /// passed without reading them: a flat column's page that starts at the
    /// decoder's position and ends within the skip (one record per level)
    /// is neither decompressed nor decoded, the chunk's first data page too
    /// (the dictionary page before it is read: the pages after need it).
    pub(crate) fn skip(&mut self, records: usize, scratch: &mut LeafBatch) -> Result<(usize, u64)> {
        self.skip_inner(records, scratch).map_err(|message| {
            let location = Location::column(self.descr.path().string());
            Error::damaged(location.with_page(self.pages_read.saturating_sub(1)), message)
        })
    }

    fn skip_inner(&mut self, records: usize, scratch: &mut LeafBatch) -> Result<(usize, u64), String> {
        let (mut skipped, mut pages) = (0, 0);
        while skipped < records {
            // Each step is a batch of its own for the level budget.
            self.budget = self.max_levels;
            if self.next == self.levels {
                let Some(next) = catch(|| self.pages.peek_next_page())?.map_err(|e| e.to_string())? else { break };
                if next.is_dict {
                    // Read now, as the pages after it need it; the data page
                    // after it may still be passed whole.
                    self.take_dictionary()?;
                    continue;
                }
                // A flat column's page holds one record per level. Repeated
                // columns' pages are never passed whole: some writers split
                // a record across pages, even v2 ones.
                let rows = if self.max_rep > 0 { None } else { next.num_levels };
                if let Some(rows) = rows.filter(|&rows| rows <= records - skipped) {
                    catch(|| self.pages.skip_next_page())?.map_err(|e| e.to_string())?;
                    self.pages_read += 1;
                    skipped += rows;
                    pages += 1;
                    continue;
                }
                if !self.next_page()? {
                    break;
                }
                continue;
            }
            // Within a page: decode to pass over, up to the page's end for a
            // flat column (so that the pages after it may be passed whole),
            // a batch's worth at a time for a repeated one.
            let want = match self.max_rep {
                0 => (records - skipped).min(self.levels - self.next),
                _ => (records - skipped).min(SKIP_STEP),
            };
            let passed = self.fill_inner(want, scratch);
            scratch.clear();
            match passed? {
                0 => break,
                n => skipped += n,
            }
        }
        Ok((skipped, pages))
    }

    /// Passes over the pages left in the chunk without decompressing them,
    /// when no record of it is wanted any more; the decoder is then at the
    /// chunk's end. Returns how many data pages it passed.
    pub(crate) fn skip_rest(&mut self) -> Result<u64> {
        self.skip_rest_inner().map_err(|message| {
            // The page that could not be passed is the one after those taken.
            Error::damaged(Location::column(self.descr.path().string()).with_page(self.pages_read), message)
        })
    }

    fn skip_rest_inner(&mut self) -> Result<u64, String> {
        let mut pages = 0;
        while let Some(next) = catch(|| self.pages.peek_next_page())?.map_err(|e| e.to_string())? {
            catch(|| self.pages.skip_next_page())?.map_err(|e| e.to_string())?;
            self.pages_read += 1;
            pages += u64::from(!next.is_dict);
        }
        self.next = self.levels;
        Ok(pages)
    }

    fn fill_inner(&mut self, records: usize, batch: &mut LeafBatch) -> Result<usize, String> {
        self.budget = self.max_levels;
        let mut taken = 0;
        loop {
            if self.next == self.levels {
                // A repeated column's last record may go on in the next page.
                if (self.max_rep == 0 && taken == records) || !self.next_page()? {
                    return Ok(taken);
                }
                continue;
            }
            let start = self.next;
            let end = if self.max_rep > 0 {
                // Records start at repetition level 0: take levels up to the
                // start of the record after the last one asked for.
                let mut end = self.levels;
                for (i, &r) in self.rep[start..self.levels].iter().enumerate() {
                    if r == 0 {
                        if taken == records {
                            end = start + i;
                            break;
                        }
                        taken += 1;
                    }
                }
                end
            } else {
                let take = (records - taken).min(self.levels - start);
                taken += take;
                start + take
            };
            if end == start {
                return Ok(taken);
            }
            let defined = if self.max_def > 0 {
                let levels = &self.def[start..end];
                batch.def.extend_from_slice(levels);
                levels.iter().filter(|d| **d == self.max_def).count()
            } else {
                end - start
            };
            if self.max_rep > 0 {
                batch.rep.extend_from_slice(&self.rep[start..end]);
            }
            self.decode_values(defined, batch)?;
            self.next = end;
        }
    }

    /// Decodes the next `n` values of the page into `batch`.
    fn decode_values(&mut self, n: usize, batch: &mut LeafBatch) -> Result<(), String> {
        if n == 0 {
            return Ok(());
        }
        if let PageValues::Dictionary(indices) = &mut self.values {
            let dictionary = self.dictionary.as_ref().ok_or("dictionary indices without a dictionary")?;
            let fresh = batch.values.len() == 0;
            if fresh && batch.dictionary.as_ref().is_none_or(|d| Arc::ptr_eq(d, dictionary)) {
                // The batch refers to the dictionary.
                let before = batch.indices.len();
                indices.decode_into(&self.buf, n, &mut batch.indices, |i| i)?;
                check_indices(&batch.indices[before..], dictionary.len())?;
                batch.dictionary = Some(dictionary.clone());
                return Ok(());
            }
            // The batch already holds dense values: copy entries.
            self.indices.clear();
            indices.decode_into(&self.buf, n, &mut self.indices, |i| i)?;
            return gather(dictionary, &self.indices, &mut batch.values);
        }
        if let Some(dictionary) = batch.dictionary.take() {
            // Dense values follow indices (a writer gave up on the
            // dictionary mid-chunk): the batch turns dense.
            gather(&dictionary, &batch.indices, &mut batch.values)?;
            batch.indices.clear();
        }
        let out = &mut batch.values;
        match &mut self.values {
            PageValues::Plain(plain) => plain.decode(&self.buf, n, out),
            PageValues::RleBooleans(bits) => match out {
                ColumnValues::Bool(v) => bits.decode_into(&self.buf, n, v, |b| b != 0),
                other => Err(format!("RLE booleans in a {} column", other.kind())),
            },
            PageValues::Decoded(decoded, next) => {
                out.extend_from(decoded, *next..*next + n)?;
                *next += n;
                Ok(())
            }
            PageValues::Dictionary(_) => Err("dictionary indices decoded as values".to_owned()),
        }
    }

    /// Moves to the next data page, reading a dictionary page on the way.
    /// `false` at the chunk's end.
    fn next_page(&mut self) -> Result<bool, String> {
        loop {
            let page = match catch(|| self.pages.get_next_page())? {
                Ok(Some(page)) => page,
                Ok(None) => return Ok(false),
                Err(e) => return Err(e.to_string()),
            };
            self.pages_read += 1;
            if page.is_data_page() {
                self.spend(page.num_values())?;
                if let Some(counts) = &self.counts {
                    counts.page_decoded();
                }
            }
            match page {
                Page::DictionaryPage { .. } => {
                    self.read_dictionary(page)?;
                    continue;
                }
                Page::DataPage { .. } => self.start_v1(page)?,
                Page::DataPageV2 { .. } => self.start_v2(page)?,
            }
            self.next = 0;
            let first = self.pages_read == 1 + usize::from(self.dictionary.is_some());
            if first && self.max_rep > 0 && self.levels > 0 && self.rep[0] != 0 {
                return Err(format!("the chunk's first record starts at repetition level {}, not 0", self.rep[0]));
            }
            return Ok(true);
        }
    }

    /// Counts a page's levels against the batch's budget before they are decoded.
    fn spend(&mut self, levels: u32) -> Result<(), String> {
        match self.budget.checked_sub(u64::from(levels)) {
            Some(left) => {
                self.budget = left;
                Ok(())
            }
            None => Err(format!(
                "one batch of records needs more than {} levels of this column (a giant or corrupt record); \
                 raise ReadOptions::max_levels if the file is sound",
                self.max_levels
            )),
        }
    }

    /// Reads the dictionary page that comes next.
    fn take_dictionary(&mut self) -> Result<(), String> {
        let page = catch(|| self.pages.get_next_page())?.map_err(|e| e.to_string())?;
        self.pages_read += 1;
        self.read_dictionary(page.ok_or("the chunk ends where its page reader saw a dictionary page")?)
    }

    fn read_dictionary(&mut self, page: Page) -> Result<(), String> {
        let Page::DictionaryPage { buf, num_values, encoding, .. } = &page else {
            return Err("not a dictionary page".to_owned());
        };
        if self.pages_read != 1 {
            return Err("a dictionary page that is not the chunk's first page".to_owned());
        }
        #[allow(deprecated)]
        if !matches!(encoding, Encoding::PLAIN | Encoding::PLAIN_DICTIONARY) {
            return Err(format!("a dictionary page in {encoding}, not PLAIN"));
        }
        let empty = ColumnValues::new(self.descr.physical_type(), self.descr.type_length());
        let mut values = decode_dictionary(buf, *num_values as usize, empty)?;
        if let ColumnValues::Bytes(b) = &mut values {
            // Once per chunk, for every BYTE_ARRAY column: the decoder does not
            // know whether the field reads text, and a dictionary is small.
            b.check_text();
        }
        self.dictionary = Some(Arc::new(values));
        Ok(())
    }

    /// Starts a data page of the first version: repetition then definition
    /// levels, each in the hybrid encoding after a 4-byte length, then values.
    fn start_v1(&mut self, page: Page) -> Result<(), String> {
        let Page::DataPage { buf, num_values, encoding, def_level_encoding, rep_level_encoding, .. } = &page else {
            return Err("not a data page".to_owned());
        };
        let n = *num_values as usize;
        let mut at = 0;
        let levels = [
            (self.max_rep, "repetition", *rep_level_encoding, &mut self.rep),
            (self.max_def, "definition", *def_level_encoding, &mut self.def),
        ];
        for (max, kind, encoding, into) in levels {
            into.clear();
            if max == 0 {
                continue;
            }
            #[allow(deprecated)]
            match encoding {
                Encoding::RLE => {
                    let len = u32_at(buf, at).ok_or("the page ends inside a level length")? as usize;
                    let end = (at + 4).checked_add(len).filter(|e| *e <= buf.len());
                    let end = end.ok_or_else(|| format!("{len} bytes of levels run past the page's end"))?;
                    decode_levels(buf, at + 4..end, n, (max, kind), into)?;
                    at = end;
                }
                // The deprecated encoding of old writers.
                Encoding::BIT_PACKED => {
                    let rest = buf.get(at..).unwrap_or_default();
                    at += decode_bit_packed_levels(rest, n, max, into).map_err(|e| format!("{kind} levels: {e}"))?;
                }
                other => return Err(format!("{kind} levels in {other}, not RLE or BIT_PACKED")),
            }
        }
        self.buf = buf.clone();
        self.levels = n;
        self.start_values(*encoding, at)
    }

    /// Starts a data page of the second version: the levels' byte lengths
    /// are in the header, the streams have no length of their own.
    fn start_v2(&mut self, page: Page) -> Result<(), String> {
        let Page::DataPageV2 { buf, num_values, encoding, def_levels_byte_len, rep_levels_byte_len, .. } = &page else {
            return Err("not a data page".to_owned());
        };
        let n = *num_values as usize;
        let rep_end = *rep_levels_byte_len as usize;
        let def_end = rep_end.checked_add(*def_levels_byte_len as usize).filter(|e| *e <= buf.len());
        let def_end = def_end.ok_or("the page's levels run past its end")?;
        let levels = [
            (self.max_rep, "repetition", &mut self.rep, 0..rep_end),
            (self.max_def, "definition", &mut self.def, rep_end..def_end),
        ];
        for (max, kind, into, range) in levels {
            into.clear();
            if max > 0 {
                decode_levels(buf, range, n, (max, kind), into)?;
            }
        }
        self.buf = buf.clone();
        self.levels = n;
        self.start_values(*encoding, def_end)
    }

    /// Sets up the values of the current page, which start at `at`: read
    /// batch by batch (PLAIN, dictionary indices, RLE booleans), or decoded
    /// whole here (the DELTA encodings and BYTE_STREAM_SPLIT, whose values
    /// depend on the values before them or on the page's value count).
    #[allow(deprecated)]
    fn start_values(&mut self, encoding: Encoding, at: usize) -> Result<(), String> {
        let end = self.buf.len();
        let empty = ColumnValues::new(self.descr.physical_type(), self.descr.type_length());
        let boolean = matches!(empty, ColumnValues::Bool(_));
        self.values = match encoding {
            Encoding::PLAIN if boolean => PageValues::Plain(Plain::new(at, end).for_booleans()),
            Encoding::PLAIN => PageValues::Plain(Plain::new(at, end)),
            Encoding::PLAIN_DICTIONARY | Encoding::RLE_DICTIONARY => {
                if self.dictionary.is_none() {
                    return Err(format!("a {encoding} data page without a dictionary page before it"));
                }
                let width = *self.buf.get(at).ok_or("the page ends before its index bit width")?;
                PageValues::Dictionary(Hybrid::new(at + 1, end, width)?)
            }
            // Booleans with a 4-byte length, like v1 levels.
            Encoding::RLE if boolean => {
                let len = u32_at(&self.buf, at).ok_or("the page ends inside the booleans' length")? as usize;
                let stream_end = (at + 4).checked_add(len).filter(|e| *e <= end);
                let stream_end = stream_end.ok_or_else(|| format!("{len} bytes of booleans, past the page's end"))?;
                PageValues::RleBooleans(Hybrid::new(at + 4, stream_end, 1)?)
            }
            // Values are at most as many as levels.
            _ => {
                let section = self.buf.get(at..).unwrap_or_default();
                PageValues::Decoded(decode_whole(encoding, section, self.levels, empty)?, 0)
            }
        };
        if let PageValues::Decoded(values, _) = &self.values {
            // A whole page's values must be those its levels define.
            let defined =
                if self.max_def > 0 { self.def.iter().filter(|d| **d == self.max_def).count() } else { self.levels };
            if values.len() != defined {
                return Err(format!("{} values decoded for {defined} defined levels", values.len()));
            }
        }
        Ok(())
    }
}
