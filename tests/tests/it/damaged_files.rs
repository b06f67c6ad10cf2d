//! Bad input never panics: every damaged file gives an `Err` from
//! `ParquetReader` (when it is opened or while it is read), or well-formed
//! records when the damage happens to leave a valid file, and a file's claims
//! never make the reader allocate what the file does not hold.
//!
//! The corpus is generated here, deterministically: files written by the
//! library with every codec, and real files of other writers
//! (`tests/fixtures/parquet-testing`), damaged by truncation at every length,
//! single-bit flips, bogus footer lengths and wrong magics; files crafted
//! with lying footers, column chunks and page headers; and the damaged files
//! of apache/parquet-testing (`bad_data/`). Each is read three ways: into a
//! derived type, with the Avro baseline, and with a converter that reads
//! every column of any schema (so that every decoder of the `parquet` crate
//! runs, whatever the schema).
//!
//! A panic inside the `parquet` crate is caught at the library's boundary
//! and returned as `Error::Damaged`; a panic hook records where every panic
//! happened, and a panic anywhere in this workspace's code fails the test.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::{Arc, Once};

use avro_baseline::{AvroConverter, AvroOptions};
use bytes::Bytes;
use magnolify_parquet::convert::{RecordRead, RecordReadOwned, RecordSource};
use magnolify_parquet::parquet::basic::{Compression, Encoding, GzipLevel, Type as PhysicalType, ZstdLevel};
use magnolify_parquet::parquet::column::writer::ColumnCloseResult;
use magnolify_parquet::parquet::file::metadata::{
    ColumnChunkMetaData, ParquetMetaData, ParquetMetaDataReader, ParquetMetaDataWriter,
};
use magnolify_parquet::parquet::file::properties::{WriterProperties, WriterVersion};
use magnolify_parquet::parquet::file::reader::ChunkReader;
use magnolify_parquet::parquet::file::writer::SerializedFileWriter;
use magnolify_parquet::parquet::schema::parser::parse_message_type;
use magnolify_parquet::parquet::schema::types::SchemaDescriptor;
use magnolify_parquet::{Error, ParquetType, ReadOptions, ReaderBuilder, Result, WriterBuilder};
use test_kit::io::{file_with, until_error};

use crate::fixtures_read::DictHeader;

// ---------------------------------------------------------------------------
// Where panics come from
// ---------------------------------------------------------------------------

thread_local! {
    /// Source locations of the panics on this thread since the last `take_panics`.
    static PANICS: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

/// Installs (once) a hook that records every panic's location; panics in
/// dependencies (caught by the library) stay silent, the others print as usual.
fn track_panics() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let at = info.location().map_or_else(|| "<unknown>".to_owned(), |l| format!("{}:{}", l.file(), l.line()));
            let dependency = in_dependency(&at);
            if dependency && std::env::var_os("DAMAGED_FILES_BACKTRACE").is_some() {
                // Where in the `parquet` crate, for reporting upstream.
                eprintln!("caught: {info}\n{}", std::backtrace::Backtrace::force_capture());
            }
            PANICS.with(|p| p.borrow_mut().push(at));
            if !dependency {
                default(info);
            }
        }));
    });
}

/// Whether a panic location lies in a dependency (the `parquet` crate, a
/// codec, the standard library) rather than in this workspace.
fn in_dependency(location: &str) -> bool {
    location.contains("/.cargo/registry/") || location.contains("/rustc/") || location.starts_with("library/")
}

fn take_panics() -> Vec<String> {
    PANICS.with(|p| std::mem::take(&mut *p.borrow_mut()))
}

// ---------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------

/// What reading a file gave: the records before the first error, and it.
pub(crate) struct Outcome<T> {
    pub(crate) records: Vec<T>,
    pub(crate) error: Option<Error>,
    /// Locations of the dependency panics the library caught.
    pub(crate) caught: Vec<String>,
}

/// Reads `file` through `converter` to the end or the first error, failing
/// (with `what` in the message) on any panic that reaches here or starts in
/// this workspace's code.
pub(crate) fn read_with<C, R>(what: &str, converter: C, file: R, limits: Option<(usize, usize)>) -> Outcome<C::Owned>
where
    C: RecordReadOwned + Send + Sync + 'static,
    C::Owned: Send + 'static,
    R: ChunkReader + 'static,
{
    track_panics();
    take_panics();
    let run = catch_unwind(AssertUnwindSafe(|| {
        // One thread: the panic hook records panics per thread, and a
        // threaded reader decodes on another (threads.rs checks that it
        // stops where one thread stops).
        let builder = match ReaderBuilder::new(file) {
            Ok(b) => b,
            Err(e) => return (Vec::new(), Some(e)),
        };
        let mut options = ReadOptions::default().threads(1);
        if let Some((bytes, levels)) = limits {
            options = options.max_page_bytes(bytes).max_levels(levels);
        }
        match builder.build_with(converter, options) {
            Ok(reader) => until_error(reader),
            Err(e) => (Vec::new(), Some(e)),
        }
    }));
    let panics = take_panics();
    let (records, error) = match run {
        Ok(r) => r,
        Err(payload) => {
            eprintln!("{what}: a panic reached the caller (at {panics:?})");
            resume_unwind(payload)
        }
    };
    let ours: Vec<&String> = panics.iter().filter(|p| !in_dependency(p)).collect();
    assert!(ours.is_empty(), "{what}: panic in this workspace's code at {ours:?} (error: {error:?})");
    if error.as_ref().is_some_and(|e| e.to_string().contains("the parquet crate panicked")) {
        assert!(!panics.is_empty(), "{what}: a caught panic reported without a recorded panic");
    }
    Outcome { records, error, caught: panics }
}

/// A converter for any schema: every column, as the raw triplets of each
/// record. It runs every decoder the file needs, whatever its schema.
#[derive(Clone, Copy)]
pub(crate) struct Raw;

