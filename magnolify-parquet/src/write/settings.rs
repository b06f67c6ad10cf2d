//! The writer settings this build can write, checked when a writer is made:
//! a setting that the page encoders (ours, or the `parquet` crate's column
//! writer for what ours do not encode) cannot honour is an error naming the
//! column and what to change, never a panic at the first batch.

use parquet::basic::{Compression, Encoding, Type as PhysicalType};
use parquet::file::properties::WriterProperties;
use parquet::schema::types::SchemaDescriptor;

use super::encode::Compressor;
use crate::error::{Error, Result};

/// Checks the codec and the explicit encoding of every leaf of `schema`.
pub(crate) fn check(schema: &SchemaDescriptor, props: &WriterProperties) -> Result<()> {
    for descr in schema.columns() {
        let path = descr.path();
        let codec = props.compression(path);
        if !codec_built_in(codec) {
            return Err(Error::argument(format!(
                "column `{}`: compression {codec} is not built into this library; use UNCOMPRESSED, SNAPPY, \
                 GZIP, ZSTD, LZ4_RAW or LZ4",
                path.string()
            )));
        }
        if let Some(encoding) = props.encoding(path) {
            if !encodes(descr.physical_type(), encoding) {
                return Err(Error::argument(format!(
                    "column `{}`: encoding {encoding} cannot be written for {} values; use PLAIN{}",
                    path.string(),
                    descr.physical_type(),
                    alternatives(descr.physical_type())
                )));
            }
        }
    }
    Ok(())
}

/// The codecs this build writes: this library's own, and framed LZ4 through
/// the `parquet` crate (built without brotli and LZO).
fn codec_built_in(codec: Compression) -> bool {
    Compressor::supports(codec) || codec == Compression::LZ4
}

/// Whether the values of a column of type `physical` can be written in
/// `encoding` (the encoding of the values a dictionary does not take).
fn encodes(physical: PhysicalType, encoding: Encoding) -> bool {
    use PhysicalType as T;
    match encoding {
        Encoding::PLAIN => true,
        Encoding::RLE => physical == T::BOOLEAN,
        Encoding::DELTA_BINARY_PACKED => matches!(physical, T::INT32 | T::INT64),
        Encoding::DELTA_LENGTH_BYTE_ARRAY => physical == T::BYTE_ARRAY,
        Encoding::DELTA_BYTE_ARRAY => matches!(physical, T::BYTE_ARRAY | T::FIXED_LEN_BYTE_ARRAY),
        Encoding::BYTE_STREAM_SPLIT => {
            matches!(physical, T::FLOAT | T::DOUBLE | T::INT32 | T::INT64 | T::FIXED_LEN_BYTE_ARRAY)
        }
        // Dictionary encodings are set with the dictionary switch, not as
        // the values' encoding; BIT_PACKED is for levels only.
        _ => false,
    }
}

/// The other encodings `encodes` accepts for `physical`, for the message.
fn alternatives(physical: PhysicalType) -> &'static str {
    use PhysicalType as T;
    match physical {
        T::BOOLEAN => " or RLE",
        T::INT32 | T::INT64 => ", DELTA_BINARY_PACKED or BYTE_STREAM_SPLIT",
        T::BYTE_ARRAY => ", DELTA_LENGTH_BYTE_ARRAY or DELTA_BYTE_ARRAY",
        T::FIXED_LEN_BYTE_ARRAY => ", DELTA_BYTE_ARRAY or BYTE_STREAM_SPLIT",
        T::FLOAT | T::DOUBLE => " or BYTE_STREAM_SPLIT",
        T::INT96 => "",
    }
}
