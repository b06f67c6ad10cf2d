//! Records that borrow their strings and bytes from the decoded batch
//! (`ReaderBuilder::build_borrowed`, `next_batch`) read what owned records
//! read, for every byte-array encoding the writer makes, across batch and
//! page boundaries.

use std::borrow::Cow;

use bytes::Bytes;
use magnolify_parquet::mem::MemPageStore;
use magnolify_parquet::parquet::basic::{Compression, Encoding, GzipLevel, ZstdLevel};
use magnolify_parquet::parquet::file::properties::{WriterPropertiesBuilder, WriterVersion};
use magnolify_parquet::parquet::schema::types::ColumnPath;
use magnolify_parquet::{ParquetType, ReadOptions, ReaderBuilder, WriterBuilder};

#[derive(ParquetType, Debug, Clone, PartialEq)]
pub(crate) struct Inner<'a> {
    pub(crate) label: &'a str,
    pub(crate) score: Option<i32>,
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
pub(crate) struct Row<'a> {
    pub(crate) id: u64,
    pub(crate) name: &'a str,
    pub(crate) tags: Vec<&'a str>,
    pub(crate) payload: &'a [u8],
    pub(crate) note: Option<&'a str>,
    pub(crate) inner: Inner<'a>,
    pub(crate) text: Cow<'a, str>,
}

/// The same records, owned: what the borrowed ones must equal.
#[derive(ParquetType, Debug, Clone, PartialEq)]
pub(crate) struct OwnedRow {
    pub(crate) id: u64,
    pub(crate) name: String,
    pub(crate) tags: Vec<String>,
    pub(crate) payload: Vec<u8>,
    pub(crate) note: Option<String>,
    pub(crate) inner: OwnedInner,
    pub(crate) text: String,
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
pub(crate) struct OwnedInner {
    pub(crate) label: String,
    pub(crate) score: Option<i32>,
}

impl Row<'_> {
    pub(crate) fn to_owned_row(&self) -> OwnedRow {
        OwnedRow {
            id: self.id,
            name: self.name.to_owned(),
            tags: self.tags.iter().map(|t| (*t).to_owned()).collect(),
            payload: self.payload.to_vec(),
            note: self.note.map(str::to_owned),
            inner: OwnedInner { label: self.inner.label.to_owned(), score: self.inner.score },
            text: self.text.to_string(),
        }
    }
}

pub(crate) fn owned_rows(n: u64) -> Vec<OwnedRow> {
    (0..n)
        .map(|i| OwnedRow {
            id: i,
            // Repeats, so that dictionaries are worth it; non-ASCII text too.
            name: format!("név-{}", i % 13),
            tags: (0..i % 4).map(|t| format!("t{}", (i + t) % 7)).collect(),
            payload: (0..i % 9).map(|b| (b * 31 + i) as u8).collect(),
            note: (i % 3 == 0).then(|| format!("note {i} ✓")),
            inner: OwnedInner { label: format!("l{}", i % 5), score: (i % 2 == 0).then_some(i as i32) },
            text: "x".repeat((i % 6) as usize),
        })
        .collect()
}

fn borrowed(rows: &[OwnedRow]) -> Vec<Row<'_>> {
    rows.iter()
        .map(|r| Row {
            id: r.id,
            name: &r.name,
            tags: r.tags.iter().map(String::as_str).collect(),
            payload: &r.payload,
            note: r.note.as_deref(),
            inner: Inner { label: &r.inner.label, score: r.inner.score },
            text: Cow::Borrowed(&r.text),
        })
        .collect()
}

/// `encoding` for every byte-array column of `Row`.
pub(crate) fn byte_columns(mut props: WriterPropertiesBuilder, encoding: Encoding) -> WriterPropertiesBuilder {
    for path in ["name", "tags.list.element", "payload", "note", "inner.label", "text"] {
        let path = ColumnPath::new(path.split('.').map(str::to_owned).collect());
        props = props.set_column_encoding(path, encoding);
    }
    props
}

