//! The DELTA encodings: DELTA_BINARY_PACKED integers, and the byte arrays
//! whose lengths are stored with it, DELTA_LENGTH_BYTE_ARRAY and
//! DELTA_BYTE_ARRAY.
//!
//! A DELTA_BINARY_PACKED stream is a header (values per block, miniblocks
//! per block, value count, first value) followed by blocks of deltas. A
//! block holds its min delta, one bit width byte per miniblock, then each
//! miniblock's deltas less the min delta, bit-packed least significant bit
//! first. Each value is the previous one plus its delta, wrapping around in
//! two's complement as the format says: the sums are made in `u64` and cut
//! to the type's width at the end, which is the same arithmetic modulo 2³².
//!
//! Every count a stream declares is checked before anything is reserved: a
//! value count against the most the page can hold, byte counts against the
//! bytes left. A damaged stream is an error, never a panic, an overflow or
//! a large allocation.
//!
//! [`binary_packed`] decodes the integers, [`byte_array`] the byte arrays
//! (their lengths through [`binary_packed`]).

mod binary_packed;
mod byte_array;
#[cfg(test)]
mod tests;

pub(crate) use binary_packed::{decode_binary_packed_i32, decode_binary_packed_i64};
pub(crate) use byte_array::{decode_byte_array, decode_length_byte_array};