/// One triplet: repetition level, definition level, value (`None`: null).
pub(crate) type Triplet = (i16, i16, Option<RawValue>);

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum RawValue {
    Bool(bool),
    I32(i32),
    I64(i64),
    I96([u32; 3]),
    /// Floats by their bits, so that NaNs compare.
    F32(u32),
    F64(u64),
    Bytes(Vec<u8>),
}

impl RecordRead for Raw {
    type Record<'de> = Vec<Vec<Triplet>>;
    type ReadPlan = Vec<PhysicalType>;

    fn resolve(&self, file: &SchemaDescriptor) -> Result<(Vec<PhysicalType>, Vec<usize>)> {
        Ok((file.columns().iter().map(|c| c.physical_type()).collect(), (0..file.num_columns()).collect()))
    }

    fn read<'de>(&self, plan: &Vec<PhysicalType>, source: &mut RecordSource<'de>) -> Result<Self::Record<'de>> {
        let mut record = Vec::with_capacity(plan.len());
        for (cursor, physical) in plan.iter().enumerate() {
            let mut column = Vec::new();
            loop {
                let (r, d) = source.peek(cursor);
                let value = match physical {
                    PhysicalType::BOOLEAN => source.take_bool(cursor)?.map(RawValue::Bool),
                    PhysicalType::INT32 => source.take_i32(cursor)?.map(RawValue::I32),
                    PhysicalType::INT64 => source.take_i64(cursor)?.map(RawValue::I64),
                    PhysicalType::INT96 => source.take_i96(cursor)?.map(|v| {
                        let d = v.data();
                        RawValue::I96([d[0], d[1], d[2]])
                    }),
                    PhysicalType::FLOAT => source.take_f32(cursor)?.map(|v| RawValue::F32(v.to_bits())),
                    PhysicalType::DOUBLE => source.take_f64(cursor)?.map(|v| RawValue::F64(v.to_bits())),
                    PhysicalType::BYTE_ARRAY | PhysicalType::FIXED_LEN_BYTE_ARRAY => {
                        source.take_bytes(cursor)?.map(|b| RawValue::Bytes(b.to_vec()))
                    }
                };
                column.push((r, d, value));
                // The next triplet continues this record only if it repeats.
                if source.peek(cursor).0 == 0 {
                    break;
                }
            }
            record.push(column);
        }
        Ok(record)
    }
}

impl RecordReadOwned for Raw {
    type Owned = Vec<Vec<Triplet>>;
}

// ---------------------------------------------------------------------------
// Files the library writes
// ---------------------------------------------------------------------------

#[derive(ParquetType, Debug, PartialEq, Clone)]
pub(crate) struct Part {
    sku: String,
    qty: Option<u16>,
    dims: Vec<i64>,
}

/// A record with nesting, options, lists, maps and strings.
#[derive(ParquetType, Debug, PartialEq, Clone)]
pub(crate) struct Event {
    id: u64,
    name: String,
    note: Option<String>,
    scores: Vec<f64>,
    tags: Option<Vec<Option<String>>>,
    attrs: BTreeMap<String, i32>,
    parts: Vec<Part>,
    flag: bool,
    blob: Vec<u8>,
}

/// A small deterministic generator (64-bit LCG, high bits).
pub(crate) struct Lcg(pub(crate) u64);

impl Lcg {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

pub(crate) fn events(n: usize) -> Vec<Event> {
    let mut g = Lcg(42);
    (0..n)
        .map(|i| {
            let word = |g: &mut Lcg| format!("w{}", g.below(7));
            Event {
                id: i as u64 * 1000 + g.below(1000),
                name: format!("event-{}", g.below(20)),
                note: (g.below(3) > 0).then(|| format!("note {i} é")),
                scores: (0..g.below(4)).map(|k| k as f64 * 0.5 - g.below(9) as f64).collect(),
                tags: (g.below(4) > 0)
                    .then(|| (0..g.below(3)).map(|_| (g.below(4) > 0).then(|| word(&mut g))).collect()),
                attrs: (0..g.below(3)).map(|k| (format!("k{k}"), g.below(100) as i32 - 50)).collect(),
                parts: (0..g.below(3))
                    .map(|_| Part {
                        sku: word(&mut g),
                        qty: (g.below(2) == 0).then(|| g.below(500) as u16),
                        dims: (0..g.below(3)).map(|_| g.below(1 << 40) as i64).collect(),
                    })
                    .collect(),
                flag: g.below(2) == 0,
                blob: (0..g.below(6)).map(|_| g.below(256) as u8).collect(),
            }
        })
        .collect()
}

/// One writer configuration of the corpus.
pub(crate) struct Config {
    pub(crate) name: &'static str,
    pub(crate) codec: Compression,
    pub(crate) dictionary: bool,
    pub(crate) version: WriterVersion,
}

pub(crate) fn configs() -> [Config; 5] {
    let v1 = WriterVersion::PARQUET_1_0;
    let v2 = WriterVersion::PARQUET_2_0;
    [
        Config { name: "plain-v1", codec: Compression::UNCOMPRESSED, dictionary: true, version: v1 },
        Config { name: "snappy-v2", codec: Compression::SNAPPY, dictionary: false, version: v2 },
        Config { name: "gzip-v1", codec: Compression::GZIP(GzipLevel::default()), dictionary: false, version: v1 },
        Config { name: "lz4raw-v2", codec: Compression::LZ4_RAW, dictionary: true, version: v2 },
        Config { name: "zstd-v1", codec: Compression::ZSTD(ZstdLevel::default()), dictionary: true, version: v1 },
    ]
}

/// A file of `records` written with `config`, small row groups and pages so
/// that damage lands in every kind of structure.
pub(crate) fn written<T: magnolify_parquet::OwnedRecord>(config: &Config, records: &[T]) -> Bytes {
    let builder = WriterBuilder::<T>::new()
        .compression(config.codec)
        .dictionary(config.dictionary)
        .writer_version(config.version)
        .max_row_group_rows(16)
        .data_page_rows(6);
    file_with(builder, records).expect("written")
}

fn fixtures_dir() -> std::path::PathBuf {
    test_kit::fixtures::dir().join("parquet-testing")
}

fn fixture_bytes(name: &str) -> Bytes {
    test_kit::fixtures::bytes(&format!("parquet-testing/{name}"))
}

/// Offset where the footer's metadata starts.
pub(crate) fn metadata_start(file: &[u8]) -> usize {
    let n = file.len();
    let len = u32::from_le_bytes(file[n - 8..n - 4].try_into().unwrap()) as usize;
    n - 8 - len
}

// ---------------------------------------------------------------------------
// Damage
// ---------------------------------------------------------------------------

/// What a damaged variant must give.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Expect {
    /// An error, at opening or while reading.
    Error,
    /// An error, or records that are well-formed (a flipped bit may leave a
    /// valid file with a different value).
    ErrorOrRecords,
}

