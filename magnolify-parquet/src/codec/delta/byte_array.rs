//! DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY: byte arrays whose lengths
//! (and prefix lengths) are DELTA_BINARY_PACKED streams.

use super::binary_packed::decode_binary_packed_i32;
use crate::values::ByteBuffer;

/// Decodes one DELTA_LENGTH_BYTE_ARRAY stream at the start of `buf`: the
/// lengths (DELTA_BINARY_PACKED), then the values' bytes concatenated.
/// Appends the values to `out` and returns the bytes taken. On an error
/// `out` is left as it was.
pub(crate) fn decode_length_byte_array(buf: &[u8], max_values: usize, out: &mut ByteBuffer) -> Result<usize, String> {
    let mut lengths = Vec::new();
    let at = decode_binary_packed_i32(buf, max_values, &mut lengths).map_err(|e| format!("lengths: {e}"))?;
    let data = buf.get(at..).unwrap_or_default();
    let total = sum_lengths(&lengths, "length")?;
    if total > data.len() {
        return Err(format!("byte arrays of {total} bytes in all, but {} bytes are left", data.len()));
    }
    out.reserve(lengths.len(), total);
    let mut start = 0;
    for &len in &lengths {
        // Each length is non-negative and their sum lies in `data`.
        let end = start + len as usize;
        out.push(data.get(start..end).unwrap_or_default());
        start = end;
    }
    Ok(at + total)
}

/// Decodes one DELTA_BYTE_ARRAY stream at the start of `buf`: prefix
/// lengths (DELTA_BINARY_PACKED), then the suffixes (as
/// DELTA_LENGTH_BYTE_ARRAY); each value is the first `prefix` bytes of the
/// value before it (none for the first) followed by its suffix. `fixed`:
/// `Some(len)` for a FIXED_LEN_BYTE_ARRAY column, whose values must all be
/// `len` bytes. Appends the values to `out` and returns the bytes taken. On
/// an error `out` is left as it was.
pub(crate) fn decode_byte_array(
    buf: &[u8],
    max_values: usize,
    fixed: Option<usize>,
    out: &mut ByteBuffer,
) -> Result<usize, String> {
    let mut prefixes = Vec::new();
    let at = decode_binary_packed_i32(buf, max_values, &mut prefixes).map_err(|e| format!("prefix lengths: {e}"))?;
    let rest = buf.get(at..).unwrap_or_default();
    let mut suffixes = Vec::new();
    let suffix_at =
        decode_binary_packed_i32(rest, max_values, &mut suffixes).map_err(|e| format!("suffix lengths: {e}"))?;
    if prefixes.len() != suffixes.len() {
        return Err(format!("{} prefix lengths but {} suffix lengths", prefixes.len(), suffixes.len()));
    }
    let data = rest.get(suffix_at..).unwrap_or_default();
    let suffix_bytes = sum_lengths(&suffixes, "suffix length")?;
    if suffix_bytes > data.len() {
        return Err(format!("suffixes of {suffix_bytes} bytes in all, but {} bytes are left", data.len()));
    }
    let value_bytes = check_prefixes(&prefixes, &suffixes, fixed)?;
    out.reserve(prefixes.len(), value_bytes);
    // The value being built: the previous value's prefix, then the suffix.
    let mut value = Vec::new();
    let mut start = 0;
    for (&prefix, &suffix) in prefixes.iter().zip(&suffixes) {
        // `check_prefixes` and `sum_lengths` checked every length.
        let end = start + suffix as usize;
        value.truncate(prefix as usize);
        value.extend_from_slice(data.get(start..end).unwrap_or_default());
        out.push(&value);
        start = end;
    }
    Ok(at + suffix_at + suffix_bytes)
}

/// The sum of `lengths`, each of which must be non-negative (`what` names
/// them in errors).
fn sum_lengths(lengths: &[i32], what: &str) -> Result<usize, String> {
    let mut total = 0usize;
    for (i, &len) in lengths.iter().enumerate() {
        let len = usize::try_from(len).map_err(|_| format!("value {i} has a negative {what}, {len}"))?;
        // Each length is below 2³¹ and there are at most `max_values` of them:
        // the sum overflows only on 32-bit targets.
        total = total.checked_add(len).ok_or("the byte arrays' lengths overflow")?;
    }
    Ok(total)
}

/// Checks the prefix lengths of DELTA_BYTE_ARRAY values against the values
/// before them (the first has none), and their lengths against `fixed`;
/// returns the bytes of all the values. The suffix lengths are non-negative.
fn check_prefixes(prefixes: &[i32], suffixes: &[i32], fixed: Option<usize>) -> Result<usize, String> {
    let mut previous = 0usize;
    let mut total = 0usize;
    for (i, (&prefix, &suffix)) in prefixes.iter().zip(suffixes).enumerate() {
        let prefix =
            usize::try_from(prefix).map_err(|_| format!("value {i} has a negative prefix length, {prefix}"))?;
        if prefix > previous {
            return Err(format!(
                "value {i} takes a prefix of {prefix} bytes from a previous value of {previous} bytes"
            ));
        }
        // Both are below 2³¹.
        let len = prefix + suffix as usize;
        if let Some(fixed) = fixed.filter(|f| *f != len) {
            return Err(format!("value {i} is {len} bytes long in a column of {fixed}-byte values"));
        }
        // A value is at most the sum of the suffixes so far, which `sum_lengths`
        // bounded: the total overflows only with billions of long values.
        total = total.checked_add(len).ok_or("the byte arrays' lengths overflow")?;
        previous = len;
    }
    Ok(total)
}
