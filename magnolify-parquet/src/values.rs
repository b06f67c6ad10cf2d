//! The buffers of one leaf's dense values, typed by its physical type:
//! shredding fills them for the encoders, decoding fills them for assembly.
//! Byte strings of a batch share one allocation.

use std::sync::OnceLock;

use parquet::basic::Type as PhysicalType;
use parquet::data_type::Int96;

/// Contiguous bytes of many values: one allocation per batch, not per value.
///
/// Text is checked once per buffer: the first [`get_str`](Self::get_str)
/// validates the whole buffer as UTF-8 and keeps a copy as a `String`, so
/// that each value is then a slice at character boundaries (valid text cut
/// at character boundaries is valid text) instead of a validation of its
/// own. The check happens behind `&self` (a [`OnceLock`]), so that values
/// can be lent out of a buffer that records borrow from.
#[derive(Debug, Default, Clone)]
pub(crate) struct ByteBuffer {
    data: Vec<u8>,
    ends: Vec<usize>,
    /// What is known of `data` as text: unset until asked, then the valid
    /// copy or `None` when it is not all UTF-8.
    text: OnceLock<Option<String>>,
}

impl ByteBuffer {
    /// All the bytes.
    #[inline(always)]
    pub(crate) fn data(&self) -> &[u8] {
        &self.data
    }

    /// The end offset of each value.
    pub(crate) fn ends(&self) -> &[usize] {
        &self.ends
    }

    /// The bytes, to be changed: what was known of them as text is not.
    #[inline(always)]
    fn data_mut(&mut self) -> &mut Vec<u8> {
        if self.text.get().is_some() {
            self.text = OnceLock::new();
        }
        &mut self.data
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
        self.data.get(start..end)
    }

    /// The whole buffer as text, validated on the first call: `None` when
    /// it is not all UTF-8.
    ///
    /// The check is `simdutf8`'s, several times faster than the standard
    /// library's on text that is not all ASCII; the standard library has no
    /// safe way to trust a check made elsewhere, so the checked text is
    /// copied into a `String` (a copy costs a fraction of a check).
    #[inline]
    fn text(&self) -> Option<&str> {
        self.text.get_or_init(|| simdutf8::basic::from_utf8(&self.data).ok().map(str::to_owned)).as_deref()
    }

    /// Validates the bytes as UTF-8 now (a dictionary, once per chunk),
    /// instead of at the first [`get_str`](Self::get_str).
    pub(crate) fn check_text(&self) {
        let _ = self.text();
    }

    /// Value `i` as text, if there is one: `Err` if it is not UTF-8.
    /// Validates the whole buffer on the first call; where that fails (or
    /// a value is not cut at character boundaries), the value on its own.
    #[inline]
    pub(crate) fn get_str(&self, i: usize) -> Option<Result<&str, std::str::Utf8Error>> {
        let (start, end) = self.bounds(i)?;
        // A slice not at character boundaries is not text on its own.
        if let Some(s) = self.text().and_then(|text| text.get(start..end)) {
            return Some(Ok(s));
        }
        self.data.get(start..end).map(std::str::from_utf8)
    }

    /// Appends a value.
    #[inline(always)]
    pub(crate) fn push(&mut self, value: &[u8]) {
        let data = self.data_mut();
        data.extend_from_slice(value);
        let end = data.len();
        self.ends.push(end);
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
                            to.push(from.get(i).ok_or_else(missing)?);
                        }
                    }
                    (to, from) => return Err(format!("{} values copied into a {} column", from.kind(), to.kind())),
                }
            };
        }
        copy!(Bool, I32, I64, I96, F32, F64);
        Ok(())
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
