//! Nothing is lost and nothing is misaligned when writing fails.
//!
//! A value the schema cannot hold (a decimal beyond its precision, a
//! timestamp outside its unit's range, a failing `with` conversion, bytes of
//! the wrong length for a `[u8; N]`) is an `Err` naming the field, and its
//! record is written entirely or not at all: reading the file back gives
//! exactly the records written before and after it, whatever columns the
//! failed record had already filled and wherever batch, page and row-group
//! boundaries fall. An I/O error leaves the writer unusable, and a file
//! created by `ParquetWriter::create` appears under its name only once closed.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use apache_avro::types::Value;
use avro_baseline::{AvroConverter, AvroOptions};
use bytes::Bytes;
use chrono::{DateTime, NaiveDate, Utc};
use magnolify_parquet::mem::MemPageStore;
use magnolify_parquet::parquet::basic::Compression;
use magnolify_parquet::parquet::file::properties::WriterVersion;
use magnolify_parquet::{Derived, Error, ParquetReader, ParquetType, ParquetWriter, WriterBuilder};
use rust_decimal::Decimal;

/// Stores a `Vec<u8>` as a FIXED_LEN_BYTE_ARRAY(4): a `with` conversion that
/// fails on any other length.
mod four_bytes {
    pub type Repr = [u8; 4];

    pub fn to_parquet(value: &Vec<u8>) -> Result<[u8; 4], String> {
        value.as_slice().try_into().map_err(|_| format!("{} bytes where 4 are needed", value.len()))
    }

    pub fn from_parquet(repr: [u8; 4]) -> Result<Vec<u8>, String> {
        Ok(repr.to_vec())
    }
}

/// A temperature stored in kelvin, refusing values below absolute zero.
mod kelvin {
    pub type Repr = f64;

    pub fn to_parquet(celsius: &f64) -> Result<f64, String> {
        let k = celsius + 273.15;
        if k < 0.0 {
            Err(format!("{celsius} °C is below absolute zero"))
        } else {
            Ok(k)
        }
    }

    pub fn from_parquet(k: f64) -> Result<f64, String> {
        Ok(k - 273.15)
    }
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Line {
    sku: String,
    #[parquet(decimal(precision = 7, scale = 2))]
    price: Decimal,
}

/// Fields that can fail come after fields that cannot, and some fail inside
/// lists and nested groups, so that a failed record has always filled some
/// columns (and some list elements) before the error.
#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Order {
    id: u64,
    customer: Option<String>,
    tags: Vec<String>,
    attrs: BTreeMap<String, i64>,
    lines: Vec<Line>,
    #[parquet(timestamp = "nanos")]
    at: DateTime<Utc>,
    #[parquet(with = "four_bytes")]
    code: Vec<u8>,
    #[parquet(with = "kelvin")]
    temperature: f64,
    #[parquet(decimal(precision = 5, scale = 1))]
    total: Option<Decimal>,
}

fn dec(s: &str) -> Decimal {
    s.parse().expect("decimal")
}

fn good(id: u64) -> Order {
    Order {
        id,
        customer: (!id.is_multiple_of(3)).then(|| format!("c{id}")),
        tags: (0..id % 4).map(|t| format!("t{t}")).collect(),
        attrs: (0..id % 3).map(|k| (format!("k{k}"), (id * 10 + k) as i64)).collect(),
        lines: (0..id % 3).map(|k| Line { sku: format!("s{id}-{k}"), price: dec("12.34") }).collect(),
        at: DateTime::from_timestamp(1_700_000_000 + id as i64, 123).expect("time"),
        code: vec![1, 2, 3, id as u8],
        temperature: 20.5,
        total: id.is_multiple_of(2).then(|| dec("1234.5")),
    }
}

/// The ways a record can fail, each after other columns were filled.
fn failures(id: u64) -> Vec<(Order, &'static str)> {
    let far_future = NaiveDate::from_ymd_opt(2500, 1, 1).expect("date").and_hms_opt(0, 0, 0).expect("time").and_utc();
    vec![
        // The second line's price needs 8 digits: one line is already in.
        (
            Order {
                lines: vec![
                    Line { sku: "ok".into(), price: dec("1.00") },
                    Line { sku: "too big".into(), price: dec("123456.78") },
                ],
                ..good(id)
            },
            "lines.list.element.price",
        ),
        // A price with more fraction digits than the scale.
        (Order { lines: vec![Line { sku: "x".into(), price: dec("0.001") }], ..good(id) }, "lines.list.element.price"),
        // Year 2500 does not fit in i64 nanoseconds.
        (Order { at: far_future, ..good(id) }, "at"),
        // A Vec<u8> of the wrong length for [u8; 4], through `with`.
        (Order { code: vec![1, 2, 3], ..good(id) }, "code"),
        // A failing `with` conversion.
        (Order { temperature: -300.0, ..good(id) }, "temperature"),
        // The last field: every other column of the record is filled.
        (Order { total: Some(dec("99999.9")), ..good(id) }, "total"),
    ]
}

