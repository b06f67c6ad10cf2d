//! Per-leaf cursors over decoded batches of whole records: what assembly
//! reads from.

use std::sync::Arc;

use parquet::data_type::Int96;
use parquet::schema::types::{ColumnDescPtr, SchemaDescriptor};

use super::nulls::null_error;
use crate::error::{Error, Location, Result};
use crate::values::{ColumnValues, LeafBatch};

/// One projected leaf: what it is, and the read positions in its current
/// batch (which the [`RecordSource`] holds, lent by the reader).
pub(crate) struct LeafCursor {
    /// Next level (triplet) to read.
    pub(crate) lvl: usize,
    /// Next dense value to read.
    pub(crate) val: usize,
    /// Levels (triplets) in the current batch.
    levels: usize,
    /// Values in the current batch.
    values: usize,
    pub(crate) max_def: i16,
    pub(crate) max_rep: i16,
    pub(crate) path: String,
    /// Index of the column among the file's leaves.
    pub(crate) column: usize,
}

macro_rules! take_value {
    ($(#[$doc:meta])* $name:ident, $t:ty, $variant:ident) => {
        $(#[$doc])*
        /// `Ok(None)` is a null at this level; the cursor moves to the next triplet.
        #[inline(always)]
        pub fn $name(&mut self, cursor: usize) -> Result<Option<$t>> {
            let (c, batch) = self.at(cursor)?;
            let Some(i) = c.next_value_index(batch)? else { return Ok(None) };
            let (values, i) = c.value(batch, i)?;
            match values {
                ColumnValues::$variant(v) => match v.get(i) {
                    Some(x) => Ok(Some(x.clone())),
                    None => Err(damaged_cold(&c.path, "fewer values than defined levels")),
                },
                _ => Err(bug_cold(&c.path, concat!("the converter read a column that is not ", stringify!($variant)))),
            }
        }
    };
}

impl LeafCursor {
    /// Steps to the next triplet: `None` for a null at this level, else the
    /// index (in the batch) of its value.
    #[inline(always)]
    fn next_value_index(&mut self, batch: &LeafBatch) -> Result<Option<usize>> {
        if self.next_def(batch)? < self.max_def {
            return Ok(None);
        }
        let i = self.val;
        self.val += 1;
        Ok(Some(i))
    }

    /// The values holding value `i` of `batch`, and its index among them.
    #[inline(always)]
    fn value<'de>(&self, batch: &'de LeafBatch, i: usize) -> Result<(&'de ColumnValues, usize)> {
        match batch.locate(i) {
            Some(found) => Ok(found),
            None => Err(damaged_cold(&self.path, "fewer values than defined levels")),
        }
    }

    pub(crate) fn new(column: usize, descr: &ColumnDescPtr) -> Self {
        LeafCursor {
            lvl: 0,
            val: 0,
            levels: 0,
            values: 0,
            max_def: descr.max_def_level(),
            max_rep: descr.max_rep_level(),
            path: descr.path().string(),
            column,
        }
    }

    fn count_levels(&self, batch: &LeafBatch) -> usize {
        if self.max_rep > 0 {
            batch.rep.len()
        } else if self.max_def > 0 {
            batch.def.len()
        } else {
            batch.len()
        }
    }

    #[inline(always)]
    fn next_def(&mut self, batch: &LeafBatch) -> Result<i16> {
        let i = self.lvl;
        if i >= self.levels {
            return Err(damaged_cold(&self.path, "column ended before the other columns of the record"));
        }
        self.lvl = i + 1;
        // A column without definition levels has an empty `def`: one bounds
        // check answers both "which level" and "is there one".
        Ok(batch.def.get(i).copied().unwrap_or(0))
    }

    /// Starts reading `batch` from its beginning.
    fn start(&mut self, batch: &LeafBatch) {
        self.lvl = 0;
        self.val = 0;
        self.levels = self.count_levels(batch);
        self.values = batch.len();
    }

    fn exhausted(&self) -> bool {
        self.lvl == self.levels && self.val == self.values
    }
}

/// The cursors of a reader's projected leaves, kept from batch to batch and
/// lent, with each decoded batch, to the [`RecordSource`] that assembles it.
pub(crate) struct Cursors {
    cursors: Vec<LeafCursor>,
    schema: Arc<SchemaDescriptor>,
}

impl Cursors {
    /// Cursors over the file columns `columns` of `schema` (index and descriptor).
    pub(crate) fn new(schema: Arc<SchemaDescriptor>, columns: &[(usize, ColumnDescPtr)]) -> Self {
        let cursors = columns.iter().map(|(c, descr)| LeafCursor::new(*c, descr)).collect();
        Cursors { cursors, schema }
    }

    /// A source over `leaves` (one batch per cursor, of whole records, the
    /// first of which is record `first` of the file): records assembled
    /// from it may borrow from `leaves`.
    pub(crate) fn source<'de>(&'de mut self, leaves: &'de [LeafBatch], first: u64) -> RecordSource<'de> {
        for (cursor, leaf) in self.cursors.iter_mut().zip(leaves) {
            cursor.start(leaf);
        }
        let n = self.cursors.len().min(leaves.len());
        RecordSource { leaves: &leaves[..n], cursors: &mut self.cursors[..n], record: first, schema: &self.schema }
    }
}

/// The projected leaves of a file (or store) with their current batches, and
/// the index of the record being assembled: what records are assembled
/// from, and what a record that borrows borrows from (for `'de`).
///
/// Converters read through it with the recursive descent of the Dremel paper:
/// [`peek`](Self::peek) at the first leaf of a node tells whether the node is
/// present and whether a list goes on; `take_*` and [`skip`](Self::skip)
/// consume one triplet.
pub struct RecordSource<'de> {
    leaves: &'de [LeafBatch],
    cursors: &'de mut [LeafCursor],
    pub(crate) record: u64,
    schema: &'de SchemaDescriptor,
}

