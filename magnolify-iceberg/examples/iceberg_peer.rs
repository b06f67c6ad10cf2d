//! The Rust half of the Iceberg peer check (tests/peer/iceberg_peer.py is
//! the other): tables in a SQL catalog on sqlite that pyiceberg's
//! `SqlCatalog` shares.
//!
//!     cargo run --example iceberg_peer -- first DIR
//!     cargo run --example iceberg_peer -- second DIR
//!
//! `first` creates `web.clicks` (partitioned by `day(ts)` and
//! `bucket(8, user_id)`) and appends to it, then reads `py.events`, the
//! table pyiceberg wrote, and `py.imported` (a file pyarrow wrote without
//! field ids, added by pyiceberg, then a column renamed: read through the
//! table's name mapping), and compares them with pyiceberg's expectation.
//! Between the two, pyiceberg renames `page` to `path` and adds `country`;
//! `second` appends records of the evolved type, reads every record back,
//! and writes what pyiceberg must read (`clicks.expected.json`, and
//! `clicks.filtered.json` and `clicks.shipped.json`, the ids filtered
//! scans return, the second on an enum column). It then makes
//! `web.clicks_deleted`: the table with a snapshot of position deletes
//! (rows 0, 2 and 4 of one data file, committed as Spark's merge-on-read
//! DELETE would), reads it, and writes the ids left
//! (`clicks_deleted.json`) for pyiceberg to read the same; and
//! `web.clicks_dv`, the table upgraded to format v3 (`web.clicks_v3`) with
//! a deletion vector of rows 1, 3 and 5 of that file (`clicks_dv.json`).
//! Each check's
//! outcome goes into `rust_results.json`, which the peer check reports.

// The tests' helpers: the position-delete snapshot committed by hand.
#[allow(dead_code)]
#[path = "../tests/common/mod.rs"]
mod common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use common::deletes::Deletes;

use chrono::{DateTime, TimeZone, Utc};
use iceberg::io::LocalFsStorageFactory;
use iceberg::{Catalog, CatalogBuilder, NamespaceIdent, TableIdent};
use iceberg_catalog_sql::{
    SqlCatalogBuilder, SQL_CATALOG_PROP_BIND_STYLE, SQL_CATALOG_PROP_URI, SQL_CATALOG_PROP_WAREHOUSE,
};
use magnolify_iceberg::{create_table, Partitioning, TableScan, TableWriter};
use magnolify_parquet::{ParquetType, ReadOptions, ReaderBuilder};
use serde_json::{json, Value};

/// `web.clicks` as it is created.
#[derive(ParquetType, Clone, Debug, PartialEq)]
struct Click {
    id: i64,
    user_id: i64,
    #[parquet(timestamp = "micros")]
    ts: DateTime<Utc>,
    page: String,
    referrer: Option<String>,
    tags: Vec<String>,
    status: Status,
}

/// A unit enum: a `string` column of the table, which pyiceberg and DuckDB
/// filter by its symbols.
#[derive(ParquetType, Clone, Copy, Debug, PartialEq)]
enum Status {
    Placed,
    Shipped,
    Returned,
}

/// `web.clicks` after pyiceberg renamed `page` and added `country`.
#[derive(ParquetType, Clone, Debug, PartialEq)]
struct ClickNow {
    id: i64,
    user_id: i64,
    #[parquet(timestamp = "micros")]
    ts: DateTime<Utc>,
    path: String,
    referrer: Option<String>,
    tags: Vec<String>,
    status: Status,
    country: Option<String>,
}

/// `py.events`, the table pyiceberg wrote (with `label` renamed from
/// `name` and `score` added between its appends).
#[derive(ParquetType, Clone, Debug, PartialEq)]
struct Event {
    id: i64,
    label: Option<String>,
    amount: Option<f64>,
    #[parquet(timestamp = "micros")]
    ts: Option<DateTime<Utc>>,
    score: Option<i32>,
}

/// `py.imported`: its file has `page`, which the table renamed to `path`.
#[derive(ParquetType, Clone, Debug, PartialEq)]
struct Imported {
    id: Option<i64>,
    path: Option<String>,
    tags: Option<Vec<Option<String>>>,
}

