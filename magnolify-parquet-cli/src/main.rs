//! `magnolify-parquet`: describe and print Parquet files, generate
//! `#[derive(ParquetType)]` structs for them, check which columns other
//! engines can read, and convert between Avro and Parquet.
//!
//! Exit codes: 0 success, 1 a `check` found unreadable columns, 2 bad usage
//! (clap's own errors exit 2 too) or a file that cannot be read or written.
//! Every error is one line on stderr, naming the file.
#![forbid(unsafe_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use magnolify_parquet::ListLayout;
use magnolify_parquet_cli::avro::{self, AvroCodec, ParquetCodec};
use magnolify_parquet_cli::cat::{self, BytesFormat, Columns, JsonRecords};
use magnolify_parquet_cli::codegen::{self, CodegenOptions};
use magnolify_parquet_cli::engines::{self, Engine, Severity};
use magnolify_parquet_cli::progress::Progress;
use magnolify_parquet_cli::{describe, input, CliError};

/// Typed Parquet tools for magnolify-parquet.
#[derive(Parser)]
#[command(name = "magnolify-parquet", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print a file's schema, key/value metadata and row groups.
    Schema {
        /// The Parquet file, or a Hive-partitioned dataset's directory.
        file: PathBuf,
        /// Also print each column chunk's statistics.
        #[arg(long)]
        stats: bool,
    },
    /// Print the records of a file as JSON lines, one per record.
    ///
    /// Values are written as in the test fixtures' expected JSON: decimals
    /// as strings with their scale's digits, dates, times and timestamps in
    /// ISO 8601 (digits by unit, `Z` for UTC instants; INT96 with nine
    /// digits and no `Z`), integers exactly (unsigned as unsigned), NaN and
    /// infinities as strings, UUIDs as 32 hex digits, lists as arrays, maps
    /// as arrays of `[key, value]` pairs, groups as objects.
    Cat {
        /// The Parquet file, or a Hive-partitioned dataset's directory (its
        /// files in order, partition values as text fields).
        file: PathBuf,
        /// Print at most this many records.
        #[arg(long, value_name = "N")]
        limit: Option<u64>,
        /// Print only these fields: comma-separated dotted paths of top-level
        /// or nested fields (`a,b.c`); fields of list elements and map values
        /// are reached through the list or map (`stops.name`).
        #[arg(long, value_name = "a,b.c", value_parser = parse_columns)]
        columns: Option<Columns>,
        /// How byte strings are written.
        #[arg(long, value_enum, default_value = "hex")]
        bytes: BytesArg,
    },
    /// Print `#[derive(ParquetType)]` structs that read the file (or the
    /// files an Avro schema converts to).
    Codegen {
        /// The Parquet file.
        #[arg(required_unless_present = "avro")]
        file: Option<PathBuf>,
        /// Generate from an Avro schema (`.avsc`) instead, with the rules of
        /// parquet-avro (and `avro2parquet`): records are structs, `["null",
        /// T]` unions `Option<T>`, other unions structs of optional members,
        /// arrays `Vec`, maps `BTreeMap<String, _>`, enums unit enums, fixed
        /// `[u8; N]`, logical types their chrono, uuid and decimal types.
        #[arg(long, value_name = "SCHEMA.avsc", conflicts_with = "file")]
        avro: Option<PathBuf>,
        /// With --avro: arrays in the three-level list layout (as
        /// `avro2parquet --three-level` writes them), not parquet-avro's
        /// two-level one.
        #[arg(long, requires = "avro")]
        three_level: bool,
        /// Name of the root struct (default: the message or record name).
        #[arg(long)]
        name: Option<String>,
        /// Note on each field what this engine cannot read, or reads
        /// differently (the findings of `check`); repeat for several.
        #[arg(long = "engine", value_name = "ENGINE", value_parser = parse_engine, conflicts_with = "avro")]
        engines: Vec<Engine>,
    },
    /// List the columns an engine cannot read, or reads differently; exits 1
    /// when some column is unreadable.
    Check {
        /// The Parquet file.
        file: PathBuf,
        /// The engine to check against: spark, duckdb, pyarrow or trino.
        #[arg(long, value_parser = parse_engine)]
        engine: Engine,
    },
    /// Convert an Avro object container file to Parquet, with parquet-avro's
    /// schema mapping; the Avro schema is kept in the footer. The output is
    /// written under a temporary name and renamed when complete, and the
    /// same input always gives the same bytes.
    #[command(name = "avro2parquet")]
    AvroToParquet {
        /// The Avro file.
        input: PathBuf,
        /// The Parquet file to write.
        output: PathBuf,
        /// Compression codec.
        #[arg(long, value_enum, default_value = "snappy")]
        codec: ParquetCodec,
        /// Write arrays in the standard three-level list layout instead of
        /// parquet-avro's default two-level one.
        #[arg(long)]
        three_level: bool,
    },
    /// Convert a Parquet file to an Avro object container file, with the
    /// Avro schema of its footer, or one derived from its Parquet schema.
    /// The output is written under a temporary name and renamed when
    /// complete, and the same input always gives the same bytes.
    #[command(name = "parquet2avro")]
    ParquetToAvro {
        /// The Parquet file.
        input: PathBuf,
        /// The Avro file to write.
        output: PathBuf,
        /// Compression codec.
        #[arg(long, value_enum, default_value = "deflate")]
        codec: AvroCodec,
    },
}

/// `--bytes`.
#[derive(Clone, Copy, clap::ValueEnum)]
enum BytesArg {
    /// Lowercase hexadecimal.
    Hex,
    /// Standard base64.
    Base64,
}

