//! Predicates on readers that lend records which borrow
//! (`build_borrowed`): the predicate is built from the handles of the
//! borrowing struct (its `&str` fields compared as `String`s), prunes row
//! groups and pages as for owned records, and is tested on each batch's
//! columns. The records lent and the counts must be those of an owned read
//! with the same predicate, in every layout, on 1 and 2 threads, in
//! batches of any size.

use bytes::Bytes;
use magnolify_parquet::filter::{FilterCounts, Predicate};
use magnolify_parquet::parquet::basic::Encoding;
use magnolify_parquet::parquet::file::properties::WriterVersion;
use magnolify_parquet::{ParquetType, ReadOptions, ReaderBuilder, WriterBuilder};

use crate::borrowed_reads::{byte_columns, file, owned_rows, OwnedRow, Row};

/// One predicate built twice, on the handles of the owned and of the
/// borrowing struct, with the test an owned record passes by.
macro_rules! case {
    (|$f:ident| $predicate:expr, |$r:ident| $passes:expr) => {{
        let owned: Predicate<OwnedRow> = {
            let $f = OwnedRow::fields();
            $predicate
        };
        let lent: Predicate<Row<'static>> = {
            let $f = Row::fields();
            $predicate
        };
        let passes: fn(&OwnedRow) -> bool = |$r| $passes;
        (owned, lent, passes)
    }};
}

/// The owned records `predicate` reads from `file`, and the counts.
fn read_owned(file: &Bytes, predicate: Predicate<OwnedRow>) -> (Vec<OwnedRow>, FilterCounts) {
    let mut reader = ReaderBuilder::new(file.clone()).unwrap().build(ReadOptions::default().filter(predicate)).unwrap();
    let records = reader.by_ref().collect::<Result<Vec<_>, _>>().unwrap();
    (records, reader.counts())
}

/// The records `predicate` lends from `file`, made owned, and the counts;
/// checks that no batch is empty or larger than `batch`.
fn read_lent(
    file: &Bytes,
    predicate: Predicate<Row<'static>>,
    threads: usize,
    batch: usize,
) -> (Vec<OwnedRow>, FilterCounts) {
    let options = ReadOptions::default().threads(threads).batch_size(batch).filter(predicate);
    let mut reader = ReaderBuilder::new(file.clone()).unwrap().build_borrowed::<Row>(options).unwrap();
    let mut out = Vec::new();
    while let Some(records) = reader.next_batch().unwrap() {
        assert!(!records.is_empty() && records.len() <= batch, "a batch of {}", records.len());
        out.extend(records.iter().map(Row::to_owned_row));
    }
    assert!(reader.next_batch().unwrap().is_none(), "a batch after the end");
    (out, reader.counts())
}

