//! The buffers of one leaf's dense values, typed by its physical type:
//! shredding fills them for the encoders, decoding fills them for assembly.
//! Byte strings of a batch share one allocation.

use std::ops::Range;

use parquet::basic::Type as PhysicalType;
use parquet::data_type::Int96;

/// The length up to which [`extend_from_range`] copies a value as one block
/// of this many bytes: room for it is what a buffer reserved for values
/// copied so needs beyond their own bytes.
pub(crate) const SHORT: usize = 16;

/// Appends `src[at]` to `out`, if it lies in `src`. A value of up to
/// [`SHORT`] bytes is copied as one block of `SHORT` bytes (when `src` holds
/// that many from its start) and cut back to its length: a copy of constant
/// size is a few register moves, where one of each value's own size is a
/// call to `memcpy`, most of the cost of copying short strings (the values
/// of a dictionary page or a PLAIN page, read or written).
#[inline(always)]
pub(crate) fn extend_from_range(out: &mut Vec<u8>, src: &[u8], at: Range<usize>) -> Option<()> {
    // A range that ends before it starts is no value, as `src.get` says.
    let len = at.end.checked_sub(at.start)?;
    let end = out.len() + len;
    match src.get(at.start..at.start.checked_add(SHORT)?) {
        Some(block) if len <= SHORT => {
            out.extend_from_slice(block);
            out.truncate(end);
        }
        _ => out.extend_from_slice(src.get(at)?),
    }
    Some(())
}

/// Contiguous bytes of many values: one allocation per batch, not per value.
///
/// Text is checked once per buffer: [`check_text`](Self::check_text), called
/// by the decoder when a batch of a text column is complete, validates the
/// whole buffer as UTF-8 (with `simdutf8`, several times faster than the
/// standard library's check on text that is not all ASCII) and keeps a copy
/// of it as a `String` (one `memcpy` into an allocation reused from batch to
/// batch: safe code cannot turn checked bytes into a `String` otherwise
/// without checking them again), so that each value is then a slice at
/// character boundaries (valid text cut at character boundaries is valid
/// text) instead of a validation of its own. Records borrow those slices for
/// as long as the batch lives.
#[derive(Debug, Default, Clone)]
pub(crate) struct ByteBuffer {
    bytes: Vec<u8>,
    /// A copy of `bytes`, when `checked`.
    text: String,
    /// Whether `bytes` were found to be text since they last changed.
    checked: bool,
    ends: Vec<usize>,
}

impl ByteBuffer {
    /// Bytes allocated for the values, their copy as text and their ends.
    pub(crate) fn allocated_bytes(&self) -> usize {
        self.bytes.capacity() + self.text.capacity() + self.ends.capacity() * std::mem::size_of::<usize>()
    }

    /// All the bytes.
    #[inline(always)]
    pub(crate) fn data(&self) -> &[u8] {
        &self.bytes
    }

    /// The end offset of each value.
    pub(crate) fn ends(&self) -> &[usize] {
        &self.ends
    }

    /// The bytes, to be changed: what was known of them as text is not.
    #[inline(always)]
    fn data_mut(&mut self) -> &mut Vec<u8> {
        self.checked = false;
        &mut self.bytes
    }

    #[inline(always)]
    fn bounds(&self, i: usize) -> Option<(usize, usize)> {
        let end = *self.ends.get(i)?;
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        Some((start, end))
    }

    /// Value `i`, if there is one.
    #[inline(always)]
    pub(crate) fn get(&self, i: usize) -> Option<&[u8]> {
        let (start, end) = self.bounds(i)?;
        self.bytes.get(start..end)
    }

    /// Validates the whole buffer as UTF-8 once (a batch of a text column,
    /// a dictionary): where it is, values are then text without a check of
    /// their own. Where the bytes are not all text, each value read as text
    /// is checked on its own.
    pub(crate) fn check_text(&mut self) {
        if self.checked || self.bytes.is_empty() {
            return;
        }
        if let Ok(text) = simdutf8::basic::from_utf8(&self.bytes) {
            self.text.clear();
            self.text.push_str(text);
            self.checked = true;
        }
    }

    /// Value `i` as text, if there is one: `Err` if it is not UTF-8. A
    /// slice of the checked text where [`check_text`](Self::check_text)
    /// found the buffer to be text (and the value is cut at character
    /// boundaries); else the value is checked on its own.
    #[inline]
    pub(crate) fn get_str(&self, i: usize) -> Option<Result<&str, std::str::Utf8Error>> {
        let (start, end) = self.bounds(i)?;
        // A slice not at character boundaries is not text on its own.
        if let Some(text) = self.text.get(start..end).filter(|_| self.checked) {
            return Some(Ok(text));
        }
        self.bytes.get(start..end).map(std::str::from_utf8)
    }

