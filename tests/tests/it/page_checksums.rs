//! Page checksums: every page the library writes carries the CRC32 of its
//! bytes and the reader checks it before decoding, so damage inside a
//! column chunk is an error (or, where no checksum reaches, the original
//! records), never different records read without an error. Peers' files
//! with checksums are verified too; files without them read as before.
//!
//! The measurements print their tallies (`cargo test -- --nocapture`), the
//! numbers docs/errors.md's guarantees section quotes.

use std::ops::Range;

use bytes::Bytes;
use magnolify_parquet::parquet::basic::{Compression, ZstdLevel};
use magnolify_parquet::parquet::file::metadata::ParquetMetaDataReader;
use magnolify_parquet::parquet::file::properties::WriterVersion;
use magnolify_parquet::{ParquetReader, ReadOptions, ReaderBuilder, WriterBuilder};
use test_kit::io::{file_with, until_error};

use crate::damaged_files::{events, Event};
use crate::fixtures_read::PeerTypes;
use magnolify_parquet::ParquetType;
use test_kit::to_json_struct;

type Builder = WriterBuilder<Event>;

/// Settings on top of a codec.
type Tune = fn(Builder) -> Builder;

/// A file of `records` in two row groups, written with `codec`, the
/// default settings otherwise (checksums on) unless `tune` changes them.
fn written(records: &[Event], codec: Compression, tune: impl FnOnce(Builder) -> Builder) -> Bytes {
    let builder = WriterBuilder::<Event>::new().compression(codec).max_row_group_rows(records.len().div_ceil(2));
    file_with(tune(builder), records).expect("written")
}

/// Every column chunk of `file`: row group, column path and byte range.
fn chunks(file: &Bytes) -> Vec<(usize, String, Range<usize>)> {
    let meta = ParquetMetaDataReader::new().parse_and_finish(file).expect("footer");
    let mut out = Vec::new();
    for (g, group) in meta.row_groups().iter().enumerate() {
        for column in group.columns() {
            let start = column.dictionary_page_offset().unwrap_or_else(|| column.data_page_offset()) as usize;
            let len = column.compressed_size() as usize;
            out.push((g, column.column_path().string(), start..start + len));
        }
    }
    out
}

/// What reading a damaged copy gave, against the original records.
#[derive(Debug, Default)]
struct Tally {
    errors: usize,
    checksum_errors: usize,
    original: usize,
    different: Vec<String>,
}

impl Tally {
    fn read(&mut self, what: String, file: Bytes, original: &[Event], verify: bool) {
        let options = ReadOptions::default().threads(1).verify_page_checksums(verify);
        let (records, error) = match ReaderBuilder::new(file).and_then(|b| b.build::<Event>(options)) {
            Ok(reader) => until_error(reader),
            Err(e) => (Vec::new(), Some(e)),
        };
        match error {
            Some(e) => {
                self.errors += 1;
                self.checksum_errors += usize::from(e.to_string().contains("CRC32"));
            }
            None if records == original => self.original += 1,
            None => self.different.push(what),
        }
    }

    fn print(&self, what: &str) {
        eprintln!(
            "{what}: {} errors ({} checksum mismatches), {} original records, {} different records{}",
            self.errors,
            self.checksum_errors,
            self.original,
            self.different.len(),
            self.different.first().map(|d| format!(" (first: {d})")).unwrap_or_default()
        );
    }
}

fn flipped(file: &Bytes, byte: usize, bit: u32) -> Bytes {
    let mut b = file.to_vec();
    b[byte] ^= 1 << bit;
    Bytes::from(b)
}

