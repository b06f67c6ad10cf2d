//! Test support for the decoders of the codec: one-column files written by
//! the `parquet` crate in a chosen encoding, the values sections of their
//! data pages, and a small seeded random generator.

use std::sync::Arc;

use bytes::Bytes;
use parquet::basic::{Encoding, Repetition, Type as PhysicalType};
use parquet::column::page::Page;
use parquet::data_type::DataType;
use parquet::file::properties::{WriterProperties, WriterVersion};
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::Type as SchemaType;

/// A xorshift64* generator: reproducible inputs without a dependency.
pub(super) struct Rng(u64);

impl Rng {
    pub(super) fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    pub(super) fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub(super) fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }

    pub(super) fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next_u64() as u8).collect()
    }
}

/// Writer properties with dictionaries off and `encoding` for the values,
/// in pages of the given version, of at most `page_rows` values each.
pub(super) fn props(encoding: Encoding, version: WriterVersion, page_rows: usize) -> WriterProperties {
    props_builder(encoding, version, page_rows).build()
}

/// [`props`], to be changed further.
pub(super) fn props_builder(
    encoding: Encoding,
    version: WriterVersion,
    page_rows: usize,
) -> parquet::file::properties::WriterPropertiesBuilder {
    WriterProperties::builder()
        .set_writer_version(version)
        .set_dictionary_enabled(false)
        .set_encoding(encoding)
        .set_data_page_row_count_limit(page_rows)
        // The row limit is checked between batches.
        .set_write_batch_size(page_rows.clamp(1, 1024))
}

/// The data pages of a file of one required column of `physical` type
/// (`length` bytes for FIXED_LEN_BYTE_ARRAY) holding `values`, written by
/// the `parquet` crate with `props`: each page's encoding and values
/// section (a required column has no levels).
pub(super) fn data_pages<T: DataType>(
    physical: PhysicalType,
    length: i32,
    props: WriterProperties,
    values: &[T::T],
) -> Vec<(Encoding, Bytes)> {
    let mut leaf = SchemaType::primitive_type_builder("v", physical).with_repetition(Repetition::REQUIRED);
    if physical == PhysicalType::FIXED_LEN_BYTE_ARRAY {
        leaf = leaf.with_length(length);
    }
    let schema =
        SchemaType::group_type_builder("schema").with_fields(vec![Arc::new(leaf.build().unwrap())]).build().unwrap();
    let mut writer = SerializedFileWriter::new(Vec::new(), Arc::new(schema), Arc::new(props)).unwrap();
    let mut group = writer.next_row_group().unwrap();
    let mut column = group.next_column().unwrap().unwrap();
    column.typed::<T>().write_batch(values, None, None).unwrap();
    column.close().unwrap();
    group.close().unwrap();
    let file = SerializedFileReader::new(Bytes::from(writer.into_inner().unwrap())).unwrap();
    let mut pages = file.get_row_group(0).unwrap().get_column_page_reader(0).unwrap();
    let mut out = Vec::new();
    while let Some(page) = pages.get_next_page().unwrap() {
        match page {
            Page::DataPage { buf, encoding, .. } => out.push((encoding, buf)),
            Page::DataPageV2 { buf, encoding, def_levels_byte_len, rep_levels_byte_len, .. } => {
                out.push((encoding, buf.slice((def_levels_byte_len + rep_levels_byte_len) as usize..)))
            }
            Page::DictionaryPage { .. } => panic!("a dictionary page with dictionaries off"),
        }
    }
    out
}

/// `seed` with one to three random changes: bits flipped, bytes set to
/// values that matter to varints and bit widths, inserted, removed, or the
/// end cut off.
pub(super) fn mutate(rng: &mut Rng, seed: &[u8]) -> Vec<u8> {
    let mut buf = seed.to_vec();
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(buf.len() + 1);
        match rng.below(5) {
            0 if at < buf.len() => buf[at] ^= 1 << rng.below(8),
            1 if at < buf.len() => buf[at] = [0, 1, 2, 31, 32, 33, 63, 64, 65, 0x7f, 0x80, 0xce, 0xff][rng.below(13)],
            2 => buf.insert(at, rng.next_u64() as u8),
            3 if at < buf.len() => {
                buf.remove(at);
            }
            _ => buf.truncate(at),
        }
    }
    buf
}

