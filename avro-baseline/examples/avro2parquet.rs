//! Converts an Avro object container file to Parquet, streaming: memory
//! stays about one encoded row group, whatever the file's size.
//!
//! ```text
//! cargo run --release -p avro-baseline --example avro2parquet -- IN.avro OUT.parquet [--codec zstd] [--three-level]
//! ```
//!
//! The Parquet schema follows parquet-avro (two-level lists unless
//! `--three-level`), and the Avro schema is stored in the footer, so
//! `parquet2avro` (or parquet-avro) gets the same records back. Codecs:
//! `none`, `snappy`, `gzip`, `lz4`, `zstd` (default `snappy`).

use std::fs::File;
use std::io::{BufReader, BufWriter};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use apache_avro::Reader;
use avro_baseline::{AvroConverter, AvroOptions, ListLayout};
use magnolify_parquet::parquet::basic::{Compression, GzipLevel, ZstdLevel};
use magnolify_parquet::WriterBuilder;

struct Args {
    input: PathBuf,
    output: PathBuf,
    codec: Compression,
    layout: ListLayout,
}

fn parse_args() -> Result<Args, String> {
    let mut paths = Vec::new();
    let mut codec = Compression::SNAPPY;
    let mut layout = ListLayout::TwoLevel;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--codec" => {
                codec = match args.next().as_deref() {
                    Some("none") => Compression::UNCOMPRESSED,
                    Some("snappy") => Compression::SNAPPY,
                    Some("gzip") => Compression::GZIP(GzipLevel::default()),
                    Some("lz4") => Compression::LZ4_RAW,
                    Some("zstd") => Compression::ZSTD(ZstdLevel::default()),
                    other => return Err(format!("unknown codec {other:?}")),
                }
            }
            "--three-level" => layout = ListLayout::ThreeLevel,
            flag if flag.starts_with("--") => return Err(format!("unknown option {flag}")),
            path => paths.push(PathBuf::from(path)),
        }
    }
    match <[PathBuf; 2]>::try_from(paths) {
        Ok([input, output]) => Ok(Args { input, output, codec, layout }),
        Err(_) => Err("expected IN.avro and OUT.parquet".into()),
    }
}

/// Prints `records` read so far on one stderr line, at most once a second.
struct Progress {
    start: Instant,
    last: Instant,
}

impl Progress {
    fn new() -> Self {
        let now = Instant::now();
        Progress { start: now, last: now }
    }

    fn tick(&mut self, records: u64, done: bool) {
        if !done && (!records.is_multiple_of(4096) || self.last.elapsed() < Duration::from_secs(1)) {
            return;
        }
        self.last = Instant::now();
        let secs = self.start.elapsed().as_secs_f64().max(1e-9);
        eprint!("\r{records} records, {:.0} records/s", records as f64 / secs);
        if done {
            eprintln!();
        }
    }
}

fn convert(args: &Args) -> Result<u64, Box<dyn std::error::Error>> {
    let reader = Reader::new(BufReader::new(File::open(&args.input)?))?;
    let converter = AvroConverter::new(reader.writer_schema().clone(), AvroOptions::new().list_layout(args.layout))?;
    // Written under a temporary name and renamed at the end: a failed run
    // never leaves a truncated file under the final name.
    let temp = temp_path(&args.output);
    let sink = BufWriter::new(File::create(&temp)?);
    let mut writer = WriterBuilder::new(converter).compression(args.codec).build(sink)?;
    let mut progress = Progress::new();
    let mut records = 0u64;
    for value in reader {
        writer.write(&value?).map_err(|e| format!("record {records}: {e}"))?;
        records += 1;
        progress.tick(records, false);
    }
    writer.close()?;
    std::fs::rename(&temp, &args.output)?;
    progress.tick(records, true);
    Ok(records)
}

fn temp_path(output: &Path) -> PathBuf {
    let mut name = output.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(".tmp");
    output.with_file_name(name)
}

fn main() {
    let args = match parse_args() {
        Ok(args) => args,
        Err(e) => {
            eprintln!(
                "{e}\nusage: avro2parquet IN.avro OUT.parquet [--codec none|snappy|gzip|lz4|zstd] [--three-level]"
            );
            std::process::exit(2);
        }
    };
    if let Err(e) = convert(&args) {
        let _ = std::fs::remove_file(temp_path(&args.output));
        eprintln!("\navro2parquet: {e}");
        std::process::exit(1);
    }
}
