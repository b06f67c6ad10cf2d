//! The encoder of the RLE / bit-packed hybrid encoding (`RLE`): definition
//! and repetition levels, dictionary indices and RLE booleans. The layout
//! of a stream is described with its decoder, `codec::hybrid`.

/// An encoder of the hybrid stream: repeated runs for 8 or more equal
/// values, bit-packed groups otherwise (the choice parquet-mr and arrow make).
#[derive(Debug)]
pub(crate) struct HybridEncoder {
    width: u8,
    out: Vec<u8>,
    /// Values not yet written: a group being filled, or a repeat being counted.
    pending: Vec<u32>,
    /// A repeated run being counted: (value, count).
    repeat: Option<(u32, usize)>,
    /// Where the header of the bit-packed run being written is, and its groups.
    packed: Option<(usize, usize)>,
}

impl HybridEncoder {
    /// An encoder of values `width` bits wide.
    pub(crate) fn new(width: u8) -> Self {
        Self::appending(width, Vec::new())
    }

    /// An encoder of values `width` bits wide whose stream follows the
    /// bytes already in `out` ([`finish`](Self::finish) returns them all).
    pub(crate) fn appending(width: u8, out: Vec<u8>) -> Self {
        HybridEncoder { width, out, pending: Vec::with_capacity(8), repeat: None, packed: None }
    }

    /// Appends each of `values`: the same stream as [`put`](Self::put) on
    /// each, but eight values that do not start a repeat are packed at once.
    pub(crate) fn put_slice(&mut self, mut values: &[u32]) {
        while let Some(&first) = values.first() {
            if self.pending.is_empty() && self.repeat.is_none() && values.len() >= 8 {
                let (group, rest) = values.split_at(8);
                if group.iter().any(|v| *v != first) {
                    self.pack(group);
                    values = rest;
                    continue;
                }
            }
            let run = values.iter().take_while(|v| **v == first).count();
            self.put_run(first, run);
            values = &values[run..];
        }
    }

    /// Appends `count` copies of `value`: a long run costs one step, not
    /// one per value (levels come in long runs).
    #[inline]
    pub(crate) fn put_run(&mut self, value: u32, mut count: usize) {
        // Values that complete a group, or end a repeat of another value,
        // go one by one; then the run extends or starts a repeat.
        while count > 0 && (!self.pending.is_empty() || self.repeat.is_some_and(|(v, _)| v != value)) {
            self.put(value);
            count -= 1;
        }
        match &mut self.repeat {
            Some((_, n)) => *n += count,
            None if count >= 8 => self.repeat = Some((value, count)),
            None => (0..count).for_each(|_| self.put(value)),
        }
    }

    /// Appends each of `values`, run by run.
    pub(crate) fn put_all(&mut self, values: impl IntoIterator<Item = u32>) {
        let mut values = values.into_iter();
        let Some(mut run_value) = values.next() else { return };
        let mut run = 1;
        for v in values {
            if v == run_value {
                run += 1;
            } else {
                self.put_run(run_value, run);
                (run_value, run) = (v, 1);
            }
        }
        self.put_run(run_value, run);
    }

    /// Bytes written so far (values still pending count one byte each).
    pub(crate) fn len(&self) -> usize {
        self.out.len() + self.pending.len()
    }

    /// Appends one value.
    #[inline]
    pub(crate) fn put(&mut self, value: u32) {
        if let Some((v, count)) = &mut self.repeat {
            if *v == value {
                *count += 1;
                return;
            }
            let (v, count) = (*v, *count);
            self.repeat = None;
            self.write_repeat(v, count);
        }
        self.pending.push(value);
        if self.pending.len() == 8 {
            let first = self.pending[0];
            if self.pending.iter().all(|v| *v == first) {
                // Eight equal values start a repeated run.
                self.pending.clear();
                self.repeat = Some((first, 8));
            } else {
                self.write_group();
            }
        }
    }

    fn close_packed(&mut self) {
        if let Some((at, groups)) = self.packed.take() {
            // The header's byte was reserved: runs are at most 63 groups.
            self.out[at] = ((groups << 1) | 1) as u8;
        }
    }

    fn write_repeat(&mut self, value: u32, count: usize) {
        self.close_packed();
        put_varint(&mut self.out, (count as u64) << 1);
        let bytes = usize::from(self.width).div_ceil(8);
        self.out.extend_from_slice(&value.to_le_bytes()[..bytes]);
    }

