//! DELTA_BINARY_PACKED: the stream of integers, its header, blocks and
//! miniblocks.

/// Decodes one DELTA_BINARY_PACKED stream of INT32 values at the start of
/// `buf`, appending its values to `out`; returns the bytes it took (up to
/// the padding of its last miniblock). `max_values`: the most values the
/// page can hold; a header declaring more is an error, before anything is
/// reserved. On an error `out` is left as it was.
pub(crate) fn decode_binary_packed_i32(buf: &[u8], max_values: usize, out: &mut Vec<i32>) -> Result<usize, String> {
    decode_binary_packed(buf, max_values, out)
}

/// [`decode_binary_packed_i32`] for INT64 values.
pub(crate) fn decode_binary_packed_i64(buf: &[u8], max_values: usize, out: &mut Vec<i64>) -> Result<usize, String> {
    decode_binary_packed(buf, max_values, out)
}

/// An integer type of DELTA_BINARY_PACKED values.
trait DeltaInt: Copy {
    /// Its width: the widest varint and bit width of its streams.
    const BITS: u32;

    /// The value of a 64-bit sum: cutting it to the type's width is the
    /// wrapping the format asks for.
    fn cut(sum: u64) -> Self;
}

impl DeltaInt for i32 {
    const BITS: u32 = 32;

    #[inline(always)]
    fn cut(sum: u64) -> Self {
        sum as i32
    }
}

impl DeltaInt for i64 {
    const BITS: u32 = 64;

    #[inline(always)]
    fn cut(sum: u64) -> Self {
        sum as i64
    }
}

/// The header of a DELTA_BINARY_PACKED stream, checked.
#[derive(Clone, Copy, Debug)]
pub(super) struct Header {
    /// Values per block: a positive multiple of 128.
    per_block: usize,
    /// Miniblocks per block: at least one.
    miniblocks: usize,
    /// Values per miniblock: a positive multiple of 32.
    per_miniblock: usize,
    /// Values in the stream, the first one included.
    total: usize,
    /// The first value, as the bits of a two's complement `i64`.
    first: u64,
}

/// Decodes the stream of `T` values at the start of `buf` into `out`.
fn decode_binary_packed<T: DeltaInt>(buf: &[u8], max_values: usize, out: &mut Vec<T>) -> Result<usize, String> {
    let (header, at) = read_header(buf, T::BITS, max_values)?;
    check_room(&header, buf.len() - at)?;
    let before = out.len();
    out.reserve(header.total);
    let end = decode_blocks(buf, at, &header, out);
    if end.is_err() {
        out.truncate(before);
    }
    end
}

/// Reads and checks the header; returns it and where the blocks start.
pub(super) fn read_header(buf: &[u8], bits: u32, max_values: usize) -> Result<(Header, usize), String> {
    let mut at = 0;
    // The three counts are unsigned 32-bit in every writer (a page holds
    // fewer than 2³¹ values); the first value is of the column's type.
    let per_block = read_uleb(buf, &mut at, 32, "the block size")?;
    let miniblocks = read_uleb(buf, &mut at, 32, "the miniblock count")?;
    let total = read_uleb(buf, &mut at, 32, "the value count")?;
    let first = unzigzag(read_uleb(buf, &mut at, bits, "the first value")?);
    if per_block == 0 || !per_block.is_multiple_of(128) {
        return Err(format!("a block size of {per_block} values, not a positive multiple of 128"));
    }
    if miniblocks == 0 || !per_block.is_multiple_of(miniblocks) {
        return Err(format!("{miniblocks} miniblocks do not divide a block of {per_block} values"));
    }
    let per_miniblock = per_block / miniblocks;
    if !per_miniblock.is_multiple_of(32) {
        return Err(format!("miniblocks of {per_miniblock} values, not a multiple of 32"));
    }
    let too_many = || format!("the stream declares {total} values, but the page holds at most {max_values}");
    let total = usize::try_from(total).ok().filter(|t| *t <= max_values).ok_or_else(too_many)?;
    // The sizes are below 2³², which a usize holds (`usize::MAX` is never used).
    let size = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
    let header = Header {
        per_block: size(per_block),
        miniblocks: size(miniblocks),
        per_miniblock: size(per_miniblock),
        total,
        first,
    };
    Ok((header, at))
}