/// Pages of `rows` records (the writer checks the limit every 10 records).
fn small_pages(builder: WriterBuilder<Row<'static>>, rows: usize) -> WriterBuilder<Row<'static>> {
    builder.data_page_rows(rows).properties(|p| p.set_write_batch_size(10))
}

#[test]
fn a_predicate_lends_what_an_owned_read_with_it_returns_and_counts_alike() {
    let rows = owned_rows(2_000);
    let layouts: [(&str, WriterBuilder<Row<'static>>); 3] = [
        ("dictionary, small pages", small_pages(WriterBuilder::new().dictionary(true), 50)),
        ("plain", WriterBuilder::new().dictionary(false)),
        (
            "delta, v2, small pages",
            small_pages(WriterBuilder::new().dictionary(false).writer_version(WriterVersion::PARQUET_2_0), 64)
                .properties(|p| byte_columns(p, Encoding::DELTA_BYTE_ARRAY)),
        ),
    ];
    for (layout, builder) in layouts {
        let file = file(&rows, builder.max_row_group_rows(500));
        let cases = [
            // Pruning by statistics: only the second row group is read, and
            // with small pages only some of its pages.
            case!(|f| f.id.between(600, 640), |r| (600..=640).contains(&r.id)),
            // A borrowed `&str` compared as a `String`, a dictionary's value.
            case!(|f| f.name.eq("név-3"), |r| r.name == "név-3"),
            case!(|f| f.name.starts_with("név-1"), |r| r.name.starts_with("név-1")),
            // Nulls, a nested group's fields, `Cow<str>`, and the connectives.
            case!(|f| f.note.is_null().and(f.inner.score.gt(1_000)), |r| r.note.is_none()
                && r.inner.score.is_some_and(|s| s > 1_000)),
            case!(|f| f.inner.label.is_in(["l1", "l4"]).or(f.text.eq("xxxxx")), |r| ["l1", "l4"]
                .contains(&r.inner.label.as_str())
                || r.text == "xxxxx"),
            case!(|f| f.note.eq("note 999 ✓").not().and(f.id.ge(1_990)), |r| r.note.as_deref() != Some("note 999 ✓")
                && r.id >= 1_990),
            // Nothing passes: every batch is passed over, none lent empty.
            case!(|f| f.name.eq("nobody"), |_r| false),
            case!(|f| f.id.gt(5).and(f.id.lt(5)), |_r| false),
        ];
        for (owned_predicate, lent_predicate, passes) in cases {
            let text = format!("{layout}: {owned_predicate:?}");
            let (owned, counts) = read_owned(&file, owned_predicate);
            let expected: Vec<OwnedRow> = rows.iter().filter(|r| passes(r)).cloned().collect();
            assert_eq!(owned, expected, "{text}: owned");
            assert_eq!(counts.records_passed, expected.len() as u64, "{text}");
            for threads in [1, 2] {
                for batch in [1, 7, 1024] {
                    let lent = read_lent(&file, lent_predicate.clone(), threads, batch);
                    assert_eq!(lent, (owned.clone(), counts), "{text}: lent on {threads} threads, batches of {batch}");
                }
            }
        }
    }
}

#[test]
fn a_predicate_reads_row_groups_and_pages_alike_whether_records_borrow_or_not() {
    let rows = owned_rows(2_000);
    let file = file(&rows, small_pages(WriterBuilder::new(), 50).max_row_group_rows(500));
    let (owned, lent, _) = case!(|f| f.id.between(600, 640), |r| (600..=640).contains(&r.id));
    let (records, counts) = read_owned(&file, owned);
    assert_eq!(records, rows[600..=640]);
    // Three of four row groups ruled out by their statistics; in the one
    // read, pages of 50 rows: those of rows 600..650 are decoded.
    assert_eq!((counts.row_groups_read, counts.row_groups_skipped), (1, 3));
    assert_eq!((counts.records_read, counts.records_passed, counts.records_skipped), (50, 41, 450));
    assert!(counts.pages_skipped > 0 && counts.pages_read > 0, "{counts:?}");
    assert_eq!(read_lent(&file, lent, 1, 1024), (records, counts));
}

#[test]
fn a_predicate_on_a_column_the_file_lacks_tests_nulls_as_an_owned_read_does() {
    // A file without `note` (nor the group `extra`): an owned read finds
    // `None` there, and so does the column test of records that borrow.
    #[derive(ParquetType)]
    struct NoNote<'a> {
        id: u64,
        name: &'a str,
    }
    let mut w = magnolify_parquet::ParquetWriter::<NoNote, _>::new(Vec::new()).unwrap();
    for (id, name) in [(1, "a"), (2, "b"), (3, "c")] {
        w.write(&NoNote { id, name }).unwrap();
    }
    let file = Bytes::from(w.into_inner().unwrap());

    #[derive(ParquetType, Debug, PartialEq)]
    struct Extra {
        level: i32,
    }
    #[derive(ParquetType, Debug, PartialEq)]
    struct WithNote<'a> {
        id: u64,
        note: Option<&'a str>,
        extra: Option<Extra>,
    }
    let lend = |predicate: Predicate<WithNote<'static>>| {
        let options = ReadOptions::default().filter(predicate);
        let mut reader = ReaderBuilder::new(file.clone()).unwrap().build_borrowed::<WithNote>(options).unwrap();
        let mut ids = Vec::new();
        while let Some(batch) = reader.next_batch().unwrap() {
            ids.extend(batch.iter().map(|r| (r.id, r.note.map(str::to_owned), r.extra.is_none())));
        }
        (ids, reader.counts().records_read)
    };
    let f = WithNote::fields();
    let all = vec![(1, None, true), (2, None, true), (3, None, true)];
    assert_eq!(lend(f.note.is_null().and(f.id.ge(2))), (all[1..].to_vec(), 3));
    assert_eq!(lend(f.extra.level.is_null()), (all.clone(), 3));
    assert_eq!(lend(f.note.eq("x").or(f.extra.level.gt(0))), (vec![], 3));

    // A required field whose column is missing cannot be read owned
    // either; the error says what to change.
    #[derive(ParquetType, Debug)]
    struct Scored {
        id: u64,
        #[parquet(default)]
        score: i32,
    }
    let options = ReadOptions::default().filter(Scored::fields().score.gt(0));
    let e = ReaderBuilder::new(file.clone()).unwrap().build_borrowed::<Scored>(options).err().expect("an error");
    let text = e.to_string();
    assert!(text.contains("score") && text.contains("make the field an Option"), "{text}");
}