/// Every single-bit flip in every column chunk, of files written with the
/// default settings, with zstd, and in data pages v2 (snappy, small pages):
/// an error or the original records, never different ones. Without checksums (the same files, unchecked) most flips
/// in page bodies give different records: the tally shows what the
/// checksums catch.
#[test]
fn every_bit_flip_inside_a_column_chunk_is_an_error_or_the_original_records() {
    let records = events(40);
    let v2 = |b: Builder| b.writer_version(WriterVersion::PARQUET_2_0).data_page_rows(8);
    let configs: [(&str, Compression, Tune); 3] = [
        ("default", Compression::UNCOMPRESSED, |b| b),
        ("zstd", Compression::ZSTD(ZstdLevel::default()), |b| b),
        ("v2 snappy, pages of 8 rows", Compression::SNAPPY, v2),
    ];
    for (name, codec, tune) in configs {
        let file = written(&records, codec, tune);
        let (mut checked, mut unchecked) = (Tally::default(), Tally::default());
        for (group, column, range) in chunks(&file) {
            for byte in range {
                for bit in 0..8 {
                    let what = format!("{name}: bit {bit} of byte {byte} (row group {group}, column `{column}`)");
                    let damaged = flipped(&file, byte, bit);
                    checked.read(what.clone(), damaged.clone(), &records, true);
                    if bit == 0 {
                        unchecked.read(what, damaged, &records, false);
                    }
                }
            }
        }
        checked.print(&format!("{name} ({} bytes), every bit of every column chunk, checked", file.len()));
        unchecked.print(&format!("{name}, bit 0 of every column-chunk byte, unchecked"));
        assert!(checked.different.is_empty(), "{name}: {:#?}", checked.different);
        assert!(checked.checksum_errors > 0 && !unchecked.different.is_empty());
    }
}

/// Flips in the footer, which the format gives no checksum: the tally of
/// what they give (docs/errors.md quotes it). Only panics fail here; the
/// hardened footer reader refuses what its consistency checks catch.
#[test]
fn bit_flips_in_the_footer_are_measured() {
    let records = events(40);
    let file = written(&records, Compression::UNCOMPRESSED, |b| b);
    let footer = crate::damaged_files::metadata_start(&file)..file.len();
    let mut tally = Tally::default();
    for byte in footer {
        for bit in 0..8 {
            tally.read(format!("bit {bit} of footer byte {byte}"), flipped(&file, byte, bit), &records, true);
        }
    }
    tally.print(&format!("footer ({} bytes), every bit", file.len() - crate::damaged_files::metadata_start(&file)));
    assert!(tally.errors > 0 && tally.original > 0);
}

#[test]
fn a_damaged_page_is_named_by_row_group_column_and_page() {
    let records = events(60);
    for version in [WriterVersion::PARQUET_1_0, WriterVersion::PARQUET_2_0] {
        let file = written(&records, Compression::SNAPPY, |b| b.writer_version(version).data_page_rows(8));
        for (group, column, range) in chunks(&file) {
            // The last byte of a chunk is in the body of its last page.
            let damaged = flipped(&file, range.end - 1, 3);
            let error = ReaderBuilder::new(damaged.clone())
                .and_then(|b| b.build::<Event>(ReadOptions::default()))
                .and_then(|r| r.collect::<magnolify_parquet::Result<Vec<_>>>())
                .expect_err("a damaged page");
            assert!(matches!(error, magnolify_parquet::Error::Damaged { .. }), "{error:?}");
            let message = error.to_string();
            let location = error.location().expect("a location");
            assert_eq!(location.row_group, Some(group), "{message}");
            assert_eq!(location.column.as_deref(), Some(column.as_str()), "{message}");
            assert!(location.page.is_some() && message.contains("CRC32"), "{message}");
            // The hint names the method where it is.
            assert!(message.contains("ReadOptions::verify_page_checksums(false)"), "{message}");
            // Unchecked, the same file gives no checksum error.
            let unchecked = ReaderBuilder::new(damaged)
                .and_then(|b| b.build::<Event>(ReadOptions::default().verify_page_checksums(false)))
                .and_then(|r| r.collect::<magnolify_parquet::Result<Vec<_>>>());
            if let Err(e) = unchecked {
                assert!(!e.to_string().contains("CRC32"), "{e}");
            }
        }
    }
}

#[test]
fn files_written_without_checksums_read_unchecked() {
    let records = events(60);
    let file = written(&records, Compression::UNCOMPRESSED, |b| b.page_checksums(false));
    let back: Vec<Event> = ParquetReader::new(file.clone()).unwrap().collect::<Result<_, _>>().unwrap();
    assert_eq!(back, records);
    // Damage in a page body is not seen as such: nothing to compare it with.
    let mut tally = Tally::default();
    for (_, column, range) in chunks(&file) {
        tally.read(format!("the last byte of `{column}`"), flipped(&file, range.end - 1, 0), &records, true);
    }
    tally.print("without checksums, the last byte of each column chunk");
    assert_eq!(tally.checksum_errors, 0);
}

