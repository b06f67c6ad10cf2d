//! Peak memory of a partitioned write whose input comes in no order
//! (docs/benchmarks.md): 1,000,000 orders of about 250 bytes over 144
//! partitions, with 8 files open and a 16 MiB spill budget, so that most
//! records are held and spilled to disk, then written one partition at a
//! time when the writer closes.
//!
//!     cargo build --release -p magnolify-parquet --example spill_memory
//!     /usr/bin/time -v target/release/examples/spill_memory DIR [BUDGET_MIB [ROW_GROUP_MIB]]
//!
//! The orders are made as they are written (none is kept by the example),
//! so the peak resident memory `/usr/bin/time -v` reports is the writer's:
//! the spill budget, one row group (at most 4 MiB here) per open file, and
//! about 1 MiB per spilled run while the held partitions are written.

use std::time::Instant;

use magnolify_parquet::dataset::DatasetWriter;
use magnolify_parquet::ParquetType;

#[derive(ParquetType, Clone, Debug, PartialEq)]
struct Order {
    id: i64,
    shop: i32,
    day: i32,
    amount: f64,
    /// 200 bytes of text.
    note: String,
}

const ORDERS: i64 = 1_000_000;
const PARTITIONS: i64 = 144;

/// The `id`th order; its partition from a multiplicative hash of `id`, so
/// that consecutive orders land in partitions far apart.
fn order(id: i64) -> Order {
    let k = (id * 97 + id / PARTITIONS) % PARTITIONS;
    let note = format!("{id:>12} {}", "a scattered stream of orders, each with a note ".repeat(4));
    Order { id, shop: (k / 12) as i32, day: (k % 12) as i32, amount: id as f64 * 0.5, note: note[..200].to_owned() }
}

fn main() -> Result<(), magnolify_parquet::Error> {
    let mut args = std::env::args().skip(1);
    let dir = std::path::PathBuf::from(args.next().expect("usage: spill_memory DIR [BUDGET_MIB [ROW_GROUP_MIB]]"));
    let mib = |arg: Option<String>, default: u64| arg.map_or(default, |a| a.parse().expect("MiB")) << 20;
    let (budget, row_group) = (mib(args.next(), 16), mib(args.next(), 4));
    let (root, spill) = (dir.join("orders"), dir.join("spill"));
    let f = Order::fields();
    let started = Instant::now();
    let mut writer = DatasetWriter::builder(&root)
        .partition_by(&f.shop)
        .partition_by(&f.day)
        .limits(|l| l.max_open_files(8).spill_budget(budget).spill_dir(&spill))
        .files(move |w| w.max_row_group_bytes(row_group as usize))
        .build()?;
    let mut raw = 0u64;
    for id in 0..ORDERS {
        let order = order(id);
        raw += 8 + 4 + 4 + 8 + order.note.len() as u64;
        writer.write(&order)?;
    }
    let summary = writer.close()?;
    let partitions: std::collections::BTreeSet<_> = summary.files.iter().filter_map(|f| f.parent()).collect();
    println!(
        "{} orders ({:.0} MiB of values) in {} files over {} partitions, {} runs spilled, in {:.1} s",
        summary.rows,
        raw as f64 / f64::from(1 << 20),
        summary.files.len(),
        partitions.len(),
        summary.spilled_runs,
        started.elapsed().as_secs_f64()
    );
    assert_eq!((summary.rows, summary.files.len(), partitions.len()), (ORDERS as u64, 144, 144));
    assert_eq!(std::fs::read_dir(&spill).map_or(0, |d| d.count()), 0, "the runs are removed");
    Ok(())
}