    /// Appends a value.
    #[inline(always)]
    pub(crate) fn push(&mut self, value: &[u8]) {
        let data = self.data_mut();
        data.extend_from_slice(value);
        let end = data.len();
        self.ends.push(end);
    }

    /// Appends the value at `at` of `src`, if it lies there, copied by
    /// [`extend_from_range`].
    #[inline(always)]
    pub(crate) fn push_from(&mut self, src: &[u8], at: Range<usize>) -> Option<()> {
        let data = self.data_mut();
        extend_from_range(data, src, at)?;
        let end = data.len();
        self.ends.push(end);
        Some(())
    }

    /// Appends value `i` of `other`, if it has one.
    #[inline(always)]
    pub(crate) fn push_value_of(&mut self, other: &ByteBuffer, i: usize) -> Option<()> {
        let (start, end) = other.bounds(i)?;
        self.push_from(&other.bytes, start..end)
    }

    /// Makes room for `values` more values of `bytes` bytes in all.
    pub(crate) fn reserve(&mut self, values: usize, bytes: usize) {
        self.data_mut().reserve(bytes);
        self.ends.reserve(values);
    }

    /// Appends `bytes.len() / width` values of `width` bytes each.
    pub(crate) fn extend_fixed(&mut self, bytes: &[u8], width: usize) {
        let data = self.data_mut();
        let base = data.len();
        data.extend_from_slice(bytes);
        let n = bytes.len().checked_div(width).unwrap_or(0);
        self.ends.extend((1..=n).map(|i| base + i * width));
    }

    /// Takes the bytes out, leaving an empty buffer of `capacity` bytes.
    pub(crate) fn take_data(&mut self, capacity: usize) -> Vec<u8> {
        std::mem::replace(self.data_mut(), Vec::with_capacity(capacity))
    }

    pub(crate) fn split(&self) -> Vec<&[u8]> {
        (0..self.len()).filter_map(|i| self.get(i)).collect()
    }

    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }

    pub(crate) fn truncate(&mut self, n: usize) {
        self.ends.truncate(n);
        let end = self.ends.last().copied().unwrap_or(0);
        self.data_mut().truncate(end);
    }

    pub(crate) fn clear(&mut self) {
        self.data_mut().clear();
        self.ends.clear();
    }
}

/// The dense values of one leaf (only defined triplets have one), typed by
/// the leaf's physical type: what shredding fills and what decoding fills.
#[derive(Debug, Clone)]
pub(crate) enum ColumnValues {
    Bool(Vec<bool>),
    I32(Vec<i32>),
    I64(Vec<i64>),
    I96(Vec<Int96>),
    F32(Vec<f32>),
    F64(Vec<f64>),
    Bytes(ByteBuffer),
    Fixed(ByteBuffer, usize),
}

impl ColumnValues {
    pub(crate) fn new(physical: PhysicalType, length: i32) -> Self {
        match physical {
            PhysicalType::BOOLEAN => ColumnValues::Bool(Vec::new()),
            PhysicalType::INT32 => ColumnValues::I32(Vec::new()),
            PhysicalType::INT64 => ColumnValues::I64(Vec::new()),
            PhysicalType::INT96 => ColumnValues::I96(Vec::new()),
            PhysicalType::FLOAT => ColumnValues::F32(Vec::new()),
            PhysicalType::DOUBLE => ColumnValues::F64(Vec::new()),
            PhysicalType::BYTE_ARRAY => ColumnValues::Bytes(ByteBuffer::default()),
            PhysicalType::FIXED_LEN_BYTE_ARRAY => ColumnValues::Fixed(ByteBuffer::default(), length.max(0) as usize),
        }
    }

    /// No values, of the same kind.
    pub(crate) fn empty_like(&self) -> Self {
        match self {
            ColumnValues::Bool(_) => ColumnValues::Bool(Vec::new()),
            ColumnValues::I32(_) => ColumnValues::I32(Vec::new()),
            ColumnValues::I64(_) => ColumnValues::I64(Vec::new()),
            ColumnValues::I96(_) => ColumnValues::I96(Vec::new()),
            ColumnValues::F32(_) => ColumnValues::F32(Vec::new()),
            ColumnValues::F64(_) => ColumnValues::F64(Vec::new()),
            ColumnValues::Bytes(_) => ColumnValues::Bytes(ByteBuffer::default()),
            ColumnValues::Fixed(_, width) => ColumnValues::Fixed(ByteBuffer::default(), *width),
        }
    }