fn parse_engine(s: &str) -> Result<Engine, String> {
    s.parse()
}

fn parse_columns(s: &str) -> Result<Columns, String> {
    Columns::parse(s)
}

fn main() -> ExitCode {
    // clap prints usage errors and exits 2 itself.
    let cli = Cli::parse();
    match run(cli.command) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("magnolify-parquet: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(command: Command) -> Result<ExitCode, CliError> {
    match command {
        Command::Schema { file, stats } if file.is_dir() => {
            // A dataset: its partition fields, then its first file's schema.
            let files = magnolify_parquet::dataset::discover(&file).map_err(|e| CliError::records(&file, &e))?;
            let Some(first) = files.first() else {
                return Err(CliError::other(&file, "a directory without Parquet files"));
            };
            let fields: Vec<&str> = first.partition.iter().map(|(name, _)| name.as_str()).collect();
            let head = format!(
                "dataset: {} files, partitioned by [{}] (text fields after each file's own)\nfirst file: {}\n\n",
                files.len(),
                fields.join(", "),
                first.relative.display()
            );
            let meta = input::read_metadata(&first.path)?;
            emit(&(head + &describe::describe(&meta, stats)))?;
        }
        Command::Schema { file, stats } => {
            let meta = input::read_metadata(&file)?;
            emit(&describe::describe(&meta, stats))?;
        }
        Command::Cat { file, limit, columns, bytes } => {
            let bytes = match bytes {
                BytesArg::Hex => BytesFormat::Hex,
                BytesArg::Base64 => BytesFormat::Base64,
            };
            let converter = JsonRecords::new(bytes, columns.unwrap_or_default());
            let stdout = std::io::stdout().lock();
            cat::print(&file, converter, limit, &mut std::io::BufWriter::new(stdout))?;
        }
        Command::Codegen { file, avro, three_level, name, engines } => {
            let code = match (file, avro) {
                (_, Some(path)) => {
                    let text = std::fs::read_to_string(&path).map_err(|e| CliError::io(&path, e))?;
                    let schema = avro::guarded(|| apache_avro::Schema::parse_str(&text))
                        .and_then(|parsed| parsed.map_err(|e| e.to_string()))
                        .map_err(|e| CliError::other(&path, format!("not a valid Avro schema: {e}")))?;
                    let layout = if three_level { ListLayout::ThreeLevel } else { ListLayout::TwoLevel };
                    let opts = codegen_options(&path, name.as_deref(), "--avro ", three_level);
                    codegen::generate_from_avro(&schema, layout, &opts)
                        .map_err(|source| CliError::Codegen { path: path.clone(), source })?
                }
                (Some(file), None) => {
                    let meta = input::read_metadata(&file)?;
                    let mut opts = codegen_options(&file, name.as_deref(), "", false);
                    for engine in &engines {
                        opts.command.push_str(&format!(" --engine {engine}"));
                    }
                    opts.engines = engines;
                    let key_values = meta.file_metadata().key_value_metadata().map_or(&[][..], Vec::as_slice);
                    codegen::generate(meta.file_metadata().schema(), key_values, &opts)
                        .map_err(|source| CliError::Codegen { path: file.clone(), source })?
                }
                (None, None) => {
                    eprintln!("magnolify-parquet: codegen needs a Parquet file or --avro SCHEMA.avsc");
                    return Ok(ExitCode::from(2));
                }
            };
            emit(&code)?;
        }
        Command::Check { file, engine } => {
            let meta = input::read_metadata(&file)?;
            let findings = engines::check(meta.file_metadata().schema(), engine);
            emit(&engines::report(engine, &findings))?;
            let failed = findings.iter().any(|f| f.severity == Severity::Unreadable);
            return Ok(if failed { ExitCode::from(1) } else { ExitCode::SUCCESS });
        }
        Command::AvroToParquet { input, output, codec, three_level } => {
            let layout = if three_level { ListLayout::ThreeLevel } else { ListLayout::TwoLevel };
            let progress = Progress::new(None);
            match avro::avro_to_parquet(&input, &output, codec, layout, &mut |n| progress.update(n)) {
                Ok(records) => progress.finish("avro2parquet", records, &input, &output),
                Err(e) => {
                    progress.abandon();
                    return Err(e);
                }
            }
        }
        Command::ParquetToAvro { input, output, codec } => {
            let total = input::read_metadata(&input)?.row_groups().iter().map(|g| g.num_rows().max(0) as u64).sum();
            let progress = Progress::new(Some(total));
            match avro::parquet_to_avro(&input, &output, codec, &mut |n| progress.update(n)) {
                Ok(records) => progress.finish("parquet2avro", records, &input, &output),
                Err(e) => {
                    progress.abandon();
                    return Err(e);
                }
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Writes `text` to stdout; a closed output (`| head`) is not an error.
fn emit(text: &str) -> Result<(), CliError> {
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(CliError::io(Path::new("<stdout>"), e)),
        _ => Ok(()),
    }
}

/// The header facts of generated code: the file's name (its last
/// component, so that the output does not depend on where the file was)
/// and the command line that regenerates it.
fn codegen_options(path: &Path, name: Option<&str>, flag: &str, three_level: bool) -> CodegenOptions {
    let source = path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
    let mut command = format!("magnolify-parquet codegen {flag}{source}");
    if three_level {
        command.push_str(" --three-level");
    }
    if let Some(name) = name {
        command.push_str(&format!(" --name {name}"));
    }
    CodegenOptions { root_name: name.map(str::to_owned), source, command, engines: Vec::new() }
}
