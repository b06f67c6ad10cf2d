//! Pages already in memory, handed to a reader one by one.

use std::collections::VecDeque;

use parquet::column::page::{Page, PageMetadata, PageReader};
use parquet::errors::Result as ParquetResult;

/// A `PageReader` over pages in memory: a page store's column chunks, or a
/// single page given to the `parquet` crate's decoders (and, through
/// `__decode`, the benches' floor and the page-decoding tests and fuzz target).
pub struct PageQueue {
    pages: VecDeque<Page>,
}

impl PageQueue {
    /// A reader handing out `pages` in order.
    pub fn new(pages: impl IntoIterator<Item = Page>) -> Self {
        PageQueue { pages: pages.into_iter().collect() }
    }
}

impl PageReader for PageQueue {
    fn get_next_page(&mut self) -> ParquetResult<Option<Page>> {
        Ok(self.pages.pop_front())
    }

    fn peek_next_page(&mut self) -> ParquetResult<Option<PageMetadata>> {
        Ok(self.pages.front().map(|page| match page {
            Page::DictionaryPage { .. } => PageMetadata { num_rows: None, num_levels: None, is_dict: true },
            Page::DataPageV2 { num_rows, num_values, .. } => PageMetadata {
                num_rows: Some(*num_rows as usize),
                num_levels: Some(*num_values as usize),
                is_dict: false,
            },
            Page::DataPage { num_values, .. } => {
                PageMetadata { num_rows: None, num_levels: Some(*num_values as usize), is_dict: false }
            }
        }))
    }

    fn skip_next_page(&mut self) -> ParquetResult<()> {
        self.pages.pop_front();
        Ok(())
    }
}

impl Iterator for PageQueue {
    type Item = ParquetResult<Page>;

    fn next(&mut self) -> Option<Self::Item> {
        self.get_next_page().transpose()
    }
}
