//! Columns a file does not store but its reader knows: the partition
//! fields of a dataset's files (their paths give them), a table's defaults
//! for columns added after a file was written. Each holds one value (or
//! null) in every record of the file. Their pages are made here (a dictionary of the one value, and
//! data pages of one run of it), so the decoders and the assembly read
//! them like any other column and every record type, derived or dynamic,
//! gets its partition fields back without code of its own.

use std::sync::Arc;

use bytes::Bytes;
use parquet::basic::{Encoding, Type as Physical};
use parquet::column::page::{Page, PageMetadata, PageReader};
use parquet::errors::Result as ParquetResult;
use parquet::schema::types::{SchemaDescriptor, Type, TypePtr};

use crate::error::{Error, Location, Result};
use crate::read::{BoxedSource, RowGroupSource, SourceLayer};
use crate::write::HybridEncoder;

/// Most records in one made page: far below the reader's level limit.
const PAGE_ROWS: u64 = 1 << 20;

/// A file's schema with constant columns after its own leaves. Cheap to
/// clone (shared).
#[derive(Clone, Debug)]
pub(crate) struct ConstantColumns {
    /// The file's fields, then the constant ones.
    schema: Arc<SchemaDescriptor>,
    /// Index of the first constant column among the leaves.
    first: usize,
    /// Each constant's value, PLAIN-encoded without a length prefix;
    /// `None` for a null.
    values: Arc<[Option<Vec<u8>>]>,
}

impl ConstantColumns {
    /// `file`'s schema with `fields` (top-level primitive nodes, each with
    /// its value) appended.
    pub(crate) fn new(file: &SchemaDescriptor, fields: Vec<(TypePtr, Option<Vec<u8>>)>) -> Result<Self> {
        let root = file.root_schema();
        let mut all = root.get_fields().to_vec();
        let mut values = Vec::with_capacity(fields.len());
        for (field, value) in fields {
            if field.is_group() || field.get_basic_info().repetition() == parquet::basic::Repetition::REPEATED {
                return Err(Error::schema(
                    field.name(),
                    "a constant column (a partition field, a default) must be a single column, not a group or a list",
                ));
            }
            if all.iter().any(|f| f.name() == field.name()) {
                return Err(Error::bug(Location::column(field.name()), "a partition field the file stores too"));
            }
            all.push(field);
            values.push(value);
        }
        let root = Type::group_type_builder(root.name())
            .with_fields(all)
            .build()
            .map_err(|e| Error::schema(root.name(), e.to_string()))?;
        Ok(ConstantColumns {
            schema: Arc::new(SchemaDescriptor::new(Arc::new(root))),
            first: file.num_columns(),
            values: values.into(),
        })
    }

    /// The constant columns of a file whose own schema is `file`, as a
    /// layer over its row groups; of `fields`, those the file stores itself
    /// are read from the file.
    pub(crate) fn layer(
        file: &SchemaDescriptor,
        fields: Vec<(TypePtr, Option<Vec<u8>>)>,
    ) -> Result<Arc<dyn SourceLayer>> {
        let stored = file.root_schema().get_fields();
        let fields = fields.into_iter().filter(|(f, _)| !stored.iter().any(|s| s.name() == f.name())).collect();
        Ok(Arc::new(ConstantColumns::new(file, fields)?))
    }

    /// The file's schema with the constant columns.
    pub(crate) fn schema(&self) -> &Arc<SchemaDescriptor> {
        &self.schema
    }

    /// Whether leaf `column` is a constant one.
    pub(crate) fn holds(&self, column: usize) -> bool {
        column >= self.first
    }

    /// The pages of constant column `column` for a row group of `rows`
    /// records, made as the decoder asks for them (a footer may claim any
    /// number of rows).
    pub(crate) fn pages(&self, column: usize, rows: u64) -> Result<Box<dyn PageReader>> {
        let value = column.checked_sub(self.first).and_then(|i| self.values.get(i));
        let (Some(value), true) = (value, column < self.schema.num_columns()) else {
            return Err(Error::bug(Location::default(), format!("column {column} is not a constant column")));
        };
        let descr = self.schema.column(column);
        let boolean = descr.physical_type() == Physical::BOOLEAN;
        let dictionary = match (value, boolean, rows) {
            (Some(value), false, 1..) => Some(Page::DictionaryPage {
                buf: Bytes::from(plain(descr.physical_type(), value)),
                num_values: 1,
                encoding: Encoding::PLAIN,
                is_sorted: true,
            }),
            _ => None,
        };
        let nullable = descr.max_def_level() > 0;
        Ok(Box::new(ConstantPages { dictionary, left: rows, nullable, boolean, value: value.clone() }))
    }
}

