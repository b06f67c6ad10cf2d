//! The writers' rules that the one record writer gives every sink: a file
//! made by `create` is never lost, row-group settings are honoured however
//! they are given, `flush` ends a row group, and the page store breaks on an
//! encoding error exactly as a file writer does.

use std::path::PathBuf;

use bytes::Bytes;
use magnolify_parquet::convert::{ColumnSink, RecordSchema, RecordWrite, WriteAt};
use magnolify_parquet::engines::Engine;
use magnolify_parquet::mem::MemPageStore;
use magnolify_parquet::parquet::schema::parser::parse_message_type;
use magnolify_parquet::parquet::schema::types::TypePtr;
use magnolify_parquet::{Error, ParquetReader, ParquetType, ParquetWriter, ReaderBuilder, WriterBuilder};
use test_kit::io::file_with;

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Event {
    id: u32,
    name: String,
}

fn events(n: u32) -> Vec<Event> {
    (0..n).map(|id| Event { id, name: format!("e{id}") }).collect()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("magnolify-rules-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn row_group_sizes(file: Bytes) -> Vec<i64> {
    let builder = ReaderBuilder::new(file).expect("footer");
    builder.metadata().row_groups().iter().map(|g| g.num_rows()).collect()
}

#[test]
fn into_inner_of_a_created_file_keeps_the_file() {
    let dir = scratch("into-inner");
    let path = dir.join("events.parquet");
    let mut w = ParquetWriter::<Event, _>::create(&path).expect("create");
    w.write_all(&events(3)).expect("write");
    let file = w.into_inner().expect("into_inner");
    assert!(file.is_committed());
    assert_eq!(file.path(), path);
    drop(file);
    // The file is at its name after the handle is gone, and whole.
    let back: Vec<Event> = ParquetReader::<Event, _>::new(std::fs::File::open(&path).expect("the file stays"))
        .expect("open")
        .collect::<Result<_, _>>()
        .expect("read");
    assert_eq!(back, events(3));
    let names: Vec<_> = std::fs::read_dir(&dir).expect("dir").map(|e| e.expect("entry").file_name()).collect();
    assert_eq!(names, ["events.parquet"], "no temporary file is left");
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[test]
fn a_row_group_size_set_through_the_properties_is_honoured() {
    let mut w = WriterBuilder::<Event>::new()
        .properties(|p| p.set_max_row_group_row_count(Some(4)))
        .build(Vec::new())
        .expect("writer");
    w.write_all(&events(10)).expect("write");
    assert_eq!(row_group_sizes(Bytes::from(w.into_inner().expect("close"))), [4, 4, 2]);
}

#[test]
fn a_byte_size_set_through_the_properties_is_honoured() {
    // Each record shreds to about 12 raw bytes (4 of `id`, 4 + 4 of `name`):
    // a 100-byte limit closes a row group every 9 records or so.
    let mut w = WriterBuilder::<Event>::new()
        .properties(|p| p.set_max_row_group_bytes(Some(100)))
        .batch_size(1)
        .build(Vec::new())
        .expect("writer");
    w.write_all(&events(30)).expect("write");
    let sizes = row_group_sizes(Bytes::from(w.into_inner().expect("close")));
    assert!(sizes.len() >= 3, "{sizes:?}");
    assert_eq!(sizes.iter().sum::<i64>(), 30);
}

#[test]
fn flush_ends_the_row_group() {
    let mut w = ParquetWriter::<Event, _>::new(Vec::new()).expect("writer");
    w.write_all(&events(3)).expect("write");
    w.flush().expect("flush");
    w.flush().expect("a second flush adds no empty row group");
    w.write_all(&events(2)).expect("write");
    let file = Bytes::from(w.into_inner().expect("close"));
    assert_eq!(row_group_sizes(file.clone()), [3, 2]);
    let back: Vec<Event> = ParquetReader::<Event, _>::new(file).expect("open").collect::<Result<_, _>>().expect("read");
    assert_eq!(back, [events(3), events(2)].concat());
}

/// Records of two required INT32 columns; record `bad` writes a definition
/// level the schema does not have into the second column: a converter bug
/// that the column writers only see when the batch is encoded.
struct LevelBug {
    bad: u32,
}

impl RecordSchema for LevelBug {
    fn schema(&self) -> magnolify_parquet::Result<TypePtr> {
        let message = parse_message_type("message m { required int32 a; optional int32 b; }").expect("schema");
        Ok(std::sync::Arc::new(message))
    }
}

impl RecordWrite for LevelBug {
    type Record<'a> = u32;
    fn write(&self, record: &u32, sink: &mut ColumnSink) -> magnolify_parquet::Result<()> {
        sink.push_i32(WriteAt::ROOT, *record as i32)?;
        let b = WriteAt::ROOT.skip_leaves(1).defined();
        // Definition level 2 where the column's maximum is 1.
        let b = if *record == self.bad { b.defined() } else { b };
        sink.push_i32(b, 1)
    }
}

/// Like [`LevelBug`], but record `bad` pushes a value together with a null
/// level (definition 0) into the optional column: a value without its level.
struct ValueForNull {
    bad: u32,
}

impl RecordSchema for ValueForNull {
    fn schema(&self) -> magnolify_parquet::Result<TypePtr> {
        LevelBug { bad: self.bad }.schema()
    }
}

impl RecordWrite for ValueForNull {
    type Record<'a> = u32;
    fn write(&self, record: &u32, sink: &mut ColumnSink) -> magnolify_parquet::Result<()> {
        sink.push_i32(WriteAt::ROOT, *record as i32)?;
        let b = WriteAt::ROOT.skip_leaves(1);
        let b = if *record == self.bad { b } else { b.defined() };
        sink.push_i32(b, *record as i32)
    }
}

#[test]
fn a_value_pushed_for_a_null_is_refused_not_written_one_row_off() {
    // Before the writers checked the batch's triplets, the extra value was
    // written and every later value of `b` read back one row early.
    let mut w = ParquetWriter::with_converter(ValueForNull { bad: 3 }, Vec::new()).expect("writer");
    let mut outcome = Ok(());
    for r in 0..10u32 {
        outcome = outcome.and_then(|()| w.write(&r));
    }
    let error = outcome.and_then(|()| w.into_inner().map(drop)).expect_err("the batch has a value without a level");
    assert!(matches!(error, Error::Bug { .. }), "{error:?}");
    assert_eq!(error.column(), Some("b"), "{error}");
    assert!(error.to_string().contains("10 values buffered for 9 defined triplets"), "{error}");

    let mut w = MemPageStore::writer(ValueForNull { bad: 3 }).expect("writer");
    for r in 0..10u32 {
        w.write(&r).expect("buffered");
    }
    let error = w.close().expect_err("the store refuses it too");
    assert!(error.to_string().contains("10 values buffered for 9 defined triplets"), "{error}");
}

#[test]
fn the_page_store_writer_breaks_on_an_encoding_error_like_a_file_writer() {
    let mut w = MemPageStore::writer(LevelBug { bad: 500 }).expect("writer");
    // The batch of 1024 records is encoded when its last record arrives:
    // the first column is written, the second refuses the bad level.
    for r in 0..1023 {
        w.write(&r).expect("buffered");
    }
    let first = w.write(&1023).expect_err("the batch fails to encode");
    assert!(matches!(first, Error::Bug { .. }), "{first:?}");
    assert_eq!(first.column(), Some("b"), "{first}");
    // Its columns are out of step now: nothing more may be written.
    let again = w.write(&1024).expect_err("the writer is broken");
    match &again {
        Error::WriterState { source: Some(cause) } => assert!(matches!(**cause, Error::Bug { .. }), "{cause:?}"),
        other => panic!("expected WriterState with the cause, got {other:?}"),
    }
    assert!(matches!(w.close(), Err(Error::WriterState { source: Some(_) })));
}

/// Every leaf type and the settings a writer takes for it.
#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Settled {
    id: i64,
    small: i32,
    ratio: f64,
    name: String,
    code: [u8; 4],
    flag: bool,
}

fn settled(n: i64) -> Vec<Settled> {
    (0..n)
        .map(|i| Settled {
            id: i * 7,
            small: (i % 100) as i32,
            ratio: i as f64 / 3.0,
            name: format!("n{}", i % 13),
            code: (i as u32).to_le_bytes(),
            flag: i % 3 == 0,
        })
        .collect()
}

#[test]
fn settings_the_encoders_cannot_honour_are_refused_when_the_writer_is_made() {
    use magnolify_parquet::parquet::basic::{BrotliLevel, Compression, Encoding};
    use magnolify_parquet::parquet::schema::types::ColumnPath;
    let refused = |builder: magnolify_parquet::WriterBuilder<Settled>| match builder.build(Vec::new()) {
        Ok(_) => panic!("the writer should be refused"),
        Err(e) => e,
    };
    let brotli = WriterBuilder::<Settled>::new().compression(Compression::BROTLI(BrotliLevel::default()));
    let e = refused(brotli);
    assert!(matches!(e, Error::Argument { .. }), "{e:?}");
    assert!(e.to_string().contains("compression BROTLI") && e.to_string().contains("use UNCOMPRESSED"), "{e}");
    let lzo = WriterBuilder::<Settled>::new().compression(Compression::LZO);
    assert!(refused(lzo).to_string().contains("compression LZO"));
    let rle_ints =
        WriterBuilder::<Settled>::new().properties(|p| p.set_column_encoding(ColumnPath::from("small"), Encoding::RLE));
    let e = refused(rle_ints);
    assert!(e.to_string().contains("column `small`: encoding RLE cannot be written for INT32 values"), "{e}");
    let delta_text = WriterBuilder::<Settled>::new()
        .properties(|p| p.set_column_encoding(ColumnPath::from("name"), Encoding::DELTA_BINARY_PACKED));
    let e = refused(delta_text);
    assert!(
        e.to_string().contains("column `name`: encoding DELTA_BINARY_PACKED cannot be written for BYTE_ARRAY"),
        "{e}"
    );
}

#[test]
fn every_codec_and_encoding_a_writer_takes_reads_back() {
    use magnolify_parquet::parquet::basic::{Compression, Encoding, GzipLevel, ZstdLevel};
    use magnolify_parquet::parquet::schema::types::ColumnPath;
    let rows = settled(3000);
    let codecs = [
        Compression::UNCOMPRESSED,
        Compression::SNAPPY,
        Compression::GZIP(GzipLevel::default()),
        Compression::ZSTD(ZstdLevel::default()),
        Compression::LZ4_RAW,
        Compression::LZ4,
    ];
    // Every encoding the writer takes for each column's physical type.
    let (plain, delta, split) = (Encoding::PLAIN, Encoding::DELTA_BINARY_PACKED, Encoding::BYTE_STREAM_SPLIT);
    let (delta_length, delta_bytes) = (Encoding::DELTA_LENGTH_BYTE_ARRAY, Encoding::DELTA_BYTE_ARRAY);
    let ints = [plain, delta, split];
    let encodings: [(&str, &[Encoding]); 6] = [
        ("id", &ints),
        ("small", &ints),
        ("ratio", &[plain, split]),
        ("name", &[plain, delta_length, delta_bytes]),
        ("code", &[plain, delta_bytes, split]),
        ("flag", &[plain, Encoding::RLE]),
    ];
    for codec in codecs {
        for (column, encoding) in encodings.iter().flat_map(|(c, es)| es.iter().map(move |e| (*c, *e))) {
            let builder = WriterBuilder::<Settled>::new().compression(codec).properties(|p| {
                p.set_dictionary_enabled(false).set_column_encoding(ColumnPath::from(column), encoding)
            });
            let file = file_with(builder, &rows).unwrap_or_else(|e| panic!("{codec} {column} {encoding}: {e}"));
            let back: Vec<Settled> = ParquetReader::new(file).unwrap().collect::<Result<_, _>>().unwrap();
            assert_eq!(back, rows, "{codec}, {column} in {encoding}");
        }
    }
}

/// Columns Spark or Trino cannot read, one kind each, beside ones they read.
#[derive(ParquetType, Debug, Clone, PartialEq)]
struct ForEngines {
    name: String,
    /// Spark: no UUID type.
    id: uuid::Uuid,
    /// Spark and Trino: no FLOAT16.
    ratio: half::f16,
    /// Spark: TIMESTAMP(NANOS) refused.
    #[parquet(timestamp = "nanos")]
    at: chrono::NaiveDateTime,
    /// Spark: read as DECIMAL(20,0), which passes.
    count: u64,
}

#[test]
fn readable_by_refuses_a_schema_an_engine_cannot_read_before_writing_anything() {
    let dir = scratch("readable-by");
    let path = dir.join("events.parquet");
    let refused = WriterBuilder::<ForEngines>::new()
        .readable_by(Engine::Spark)
        .readable_by(Engine::Trino)
        .create(&path)
        .err()
        .expect("Spark cannot read the schema");
    let Error::Schema { location, message } = &refused else { panic!("{refused:?}") };
    assert_eq!(location.column.as_deref(), Some("id"));
    // Every column refused, by engine, in schema order.
    let named: Vec<&str> = message
        .match_indices(" cannot read column `")
        .map(|(at, _)| {
            let engine = message[..at].rsplit(' ').next().unwrap_or("");
            let column = message[at..].split('`').nth(1).unwrap_or("");
            &message[at - engine.len()..at + " cannot read column `".len() + column.len() + 1]
        })
        .collect();
    assert_eq!(
        named,
        [
            "spark cannot read column `id`",
            "spark cannot read column `ratio`",
            "spark cannot read column `at`",
            "trino cannot read column `ratio`",
        ],
        "{message}"
    );
    assert!(message.ends_with("or drop `readable_by(Engine::Spark)` from the writer's settings"), "{message}");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0, "nothing is left in the folder");

    // pyarrow reads every one of them; so does DuckDB.
    let rows = [ForEngines {
        name: "a".into(),
        id: uuid::Uuid::from_u128(7),
        ratio: half::f16::from_f32(0.5),
        at: chrono::DateTime::from_timestamp(1_700_000_000, 5).unwrap().naive_utc(),
        count: u64::MAX,
    }];
    let builder = WriterBuilder::<ForEngines>::new().readable_by(Engine::PyArrow).readable_by(Engine::DuckDb);
    let file = file_with(builder, &rows).expect("pyarrow and DuckDB read every column");
    let back: Vec<ForEngines> = ParquetReader::new(file).unwrap().collect::<Result<_, _>>().unwrap();
    assert_eq!(back, rows);
    let _ = std::fs::remove_dir_all(&dir);
}
