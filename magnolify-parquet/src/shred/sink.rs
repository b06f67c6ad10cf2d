//! Per-leaf buffers that shredding fills: values plus definition and
//! repetition levels, kept until a batch of whole records is handed to the
//! column writers.

use parquet::data_type::Int96;
use parquet::schema::types::SchemaDescriptor;

use crate::error::{Error, Location, Result};
use crate::values::ColumnValues;

/// Where a value lands while shredding: its first leaf column, the repetition
/// level its first triplet carries, the definition level reached so far, and
/// how many repeated nodes enclose it.
///
/// This follows the recursive striping of the Dremel paper: every node hands
/// the same `r` to all its children, an optional node adds one to `d`, and a
/// repeated node adds one to `d` and `depth`, giving its later elements
/// `r = depth + 1`.
///
/// It is 8 bytes so that it travels in one register through the
/// per-value calls of shredding (a 16-byte one went through memory, and
/// profiles showed the store-to-load stall). Repetition levels stay below
/// 256, which no schema approaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WriteAt {
    leaf: u32,
    d: i16,
    r: u8,
    depth: u8,
}

impl WriteAt {
    /// The root of a record: leaf 0, levels 0.
    pub const ROOT: WriteAt = WriteAt { leaf: 0, d: 0, r: 0, depth: 0 };

    /// Index of the first leaf column of the node.
    #[inline(always)]
    pub fn leaf(self) -> usize {
        self.leaf as usize
    }

    /// Repetition level of the next triplet.
    #[inline(always)]
    pub fn r(self) -> i16 {
        i16::from(self.r)
    }

    /// Definition level reached by the enclosing nodes.
    #[inline(always)]
    pub fn d(self) -> i16 {
        self.d
    }

    /// The same node, `n` leaves further on (the next field of a group).
    #[inline(always)]
    pub fn skip_leaves(self, n: usize) -> WriteAt {
        WriteAt { leaf: self.leaf + n as u32, ..self }
    }

    /// Inside an optional node that is present.
    #[inline(always)]
    pub fn defined(self) -> WriteAt {
        WriteAt { d: self.d + 1, ..self }
    }

    /// Element `index` of a repeated node: the first keeps the incoming `r`,
    /// the others repeat at the node's own level.
    #[inline(always)]
    pub fn element(self, index: usize) -> WriteAt {
        let depth = self.depth.saturating_add(1);
        WriteAt { leaf: self.leaf, r: if index == 0 { self.r } else { depth }, d: self.d + 1, depth }
    }
}

