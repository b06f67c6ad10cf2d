//! Cutting binary min/max to a length, as the crate does for statistics and
//! the column index: the min to a prefix, the max to a prefix incremented.

/// A STRING column's value as text, if it is valid UTF-8: its bounds are
/// then cut at character boundaries; other values are cut anywhere.
pub(super) fn as_text(value: &[u8], utf8: bool) -> Option<&str> {
    utf8.then(|| std::str::from_utf8(value).ok()).flatten()
}

/// A lower bound of `value` of at most `limit` bytes, and whether it is the
/// value itself: a prefix, which for a STRING of valid UTF-8 ends at a
/// character boundary (the value itself if no non-empty prefix does).
pub(super) fn lower_bound(value: &[u8], limit: Option<usize>, utf8: bool) -> (Vec<u8>, bool) {
    let cut = match limit {
        Some(limit) if value.len() > limit => match as_text(value, utf8) {
            Some(text) => (1..=limit).rev().find(|&at| text.is_char_boundary(at)),
            None => Some(limit),
        },
        _ => None,
    };
    match cut.and_then(|at| value.get(..at)) {
        Some(prefix) => (prefix.to_vec(), false),
        None => (value.to_vec(), true),
    }
}

/// An upper bound of `value` of at most `limit` bytes, and whether it is the
/// value itself: a prefix with its last byte incremented (carrying into the
/// bytes before it), or for a STRING of valid UTF-8 its last character that
/// can be incremented without growing; the value itself if nothing can be
/// incremented (all bytes 0xFF).
pub(super) fn upper_bound(value: &[u8], limit: Option<usize>, utf8: bool) -> (Vec<u8>, bool) {
    let bound = match limit {
        Some(limit) if value.len() > limit => match as_text(value, utf8) {
            Some(text) => {
                // A character is at most 4 bytes: a boundary is among the
                // last four positions.
                let at = (limit.saturating_sub(3)..=limit).rev().find(|&at| text.is_char_boundary(at));
                at.and_then(|at| text.get(..at)).and_then(increment_text)
            }
            None => value.get(..limit).and_then(increment_bytes),
        },
        _ => None,
    };
    match bound {
        Some(bound) => (bound, false),
        None => (value.to_vec(), true),
    }
}

/// `text` up to its last character that has a successor of the same UTF-8
/// width, that character replaced by its successor.
pub(super) fn increment_text(text: &str) -> Option<Vec<u8>> {
    text.char_indices().rev().find_map(|(at, c)| {
        let next = char::from_u32(u32::from(c) + 1).filter(|next| next.len_utf8() == c.len_utf8())?;
        let mut bound = text.as_bytes().get(..at)?.to_vec();
        bound.extend_from_slice(next.encode_utf8(&mut [0; 4]).as_bytes());
        Some(bound)
    })
}

/// `bytes` plus one as a big-endian number of the same width: the last byte
/// below 0xFF goes up by one and the 0xFF bytes after it wrap to 0; `None`
/// if all bytes are 0xFF.
pub(super) fn increment_bytes(bytes: &[u8]) -> Option<Vec<u8>> {
    let last = bytes.iter().rposition(|&b| b != u8::MAX)?;
    let mut bound = bytes.to_vec();
    if let Some((byte, wrapped)) = bound.get_mut(last..).and_then(|tail| tail.split_first_mut()) {
        *byte += 1;
        wrapped.fill(0);
    }
    Some(bound)
}
