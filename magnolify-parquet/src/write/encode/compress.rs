//! Page compression with the codec crates the `parquet` crate uses, in the
//! same stream formats: raw Snappy, gzip, zstd frames and raw LZ4 blocks.
//! Other codecs (the legacy Hadoop-framed LZ4, Brotli, LZO) are left to the
//! crate's column writer.

use std::io::Write;

use parquet::basic::Compression;
use parquet::errors::{ParquetError, Result as ParquetResult};

/// The compressor of one column chunk's pages.
pub(crate) enum Compressor {
    Snappy(Box<snap::raw::Encoder>),
    Gzip(flate2::Compression),
    Zstd(Box<zstd::bulk::Compressor<'static>>),
    Lz4Raw,
}

impl Compressor {
    /// Whether pages in `compression` are compressed here.
    pub(crate) fn supports(compression: Compression) -> bool {
        matches!(
            compression,
            Compression::UNCOMPRESSED
                | Compression::SNAPPY
                | Compression::GZIP(_)
                | Compression::ZSTD(_)
                | Compression::LZ4_RAW
        )
    }

    /// The compressor for `compression`; `None` for uncompressed pages.
    pub(crate) fn new(compression: Compression) -> ParquetResult<Option<Self>> {
        Ok(Some(match compression {
            Compression::SNAPPY => Compressor::Snappy(Box::new(snap::raw::Encoder::new())),
            Compression::GZIP(level) => Compressor::Gzip(flate2::Compression::new(level.compression_level())),
            Compression::ZSTD(level) => {
                Compressor::Zstd(Box::new(zstd::bulk::Compressor::new(level.compression_level()).map_err(codec_error)?))
            }
            Compression::LZ4_RAW => Compressor::Lz4Raw,
            Compression::UNCOMPRESSED => return Ok(None),
            other => return Err(ParquetError::NYI(format!("{other} pages are written by the parquet crate"))),
        }))
    }

    /// Appends the compressed `input` to `out`.
    pub(crate) fn compress(&mut self, input: &[u8], out: &mut Vec<u8>) -> ParquetResult<()> {
        match self {
            Compressor::Snappy(encoder) => {
                let start = out.len();
                out.resize(start + snap::raw::max_compress_len(input.len()), 0);
                let n = encoder.compress(input, &mut out[start..]).map_err(codec_error)?;
                out.truncate(start + n);
            }
            Compressor::Gzip(level) => {
                let mut encoder = flate2::write::GzEncoder::new(out, *level);
                encoder.write_all(input).map_err(codec_error)?;
                encoder.finish().map_err(codec_error)?;
            }
            Compressor::Zstd(compressor) => {
                let start = out.len();
                out.resize(start + zstd::zstd_safe::compress_bound(input.len()), 0);
                let n = compressor.compress_to_buffer(input, &mut out[start..]).map_err(codec_error)?;
                out.truncate(start + n);
            }
            Compressor::Lz4Raw => {
                let start = out.len();
                out.resize(start + lz4_flex::block::get_maximum_output_size(input.len()), 0);
                let n = lz4_flex::block::compress_into(input, &mut out[start..]).map_err(codec_error)?;
                out.truncate(start + n);
            }
        }
        Ok(())
    }
}

/// A codec's failure: the codecs report it as an `io::Error`, but it is not
/// one of the sink (which `Error::Io` means), so it goes on as the crate's.
fn codec_error(e: impl std::fmt::Display) -> ParquetError {
    ParquetError::General(format!("compression failed: {e}"))
}

#[cfg(test)]
mod tests {
    use parquet::basic::{GzipLevel, ZstdLevel};
    use parquet::column::page::{Page, PageReader};

    use super::*;

    /// Each codec's output is what the crate's decompressor reads back: a
    /// file written with it reads back through the crate's page reader.
    #[test]
    fn every_codec_reads_back_with_the_crate() {
        let input: Vec<u8> = (0..20_000u32).flat_map(|i| (i % 251).to_le_bytes()).collect();
        for compression in [
            Compression::SNAPPY,
            Compression::GZIP(GzipLevel::default()),
            Compression::ZSTD(ZstdLevel::default()),
            Compression::LZ4_RAW,
        ] {
            let mut c = Compressor::new(compression).unwrap().unwrap();
            let mut out = vec![7u8];
            c.compress(&input, &mut out).unwrap();
            assert_eq!(out[0], 7, "{compression}: appends");
            assert!(out.len() < input.len() / 2, "{compression}: {} bytes", out.len());
            let page = Page::DataPage {
                buf: out[1..].to_vec().into(),
                num_values: 1,
                encoding: parquet::basic::Encoding::PLAIN,
                def_level_encoding: parquet::basic::Encoding::RLE,
                rep_level_encoding: parquet::basic::Encoding::RLE,
                statistics: None,
            };
            let decoded = read_back(page, input.len(), compression);
            assert!(decoded == input, "{compression}: round trip");
        }
        assert!(Compressor::new(Compression::UNCOMPRESSED).unwrap().is_none());
        assert!(!Compressor::supports(Compression::LZ4));
    }

    /// Serializes `page` into a one-page chunk and reads it back with the
    /// crate's page reader, which decompresses it.
    fn read_back(page: Page, uncompressed: usize, compression: Compression) -> Vec<u8> {
        use parquet::column::page::{CompressedPage, PageWriter};
        use parquet::file::writer::SerializedPageWriter;
        let mut sink = parquet::file::writer::TrackedWrite::new(Vec::new());
        SerializedPageWriter::new(&mut sink).write_page(CompressedPage::new(page, uncompressed)).unwrap();
        let bytes = bytes::Bytes::from(sink.into_inner().unwrap());
        let meta = parquet::file::metadata::ColumnChunkMetaData::builder(descr())
            .set_compression(compression)
            .set_data_page_offset(0)
            .set_total_compressed_size(bytes.len() as i64)
            .set_num_values(1)
            .build()
            .unwrap();
        let mut reader =
            parquet::file::serialized_reader::SerializedPageReader::new(std::sync::Arc::new(bytes), &meta, 1, None)
                .unwrap();
        reader.get_next_page().unwrap().unwrap().buffer().to_vec()
    }

    fn descr() -> parquet::schema::types::ColumnDescPtr {
        let schema = parquet::schema::parser::parse_message_type("message m { required int32 v; }").unwrap();
        parquet::schema::types::SchemaDescriptor::new(std::sync::Arc::new(schema)).column(0)
    }
}