/// The constant columns as a layer over a file's row groups.
impl SourceLayer for ConstantColumns {
    fn schema(&self) -> &Arc<SchemaDescriptor> {
        &self.schema
    }

    fn over(&self, inner: BoxedSource) -> BoxedSource {
        Box::new(WithConstants { inner, constants: self.clone() })
    }
}

/// A source's row groups with the constant columns after its own leaves.
struct WithConstants {
    inner: BoxedSource,
    constants: ConstantColumns,
}

impl RowGroupSource for WithConstants {
    fn schema(&self) -> &Arc<SchemaDescriptor> {
        self.constants.schema()
    }

    fn num_row_groups(&self) -> usize {
        self.inner.num_row_groups()
    }

    fn num_rows(&self, group: usize) -> Result<u64> {
        self.inner.num_rows(group)
    }

    fn pages(&self, group: usize, column: usize) -> Result<Box<dyn PageReader>> {
        match self.constants.holds(column) {
            true => self.constants.pages(column, self.inner.num_rows(group)?),
            false => self.inner.pages(group, column),
        }
    }

    fn max_levels(&self) -> u64 {
        self.inner.max_levels()
    }
}

/// The pages of one constant column, made one at a time.
struct ConstantPages {
    dictionary: Option<Page>,
    /// Records not yet in a page.
    left: u64,
    nullable: bool,
    boolean: bool,
    value: Option<Vec<u8>>,
}

impl ConstantPages {
    /// The next data page: up to [`PAGE_ROWS`] records.
    fn data_page(&mut self) -> Option<Page> {
        if self.left == 0 {
            return None;
        }
        let n = self.left.min(PAGE_ROWS);
        self.left -= n;
        let count = n as usize;
        let mut buf = Vec::new();
        if self.nullable {
            let mut levels = HybridEncoder::new(1);
            levels.put_run(u32::from(self.value.is_some()), count);
            let levels = levels.finish();
            buf.extend_from_slice(&(levels.len() as u32).to_le_bytes());
            buf.extend_from_slice(&levels);
        }
        let encoding = match &self.value {
            None => Encoding::PLAIN,
            Some(v) if self.boolean => {
                let byte = if v.first() == Some(&1) { 0xFF } else { 0 };
                buf.extend(std::iter::repeat_n(byte, count.div_ceil(8)));
                Encoding::PLAIN
            }
            Some(_) => {
                // Every index is 0, the one dictionary entry.
                let mut indices = HybridEncoder::appending(1, vec![1]);
                indices.put_run(0, count);
                buf.extend_from_slice(&indices.finish());
                Encoding::RLE_DICTIONARY
            }
        };
        Some(Page::DataPage {
            buf: Bytes::from(buf),
            num_values: n as u32,
            encoding,
            def_level_encoding: Encoding::RLE,
            rep_level_encoding: Encoding::RLE,
            statistics: None,
        })
    }
}

impl PageReader for ConstantPages {
    fn get_next_page(&mut self) -> ParquetResult<Option<Page>> {
        Ok(self.dictionary.take().or_else(|| self.data_page()))
    }

    fn peek_next_page(&mut self) -> ParquetResult<Option<PageMetadata>> {
        Ok(match (&self.dictionary, self.left) {
            (Some(_), _) => Some(PageMetadata { num_rows: None, num_levels: None, is_dict: true }),
            (None, 0) => None,
            (None, left) => {
                let n = left.min(PAGE_ROWS) as usize;
                Some(PageMetadata { num_rows: Some(n), num_levels: Some(n), is_dict: false })
            }
        })
    }

    fn skip_next_page(&mut self) -> ParquetResult<()> {
        if self.dictionary.take().is_none() {
            self.left -= self.left.min(PAGE_ROWS);
        }
        Ok(())
    }
}

impl Iterator for ConstantPages {
    type Item = ParquetResult<Page>;

    fn next(&mut self) -> Option<Self::Item> {
        self.get_next_page().transpose()
    }
}

