//! A batch of whole records cut into mini-batches, as the `parquet` crate
//! cuts them, and their levels and values encoded into the page being
//! filled.

use parquet::basic::Type as PhysicalType;
use parquet::errors::{ParquetError, Result as ParquetResult};
use parquet::file::metadata::LevelHistogram;
use parquet::file::properties::EnabledStatistics;
use parquet::schema::types::ColumnDescPtr;

use super::ChunkEncoder;
use crate::values::ColumnValues;
use crate::write::encode::dictionary::Dictionary;
use crate::write::encode::page::PageValues;
use crate::write::encode::plain;

impl ChunkEncoder {
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
