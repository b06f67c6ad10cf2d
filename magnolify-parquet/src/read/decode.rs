//! Decoding of batches of whole records, row group after row group: the
//! first stage of the read pipeline, run on the caller's thread or on a
//! thread of its own (see [`super::pipeline`]).

use std::collections::VecDeque;
use std::sync::Arc;

use parquet::schema::types::ColumnDescPtr;

use super::selection::{RowRanges, Selection, SkipCounts};
use super::RowGroupSource;
use crate::codec::ColumnDecoder;
use crate::error::{Error, Location, Result};
use crate::values::LeafBatch;

/// One decoded batch: a [`LeafBatch`] per projected column, all holding the
/// same `records` whole records.
pub(crate) struct Decoded {
    pub(crate) leaves: Vec<LeafBatch>,
    pub(crate) records: usize,
    /// The row group the records are from, and the index (in the file) of
    /// the first of them.
    pub(crate) group: usize,
    pub(crate) first_record: u64,
}

impl Decoded {
    /// Empty buffers for `columns` (index and descriptor).
    pub(crate) fn new(columns: &[(usize, ColumnDescPtr)]) -> Self {
        let leaves = columns.iter().map(|(_, d)| LeafBatch::new(d.physical_type(), d.type_length())).collect();
        Decoded { leaves, records: 0, group: 0, first_record: 0 }
    }
}

/// The row group being decoded.
struct Open {
    index: usize,
    /// Rows its metadata claims.
    rows: u64,
    /// Records decoded or passed over so far: the position in the group.
    decoded: u64,
    /// The file index of its first record.
    first: u64,
    /// The rows to decode, when not all (the others are passed over), and
    /// the first of those ranges not yet behind the position.
    ranges: Option<(RowRanges, usize)>,
}

/// Decodes batches of the projected columns of `S`'s row groups.
pub(crate) struct BatchDecoder<S> {
    source: Arc<S>,
    /// The file column of each projected column, and its descriptor.
    columns: Vec<(usize, ColumnDescPtr)>,
    decoders: Vec<ColumnDecoder>,
    /// Row groups still to decode, in order.
    groups: VecDeque<usize>,
    open: Option<Open>,
    batch_size: usize,
    /// The rows to decode of some row groups, and what passing over the
    /// others cost.
    selection: Selection,
    /// Where each column's passed-over values are decoded.
    scratch: Vec<LeafBatch>,
}

impl<S: RowGroupSource> BatchDecoder<S> {
    /// A decoder of `columns` (indices among the file's leaves, checked) of
    /// the row groups `groups` of `source`, `batch_size` records at a time.
    pub(crate) fn new(source: Arc<S>, columns: &[usize], groups: VecDeque<usize>, batch_size: usize) -> Result<Self> {
        let n = source.schema().num_columns();
        let columns = columns
            .iter()
            .map(|&c| match c < n {
                true => Ok((c, source.schema().column(c))),
                false => Err(Error::bug(
                    Location::default(),
                    format!("the converter asked for column {c}, the file has {n}"),
                )),
            })
            .collect::<Result<_>>()?;
        Ok(BatchDecoder {
            source,
            columns,
            decoders: Vec::new(),
            groups,
            open: None,
            batch_size,
            selection: Selection::default(),
            scratch: Vec::new(),
        })
    }

    /// Decodes only the selected rows of the row groups `selection` names.
    pub(crate) fn select(&mut self, selection: Selection) {
        self.selection = selection;
    }

    /// The projected columns, in order: index among the file's leaves, and descriptor.
    pub(crate) fn columns(&self) -> &[(usize, ColumnDescPtr)] {
        &self.columns
    }

    /// Decodes the next batch into `out`, replacing what it held. `false`
    /// after the last row group.
    pub(crate) fn next(&mut self, out: &mut Decoded) -> Result<bool> {
        loop {
            if let Some(open) = &mut self.open {
                let index = open.index;
                let size = pass_over(open, &mut self.decoders, &mut self.scratch, &self.selection.counts)
                    .map_err(|e| e.in_row_group(index))?;
                // With no selected row left, no page more is decoded (a
                // repeated column would take one to find its records' end).
                if size > 0 {
                    let first = open.first + open.decoded;
                    let n = next_batch(open, &mut self.decoders, out, size.min(self.batch_size))
                        .map_err(|e| e.in_row_group(index))?;
                    if n > 0 {
                        out.records = n;
                        out.group = index;
                        out.first_record = first;
                        return Ok(true);
                    }
                }
                self.open = None;
            }
            let Some(index) = self.groups.pop_front() else { return Ok(false) };
            self.open_group(index).map_err(|e| e.in_row_group(index))?;
        }
    }