fn read_file(bytes: Bytes) -> Vec<Order> {
    ParquetReader::<Order, _>::new(bytes).expect("open").collect::<Result<_, _>>().expect("read back")
}

#[test]
fn each_failure_names_its_field() {
    for (order, field) in failures(1) {
        let mut w = ParquetWriter::<Order, _>::new(Vec::new()).expect("writer");
        let err = w.write(&order).expect_err(field);
        assert_eq!(err.column(), Some(field), "{err}");
        assert!(matches!(err, Error::Value { .. }), "{field}: {err:?}");
        assert!(err.to_string().contains(field), "{err}");
        assert_eq!(w.rows_written(), 0);
        // The writer goes on, and the file holds no trace of the record.
        w.write(&good(2)).expect("write after a failed record");
        assert_eq!(read_file(Bytes::from(w.into_inner().expect("close"))), [good(2)]);
    }
}

/// Writes good records interleaved with failing ones; returns the good ones.
fn interleave(mut write: impl FnMut(&Order) -> magnolify_parquet::Result<()>, n: u64) -> Vec<Order> {
    let mut expected = Vec::new();
    for id in 0..n {
        let order = good(id);
        write(&order).expect("good record");
        expected.push(order);
        let cases = failures(id);
        let (bad, field) = &cases[id as usize % cases.len()];
        let err = write(bad).expect_err("bad record");
        assert_eq!(err.column(), Some(*field), "{err}");
    }
    expected
}

#[test]
fn failed_records_leave_no_trace_at_any_boundary() {
    // Batches of 1, 2 and 7 records, row groups of 1, 3 and 5, pages of 1 and
    // 2 rows: a failure lands just before, on and after every boundary.
    for batch in [1, 2, 7] {
        for rows in [1, 3, 5] {
            for (codec, version) in [
                (Compression::UNCOMPRESSED, WriterVersion::PARQUET_1_0),
                (Compression::SNAPPY, WriterVersion::PARQUET_2_0),
            ] {
                let mut w = WriterBuilder::<Order>::new()
                    .batch_size(batch)
                    .max_row_group_rows(rows)
                    .data_page_rows(2)
                    .compression(codec)
                    .writer_version(version)
                    .build(Vec::new())
                    .expect("writer");
                let expected = interleave(|o| w.write(o), 23);
                assert_eq!(w.rows_written(), 23);
                let back = read_file(bytes_of(w));
                assert_eq!(back, expected, "batch {batch}, row groups of {rows}, {codec:?}");
            }
        }
    }
}

/// Closes a writer over a `Vec<u8>` and returns the file.
fn bytes_of(w: ParquetWriter<Order, Vec<u8>>) -> Bytes {
    Bytes::from(w.into_inner().expect("close"))
}

#[test]
fn failed_records_leave_no_trace_in_the_page_store() {
    let mut w = MemPageStore::writer(Derived::<Order>::new()).expect("writer");
    let expected = interleave(|o| w.write(o), 17);
    let store = w.close().expect("close");
    assert_eq!(store.num_rows(), 17);
    let back: Vec<Order> = store.read::<Order>().expect("reader").collect::<Result<_, _>>().expect("read");
    assert_eq!(back, expected);
}

#[test]
fn write_all_stops_at_the_first_failure_and_keeps_what_came_before() {
    let (bad, _) = failures(5).remove(0);
    let records = [good(1), good(2), bad, good(4)];
    let mut w = ParquetWriter::<Order, _>::new(Vec::new()).expect("writer");
    let err = w.write_all(&records).expect_err("the third record fails");
    assert_eq!(err.column(), Some("lines.list.element.price"));
    assert_eq!(w.rows_written(), 2);
    w.write(&good(9)).expect("the writer goes on");
    assert_eq!(read_file(bytes_of(w)), [good(1), good(2), good(9)]);
}

// ---------------------------------------------------------------------------
// The Avro baseline
// ---------------------------------------------------------------------------

const AVRO_SCHEMA: &str = r#"{
  "type": "record", "name": "Reading",
  "fields": [
    {"name": "id", "type": "long"},
    {"name": "tags", "type": {"type": "array", "items": "string"}},
    {"name": "amount", "type": {"type": "bytes", "logicalType": "decimal", "precision": 4, "scale": 1}}
  ]
}"#;

