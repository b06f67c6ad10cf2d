//! The decoder of the RLE / bit-packed hybrid encoding (`RLE`): definition
//! and repetition levels, dictionary indices and RLE booleans (the encoder
//! is `write::encode::hybrid`).
//!
//! A stream is a sequence of runs, each headed by a ULEB128 varint: an even
//! header `2n` is a repeated run (`n` copies of one value stored in
//! `ceil(width / 8)` little-endian bytes), an odd header `2n + 1` a
//! bit-packed run of `n` groups of 8 values, `width` bits each, least
//! significant bit first. A decoder keeps its position between calls, so a
//! page's values can be taken batch by batch. Every count is checked
//! against the bytes left before anything is read or reserved: a damaged
//! stream is an error, never a panic, a loop or a huge allocation.

/// The bit width of values up to `max` (0 for a maximum of 0).
pub(crate) fn bit_width(max: u32) -> u8 {
    (32 - max.leading_zeros()) as u8
}

/// The run being read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Run {
    /// No run: the next header comes.
    None,
    /// A repeated run: `left` more copies of `value`.
    Repeat { value: u32, left: usize },
    /// A bit-packed run: `left` more values, the next at bit `bit` of the stream.
    Packed { bit: usize, left: usize },
}

/// A decoder of one hybrid stream lying in `buf[start..end]` of the buffer
/// its callers pass in (a page, which the decoder does not own).
#[derive(Clone, Debug)]
pub(crate) struct Hybrid {
    pos: usize,
    end: usize,
    width: u8,
    run: Run,
}

impl Hybrid {
    /// A decoder of the stream in `start..end` of `values` `width` bits wide.
    pub(crate) fn new(start: usize, end: usize, width: u8) -> Result<Self, String> {
        if width > 32 {
            return Err(format!("bit width {width} is more than 32"));
        }
        Ok(Hybrid { pos: start, end, width, run: Run::None })
    }

    /// Reads the next run's header.
    fn next_run(&mut self, buf: &[u8]) -> Result<(), String> {
        let header = self.varint(buf)?;
        let count = (header >> 1) as usize;
        if header & 1 == 0 {
            let bytes = usize::from(self.width).div_ceil(8);
            let raw = buf.get(self.pos..self.pos + bytes).filter(|_| self.pos + bytes <= self.end);
            let raw = raw.ok_or("a repeated run's value is cut off")?;
            let mut word = [0u8; 4];
            word[..bytes].copy_from_slice(raw);
            self.pos += bytes;
            let value = u32::from_le_bytes(word);
            if self.width < 32 && value >> self.width != 0 {
                return Err(format!("repeated value {value} is wider than {} bits", self.width));
            }
            self.run = Run::Repeat { value, left: count };
        } else {
            // Groups of 8 values take `width` bytes each. A last run may stop
            // short of its padding: values are read only up to the stream's end.
            let bytes = count.saturating_mul(usize::from(self.width));
            let available = (self.end - self.pos).min(bytes);
            let left = if self.width == 0 { count * 8 } else { available * 8 / usize::from(self.width) };
            self.run = Run::Packed { bit: self.pos * 8, left: left.min(count * 8) };
            self.pos += available;
        }
        Ok(())
    }

