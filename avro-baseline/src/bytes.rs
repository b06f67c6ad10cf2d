//! Byte forms of the Avro logical values that Parquet stores as bytes:
//! decimals (big-endian two's complement, sign-extended to a fixed size),
//! big-decimals (Avro's own encoding) and durations.

use apache_avro::{BigDecimal, Decimal};
use magnolify_parquet::convert::decimal_bytes;
use num_bigint::BigInt;

/// Fits big-endian two's-complement `bytes` into exactly `size` bytes:
/// sign-extends shorter ones, drops redundant sign bytes of longer ones.
pub(crate) fn fit_twos_complement(bytes: &[u8], size: usize) -> Result<Vec<u8>, String> {
    let mut out = vec![0; size];
    if decimal_bytes::fit(bytes, &mut out) {
        Ok(out)
    } else {
        Err(format!("a {}-byte decimal does not fit fixed({size})", bytes.len()))
    }
}

/// The unscaled bytes of a decimal, sized for its Parquet column: as they
/// are for `bytes`, exactly `size` for `fixed(size)`.
///
/// `apache_avro::Decimal` gives no borrowed access to its digits, so this
/// allocates once per value.
pub(crate) fn decimal_bytes(decimal: &Decimal, fixed: Option<usize>) -> Result<Vec<u8>, String> {
    let bytes = Vec::<u8>::try_from(decimal).map_err(|e| e.to_string())?;
    match fixed {
        Some(size) if bytes.len() != size => fit_twos_complement(&bytes, size),
        _ => Ok(bytes),
    }
}

/// Checks that unscaled big-endian two's-complement `bytes` hold at most
/// `precision` digits, as the Parquet DECIMAL column declares.
pub(crate) fn check_precision(bytes: &[u8], precision: usize) -> Result<(), String> {
    let unscaled = num_bigint::BigInt::from_signed_bytes_be(bytes);
    let digits = unscaled.magnitude().to_string().len();
    if digits > precision {
        return Err(format!("unscaled value {unscaled} has {digits} digits, more than the precision {precision}"));
    }
    Ok(())
}

/// A decimal from unscaled big-endian bytes, sign-extended to `fixed` when given.
pub(crate) fn decimal_from(bytes: &[u8], fixed: Option<usize>) -> Result<Decimal, String> {
    match fixed {
        Some(size) if bytes.len() != size => fit_twos_complement(bytes, size).map(Decimal::from),
        _ => Ok(Decimal::from(bytes)),
    }
}

/// Appends an Avro `long` (zig-zag varint).
fn put_long(out: &mut Vec<u8>, v: i64) {
    let mut z = ((v << 1) ^ (v >> 63)) as u64;
    while z >= 0x80 {
        out.push((z as u8) | 0x80);
        z >>= 7;
    }
    out.push(z as u8);
}

/// Reads an Avro `long` from the front of `input`.
fn take_long(input: &mut &[u8]) -> Result<i64, String> {
    let mut z: u64 = 0;
    for shift in (0..64).step_by(7) {
        let (&b, rest) = input.split_first().ok_or("big-decimal bytes end inside a number")?;
        *input = rest;
        z |= u64::from(b & 0x7F) << shift;
        if b & 0x80 == 0 {
            return Ok(((z >> 1) as i64) ^ -((z & 1) as i64));
        }
    }
    Err("big-decimal number longer than 10 bytes".to_owned())
}

/// Avro's big-decimal bytes: the unscaled value as Avro `bytes` (length,
/// big-endian two's complement), then the scale as a `long`.
pub(crate) fn big_decimal_bytes(value: &BigDecimal, out: &mut Vec<u8>) {
    let (unscaled, scale) = value.as_bigint_and_exponent();
    let digits = unscaled.to_signed_bytes_be();
    out.clear();
    put_long(out, digits.len() as i64);
    out.extend_from_slice(&digits);
    put_long(out, scale);
}

/// Parses Avro's big-decimal bytes.
pub(crate) fn big_decimal_from(bytes: &[u8]) -> Result<BigDecimal, String> {
    let mut input = bytes;
    let len = take_long(&mut input)?;
    let len = usize::try_from(len).map_err(|_| format!("negative big-decimal length {len}"))?;
    if input.len() < len {
        return Err(format!("big-decimal of {len} digit bytes in {} bytes", input.len()));
    }
    let (digits, mut rest) = input.split_at(len);
    let scale = take_long(&mut rest)?;
    if !rest.is_empty() {
        return Err(format!("{} bytes after a big-decimal", rest.len()));
    }
    Ok(BigDecimal::new(BigInt::from_signed_bytes_be(digits), scale))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twos_complement_fits() {
        assert_eq!(fit_twos_complement(&[0x01], 3).unwrap(), [0, 0, 1]);
        assert_eq!(fit_twos_complement(&[0xFF, 0x7F], 4).unwrap(), [0xFF, 0xFF, 0xFF, 0x7F]);
        assert_eq!(fit_twos_complement(&[0, 0, 0x7F], 1).unwrap(), [0x7F]);
        assert_eq!(fit_twos_complement(&[0xFF, 0x80], 1).unwrap(), [0x80]);
        assert!(fit_twos_complement(&[0, 0x80], 1).is_err());
        assert!(fit_twos_complement(&[1, 0], 1).is_err());
    }

    #[test]
    fn big_decimal_round_trips() {
        for text in ["0", "-1.5", "123456789012345678901234567890.000001", "-0.0000000001", "1e40"] {
            let v: BigDecimal = text.parse().unwrap();
            let mut buf = Vec::new();
            big_decimal_bytes(&v, &mut buf);
            assert_eq!(big_decimal_from(&buf).unwrap(), v, "{text}");
        }
        assert!(big_decimal_from(&[0x04, 1]).is_err());
    }
}
