//! A tiny deterministic generator, so every run benches the same records
//! without a `rand` dependency.

/// xorshift64* (Marsaglia's xorshift with a multiplicative scramble): fast,
/// reproducible from its seed, good enough for test data.
#[derive(Clone, Debug)]
pub struct XorShift(u64);

/// Characters strings are drawn from: mostly ASCII, some two- and
/// three-byte UTF-8, so string encoding and validation do real work.
const ALPHABET: &[char] = &[
    'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'k', 'l', 'm', 'n', 'o', 'p', 'r', 's', 't', 'u', 'w', 'y', 'z', 'A',
    'B', 'Q', 'X', '0', '1', '7', '9', '-', '_', ' ', 'é', 'ß', 'ø', 'ü', '中', '€',
];

impl XorShift {
    /// A generator from `seed` (zero is replaced, xorshift would stay at zero).
    pub fn new(seed: u64) -> Self {
        XorShift(if seed == 0 { 0x9E37_79B9_7F4A_7C15 } else { seed })
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n` > 0; the slight modulo bias does not matter here).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }

    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below((hi - lo + 1) as u64) as usize
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    /// Any `i32`.
    pub fn i32(&mut self) -> i32 {
        self.next_u64() as i32
    }

    /// A double in `[0, 1000)`.
    pub fn f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * 1000.0
    }

    /// A string of `lo..=hi` characters from a mostly-ASCII alphabet.
    pub fn string(&mut self, lo: usize, hi: usize) -> String {
        let n = self.range(lo, hi);
        (0..n).map(|_| ALPHABET[self.below(ALPHABET.len() as u64) as usize]).collect()
    }

    /// `lo..=hi` random bytes.
    pub fn bytes(&mut self, lo: usize, hi: usize) -> Vec<u8> {
        let n = self.range(lo, hi);
        (0..n).map(|_| self.next_u64() as u8).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::XorShift;

    #[test]
    fn same_seed_same_sequence() {
        let (mut a, mut b) = (XorShift::new(7), XorShift::new(7));
        let xs: Vec<u64> = (0..4).map(|_| a.next_u64()).collect();
        let ys: Vec<u64> = (0..4).map(|_| b.next_u64()).collect();
        assert_eq!(xs, ys);
        assert_ne!(xs[0], xs[1]);
    }

    #[test]
    fn strings_stay_in_bounds() {
        let mut g = XorShift::new(1);
        for _ in 0..100 {
            let n = g.string(3, 5).chars().count();
            assert!((3..=5).contains(&n), "{n}");
        }
    }
}
