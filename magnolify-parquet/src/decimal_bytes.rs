//! The byte form of decimals shared by every converter: an unscaled value
//! as big-endian two's complement, shortened to its minimal form or
//! sign-extended to a FIXED_LEN_BYTE_ARRAY's length.

/// Drops the leading bytes of big-endian two's complement that only repeat
/// the sign: the shortest encoding of the same number (one byte at least).
///
/// ```
/// use magnolify_parquet::convert::decimal_bytes::minimal;
/// assert_eq!(minimal(&[0, 0, 0x7f]), &[0x7f]);
/// assert_eq!(minimal(&[0xff, 0xff, 0x80]), &[0x80]);
/// assert_eq!(minimal(&[0, 0x80]), &[0, 0x80]);
/// ```
pub fn minimal(bytes: &[u8]) -> &[u8] {
    let mut start = 0;
    while start + 1 < bytes.len() {
        let (b, next) = (bytes[start], bytes[start + 1]);
        // A byte is redundant when it is all sign and the next byte's top bit says the same sign.
        if (b == 0x00 && next & 0x80 == 0) || (b == 0xff && next & 0x80 != 0) {
            start += 1;
        } else {
            break;
        }
    }
    &bytes[start..]
}

/// Writes the number `bytes` holds into all of `out`, sign-extended (or
/// shortened by dropping redundant sign bytes); `false` when it needs more
/// bytes than `out` has.
///
/// ```
/// use magnolify_parquet::convert::decimal_bytes::fit;
/// let mut out = [0u8; 3];
/// assert!(fit(&[0x80], &mut out));
/// assert_eq!(out, [0xff, 0xff, 0x80]);
/// let mut two = [0u8; 2];
/// assert!(fit(&[0, 0, 0, 1], &mut two));
/// assert_eq!(two, [0, 1]);
/// assert!(!fit(&[1, 0, 0], &mut two));
/// ```
pub fn fit(bytes: &[u8], out: &mut [u8]) -> bool {
    let bytes = minimal(bytes);
    if bytes.len() > out.len() {
        return false;
    }
    let sign = if bytes.first().is_some_and(|b| b & 0x80 != 0) { 0xff } else { 0x00 };
    let pad = out.len() - bytes.len();
    out[..pad].fill(sign);
    out[pad..].copy_from_slice(bytes);
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minimal_keeps_one_sign_byte_at_most() {
        assert_eq!(minimal(&[0, 0, 0x7f]), &[0x7f]);
        assert_eq!(minimal(&[0, 0, 0x80]), &[0, 0x80]);
        assert_eq!(minimal(&[0xff, 0xff, 0x80]), &[0x80]);
        assert_eq!(minimal(&[0xff, 0xff, 0x7f]), &[0xff, 0x7f]);
        assert_eq!(minimal(&[0, 0]), &[0]);
        assert_eq!(minimal(&[]), &[] as &[u8]);
    }
}
