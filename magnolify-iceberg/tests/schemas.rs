//! Record types as Iceberg schemas, and records meeting a table whose
//! schema changed: renamed, widened, dropped and added columns.

mod common;

use std::collections::BTreeMap;

use chrono::{DateTime, NaiveDate, NaiveDateTime, NaiveTime, Utc};
use iceberg::spec::{NestedField, PrimitiveType, Schema, Type};
use iceberg::{Catalog, TableIdent};
use magnolify_iceberg::{create_table, iceberg_schema, Partitioning, TableScan, TableWriter};
use magnolify_parquet::ParquetType;
use rust_decimal::Decimal;

#[derive(ParquetType)]
struct Inner {
    a: i32,
    b: Option<String>,
}

#[derive(ParquetType)]
#[allow(dead_code)]
enum Shape {
    Circle { r: f64 },
    Square(f32),
}

#[derive(ParquetType)]
#[allow(dead_code)]
struct Everything {
    flag: bool,
    tiny: i8,
    small: u16,
    int: i32,
    long: i64,
    single: f32,
    double: f64,
    text: String,
    bytes: Vec<u8>,
    day: NaiveDate,
    #[parquet(timestamp = "micros")]
    time: NaiveTime,
    #[parquet(timestamp = "micros")]
    local: NaiveDateTime,
    #[parquet(timestamp = "micros")]
    instant: DateTime<Utc>,
    #[parquet(timestamp = "nanos")]
    fine: DateTime<Utc>,
    wide: i128,
    inner: Option<Inner>,
    list: Vec<Option<i64>>,
    map: BTreeMap<String, Inner>,
    shape: Shape,
}

/// `ty`'s Iceberg form, as iceberg-rust prints it, field by field.
fn fields_of(schema: &Schema) -> Vec<(i32, String, bool, String)> {
    let mut out = Vec::new();
    for f in schema.as_struct().fields() {
        out.push((f.id, f.name.clone(), f.required, f.field_type.to_string()));
    }
    out
}

#[test]
fn every_type_has_its_iceberg_form_and_ids_as_iceberg_rust_numbers_them() {
    let schema = iceberg_schema::<Everything>().unwrap();
    let p = |ty: PrimitiveType| Type::Primitive(ty).to_string();
    let expected = [
        (1, "flag", true, p(PrimitiveType::Boolean)),
        (2, "tiny", true, p(PrimitiveType::Int)),
        (3, "small", true, p(PrimitiveType::Int)),
        (4, "int", true, p(PrimitiveType::Int)),
        (5, "long", true, p(PrimitiveType::Long)),
        (6, "single", true, p(PrimitiveType::Float)),
        (7, "double", true, p(PrimitiveType::Double)),
        (8, "text", true, p(PrimitiveType::String)),
        (9, "bytes", true, p(PrimitiveType::Binary)),
        (10, "day", true, p(PrimitiveType::Date)),
        (11, "time", true, p(PrimitiveType::Time)),
        (12, "local", true, p(PrimitiveType::Timestamp)),
        (13, "instant", true, p(PrimitiveType::Timestamptz)),
        (14, "fine", true, p(PrimitiveType::TimestamptzNs)),
        (15, "wide", true, p(PrimitiveType::Decimal { precision: 38, scale: 0 })),
    ];
    let got = fields_of(&schema);
    for (i, (id, name, required, ty)) in expected.iter().enumerate() {
        assert_eq!(got[i], (*id, name.to_string(), *required, ty.clone()));
    }
    // Below the top level: the nested fields of each level in order, as
    // iceberg-rust's reassignment gives them.
    let id = |path: &str| schema.field_by_name(path).map(|f| (f.id, f.required));
    assert_eq!(id("inner"), Some((16, false)));
    assert_eq!(id("list"), Some((17, true)));
    assert_eq!(id("map"), Some((18, true)));
    assert_eq!(id("shape"), Some((19, true)));
    assert_eq!(id("inner.a"), Some((20, true)));
    assert_eq!(id("inner.b"), Some((21, false)));
    assert_eq!(id("list.element"), Some((22, false)));
    assert_eq!(id("map.key"), Some((23, true)));
    assert_eq!(id("map.value"), Some((24, true)));
    assert_eq!(id("map.value.a"), Some((25, true)));
    assert_eq!(id("map.value.b"), Some((26, false)));
    // An enum with data is a group of its tag and one optional field per variant.
    let shape = schema.field_by_name("shape").unwrap();
    let Type::Struct(members) = &*shape.field_type else { panic!("{shape:?}") };
    let names: Vec<_> = members.fields().iter().map(|f| (f.name.as_str(), f.required)).collect();
    assert_eq!(names, [("variant", true), ("Circle", false), ("Square", false)]);
}