/// A view of the values buffered for one leaf, by physical type.
#[derive(Debug, Clone, PartialEq)]
pub enum LeafValues<'a> {
    /// BOOLEAN values.
    Bool(&'a [bool]),
    /// INT32 values.
    I32(&'a [i32]),
    /// INT64 values.
    I64(&'a [i64]),
    /// INT96 values.
    I96(&'a [Int96]),
    /// FLOAT values.
    F32(&'a [f32]),
    /// DOUBLE values.
    F64(&'a [f64]),
    /// BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY values.
    Bytes(Vec<&'a [u8]>),
}

/// The buffers of one leaf column.
#[derive(Debug, Clone)]
pub(crate) struct LeafBuffer {
    pub(crate) def: Vec<i16>,
    pub(crate) rep: Vec<i16>,
    pub(crate) values: ColumnValues,
    pub(crate) max_def: i16,
    pub(crate) max_rep: i16,
    pub(crate) path: String,
}

impl LeafBuffer {
    #[inline(always)]
    fn levels(&mut self, r: i16, d: i16) {
        if self.max_def > 0 {
            self.def.push(d);
        }
        if self.max_rep > 0 {
            self.rep.push(r);
        }
    }

    /// Number of triplets (levels) buffered.
    fn triplets(&self) -> usize {
        if self.max_rep > 0 {
            self.rep.len()
        } else if self.max_def > 0 {
            self.def.len()
        } else {
            self.values.len()
        }
    }

    /// How many of this leaf's `kind` levels (`levels`, each at most `max`)
    /// equal `counted`; a leaf without such levels counts each triplet.
    fn count_levels(&self, levels: &[i16], max: i16, counted: i16, kind: &str) -> Result<usize> {
        if max == 0 {
            return Ok(self.triplets());
        }
        scan_levels(levels, max, counted).map_err(|level| {
            Error::bug(
                Location::column(&self.path),
                format!("the converter wrote {kind} level {level} outside 0..={max}"),
            )
        })
    }

    /// Drops everything after the first `records` records.
    fn truncate_records(&mut self, records: usize) {
        let keep = if self.max_rep > 0 {
            // Each record starts with exactly one triplet whose r is 0.
            self.rep.iter().enumerate().filter(|(_, r)| **r == 0).nth(records).map_or(self.rep.len(), |(i, _)| i)
        } else {
            records.min(self.triplets())
        };
        let values = if self.max_def > 0 {
            self.def[..keep.min(self.def.len())].iter().filter(|d| **d == self.max_def).count()
        } else {
            keep
        };
        self.def.truncate(keep);
        self.rep.truncate(keep);
        self.values.truncate(values);
    }

    pub(crate) fn clear(&mut self) {
        self.def.clear();
        self.rep.clear();
        self.values.clear();
    }

    /// An empty buffer for the same leaf.
    pub(crate) fn empty_like(&self) -> Self {
        LeafBuffer {
            def: Vec::new(),
            rep: Vec::new(),
            values: self.values.empty_like(),
            max_def: self.max_def,
            max_rep: self.max_rep,
            path: self.path.clone(),
        }
    }
}

/// The per-leaf buffers that converters shred records into.
///
/// A converter pushes, for each leaf column, triplets of (value or null,
/// repetition level, definition level); values are stored densely, only for
/// triplets whose definition level is the column's maximum. Whole records are
/// then handed to the column writers in batches.
///
/// Every `push_*` returns an error naming the column when the leaf does not
/// exist or holds another physical type, and [`check`](Self::check), which
/// the writers run on every batch, refuses values without a defined level
/// and levels out of range: a converter bug can never write misaligned
/// columns.
///
/// ```
/// use magnolify_parquet::{convert::{ColumnSink, WriteAt}, schema::message};
/// use parquet::schema::parser::parse_message_type;
///
/// let schema = parse_message_type("message m { optional int32 x; }").unwrap();
/// let mut sink = ColumnSink::new(&message(schema));
/// sink.push_i32(WriteAt::ROOT.defined(), 7).unwrap();
/// sink.push_null(WriteAt::ROOT).unwrap();
/// assert_eq!(sink.levels(0), (&[1i16, 0][..], &[][..]));
/// ```
#[derive(Debug, Clone)]
pub struct ColumnSink {
    pub(crate) leaves: Vec<LeafBuffer>,
    pub(crate) records: usize,
}

macro_rules! push_fixed_width {
    ($(#[$doc:meta])* $name:ident, $t:ty, $variant:ident) => {
        $(#[$doc])*
        #[inline(always)]
        pub fn $name(&mut self, at: WriteAt, value: $t) -> Result<()> {
            let leaf = self.leaf_mut(at.leaf())?;
            match &mut leaf.values {
                ColumnValues::$variant(v) => v.push(value),
                _ => return Err(wrong_type(leaf, stringify!($variant))),
            }
            leaf.levels(at.r(), at.d);
            Ok(())
        }
    };
}

impl ColumnSink {
    /// Buffers for every leaf of `schema`.
    pub fn new(schema: &SchemaDescriptor) -> Self {
        let leaves = schema
            .columns()
            .iter()
            .map(|c| LeafBuffer {
                def: Vec::new(),
                rep: Vec::new(),
                values: ColumnValues::new(c.physical_type(), c.type_length()),
                max_def: c.max_def_level(),
                max_rep: c.max_rep_level(),
                path: c.path().string(),
            })
            .collect();
        ColumnSink { leaves, records: 0 }
    }

    #[inline(always)]
    fn leaf_mut(&mut self, leaf: usize) -> Result<&mut LeafBuffer> {
        let n = self.leaves.len();
        match self.leaves.get_mut(leaf) {
            Some(l) => Ok(l),
            None => Err(no_leaves(leaf, 1, n)),
        }
    }

    /// Number of leaf columns.
    pub fn num_leaves(&self) -> usize {
        self.leaves.len()
    }

    /// Number of whole records buffered.
    pub fn records(&self) -> usize {
        self.records
    }

    /// Dotted path of leaf `leaf`, for error messages.
    pub fn path(&self, leaf: usize) -> Option<&str> {
        self.leaves.get(leaf).map(|l| l.path.as_str())
    }

    /// The definition and repetition levels buffered for `leaf` (empty when
    /// the column has no such levels).
    pub fn levels(&self, leaf: usize) -> (&[i16], &[i16]) {
        match self.leaves.get(leaf) {
            Some(l) => (&l.def, &l.rep),
            None => (&[], &[]),
        }
    }

    /// The values buffered for `leaf` (dense: only defined triplets have one).
    pub fn values(&self, leaf: usize) -> Option<LeafValues<'_>> {
        let leaf = self.leaves.get(leaf)?;
        Some(match &leaf.values {
            ColumnValues::Bool(v) => LeafValues::Bool(v),
            ColumnValues::I32(v) => LeafValues::I32(v),
            ColumnValues::I64(v) => LeafValues::I64(v),
            ColumnValues::I96(v) => LeafValues::I96(v),
            ColumnValues::F32(v) => LeafValues::F32(v),
            ColumnValues::F64(v) => LeafValues::F64(v),
            ColumnValues::Bytes(b) | ColumnValues::Fixed(b, _) => LeafValues::Bytes(b.split()),
        })
    }

    /// A value error at `leaf`, naming its column (the writer adds the
    /// record number).
    #[cold]
    pub fn value_error(&self, leaf: usize, message: impl Into<String>) -> Error {
        let location = self.path(leaf).map_or_else(Location::default, Location::column);
        Error::value(location, message)
    }

    /// A null (no value) at `at`: one triplet with the levels given.
    #[inline(always)]
    pub fn push_null(&mut self, at: WriteAt) -> Result<()> {
        self.leaf_mut(at.leaf())?.levels(at.r(), at.d);
        Ok(())
    }

    /// One null triplet in each of `count` leaves from `at.leaf`: what an
    /// absent optional node or an empty list writes.
    #[inline(always)]
    pub fn push_nulls(&mut self, at: WriteAt, count: usize) -> Result<()> {
        let first = at.leaf();
        let n = self.leaves.len();
        match self.leaves.get_mut(first..first + count) {
            Some(leaves) => {
                for leaf in leaves {
                    leaf.levels(at.r(), at.d);
                }
                Ok(())
            }
            None => Err(no_leaves(first, count, n)),
        }
    }

    push_fixed_width!(
        /// A BOOLEAN value.
        push_bool, bool, Bool);
    push_fixed_width!(
        /// An INT32 value.
        push_i32, i32, I32);
    push_fixed_width!(
        /// An INT64 value.
        push_i64, i64, I64);
    push_fixed_width!(
        /// An INT96 value.
        push_i96, Int96, I96);
    push_fixed_width!(
        /// A FLOAT value.
        push_f32, f32, F32);
    push_fixed_width!(
        /// A DOUBLE value.
        push_f64, f64, F64);

    /// A BYTE_ARRAY value, or a FIXED_LEN_BYTE_ARRAY one of the column's length.
    #[inline(always)]
    pub fn push_bytes(&mut self, at: WriteAt, value: &[u8]) -> Result<()> {
        let leaf = self.leaf_mut(at.leaf())?;
        match &mut leaf.values {
            ColumnValues::Bytes(b) => b.push(value),
            ColumnValues::Fixed(b, len) => {
                if value.len() != *len {
                    let expected = *len;
                    return Err(wrong_length(leaf, value.len(), expected));
                }
                b.push(value);
            }
            _ => return Err(wrong_type(leaf, "bytes")),
        }
        leaf.levels(at.r(), at.d);
        Ok(())
    }

    /// Marks the end of a record that was shredded completely.
    #[inline]
    pub fn end_record(&mut self) {
        self.records += 1;
    }

    /// Drops the triplets of a record that failed half-way, so that every
    /// column holds exactly the records ended with [`end_record`](Self::end_record).
    pub fn rollback(&mut self) {
        let records = self.records;
        for leaf in &mut self.leaves {
            leaf.truncate_records(records);
        }
    }

    /// Shreds one record with `write`; on error the partial record is rolled
    /// back, so the buffers hold whole records only.
    #[inline]
    pub fn record<F: FnOnce(&mut Self) -> Result<()>>(&mut self, write: F) -> Result<()> {
        match write(self) {
            Ok(()) => {
                self.end_record();
                Ok(())
            }
            Err(e) => {
                self.rollback();
                Err(e)
            }
        }
    }

    /// Forgets everything buffered.
    pub fn clear(&mut self) {
        for leaf in &mut self.leaves {
            leaf.clear();
        }
        self.records = 0;
    }

    /// Bytes allocated for the buffers (values and levels, with the room
    /// they have grown for): what holding them costs.
    pub(crate) fn allocated_bytes(&self) -> usize {
        let levels = |l: &LeafBuffer| 2 * (l.def.capacity() + l.rep.capacity());
        self.leaves.iter().map(|l| l.values.allocated_bytes() + levels(l)).sum()
    }

    /// Approximate raw size of the buffered values and levels in bytes.
    pub fn raw_bytes(&self) -> usize {
        self.leaves.iter().map(|l| l.values.raw_bytes() + 2 * (l.def.len() + l.rep.len())).sum()
    }

    /// Checks that each leaf holds consistent triplets: levels within the
    /// column's maxima, as many values as levels at the maximum definition
    /// level, and one record start per record. The writers run it on every
    /// batch before encoding: a converter that pushed a value for a null (or
    /// a level out of range) gets an error naming the column, never columns
    /// shifted against each other.
    pub fn check(&self) -> Result<()> {
        for l in &self.leaves {
            let values = l.count_levels(&l.def, l.max_def, l.max_def, "definition")?;
            if values != l.values.len() {
                return Err(Error::bug(
                    Location::column(&l.path),
                    format!("{} values buffered for {values} defined triplets", l.values.len()),
                ));
            }
            let starts = l.count_levels(&l.rep, l.max_rep, 0, "repetition")?;
            if starts != self.records {
                return Err(Error::bug(
                    Location::column(&l.path),
                    format!("{starts} records buffered where {} were written", self.records),
                ));
            }
        }
        Ok(())
    }
}

/// In one pass: how many of `levels` equal `counted`, or the first level
/// outside `0..=max`.
fn scan_levels(levels: &[i16], max: i16, counted: i16) -> std::result::Result<usize, i16> {
    let mut count = 0;
    for &level in levels {
        if !(0..=max).contains(&level) {
            return Err(level);
        }
        count += usize::from(level == counted);
    }
    Ok(count)
}

// Error construction stays out of line: the push functions are inlined into
// every field's shredding code, and only their fast path belongs there.

#[cold]
#[inline(never)]
fn no_leaves(first: usize, count: usize, leaves: usize) -> Error {
    Error::bug(
        Location::default(),
        format!("the converter wrote into leaves {first}..{}, the schema has {leaves}", first + count),
    )
}

#[cold]
#[inline(never)]
fn wrong_type(leaf: &LeafBuffer, wrote: &str) -> Error {
    Error::bug(
        Location::column(&leaf.path),
        format!("the converter wrote {wrote} into a {} column", leaf.values.kind()),
    )
}

#[cold]
#[inline(never)]
fn wrong_length(leaf: &LeafBuffer, len: usize, expected: usize) -> Error {
    Error::value(Location::column(&leaf.path), format!("{len} bytes for a FIXED_LEN_BYTE_ARRAY({expected}) column"))
}
