//! Per-leaf cursors over decoded batches of whole records: what assembly
//! reads from.

use std::sync::Arc;

use parquet::data_type::Int96;
use parquet::schema::types::{ColumnDescPtr, SchemaDescriptor};

use super::nulls::null_error;
use crate::error::{Error, Location, Result};
use crate::values::{ColumnValues, LeafBatch};

/// One projected leaf: the current batch and the read positions in it.
pub(crate) struct LeafCursor {
    pub(crate) batch: LeafBatch,
    /// Next level (triplet) to read.
    pub(crate) lvl: usize,
    /// Next dense value to read.
    pub(crate) val: usize,
    /// Levels (triplets) in the current batch.
    levels: usize,
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
            let c = self.cursor_mut(cursor)?;
            let Some(i) = c.next_value_index()? else { return Ok(None) };
            let (values, i) = c.value(i)?;
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
    fn next_value_index(&mut self) -> Result<Option<usize>> {
        if self.next_def()? < self.max_def {
            return Ok(None);
        }
        let i = self.val;
        self.val += 1;
        Ok(Some(i))
    }

    /// The values holding value `i` of the batch, and its index among them.
    #[inline(always)]
    fn value(&self, i: usize) -> Result<(&ColumnValues, usize)> {
        match self.batch.locate(i) {
            Some(found) => Ok(found),
            None => Err(damaged_cold(&self.path, "fewer values than defined levels")),
        }
    }

    pub(crate) fn new(column: usize, descr: ColumnDescPtr) -> Self {
        let batch = LeafBatch::new(descr.physical_type(), descr.type_length());
        LeafCursor {
            batch,
            lvl: 0,
            val: 0,
            levels: 0,
            max_def: descr.max_def_level(),
            max_rep: descr.max_rep_level(),
            path: descr.path().string(),
            column,
        }
    }

    /// Levels in the current batch (cached in `levels` once decoded).
    #[inline(always)]
    fn len(&self) -> usize {
        self.levels
    }

    fn count_levels(&self) -> usize {
        if self.max_rep > 0 {
            self.batch.rep.len()
        } else if self.max_def > 0 {
            self.batch.def.len()
        } else {
            self.batch.len()
        }
    }

    #[inline(always)]
    fn next_def(&mut self) -> Result<i16> {
        let i = self.lvl;
        if i >= self.len() {
            return Err(damaged_cold(&self.path, "column ended before the other columns of the record"));
        }
        self.lvl = i + 1;
        // A column without definition levels has an empty `def`: one bounds
        // check answers both "which level" and "is there one".
        Ok(self.batch.def.get(i).copied().unwrap_or(0))
    }

    /// Takes `batch` as the current batch, giving the previous one back in it.
    fn start(&mut self, batch: &mut LeafBatch) {
        std::mem::swap(&mut self.batch, batch);
        self.lvl = 0;
        self.val = 0;
        self.levels = self.count_levels();
    }

    fn exhausted(&self) -> bool {
        self.lvl == self.len() && self.val == self.batch.len()
    }
}

/// The projected leaves of a file (or store) with their current batches, and
/// the index of the record being assembled.
///
/// Converters read through it with the recursive descent of the Dremel paper:
/// [`peek`](Self::peek) at the first leaf of a node tells whether the node is
/// present and whether a list goes on; `take_*` and [`skip`](Self::skip)
/// consume one triplet.
pub struct RecordSource {
    pub(crate) cursors: Vec<LeafCursor>,
    pub(crate) record: u64,
    schema: Arc<SchemaDescriptor>,
}

impl RecordSource {
    /// Cursors over the file columns `columns` of `schema` (index and descriptor).
    pub(crate) fn new(schema: Arc<SchemaDescriptor>, columns: &[(usize, ColumnDescPtr)]) -> Self {
        let cursors = columns.iter().map(|(c, descr)| LeafCursor::new(*c, descr.clone())).collect();
        RecordSource { cursors, record: 0, schema }
    }

