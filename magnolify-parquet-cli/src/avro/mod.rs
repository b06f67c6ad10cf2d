//! `avro2parquet` and `parquet2avro`: streaming conversions between Avro
//! object container files and Parquet, through the `avro-baseline`
//! converter (parquet-avro's mapping; the Avro schema is stored in the
//! Parquet footer, so a round trip gives the same schema back).
//!
//! Both are deterministic, the same input giving the same bytes: Avro
//! maps (`HashMap`s, in a different order on each run) are written sorted
//! by key on both sides (`AvroOptions::sort_map_keys` for Parquet, and
//! [`container::ContainerWriter`] for Avro, which also fixes the header's
//! order and the sync marker). Both write atomically: under a temporary
//! name in the output's directory, renamed when complete; a failed run
//! leaves no file behind and any file at the output path untouched.

pub mod container;

use std::cell::Cell;
use std::fs::File;
use std::io::{BufReader, BufWriter};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Once;

use apache_avro::types::Value;
use apache_avro::{Codec, DeflateSettings, Reader, ZstandardSettings};
use avro_baseline::{AvroConverter, AvroOptions};
use magnolify_parquet::{ListLayout, ReadOptions, WriterBuilder};
use parquet::basic::{Compression, GzipLevel, ZstdLevel};

use crate::error::CliError;
use crate::input;
use container::ContainerWriter;

/// Records between two progress reports.
const PROGRESS_EVERY: u64 = 1024;

/// Compression codecs of Parquet output.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ParquetCodec {
    /// No compression.
    None,
    /// Snappy (the default, as parquet-avro's).
    #[default]
    Snappy,
    /// Gzip, default level.
    Gzip,
    /// LZ4 (the raw format, `LZ4_RAW`).
    Lz4,
    /// Zstandard, default level.
    Zstd,
}

impl ParquetCodec {
    /// The `parquet` crate's setting.
    pub fn compression(self) -> Compression {
        match self {
            ParquetCodec::None => Compression::UNCOMPRESSED,
            ParquetCodec::Snappy => Compression::SNAPPY,
            ParquetCodec::Gzip => Compression::GZIP(GzipLevel::default()),
            ParquetCodec::Lz4 => Compression::LZ4_RAW,
            ParquetCodec::Zstd => Compression::ZSTD(ZstdLevel::default()),
        }
    }
}

/// Compression codecs of Avro output.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum AvroCodec {
    /// No compression.
    Null,
    /// Deflate, default level (the default).
    #[default]
    Deflate,
    /// Snappy, with the CRC32 the format adds.
    Snappy,
    /// Zstandard, default level.
    Zstd,
}

impl AvroCodec {
    /// apache-avro's setting.
    pub fn codec(self) -> Codec {
        match self {
            AvroCodec::Null => Codec::Null,
            AvroCodec::Deflate => Codec::Deflate(DeflateSettings::default()),
            AvroCodec::Snappy => Codec::Snappy,
            AvroCodec::Zstd => Codec::Zstandard(ZstandardSettings::default()),
        }
    }
}

/// Converts the Avro object container file `input` into the Parquet file
/// `output`, lists in `layout`; returns the number of records. `progress`
/// is called now and then with the records written so far.
pub fn avro_to_parquet(
    input: &Path,
    output: &Path,
    codec: ParquetCodec,
    layout: ListLayout,
    progress: &mut dyn FnMut(u64),
) -> Result<u64, CliError> {
    let in_error = |message: String| CliError::other(input, message);
    let file = File::open(input).map_err(|e| CliError::io(input, e))?;
    let reader = guarded(|| Reader::new(BufReader::new(file)))
        .and_then(|r| r.map_err(|e| e.to_string()))
        .map_err(|e| in_error(format!("not a readable Avro file: {e}")))?;
    let options = AvroOptions::new().list_layout(layout).sort_map_keys(true);
    let converter = AvroConverter::new(reader.writer_schema().clone(), options)
        .map_err(|e| in_error(format!("its Avro schema has no Parquet form: {e}")))?;
    let out_error = |e: &magnolify_parquet::Error| CliError::records(output, e);
    let mut writer = WriterBuilder::with_converter(converter)
        .compression(codec.compression())
        .create(output)
        .map_err(|e| out_error(&e))?;
    let mut records = 0u64;
    let mut values = reader;
    while let Some(value) = guarded(|| values.next()).map_err(|e| in_error(format!("record {records}: {e}")))? {
        let value = value.map_err(|e| in_error(format!("record {records}: {e}")))?;
        writer.write(&value).map_err(|e| {
            let message = CliError::message(&e, input);
            let hint = if layout != ListLayout::ThreeLevel && message.contains("ThreeLevel") {
                " (avro2parquet --three-level writes null elements)"
            } else {
                ""
            };
            in_error(format!("{message}{hint}"))
        })?;
        records += 1;
        if records.is_multiple_of(PROGRESS_EVERY) {
            progress(records);
        }
    }
    writer.close().map_err(|e| out_error(&e))?;
    progress(records);
    Ok(records)
}