    pub(crate) fn len(&self) -> usize {
        match self {
            ColumnValues::Bool(v) => v.len(),
            ColumnValues::I32(v) => v.len(),
            ColumnValues::I64(v) => v.len(),
            ColumnValues::I96(v) => v.len(),
            ColumnValues::F32(v) => v.len(),
            ColumnValues::F64(v) => v.len(),
            ColumnValues::Bytes(b) | ColumnValues::Fixed(b, _) => b.len(),
        }
    }

    pub(crate) fn truncate(&mut self, n: usize) {
        match self {
            ColumnValues::Bool(v) => v.truncate(n),
            ColumnValues::I32(v) => v.truncate(n),
            ColumnValues::I64(v) => v.truncate(n),
            ColumnValues::I96(v) => v.truncate(n),
            ColumnValues::F32(v) => v.truncate(n),
            ColumnValues::F64(v) => v.truncate(n),
            ColumnValues::Bytes(b) | ColumnValues::Fixed(b, _) => b.truncate(n),
        }
    }

    pub(crate) fn clear(&mut self) {
        match self {
            ColumnValues::Bytes(b) | ColumnValues::Fixed(b, _) => b.clear(),
            other => other.truncate(0),
        }
    }

    /// Appends `other`'s values `range` (of the same physical type).
    pub(crate) fn extend_from(&mut self, other: &ColumnValues, range: std::ops::Range<usize>) -> Result<(), String> {
        let missing = || format!("values {range:?} asked of a page that decoded {}", other.len());
        macro_rules! copy {
            ($($variant:ident),*) => {
                match (self, other) {
                    $((ColumnValues::$variant(to), ColumnValues::$variant(from)) => {
                        to.extend_from_slice(from.get(range.clone()).ok_or_else(missing)?)
                    })*
                    (ColumnValues::Bytes(to), ColumnValues::Bytes(from))
                    | (ColumnValues::Fixed(to, _), ColumnValues::Fixed(from, _)) => {
                        for i in range.clone() {
                            to.push_value_of(from, i).ok_or_else(missing)?;
                        }
                    }
                    (to, from) => return Err(format!("{} values copied into a {} column", from.kind(), to.kind())),
                }
            };
        }
        copy!(Bool, I32, I64, I96, F32, F64);
        Ok(())
    }

    /// Bytes allocated for the values (what a buffer holding them costs).
    pub(crate) fn allocated_bytes(&self) -> usize {
        match self {
            ColumnValues::Bool(v) => v.capacity(),
            ColumnValues::I32(v) => v.capacity() * 4,
            ColumnValues::I64(v) => v.capacity() * 8,
            ColumnValues::I96(v) => v.capacity() * 12,
            ColumnValues::F32(v) => v.capacity() * 4,
            ColumnValues::F64(v) => v.capacity() * 8,
            ColumnValues::Bytes(b) | ColumnValues::Fixed(b, _) => b.allocated_bytes(),
        }
    }

    /// Approximate raw size in bytes, for row-group sizing.
    pub(crate) fn raw_bytes(&self) -> usize {
        match self {
            ColumnValues::Bool(v) => v.len(),
            ColumnValues::I32(v) => v.len() * 4,
            ColumnValues::I64(v) => v.len() * 8,
            ColumnValues::I96(v) => v.len() * 12,
            ColumnValues::F32(v) => v.len() * 4,
            ColumnValues::F64(v) => v.len() * 8,
            ColumnValues::Bytes(b) | ColumnValues::Fixed(b, _) => b.data().len() + 4 * b.len(),
        }
    }

    pub(crate) fn kind(&self) -> &'static str {
        match self {
            ColumnValues::Bool(_) => "BOOLEAN",
            ColumnValues::I32(_) => "INT32",
            ColumnValues::I64(_) => "INT64",
            ColumnValues::I96(_) => "INT96",
            ColumnValues::F32(_) => "FLOAT",
            ColumnValues::F64(_) => "DOUBLE",
            ColumnValues::Bytes(_) => "BYTE_ARRAY",
            ColumnValues::Fixed(..) => "FIXED_LEN_BYTE_ARRAY",
        }
    }
}

/// One decoded batch of a leaf: its levels (for a column that has them) and
/// its values, either dense or, for values from dictionary-encoded pages,
/// indices into the chunk's dictionary (shared, not copied: a string of the
/// dictionary is validated as UTF-8 once per chunk, not once per use).
#[derive(Debug)]
pub(crate) struct LeafBatch {
    pub(crate) def: Vec<i16>,
    pub(crate) rep: Vec<i16>,
    /// The dense values, unless `dictionary` is set.
    pub(crate) values: ColumnValues,
    /// With `dictionary`: the index of each value in it.
    pub(crate) indices: Vec<u32>,
    pub(crate) dictionary: Option<std::sync::Arc<ColumnValues>>,
}