#[derive(ParquetType)]
#[allow(dead_code)]
struct Unsigned {
    id: u32,
}

#[derive(ParquetType)]
#[allow(dead_code)]
struct Millis {
    #[parquet(timestamp = "millis")]
    at: DateTime<Utc>,
}

#[derive(ParquetType)]
#[allow(dead_code)]
struct Renumbered {
    a: i64,
    #[parquet(field_id = 7)]
    b: i64,
}

#[tokio::test]
async fn types_without_an_iceberg_form_and_ids_iceberg_rust_would_change_are_errors() {
    let err = iceberg_schema::<Unsigned>().unwrap_err().to_string();
    assert_eq!(
        err,
        "field `id`: Iceberg has no unsigned 32- or 64-bit integers: use i64 (or i32 for values below 2^31)"
    );
    let err = iceberg_schema::<Millis>().unwrap_err().to_string();
    assert_eq!(
        err,
        "field `at`: Iceberg timestamps are micro- or nanoseconds: add `#[parquet(timestamp = \"micros\")]`"
    );

    // The type's own ids are kept in its schema; a new table would renumber them.
    let schema = iceberg_schema::<Renumbered>().unwrap();
    assert_eq!(fields_of(&schema).iter().map(|f| f.0).collect::<Vec<_>>(), [1, 7]);
    let (catalog, _dir) = memory_catalog().await;
    let name = TableIdent::from_strs(["s", "renumbered"]).unwrap();
    let err = create_table(&catalog, &name, &Partitioning::<Renumbered>::new()).await.unwrap_err().to_string();
    assert!(
        err.starts_with(
            "field `b`: iceberg-rust numbers a new table's fields itself and would give this field id 2, not 7"
        ),
        "{err}"
    );
    assert!(!catalog.table_exists(&name).await.unwrap(), "nothing was created");
}

async fn memory_catalog() -> (impl Catalog, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    (common::memory_catalog(dir.path(), "s").await, dir)
}

#[derive(ParquetType, Clone, Debug, PartialEq)]
struct Before {
    id: i64,
    count: i32,
    name: String,
    gone: Option<String>,
    ratio: f32,
    #[parquet(decimal(precision = 9, scale = 2))]
    price: Decimal,
}

#[derive(ParquetType, Clone, Debug, PartialEq)]
struct After {
    id: i64,
    count: i64,
    title: String,
    gone: Option<String>,
    extra: Option<String>,
    ratio: f64,
    #[parquet(decimal(precision = 18, scale = 2))]
    price: Decimal,
}

#[tokio::test]
async fn renamed_widened_dropped_and_added_columns_read_by_field_id() {
    let (catalog, _dir) = memory_catalog().await;
    let name = TableIdent::from_strs(["s", "things"]).unwrap();
    let table = create_table(&catalog, &name, &Partitioning::<Before>::new()).await.unwrap();
    let before: Vec<Before> = (0..20)
        .map(|i| Before {
            id: i,
            count: i as i32 * 10,
            name: format!("n{i}"),
            gone: Some(format!("old{i}")),
            ratio: i as f32 / 3.0,
            price: Decimal::new(i * 1_000_001, 2),
        })
        .collect();
    let mut writer = TableWriter::builder(&table).build().unwrap();
    writer.write_all(&before).await.unwrap();
    let table = writer.commit(&catalog).await.unwrap();

    // `name` renamed to `title`, `count` widened to long, `ratio` to
    // double and `price` to decimal(18, 2), `gone` dropped and a new `gone`
    // added (a new id), and `extra` added.
    let schema = Schema::builder()
        .with_schema_id(1)
        .with_fields([
            NestedField::required(1, "id", Type::Primitive(PrimitiveType::Long)).into(),
            NestedField::required(2, "count", Type::Primitive(PrimitiveType::Long)).into(),
            NestedField::required(3, "title", Type::Primitive(PrimitiveType::String)).into(),
            NestedField::optional(7, "gone", Type::Primitive(PrimitiveType::String)).into(),
            NestedField::optional(8, "extra", Type::Primitive(PrimitiveType::String)).into(),
            NestedField::required(5, "ratio", Type::Primitive(PrimitiveType::Double)).into(),
            NestedField::required(6, "price", Type::Primitive(PrimitiveType::Decimal { precision: 18, scale: 2 }))
                .into(),
        ])
        .build()
        .unwrap();
    let renamed = TableIdent::from_strs(["s", "things_now"]).unwrap();
    let table = common::evolved(&catalog, &table, schema, &renamed).await;

    // The old type cannot append any more: its `count` is narrower than the column.
    let err = TableWriter::<Before>::builder(&table).build().unwrap_err().to_string();
    assert_eq!(err, "field `count`: the field is int and the table's column is long: change the field's type");

    let after: Vec<After> = (20..25)
        .map(|i| After {
            id: i,
            count: i << 40,
            title: format!("t{i}"),
            gone: Some(format!("new{i}")),
            extra: Some("x".into()),
            ratio: i as f64 / 7.0,
            price: Decimal::new(i << 40, 2),
        })
        .collect();
    let mut writer = TableWriter::builder(&table).build().unwrap();
    writer.write_all(&after).await.unwrap();
    let table = writer.commit(&catalog).await.unwrap();

    let mut read = TableScan::<After>::new(&table).collect().await.unwrap();
    read.sort_by_key(|r| r.id);
    let mut expected: Vec<After> = before
        .iter()
        .map(|b| After {
            id: b.id,
            count: i64::from(b.count),
            title: b.name.clone(),
            gone: None,
            extra: None,
            ratio: f64::from(b.ratio),
            price: b.price,
        })
        .collect();
    expected.extend(after);
    assert_eq!(read, expected);

    // A filter on a column the old files lack: they hold only nulls of it.
    let nulls = TableScan::<After>::new(&table).filter(After::fields().extra.is_null());
    let mut nulls = nulls.collect().await.unwrap();
    nulls.sort_by_key(|r| r.id);
    assert_eq!(nulls, expected[..20]);
    let set = TableScan::<After>::new(&table).filter(After::fields().extra.eq("x".to_owned()));
    assert_eq!(set.collect().await.unwrap().len(), 5);

    // A filter on the renamed column reads the old files' records too.
    let filtered = TableScan::<After>::new(&table).filter(After::fields().title.eq("n3".to_owned()));
    assert_eq!(filtered.collect().await.unwrap(), [expected[3].clone()]);
}