pub(crate) struct Variant {
    pub(crate) what: String,
    pub(crate) bytes: Bytes,
    pub(crate) expect: Expect,
}

pub(crate) fn truncations(name: &str, file: &Bytes, step: usize) -> Vec<Variant> {
    (0..file.len())
        .step_by(step)
        .map(|n| Variant {
            what: format!("{name} truncated to {n} bytes"),
            bytes: file.slice(..n),
            expect: Expect::Error,
        })
        .collect()
}

pub(crate) fn flips(name: &str, file: &Bytes, step: usize) -> Vec<Variant> {
    (0..file.len())
        .step_by(step)
        .map(|offset| {
            let bit = (offset * 5 + 3) % 8;
            let mut b = file.to_vec();
            b[offset] ^= 1 << bit;
            Variant {
                what: format!("{name} with bit {bit} of byte {offset} flipped"),
                bytes: Bytes::from(b),
                expect: Expect::ErrorOrRecords,
            }
        })
        .collect()
}

fn with_footer_length(file: &Bytes, claimed: u32) -> Bytes {
    let mut b = file.to_vec();
    let n = b.len();
    b[n - 8..n - 4].copy_from_slice(&claimed.to_le_bytes());
    Bytes::from(b)
}

/// Bogus footer lengths (every one but the true length), wrong magics, and
/// the body cut out from under a valid footer.
fn footer_damage(name: &str, file: &Bytes) -> Vec<Variant> {
    let n = file.len();
    let real = (n - 8 - metadata_start(file)) as u32;
    let mut out = Vec::new();
    let lengths =
        [0, 1, 2, real / 2, real - 1, real + 1, real + 2, n as u32 - 12, n as u32 - 11, n as u32, n as u32 + 1]
            .into_iter()
            .chain([1 << 20, 1 << 30, 1 << 31, u32::MAX - 1, u32::MAX]);
    for claimed in lengths.collect::<BTreeSet<_>>() {
        if claimed != real {
            out.push(Variant {
                what: format!("{name} with a footer length of {claimed} (true: {real})"),
                bytes: with_footer_length(file, claimed),
                expect: Expect::Error,
            });
        }
    }
    for (at, magic) in [(0, *b"PAR0"), (0, *b"\0\0\0\0"), (n - 4, *b"PAR0"), (n - 4, *b"PARE"), (n - 4, *b"1RAP")] {
        let mut b = file.to_vec();
        b[at..at + 4].copy_from_slice(&magic);
        out.push(Variant {
            what: format!("{name} with magic {magic:?} at {at}"),
            bytes: Bytes::from(b),
            expect: Expect::Error,
        });
    }
    // The data gone or shifted under an intact footer: its offsets now point
    // past the end or into the wrong bytes.
    let footer = metadata_start(file);
    for keep in [4, footer / 2, footer.saturating_sub(1)] {
        let mut b = file[..keep].to_vec();
        b.extend_from_slice(&file[footer..]);
        out.push(Variant {
            what: format!("{name} with its data cut at {keep} before the footer"),
            bytes: Bytes::from(b),
            expect: Expect::ErrorOrRecords,
        });
    }
    out
}

/// Tally of outcomes, for the summary printed at the end of a test.
#[derive(Default)]
pub(crate) struct Tally {
    pub(crate) errors: usize,
    pub(crate) records: usize,
    pub(crate) caught: BTreeMap<String, usize>,
}

impl Tally {
    pub(crate) fn add<T>(&mut self, outcome: &Outcome<T>) {
        if outcome.error.is_some() {
            self.errors += 1;
        } else {
            self.records += 1;
        }
        for at in &outcome.caught {
            *self.caught.entry(at.clone()).or_default() += 1;
        }
    }

    pub(crate) fn print(&self, what: &str) {
        eprintln!(
            "{what}: {} errors, {} read to the end; parquet panics caught: {:?}",
            self.errors, self.records, self.caught
        );
    }
}

pub(crate) fn check<T>(variant: &Variant, how: &str, outcome: &Outcome<T>) {
    if variant.expect == Expect::Error {
        assert!(
            outcome.error.is_some(),
            "{} ({how}): read {} records and no error",
            variant.what,
            outcome.records.len()
        );
    }
}

/// Reads every variant with the raw converter, the derived type and the
/// Avro converter (from `Bytes`), and every `file_every`-th one from a file
/// on disk too.
fn run_corpus(variants: &[Variant], avro: Option<&AvroConverter>, file_every: usize) -> Tally {
    let mut tally = Tally::default();
    let dir = scratch_dir();
    let dir = dir.path();
    for (i, v) in variants.iter().enumerate() {
        let raw = read_with(&v.what, Raw, v.bytes.clone(), None);
        check(v, "raw", &raw);
        tally.add(&raw);
        let derived = read_with(&v.what, magnolify_parquet::Derived::<Event>::new(), v.bytes.clone(), None);
        check(v, "derived", &derived);
        tally.add(&derived);
        if let Some(avro) = avro {
            let outcome = read_with(&v.what, avro.clone(), v.bytes.clone(), None);
            check(v, "avro", &outcome);
            tally.add(&outcome);
        }
        if file_every > 0 && i % file_every == 0 {
            let path = dir.join(format!("variant-{i}.parquet"));
            std::fs::write(&path, &v.bytes).expect("write variant");
            let outcome = read_with(&v.what, Raw, std::fs::File::open(&path).expect("open variant"), None);
            check(v, "raw, from a file", &outcome);
            tally.add(&outcome);
            std::fs::remove_file(&path).expect("remove variant");
        }
    }
    tally
}