/// Converts the Parquet file `input` into the Avro object container file
/// `output`, with the Avro schema of its footer (or one derived from its
/// Parquet schema); returns the number of records. `progress` is called now
/// and then with the records written so far.
pub fn parquet_to_avro(
    input: &Path,
    output: &Path,
    codec: AvroCodec,
    progress: &mut dyn FnMut(u64),
) -> Result<u64, CliError> {
    let builder = input::open(input)?;
    // A footer's Avro schema is input: apache-avro may panic on it.
    let converter = guarded(|| AvroConverter::for_file(builder.metadata(), AvroOptions::default()))
        .map_err(|e| CliError::other(input, e))?
        .map_err(|e| CliError::records(input, &e))?;
    let schema = converter.avro_schema().clone();
    let reader = builder.build_with(converter, ReadOptions::default()).map_err(|e| CliError::records(input, &e))?;

    let temp = Partial::create(output).map_err(|e| CliError::io(output, e))?;
    let out_error = |message: String| CliError::other(output, message);
    let mut writer = ContainerWriter::new(BufWriter::new(&temp.file), &schema, codec.codec()).map_err(out_error)?;
    let mut records = 0u64;
    for value in reader {
        let value: Value = value.map_err(|e| CliError::records(input, &e))?;
        writer.append(&value).map_err(|e| out_error(format!("record {records}: {e}")))?;
        records += 1;
        if records.is_multiple_of(PROGRESS_EVERY) {
            progress(records);
        }
    }
    writer.finish().map_err(out_error)?.into_inner().map_err(|e| CliError::io(output, e.into_error()))?;
    temp.commit().map_err(|e| CliError::io(output, e))?;
    progress(records);
    Ok(records)
}

/// An output file under a temporary name in its directory (`.NAME.PID.partial`),
/// renamed to its name by [`commit`](Self::commit); dropped before that, it
/// is removed, and any file at the output's path is left as it was.
struct Partial {
    file: File,
    path: PathBuf,
    target: PathBuf,
    committed: bool,
}

impl Partial {
    fn create(target: &Path) -> std::io::Result<Self> {
        let name = target.file_name().ok_or_else(|| std::io::Error::other("the output path names no file"))?;
        let path = target.with_file_name(format!(".{}.{}.partial", name.to_string_lossy(), std::process::id()));
        Ok(Partial { file: File::create(&path)?, path, target: target.to_owned(), committed: false })
    }

    /// Makes the data durable, then gives the file its name.
    fn commit(mut self) -> std::io::Result<()> {
        self.file.sync_all()?;
        std::fs::rename(&self.path, &self.target)?;
        self.committed = true;
        Ok(())
    }
}

impl Drop for Partial {
    fn drop(&mut self) {
        if !self.committed {
            // Nothing to report from a drop: the conversion's error is.
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

thread_local! {
    /// Set while [`guarded`] runs: the panic hook stays quiet then.
    static GUARDED: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f`, a call into apache-avro on file data, turning a panic into an
/// error: apache-avro 0.21 still panics on some invalid input (avro-rs #496).
/// The panic hook says nothing about a panic caught here (the error is
/// reported once, on one line, by the caller); any other panic is reported
/// by the hook that was there before.
pub fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !GUARDED.with(Cell::get) {
                previous(info);
            }
        }));
    });
    GUARDED.with(|g| g.set(true));
    let result = catch_unwind(AssertUnwindSafe(f));
    GUARDED.with(|g| g.set(false));
    result.map_err(|panic| {
        let message = panic
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| panic.downcast_ref::<&str>().copied())
            .unwrap_or("unknown panic");
        format!("apache-avro panicked reading it: {message}")
    })
}
