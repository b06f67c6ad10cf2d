//! Peak memory of a table scan (docs/benchmarks.md): a table of large data
//! files written once, then scanned as a stream in another process, whose
//! peak resident memory `/usr/bin/time -v` reports.
//!
//!     cargo run --release --example scan_memory -- write DIR GIB
//!     /usr/bin/time -v cargo run --release --example scan_memory -- scan DIR
//!
//! `write` makes `DIR/warehouse` a table of about GIB GiB of zstd data
//! files of 256 MiB in row groups of about 128 MiB
//! and writes the location of its metadata to `DIR/metadata.txt`. `scan`
//! registers that table in a new catalog and reads every column of every
//! record as a stream, on the default threads, and prints what it read.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use futures::TryStreamExt;
use iceberg::io::LocalFsStorageFactory;
use iceberg::memory::{MemoryCatalogBuilder, MEMORY_CATALOG_WAREHOUSE};
use iceberg::{Catalog, CatalogBuilder, NamespaceIdent, TableIdent};
use magnolify_iceberg::{create_table, Partitioning, TableScan, TableWriter};
use magnolify_parquet::ParquetType;

#[derive(ParquetType, Clone, Debug, PartialEq)]
struct Visit {
    id: i64,
    user: i64,
    #[parquet(timestamp = "micros")]
    at: chrono::DateTime<chrono::Utc>,
    /// 32 hexadecimal digits of noise: data that zstd cannot shrink much.
    token: String,
    score: f64,
}

/// The `n`th visit, from a xorshift of `n`.
fn visit(n: i64) -> Visit {
    let mut x = (n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let token = format!("{:016x}{:016x}", next(), next());
    let at = chrono::DateTime::from_timestamp_micros(1_700_000_000_000_000 + (next() % 86_400_000_000) as i64);
    Visit { id: n, user: (next() % 1_000_000) as i64, at: at.unwrap(), token, score: (next() % 10_000) as f64 / 7.0 }
}

async fn catalog(dir: &Path) -> iceberg::memory::MemoryCatalog {
    let warehouse = format!("file://{}", dir.join("warehouse").display());
    let props = HashMap::from([(MEMORY_CATALOG_WAREHOUSE.to_owned(), warehouse)]);
    let catalog = MemoryCatalogBuilder::default()
        .with_storage_factory(Arc::new(LocalFsStorageFactory))
        .load("scan_memory", props)
        .await
        .expect("a memory catalog");
    catalog.create_namespace(&NamespaceIdent::new("m".to_owned()), HashMap::new()).await.expect("a namespace");
    catalog
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: scan_memory write DIR GIB | scan DIR";
    let (command, dir) = match &args[..] {
        [command, dir, ..] => (command.as_str(), Path::new(dir)),
        _ => return Err(usage.into()),
    };
    let name = TableIdent::from_strs(["m", "visits"])?;
    let started = Instant::now();
    match command {
        "write" => {
            let gib: f64 = args.get(2).ok_or(usage)?.parse()?;
            std::fs::create_dir_all(dir)?;
            let catalog = catalog(dir).await;
            let table = create_table(&catalog, &name, &Partitioning::<Visit>::new()).await?;
            let mut writer = TableWriter::builder(&table)
                .limits(|l| l.max_bytes_per_file(256 << 20).max_rows_per_file(u64::MAX))
                // Row groups of about 128 MiB on disk: the writer's limit
                // is on its estimate of the raw values, about twice that.
                .files(|b| b.max_row_group_bytes(265 << 20).max_row_group_rows(usize::MAX))
                .build()?;
            let target = (gib * f64::from(1u32 << 30)) as u64;
            let mut n = 0;
            while n % 1_000_000 != 0 || files_bytes(&dir.join("warehouse")) < target {
                writer.write(&visit(n)).await?;
                n += 1;
            }
            let table = writer.commit(&catalog).await?;
            let location = table.metadata_location().ok_or("no metadata location")?;
            std::fs::write(dir.join("metadata.txt"), location)?;
            let bytes = files_bytes(&dir.join("warehouse"));
            println!("wrote {n} records, {bytes} bytes of data files, in {:.1} s", started.elapsed().as_secs_f64());
        }
        "scan" => {
            let catalog = catalog(dir).await;
            let location = std::fs::read_to_string(dir.join("metadata.txt"))?;
            let table = catalog.register_table(&name, location).await?;
            let mut visits = TableScan::<Visit>::new(&table).stream();
            let (mut records, mut checksum) = (0u64, 0i64);
            while let Some(v) = visits.try_next().await? {
                records += 1;
                checksum = checksum.wrapping_add(v.id ^ v.user ^ v.at.timestamp_micros() ^ v.token.len() as i64);
                checksum = checksum.wrapping_add(v.score as i64);
            }
            println!("scanned {records} records (checksum {checksum}) in {:.1} s", started.elapsed().as_secs_f64());
        }
        _ => return Err(usage.into()),
    }
    Ok(())
}

/// The bytes of the Parquet files under `dir`.
fn files_bytes(dir: &Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(dir) else { return 0 };
    entries
        .flatten()
        .map(|e| {
            let path = e.path();
            if path.is_dir() {
                files_bytes(&path)
            } else if path.extension().is_some_and(|x| x == "parquet") {
                e.metadata().map_or(0, |m| m.len())
            } else {
                0
            }
        })
        .sum()
}
