//! Writes 10 million generated `Nested` records to a Parquet file (ZSTD) and
//! prints the largest encoded row group, to check that the writer's memory
//! stays about one encoded row group whatever the file's size.
//!
//! ```text
//! cargo build --release -p benches --example write_large
//! /usr/bin/time -v target/release/examples/write_large [PATH] [RECORDS]
//! ```
//!
//! PATH defaults to `write_large.parquet` in the target directory (beside
//! the binary's `examples/` folder); RECORDS to 10,000,000.

use std::path::PathBuf;
use std::time::Instant;

use benches::nested::{stream, Nested};
use benches::SEED;
use magnolify_parquet::parquet::basic::{Compression, ZstdLevel};
use magnolify_parquet::WriterBuilder;

const DEFAULT_RECORDS: u64 = 10_000_000;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().map_or_else(benches::large_file_path, PathBuf::from);
    let records = match args.next() {
        Some(n) => n.parse::<u64>()?,
        None => DEFAULT_RECORDS,
    };
    let started = Instant::now();
    let mut writer =
        WriterBuilder::<Nested>::new().compression(Compression::ZSTD(ZstdLevel::default())).create(&path)?;
    for record in stream(SEED).take(records as usize) {
        writer.write(&record)?;
    }
    let meta = writer.close()?;
    let file_bytes = std::fs::metadata(&path)?.len();
    println!("path:              {}", benches::shown_path(&path).display());
    println!("records:           {}", meta.file_metadata().num_rows());
    benches::print_row_groups(&meta);
    println!("file size:         {file_bytes} bytes");
    println!("elapsed:           {:.1} s", started.elapsed().as_secs_f64());
    Ok(())
}