#[derive(ParquetType, Clone, Debug, PartialEq)]
struct Tick {
    seq: i64,
    #[parquet(timestamp = "nanos")]
    at: DateTime<Utc>,
}

#[tokio::test]
async fn nanosecond_timestamps_make_a_v3_table_that_reads_back_to_the_nanosecond() {
    let (catalog, _dir) = memory_catalog().await;
    let name = TableIdent::from_strs(["s", "ticks"]).unwrap();
    let by_hour = Partitioning::new().hour(&Tick::fields().at);
    let table = create_table(&catalog, &name, &by_hour).await.unwrap();
    assert_eq!(table.metadata().format_version(), iceberg::spec::FormatVersion::V3);
    let ticks: Vec<Tick> = (0..50)
        .map(|seq| Tick { seq, at: DateTime::from_timestamp_nanos(1_700_000_000_123_456_789 + seq * 90_000_000_001) })
        .collect();
    let mut writer = TableWriter::builder(&table).partitioning(by_hour).build().unwrap();
    writer.write_all(&ticks).await.unwrap();
    let table = writer.commit(&catalog).await.unwrap();
    let mut read = TableScan::<Tick>::new(&table).collect().await.unwrap();
    read.sort_by_key(|t| t.seq);
    assert_eq!(read, ticks);
    let later = ticks[40].at;
    let scan = TableScan::<Tick>::new(&table).filter(Tick::fields().at.ge(later));
    assert_eq!(scan.collect().await.unwrap().len(), 10);
}

#[derive(ParquetType, Clone, Debug, PartialEq)]
struct Plain {
    id: i64,
}

#[derive(ParquetType, Clone, Debug, PartialEq)]
struct PlainNow {
    id: i64,
    note: Option<String>,
}

#[tokio::test]
async fn a_filter_on_a_column_added_later_reads_the_older_files_as_nulls() {
    let (catalog, _dir) = memory_catalog().await;
    let name = TableIdent::from_strs(["s", "plain"]).unwrap();
    let table = create_table(&catalog, &name, &Partitioning::<Plain>::new()).await.unwrap();
    let mut writer = TableWriter::builder(&table).build().unwrap();
    writer.write_all(&(0..10).map(|id| Plain { id }).collect::<Vec<_>>()).await.unwrap();
    let table = writer.commit(&catalog).await.unwrap();
    let schema = iceberg_schema::<PlainNow>().unwrap();
    let table = common::evolved(&catalog, &table, schema, &TableIdent::from_strs(["s", "plain_now"]).unwrap()).await;

    let f = PlainNow::fields();
    let nulls = TableScan::<PlainNow>::new(&table).filter(f.note.is_null()).collect().await.unwrap();
    assert_eq!(nulls, (0..10).map(|id| PlainNow { id, note: None }).collect::<Vec<_>>());
    let set = TableScan::<PlainNow>::new(&table).filter(f.note.is_not_null()).collect().await.unwrap();
    assert_eq!(set, []);
}