/// Iterating a reader built to lend with a predicate would skip the test:
/// it is an error, and lending works.
#[test]
fn iterating_a_reader_built_to_lend_with_a_predicate_is_an_error() {
    let rows = owned_rows(20);
    let file = file(&rows, WriterBuilder::new());
    let f = OwnedRow::fields();
    let options = ReadOptions::default().filter(f.id.lt(3));
    let mut reader = ReaderBuilder::new(file).unwrap().build_borrowed::<OwnedRow>(options).unwrap();
    let e = reader.next().expect("an answer").unwrap_err();
    assert!(e.to_string().contains("lend them with next_batch"), "{e}");
    assert!(reader.next().is_none());
}

#[test]
fn a_store_object_lends_filtered_batches_as_a_file_does() {
    use magnolify_parquet::store::StoreReaderBuilder;
    use object_store::{memory::InMemory, path::Path, ObjectStoreExt, PutPayload};
    use std::sync::Arc;

    let rows = owned_rows(1_000);
    let bytes = file(&rows, WriterBuilder::new().max_row_group_rows(250));
    let (owned, lent, passes) = case!(|f| f.name.eq("név-7").and(f.id.lt(700)), |r| r.name == "név-7" && r.id < 700);
    let expected: Vec<OwnedRow> = rows.iter().filter(|r| passes(r)).cloned().collect();
    let (from_file, file_counts) = read_owned(&bytes, owned);
    assert_eq!(from_file, expected);

    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    runtime.block_on(async {
        let store = Arc::new(InMemory::new());
        let path = Path::from("rows.parquet");
        store.put(&path, PutPayload::from(bytes.clone())).await.unwrap();
        let builder = StoreReaderBuilder::open(store.clone(), &path).await.unwrap();
        let options = ReadOptions::default().batch_size(16).filter(lent);
        let mut reader = builder.build_borrowed::<Row>(options).await.unwrap();
        let mut back = Vec::new();
        while let Some(batch) = reader.next_batch().await.unwrap() {
            back.extend(batch.iter().map(Row::to_owned_row));
        }
        assert_eq!(back, expected);
        assert_eq!(reader.counts(), file_counts);
    });
}

/// The records a read of `file` with `predicate` returns before its first
/// error, and whether it erred; owned or lent.
fn read_until_error(
    file: &Bytes,
    owned: Option<Predicate<OwnedRow>>,
    lent: Option<Predicate<Row<'static>>>,
) -> (Vec<OwnedRow>, bool) {
    let mut out = Vec::new();
    let result = (|| -> magnolify_parquet::Result<()> {
        let builder = ReaderBuilder::new(file.clone())?;
        if let Some(predicate) = owned {
            for record in builder.build::<OwnedRow>(ReadOptions::default().batch_size(64).filter(predicate))? {
                out.push(record?);
            }
        } else if let Some(predicate) = lent {
            let options = ReadOptions::default().batch_size(64).filter(predicate);
            let mut reader = builder.build_borrowed::<Row>(options)?;
            while let Some(batch) = reader.next_batch()? {
                out.extend(batch.iter().map(Row::to_owned_row));
            }
        }
        Ok(())
    })();
    (out, result.is_err())
}

#[test]
fn a_damaged_file_filtered_while_lending_errs_where_an_owned_read_errs_and_never_panics() {
    let rows = owned_rows(300);
    let good = file(&rows, WriterBuilder::new().dictionary(false).max_row_group_rows(100));
    let footer = u32::from_le_bytes(good[good.len() - 8..good.len() - 4].try_into().unwrap()) as usize;
    let (mut errors, mut same) = (0, 0);
    for at in (4..good.len() - 8 - footer).step_by(5) {
        let mut bytes = good.to_vec();
        bytes[at] ^= 0x5a;
        let damaged = Bytes::from(bytes);
        let (owned, lent, _) = case!(|f| f.name.starts_with("név-1").or(f.note.is_null()), |_r| true);
        let read = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            (read_until_error(&damaged, Some(owned), None), read_until_error(&damaged, None, Some(lent)))
        }));
        let (owned, lent) = read.unwrap_or_else(|_| panic!("a panic reading with byte {at} flipped"));
        assert_eq!(owned.1, lent.1, "byte {at} flipped: an error one way only");
        if owned.1 {
            errors += 1;
            // Records before the error come in whole batches when lent.
            assert!(owned.0.starts_with(&lent.0), "byte {at} flipped: other records before the error");
        } else {
            assert_eq!(owned.0, lent.0, "byte {at} flipped");
            same += 1;
        }
    }
    assert!(errors > 0 && same > 0, "{errors} errors, {same} readable");
}

