//! Page decoding: the layouts of data pages (v1 and v2), the RLE /
//! bit-packed hybrid of levels and indices, PLAIN values and dictionaries,
//! decoded straight into the buffers that assembly reads. Encodings this
//! module does not decode go to the `parquet` crate's decoders, one page at
//! a time ([`fallback`]).

mod column;
mod dictionary;
mod fallback;
pub(crate) mod hybrid;
pub(crate) mod inspect;
pub(crate) mod page_queue;
pub(crate) mod plain;

pub(crate) use column::ColumnDecoder;