    fn open_group(&mut self, index: usize) -> Result<()> {
        let rows = self.source.num_rows(index)?;
        // Records are numbered from the start of the file. Saturating: the
        // counts of a damaged footer may add up past u64.
        let mut first = 0u64;
        for g in 0..index {
            first = first.saturating_add(self.source.num_rows(g)?);
        }
        let max_levels = self.source.max_levels();
        self.decoders = self
            .columns
            .iter()
            .map(|(column, descr)| {
                let mut decoder = ColumnDecoder::new(descr.clone(), self.source.pages(index, *column)?, max_levels);
                decoder.count_pages(self.selection.counts.clone());
                Ok(decoder)
            })
            .collect::<Result<_>>()?;
        let ranges = self.selection.groups.get(&index).filter(|_| !self.decoders.is_empty()).map(|r| (r.clone(), 0));
        if ranges.is_some() && self.scratch.is_empty() {
            self.scratch = Decoded::new(&self.columns).leaves;
        }
        self.open = Some(Open { index, rows, decoded: 0, first, ranges });
        Ok(())
    }
}

/// Moves the open row group's decoders over the rows before the next
/// selected range; returns how many records may be decoded from there
/// (all that are left without a selection; 0 when no selected row is left:
/// the decoders then pass the pages left without decompressing them, and
/// those pages and the rows left are counted as passed over).
fn pass_over(
    open: &mut Open,
    decoders: &mut [ColumnDecoder],
    scratch: &mut [LeafBatch],
    counts: &SkipCounts,
) -> Result<usize> {
    let Some((ranges, next)) = &mut open.ranges else { return Ok(usize::MAX) };
    while ranges.ranges().get(*next).is_some_and(|&(_, end)| end <= open.decoded) {
        *next += 1;
    }
    let Some(&(start, end)) = ranges.ranges().get(*next) else {
        let mut pages = 0;
        for decoder in decoders.iter_mut() {
            pages += decoder.skip_rest()?;
        }
        counts.add(pages, open.rows.saturating_sub(open.decoded));
        open.decoded = open.rows;
        return Ok(0);
    };
    if start > open.decoded {
        let gap = usize::try_from(start - open.decoded).unwrap_or(usize::MAX);
        let mut pages = 0;
        for (decoder, scratch) in decoders.iter_mut().zip(scratch.iter_mut()) {
            let (passed, passed_pages) = decoder.skip(gap, scratch)?;
            if passed != gap {
                return Err(Error::damaged(
                    Location::column(decoder.path()),
                    format!("{passed} records where the row group's page index and other columns have {gap}"),
                ));
            }
            pages += passed_pages;
        }
        counts.add(pages, gap as u64);
        open.decoded = start;
    }
    Ok(usize::try_from(end - open.decoded).unwrap_or(usize::MAX))
}

/// Decodes the next batch of the open row group; returns how many records
/// it holds (0 at the group's end), checked against the rows it claims.
fn next_batch(open: &mut Open, decoders: &mut [ColumnDecoder], out: &mut Decoded, size: usize) -> Result<usize> {
    let n = if decoders.is_empty() {
        // A type none of whose fields is in the file reads no column: it
        // still has one record per row, each made of missing values, counted
        // from the row group's metadata.
        (open.rows - open.decoded).min(size as u64) as usize
    } else {
        let mut count = None;
        for (decoder, leaf) in decoders.iter_mut().zip(&mut out.leaves) {
            leaf.clear();
            let n = decoder.fill(size, leaf)?;
            match count {
                None => count = Some(n),
                Some(m) if m != n => {
                    return Err(Error::damaged(
                        Location::column(decoder.path()),
                        format!("{n} records where other columns have {m}"),
                    ))
                }
                _ => {}
            }
        }
        count.unwrap_or(0)
    };
    let decoded = open.decoded + n as u64;
    // With no column read there is nothing to count records by.
    if !decoders.is_empty() && (decoded > open.rows || (n == 0 && decoded != open.rows)) {
        return Err(Error::damaged(
            Location::row_group(open.index),
            format!(
                "the row group claims {} rows, its columns hold {}{decoded}",
                open.rows,
                if n == 0 { "" } else { "at least " }
            ),
        ));
    }
    open.decoded = decoded;
    Ok(n)
}