    #[inline(always)]
    fn cursor_mut(&mut self, cursor: usize) -> Result<&mut LeafCursor> {
        let n = self.cursors.len();
        self.cursors.get_mut(cursor).ok_or_else(|| no_cursor(cursor, n))
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
        match self.cursors.get(cursor) {
            Some(c) => (c.batch.rep.get(c.lvl).copied().unwrap_or(0), c.batch.def.get(c.lvl).copied().unwrap_or(0)),
            None => (0, 0),
        }
    }

    /// Consumes one triplet of each of `count` cursors from `first`, each of
    /// which must be null below definition level `below`: the single triplet
    /// that an absent node or an empty list leaves in each of its leaves.
    #[inline]
    pub fn skip(&mut self, first: usize, count: usize, below: i16) -> Result<()> {
        for i in first..first + count {
            let c = self.cursor_mut(i)?;
            let d = c.next_def()?;
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
        let def = self.cursors.get(cursor).and_then(|c| c.lvl.checked_sub(1).and_then(|i| c.batch.def.get(i)));
        self.null_at(cursor, def.copied().unwrap_or(0))
    }

    /// The error for a null at definition level `def` of `cursor` (a level
    /// that was peeked, not taken).
    #[cold]
    pub fn null_at(&self, cursor: usize, def: i16) -> Error {
        match self.cursors.get(cursor) {
            Some(c) => null_error(&self.schema, c.column, def, self.record),
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

    /// Calls `f` on the next BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY value without
    /// copying it; `Ok(None)` for a null.
    #[inline]
    pub fn take_byte_slice<R>(&mut self, cursor: usize, f: impl FnOnce(&[u8]) -> R) -> Result<Option<R>> {
        let c = self.cursor_mut(cursor)?;
        let Some(i) = c.next_value_index()? else { return Ok(None) };
        let (values, i) = c.value(i)?;
        let bytes = match values {
            ColumnValues::Bytes(b) | ColumnValues::Fixed(b, _) => b.get(i),
            _ => return Err(bug_cold(&c.path, "the converter read bytes from a column that holds none")),
        };
        match bytes {
            Some(b) => Ok(Some(f(b))),
            None => Err(damaged_cold(&c.path, "fewer values than defined levels")),
        }
    }

    /// Calls `f` on the next BYTE_ARRAY value as text, without copying it;
    /// `Ok(None)` for a null, `Ok(Some(Err(_)))` for bytes that are not UTF-8.
    /// A batch's values are validated together, once.
    #[inline]
    pub fn take_str<R>(
        &mut self,
        cursor: usize,
        f: impl FnOnce(&str) -> R,
    ) -> Result<Option<std::result::Result<R, std::str::Utf8Error>>> {
        let c = self.cursor_mut(cursor)?;
        let Some(i) = c.next_value_index()? else { return Ok(None) };
        if c.batch.dictionary.is_none() {
            if let ColumnValues::Bytes(b) = &mut c.batch.values {
                // Once per batch (a dictionary was checked when decoded).
                b.check_text();
            }
        }
        let (values, i) = c.value(i)?;
        let text = match values {
            ColumnValues::Bytes(b) => b.get_str(i),
            _ => return Err(bug_cold(&c.path, "the converter read text from a column that holds none")),
        };
        match text {
            Some(text) => Ok(Some(text.map(f))),
            None => Err(damaged_cold(&c.path, "fewer values than defined levels")),
        }
    }

    /// Takes `leaves` (one per cursor) as the current batch, giving the
    /// previous batch's buffers back in their place to be reused; `first`
    /// is the file index of its first record.
    pub(crate) fn start_batch(&mut self, leaves: &mut [LeafBatch], first: u64) {
        for (cursor, leaf) in self.cursors.iter_mut().zip(leaves) {
            cursor.start(leaf);
        }
        self.record = first;
    }

    /// After a batch has been assembled: every triplet must have been read.
    pub(crate) fn check_exhausted(&self) -> Result<()> {
        match self.cursors.iter().find(|c| !c.exhausted()) {
            Some(c) => Err(Error::damaged(
                Location::column(&c.path),
                format!(
                    "{} triplets and {} values left over after the records of the batch were assembled",
                    c.len().saturating_sub(c.lvl),
                    c.batch.len().saturating_sub(c.val)
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