    fn write_group(&mut self) {
        let pending = std::mem::take(&mut self.pending);
        self.pack(&pending);
        self.pending = pending;
        self.pending.clear();
    }

    /// Writes a group of 8 values bit-packed, extending the open bit-packed
    /// run (or starting one).
    fn pack(&mut self, group: &[u32]) {
        let (at, groups) = match self.packed {
            Some((at, groups)) if groups < 63 => (at, groups),
            _ => {
                self.close_packed();
                self.out.push(0);
                (self.out.len() - 1, 0)
            }
        };
        let width = u32::from(self.width);
        // 8 values of `width` bits are `width` whole bytes: nothing is left.
        self.out.reserve(usize::from(self.width));
        let mut acc = 0u64;
        let mut bits = 0u32;
        for &v in group {
            acc |= u64::from(v) << bits;
            bits += width;
            while bits >= 8 {
                self.out.push(acc as u8);
                acc >>= 8;
                bits -= 8;
            }
        }
        self.packed = Some((at, groups + 1));
    }

    /// The stream, with the last values written (a short last group is
    /// padded with zeros, as the format allows).
    pub(crate) fn finish(mut self) -> Vec<u8> {
        if let Some((v, count)) = self.repeat.take() {
            self.write_repeat(v, count);
        }
        if !self.pending.is_empty() {
            self.pending.resize(8, 0);
            self.write_group();
        }
        self.close_packed();
        self.out
    }
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::hybrid::{decode_all, Hybrid};

    #[test]
    fn values_come_out_across_calls() {
        let mut e = HybridEncoder::new(5);
        let values: Vec<u32> = (0..100).map(|i| if (20..60).contains(&i) { 17 } else { i % 32 }).collect();
        values.iter().for_each(|v| e.put(*v));
        let bytes = e.finish();
        let mut d = Hybrid::new(0, bytes.len(), 5).unwrap();
        let mut out = Vec::new();
        for chunk in [1, 7, 30, 2, 60] {
            d.decode_into(&bytes, chunk, &mut out, |v| v).unwrap();
        }
        assert_eq!(out, values);
    }

    #[test]
    fn every_width_round_trips() {
        for width in 0..=32u8 {
            let max = if width == 32 { u32::MAX } else { (1u32 << width).wrapping_sub(1) };
            let values: Vec<u32> =
                (0..203u32).map(|i| if width == 0 { 0 } else { i.wrapping_mul(2654435761) & max }).collect();
            let mut e = HybridEncoder::new(width);
            values.iter().for_each(|v| e.put(*v));
            let bytes = e.finish();
            assert_eq!(decode_all(&bytes, width, values.len()).unwrap(), values, "width {width}");
        }
    }

    #[test]
    fn runs_encode_like_single_values() {
        let values: Vec<u32> = [(3, 20), (1, 3), (3, 1), (0, 9), (2, 8), (2, 2), (1, 1)]
            .iter()
            .flat_map(|&(v, n)| std::iter::repeat_n(v, n))
            .collect();
        let mut one_by_one = HybridEncoder::new(2);
        values.iter().for_each(|v| one_by_one.put(*v));
        let mut runs = HybridEncoder::new(2);
        runs.put_all(values.iter().copied());
        let bytes = runs.finish();
        assert_eq!(bytes, one_by_one.finish());
        assert_eq!(decode_all(&bytes, 2, values.len()).unwrap(), values);
    }

    #[test]
    fn put_slice_writes_the_stream_put_writes() {
        // Runs of every length around the group size, between distinct values.
        let mut values = Vec::new();
        let mut seed = 7u32;
        for run in [1usize, 3, 7, 8, 9, 15, 16, 17, 1, 1, 2, 40] {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            values.extend(std::iter::repeat_n(seed % 300, run));
            values.extend((0..run as u32).map(|i| (seed + i) % 300));
        }
        for start in 0..9 {
            let mut one_by_one = HybridEncoder::new(9);
            let mut sliced = HybridEncoder::new(9);
            for &v in &values[..start] {
                one_by_one.put(v);
                sliced.put(v);
            }
            values[start..].iter().for_each(|v| one_by_one.put(*v));
            sliced.put_slice(&values[start..]);
            let stream = sliced.finish();
            assert_eq!(stream, one_by_one.finish(), "after {start} values put one by one");
            assert_eq!(decode_all(&stream, 9, values.len()).unwrap(), values);
        }
    }
}
