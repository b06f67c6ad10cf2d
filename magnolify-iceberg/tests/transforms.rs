//! Filters through every partition transform: a scan's records are exactly
//! those of a full scan that the predicate accepts, on strings with
//! multi-byte characters and values before the epoch, and a prefix plans
//! only the files that hold its strings.

mod common;

use std::collections::BTreeSet;

use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};
use magnolify_iceberg::{create_table, Partitioning, TableScan, TableWriter};
use magnolify_parquet::filter::Predicate;
use magnolify_parquet::ParquetType;

#[derive(ParquetType, Clone, Debug, PartialEq)]
struct Row {
    id: i64,
    s: Option<String>,
    n: i32,
    l: i64,
    b: Vec<u8>,
    day: NaiveDate,
    #[parquet(timestamp = "micros")]
    ts: NaiveDateTime,
    #[parquet(timestamp = "micros")]
    tz: DateTime<Utc>,
}

/// Strings whose prefixes and truncations fall inside multi-byte
/// characters, and ones around them in byte order.
const STRINGS: [&str; 12] =
    ["Ünï-1", "Ünï-2", "Ün", "Ü", "Üo-1", "Ünx", "abc", "ab", "a\u{10ffff}b", "日本語テキスト", "日本", ""];

fn rows() -> Vec<Row> {
    (0..65)
        .map(|i: i64| {
            let n = (i * 37 % 200 - 100) as i32;
            let s = STRINGS.get(i as usize % 13).map(|s| (*s).to_owned());
            let micros = i64::from(n) * 7_777_777_777 + i;
            Row {
                id: i,
                b: s.as_ref().map_or_else(|| vec![0xff, i as u8], |s| s.as_bytes().to_vec()),
                s,
                n,
                l: i64::from(n) * 1_000_000_007,
                day: NaiveDate::from_ymd_opt(1970, 1, 1).unwrap()
                    + chrono::Days::new(0)
                    + chrono::Duration::days(i64::from(n) * 13),
                ts: DateTime::from_timestamp_micros(micros).unwrap().naive_utc(),
                tz: DateTime::from_timestamp_micros(micros * 3).unwrap(),
            }
        })
        .collect()
}

fn partitionings() -> Vec<(&'static str, Partitioning<Row>)> {
    let f = Row::fields();
    let by = Partitioning::new;
    vec![
        ("identity(s)", by().identity(&f.s)),
        ("truncate(3, s)", by().truncate(3, &f.s)),
        ("truncate(1, s)", by().truncate(1, &f.s)),
        ("bucket(4, s)", by().bucket(4, &f.s)),
        ("identity(n)", by().identity(&f.n)),
        ("truncate(10, n)", by().truncate(10, &f.n)),
        ("bucket(3, n)", by().bucket(3, &f.n)),
        ("truncate(100, l)", by().truncate(100, &f.l)),
        ("truncate(2, b)", by().truncate(2, &f.b)),
        ("year(day)", by().year(&f.day)),
        ("month(day)", by().month(&f.day)),
        ("day(ts)", by().day(&f.ts)),
        ("hour(ts)", by().hour(&f.ts)),
        ("month(tz)", by().month(&f.tz)),
        ("day(tz)", by().day(&f.tz)),
        ("hour(tz)", by().hour(&f.tz)),
    ]
}

fn predicates() -> Vec<(String, Predicate<Row>)> {
    let f = Row::fields();
    let mut out: Vec<(String, Predicate<Row>)> = Vec::new();
    for prefix in ["Ün", "Ünï", "Ü", "Ünï-", "Ünï-1x", "日", "日本語テ", "", "a\u{10ffff}", "ab"] {
        out.push((format!("s starts with {prefix:?}"), f.s.starts_with(prefix)));
        out.push((format!("s not starting with {prefix:?}"), f.s.starts_with(prefix).not()));
    }
    for s in ["Ünï-1", "Ün", "日本", "ab", ""] {
        let v = || s.to_owned();
        out.push((format!("s = {s:?}"), f.s.eq(v())));
        out.push((format!("s != {s:?}"), f.s.ne(v())));
        out.push((format!("s < {s:?}"), f.s.lt(v())));
        out.push((format!("s >= {s:?}"), f.s.ge(v())));
        out.push((format!("s > {s:?}"), f.s.gt(v())));
        out.push((format!("s <= {s:?}"), f.s.le(v())));
    }
    out.push(("s in".into(), f.s.is_in(["Ünï-2".to_owned(), "abc".to_owned()])));
    out.push(("s is null".into(), f.s.is_null()));
    for n in [-100, -37, -5, 0, 10, 99] {
        out.push((format!("n = {n}"), f.n.eq(n)));
        out.push((format!("n != {n}"), f.n.ne(n)));
        out.push((format!("n < {n}"), f.n.lt(n)));
        out.push((format!("n <= {n}"), f.n.le(n)));
        out.push((format!("n > {n}"), f.n.gt(n)));
        out.push((format!("n >= {n}"), f.n.ge(n)));
        let l = i64::from(n) * 1_000_000_007;
        out.push((format!("l < {l}"), f.l.lt(l)));
        out.push((format!("l >= {l}"), f.l.ge(l)));
    }
    out.push(("n in".into(), f.n.is_in([-63, 11, 50])));
    out.push(("not n in".into(), f.n.is_in([-63, 11, 50]).not()));
    for b in [&b"\xc3\x9cn"[..], b"ab", b"\xff"] {
        out.push((format!("b = {b:?}"), f.b.eq(b.to_vec())));
        out.push((format!("b < {b:?}"), f.b.lt(b.to_vec())));
        out.push((format!("b >= {b:?}"), f.b.ge(b.to_vec())));
    }
    let all = rows();
    for r in [&all[3], &all[10], &all[40]] {
        out.push((format!("day = {}", r.day), f.day.eq(r.day)));
        out.push((format!("day < {}", r.day), f.day.lt(r.day)));
        out.push((format!("day > {}", r.day), f.day.gt(r.day)));
        out.push((format!("ts = {}", r.ts), f.ts.eq(r.ts)));
        out.push((format!("ts < {}", r.ts), f.ts.lt(r.ts)));
        out.push((format!("ts >= {}", r.ts), f.ts.ge(r.ts)));
        out.push((format!("tz = {}", r.tz), f.tz.eq(r.tz)));
        out.push((format!("tz > {}", r.tz), f.tz.gt(r.tz)));
        out.push((format!("tz <= {}", r.tz), f.tz.le(r.tz)));
    }
    out
}