/// Writes `rows` through the borrowing writer.
pub(crate) fn file(rows: &[OwnedRow], builder: WriterBuilder<Row<'static>>) -> Bytes {
    let mut w = builder.build(Vec::new()).unwrap();
    for r in borrowed(rows) {
        w.write(&r).unwrap();
    }
    Bytes::from(w.into_inner().unwrap())
}

/// Reads `file` lending batches of `batch` records, checking that every
/// `Cow` borrowed, and returns the records made owned.
fn read_borrowed(file: Bytes, batch: usize) -> Vec<OwnedRow> {
    let options = ReadOptions::default().batch_size(batch).threads(2);
    let mut reader = ReaderBuilder::new(file).unwrap().build_borrowed::<Row>(options).unwrap();
    let mut out = Vec::new();
    let mut batches = 0;
    while let Some(records) = reader.next_batch().unwrap() {
        batches += 1;
        assert!(records.len() <= batch);
        for r in &records {
            assert!(matches!(r.text, Cow::Borrowed(_)), "a Cow<str> read owned: {r:?}");
            out.push(r.to_owned_row());
        }
    }
    assert!(batches >= out.len().div_ceil(batch), "{batches} batches for {} records", out.len());
    assert!(reader.next_batch().unwrap().is_none(), "a batch after the end");
    out
}

