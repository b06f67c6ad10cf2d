//! The floor's own page store: what a hand-written program would put under
//! the `parquet` crate's column writers and readers to keep pages in memory.
//! It behaves as `magnolify_parquet::mem` does (uncompressed pages, replayed
//! in order by the library's own `PageQueue`), so the floor and the library
//! pay for the same page path.

use std::sync::{Arc, Mutex, PoisonError};

use parquet::column::page::{CompressedPage, Page, PageWriteSpec, PageWriter};
use parquet::errors::Result;

/// Pages of one column, shared between its writer and whoever collects them.
pub type SharedPages = Arc<Mutex<Vec<Page>>>;

/// Keeps every page a column writer produces.
pub struct PageCollector {
    pages: SharedPages,
    offset: u64,
}

impl PageCollector {
    /// A collector appending to `pages`.
    pub fn new(pages: SharedPages) -> Self {
        PageCollector { pages, offset: 0 }
    }
}

/// The pages collected so far, taken out of `pages`.
pub fn take(pages: &SharedPages) -> Vec<Page> {
    std::mem::take(&mut *pages.lock().unwrap_or_else(PoisonError::into_inner))
}

impl PageWriter for PageCollector {
    fn write_page(&mut self, page: CompressedPage) -> Result<PageWriteSpec> {
        let mut spec = PageWriteSpec::new();
        spec.page_type = page.page_type();
        spec.uncompressed_size = page.uncompressed_size();
        spec.compressed_size = page.compressed_size();
        spec.num_values = page.num_values();
        spec.offset = self.offset;
        spec.bytes_written = page.compressed_size() as u64;
        self.offset += spec.bytes_written;
        self.pages.lock().unwrap_or_else(PoisonError::into_inner).push(page.compressed_page().clone());
        Ok(spec)
    }

    fn close(&mut self) -> Result<()> {
        Ok(())
    }
}
