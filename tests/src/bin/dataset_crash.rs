//! `dataset_crash DIR THREADS`: writes records into a partitioned dataset at
//! DIR (files rolled every 700 records, so some are complete and some open)
//! and aborts the process mid-way, without committing. `tests/tests/it/datasets.rs`
//! runs it and checks what it leaves: no visible partial file, no `_SUCCESS`.
#![forbid(unsafe_code)]

use magnolify_parquet::dataset::DatasetWriter;
use magnolify_parquet::ParquetType;

#[derive(ParquetType, Clone)]
struct Reading {
    sensor: String,
    seq: u64,
    value: f64,
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(dir), Some(Ok(threads))) = (args.get(1), args.get(2).map(|n| n.parse::<usize>())) else {
        eprintln!("usage: dataset_crash DIR THREADS");
        std::process::exit(2);
    };
    let f = Reading::fields();
    let mut w = DatasetWriter::builder(dir)
        .partition_by(&f.sensor)
        .limits(|l| l.max_rows_per_file(700))
        .threads(threads)
        .build()
        .unwrap();
    for seq in 0..10_000u64 {
        w.write(&Reading { sensor: format!("s{}", seq % 4), seq, value: seq as f64 }).unwrap();
    }
    // Some files are complete (rolled), four are open: the process dies.
    std::process::abort();
}