/// What the `parquet` crate's decoders make of `buf` as the values section
/// of a page of `n` values in `encoding`, of a required column of
/// `physical` type (`length` bytes for FIXED_LEN_BYTE_ARRAY).
pub(super) fn crate_decode(
    encoding: Encoding,
    physical: PhysicalType,
    length: i32,
    buf: &[u8],
    n: u32,
) -> Result<crate::values::ColumnValues, String> {
    use parquet::schema::types::{ColumnDescriptor, ColumnPath};
    let mut leaf = SchemaType::primitive_type_builder("v", physical).with_repetition(Repetition::REQUIRED);
    if physical == PhysicalType::FIXED_LEN_BYTE_ARRAY {
        leaf = leaf.with_length(length);
    }
    let leaf = Arc::new(leaf.build().unwrap());
    let descr = Arc::new(ColumnDescriptor::new(leaf, 0, 0, ColumnPath::new(vec!["v".to_owned()])));
    let page = Page::DataPageV2 {
        buf: Bytes::copy_from_slice(buf),
        num_values: n,
        encoding,
        num_nulls: 0,
        num_rows: n,
        def_levels_byte_len: 0,
        rep_levels_byte_len: 0,
        is_compressed: false,
        statistics: None,
    };
    let pages = super::page_queue::PageQueue::new([page]);
    super::reference::read_all(&descr, Box::new(pages), &mut Vec::new(), &mut Vec::new())
}

/// The files of apache/parquet-testing, when `PARQUET_TEST_DATA` names its
/// `data` directory: every column chunk whose data pages all use the
/// encodings of `delta`, `byte_stream_split` or BIT_PACKED levels is
/// decoded page by page here and compared with what the `parquet` crate
/// reads. Without the variable the test checks nothing.
#[test]
fn parquet_testing_files_decode_like_the_crate() {
    let Some(dir) = std::env::var_os("PARQUET_TEST_DATA") else {
        eprintln!("PARQUET_TEST_DATA is not set: no parquet-testing files checked");
        return;
    };
    let mut checked = std::collections::BTreeMap::<String, usize>::new();
    let mut paths: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    paths.sort();
    for path in paths.into_iter().filter(|p| p.extension().is_some_and(|e| e == "parquet")) {
        let Ok(file) = SerializedFileReader::new(Bytes::from(std::fs::read(&path).unwrap())) else { continue };
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        for g in 0..file.metadata().num_row_groups() {
            let group = file.get_row_group(g).unwrap();
            for c in 0..group.num_columns() {
                let descr = group.metadata().column(c).column_descr_ptr();
                let Ok(mut pages) = group.get_column_page_reader(c) else { continue };
                let mut ours = crate::values::ColumnValues::new(descr.physical_type(), descr.type_length());
                let mut all_ours = true;
                let mut ours_failed = None;
                loop {
                    match pages.get_next_page() {
                        Ok(Some(page)) => match decode_page(&page, &descr, &mut ours) {
                            Ok(Some(kind)) => *checked.entry(format!("{name}: {kind}")).or_default() += 1,
                            Ok(None) => all_ours &= !page.is_data_page(),
                            Err(e) => {
                                ours_failed = Some(e);
                                break;
                            }
                        },
                        Ok(None) => break,
                        // A page the crate cannot read (a damaged file): no comparison.
                        Err(_) => {
                            all_ours = false;
                            break;
                        }
                    }
                }
                if !all_ours {
                    continue;
                }
                let pages = group.get_column_page_reader(c).unwrap();
                let theirs = super::reference::read_all(&descr, pages, &mut Vec::new(), &mut Vec::new());
                match (ours_failed, theirs) {
                    (None, Ok(theirs)) => assert_eq!(values_bytes(&ours), values_bytes(&theirs), "{name} column {c}"),
                    (Some(e), Ok(_)) => panic!("{name} column {c}: the crate reads what we refuse: {e}"),
                    (None, Err(e)) => panic!("{name} column {c}: we read what the crate refuses: {e}"),
                    (Some(e), Err(_)) => eprintln!("{name} column {c}: refused by both: {e}"),
                }
            }
        }
    }
    for (what, pages) in &checked {
        eprintln!("{pages:4} pages: {what}");
    }
}

