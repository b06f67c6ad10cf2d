//! The `parquet` crate's column reader, as the reference this library's
//! decoders are compared with: by the differential tests, and through the
//! hidden `__decode` API by the fuzz targets. The reader itself never uses
//! it (the crate's decoders allocate what a few damaged bytes claim).

use parquet::column::page::PageReader;
use parquet::column::reader::{get_column_reader, ColumnReader};
use parquet::schema::types::ColumnDescPtr;

use crate::guard::catch;
use crate::values::{ByteBuffer, ColumnValues};

/// Decodes every page of `pages` with the crate's column reader, appending
/// levels to `def` and `rep` (for a column that has them) and returning the
/// values.
pub(crate) fn read_all(
    descr: &ColumnDescPtr,
    pages: Box<dyn PageReader>,
    def: &mut Vec<i16>,
    rep: &mut Vec<i16>,
) -> Result<ColumnValues, String> {
    let reader = get_column_reader(descr.clone(), pages);
    let def = (descr.max_def_level() > 0).then_some(def);
    let rep = (descr.max_rep_level() > 0).then_some(rep);
    let width = usize::try_from(descr.type_length()).unwrap_or(0);
    macro_rules! read {
        ($r:ident, $buffer:expr) => {{
            let mut values = $buffer;
            let mut r = $r;
            catch(|| r.read_records(usize::MAX, def, rep, &mut values))?.map_err(|e| e.to_string())?;
            values
        }};
    }
    let bytes = |values: Vec<_>| {
        values.iter().fold(ByteBuffer::default(), |mut b, v: &parquet::data_type::ByteArray| {
            b.push(v.data());
            b
        })
    };
    Ok(match reader {
        ColumnReader::BoolColumnReader(r) => ColumnValues::Bool(read!(r, Vec::new())),
        ColumnReader::Int32ColumnReader(r) => ColumnValues::I32(read!(r, Vec::new())),
        ColumnReader::Int64ColumnReader(r) => ColumnValues::I64(read!(r, Vec::new())),
        ColumnReader::Int96ColumnReader(r) => ColumnValues::I96(read!(r, Vec::new())),
        ColumnReader::FloatColumnReader(r) => ColumnValues::F32(read!(r, Vec::new())),
        ColumnReader::DoubleColumnReader(r) => ColumnValues::F64(read!(r, Vec::new())),
        ColumnReader::ByteArrayColumnReader(r) => ColumnValues::Bytes(bytes(read!(r, Vec::new()))),
        ColumnReader::FixedLenByteArrayColumnReader(r) => {
            let values: Vec<parquet::data_type::FixedLenByteArray> = read!(r, Vec::new());
            ColumnValues::Fixed(bytes(values.into_iter().map(Into::into).collect()), width)
        }
    })
}