/// A folder of the caller's own, removed when dropped: the tests of this
/// module run at once and name their files alike (`variant-0.parquet`).
fn scratch_dir() -> tempfile::TempDir {
    tempfile::Builder::new().prefix("magnolify-damaged-").tempdir().expect("scratch dir")
}

// ---------------------------------------------------------------------------
// The corpus
// ---------------------------------------------------------------------------

#[test]
fn the_undamaged_files_read_back_exactly() {
    let records = events(40);
    for config in &configs() {
        let file = written(config, &records);
        let outcome = read_with(config.name, magnolify_parquet::Derived::<Event>::new(), file.clone(), None);
        assert!(outcome.error.is_none(), "{}: {:?}", config.name, outcome.error);
        assert_eq!(outcome.records, records, "{}", config.name);
        let raw = read_with(config.name, Raw, file, None);
        assert_eq!(raw.records.len(), records.len(), "{}: {:?}", config.name, raw.error);
    }
}

#[test]
fn truncated_files_are_errors() {
    let records = events(40);
    let mut variants = Vec::new();
    for (i, config) in configs().iter().enumerate() {
        let file = written(config, &records);
        // Every length for the first file, a spread of lengths for the others.
        variants.extend(truncations(config.name, &file, if i == 0 { 1 } else { 7 }));
    }
    for name in ["nested_maps.snappy.parquet", "datapage_v2.snappy.parquet", "nullable.impala.parquet"] {
        variants.extend(truncations(name, &fixture_bytes(name), 3));
    }
    let avro = avro_for(&written(&configs()[0], &records));
    run_corpus(&variants, Some(&avro), 97).print("truncations");
}

#[test]
fn bogus_footers_and_wrong_magics_are_errors() {
    let records = events(40);
    let mut variants = Vec::new();
    for config in &configs() {
        variants.extend(footer_damage(config.name, &written(config, &records)));
    }
    for name in ["nested_lists.snappy.parquet", "delta_byte_array.parquet", "alltypes_dictionary.parquet"] {
        variants.extend(footer_damage(name, &fixture_bytes(name)));
    }
    let avro = avro_for(&written(&configs()[0], &records));
    run_corpus(&variants, Some(&avro), 1).print("footers and magics");
}

#[test]
fn flipped_bits_give_errors_or_well_formed_records() {
    let records = events(24);
    let avro = avro_for(&written(&configs()[0], &records));
    let mut tally = Tally::default();
    for (i, config) in configs().iter().enumerate() {
        let file = written(config, &records);
        let variants = flips(config.name, &file, if i == 0 { 1 } else { 5 });
        let t = run_corpus(&variants, Some(&avro), 0);
        tally.errors += t.errors;
        tally.records += t.records;
        tally.caught.extend(t.caught);
    }
    tally.print("flips in library files");
}

#[test]
fn flipped_bits_in_other_writers_files_give_errors_or_records() {
    let mut tally = Tally::default();
    for (name, step) in [
        ("nested_maps.snappy.parquet", 1),
        ("nullable.impala.parquet", 2),
        ("datapage_v2.snappy.parquet", 1),
        ("byte_stream_split.zstd.parquet", 3),
        ("alltypes_dictionary.parquet", 1),
        ("repeated_no_annotation.parquet", 1),
        ("delta_byte_array.parquet", 61),
        ("delta_binary_packed.parquet", 67),
    ] {
        for v in flips(name, &fixture_bytes(name), step) {
            tally.add(&read_with(&v.what, Raw, v.bytes.clone(), None));
        }
    }
    tally.print("flips in other writers' files");
}

fn avro_for(file: &Bytes) -> AvroConverter {
    let builder = ReaderBuilder::new(file.clone()).expect("metadata of a sound file");
    AvroConverter::for_file(builder.metadata(), AvroOptions::default()).expect("avro converter")
}

// ---------------------------------------------------------------------------
// apache/parquet-testing bad_data
// ---------------------------------------------------------------------------

#[derive(ParquetType, Debug)]
struct Gh45185 {
    x: Vec<i32>,
}

#[derive(ParquetType, Debug)]
struct Gh47662 {
    flba_field: [u8; 4],
}

#[derive(ParquetType, Debug)]
struct Gh43605 {
    min_fl: Option<u16>,
}

fn bad_data(name: &str) -> Bytes {
    fixture_bytes(&format!("bad_data/{name}"))
}

#[test]
fn every_bad_data_file_is_an_error_and_never_a_panic() {
    let dir = fixtures_dir().join("bad_data");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("bad_data")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".parquet"))
        .collect();
    names.sort();
    assert_eq!(names.len(), 8, "{names:?}");
    for name in names.iter().filter(|n| *n != "ARROW-GH-43605.parquet") {
        let bytes = bad_data(name);
        let raw = read_with(name, Raw, bytes.clone(), None);
        assert!(raw.error.is_some(), "{name}: the raw reader read {} records without error", raw.records.len());
        let on_disk = read_with(name, Raw, std::fs::File::open(dir.join(name)).expect("open"), None);
        assert!(on_disk.error.is_some(), "{name}: read from disk without error");
        // The Avro baseline, with the schema it derives from the file.
        if let Ok(builder) = ReaderBuilder::new(bytes.clone()) {
            match AvroConverter::for_file(builder.metadata(), AvroOptions::default()) {
                Ok(avro) => {
                    let outcome = read_with(name, avro, bytes.clone(), None);
                    assert!(outcome.error.is_some(), "{name}: the Avro converter read it without error");
                }
                Err(e) => eprintln!("{name}: no Avro schema for it: {e}"),
            }
        }
        eprintln!("{name}: {}", raw.error.as_ref().map(ToString::to_string).unwrap_or_default());
    }
    let typed = [
        (
            "ARROW-GH-45185.parquet",
            read_with("45185", magnolify_parquet::Derived::<Gh45185>::new(), bad_data("ARROW-GH-45185.parquet"), None)
                .error,
        ),
        (
            "ARROW-GH-47662.parquet",
            read_with("47662", magnolify_parquet::Derived::<Gh47662>::new(), bad_data("ARROW-GH-47662.parquet"), None)
                .error,
        ),
        (
            "ARROW-RS-GH-6229-DICTHEADER.parquet",
            read_with(
                "6229",
                magnolify_parquet::Derived::<DictHeader>::new(),
                bad_data("ARROW-RS-GH-6229-DICTHEADER.parquet"),
                None,
            )
            .error,
        ),
    ];
    for (name, error) in typed {
        assert!(error.is_some(), "{name}: the derived type read it without error");
    }
}

