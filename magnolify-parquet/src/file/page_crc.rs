//! Page checksums on the write side: the `parquet` crate serializes page
//! headers without the optional `crc` field (field 4 of `PageHeader`), and
//! its header type is not public, so the CRC32 of the page is spliced into
//! the header bytes it wrote.
//!
//! In the Thrift compact protocol a struct's fields are written in id order,
//! each behind a byte holding `(id - previous id) << 4 | type`. The crate
//! writes the three required `i32`s (type, uncompressed and compressed size,
//! fields 1 to 3) and then one header struct (field 5, 7 or 8); the
//! checksum goes between them as field 4, which leaves that struct's byte one
//! id closer to its predecessor. Nothing else in the header moves.

/// Thrift compact type code of an `i32`.
const I32: u8 = 5;
/// Thrift compact type code of a struct.
const STRUCT: u8 = 12;

/// `header` (a serialized `PageHeader` without a checksum) with `crc` as
/// its field 4, appended to `out` (a header that has a field 4 already is
/// appended as it is); `None` (and `out` unchanged) when the header is not
/// laid out as described above.
pub(super) fn with_crc(header: &[u8], crc: u32, out: &mut Vec<u8>) -> Option<()> {
    // Fields 1 to 3: a short-form i32 field byte (delta 1) and a varint each.
    let mut at = 0;
    for _ in 0..3 {
        if *header.get(at)? != (1 << 4 | I32) {
            return None;
        }
        at += 1;
        let len = header.get(at..)?.iter().position(|b| b & 0x80 == 0)? + 1;
        at += len;
    }
    let next = *header.get(at)?;
    if next == (1 << 4 | I32) {
        // Field 4 already: a version of the crate that writes checksums.
        out.extend_from_slice(header);
        return Some(());
    }
    let (delta, ty) = (next >> 4, next & 0x0f);
    // Field 5, 6, 7 or 8 follows field 3: a delta of 2 to 5.
    if ty != STRUCT || !(2..=5).contains(&delta) {
        return None;
    }
    out.reserve(header.len() + 6);
    out.extend_from_slice(&header[..at]);
    out.push(1 << 4 | I32);
    // The format stores the CRC as an i32 (its bits), zigzag-encoded here.
    push_varint(out, zigzag(crc as i32));
    out.push((delta - 1) << 4 | STRUCT);
    out.extend_from_slice(&header[at + 1..]);
    Some(())
}

fn zigzag(v: i32) -> u32 {
    ((v << 1) ^ (v >> 31)) as u32
}

fn push_varint(out: &mut Vec<u8>, mut v: u32) {
    while v >= 0x80 {
        out.push((v as u8 & 0x7f) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// type=0, uncompressed=100, compressed=50, field 5 { num_values=7 }.
    const DATA_PAGE: [u8; 10] = [0x15, 0x00, 0x15, 0xc8, 0x01, 0x15, 0x64, 0x2c, 0x15, 0x0e];

    #[test]
    fn the_crc_goes_in_as_field_4_and_the_next_field_moves_one_id_closer() {
        let mut header = DATA_PAGE.to_vec();
        header.extend([0x00, 0x00]);
        let mut out = Vec::new();
        with_crc(&header, 0xFFFF_FFFF, &mut out).unwrap();
        // 0xFFFFFFFF is the i32 -1: zigzag 1.
        assert_eq!(out, [0x15, 0x00, 0x15, 0xc8, 0x01, 0x15, 0x64, 0x15, 0x01, 0x1c, 0x15, 0x0e, 0x00, 0x00]);
        out.clear();
        with_crc(&header, 0x7FFF_FFFF, &mut out).unwrap();
        assert_eq!(&out[7..14], [0x15, 0xfe, 0xff, 0xff, 0xff, 0x0f, 0x1c]);
    }

    #[test]
    fn a_header_with_a_checksum_already_is_kept_and_an_unexpected_layout_refused() {
        let mut out = Vec::new();
        let with_field_4 = [0x15, 0x00, 0x15, 0x02, 0x15, 0x02, 0x15, 0x00, 0x1c, 0x00, 0x00];
        with_crc(&with_field_4, 1, &mut out).unwrap();
        assert_eq!(out, with_field_4);
        out.clear();
        // Cut after field 3; a field 3 that is not an i32; nothing.
        assert!(with_crc(&DATA_PAGE[..7], 1, &mut out).is_none());
        assert!(with_crc(&[0x15, 0x00, 0x15, 0x02, 0x16, 0x02, 0x2c], 1, &mut out).is_none());
        assert!(with_crc(&[], 1, &mut out).is_none());
        assert!(out.is_empty());
    }
}