impl<'de> RecordSource<'de> {
    /// The cursor `cursor` and its batch.
    #[inline(always)]
    fn at(&mut self, cursor: usize) -> Result<(&mut LeafCursor, &'de LeafBatch)> {
        let leaves: &'de [LeafBatch] = self.leaves;
        let n = self.cursors.len();
        match (self.cursors.get_mut(cursor), leaves.get(cursor)) {
            (Some(c), Some(batch)) => Ok((c, batch)),
            _ => Err(no_cursor(cursor, n)),
        }
    }

    /// Index of the record being assembled, from the start of the file.
    pub fn record(&self) -> u64 {
        self.record
    }

    /// Dotted path of the column under `cursor`.
    pub fn path(&self, cursor: usize) -> Option<&str> {
        self.cursors.get(cursor).map(|c| c.path.as_str())
    }

    fn location(&self, cursor: usize) -> Location {
        let location = match self.path(cursor) {
            Some(path) => Location::column(path),
            None => Location::default(),
        };
        location.with_record(self.record)
    }

    /// Maximum definition level of the column under `cursor`.
    pub fn max_def(&self, cursor: usize) -> i16 {
        self.cursors.get(cursor).map_or(0, |c| c.max_def)
    }

    /// The (repetition, definition) levels of the next triplet of `cursor`;
    /// `(0, 0)` at the end of the batch, which is a record boundary.
    #[inline(always)]
    pub fn peek(&self, cursor: usize) -> (i16, i16) {
        // Columns without repetition or definition levels keep those vectors
        // empty, and past the batch's end both are exhausted: either way the
        // answer is 0, which `get` gives without a branch on the maxima.
        match (self.cursors.get(cursor), self.leaves.get(cursor)) {
            (Some(c), Some(b)) => (b.rep.get(c.lvl).copied().unwrap_or(0), b.def.get(c.lvl).copied().unwrap_or(0)),
            _ => (0, 0),
        }
    }

    /// Consumes one triplet of each of `count` cursors from `first`, each of
    /// which must be null below definition level `below`: the single triplet
    /// that an absent node or an empty list leaves in each of its leaves.
    #[inline]
    pub fn skip(&mut self, first: usize, count: usize, below: i16) -> Result<()> {
        for i in first..first + count {
            let (c, batch) = self.at(i)?;
            let d = c.next_def(batch)?;
            if d >= below {
                return Err(Error::damaged(
                    Location::column(&c.path),
                    format!("definition level {d} where the enclosing node is absent (below {below})"),
                ));
            }
        }
        Ok(())
    }

    /// The error for a null where the type has none: the triplet just
    /// taken from `cursor` was null. It names the node of the file that is
    /// null and the type to use instead.
    #[cold]
    pub fn null_error(&self, cursor: usize) -> Error {
        let def = match (self.cursors.get(cursor), self.leaves.get(cursor)) {
            (Some(c), Some(b)) => c.lvl.checked_sub(1).and_then(|i| b.def.get(i)),
            _ => None,
        };
        self.null_at(cursor, def.copied().unwrap_or(0))
    }