/// One value as a PLAIN page holds it.
fn plain(physical: Physical, value: &[u8]) -> Vec<u8> {
    match physical {
        Physical::BYTE_ARRAY => {
            let mut out = (value.len() as u32).to_le_bytes().to_vec();
            out.extend_from_slice(value);
            out
        }
        _ => value.to_vec(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::inspect::{decode_chunk, decode_chunk_with_crate, DecodedChunk};
    use parquet::schema::parser::parse_message_type;

    /// The made pages of one constant column, decoded by this library and
    /// by the `parquet` crate (which must agree: the pages are sound).
    fn decode(field: &str, value: Option<Vec<u8>>, rows: u64) -> DecodedChunk {
        let file = SchemaDescriptor::new(Arc::new(parse_message_type("message m { required int32 a; }").unwrap()));
        let extra = parse_message_type(&format!("message x {{ {field} }}")).unwrap();
        let constants = ConstantColumns::new(&file, vec![(extra.get_fields()[0].clone(), value)]).unwrap();
        assert!(constants.holds(1) && !constants.holds(0));
        let descr = constants.schema().column(1);
        let ours = decode_chunk(descr.clone(), constants.pages(1, rows).unwrap(), 1 << 27).unwrap();
        let theirs = decode_chunk_with_crate(descr, constants.pages(1, rows).unwrap()).unwrap();
        assert_eq!(ours, theirs);
        ours
    }

    #[test]
    fn every_record_holds_the_value() {
        let chunk = decode("optional binary city (STRING);", Some(b"Oslo".to_vec()), 3);
        assert_eq!((chunk.def, chunk.values), (vec![1, 1, 1], vec![b"Oslo".to_vec(); 3]));
        let chunk = decode("required int32 day (DATE);", Some(19_000i32.to_le_bytes().to_vec()), 2);
        assert_eq!(chunk.values, vec![19_000i32.to_le_bytes().to_vec(); 2]);
        let chunk = decode("required boolean b;", Some(vec![1]), 9);
        assert_eq!(chunk.values, vec![vec![1]; 9]);
        let chunk = decode("required boolean b;", Some(vec![0]), 3);
        assert_eq!(chunk.values, vec![vec![0]; 3]);
    }

    #[test]
    fn a_null_value_is_a_null_in_every_record() {
        let chunk = decode("optional int64 n;", None, 4);
        assert_eq!((chunk.def, chunk.values.len()), (vec![0; 4], 0));
    }

    #[test]
    fn pages_are_made_as_they_are_asked_for() {
        // A footer may claim any number of rows: nothing is made up front.
        let file = SchemaDescriptor::new(Arc::new(parse_message_type("message m { required int32 a; }").unwrap()));
        let field = parse_message_type("message x { required int64 n; }").unwrap().get_fields()[0].clone();
        let constants = ConstantColumns::new(&file, vec![(field, Some(vec![0; 8]))]).unwrap();
        let mut pages = constants.pages(1, u64::MAX).unwrap();
        assert!(pages.peek_next_page().unwrap().unwrap().is_dict);
        assert!(matches!(pages.get_next_page().unwrap(), Some(Page::DictionaryPage { .. })));
        assert_eq!(pages.peek_next_page().unwrap().unwrap().num_rows, Some(PAGE_ROWS as usize));
        assert!(
            matches!(pages.get_next_page().unwrap(), Some(Page::DataPage { num_values, .. }) if num_values as u64 == PAGE_ROWS)
        );
        assert!(constants.pages(1, 0).unwrap().get_next_page().unwrap().is_none());
    }

    #[test]
    fn large_row_groups_take_several_pages() {
        let chunk = decode("required int64 n;", Some(7i64.to_le_bytes().to_vec()), PAGE_ROWS + 5);
        assert_eq!(chunk.values.len() as u64, PAGE_ROWS + 5);
    }

    #[test]
    fn a_field_the_file_stores_or_a_group_is_refused() {
        let file = SchemaDescriptor::new(Arc::new(parse_message_type("message m { required int32 a; }").unwrap()));
        let a = parse_message_type("message x { required int32 a; }").unwrap().get_fields()[0].clone();
        assert!(ConstantColumns::new(&file, vec![(a, None)]).is_err());
        let g =
            parse_message_type("message x { required group g { required int32 b; } }").unwrap().get_fields()[0].clone();
        assert!(ConstantColumns::new(&file, vec![(g, None)]).is_err());
    }
}