fn click(id: i64) -> Click {
    Click {
        id,
        user_id: id % 13,
        ts: Utc.with_ymd_and_hms(2024, 3, 1 + (id % 3) as u32, (id % 24) as u32, (id % 60) as u32, 0).unwrap(),
        page: format!("/page/{}", id % 7),
        referrer: (id % 4 != 0).then(|| format!("https://ref{}.example/{}", id % 5, "x".repeat((id % 30) as usize))),
        tags: (0..id % 3).map(|t| format!("t{t}")).collect(),
        status: [Status::Placed, Status::Shipped, Status::Returned][(id % 3) as usize],
    }
}

fn click_now(id: i64) -> ClickNow {
    let Click { id, user_id, ts, page, referrer, tags, status } = click(id);
    ClickNow {
        id,
        user_id,
        ts,
        path: page,
        referrer,
        tags,
        status,
        country: (id % 2 == 0).then(|| ["FR", "JP"][(id % 4 / 2) as usize].to_owned()),
    }
}

async fn catalog(dir: &Path) -> impl Catalog {
    let props = HashMap::from([
        (SQL_CATALOG_PROP_URI.to_owned(), format!("sqlite:{}?mode=rwc", dir.join("catalog.db").display())),
        (SQL_CATALOG_PROP_WAREHOUSE.to_owned(), format!("file://{}", dir.join("warehouse").display())),
        (SQL_CATALOG_PROP_BIND_STYLE.to_owned(), "QMark".to_owned()),
    ]);
    SqlCatalogBuilder::default()
        .with_storage_factory(Arc::new(LocalFsStorageFactory))
        .load("peer", props)
        .await
        .expect("the sqlite catalog opens")
}

/// The checks' outcomes, appended to `rust_results.json`.
struct Results {
    path: PathBuf,
    entries: Vec<Value>,
}

impl Results {
    fn open(dir: &Path) -> Self {
        let path = dir.join("rust_results.json");
        let entries = std::fs::read(&path).ok().and_then(|b| serde_json::from_slice(&b).ok()).unwrap_or_default();
        Results { path, entries }
    }

    fn check(&mut self, name: &str, ok: bool, detail: String) {
        println!("{} {name}: {detail}", if ok { "ok  " } else { "FAIL" });
        self.entries.push(json!({ "check": name, "ok": ok, "detail": detail }));
    }

    /// A check that the rows read (as JSON) are the rows expected.
    fn rows(&mut self, name: &str, read: &[Value], expected: &[Value]) {
        let same = read.iter().zip(expected).filter(|(a, b)| a == b).count();
        let detail = format!("{same} of {} rows equal, {} read", expected.len(), read.len());
        self.check(name, read == expected, detail);
    }