/// Checks that the `left` bytes after the header can hold its blocks: each
/// takes at least one byte of min delta and its bit widths. A few bytes
/// can still declare many values (a width of 0 takes no bytes), up to the
/// page's most, which the header was checked against.
fn check_room(header: &Header, left: usize) -> Result<(), String> {
    let deltas = header.total.saturating_sub(1);
    let blocks = deltas.div_ceil(header.per_block);
    let least = blocks.saturating_mul(header.miniblocks.saturating_add(1));
    if least > left {
        return Err(format!(
            "{deltas} deltas in blocks of {} miniblocks need at least {least} bytes, but {left} are left",
            header.miniblocks
        ));
    }
    Ok(())
}

/// Decodes the values of the blocks that start at `at` (the first value
/// first) into `out`; returns where the stream ends: after the last
/// miniblock that holds values, with its padding.
fn decode_blocks<T: DeltaInt>(buf: &[u8], mut at: usize, header: &Header, out: &mut Vec<T>) -> Result<usize, String> {
    if header.total == 0 {
        return Ok(at);
    }
    let bits = T::BITS;
    out.push(T::cut(header.first));
    let mut last = header.first;
    let mut left = header.total - 1;
    while left > 0 {
        let min_delta = unzigzag(read_uleb(buf, &mut at, bits, "a block's min delta")?);
        let widths = buf.get(at..).and_then(|rest| rest.get(..header.miniblocks));
        let widths =
            widths.ok_or_else(|| format!("the stream ends inside a block's {} bit widths", header.miniblocks))?;
        at += header.miniblocks;
        for &width in widths {
            if left == 0 {
                // The last block's unused miniblocks have no bytes, whatever
                // their widths say.
                break;
            }
            if u32::from(width) > bits {
                return Err(format!("a miniblock bit width of {width}, more than {bits}"));
            }
            let take = left.min(header.per_miniblock);
            let rest = buf.get(at..).unwrap_or_default();
            let body = miniblock_body(rest, width, header.per_miniblock, take, take == left)?;
            decode_miniblock(rest, width, take, (min_delta, &mut last), out);
            at += body.len();
            left -= take;
        }
    }
    Ok(at)
}

/// The bytes of a miniblock at the start of `rest`: `width` bits for each of
/// `per_miniblock` values, of which the first `take` are read. The stream's
/// last miniblock (`last`) may stop short of its padding, as long as the
/// values it holds are whole, as the `parquet` crate's reader of
/// DELTA_BINARY_PACKED pages allows.
fn miniblock_body(rest: &[u8], width: u8, per_miniblock: usize, take: usize, last: bool) -> Result<&[u8], String> {
    // `per_miniblock` is a multiple of 32, so a miniblock is whole bytes.
    let size = (per_miniblock / 8).saturating_mul(usize::from(width));
    if let Some(body) = rest.get(..size) {
        return Ok(body);
    }
    let needed = take.saturating_mul(usize::from(width)).div_ceil(8);
    if last && rest.len() >= needed {
        return Ok(rest);
    }
    Err(format!("a miniblock of {size} bytes runs past the stream's end ({} bytes left)", rest.len()))
}