#[test]
fn the_valid_file_among_bad_data_reads_exactly() {
    let name = "ARROW-GH-43605.parquet";
    let doc: serde_json::Value = serde_json::from_slice(
        &std::fs::read(fixtures_dir().join("bad_data/ARROW-GH-43605.expected.json")).expect("json"),
    )
    .expect("parse");
    let expected: Vec<Option<u16>> = doc["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| r["min_fl"].as_u64().map(|v| u16::try_from(v).expect("u16")))
        .collect();
    assert_eq!(expected.len(), 21186);
    let outcome = read_with(name, magnolify_parquet::Derived::<Gh43605>::new(), bad_data(name), None);
    assert!(outcome.error.is_none(), "{:?}", outcome.error);
    assert_eq!(outcome.records.iter().map(|r| r.min_fl).collect::<Vec<_>>(), expected);
    let raw = read_with(name, Raw, bad_data(name), None);
    assert!(raw.error.is_none(), "{:?}", raw.error);
    let raw_values: Vec<Option<u16>> = raw
        .records
        .iter()
        .map(|r| {
            r[0][0].2.as_ref().map(|v| match v {
                RawValue::I32(x) => *x as u16,
                other => panic!("{other:?}"),
            })
        })
        .collect();
    assert_eq!(raw_values, expected);
}

// ---------------------------------------------------------------------------
// Crafted lies
// ---------------------------------------------------------------------------

/// Thrift compact-protocol bytes, just enough to write page headers and
/// footers that lie.
#[derive(Default)]
struct Thrift {
    out: Vec<u8>,
    last: Vec<i16>,
}

impl Thrift {
    fn varint(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.out.push((v as u8) | 0x80);
            v >>= 7;
        }
        self.out.push(v as u8);
    }
    fn header(&mut self, id: i16, ty: u8) {
        let last = self.last.last_mut().expect("inside a struct");
        let delta = id - *last;
        assert!((1..=15).contains(&delta));
        self.out.push(((delta as u8) << 4) | ty);
        *last = id;
    }
    fn i32(&mut self, id: i16, v: i32) -> &mut Self {
        self.header(id, 5);
        self.varint(((v << 1) ^ (v >> 31)) as u32 as u64);
        self
    }
    fn i64(&mut self, id: i16, v: i64) -> &mut Self {
        self.header(id, 6);
        self.varint(((v << 1) ^ (v >> 63)) as u64);
        self
    }
    fn binary(&mut self, id: i16, v: &[u8]) -> &mut Self {
        self.header(id, 8);
        self.varint(v.len() as u64);
        self.out.extend_from_slice(v);
        self
    }
    fn begin(&mut self, id: Option<i16>) -> &mut Self {
        if let Some(id) = id {
            self.header(id, 12);
        }
        self.last.push(0);
        self
    }
    fn end(&mut self) -> &mut Self {
        self.out.push(0);
        self.last.pop();
        self
    }
    fn list_of_structs(&mut self, id: i16, n: usize) -> &mut Self {
        self.header(id, 9);
        if n < 15 {
            self.out.push(((n as u8) << 4) | 12);
        } else {
            self.out.push(0xf0 | 12);
            self.varint(n as u64);
        }
        self
    }
}

/// A page header: `kind` 0 data v1, 2 dictionary; `values` its num_values.
fn page_header(kind: i32, uncompressed: i32, compressed: i32, values: i32, encoding: Encoding) -> Vec<u8> {
    page_header_with_crc(kind, (uncompressed, compressed), values, encoding, None)
}

/// A page header as `page_header` makes it, with a CRC32 (field 4) if given.
fn page_header_with_crc(kind: i32, sizes: (i32, i32), values: i32, encoding: Encoding, crc: Option<u32>) -> Vec<u8> {
    let mut t = Thrift::default();
    t.begin(None).i32(1, kind).i32(2, sizes.0).i32(3, sizes.1);
    if let Some(crc) = crc {
        t.i32(4, crc as i32);
    }
    if kind == 2 {
        t.begin(Some(7)).i32(1, values).i32(2, encoding as i32).end();
    } else {
        // RLE (3) definition and repetition levels.
        t.begin(Some(5)).i32(1, values).i32(2, encoding as i32).i32(3, 3).i32(4, 3).end();
    }
    t.end();
    t.out
}

/// A page: its header (claiming the body's size unless told otherwise) and body.
fn page(kind: i32, values: i32, encoding: Encoding, body: &[u8]) -> Vec<u8> {
    let mut p = page_header(kind, body.len() as i32, body.len() as i32, values, encoding);
    p.extend_from_slice(body);
    p
}