impl LeafBatch {
    pub(crate) fn new(physical: PhysicalType, length: i32) -> Self {
        LeafBatch {
            def: Vec::new(),
            rep: Vec::new(),
            values: ColumnValues::new(physical, length),
            indices: Vec::new(),
            dictionary: None,
        }
    }

    pub(crate) fn clear(&mut self) {
        self.def.clear();
        self.rep.clear();
        self.values.clear();
        self.indices.clear();
        self.dictionary = None;
    }

    /// Number of values.
    pub(crate) fn len(&self) -> usize {
        match self.dictionary {
            Some(_) => self.indices.len(),
            None => self.values.len(),
        }
    }

    /// The buffer value `i` is in, and its index there.
    #[inline(always)]
    pub(crate) fn locate(&self, i: usize) -> Option<(&ColumnValues, usize)> {
        match &self.dictionary {
            Some(d) => Some((d, *self.indices.get(i)? as usize)),
            None => Some((&self.values, i)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ByteBuffer;

    fn buffer(values: &[&[u8]]) -> ByteBuffer {
        let mut b = ByteBuffer::default();
        values.iter().for_each(|v| b.push(v));
        b
    }

    #[test]
    fn checked_text_lends_each_value_from_one_copy_reused_batch_to_batch() {
        let mut b = buffer(&[b"ab", "é€".as_bytes(), b""]);
        b.check_text();
        let texts: Vec<_> = (0..3).map(|i| b.get_str(i).unwrap().unwrap()).collect();
        assert_eq!(texts, ["ab", "é€", ""]);
        assert_eq!(texts[1].as_ptr(), b.text[2..].as_ptr(), "not a slice of the checked copy");
        assert!(b.get_str(3).is_none());
        // Changed after the check: the copy is stale, and the bytes still read.
        b.push(b"z");
        assert_eq!(b.get_str(3).unwrap().unwrap(), "z");
        assert_eq!(b.get(1).unwrap(), "é€".as_bytes());
        // The next batch reuses the copy's allocation.
        let copy = b.text.as_ptr();
        b.clear();
        b.push("ü".as_bytes());
        b.check_text();
        assert_eq!(b.get_str(0).unwrap().unwrap(), "ü");
        assert_eq!(b.text.as_ptr(), copy, "the copy was allocated again");
    }

    #[test]
    fn values_pushed_from_a_page_are_theirs_whether_copied_as_a_block_or_not() {
        // 40 bytes: short values with 16 bytes after their start (copied as a
        // block and cut back), a short one near the end (copied exactly), a
        // long one, an empty one, and ranges that do not lie in the source.
        let src: Vec<u8> = (0..40).collect();
        let mut b = ByteBuffer::default();
        let ranges = [0..3, 3..3, 5..21, 10..12, 30..38, 2..30, 39..40, 40..40];
        for r in ranges.clone() {
            assert_eq!(b.push_from(&src, r.clone()), Some(()), "{r:?}");
        }
        let expected: Vec<&[u8]> = ranges.iter().map(|r| &src[r.clone()]).collect();
        assert_eq!(b.split(), expected);
        assert_eq!(b.data().len(), ranges.iter().map(|r| r.len()).sum::<usize>(), "a block was not cut back");
        // Past the end, and a range that ends before it starts.
        #[allow(clippy::reversed_empty_ranges)]
        let outside = [38..41, 41..41, 0..100, 5..3];
        for r in outside {
            assert_eq!(b.push_from(&src, r.clone()), None, "{r:?}");
        }
        assert_eq!(b.split(), expected, "a value that does not lie in the source changed the buffer");
    }

    #[test]
    fn a_buffer_that_is_not_all_text_checks_each_value_on_its_own() {
        let mut b = buffer(&[b"ok", &[0xff, 0xfe], "ü".as_bytes()]);
        b.check_text();
        assert_eq!(b.get_str(0).unwrap().unwrap(), "ok");
        assert!(b.get_str(1).unwrap().is_err());
        assert_eq!(b.get_str(2).unwrap().unwrap(), "ü");
        assert_eq!(b.get(1).unwrap(), [0xff, 0xfe]);
    }

    #[test]
    fn a_value_cut_inside_a_character_is_not_text() {
        // Valid text as a whole, cut by the ends inside "é" (2 bytes).
        let mut b = ByteBuffer::default();
        b.extend_fixed("éé".as_bytes(), 1);
        b.check_text();
        assert!(b.get_str(0).unwrap().is_err());
        assert_eq!(b.len(), 4);
    }
}