/// Decodes the first `take` deltas of a miniblock of `width`-bit deltas at
/// the start of `rest` (which holds them: only padding may be missing)
/// into `out`, each value `last` plus `min_delta` plus its delta. Bytes
/// after the miniblock may be read, never used.
#[inline]
fn decode_miniblock<T: DeltaInt>(
    rest: &[u8],
    width: u8,
    mut take: usize,
    (min_delta, last): (u64, &mut u64),
    out: &mut Vec<T>,
) {
    // 32 deltas of `width` bits are `4 * width` bytes.
    let group_bytes = 4 * usize::from(width);
    let mut deltas = [0u64; 32];
    let mut at = 0;
    while take > 0 {
        let n = take.min(32);
        let group = rest.get(at..).unwrap_or_default();
        if group.len() >= group_bytes + 16 {
            unpack32(group, width, &mut deltas);
        } else {
            // Near the end of the buffer: the loads of `unpack32` read up
            // to 16 bytes past the group, here zeros.
            let mut padded = [0u8; 4 * 64 + 16];
            padded.iter_mut().zip(group).for_each(|(p, b)| *p = *b);
            unpack32(&padded, width, &mut deltas);
        }
        // The steps do not depend on each other: only one addition a value
        // is left in the chain of sums.
        deltas.iter_mut().for_each(|d| *d = d.wrapping_add(min_delta));
        let mut sum = *last;
        out.extend(deltas[..n].iter().map(|step| {
            sum = sum.wrapping_add(*step);
            T::cut(sum)
        }));
        *last = sum;
        at += group_bytes;
        take -= n;
    }
}

/// Unpacks 32 values of `width` bits (at most 64) from `src`, least
/// significant bit first. `src` holds the `4 * width` bytes of the values
/// and 16 more, which the loads may read (and mask off).
#[inline]
fn unpack32(src: &[u8], width: u8, out: &mut [u64; 32]) {
    macro_rules! by_width {
        ($($w:literal)*) => {
            match width {
                $($w => unpack32_as::<$w>(src, out),)*
                _ => out.fill(0),
            }
        };
    }
    // One copy of the loop per width: with the width a constant, the loop
    // unrolls into loads and shifts by constants.
    by_width!(
        0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32
        33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64
    )
}

/// [`unpack32`] for a width of `W` bits.
#[inline(always)]
fn unpack32_as<const W: usize>(src: &[u8], out: &mut [u64; 32]) {
    // A slice of a constant length: the loads below need no bounds checks.
    let Some(src) = src.get(..4 * W + 16).filter(|_| W > 0) else {
        // A width of 0: every delta is the min delta.
        out.fill(0);
        return;
    };
    let mask = u64::MAX.checked_shr(64 - W as u32).unwrap_or(0);
    for (i, value) in out.iter_mut().enumerate() {
        let (at, shift) = (i * W / 8, i * W % 8);
        *value = if W <= 56 {
            // A value starts at most 7 bits into its first byte: 8 bytes hold it.
            (le_u64(src, at) >> shift) & mask
        } else {
            let wide = u128::from(le_u64(src, at)) | u128::from(le_u64(src, at + 8)) << 64;
            (wide >> shift) as u64 & mask
        };
    }
}

/// The little-endian `u64` at `at` of `src` (0 past its end, which the
/// callers' bounds rule out).
#[inline(always)]
fn le_u64(src: &[u8], at: usize) -> u64 {
    src.get(at..at + 8).and_then(|b| b.try_into().ok()).map_or(0, u64::from_le_bytes)
}

/// Reads an unsigned LEB128 varint of at most `bits` bits at `*at` (`what`
/// names it in errors): a longer varint, or one with bits set past `bits`,
/// is an error rather than a value cut short.
fn read_uleb(buf: &[u8], at: &mut usize, bits: u32, what: &str) -> Result<u64, String> {
    let max_bytes = bits.div_ceil(7);
    let mut value = 0u64;
    for i in 0..max_bytes {
        let byte = *buf.get(*at).ok_or_else(|| format!("the stream ends inside {what}"))?;
        *at += 1;
        let payload = u64::from(byte & 0x7f);
        let shift = 7 * i;
        if shift + (64 - payload.leading_zeros()) > bits {
            return Err(format!("{what} does not fit in {bits} bits"));
        }
        value |= payload << shift;
        if byte & 0x80 == 0 {
            return Ok(value);
        }
    }
    Err(format!("{what} is a varint longer than {max_bytes} bytes"))
}

/// The two's complement bits of a zigzag-encoded integer: 0, 1, 2, 3 stand
/// for 0, -1, 1, -2. A 32-bit zigzag value gives its `i32` sign-extended.
fn unzigzag(v: u64) -> u64 {
    (v >> 1) ^ (v & 1).wrapping_neg()
}