/// A one-column file whose only column chunk is `chunk` (pages as given),
/// with a valid footer written by the `parquet` crate, counting `values`
/// values in the chunk (the sum of its data pages' counts).
fn crafted(
    schema: &str,
    codec: Compression,
    (rows, values): (u64, i64),
    dictionary: Option<usize>,
    chunk: Vec<u8>,
) -> Bytes {
    let schema = Arc::new(parse_message_type(schema).expect("schema"));
    let descr = SchemaDescriptor::new(schema.clone()).column(0);
    let props = Arc::new(WriterProperties::builder().set_compression(codec).build());
    let mut out = Vec::new();
    let mut file = SerializedFileWriter::new(&mut out, schema, props).expect("file writer");
    let mut group = file.next_row_group().expect("row group");
    let len = chunk.len() as i64;
    let metadata = ColumnChunkMetaData::builder(descr)
        .set_compression(codec)
        .set_encodings(vec![Encoding::PLAIN, Encoding::RLE, Encoding::RLE_DICTIONARY])
        .set_num_values(values)
        .set_total_compressed_size(len)
        .set_total_uncompressed_size(len)
        .set_dictionary_page_offset(dictionary.map(|_| 0))
        .set_data_page_offset(dictionary.unwrap_or(0) as i64)
        .build()
        .expect("chunk metadata");
    let close = ColumnCloseResult {
        bytes_written: len as u64,
        rows_written: rows,
        metadata,
        bloom_filter: None,
        column_index: None,
        offset_index: None,
    };
    group.append_column(&Bytes::from(chunk), close).expect("append");
    group.close().expect("close row group");
    file.close().expect("close file");
    Bytes::from(out)
}

/// RLE levels of a v1 page: a 4-byte length, then runs of (count, value)
/// at bit width 1.
fn rle_levels(runs: &[(u64, u8)]) -> Vec<u8> {
    let mut t = Thrift::default();
    for &(count, value) in runs {
        t.varint(count << 1);
        t.out.push(value);
    }
    let mut out = (t.out.len() as u32).to_le_bytes().to_vec();
    out.extend_from_slice(&t.out);
    out
}

