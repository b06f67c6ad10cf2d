//! Reads back the file `write_large` wrote (10 million generated `Nested`
//! records), checking every record against the generator, to show that the
//! reader streams: its memory stays about one row group's column chunks
//! being decoded, whatever the file's size. With `--borrowed`, the records
//! borrow their strings from each lent batch (`NestedBorrowed`).
//!
//! ```text
//! cargo build --release -p benches --example write_large --example read_large
//! target/release/examples/write_large
//! /usr/bin/time -v target/release/examples/read_large [--borrowed] [PATH] [THREADS]
//! ```
//!
//! PATH defaults to `write_large.parquet` in the target directory (where
//! `write_large` puts it); THREADS to the machine's available parallelism.

use std::path::PathBuf;
use std::time::Instant;

use benches::borrowed::{NestedBorrowed, RequiredBorrowed};
use benches::nested::{stream, Nested, Required};
use benches::SEED;
use magnolify_parquet::{ReadOptions, ReaderBuilder};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let borrowed = args.iter().position(|a| a == "--borrowed").map(|at| args.remove(at)).is_some();
    let mut args = args.into_iter();
    let path = args.next().map_or_else(benches::large_file_path, PathBuf::from);
    let builder = ReaderBuilder::open(&path)?;
    let threads: Option<usize> = args.next().map(|n| n.parse()).transpose()?;
    let meta = builder.metadata().clone();
    let started = Instant::now();
    let mut expected = stream(SEED);
    let mut records = 0u64;
    let differs = |records: u64| format!("record {records} differs from the one written");
    if borrowed {
        let mut reader = builder.build_borrowed::<NestedBorrowed>(options(threads))?;
        while let Some(batch) = reader.next_batch()? {
            for record in &batch {
                if !expected.next().is_some_and(|e| same(record, &e)) {
                    return Err(differs(records).into());
                }
                records += 1;
            }
        }
    } else {
        for record in builder.build::<Nested>(options(threads))? {
            if Some(&record?) != expected.next().as_ref() {
                return Err(differs(records).into());
            }
            records += 1;
        }
    }
    println!("path:              {}", benches::shown_path(&path).display());
    let how = if borrowed { "lent, borrowing their strings" } else { "owned" };
    println!("records:           {records} read ({how}), all equal to those written");
    benches::print_row_groups(&meta);
    println!("elapsed:           {:.1} s (reading and checking)", started.elapsed().as_secs_f64());
    Ok(())
}

/// Default options, with `threads` when given.
fn options<T>(threads: Option<usize>) -> ReadOptions<T> {
    match threads {
        Some(n) => ReadOptions::default().threads(n),
        None => ReadOptions::default(),
    }
}

/// Whether a borrowed record holds the values of an owned one.
fn same(b: &NestedBorrowed<'_>, o: &Nested) -> bool {
    let required = |b: &RequiredBorrowed<'_>, o: &Required| b.b == o.b && b.i == o.i && b.s == o.s;
    b.b == o.b
        && b.i == o.i
        && b.s == o.s
        && required(&b.r, &o.r)
        && match (&b.o, &o.o) {
            (Some(b), Some(o)) => required(b, o),
            (None, None) => true,
            _ => false,
        }
        && b.l.len() == o.l.len()
        && b.l.iter().zip(&o.l).all(|(b, o)| required(b, o))
}