fn reading(id: i64, tags: &[&str], amount: Value) -> Value {
    Value::Record(vec![
        ("id".into(), Value::Long(id)),
        ("tags".into(), Value::Array(tags.iter().map(|t| Value::String((*t).into())).collect())),
        ("amount".into(), amount),
    ])
}

#[test]
fn the_avro_converter_rolls_back_too() {
    let converter = AvroConverter::from_json(AVRO_SCHEMA, AvroOptions::default()).expect("schema");
    let mut w = WriterBuilder::with_converter(converter.clone())
        .batch_size(2)
        .max_row_group_rows(3)
        .build(Vec::new())
        .expect("writer");
    let mut expected = Vec::new();
    for id in 0..10 {
        let ok = reading(id, &["a", "b"], Value::Decimal(vec![0x01, 0x00].into()));
        w.write(&ok).expect("good record");
        expected.push(ok);
        // The tags are shredded before the amount fails.
        let wrong = reading(id, &["x", "y", "z"], Value::String("1.0".into()));
        let err = w.write(&wrong).expect_err("a string where a decimal goes");
        assert!(err.to_string().contains("amount"), "{err}");
        // The second tag fails, after the id and the first tag.
        let mut bad_tag = reading(id, &["x"], Value::Decimal(vec![0x01].into()));
        if let Value::Record(fields) = &mut bad_tag {
            fields[1].1 = Value::Array(vec![Value::String("x".into()), Value::Int(3)]);
        }
        let err = w.write(&bad_tag).expect_err("an int among the strings");
        assert!(err.to_string().contains("tags"), "{err}");
    }
    let file = Bytes::from(w.into_inner().expect("close"));
    let back: Vec<Value> =
        ParquetReader::with_converter(converter, file).expect("open").collect::<Result<_, _>>().expect("read");
    assert_eq!(back, expected);
}

// ---------------------------------------------------------------------------
// I/O errors
// ---------------------------------------------------------------------------

/// A sink that accepts `budget` bytes, then fails every write.
struct FailingSink {
    written: Vec<u8>,
    budget: usize,
}

impl Write for FailingSink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.written.len() + buf.len() > self.budget {
            return Err(io::Error::other("disk full"));
        }
        self.written.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn an_io_error_makes_the_writer_unusable() {
    let mut w = WriterBuilder::<Order>::new()
        .batch_size(1)
        .max_row_group_rows(1)
        .build(FailingSink { written: Vec::new(), budget: 64 })
        .expect("the magic fits");
    // The file writer buffers its output, so the error surfaces at some
    // later row group, or at the latest when the footer is written.
    let mut first = None;
    for id in 0..2000 {
        if let Err(e) = w.write(&good(id)) {
            first = Some(e);
            break;
        }
    }
    let first = first.expect("a full sink fails a write");
    assert!(!matches!(first, Error::WriterState { .. }), "the first error is the I/O error itself: {first:?}");
    assert!(first.to_string().contains("disk full"), "{first}");
    // Every later call says why the writer stopped.
    let again = w.write(&good(99)).expect_err("unusable");
    assert!(
        matches!(&again, Error::WriterState { source: Some(why) } if why.to_string().contains("disk full")),
        "{again:?}"
    );
    let close = w.close().expect_err("unusable");
    assert!(
        matches!(&close, Error::WriterState { source: Some(why) } if why.to_string().contains("disk full")),
        "{close:?}"
    );
}

#[test]
fn a_failed_record_does_not_make_the_writer_unusable() {
    let mut w = ParquetWriter::<Order, _>::new(Vec::new()).expect("writer");
    for (bad, _) in failures(3) {
        assert!(matches!(w.write(&bad), Err(Error::Value { .. })));
    }
    w.write(&good(3)).expect("still usable");
    assert_eq!(read_file(bytes_of(w)), [good(3)]);
}

// ---------------------------------------------------------------------------
// Atomic files
// ---------------------------------------------------------------------------

/// A fresh, empty directory for one test.
fn empty_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("magnolify-writer-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    dir
}

/// An empty directory `name` with `orders.parquet` in it holding "the
/// previous version", and that file's path.
fn over_a_previous_version(name: &str) -> (PathBuf, PathBuf) {
    let dir = empty_dir(name);
    let target = dir.join("orders.parquet");
    std::fs::write(&target, b"the previous version").expect("seed");
    (dir, target)
}

fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("list")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_dropped_writer_leaves_no_file_and_no_temporary() {
    let dir = empty_dir("dropped");
    let target = dir.join("orders.parquet");
    {
        let mut w = WriterBuilder::<Order>::new().max_row_group_rows(2).batch_size(1).create(&target).expect("create");
        for id in 0..7 {
            w.write(&good(id)).expect("write");
        }
        // Row groups were written to the temporary file already.
        assert_eq!(entries(&dir).len(), 1, "{:?}", entries(&dir));
        assert!(!target.exists());
    }
    assert!(entries(&dir).is_empty(), "{:?}", entries(&dir));
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

/// The child's part of [`a_dropped_writer_says_so_on_stderr`]: set by the
/// parent, which reads the child's stderr (a test's own is captured).
const DROP_CHILD: &str = "MAGNOLIFY_DROP_CHILD";

/// A writer dropped unclosed says on stderr which file and how many
/// records it discarded; `discard()` and a drop while panicking say nothing.
#[test]
fn a_dropped_writer_says_so_on_stderr() {
    if let Some(dir) = std::env::var_os(DROP_CHILD) {
        let dir = PathBuf::from(dir);
        let mut w = ParquetWriter::<Order, _>::create(dir.join("dropped.parquet")).expect("create");
        w.write_all(&[good(1), good(2), good(3)]).expect("write");
        drop(w);
        let mut w = ParquetWriter::<Order, _>::create(dir.join("discarded.parquet")).expect("create");
        w.write(&good(4)).expect("write");
        w.discard();
        let mut w = ParquetWriter::<Order, _>::new(Vec::new()).expect("over a sink");
        w.write(&good(5)).expect("write");
        drop(w);
        let panicked = std::panic::catch_unwind(|| {
            let mut w = ParquetWriter::<Order, _>::create(dir.join("panicked.parquet")).expect("create");
            w.write(&good(6)).expect("write");
            panic!("while writing");
        });
        assert!(panicked.is_err());
        return;
    }
    let dir = empty_dir("says-so");
    let child = std::process::Command::new(std::env::current_exe().expect("test binary"))
        .args(["writer_integrity::a_dropped_writer_says_so_on_stderr", "--exact", "--nocapture", "--test-threads=1"])
        .env(DROP_CHILD, &dir)
        .output()
        .expect("run the child");
    assert!(child.status.success(), "{child:?}");
    let stderr = String::from_utf8(child.stderr).expect("utf-8");
    let lines: Vec<&str> = stderr.lines().filter(|l| l.starts_with("magnolify-parquet:")).collect();
    let dropped = dir.join("dropped.parquet");
    assert_eq!(
        lines,
        [
            format!(
                "magnolify-parquet: a ParquetWriter for {} was dropped without close(), discarding 3 records: \
                 no file was committed; call close() to write it, or discard() to drop it quietly",
                dropped.display()
            ),
            "magnolify-parquet: a ParquetWriter over a sink was dropped without close(), discarding 1 record: \
             no file was committed; call close() to write it, or discard() to drop it quietly"
                .to_owned(),
        ],
        "{stderr}"
    );
    assert!(entries(&dir).is_empty(), "{:?}", entries(&dir));
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[test]
fn a_dropped_writer_leaves_an_existing_file_untouched() {
    let (dir, target) = over_a_previous_version("untouched");
    {
        let mut w = ParquetWriter::<Order, _>::create(&target).expect("create");
        w.write(&good(1)).expect("write");
    }
    assert_eq!(std::fs::read(&target).expect("read"), b"the previous version");
    assert_eq!(entries(&dir), ["orders.parquet"]);
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[test]
fn a_closed_writer_leaves_exactly_the_complete_file() {
    let (dir, target) = over_a_previous_version("closed");
    let mut w = WriterBuilder::<Order>::new().max_row_group_rows(3).create(&target).expect("create");
    let expected = interleave(|o| w.write(o), 10);
    let meta = w.close().expect("close");
    assert_eq!(meta.file_metadata().num_rows(), 10);
    assert_eq!(meta.num_row_groups(), 4);
    assert_eq!(entries(&dir), ["orders.parquet"]);
    let back: Vec<Order> = ParquetReader::<Order, _>::new(std::fs::File::open(&target).expect("open"))
        .expect("reader")
        .collect::<Result<_, _>>()
        .expect("read");
    assert_eq!(back, expected);
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[test]
fn creating_in_a_missing_directory_is_an_io_error() {
    let scratch = tempfile::Builder::new().prefix("magnolify-missing-").tempdir().expect("dir");
    let target = scratch.path().join("missing").join("x.parquet");
    let err = ParquetWriter::<Order, _>::create(&target).err().expect("no directory");
    assert!(matches!(err, Error::Io { .. }), "{err:?}");
}