/// pyarrow's files with a CRC32 in every page header (v1 and v2 pages) read
/// equal to their expectations, checked; the damaged copy is refused, as
/// pyarrow refuses it with `page_checksum_verification=True`.
#[test]
fn peers_checksums_are_verified() {
    for name in ["peers/types.pyarrow-crc-v1", "peers/types.pyarrow-crc-v2"] {
        crate::fixtures_read::check::<PeerTypes>(name);
    }
    let damaged = test_kit::fixtures::bytes("peers/types.pyarrow-crc-damaged.parquet");
    let error = ReaderBuilder::new(damaged.clone())
        .and_then(|b| b.build::<PeerTypes>(ReadOptions::default()))
        .and_then(|r| r.collect::<magnolify_parquet::Result<Vec<_>>>())
        .expect_err("the damaged copy");
    let message = error.to_string();
    assert!(
        message.contains("CRC32") && message.contains("column `id`") && message.contains("row group 0"),
        "{message}"
    );
    // Unchecked, the flipped bit gives other values, or fails otherwise.
    let unchecked = ReaderBuilder::new(damaged)
        .and_then(|b| b.build::<PeerTypes>(ReadOptions::default().verify_page_checksums(false)))
        .and_then(|r| r.collect::<magnolify_parquet::Result<Vec<_>>>());
    let expected = crate::fixtures_read::check::<PeerTypes>("peers/types.pyarrow-crc-v1");
    match unchecked {
        Ok(rows) => assert_ne!(format!("{rows:?}"), format!("{expected:?}")),
        Err(e) => assert!(!e.to_string().contains("CRC32"), "{e}"),
    }
}

/// parquet-mr's files of apache/parquet-testing with page checksums.
#[derive(ParquetType, Debug)]
pub(crate) struct MrInts {
    a: i32,
    b: i32,
}
to_json_struct!(MrInts { "a" => a, "b" => b });

#[derive(ParquetType, Debug)]
pub(crate) struct MrDictionary {
    long_field: i64,
    binary_field: Vec<u8>,
}
to_json_struct!(MrDictionary { "long_field" => long_field, "binary_field" => binary_field });

/// parquet-java's checksums (data pages v1, uncompressed and snappy; with
/// PLAIN and RLE dictionaries) are verified and the files read equal to
/// their expectations; the two copies with a corrupt page are refused, as
/// pyarrow refuses them.
#[test]
fn parquet_java_checksums_are_verified() {
    for name in ["datapage_v1-uncompressed-checksum", "datapage_v1-snappy-compressed-checksum"] {
        let rows = crate::fixtures_read::check::<MrInts>(&format!("parquet-testing/{name}"));
        assert_eq!(rows.len(), 5120);
    }
    for name in ["plain-dict-uncompressed-checksum", "rle-dict-snappy-checksum"] {
        let rows = crate::fixtures_read::check::<MrDictionary>(&format!("parquet-testing/{name}"));
        assert_eq!(rows.len(), 1000);
    }
    let refused = |name: &str, error: magnolify_parquet::Error| {
        assert!(matches!(error, magnolify_parquet::Error::Damaged { .. }), "{name}: {error:?}");
        assert!(error.to_string().contains("CRC32"), "{name}: {error}");
    };
    let corrupt = |name: &str| test_kit::fixtures::bytes(&format!("parquet-testing/{name}.parquet"));
    let name = "datapage_v1-corrupt-checksum";
    let read = ReaderBuilder::new(corrupt(name))
        .and_then(|b| b.build::<MrInts>(ReadOptions::default())?.collect::<Result<Vec<_>, _>>());
    refused(name, read.expect_err(name));
    let name = "rle-dict-uncompressed-corrupt-checksum";
    let read = ReaderBuilder::new(corrupt(name))
        .and_then(|b| b.build::<MrDictionary>(ReadOptions::default())?.collect::<Result<Vec<_>, _>>());
    refused(name, read.expect_err(name));
}
