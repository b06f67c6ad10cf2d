//! A predicate on a column renamed since its data file was written prunes
//! as it would under the file's own name: the scan gives the file's reader
//! the predicate on the name the file has for the field's id, and its
//! counts (row groups and pages skipped) are exactly those of the library's
//! reader on the data file with the old name.

mod common;

use futures::TryStreamExt;
use iceberg::spec::{NestedField, PrimitiveType, Schema, Type};
use iceberg::TableIdent;
use magnolify_iceberg::{TableScan, TableWriter};
use magnolify_parquet::{ParquetType, ReadOptions, ReaderBuilder};

#[derive(ParquetType, Clone, Debug, PartialEq)]
struct Sale {
    id: i64,
    amount: i64,
    region: String,
}

/// The same columns after `amount` was renamed `total`.
#[derive(ParquetType, Clone, Debug, PartialEq)]
struct SaleNow {
    id: i64,
    total: i64,
    region: String,
}

#[tokio::test]
async fn a_predicate_on_a_renamed_column_skips_the_row_groups_and_pages_of_the_old_name() {
    let (_dir, catalog, table) = common::new_table::<Sale>("r", "sales").await;
    let regions = ["a", "b", "c"];
    let sales: Vec<Sale> =
        (0..1000).map(|i| Sale { id: i, amount: i, region: regions[i as usize % 3].into() }).collect();
    // Ten row groups of 100 sales by amount, pages of 20: statistics rule
    // out row groups, the page index pages.
    let mut writer = TableWriter::builder(&table)
        .files(|w| w.max_row_group_rows(100).data_page_rows(20).properties(|p| p.set_write_batch_size(1)))
        .build()
        .unwrap();
    writer.write_all(&sales).await.unwrap();
    let table = writer.commit(&catalog).await.unwrap();

    let old = table.metadata().current_schema().clone();
    let id = |name: &str| old.field_by_name(name).unwrap().id;
    let schema = Schema::builder()
        .with_schema_id(1)
        .with_fields([
            NestedField::required(id("id"), "id", Type::Primitive(PrimitiveType::Long)).into(),
            NestedField::required(id("amount"), "total", Type::Primitive(PrimitiveType::Long)).into(),
            NestedField::required(id("region"), "region", Type::Primitive(PrimitiveType::String)).into(),
        ])
        .build()
        .unwrap();
    let name = TableIdent::from_strs(["r", "sales_renamed"]).unwrap();
    let table = common::evolved(&catalog, &table, schema, &name).await;

    let f = SaleNow::fields();
    let mut scan = TableScan::<SaleNow>::new(&table).filter(f.total.between(250, 420).and(f.region.ne("b"))).stream();
    let mut read = Vec::new();
    while let Some(sale) = scan.try_next().await.unwrap() {
        read.push(sale);
    }
    let expected: Vec<SaleNow> = sales
        .iter()
        .filter(|s| (250..=420).contains(&s.amount) && s.region != "b")
        .map(|s| SaleNow { id: s.id, total: s.amount, region: s.region.clone() })
        .collect();
    assert_eq!(read, expected);

    // The data file read with the name it was written with.
    let files = TableScan::<SaleNow>::new(&table).files().await.unwrap();
    let [file] = &files[..] else { panic!("{} files", files.len()) };
    let bytes = table.file_io().new_input(file).unwrap().read().await.unwrap();
    let g = Sale::fields();
    let options = ReadOptions::default().filter(g.amount.between(250, 420).and(g.region.ne("b")));
    let mut direct = ReaderBuilder::new(bytes).unwrap().build(options).unwrap();
    assert_eq!(direct.by_ref().count(), expected.len());

    let counts = scan.counts();
    assert_eq!(counts, direct.counts());
    // Rows 250 to 420 are in row groups 2 to 4; the page index leaves the
    // 200 rows of the pages from 240 to 440 of their 300.
    assert_eq!((counts.row_groups_read, counts.row_groups_skipped), (3, 7));
    assert_eq!((counts.records_read, counts.records_skipped, counts.records_passed), (200, 100, 114));
    assert!(counts.pages_skipped > 0, "{counts:?}");
}
