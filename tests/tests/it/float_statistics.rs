//! Float statistics that every reader can use: our files declare the
//! type-defined column order for FLOAT and DOUBLE columns (the `parquet`
//! crate declares IEEE 754 total order, which readers before
//! parquet-format 2.12, pyarrow 26 among them, ignore), with NaN kept out
//! of min and max and the zeros widened; and the library prunes by float
//! statistics in either order (it ignored both before).

use std::sync::Arc;

use bytes::Bytes;
use magnolify_parquet::parquet::basic::{ColumnOrder, SortOrder};
use magnolify_parquet::parquet::data_type::DoubleType;
use magnolify_parquet::parquet::file::metadata::ParquetMetaDataReader;
use magnolify_parquet::parquet::file::properties::WriterProperties;
use magnolify_parquet::parquet::file::statistics::Statistics;
use magnolify_parquet::parquet::file::writer::SerializedFileWriter;
use magnolify_parquet::parquet::schema::parser::parse_message_type;
use magnolify_parquet::{ParquetType, ReadOptions, ReaderBuilder, WriterBuilder};

#[derive(ParquetType, Clone, Debug, PartialEq)]
struct Reading {
    id: i64,
    value: f64,
    ratio: f32,
}

/// 10 row groups of 100: `value` is the id, but the first is +0.0 and the
/// second -0.0; `ratio` is NaN throughout row group 3 and in every tenth
/// record.
fn readings() -> Vec<Reading> {
    (0..1000)
        .map(|id| Reading {
            id,
            value: if id == 1 { -0.0 } else { id as f64 },
            ratio: if id / 100 == 3 || id % 10 == 5 { f32::NAN } else { id as f32 / 1000.0 },
        })
        .collect()
}

fn file(records: &[Reading]) -> Bytes {
    let mut writer = WriterBuilder::<Reading>::new().max_row_group_rows(100).build(Vec::new()).unwrap();
    writer.write_all(records).unwrap();
    Bytes::from(writer.into_inner().unwrap())
}

#[test]
fn float_columns_declare_the_type_defined_order_with_nan_out_and_zeros_widened() {
    let bytes = file(&readings());
    let metadata = ParquetMetaDataReader::new().parse_and_finish(&bytes).unwrap();
    let orders: Vec<ColumnOrder> = (0..3).map(|i| metadata.file_metadata().column_order(i)).collect();
    assert_eq!(orders, [ColumnOrder::TYPE_DEFINED_ORDER(SortOrder::SIGNED); 3]);

    let stats = |group: usize, column: usize| metadata.row_group(group).column(column).statistics().unwrap().clone();
    // Row group 0: values +0.0, -0.0, 2.0 .. 99.0: the min is -0.0.
    let Statistics::Double(value) = stats(0, 1) else { panic!("a double column") };
    assert_eq!((value.min_opt().map(|v| v.to_bits()), value.max_opt()), (Some((-0.0f64).to_bits()), Some(&99.0)));
    // NaN only: a NaN count and no min or max.
    let Statistics::Float(ratio) = stats(3, 2) else { panic!("a float column") };
    assert_eq!((ratio.min_opt(), ratio.max_opt(), ratio.nan_count_opt()), (None, None, Some(100)));
    // NaN among numbers: left out of the bounds.
    let Statistics::Float(ratio) = stats(4, 2) else { panic!("a float column") };
    assert_eq!((ratio.min_opt(), ratio.max_opt(), ratio.nan_count_opt()), (Some(&0.4), Some(&0.499), Some(10)));

    // The library prunes by them: 9 of 10 row groups skipped.
    let filter = Reading::fields().value.ge(950.0);
    let mut reader = ReaderBuilder::new(bytes.clone()).unwrap().build(ReadOptions::default().filter(filter)).unwrap();
    let ids: Vec<i64> = reader.by_ref().map(|r| r.unwrap().id).collect();
    assert_eq!(ids, (950..1000).collect::<Vec<_>>());
    let counts = reader.counts();
    assert_eq!((counts.row_groups_read, counts.row_groups_skipped), (1, 9));
    // A zero compares equal to both zeros, whichever the bounds hold.
    let zeros = Reading::fields().value.eq(0.0);
    let mut reader = ReaderBuilder::new(bytes.clone()).unwrap().build(ReadOptions::default().filter(zeros)).unwrap();
    let ids: Vec<i64> = reader.by_ref().map(|r| r.unwrap().id).collect();
    assert_eq!((ids, reader.counts().row_groups_skipped), (vec![0, 1], 9));
    // The NaN-only row group has no bounds: read, and none of it passes.
    let small = Reading::fields().ratio.lt(0.35);
    let reader = ReaderBuilder::new(bytes).unwrap().build(ReadOptions::default().filter(small)).unwrap();
    let ids: Vec<i64> = reader.map(|r| r.unwrap().id).collect();
    let expected: Vec<i64> = readings().iter().filter(|r| r.ratio < 0.35).map(|r| r.id).collect();
    assert_eq!(ids, expected);
}

/// A file the `parquet` crate wrote: `x` in two row groups, in IEEE 754
/// total order (its default), the second holding -0.0 as its min.
fn total_order_file() -> Bytes {
    let schema = Arc::new(parse_message_type("message m { required double x; }").unwrap());
    let mut out = Vec::new();
    let mut file = SerializedFileWriter::new(&mut out, schema, Arc::new(WriterProperties::builder().build())).unwrap();
    for values in [[0.5, 1.0, 2.0], [10.0, -0.0, 11.0]] {
        let mut group = file.next_row_group().unwrap();
        let mut column = group.next_column().unwrap().unwrap();
        column.typed::<DoubleType>().write_batch(&values, None, None).unwrap();
        column.close().unwrap();
        group.close().unwrap();
    }
    file.close().unwrap();
    Bytes::from(out)
}

#[derive(ParquetType, Debug, PartialEq)]
struct X {
    x: f64,
}

#[test]
fn files_in_total_order_prune_by_their_float_bounds() {
    let bytes = total_order_file();
    let metadata = ParquetMetaDataReader::new().parse_and_finish(&bytes).unwrap();
    assert_eq!(metadata.file_metadata().column_order(0), ColumnOrder::IEEE_754_TOTAL_ORDER);
    let read = |filter: magnolify_parquet::filter::Predicate<X>| {
        let mut reader =
            ReaderBuilder::new(bytes.clone()).unwrap().build(ReadOptions::default().filter(filter)).unwrap();
        let xs: Vec<f64> = reader.by_ref().map(|r| r.unwrap().x).collect();
        (xs, reader.counts().row_groups_skipped)
    };
    assert_eq!(read(X::fields().x.ge(5.0)), (vec![10.0, 11.0], 1));
    // +0.0 is within the second group's bounds (-0.0 to 11.0) as a number.
    let (zeros, skipped) = read(X::fields().x.eq(0.0));
    assert_eq!((zeros.len(), zeros[0].to_bits(), skipped), (1, (-0.0f64).to_bits(), 1));
}