#[tokio::test]
async fn every_transform_and_predicate_gives_the_records_a_full_scan_filtered_here_gives() {
    let dir = tempfile::tempdir().unwrap();
    let catalog = common::memory_catalog(dir.path(), "t").await;
    let all = rows();
    let predicates = predicates();
    let mut wrong = Vec::new();
    for (i, (what, by)) in partitionings().into_iter().enumerate() {
        let ident = iceberg::TableIdent::from_strs(["t", &format!("rows{i}")]).unwrap();
        let table = create_table(&catalog, &ident, &by).await.unwrap();
        let mut writer = TableWriter::builder(&table).partitioning(by).build().unwrap();
        writer.write_all(&all).await.unwrap();
        let table = writer.commit(&catalog).await.unwrap();
        for (name, predicate) in &predicates {
            let expected: Vec<&Row> = all.iter().filter(|r| predicate.test(r)).collect();
            let scan = TableScan::<Row>::new(&table).filter(predicate.clone());
            match scan.collect().await {
                Ok(mut read) => {
                    read.sort_by_key(|r| r.id);
                    if read.iter().collect::<Vec<_>>() != expected {
                        let ids = |rows: &[&Row]| rows.iter().map(|r| r.id).collect::<Vec<_>>();
                        let read: Vec<&Row> = read.iter().collect();
                        wrong.push(format!("{what}, {name}: read {:?}, expected {:?}", ids(&read), ids(&expected)));
                    }
                }
                Err(e) => wrong.push(format!("{what}, {name}: {e}")),
            }
        }
    }
    assert!(wrong.is_empty(), "{} of {} scans wrong:\n{}", wrong.len(), predicates.len() * 16, wrong.join("\n"));
}

/// A prefix plans no file without a string that starts with it: the
/// partitions of `truncate` and `identity` and the files' bounds rule the
/// others out (each partition is one file here).
#[tokio::test]
async fn a_prefix_plans_only_the_files_of_its_strings() {
    let dir = tempfile::tempdir().unwrap();
    let catalog = common::memory_catalog(dir.path(), "p").await;
    let f = Row::fields();
    let all = rows();
    for (i, (what, by, partition)) in [
        ("truncate(3, s)", Partitioning::new().truncate(3, &f.s), 3),
        ("identity(s)", Partitioning::new().identity(&f.s), usize::MAX),
    ]
    .into_iter()
    .enumerate()
    {
        let ident = iceberg::TableIdent::from_strs(["p", &format!("rows{i}")]).unwrap();
        let table = create_table(&catalog, &ident, &by).await.unwrap();
        let mut writer = TableWriter::builder(&table).partitioning(by).build().unwrap();
        writer.write_all(&all).await.unwrap();
        let table = writer.commit(&catalog).await.unwrap();
        for prefix in ["Ün", "Ünï", "Ü", "日", "a\u{10ffff}"] {
            // The partitions (each a file) that hold a string with the prefix.
            let holding: BTreeSet<String> = all
                .iter()
                .filter_map(|r| r.s.as_deref())
                .filter(|s| s.starts_with(prefix))
                .map(|s| s.chars().take(partition).collect())
                .collect();
            let planned = TableScan::<Row>::new(&table).filter(f.s.starts_with(prefix)).files().await.unwrap();
            assert_eq!(planned.len(), holding.len(), "{what}, prefix {prefix:?}: {planned:?} for {holding:?}");
        }
    }
}
