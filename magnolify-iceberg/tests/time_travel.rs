//! A snapshot reads with the schema it was written with (Iceberg's spec):
//! a column renamed since, and a new column given an old name, after the
//! first snapshot.

mod common;

use iceberg::spec::{NestedField, PrimitiveType, Schema, StructType, Type};
use iceberg::table::Table;
use iceberg::TableIdent;
use magnolify_iceberg::{TableScan, TableWriter};
use magnolify_parquet::ParquetType;

/// The type the table was made of: a sale's `note`, and a struct whose
/// `label` is renamed later.
#[derive(ParquetType, Clone, Debug, PartialEq)]
struct Sale {
    sale_id: i64,
    note: Option<String>,
    detail: Option<Detail>,
}

#[derive(ParquetType, Clone, Debug, PartialEq)]
struct Detail {
    code: i32,
    label: Option<String>,
}

/// The same columns under the names they have after the first snapshot.
#[derive(ParquetType, Clone, Debug, PartialEq)]
struct SaleNow {
    sale_id: i64,
    memo: Option<String>,
    detail: Option<DetailNow>,
}

#[derive(ParquetType, Clone, Debug, PartialEq)]
struct DetailNow {
    code: i32,
    title: Option<String>,
}

/// Every column of the table after the first snapshot: `note` is now a
/// new column of its own, and `tag` was added.
#[derive(ParquetType, Clone, Debug, PartialEq)]
struct SaleLater {
    sale_id: i64,
    memo: Option<String>,
    detail: Option<DetailNow>,
    note: Option<String>,
    tag: Option<String>,
}

/// A column the first snapshot lacks, required.
#[derive(ParquetType, Clone, Debug, PartialEq)]
struct Tagged {
    sale_id: i64,
    tag: String,
}

fn sale(i: i64) -> Sale {
    let note = (i % 7 >= 3).then(|| format!("note {i}"));
    let detail = (i % 5 != 0).then(|| Detail { code: i as i32, label: (i % 2 == 0).then(|| format!("label {i}")) });
    Sale { sale_id: i, note, detail }
}

fn now(sale: &Sale) -> SaleNow {
    let detail = sale.detail.as_ref().map(|d| DetailNow { code: d.code, title: d.label.clone() });
    SaleNow { sale_id: sale.sale_id, memo: sale.note.clone(), detail }
}

/// The table's schema after the first snapshot: `note` renamed `memo` and
/// `detail.label` renamed `title` (same ids), a new `note` and a `tag`.
fn renamed_schema(table: &Table) -> Schema {
    let old = table.metadata().current_schema();
    let id = |name: &str| old.field_by_name(name).unwrap_or_else(|| panic!("no column {name}")).id;
    let string = || Type::Primitive(PrimitiveType::String);
    let detail = StructType::new(vec![
        NestedField::required(id("detail.code"), "code", Type::Primitive(PrimitiveType::Int)).into(),
        NestedField::optional(id("detail.label"), "title", string()).into(),
    ]);
    Schema::builder()
        .with_schema_id(1)
        .with_fields([
            NestedField::required(id("sale_id"), "sale_id", Type::Primitive(PrimitiveType::Long)).into(),
            NestedField::optional(id("note"), "memo", string()).into(),
            NestedField::optional(id("detail"), "detail", Type::Struct(detail)).into(),
            NestedField::optional(100, "note", string()).into(),
            NestedField::optional(101, "tag", string()).into(),
        ])
        .build()
        .expect("the renamed schema")
}

async fn sorted<T>(scan: TableScan<T>, key: impl Fn(&T) -> i64) -> Vec<T>
where
    T: magnolify_parquet::OwnedRecord,
{
    let mut records = scan.collect().await.expect("the scan");
    records.sort_by_key(key);
    records
}

#[tokio::test]
async fn an_old_snapshot_reads_with_its_own_schema_after_renames() {
    let (_dir, catalog, table) = common::new_table::<Sale>("s", "sales").await;
    let first_sales: Vec<Sale> = (0..1000).map(sale).collect();
    let nulls = first_sales.iter().filter(|s| s.note.is_none()).count();
    assert_eq!(nulls, 429, "the test's own data: some notes are null, most are not");
    let mut writer = TableWriter::builder(&table).build().unwrap();
    writer.write_all(&first_sales).await.unwrap();
    let table = writer.commit(&catalog).await.unwrap();
    let first = table.metadata().current_snapshot().unwrap();
    let (first_id, first_ms) = (first.snapshot_id(), first.timestamp_ms());

    let table =
        common::evolved(&catalog, &table, renamed_schema(&table), &TableIdent::from_strs(["s", "sales2"]).unwrap())
            .await;
    let later: Vec<SaleLater> = (1000..1010)
        .map(|i| SaleLater {
            sale_id: i,
            memo: Some(format!("memo {i}")),
            detail: Some(DetailNow { code: i as i32, title: Some(format!("title {i}")) }),
            note: Some(format!("new note {i}")),
            tag: Some(format!("tag {i}")),
        })
        .collect();
    let mut writer = TableWriter::builder(&table).build().unwrap();
    writer.write_all(&later).await.unwrap();
    let table = writer.commit(&catalog).await.unwrap();

    // The first snapshot by id and by time, with the names it had: `note`
    // is the column now called `memo`, not the new `note`.
    let by_id = sorted(TableScan::<Sale>::new(&table).snapshot_id(first_id), |s| s.sale_id).await;
    assert_eq!(by_id, first_sales);
    let by_time = sorted(TableScan::<Sale>::new(&table).as_of_timestamp(first_ms), |s| s.sale_id).await;
    assert_eq!(by_time, first_sales);
    // A filter names the column as the snapshot did.
    let one = TableScan::<Sale>::new(&table).snapshot_id(first_id).filter(Sale::fields().note.eq("note 5".to_owned()));
    assert_eq!(one.collect().await.unwrap(), [sale(5)]);

    // Today's names meet the same columns in the old snapshot by their ids.
    let renamed = sorted(TableScan::<SaleNow>::new(&table).snapshot_id(first_id), |s| s.sale_id).await;
    assert_eq!(renamed, first_sales.iter().map(now).collect::<Vec<_>>());

    // The current snapshot reads with today's schema: `note` is the new
    // column, which the first files lack, and no column is called
    // `detail.label` any more.
    let current = sorted(TableScan::<Sale>::new(&table), |s| s.sale_id).await;
    let unlabelled = |code: i32| Detail { code, label: None };
    let mut expected: Vec<Sale> = first_sales
        .iter()
        .map(|s| Sale { sale_id: s.sale_id, note: None, detail: s.detail.as_ref().map(|d| unlabelled(d.code)) })
        .collect();
    expected.extend(later.iter().map(|l| Sale {
        sale_id: l.sale_id,
        note: l.note.clone(),
        detail: l.detail.as_ref().map(|d| unlabelled(d.code)),
    }));
    assert_eq!(current, expected);

    // A required field the snapshot lacks is an error naming it.
    let err = TableScan::<Tagged>::new(&table).snapshot_id(first_id).collect().await.unwrap_err().to_string();
    assert!(err.contains("required field `tag` is not in the file"), "{err}");
}