    /// The error for a null at definition level `def` of `cursor` (a level
    /// that was peeked, not taken).
    #[cold]
    pub fn null_at(&self, cursor: usize, def: i16) -> Error {
        match self.cursors.get(cursor) {
            Some(c) => null_error(self.schema, c.column, def, self.record),
            None => no_cursor(cursor, self.cursors.len()),
        }
    }

    /// A value error at `cursor` and the current record.
    #[cold]
    pub fn value_error(&self, cursor: usize, message: impl Into<String>) -> Error {
        Error::value(self.location(cursor), message)
    }

    /// A converter-bug error at `cursor`: the converter did something its
    /// own plan rules out.
    #[cold]
    pub fn bug(&self, cursor: usize, message: impl Into<String>) -> Error {
        Error::bug(self.location(cursor), message)
    }

    /// A damaged-data error at `cursor`.
    #[cold]
    pub fn damaged(&self, cursor: usize, message: impl Into<String>) -> Error {
        Error::damaged(self.location(cursor), message)
    }

    take_value!(
        /// The next BOOLEAN triplet.
        take_bool, bool, Bool);
    take_value!(
        /// The next INT32 triplet.
        take_i32, i32, I32);
    take_value!(
        /// The next INT64 triplet.
        take_i64, i64, I64);
    take_value!(
        /// The next INT96 triplet.
        take_i96, Int96, I96);
    take_value!(
        /// The next FLOAT triplet.
        take_f32, f32, F32);
    take_value!(
        /// The next DOUBLE triplet.
        take_f64, f64, F64);

    /// The next BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY value, borrowed from the
    /// batch (or its dictionary); `Ok(None)` for a null.
    #[inline]
    pub fn take_bytes(&mut self, cursor: usize) -> Result<Option<&'de [u8]>> {
        let (c, batch) = self.at(cursor)?;
        let Some(i) = c.next_value_index(batch)? else { return Ok(None) };
        let (values, i) = c.value(batch, i)?;
        let bytes = match values {
            ColumnValues::Bytes(b) | ColumnValues::Fixed(b, _) => b.get(i),
            _ => return Err(bug_cold(&c.path, "the converter read bytes from a column that holds none")),
        };
        match bytes {
            Some(b) => Ok(Some(b)),
            None => Err(damaged_cold(&c.path, "fewer values than defined levels")),
        }
    }

    /// The next BYTE_ARRAY value as text, borrowed from the batch (or its
    /// dictionary); `Ok(None)` for a null, `Ok(Some(Err(_)))` for bytes that
    /// are not UTF-8. A buffer's values are validated together, once.
    #[inline]
    pub fn take_str(&mut self, cursor: usize) -> Result<Option<std::result::Result<&'de str, std::str::Utf8Error>>> {
        let (c, batch) = self.at(cursor)?;
        let Some(i) = c.next_value_index(batch)? else { return Ok(None) };
        let (values, i) = c.value(batch, i)?;
        let text = match values {
            ColumnValues::Bytes(b) => b.get_str(i),
            _ => return Err(bug_cold(&c.path, "the converter read text from a column that holds none")),
        };
        match text {
            Some(text) => Ok(Some(text)),
            None => Err(damaged_cold(&c.path, "fewer values than defined levels")),
        }
    }

    /// After a batch has been assembled: every triplet must have been read.
    pub(crate) fn check_exhausted(&self) -> Result<()> {
        match self.cursors.iter().find(|c| !c.exhausted()) {
            Some(c) => Err(Error::damaged(
                Location::column(&c.path),
                format!(
                    "{} triplets and {} values left over after the records of the batch were assembled",
                    c.levels.saturating_sub(c.lvl),
                    c.values.saturating_sub(c.val)
                ),
            )),
            None => Ok(()),
        }
    }
}

// Error construction stays out of line: the take functions are inlined into
// every field's assembly code, and only their fast path belongs there.

#[cold]
#[inline(never)]
fn damaged_cold(path: &str, message: &str) -> Error {
    Error::damaged(Location::column(path), message)
}

#[cold]
#[inline(never)]
fn bug_cold(path: &str, message: &str) -> Error {
    Error::bug(Location::column(path), message)
}

#[cold]
#[inline(never)]
fn no_cursor(cursor: usize, read: usize) -> Error {
    Error::bug(Location::default(), format!("the converter read cursor {cursor}, but resolved only {read}"))
}
