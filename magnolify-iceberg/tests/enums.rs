//! Enums in a table: their symbols are strings to every engine, as the
//! table's `string` columns say (annotated STRING in the data files, not
//! ENUM, which pyarrow reads as binary).

mod common;

use magnolify_iceberg::{TableScan, TableWriter};
use magnolify_parquet::parquet::basic::LogicalType;
use magnolify_parquet::{ParquetType, ReaderBuilder};

#[derive(ParquetType, Clone, Copy, Debug, PartialEq)]
enum Status {
    Placed,
    Shipped,
    Returned,
}

#[derive(ParquetType, Clone, Debug, PartialEq)]
enum Payment {
    Card { last4: String },
    Cash,
    Voucher(i64),
}

#[derive(ParquetType, Clone, Debug, PartialEq)]
struct Order {
    id: i64,
    status: Status,
    payment: Payment,
    returned: Option<Status>,
}

fn order(id: i64) -> Order {
    let status = [Status::Placed, Status::Shipped, Status::Returned][id as usize % 3];
    let payment = match id % 3 {
        0 => Payment::Card { last4: format!("{:04}", id * 7) },
        1 => Payment::Cash,
        _ => Payment::Voucher(id * 100),
    };
    Order { id, status, payment, returned: (status == Status::Returned).then_some(Status::Returned) }
}

#[tokio::test]
async fn enum_symbols_are_written_as_strings_and_read_back() {
    let (_dir, catalog, table) = common::new_table::<Order>("e", "orders").await;
    let orders: Vec<Order> = (0..30).map(order).collect();
    let mut writer = TableWriter::builder(&table).build().unwrap();
    writer.write_all(&orders).await.unwrap();
    let table = writer.commit(&catalog).await.unwrap();

    let files = TableScan::<Order>::new(&table).files().await.unwrap();
    let [file] = &files[..] else { panic!("{files:?}") };
    let bytes = bytes::Bytes::from(std::fs::read(file.trim_start_matches("file://")).unwrap());
    let schema = ReaderBuilder::new(bytes).unwrap().schema().clone();
    let annotations: Vec<(String, Option<LogicalType>)> = schema
        .columns()
        .iter()
        .map(|c| (c.path().string(), c.self_type().get_basic_info().logical_type_ref().cloned()))
        .filter(|(path, _)| ["status", "payment.variant", "returned"].contains(&path.as_str()))
        .collect();
    let text = Some(LogicalType::String);
    let expected = [
        ("status".to_owned(), text.clone()),
        ("payment.variant".to_owned(), text.clone()),
        ("returned".to_owned(), text),
    ];
    assert_eq!(annotations, expected);

    let mut read = TableScan::<Order>::new(&table).collect().await.unwrap();
    read.sort_by_key(|o| o.id);
    assert_eq!(read, orders);
    let f = Order::fields();
    let shipped = TableScan::<Order>::new(&table).filter(f.status.eq(Status::Shipped)).collect().await.unwrap();
    assert_eq!(shipped, orders.iter().filter(|o| o.status == Status::Shipped).cloned().collect::<Vec<_>>());
}
