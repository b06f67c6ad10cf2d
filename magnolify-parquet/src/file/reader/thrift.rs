//! A scanner of the Thrift compact protocol that reads the few integers the
//! reader's guards need (footer schema shape, page header sizes), and finds
//! the footer's column orders for the writer (`file::column_orders`),
//! without allocating anything, whatever lengths the input claims.
//!
//! It is not a decoder: every field it does not need is skipped, and input it
//! cannot make sense of stops the scan with `None`, leaving the verdict to
//! the `parquet` crate, which decodes the same bytes afterwards.

use std::io::Read;

/// Thrift compact type codes.
const STOP: u8 = 0;
const BOOL_TRUE: u8 = 1;
const BOOL_FALSE: u8 = 2;
const BYTE: u8 = 3;
const I16: u8 = 4;
const I32: u8 = 5;
const I64: u8 = 6;
const DOUBLE: u8 = 7;
const BINARY: u8 = 8;
const LIST: u8 = 9;
const SET: u8 = 10;
const MAP: u8 = 11;
const STRUCT: u8 = 12;
const UUID: u8 = 13;

/// Deepest nesting of structs and containers the scanner follows; the
/// Parquet structures it walks nest four deep at most.
const MAX_NESTING: u32 = 32;

/// Bytes read one at a time from a `Read`, never more than `budget`.
pub(in crate::file) struct Input<R> {
    inner: R,
    budget: u64,
    consumed: u64,
}

impl<R: Read> Input<R> {
    /// Scans `inner`, reading at most `budget` bytes.
    pub(in crate::file) fn new(inner: R, budget: u64) -> Self {
        Input { inner, budget, consumed: 0 }
    }

    /// Bytes consumed so far.
    pub(in crate::file) fn consumed(&self) -> u64 {
        self.consumed
    }

    fn byte(&mut self) -> Option<u8> {
        if self.consumed >= self.budget {
            return None;
        }
        let mut b = [0u8; 1];
        self.inner.read_exact(&mut b).ok()?;
        self.consumed += 1;
        Some(b[0])
    }

    /// Skips `n` bytes through a small stack buffer: claimed lengths never
    /// turn into allocations.
    fn skip(&mut self, n: u64) -> Option<()> {
        if n > self.budget - self.consumed {
            return None;
        }
        let mut left = n;
        let mut buf = [0u8; 512];
        while left > 0 {
            let step = left.min(buf.len() as u64) as usize;
            self.inner.read_exact(&mut buf[..step]).ok()?;
            left -= step as u64;
        }
        self.consumed += n;
        Some(())
    }

    fn varint(&mut self) -> Option<u64> {
        let mut value = 0u64;
        for shift in (0..70).step_by(7) {
            let b = self.byte()?;
            value |= u64::from(b & 0x7f).checked_shl(shift)?;
            if b & 0x80 == 0 {
                return Some(value);
            }
        }
        None
    }

    fn zigzag(&mut self) -> Option<i64> {
        let v = self.varint()?;
        Some((v >> 1) as i64 ^ -((v & 1) as i64))
    }

    /// An integer field value of type `ty` (a byte or a zigzag varint), as
    /// an `i32`; `None` if it does not fit. Writers do not all use the
    /// declared width, and the `parquet` crate accepts any, so neither do we.
    pub(super) fn int(&mut self, ty: u8) -> Option<i32> {
        let v = match ty {
            BYTE => i64::from(self.byte()? as i8),
            _ => self.zigzag()?,
        };
        i32::try_from(v).ok()
    }

    /// The next field header of a struct: `Some(Some((id, type)))`, or
    /// `Some(None)` at its end. `None` when the input is malformed or runs
    /// out: a struct cut short is never taken for a complete one, or a list
    /// claiming 2^60 of them would be walked to the end, one empty struct at
    /// a time.
    pub(in crate::file) fn field(&mut self, last_id: &mut i16) -> Option<Option<(i16, u8)>> {
        let b = self.byte()?;
        let ty = b & 0x0f;
        if ty == STOP {
            return Some(None);
        }
        let delta = b >> 4;
        let id =
            if delta == 0 { i16::try_from(self.zigzag()?).ok()? } else { last_id.checked_add(i16::from(delta))? };
        *last_id = id;
        Some(Some((id, ty)))
    }

    /// Whether a field of type `ty` holds an integer.
    pub(super) fn is_int(ty: u8) -> bool {
        matches!(ty, BYTE | I16 | I32 | I64)
    }