/// Field types that borrow keep their record addressable: a newtype with a
/// lifetime has the handles of what it wraps, a `Cow` of a value those of
/// the value, a `Cow` of a list and a record with a lifetime and a type
/// parameter are not addressable (and leave the others addressable).
#[test]
fn newtypes_cows_and_generic_records_that_borrow_keep_their_record_addressable() {
    #[derive(ParquetType, Debug, Clone, PartialEq)]
    struct Name<'a>(&'a str);
    #[derive(ParquetType, Debug, Clone, PartialEq)]
    struct Pair<'a, T> {
        label: &'a str,
        value: T,
    }
    #[derive(ParquetType, Debug, Clone, PartialEq)]
    struct Entry<'a> {
        id: std::borrow::Cow<'a, i64>,
        name: Name<'a>,
        scores: std::borrow::Cow<'a, [i32]>,
        pair: Pair<'a, u8>,
    }
    let rows: Vec<Entry<'static>> = (0..10)
        .map(|i| Entry {
            id: std::borrow::Cow::Owned(i),
            name: Name(["ada", "bob"][i as usize % 2]),
            scores: std::borrow::Cow::Owned(vec![i as i32; (i % 3) as usize]),
            pair: Pair { label: "p", value: i as u8 },
        })
        .collect();
    let mut w = magnolify_parquet::ParquetWriter::<Entry, _>::new(Vec::new()).unwrap();
    for r in &rows {
        w.write(r).unwrap();
    }
    let file = Bytes::from(w.into_inner().unwrap());
    let f = Entry::fields();
    let _: magnolify_parquet::filter::NotAddressable = f.scores;
    let _: magnolify_parquet::filter::NotAddressable = f.pair;
    let options = ReadOptions::default().filter(f.name.eq("bob").and(f.id.lt(7)));
    let mut reader = ReaderBuilder::new(file).unwrap().build_borrowed::<Entry>(options).unwrap();
    let mut lent = Vec::new();
    while let Some(batch) = reader.next_batch().unwrap() {
        lent.extend(batch.iter().map(|e| (*e.id, e.name.0.to_owned(), e.scores.to_vec())));
    }
    let bob = || "bob".to_owned();
    assert_eq!(lent, [(1, bob(), vec![1]), (3, bob(), vec![]), (5, bob(), vec![5, 5])]);
}

/// Where no record passes (ids 0 to 2 of `id >= 5`) before a record that
/// cannot be read (3: a null into a required field), the error
/// comes first, not an empty batch; the owned read with the same predicate
/// gives the same error first.
#[test]
fn an_error_with_nothing_passing_before_it_comes_instead_of_an_empty_batch() {
    #[derive(ParquetType)]
    struct Written<'a> {
        id: u64,
        note: Option<&'a str>,
    }
    #[derive(ParquetType, Debug)]
    struct Lent<'a> {
        id: u64,
        note: &'a str,
    }
    #[derive(ParquetType, Debug)]
    struct Owned {
        id: u64,
        note: String,
    }
    let mut w = magnolify_parquet::ParquetWriter::<Written, _>::new(Vec::new()).unwrap();
    for id in 0..10 {
        w.write(&Written { id, note: (id != 3).then_some("n") }).unwrap();
    }
    let file = Bytes::from(w.into_inner().unwrap());

    let owned = ReadOptions::default().filter(Owned::fields().id.ge(5));
    let mut reader = ReaderBuilder::new(file.clone()).unwrap().build::<Owned>(owned).unwrap();
    let owned_error = reader.next().expect("an answer").unwrap_err().to_string();
    assert!(owned_error.contains("record 3") && owned_error.contains("note"), "{owned_error}");

    for threads in [1, 2] {
        let options = ReadOptions::default().threads(threads).filter(Lent::fields().id.ge(5));
        let mut reader = ReaderBuilder::new(file.clone()).unwrap().build_borrowed::<Lent>(options).unwrap();
        let lent_error = match reader.next_batch() {
            Err(e) => e.to_string(),
            Ok(batch) => panic!("{threads} threads: a batch before the error: {batch:?}"),
        };
        assert_eq!(lent_error, owned_error, "{threads} threads");
        assert!(reader.next_batch().unwrap().is_none(), "{threads} threads: a batch after the error");
    }
}