/// Decodes a data page in one of the encodings under test into `out`,
/// checking its counts; `None` for another page.
fn decode_page(
    page: &Page,
    descr: &parquet::schema::types::ColumnDescriptor,
    out: &mut crate::values::ColumnValues,
) -> Result<Option<String>, String> {
    use crate::values::ColumnValues;
    let (max_def, max_rep) = (descr.max_def_level(), descr.max_rep_level());
    let (buf, n, encoding, levels_end, def) = match page {
        Page::DataPage { buf, num_values, encoding, def_level_encoding, rep_level_encoding, .. } => {
            let mut at = 0;
            let mut def = Vec::new();
            for (max, level_encoding, is_def) in
                [(max_rep, rep_level_encoding, false), (max_def, def_level_encoding, true)]
            {
                if max == 0 {
                    continue;
                }
                let mut levels = Vec::new();
                #[allow(deprecated)]
                if *level_encoding == Encoding::BIT_PACKED {
                    let levels_buf = buf.get(at..).ok_or("levels past the page")?;
                    at += super::bit_packed::decode_bit_packed_levels(
                        levels_buf,
                        *num_values as usize,
                        max,
                        &mut levels,
                    )?;
                } else {
                    let len = buf.get(at..at + 4).ok_or("a level length past the page")?;
                    let len = u32::from_le_bytes(len.try_into().unwrap()) as usize;
                    let width = super::hybrid::bit_width(max as u32);
                    let mut hybrid = super::hybrid::Hybrid::new(at + 4, (at + 4 + len).min(buf.len()), width)?;
                    hybrid.decode_into(buf, *num_values as usize, &mut levels, |v| v as i16)?;
                    at += 4 + len;
                }
                if is_def {
                    def = levels;
                }
            }
            (buf, *num_values as usize, *encoding, at, def)
        }
        Page::DataPageV2 { buf, num_values, encoding, def_levels_byte_len, rep_levels_byte_len, .. } => {
            let start = *rep_levels_byte_len as usize;
            let end = start + *def_levels_byte_len as usize;
            let mut def = Vec::new();
            if max_def > 0 {
                let width = super::hybrid::bit_width(max_def as u32);
                let mut hybrid = super::hybrid::Hybrid::new(start, end.min(buf.len()), width)?;
                hybrid.decode_into(buf, *num_values as usize, &mut def, |v| v as i16)?;
            }
            (buf, *num_values as usize, *encoding, end, def)
        }
        Page::DictionaryPage { .. } => return Ok(None),
    };
    let defined = if max_def > 0 { def.iter().filter(|d| **d == max_def).count() } else { n };
    let values = buf.get(levels_end..).ok_or("levels past the page")?;
    let before = out.len();
    let taken = match (encoding, &mut *out) {
        (Encoding::DELTA_BINARY_PACKED, ColumnValues::I32(v)) => super::delta::decode_binary_packed_i32(values, n, v),
        (Encoding::DELTA_BINARY_PACKED, ColumnValues::I64(v)) => super::delta::decode_binary_packed_i64(values, n, v),
        (Encoding::DELTA_LENGTH_BYTE_ARRAY, ColumnValues::Bytes(b)) => {
            super::delta::decode_length_byte_array(values, n, b)
        }
        (Encoding::DELTA_BYTE_ARRAY, ColumnValues::Bytes(b)) => super::delta::decode_byte_array(values, n, None, b),
        (Encoding::DELTA_BYTE_ARRAY, ColumnValues::Fixed(b, len)) => {
            super::delta::decode_byte_array(values, n, Some(*len), b)
        }
        (Encoding::BYTE_STREAM_SPLIT, out) => {
            super::byte_stream_split::decode_byte_stream_split(values, out).map(|_| values.len())
        }
        _ => return Ok(None),
    };
    let taken = taken?;
    assert_eq!(out.len() - before, defined, "{encoding}: values against defined levels");
    assert_eq!(taken, values.len(), "{encoding}: bytes taken");
    #[allow(deprecated)]
    let bit_packed = matches!(page, Page::DataPage { def_level_encoding: Encoding::BIT_PACKED, .. }) && max_def > 0;
    Ok(Some(format!("{encoding} {}{}", out.kind(), if bit_packed { ", BIT_PACKED levels" } else { "" })))
}

/// Each value's bytes, to compare values of any type.
fn values_bytes(v: &crate::values::ColumnValues) -> Vec<Vec<u8>> {
    use crate::values::ColumnValues;
    match v {
        ColumnValues::I32(v) => v.iter().map(|x| x.to_le_bytes().to_vec()).collect(),
        ColumnValues::I64(v) => v.iter().map(|x| x.to_le_bytes().to_vec()).collect(),
        ColumnValues::F32(v) => v.iter().map(|x| x.to_le_bytes().to_vec()).collect(),
        ColumnValues::F64(v) => v.iter().map(|x| x.to_le_bytes().to_vec()).collect(),
        ColumnValues::Bytes(b) | ColumnValues::Fixed(b, _) => b.split().into_iter().map(<[u8]>::to_vec).collect(),
        ColumnValues::Bool(v) => v.iter().map(|x| vec![u8::from(*x)]).collect(),
        ColumnValues::I96(v) => v.iter().map(|x| format!("{x:?}").into_bytes()).collect(),
    }
}
