//! The dictionary pages the planner asks for: where the footer says a
//! chunk's dictionary lies, whether it can be trusted to hold every value
//! of the chunk, and its values read from a file (or from the ranges a
//! store reader fetched).

use std::ops::Range;
use std::sync::Arc;

use parquet::basic::Encoding;
use parquet::column::page::{Page, PageReader};
use parquet::file::metadata::{ColumnChunkMetaData, ParquetMetaData};
use parquet::file::reader::ChunkReader;
use parquet::file::serialized_reader::SerializedPageReader;

use super::chunk::dictionary_header;
use crate::filter::{Dictionaries, DictionaryPage, DictionaryValues};
use crate::guard::catch;

/// Where the dictionary page of `chunk` lies, when the chunk has one that
/// holds every value of the chunk: every data page dictionary-encoded, as
/// the footer's page encoding statistics say (without them, or with a data
/// page of another encoding, a value may be in no dictionary), and the page
/// at most `max_bytes` (plus its header).
pub(crate) fn dictionary_range(chunk: &ColumnChunkMetaData, max_bytes: u64) -> Option<Range<u64>> {
    let only = |e| chunk.page_encoding_stats_mask().is_some_and(|mask| mask.is_only(e));
    let fully = only(Encoding::RLE_DICTIONARY) || only(Encoding::PLAIN_DICTIONARY);
    let start = u64::try_from(chunk.dictionary_page_offset()?).ok()?;
    let end = u64::try_from(chunk.data_page_offset()).ok()?;
    (fully && start < end && end - start <= max_bytes.saturating_add(MAX_HEADER_BYTES)).then_some(start..end)
}

/// Room for a dictionary page's header beside its body: a Thrift header of
/// a few dozen bytes (page type, sizes, CRC, value count, encoding), with
/// ample margin for fields a writer adds.
const MAX_HEADER_BYTES: u64 = 1024;

/// The dictionary page in `bytes` (all of the page and nothing else), of
/// `chunk`'s column, decompressed; `None` when it does not read as one, or
/// its values are of a type dictionaries do not decide.
fn dictionary_values(bytes: bytes::Bytes, chunk: &ColumnChunkMetaData, max_bytes: u64) -> Option<DictionaryValues> {
    let (count, uncompressed) = dictionary_header(&bytes)?;
    if u64::try_from(uncompressed).ok()? > max_bytes {
        return None;
    }
    let len = i64::try_from(bytes.len()).ok()?;
    // The page alone, as a chunk of one page at offset 0.
    let meta = ColumnChunkMetaData::builder(chunk.column_descr_ptr())
        .set_compression(chunk.compression())
        .set_dictionary_page_offset(Some(0))
        .set_data_page_offset(len)
        .set_total_compressed_size(len)
        .build()
        .ok()?;
    let page =
        catch(|| SerializedPageReader::new(Arc::new(bytes), &meta, 0, None).ok()?.get_next_page().ok()?).ok()??;
    let Page::DictionaryPage { buf, num_values, .. } = page else { return None };
    if num_values != u32::try_from(count).ok()? {
        return None;
    }
    let descr = chunk.column_descr();
    let count = usize::try_from(num_values).ok()?;
    DictionaryPage::new(buf, count, descr.physical_type(), descr.type_length()).map(Arc::new)
}

/// The dictionaries of a file's column chunks, read when asked. One that
/// cannot be read or trusted is treated as absent: it prunes nothing.
pub(super) struct FileDictionaries<'a, R> {
    pub(super) input: &'a R,
    pub(super) file: &'a ParquetMetaData,
    pub(super) max_bytes: u64,
}

impl<R: ChunkReader> Dictionaries for FileDictionaries<'_, R> {
    fn dictionary(&self, group: usize, column: usize) -> Option<DictionaryValues> {
        let chunk = self.file.row_groups().get(group)?.columns().get(column)?;
        let range = dictionary_range(chunk, self.max_bytes)?;
        let length = usize::try_from(range.end - range.start).ok()?;
        let bytes = catch(|| self.input.get_bytes(range.start, length).ok()).ok()??;
        dictionary_values(bytes, chunk, self.max_bytes)
    }
}
