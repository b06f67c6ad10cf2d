//! Page decoding: the layouts of data pages (v1 and v2), the levels (the
//! RLE / bit-packed hybrid, and the deprecated BIT_PACKED), values in every
//! encoding of the format (PLAIN, dictionaries, RLE booleans, the DELTA
//! encodings, BYTE_STREAM_SPLIT), decoded straight into the buffers that
//! assembly reads. Every count is checked before anything is allocated.

mod bit_packed;
mod byte_stream_split;
mod column;
mod delta;
mod dictionary;
pub(crate) mod hybrid;
pub(crate) mod inspect;
pub(crate) mod page_queue;
pub(crate) mod plain;
mod reference;
mod skip_counts;
#[cfg(test)]
mod test_pages;
mod whole;

pub(crate) use column::ColumnDecoder;
pub(crate) use skip_counts::SkipCounts;
