//! Rows of a row group as ranges: what the page index leaves of it, and
//! what the decoders decode.

/// Sorted, disjoint, non-adjacent half-open ranges of rows of one row group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RowRanges(Vec<(u64, u64)>);

impl RowRanges {
    /// Rows `0..rows`.
    pub(crate) fn all(rows: u64) -> Self {
        RowRanges(if rows == 0 { Vec::new() } else { vec![(0, rows)] })
    }

    /// The union of `ranges`, in any order, empty ones ignored.
    pub(crate) fn from_ranges(mut ranges: Vec<(u64, u64)>) -> Self {
        ranges.retain(|(s, e)| s < e);
        ranges.sort_unstable();
        let mut out: Vec<(u64, u64)> = Vec::with_capacity(ranges.len());
        for (s, e) in ranges {
            match out.last_mut() {
                Some(last) if s <= last.1 => last.1 = last.1.max(e),
                _ => out.push((s, e)),
            }
        }
        RowRanges(out)
    }

    /// Rows in either.
    pub(crate) fn union(&self, other: &RowRanges) -> RowRanges {
        RowRanges::from_ranges(self.0.iter().chain(&other.0).copied().collect())
    }

    /// Rows in both.
    pub(crate) fn intersect(&self, other: &RowRanges) -> RowRanges {
        let (mut i, mut j, mut out) = (0, 0, Vec::new());
        while i < self.0.len() && j < other.0.len() {
            let (a, b) = (self.0[i], other.0[j]);
            let (s, e) = (a.0.max(b.0), a.1.min(b.1));
            if s < e {
                out.push((s, e));
            }
            if a.1 < b.1 {
                i += 1;
            } else {
                j += 1;
            }
        }
        RowRanges(out)
    }

    /// The ranges.
    pub(crate) fn ranges(&self) -> &[(u64, u64)] {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_combine() {
        let a = RowRanges::from_ranges(vec![(10, 20), (0, 5), (4, 8), (20, 22)]);
        assert_eq!(a.ranges(), [(0, 8), (10, 22)]);
        let b = RowRanges::from_ranges(vec![(6, 12), (21, 30)]);
        assert_eq!(a.intersect(&b).ranges(), [(6, 8), (10, 12), (21, 22)]);
        assert_eq!(a.union(&b).ranges(), [(0, 30)]);
        assert_eq!(RowRanges::all(5).intersect(&RowRanges::from_ranges(vec![(7, 9)])), RowRanges::from_ranges(vec![]));
        assert_eq!(RowRanges::all(0).ranges(), []);
    }
}