    fn save(&self) {
        std::fs::write(&self.path, serde_json::to_vec_pretty(&self.entries).unwrap()).unwrap();
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let [_, phase, dir] = &args[..] else {
        return Err("usage: iceberg_peer first|second DIR".into());
    };
    let dir = Path::new(dir);
    let catalog = catalog(dir).await;
    let mut results = Results::open(dir);
    let name = TableIdent::from_strs(["web", "clicks"])?;
    match phase.as_str() {
        "first" => {
            let web = NamespaceIdent::new("web".to_owned());
            catalog.create_namespace(&web, HashMap::new()).await?;
            let fields = Click::fields();
            let by = Partitioning::new().day(&fields.ts).bucket(8, &fields.user_id);
            let table = create_table(&catalog, &name, &by).await?;
            let mut writer = TableWriter::builder(&table).partitioning(by).build()?;
            for id in 0..400 {
                writer.write(&click(id)).await?;
            }
            writer.commit(&catalog).await?;
            read_pyiceberg_table(&catalog, dir, &mut results).await?;
        }
        "second" => {
            let table = catalog.load_table(&name).await?;
            let fields = ClickNow::fields();
            let by = Partitioning::new().day(&fields.ts).bucket(8, &fields.user_id);
            let mut writer = TableWriter::builder(&table).partitioning(by).build()?;
            for id in 400..600 {
                writer.write(&click_now(id)).await?;
            }
            let table = writer.commit(&catalog).await?;
            // The first append's records have no country: it was added after.
            let expected: Vec<ClickNow> = (0..600)
                .map(|id| if id < 400 { ClickNow { country: None, ..click_now(id) } } else { click_now(id) })
                .collect();
            let mut read = TableScan::<ClickNow>::new(&table).collect().await?;
            read.sort_by_key(|c| c.id);
            let ok = read == expected;
            results.check(
                "web.clicks read back after pyiceberg's rename and added column",
                ok,
                format!(
                    "{} of {} records equal",
                    read.iter().zip(&expected).filter(|(a, b)| a == b).count(),
                    expected.len()
                ),
            );

            let since = Utc.with_ymd_and_hms(2024, 3, 2, 0, 0, 0).unwrap();
            let filter = fields.user_id.eq(3).and(fields.ts.ge(since));
            let mut filtered: Vec<i64> =
                TableScan::<ClickNow>::new(&table).filter(filter).collect().await?.iter().map(|c| c.id).collect();
            filtered.sort();
            let wanted: Vec<i64> = expected.iter().filter(|c| c.user_id == 3 && c.ts >= since).map(|c| c.id).collect();
            results.check("web.clicks filtered scan", filtered == wanted, format!("{} ids", filtered.len()));

            let shipped = TableScan::<ClickNow>::new(&table).filter(fields.status.eq(Status::Shipped));
            let mut shipped: Vec<i64> = shipped.collect().await?.iter().map(|c| c.id).collect();
            shipped.sort();
            let wanted: Vec<i64> = expected.iter().filter(|c| c.status == Status::Shipped).map(|c| c.id).collect();
            results.check("web.clicks scan filtered on an enum", shipped == wanted, format!("{} ids", shipped.len()));

            let rows: Vec<Value> = expected
                .iter()
                .map(|c| {
                    json!({
                        "id": c.id, "user_id": c.user_id, "ts": c.ts.timestamp_micros(), "path": c.path,
                        "referrer": c.referrer, "tags": c.tags, "status": format!("{:?}", c.status),
                        "country": c.country,
                    })
                })
                .collect();
            std::fs::write(dir.join("clicks.expected.json"), serde_json::to_vec(&rows)?)?;
            std::fs::write(dir.join("clicks.filtered.json"), serde_json::to_vec(&filtered)?)?;
            std::fs::write(dir.join("clicks.shipped.json"), serde_json::to_vec(&shipped)?)?;
            let positions = Deletes::Positions(vec![0, 2, 4]);
            delete_rows(&catalog, &table, "clicks_deleted", positions, dir, &mut results).await?;
            // The same table in format v3, with a deletion vector.
            let v3 = common::upgraded(&catalog, &table, &TableIdent::from_strs(["web", "clicks_v3"])?).await;
            let vector = Deletes::Vector(vec![1, 3, 5]);
            delete_rows(&catalog, &v3, "clicks_dv", vector, dir, &mut results).await?;
        }
        other => return Err(format!("unknown phase {other}").into()),
    }
    results.save();
    Ok(())
}

/// Makes `web.<name>`, `table` with rows of its first data file deleted
/// by `deletes` (positions or a deletion vector), reads it, and writes the
/// ids left for pyiceberg (`<name>.json`).
async fn delete_rows(
    catalog: &impl Catalog,
    table: &iceberg::table::Table,
    name: &str,
    deletes: Deletes,
    dir: &Path,
    results: &mut Results,
) -> Result<(), Box<dyn std::error::Error>> {
    let files = TableScan::<ClickNow>::new(table).files().await?;
    let data_file = &files[0];
    // The ids at those rows, read from the data file itself.
    let bytes = table.file_io().new_input(data_file)?.read().await?;
    let in_file: Vec<i64> = ReaderBuilder::new(bytes)?
        .build::<Id>(ReadOptions::default())?
        .map(|r| r.map(|r| r.id))
        .collect::<Result<_, _>>()?;
    let rows = match &deletes {
        Deletes::Positions(rows) => rows.iter().map(|&r| r as usize).collect::<Vec<_>>(),
        Deletes::Vector(rows) => rows.iter().map(|&r| r as usize).collect(),
        Deletes::Equality { .. } => return Err("equality deletes have no rows to name".into()),
    };
    let gone: Vec<i64> = rows.iter().map(|&r| in_file[r]).collect();
    let ident = TableIdent::from_strs(["web", name])?;
    let (deleted, _) = common::deletes::with_delete(catalog, table, data_file, deletes, &ident).await;
    let mut ids: Vec<i64> = TableScan::<ClickNow>::new(&deleted).collect().await?.iter().map(|c| c.id).collect();
    ids.sort();
    let wanted: Vec<i64> = (0..600).filter(|id| !gone.contains(id)).collect();
    results.check(
        &format!("web.{name} read with its deletes"),
        ids == wanted,
        format!("{} ids, {gone:?} gone", ids.len()),
    );
    std::fs::write(dir.join(format!("{name}.json")), serde_json::to_vec(&ids)?)?;
    Ok(())
}

/// The id column of a data file of `web.clicks`.
#[derive(ParquetType)]
struct Id {
    id: i64,
}

/// The table `py.<name>` pyiceberg wrote, and its rows as pyiceberg's
/// script expects them to read (`py_<name>.expected.json`).
async fn pyiceberg_table(
    catalog: &impl Catalog,
    dir: &Path,
    name: &str,
) -> Result<(iceberg::table::Table, Vec<Value>), Box<dyn std::error::Error>> {
    let expected = serde_json::from_slice(&std::fs::read(dir.join(format!("py_{name}.expected.json")))?)?;
    Ok((catalog.load_table(&TableIdent::from_strs(["py", name])?).await?, expected))
}

/// Reads `py.events` and compares it with what pyiceberg wrote into it.
async fn read_pyiceberg_table(
    catalog: &impl Catalog,
    dir: &Path,
    results: &mut Results,
) -> Result<(), Box<dyn std::error::Error>> {
    let (table, expected) = pyiceberg_table(catalog, dir, "events").await?;
    let mut read = TableScan::<Event>::new(&table).collect().await?;
    read.sort_by_key(|e| e.id);
    let as_json: Vec<Value> = read.iter().map(|e| json!({
        "id": e.id, "label": e.label, "amount": e.amount, "ts": e.ts.map(|t| t.timestamp_micros()), "score": e.score,
    })).collect();
    results.rows("py.events (pyiceberg's) read by magnolify-iceberg", &as_json, &expected);

    let filter = Event::fields().id.lt(120).and(Event::fields().score.is_not_null());
    let scan = TableScan::<Event>::new(&table).filter(filter);
    let files = scan.files().await?.len();
    let mut ids: Vec<i64> = scan.collect().await?.iter().map(|e| e.id).collect();
    ids.sort();
    let wanted: Vec<i64> = expected
        .iter()
        .filter(|r| r["id"].as_i64() < Some(120) && !r["score"].is_null())
        .filter_map(|r| r["id"].as_i64())
        .collect();
    results.check("py.events filtered scan", ids == wanted, format!("{} ids from {files} files", ids.len()));
    read_imported_table(catalog, dir, results).await
}

/// Reads `py.imported` by its name mapping and compares it with the rows
/// pyarrow wrote.
async fn read_imported_table(
    catalog: &impl Catalog,
    dir: &Path,
    results: &mut Results,
) -> Result<(), Box<dyn std::error::Error>> {
    let (table, expected) = pyiceberg_table(catalog, dir, "imported").await?;
    let mut read = TableScan::<Imported>::new(&table).collect().await?;
    read.sort_by_key(|r| r.id);
    let as_json: Vec<Value> = read.iter().map(|r| json!({ "id": r.id, "path": r.path, "tags": r.tags })).collect();
    let check = "py.imported (pyarrow's file without ids, column renamed) read by its name mapping";
    results.rows(check, &as_json, &expected);
    Ok(())
}