    fn varint(&mut self, buf: &[u8]) -> Result<u64, String> {
        let mut value = 0u64;
        for shift in (0..35).step_by(7) {
            if self.pos >= self.end {
                return Err("the stream ends inside a run header".to_owned());
            }
            let byte = *buf.get(self.pos).ok_or("the stream lies beyond its page")?;
            self.pos += 1;
            value |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err("a run header longer than 5 bytes".to_owned())
    }

    /// Appends the next `n` values to `out`, each through `cast`: repeated
    /// runs are filled in bulk.
    #[inline]
    pub(crate) fn decode_into<T: Copy>(
        &mut self,
        buf: &[u8],
        mut n: usize,
        out: &mut Vec<T>,
        cast: impl Fn(u32) -> T,
    ) -> Result<(), String> {
        while n > 0 {
            match self.run {
                Run::None => {
                    if self.pos >= self.end {
                        return Err(format!("the stream ends with {n} values still to read"));
                    }
                    self.next_run(buf)?;
                }
                Run::Repeat { value, left } => {
                    let take = left.min(n);
                    out.resize(out.len() + take, cast(value));
                    n -= take;
                    self.run = if take == left { Run::None } else { Run::Repeat { value, left: left - take } };
                }
                Run::Packed { bit, left } => {
                    let take = left.min(n);
                    // `take` is bounded by the bytes of the run.
                    out.reserve(take);
                    unpack(buf, bit, self.width, take, &mut |v| out.push(cast(v)));
                    n -= take;
                    let bit = bit + take * usize::from(self.width);
                    self.run = if take == left { Run::None } else { Run::Packed { bit, left: left - take } };
                }
            }
        }
        Ok(())
    }
}

/// Passes `n` values of `width` bits from bit `bit` of `buf` to `out`. The
/// caller checked that their bits lie in `buf`.
#[inline]
fn unpack(buf: &[u8], mut bit: usize, width: u8, n: usize, out: &mut impl FnMut(u32)) {
    if width == 0 {
        for _ in 0..n {
            out(0);
        }
        return;
    }
    let mask = if width == 32 { u64::from(u32::MAX) } else { (1u64 << width) - 1 };
    let mut n = n;
    if width <= 8 && bit.is_multiple_of(8) {
        // Whole groups of 8 values (`width` bytes) from one load each: the
        // common case of levels and small dictionaries.
        let group_bytes = usize::from(width);
        while n >= 8 {
            let byte = bit / 8;
            let Some(group) = buf.get(byte..byte + group_bytes) else { break };
            let mut word = [0u8; 8];
            word[..group_bytes].copy_from_slice(group);
            let word = u64::from_le_bytes(word);
            for k in 0..8 {
                out(((word >> (k * u32::from(width))) & mask) as u32);
            }
            bit += 8 * group_bytes;
            n -= 8;
        }
    }
    for _ in 0..n {
        let byte = bit / 8;
        // Eight bytes hold any value of up to 32 bits at any bit offset.
        let word = match buf.get(byte..byte + 8) {
            Some(w) => u64::from_le_bytes(w.try_into().unwrap_or([0; 8])),
            None => {
                let mut w = [0u8; 8];
                let tail = buf.get(byte..).unwrap_or(&[]);
                w[..tail.len().min(8)].copy_from_slice(&tail[..tail.len().min(8)]);
                u64::from_le_bytes(w)
            }
        };
        out(((word >> (bit % 8)) & mask) as u32);
        bit += usize::from(width);
    }
}
/// The first `n` values of a run of `bytes` at bit width `width` (the
/// encoder's tests read back what it wrote with it).
#[cfg(test)]
pub(crate) fn decode_all(bytes: &[u8], width: u8, n: usize) -> Result<Vec<u32>, String> {
    let mut d = Hybrid::new(0, bytes.len(), width)?;
    let mut out = Vec::new();
    d.decode_into(bytes, n, &mut out, |v| v)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths() {
        assert_eq!(bit_width(0), 0);
        assert_eq!(bit_width(1), 1);
        assert_eq!(bit_width(2), 2);
        assert_eq!(bit_width(3), 2);
        assert_eq!(bit_width(4), 3);
        assert_eq!(bit_width(u32::MAX), 32);
    }

    #[test]
    fn the_format_examples_decode() {
        // A repeated run of 5 copies of 3 (width 2), then a bit-packed group
        // of 0..7 (width 3): 0b10001000 0b11000110 0b11111010.
        let bytes = [0x0a, 0x03, 0x03, 0x88, 0xc6, 0xfa];
        assert_eq!(decode_all(&bytes[..2], 2, 5).unwrap(), [3; 5]);
        assert_eq!(decode_all(&bytes[2..], 3, 8).unwrap(), [0, 1, 2, 3, 4, 5, 6, 7]);
    }

    #[test]
    fn damage_is_an_error() {
        assert!(decode_all(&[], 1, 1).unwrap_err().contains("values still to read"));
        assert!(decode_all(&[0x80, 0x80, 0x80, 0x80, 0x80, 0x80], 1, 1).unwrap_err().contains("longer than 5"));
        assert!(decode_all(&[0x80], 1, 1).unwrap_err().contains("inside a run header"));
        assert!(decode_all(&[0x02], 8, 1).unwrap_err().contains("cut off"));
        assert!(decode_all(&[0x02, 0x05], 2, 1).unwrap_err().contains("wider than 2 bits"));
        assert!(Hybrid::new(0, 0, 33).is_err());
        // A bit-packed run claiming more groups than the stream holds reads
        // only what is there.
        assert!(decode_all(&[0xff, 0x01, 0xff], 1, 9).unwrap_err().contains("values still to read"));
        assert_eq!(decode_all(&[0xff, 0x01, 0xff], 1, 8).unwrap(), [1; 8]);
    }
}
