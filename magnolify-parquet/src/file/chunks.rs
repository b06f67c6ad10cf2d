//! The file as a [`ChunkSink`]: each column's pages are serialized (headers
//! included) into an in-memory chunk while the row group is written, and
//! the finished row group's chunks are spliced into the file. Memory stays
//! about one encoded row group, whatever the file's size.

use std::io::{self, Write};
use std::sync::{Arc, Mutex, PoisonError};

use bytes::Bytes;
use parquet::column::page::{CompressedPage, PageWriteSpec, PageWriter};
use parquet::column::writer::ColumnCloseResult;
use parquet::errors::{ParquetError, Result as ParquetResult};
use parquet::file::metadata::ParquetMetaData;
use parquet::file::writer::{SerializedFileWriter, SerializedPageWriter, TrackedWrite};

use super::{column_orders, page_crc};
use crate::error::{Error, Location, Result};
use crate::write::ChunkSink;

type SharedChunk = Arc<Mutex<TrackedWrite<Vec<u8>>>>;

/// Bytes of scratch a page writer keeps between pages: small pages reuse
/// it, a large one allocates its own.
const SCRATCH_KEPT: usize = 64 << 10;

/// Serializes pages (headers included) into a column chunk in memory.
struct ChunkPageWriter {
    chunk: SharedChunk,
    /// Whether headers carry the CRC32 of their page.
    checksums: bool,
    /// A page as the crate serializes it, before its checksum goes in
    /// (made at the first page, when checksums are on).
    scratch: Option<TrackedWrite<Vec<u8>>>,
    header: Vec<u8>,
}

impl PageWriter for ChunkPageWriter {
    fn write_page(&mut self, page: CompressedPage) -> ParquetResult<PageWriteSpec> {
        let mut chunk = self.chunk.lock().unwrap_or_else(PoisonError::into_inner);
        if !self.checksums {
            return SerializedPageWriter::new(&mut chunk).write_page(page);
        }
        // Over the page's bytes as stored (compressed), as the format says.
        let (crc, data_len) = (crc32fast::hash(page.data()), page.data().len());
        let scratch = self.scratch.get_or_insert_with(|| TrackedWrite::new(Vec::new()));
        let mut spec = SerializedPageWriter::new(scratch).write_page(page)?;
        // `TrackedWrite` buffers: the bytes reach the vector on flush.
        scratch.flush()?;
        let serialized = scratch.inner_mut();
        let (header, data) = serialized.split_at(serialized.len() - data_len);
        self.header.clear();
        page_crc::with_crc(header, crc, &mut self.header).ok_or_else(|| {
            ParquetError::General("the parquet crate wrote a page header of an unknown layout".into())
        })?;
        let added = self.header.len() - header.len();
        spec.offset = chunk.bytes_written() as u64;
        chunk.write_all(&self.header)?;
        chunk.write_all(data)?;
        // Every column of a row group has its page writer open at once:
        // what a large page left in the scratch buffer is given back.
        serialized.clear();
        serialized.shrink_to(SCRATCH_KEPT);
        spec.uncompressed_size += added;
        spec.compressed_size += added;
        spec.bytes_written += added as u64;
        Ok(spec)
    }

    fn close(&mut self) -> ParquetResult<()> {
        Ok(())
    }
}

/// A Parquet file being written into `W`, row group by row group.
pub(crate) struct FileChunks<W: Write + Send> {
    file: SerializedFileWriter<Sink<W>>,
    /// The chunks of the row group being written, per leaf column.
    open: Vec<SharedChunk>,
    /// Whether page headers carry the CRC32 of their page.
    checksums: bool,
}

impl<W: Write + Send> FileChunks<W> {
    pub(crate) fn new(file: SerializedFileWriter<Sink<W>>, checksums: bool) -> Self {
        FileChunks { file, open: Vec::new(), checksums }
    }

    /// Bytes in the file so far and in the pages of the open row group
    /// (those still inside the column encoders not counted).
    pub(crate) fn bytes_written(&self) -> u64 {
        let open = self.open.iter().map(|c| c.lock().unwrap_or_else(PoisonError::into_inner).bytes_written() as u64);
        self.file.bytes_written() as u64 + open.sum::<u64>()
    }

