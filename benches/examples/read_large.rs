//! Reads back the file `write_large` wrote (10 million generated `Nested`
//! records), checking every record against the generator, to show that the
//! reader streams: its memory stays about one row group's column chunks
//! being decoded, whatever the file's size.
//!
//! ```text
//! cargo build --release -p benches --example write_large --example read_large
//! target/release/examples/write_large
//! /usr/bin/time -v target/release/examples/read_large [PATH] [THREADS]
//! ```
//!
//! PATH defaults to `write_large.parquet` in the target directory (where
//! `write_large` puts it); THREADS to the machine's available parallelism.

use std::path::PathBuf;
use std::time::Instant;

use benches::nested::{stream, Nested};
use benches::SEED;
use magnolify_parquet::{ReadOptions, ReaderBuilder};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().map_or_else(benches::large_file_path, PathBuf::from);
    let builder = ReaderBuilder::open(&path)?;
    let options = match args.next() {
        Some(n) => ReadOptions::default().threads(n.parse()?),
        None => ReadOptions::default(),
    };
    let meta = builder.metadata().clone();
    let started = Instant::now();
    let mut expected = stream(SEED);
    let mut records = 0u64;
    for record in builder.build::<Nested>(options)? {
        let record = record?;
        if Some(&record) != expected.next().as_ref() {
            return Err(format!("record {records} differs from the one written").into());
        }
        records += 1;
    }
    println!("path:              {}", benches::shown_path(&path).display());
    println!("records:           {records} read, all equal to those written");
    benches::print_row_groups(&meta);
    println!("elapsed:           {:.1} s (reading and checking)", started.elapsed().as_secs_f64());
    Ok(())
}