/// Four PLAIN INT32 values.
fn plain_i32(values: &[i32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// The body of an RLE_DICTIONARY page of `levels` levels of one repeated
/// record (`repeated int32 xs`): every value is dictionary entry 0, in a few
/// bytes whatever the count.
fn giant_record_body(levels: u64, starts_record: bool) -> Vec<u8> {
    let first = if starts_record { 0 } else { 1 };
    let mut body = rle_levels(&[(1, first), (levels - 1, 1)]);
    body.extend(rle_levels(&[(levels, 1)]));
    let mut t = Thrift::default();
    t.out.push(0); // bit width 0
    t.varint(levels << 1);
    t.out.push(0);
    body.extend(t.out);
    body
}

fn expect_error(what: &str, file: Bytes, limits: Option<(usize, usize)>, needle: &str) -> String {
    let outcome = read_with(what, Raw, file, limits);
    let error = outcome.error.unwrap_or_else(|| panic!("{what}: no error, {} records", outcome.records.len()));
    let text = error.to_string();
    assert!(text.contains(needle), "{what}: `{text}` does not mention `{needle}`");
    text
}

#[test]
fn crafted_files_read_when_they_tell_the_truth() {
    // The toolkit itself must make valid files, or the lies below prove nothing.
    let flat = crafted(
        "message m { required int32 x; }",
        Compression::UNCOMPRESSED,
        (3, 3),
        None,
        page(0, 3, Encoding::PLAIN, &plain_i32(&[7, 8, 9])),
    );
    let outcome = read_with("flat", Raw, flat, None);
    assert!(outcome.error.is_none(), "{:?}", outcome.error);
    let xs: Vec<_> = outcome.records.iter().map(|r| r[0][0].2.clone()).collect();
    assert_eq!(xs, [Some(RawValue::I32(7)), Some(RawValue::I32(8)), Some(RawValue::I32(9))]);

    let mut chunk = page(2, 1, Encoding::PLAIN, &plain_i32(&[5]));
    let dict_len = chunk.len();
    chunk.extend(page(0, 1000, Encoding::RLE_DICTIONARY, &giant_record_body(1000, true)));
    let repeated =
        crafted("message m { repeated int32 xs; }", Compression::UNCOMPRESSED, (1, 1000), Some(dict_len), chunk);
    let outcome = read_with("one record of 1000", Raw, repeated, None);
    assert!(outcome.error.is_none(), "{:?}", outcome.error);
    assert_eq!(outcome.records.len(), 1);
    assert_eq!(outcome.records[0][0].len(), 1000);
    assert!(outcome.records[0][0].iter().all(|t| t.2 == Some(RawValue::I32(5))));
}

#[test]
fn lying_page_headers_are_errors_and_allocate_nothing() {
    let flat = "message m { required int32 x; }";
    // A file of that schema whose 3 rows hold 3 values, as its footer says.
    let flat_file = |codec, chunk| crafted(flat, codec, (3, 3), None, chunk);
    let body = plain_i32(&[1, 2, 3]);
    let peak = VmPeak::now();

    // A SNAPPY page claiming 2 GiB uncompressed: the crate would reserve and
    // zero-fill that much before decompressing.
    let mut lie = page_header(0, i32::MAX, body.len() as i32, 3, Encoding::PLAIN);
    lie.extend_from_slice(&body);
    expect_error("2 GiB uncompressed", flat_file(Compression::SNAPPY, lie), None, "uncompressed bytes");

    // A page claiming more bytes than its chunk holds.
    let mut lie = page_header(0, 12, i32::MAX, 3, Encoding::PLAIN);
    lie.extend_from_slice(&body);
    expect_error("2 GiB compressed", flat_file(Compression::UNCOMPRESSED, lie), None, "column chunk has");
    let mut lie = page_header(0, 12, -5, 3, Encoding::PLAIN);
    lie.extend_from_slice(&body);
    expect_error("negative size", flat_file(Compression::UNCOMPRESSED, lie), None, "compressed size -5");

    // More values than rows in a column that is not repeated.
    let lie = page(0, i32::MAX, Encoding::PLAIN, &body);
    expect_error("values beyond rows", flat_file(Compression::UNCOMPRESSED, lie), None, "values");

    // A page claiming fewer values than it holds (a flip in its header,
    // which its checksum does not cover): it would decode as fewer levels.
    let size = body.len() as i32;
    let mut lie = page_header_with_crc(0, (size, size), 2, Encoding::PLAIN, Some(crc32fast::hash(&body)));
    lie.extend_from_slice(&body);
    let needle = "data pages hold 2 values, the column chunk's metadata says 3";
    expect_error("a value count below the footer's", flat_file(Compression::UNCOMPRESSED, lie), None, needle);

    // A dictionary of 2^31 entries in 4 bytes: the decoder would reserve them.
    let mut chunk = page(2, i32::MAX, Encoding::PLAIN, &plain_i32(&[5]));
    let dict_len = chunk.len();
    chunk.extend(page(0, 3, Encoding::RLE_DICTIONARY, &[0, 6, 0]));
    let file = crafted(flat, Compression::UNCOMPRESSED, (3, 3), Some(dict_len), chunk);
    expect_error(
        "huge dictionary",
        file,
        None,
        "dictionary page: 2147483647 values of 4 bytes, but the page has 4 bytes left",
    );

    // DELTA_LENGTH_BYTE_ARRAY pages of 3 values whose own headers declare
    // 2^20 lengths, and 2^40 (more than the format's 32 bits).
    for (count, needle) in [
        (1u64 << 20, "lengths: the stream declares 1048576 values, but the page holds at most 3"),
        (1 << 40, "lengths: the value count is a varint longer than 5 bytes"),
    ] {
        let mut t = Thrift::default();
        t.varint(128);
        t.varint(4);
        t.varint(count);
        t.varint(0);
        let lie = page(0, 3, Encoding::DELTA_LENGTH_BYTE_ARRAY, &t.out);
        let file = crafted("message m { required binary s; }", Compression::UNCOMPRESSED, (3, 3), None, lie);
        expect_error("delta lengths", file, None, needle);
    }

    // A record of 2^31 levels in a few bytes (run-length encoded).
    let mut chunk = page(2, 1, Encoding::PLAIN, &plain_i32(&[5]));
    let dict_len = chunk.len();
    chunk.extend(page(0, i32::MAX, Encoding::RLE_DICTIONARY, &giant_record_body(i32::MAX as u64, true)));
    let values = (1, i64::from(i32::MAX));
    let file = crafted("message m { repeated int32 xs; }", Compression::UNCOMPRESSED, values, Some(dict_len), chunk);
    expect_error("giant page", file, None, "ReadOptions::max_levels");

    // The same giant record spread over pages each within the limit.
    let mut chunk = page(2, 1, Encoding::PLAIN, &plain_i32(&[5]));
    let dict_len = chunk.len();
    for i in 0..40 {
        chunk.extend(page(0, 50_000, Encoding::RLE_DICTIONARY, &giant_record_body(50_000, i == 0)));
    }
    let file =
        crafted("message m { repeated int32 xs; }", Compression::UNCOMPRESSED, (1, 2_000_000), Some(dict_len), chunk);
    expect_error("giant record", file, Some((1 << 20, 200_000)), "one batch of records needs more than 200000 levels");

    peak.assert_grew_less_than(512 << 20);
}

/// Rewrites the footer of `file` after changing its metadata with `edit`.
fn with_metadata(file: &Bytes, edit: impl FnOnce(ParquetMetaData) -> ParquetMetaData) -> Bytes {
    let metadata = ParquetMetaDataReader::new().parse_and_finish(file).expect("metadata");
    let edited = edit(metadata);
    let mut out = file[..metadata_start(file)].to_vec();
    ParquetMetaDataWriter::new(&mut out, &edited).finish().expect("write footer");
    Bytes::from(out)
}

/// Changes column chunk 0 of row group 0.
fn edit_chunk(
    f: impl Fn(
        magnolify_parquet::parquet::file::metadata::ColumnChunkMetaDataBuilder,
    ) -> magnolify_parquet::parquet::file::metadata::ColumnChunkMetaDataBuilder,
) -> impl FnOnce(ParquetMetaData) -> ParquetMetaData {
    move |metadata| {
        let mut builder = metadata.into_builder();
        let mut groups = builder.take_row_groups();
        let group = groups.remove(0);
        let mut columns: Vec<ColumnChunkMetaData> = group.columns().to_vec();
        columns[0] = f(columns[0].clone().into_builder()).build().expect("chunk");
        let group = group.into_builder().set_column_metadata(columns).build().expect("group");
        groups.insert(0, group);
        builder.set_row_groups(groups).build()
    }
}

#[test]
fn lying_column_chunks_are_errors_from_bytes_and_files() {
    let file = written(&configs()[0], &events(10));
    let lies: Vec<(&str, Bytes)> = vec![
        ("a chunk of 2 GiB", with_metadata(&file, edit_chunk(|c| c.set_total_compressed_size(i32::MAX as i64)))),
        ("a chunk of 2^62 bytes", with_metadata(&file, edit_chunk(|c| c.set_total_compressed_size(1 << 62)))),
        ("a negative chunk size", with_metadata(&file, edit_chunk(|c| c.set_total_compressed_size(-1)))),
        (
            "a chunk past the end",
            with_metadata(&file, edit_chunk(|c| c.set_data_page_offset(1 << 40).set_dictionary_page_offset(None))),
        ),
        (
            "a negative offset",
            with_metadata(&file, edit_chunk(|c| c.set_data_page_offset(-8).set_dictionary_page_offset(None))),
        ),
        (
            "a negative row count",
            with_metadata(&file, |m| {
                let mut b = m.into_builder();
                let groups = b
                    .take_row_groups()
                    .into_iter()
                    .map(|g| g.into_builder().set_num_rows(-3).build().expect("group"))
                    .collect();
                b.set_row_groups(groups).build()
            }),
        ),
    ];
    let peak = VmPeak::now();
    let dir = scratch_dir();
    let dir = dir.path();
    for (i, (what, bytes)) in lies.into_iter().enumerate() {
        let outcome = read_with(what, Raw, bytes.clone(), None);
        assert!(outcome.error.is_some(), "{what}: no error");
        let derived = read_with(what, magnolify_parquet::Derived::<Event>::new(), bytes.clone(), None);
        assert!(derived.error.is_some(), "{what}: no error for the derived type");
        let path = dir.join(format!("chunk-lie-{i}.parquet"));
        std::fs::write(&path, &bytes).expect("write");
        let outcome = read_with(what, Raw, std::fs::File::open(&path).expect("open"), None);
        assert!(outcome.error.is_some(), "{what}: no error from a file");
        std::fs::remove_file(&path).expect("remove");
    }
    peak.assert_grew_less_than(512 << 20);
}

/// A file whose footer is `metadata` (raw Thrift bytes).
fn with_raw_footer(metadata: &[u8]) -> Bytes {
    let mut out = b"PAR1".to_vec();
    out.extend_from_slice(metadata);
    out.extend_from_slice(&(metadata.len() as u32).to_le_bytes());
    out.extend_from_slice(b"PAR1");
    Bytes::from(out)
}

/// A `FileMetaData` with no row groups whose schema is a chain of `depth`
/// nested groups around one INT32 leaf, the root claiming `root_children`.
fn chain_footer(depth: usize, root_children: i32) -> Vec<u8> {
    let mut t = Thrift::default();
    t.begin(None).i32(1, 1).list_of_structs(2, depth + 1);
    t.begin(None).binary(4, b"m").i32(5, root_children).end();
    for level in 1..depth {
        // repetition OPTIONAL, name, one child
        t.begin(None).i32(3, 1).binary(4, format!("g{level}").as_bytes()).i32(5, 1).end();
    }
    t.begin(None).i32(1, 1).i32(3, 1).binary(4, b"leaf").end();
    t.i64(3, 0).list_of_structs(4, 0).end();
    t.out
}

#[test]
fn lying_footers_are_errors_and_allocate_nothing() {
    let peak = VmPeak::now();
    // A sound chain first, so that the lies below are lies about one thing.
    let sound = read_with("a schema 50 deep", Raw, with_raw_footer(&chain_footer(50, 1)), None);
    assert!(sound.error.is_none(), "{:?}", sound.error);
    assert!(sound.records.is_empty());
    // 2^31 children: the crate would reserve 16 GiB of child slots and abort.
    let text = expect_error("2^31 children", with_raw_footer(&chain_footer(2, i32::MAX)), None, "children");
    assert!(text.contains("claims 2147483647 children, but only 2 elements follow"), "{text}");
    // Nested 100 000 deep: the crate's recursive decoder would overflow the stack.
    expect_error("100 000 deep", with_raw_footer(&chain_footer(100_000, 1)), None, "nested deeper than 100");
    // A footer claiming gigabytes in a small file, from memory and from disk.
    let file = written(&configs()[0], &events(5));
    let dir = scratch_dir();
    let dir = dir.path();
    for claimed in [u32::MAX, 1 << 31, 1 << 30] {
        let lie = with_footer_length(&file, claimed);
        expect_error("a huge footer", lie.clone(), None, "bytes of metadata");
        let path = dir.join(format!("footer-{claimed}.parquet"));
        std::fs::write(&path, &lie).expect("write");
        let outcome = read_with("a huge footer on disk", Raw, std::fs::File::open(&path).expect("open"), None);
        assert!(outcome.error.is_some());
        std::fs::remove_file(&path).expect("remove");
    }
    peak.assert_grew_less_than(512 << 20);
}

/// The peak virtual size of the process (`VmPeak`), which a reservation of
/// gigabytes raises even if the memory is never touched. Linux only; other
/// systems skip the check.
struct VmPeak(Option<u64>);

impl VmPeak {
    fn read(key: &str) -> Option<u64> {
        let status = std::fs::read_to_string("/proc/self/status").ok()?;
        let line = status.lines().find(|l| l.starts_with(key))?;
        line.split_whitespace().nth(1)?.parse::<u64>().ok().map(|kb| kb * 1024)
    }

    /// Starts from the current size (not the past peak).
    fn now() -> Self {
        VmPeak(Self::read("VmSize:"))
    }

    fn assert_grew_less_than(&self, bytes: u64) {
        if let (Some(start), Some(peak)) = (self.0, Self::read("VmPeak:")) {
            // Other tests of this binary run on other threads, with small
            // files: they can raise the peak by megabytes, not gigabytes.
            assert!(peak.saturating_sub(start) < bytes, "the peak virtual size grew by {} bytes", peak - start);
        }
    }
}

/// A file cut short, or left by a writer never closed, says it may be:
/// the error names what likely happened, not only the missing magic.
#[test]
fn a_file_cut_short_says_it_may_be() {
    let file = written(&configs()[0], &events(100));
    let half = file.slice(..file.len() / 2);
    let err = ReaderBuilder::new(half).map(drop).unwrap_err().to_string();
    assert!(err.contains("does not end with the Parquet magic") && err.contains("cut short"), "{err}");
    // What another writer dropped before `close()` leaves: the leading magic.
    let err = ReaderBuilder::new(Bytes::from_static(b"PAR1")).map(drop).unwrap_err().to_string();
    assert!(err.contains("4 bytes") && err.contains("never closed"), "{err}");
}

/// This library's writer holds the leading magic back until a row group or
/// the footer follows: dropped before either, it leaves its sink empty (a
/// 4-byte file before); after a row group, the bytes written are those of
/// a file cut short; closed without a record, a whole file.
#[test]
fn a_writer_dropped_before_its_first_row_group_leaves_its_sink_empty() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dropped.parquet");
    let mut w = magnolify_parquet::ParquetWriter::<Event, _>::new(std::fs::File::create(&path).unwrap()).unwrap();
    w.write_all(&events(10)).unwrap();
    drop(w);
    assert_eq!(std::fs::metadata(&path).unwrap().len(), 0);

    let mut w = magnolify_parquet::ParquetWriter::<Event, _>::new(std::fs::File::create(&path).unwrap()).unwrap();
    w.write_all(&events(10)).unwrap();
    w.flush().unwrap();
    let row_group = w.bytes_written();
    drop(w);
    let written = std::fs::read(&path).unwrap();
    assert_eq!((written.len() as u64, &written[..4]), (row_group, &b"PAR1"[..]));

    let empty = magnolify_parquet::ParquetWriter::<Event, _>::new(Vec::new()).unwrap().into_inner().unwrap();
    let builder = ReaderBuilder::new(Bytes::from(empty)).unwrap();
    assert_eq!(builder.metadata().num_row_groups(), 0);
}