    /// Writes the footer, its float columns declared in the type-defined
    /// order (`column_orders`), and hands back the sink.
    pub(crate) fn finish(&mut self) -> Result<(ParquetMetaData, W)> {
        // What the crate writes from here on (the page indexes and the
        // footer) is held until the footer is patched.
        self.file.inner_mut().tail = Some(Vec::new());
        let meta = self.file.finish().map_err(|e| Error::parquet(Location::footer(), e))?;
        let sink = self.file.inner_mut();
        let mut tail = sink.tail.take().unwrap_or_default();
        declare_type_defined_floats(&mut tail);
        sink.emit_all(&tail)?;
        let sink = sink.take().ok_or(Error::WriterState { source: None })?;
        Ok((meta, sink))
    }
}

impl<W: Write + Send> ChunkSink for FileChunks<W> {
    fn page_writer(&mut self, column: usize) -> Box<dyn PageWriter + Send> {
        if column == 0 {
            self.open.clear();
        }
        let chunk = Arc::new(Mutex::new(TrackedWrite::new(Vec::new())));
        self.open.push(chunk.clone());
        Box::new(ChunkPageWriter { chunk, checksums: self.checksums, scratch: None, header: Vec::new() })
    }

    fn end_row_group(&mut self, _rows: usize, columns: Vec<ColumnCloseResult>) -> Result<()> {
        let mut row_group = self.file.next_row_group()?;
        for (chunk, result) in self.open.drain(..).zip(columns) {
            let bytes = {
                let mut chunk = chunk.lock().unwrap_or_else(PoisonError::into_inner);
                chunk.flush()?;
                Bytes::from(std::mem::take(chunk.inner_mut()))
            };
            row_group.append_column(&bytes, result)?;
        }
        row_group.close()?;
        Ok(())
    }
}

/// Patches the footer at the end of `tail` (metadata, its length, `PAR1`):
/// see `column_orders`. Bytes it does not know are left as they are (a
/// sound file whose float statistics older readers ignore), which only a
/// change of the `parquet` crate's footer could cause: the tests, in debug
/// builds, catch it.
fn declare_type_defined_floats(tail: &mut [u8]) {
    let Some(length_at) = tail.len().checked_sub(8) else { return };
    let length = u32::from_le_bytes([tail[length_at], tail[length_at + 1], tail[length_at + 2], tail[length_at + 3]]);
    let Some(start) = length_at.checked_sub(length as usize) else { return };
    let patched = column_orders::type_defined_floats(&mut tail[start..length_at]);
    debug_assert!(patched.is_ok(), "the footer's column orders: {patched:?}");
}

/// The caller's sink, taken back out of the file writer once the footer is
/// written (the `parquet` crate only hands it back by writing the footer
/// again). The file's leading magic is held back until more bytes follow
/// (a row group, or the footer at `close`): a writer dropped before either
/// leaves its sink empty, not a 4-byte file that reads as damaged.
pub(crate) struct Sink<W> {
    inner: Option<W>,
    /// The leading bytes held back; `None` once written.
    head: Option<Vec<u8>>,
    /// While the footer is written: the bytes held until it is patched.
    tail: Option<Vec<u8>>,
}

/// The bytes held back: the leading `PAR1`.
const HELD: usize = 4;

impl<W: Write> Sink<W> {
    pub(crate) fn new(inner: W) -> Self {
        Sink { inner: Some(inner), head: Some(Vec::with_capacity(HELD)), tail: None }
    }

    /// The caller's sink, once the file is written.
    pub(crate) fn take(&mut self) -> Option<W> {
        self.inner.take()
    }

    fn inner(&mut self) -> io::Result<&mut W> {
        self.inner.as_mut().ok_or_else(|| io::Error::other("the sink was taken"))
    }

    /// Writes `buf` past the head: to the held tail while there is one.
    fn emit(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.tail {
            Some(tail) => {
                tail.extend_from_slice(buf);
                Ok(buf.len())
            }
            None => self.inner()?.write(buf),
        }
    }

    fn emit_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match &mut self.tail {
            Some(tail) => {
                tail.extend_from_slice(buf);
                Ok(())
            }
            None => self.inner()?.write_all(buf),
        }
    }
}

impl<W: Write> Write for Sink<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if let Some(head) = &mut self.head {
            if head.len() < HELD {
                let taken = (HELD - head.len()).min(buf.len());
                head.extend_from_slice(&buf[..taken]);
                return Ok(taken);
            }
            // Bytes after the head: the head goes first.
            let head = std::mem::take(head);
            self.emit_all(&head)?;
            self.head = None;
        }
        self.emit(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        // A flush alone does not write the head.
        self.inner.as_mut().map_or(Ok(()), Write::flush)
    }
}