#[test]
fn borrowed_records_read_what_owned_records_read_in_every_layout() {
    let rows = owned_rows(1_000);
    let layouts: [(&str, WriterBuilder<Row<'static>>); 4] = [
        ("dictionary", WriterBuilder::new().dictionary(true)),
        ("plain", WriterBuilder::new().dictionary(false)),
        (
            "delta, v2",
            WriterBuilder::new()
                .dictionary(false)
                .writer_version(WriterVersion::PARQUET_2_0)
                .properties(|p| byte_columns(p, Encoding::DELTA_BYTE_ARRAY)),
        ),
        (
            "delta length, small pages",
            WriterBuilder::new()
                .dictionary(false)
                .data_page_rows(37)
                .properties(|p| byte_columns(p, Encoding::DELTA_LENGTH_BYTE_ARRAY)),
        ),
    ];
    for (layout, builder) in layouts {
        let file = file(&rows, builder.max_row_group_rows(300));
        let owned: Vec<OwnedRow> = ReaderBuilder::new(file.clone())
            .unwrap()
            .build::<OwnedRow>(ReadOptions::default())
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(owned, rows, "{layout}: owned");
        for batch in [1, 7, 1024] {
            assert_eq!(read_borrowed(file.clone(), batch), rows, "{layout}: borrowed, batches of {batch}");
        }
    }
}

#[test]
fn borrowed_records_read_what_owned_records_read_with_every_codec_on_v1_and_v2_pages() {
    let rows = owned_rows(500);
    let codecs = [
        Compression::UNCOMPRESSED,
        Compression::SNAPPY,
        Compression::GZIP(GzipLevel::default()),
        Compression::LZ4,
        Compression::LZ4_RAW,
        Compression::ZSTD(ZstdLevel::default()),
    ];
    for codec in codecs {
        for version in [WriterVersion::PARQUET_1_0, WriterVersion::PARQUET_2_0] {
            let builder = WriterBuilder::new().compression(codec).writer_version(version).data_page_rows(64);
            let file = file(&rows, builder.max_row_group_rows(200));
            for batch in [5, 1024] {
                assert_eq!(read_borrowed(file.clone(), batch), rows, "{codec:?}, {version:?}, batches of {batch}");
            }
        }
    }
}

#[test]
fn the_page_store_lends_batches_too() {
    let rows = owned_rows(50);
    let store = MemPageStore::write_all(&rows).unwrap();
    let mut reader = store.reader(magnolify_parquet::Derived::<Row>::new()).unwrap();
    let mut back = Vec::new();
    while let Some(batch) = reader.next_batch().unwrap() {
        back.extend(batch.iter().map(Row::to_owned_row));
    }
    assert_eq!(back, rows);
}

#[test]
fn lending_from_a_reader_with_a_predicate_is_an_error() {
    let rows = owned_rows(10);
    let file = file(&rows, WriterBuilder::new());
    let f = OwnedRow::fields();
    // Predicates test owned records: lending would return records it rejects.
    let owned = ReaderBuilder::new(file.clone()).unwrap().build::<OwnedRow>(ReadOptions::default().filter(f.id.lt(3)));
    let mut owned = owned.unwrap();
    let error = owned.next_batch().err().unwrap().to_string();
    assert!(error.contains("predicate"), "{error}");
    let kept: Vec<OwnedRow> = owned.collect::<Result<_, _>>().unwrap();
    assert_eq!(kept, rows[..3]);
}

#[test]
fn lending_after_iterating_part_of_a_batch_is_an_error() {
    let rows = owned_rows(10);
    let file = file(&rows, WriterBuilder::new());
    let mut reader = ReaderBuilder::new(file).unwrap().build::<OwnedRow>(ReadOptions::default().threads(1)).unwrap();
    assert_eq!(reader.next().unwrap().unwrap(), rows[0]);
    let error = reader.next_batch().err().unwrap().to_string();
    assert!(error.contains("take them with next() first"), "{error}");
    let rest: Vec<OwnedRow> = reader.collect::<Result<_, _>>().unwrap();
    assert_eq!(rest, rows[1..]);
}

/// Lends every batch of `file` on `threads`, the records made owned, or
/// the first error.
fn lend_all(file: Bytes, threads: usize) -> Result<Vec<OwnedRow>, magnolify_parquet::Error> {
    let options = ReadOptions::default().batch_size(64).threads(threads);
    let mut reader = ReaderBuilder::new(file)?.build_borrowed::<Row>(options)?;
    let mut out = Vec::new();
    while let Some(batch) = reader.next_batch()? {
        out.extend(batch.iter().map(Row::to_owned_row));
    }
    Ok(out)
}

#[test]
fn a_damaged_file_read_borrowed_errs_or_gives_the_records_never_panics() {
    let rows = owned_rows(300);
    // With page checksums, which readers verify: a damaged page is an error.
    let good = file(&rows, WriterBuilder::new().dictionary(false).max_row_group_rows(100).page_checksums(true));
    let (mut errors, mut same) = (0, 0);
    // Every 7th byte of the column chunks, each flipped on its own (the
    // footer has no checksum: damage there may make another valid schema,
    // the same for owned and borrowed reads).
    let footer = u32::from_le_bytes(good[good.len() - 8..good.len() - 4].try_into().unwrap()) as usize;
    for at in (4..good.len() - 8 - footer).step_by(7) {
        let mut bytes = good.to_vec();
        bytes[at] ^= 0x5a;
        let damaged = Bytes::from(bytes);
        for threads in [1, 2] {
            let read = std::panic::catch_unwind(|| lend_all(damaged.clone(), threads));
            match read.unwrap_or_else(|_| panic!("a panic reading with byte {at} flipped on {threads} threads")) {
                Ok(back) => {
                    assert!(back == rows, "byte {at} flipped, {threads} threads: other records without an error");
                    same += 1;
                }
                Err(_) => errors += 1,
            }
        }
    }
    assert!(errors > 0 && same > 0, "{errors} errors, {same} readable");
}

#[test]
fn lending_on_threads_reads_every_batch_and_can_stop_early() {
    let rows = owned_rows(2_000);
    let file = file(&rows, WriterBuilder::new().max_row_group_rows(250));
    assert_eq!(lend_all(file.clone(), 2).unwrap(), rows);
    assert_eq!(lend_all(file.clone(), 3).unwrap(), rows);
    // Dropped after one batch: the workers stop, nothing hangs.
    let mut reader = ReaderBuilder::new(file)
        .unwrap()
        .build_borrowed::<Row>(ReadOptions::default().batch_size(10).threads(2))
        .unwrap();
    let first: Vec<OwnedRow> = reader.next_batch().unwrap().unwrap().iter().map(Row::to_owned_row).collect();
    assert_eq!(first, rows[..10]);
}