    /// Whether a field of type `ty` is a struct.
    pub(super) fn is_struct(ty: u8) -> bool {
        ty == STRUCT
    }

    /// The header of a list field: `(element count, element type)`.
    pub(in crate::file) fn list_header(&mut self, ty: u8) -> Option<(u64, u8)> {
        if ty != LIST && ty != SET {
            return None;
        }
        let b = self.byte()?;
        let short = u64::from(b >> 4);
        let count = if short == 15 { self.varint()? } else { short };
        Some((count, b & 0x0f))
    }

    /// Whether a list element type is a struct.
    pub(in crate::file) fn elements_are_structs(element: u8) -> bool {
        element == STRUCT
    }

    /// Skips one value of type `ty` (a field's value or a list element).
    pub(in crate::file) fn skip_value(&mut self, ty: u8) -> Option<()> {
        self.skip_nested(ty, 0, false)
    }

    fn skip_nested(&mut self, ty: u8, depth: u32, in_container: bool) -> Option<()> {
        if depth > MAX_NESTING {
            return None;
        }
        match ty {
            // A boolean field carries its value in the type; a boolean list
            // element takes one byte.
            BOOL_TRUE | BOOL_FALSE if !in_container => Some(()),
            BOOL_TRUE | BOOL_FALSE | BYTE => self.skip(1),
            I16 | I32 | I64 => self.varint().map(drop),
            DOUBLE => self.skip(8),
            UUID => self.skip(16),
            BINARY => {
                let n = self.varint()?;
                self.skip(n)
            }
            LIST | SET => {
                let (count, element) = self.list_header(ty)?;
                for _ in 0..count {
                    self.skip_nested(element, depth + 1, true)?;
                }
                Some(())
            }
            MAP => {
                let count = self.varint()?;
                if count == 0 {
                    return Some(());
                }
                let types = self.byte()?;
                for _ in 0..count {
                    self.skip_nested(types >> 4, depth + 1, true)?;
                    self.skip_nested(types & 0x0f, depth + 1, true)?;
                }
                Some(())
            }
            STRUCT => {
                let mut last = 0;
                while let Some((_, field_ty)) = self.field(&mut last)? {
                    self.skip_nested(field_ty, depth + 1, false)?;
                }
                Some(())
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_fields_and_skips_containers_without_allocating() {
        // struct { 1: i32 = -3, 2: binary "ab", 3: list<i32> [1, 2], 5: i32 = 300 }
        let bytes = [0x15, 0x05, 0x18, 0x02, b'a', b'b', 0x19, 0x25, 0x02, 0x04, 0x25, 0xd8, 0x04, 0x00];
        let mut input = Input::new(&bytes[..], bytes.len() as u64);
        let mut last = 0;
        assert_eq!(input.field(&mut last), Some(Some((1, I32))));
        assert_eq!(input.int(I32), Some(-3));
        let (_, ty) = input.field(&mut last).unwrap().unwrap();
        input.skip_value(ty).unwrap();
        let (_, ty) = input.field(&mut last).unwrap().unwrap();
        input.skip_value(ty).unwrap();
        assert_eq!(input.field(&mut last), Some(Some((5, I32))));
        assert_eq!(input.int(I32), Some(300));
        assert_eq!(input.field(&mut last), Some(None));
        assert_eq!(input.field(&mut last), None);
        assert_eq!(input.consumed(), bytes.len() as u64);
    }

    #[test]
    fn a_claimed_length_beyond_the_budget_stops_the_scan() {
        // binary field claiming 2^62 bytes
        let bytes = [0x18, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40];
        let mut input = Input::new(&bytes[..], bytes.len() as u64);
        let mut last = 0;
        let (_, ty) = input.field(&mut last).unwrap().unwrap();
        assert_eq!(input.skip_value(ty), None);
    }

    #[test]
    fn a_list_of_structs_cut_short_stops_at_once() {
        // list<struct> claiming 2^60 elements, then nothing: found by fuzzing,
        // when an unfinished struct counted as a finished one.
        let bytes = [0xfc, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x10];
        let mut input = Input::new(&bytes[..], bytes.len() as u64);
        assert_eq!(input.skip_value(LIST), None);
        assert_eq!(input.consumed(), bytes.len() as u64);
    }

    #[test]
    fn nesting_is_bounded() {
        // 100 nested list headers: list<list<...>> each of one element
        let bytes: Vec<u8> = std::iter::repeat_n(0x19u8, 100).collect();
        let mut input = Input::new(&bytes[..], bytes.len() as u64);
        assert_eq!(input.skip_value(LIST), None);
    }
}
