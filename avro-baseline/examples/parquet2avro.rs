//! Converts a Parquet file to an Avro object container file, streaming one
//! row group and one batch of records at a time.
//!
//! ```text
//! cargo run --release -p avro-baseline --example parquet2avro -- IN.parquet OUT.avro [--codec deflate]
//! ```
//!
//! The Avro schema is the one in the footer (`parquet.avro.schema`), or one
//! derived from the Parquet schema for files of other writers. Codecs:
//! `null`, `deflate`, `snappy`, `zstd` (default `deflate`).

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use apache_avro::{Codec, DeflateSettings, Writer, ZstandardSettings};
use avro_baseline::{AvroConverter, AvroOptions};
use magnolify_parquet::ReaderBuilder;

struct Args {
    input: PathBuf,
    output: PathBuf,
    codec: Codec,
}

fn parse_args() -> Result<Args, String> {
    let mut paths = Vec::new();
    let mut codec = Codec::Deflate(DeflateSettings::default());
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--codec" => {
                codec = match args.next().as_deref() {
                    Some("null") => Codec::Null,
                    Some("deflate") => Codec::Deflate(DeflateSettings::default()),
                    Some("snappy") => Codec::Snappy,
                    Some("zstd") => Codec::Zstandard(ZstandardSettings::default()),
                    other => return Err(format!("unknown codec {other:?}")),
                }
            }
            flag if flag.starts_with("--") => return Err(format!("unknown option {flag}")),
            path => paths.push(PathBuf::from(path)),
        }
    }
    match <[PathBuf; 2]>::try_from(paths) {
        Ok([input, output]) => Ok(Args { input, output, codec }),
        Err(_) => Err("expected IN.parquet and OUT.avro".into()),
    }
}

fn convert(args: &Args) -> Result<u64, Box<dyn std::error::Error>> {
    // The footer is read once, by the hardened reader, for both the Avro
    // schema and the records.
    let builder = ReaderBuilder::open(&args.input)?;
    let converter = AvroConverter::for_file(builder.metadata(), AvroOptions::default())?;
    let schema = converter.avro_schema().clone();
    let reader = builder.build_with(converter)?;

    let temp = temp_path(&args.output);
    let mut writer = Writer::with_codec(&schema, BufWriter::new(File::create(&temp)?), args.codec);
    let start = Instant::now();
    let mut last = start;
    let mut records = 0u64;
    for value in reader {
        writer.append(value?).map_err(|e| format!("record {records}: {e}"))?;
        records += 1;
        if records.is_multiple_of(4096) && last.elapsed() >= Duration::from_secs(1) {
            last = Instant::now();
            eprint!("\r{records} records, {:.0} records/s", records as f64 / start.elapsed().as_secs_f64());
        }
    }
    writer.into_inner()?.into_inner().map_err(|e| e.into_error())?.sync_all()?;
    std::fs::rename(&temp, &args.output)?;
    eprintln!("\r{records} records, {:.0} records/s", records as f64 / start.elapsed().as_secs_f64().max(1e-9));
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
            eprintln!("{e}\nusage: parquet2avro IN.parquet OUT.avro [--codec null|deflate|snappy|zstd]");
            std::process::exit(2);
        }
    };
    if let Err(e) = convert(&args) {
        let _ = std::fs::remove_file(temp_path(&args.output));
        eprintln!("\nparquet2avro: {e}");
        std::process::exit(1);
    }
}
