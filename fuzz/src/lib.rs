//! What the fuzz targets share: the record types they read, the Avro schema,
//! the panic policy, the reader limits, and the seed files.
//!
//! The panic policy: the `parquet` crate panics on some damaged input, and
//! the library catches those panics at its boundary (they become
//! `Error::Damaged`). libFuzzer's hook would abort on them anyway, so the
//! targets install [`install_panic_hook`], which lets a panic whose location
//! is in a dependency unwind to the library's `catch_unwind`, and aborts (a
//! crash libFuzzer records) on a panic anywhere in this workspace's code. A
//! dependency panic that escapes the library still aborts: the harness
//! aborts on any panic that reaches it.
#![forbid(unsafe_code)]

use std::collections::{BTreeMap, HashMap};
use std::sync::Once;

use apache_avro::types::Value;
use avro_baseline::{AvroConverter, AvroOptions};
use bytes::Bytes;
use magnolify_parquet::convert::RecordReadOwned;
use magnolify_parquet::parquet::basic::{Compression, GzipLevel, ZstdLevel};
use magnolify_parquet::parquet::file::properties::WriterVersion;
use magnolify_parquet::parquet::file::reader::ChunkReader;
use magnolify_parquet::{ListLayout, ParquetType, ReadOptions, ReaderBuilder, Result, WriterBuilder};

pub mod borrowed;

/// Largest page the fuzzed reader accepts: small, so that no input makes a
/// run allocate near libFuzzer's 2 GiB limit.
pub const MAX_PAGE_BYTES: usize = 1 << 20;
/// Most levels per column per page and per batch.
pub const MAX_LEVELS: usize = 1 << 18;
/// Records per batch.
pub const BATCH: usize = 64;

/// Aborts on a panic in this workspace's code; lets the `parquet` crate's
/// panics unwind to the library's boundary.
pub fn install_panic_hook() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            let at = info.location().map(|l| l.file().to_owned()).unwrap_or_default();
            let dependency = at.contains("/.cargo/registry/") || at.contains("/rustc/") || at.starts_with("library/");
            if !dependency {
                eprintln!("panic in this workspace's code: {info}");
                std::process::abort();
            }
            // Caught by the library unless the harness reports a crash right
            // after; set FUZZ_SHOW_PANICS to see which.
            if std::env::var_os("FUZZ_SHOW_PANICS").is_some() {
                eprintln!("dependency panic: {info}");
            }
        }));
    });
}

/// Reads every record of `file` through `converter`, with the fuzzing limits,
/// to the end or the first error. Returns how many records were read.
pub fn read_all<C: RecordReadOwned + Send + Sync + 'static, R: ChunkReader + 'static>(converter: C, file: R) -> usize
where
    C::Owned: Send + 'static,
{
    let Ok(builder) = ReaderBuilder::new(file) else { return 0 };
    let options = ReadOptions::default().max_page_bytes(MAX_PAGE_BYTES).max_levels(MAX_LEVELS).batch_size(BATCH);
    let Ok(reader) = builder.build_with(converter, options) else { return 0 };
    let mut n = 0;
    for record in reader {
        match record {
            Ok(_) => n += 1,
            // A caught panic of the `parquet` crate is an error like any other.
            Err(_) => break,
        }
    }
    n
}

/// A line of an order: a struct in a list, with a map inside.
#[derive(ParquetType, Debug, Clone, PartialEq)]
pub struct Item {
    pub sku: String,
    pub qty: Option<u32>,
    pub dims: Vec<i64>,
    pub props: HashMap<String, Option<String>>,
}

/// An optional group holding a list of lists.
#[derive(ParquetType, Debug, Clone, PartialEq)]
pub struct Inner {
    pub a: Option<i32>,
    pub grid: Vec<Vec<i32>>,
}

/// The record `read_derived` reads: nesting, options, lists (three- and
/// two-level), maps, strings and bytes.
#[derive(ParquetType, Debug, Clone, PartialEq)]
pub struct FuzzRecord {
    pub id: i64,
    pub name: String,
    pub note: Option<String>,
    pub tags: Vec<String>,
    pub scores: Option<Vec<Option<f64>>>,
    #[parquet(list = "two-level")]
    pub legacy: Vec<i32>,
    pub attrs: BTreeMap<String, i32>,
    pub items: Vec<Item>,
    pub inner: Option<Inner>,
    pub flag: bool,
    pub blob: Vec<u8>,
    pub small: u16,
}

/// The Avro schema `read_avro` reads, in parquet-avro's layout: unions,
/// arrays, maps, a nested record, an enum, a fixed and logical types.
pub const AVRO_SCHEMA: &str = r#"{
  "type": "record", "name": "Order", "namespace": "fuzz",
  "fields": [
    {"name": "id", "type": "long"},
    {"name": "name", "type": "string"},
    {"name": "note", "type": ["null", "string"], "default": null},
    {"name": "tags", "type": {"type": "array", "items": "string"}},
    {"name": "scores", "type": ["null", {"type": "array", "items": "double"}], "default": null},
    {"name": "attrs", "type": {"type": "map", "values": "int"}},
    {"name": "lines", "type": {"type": "array", "items": {
      "type": "record", "name": "Line",
      "fields": [
        {"name": "sku", "type": "string"},
        {"name": "qty", "type": ["null", "int"], "default": null},
        {"name": "dims", "type": {"type": "array", "items": "long"}}
      ]}}},
    {"name": "kind", "type": {"type": "enum", "name": "Kind", "symbols": ["A", "B", "C"]}},
    {"name": "code", "type": {"type": "fixed", "name": "Code", "size": 4}},
    {"name": "at", "type": {"type": "long", "logicalType": "timestamp-micros"}},
    {"name": "amount", "type": {"type": "bytes", "logicalType": "decimal", "precision": 9, "scale": 2}},
    {"name": "flag", "type": "boolean"}
  ]
}"#;

/// The converter of [`AVRO_SCHEMA`].
pub fn avro_converter() -> AvroConverter {
    match AvroConverter::from_json(AVRO_SCHEMA, AvroOptions::default()) {
        Ok(c) => c,
        Err(e) => panic!("the fuzz Avro schema must compile: {e}"),
    }
}

/// A deterministic generator (64-bit LCG, high bits).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// `n` records of [`FuzzRecord`] from `seed`.
pub fn records(n: usize, seed: u64) -> Vec<FuzzRecord> {
    let mut g = Lcg(seed);
    (0..n)
        .map(|i| FuzzRecord {
            id: i as i64 - 3,
            name: format!("n{}", g.below(9)),
            note: (g.below(3) == 0).then(|| "é".repeat(g.below(4) as usize)),
            tags: (0..g.below(3)).map(|k| format!("t{k}")).collect(),
            scores: (g.below(3) > 0).then(|| (0..g.below(4)).map(|k| (k % 2 == 0).then_some(k as f64 / 3.0)).collect()),
            legacy: (0..g.below(3)).map(|k| k as i32).collect(),
            attrs: (0..g.below(3)).map(|k| (format!("a{k}"), g.below(50) as i32)).collect(),
            items: (0..g.below(3))
                .map(|k| Item {
                    sku: format!("s{k}"),
                    qty: (g.below(2) == 0).then(|| g.below(9) as u32),
                    dims: (0..g.below(3)).map(|d| d as i64 * 1_000_000_007).collect(),
                    props: (0..g.below(2)).map(|p| (format!("p{p}"), (p == 0).then(|| "v".to_owned()))).collect(),
                })
                .collect(),
            inner: (g.below(2) == 0).then(|| Inner {
                a: (g.below(2) == 0).then_some(i as i32),
                grid: (0..g.below(3)).map(|r| (0..r).map(|c| c as i32).collect()).collect(),
            }),
            flag: g.below(2) == 0,
            blob: (0..g.below(5)).map(|b| b as u8).collect(),
            small: g.below(65536) as u16,
        })
        .collect()
}

/// `n` Avro records of [`AVRO_SCHEMA`] from `seed`.
pub fn avro_records(n: usize, seed: u64) -> Vec<Value> {
    let mut g = Lcg(seed);
    (0..n)
        .map(|i| {
            let lines = (0..g.below(3))
                .map(|k| {
                    Value::Record(vec![
                        ("sku".into(), Value::String(format!("s{k}"))),
                        (
                            "qty".into(),
                            if g.below(2) == 0 {
                                Value::Union(0, Box::new(Value::Null))
                            } else {
                                Value::Union(1, Box::new(Value::Int(g.below(99) as i32)))
                            },
                        ),
                        ("dims".into(), Value::Array((0..g.below(3)).map(|d| Value::Long(d as i64)).collect())),
                    ])
                })
                .collect();
            let kind = g.below(3) as u32;
            Value::Record(vec![
                ("id".into(), Value::Long(i as i64)),
                ("name".into(), Value::String(format!("n{}", g.below(5)))),
                (
                    "note".into(),
                    if g.below(2) == 0 {
                        Value::Union(0, Box::new(Value::Null))
                    } else {
                        Value::Union(1, Box::new(Value::String("x".into())))
                    },
                ),
                ("tags".into(), Value::Array((0..g.below(3)).map(|k| Value::String(format!("t{k}"))).collect())),
                (
                    "scores".into(),
                    if g.below(2) == 0 {
                        Value::Union(0, Box::new(Value::Null))
                    } else {
                        Value::Union(1, Box::new(Value::Array(vec![Value::Double(0.5), Value::Double(-2.0)])))
                    },
                ),
                (
                    "attrs".into(),
                    Value::Map((0..g.below(3)).map(|k| (format!("a{k}"), Value::Int(k as i32))).collect()),
                ),
                ("lines".into(), Value::Array(lines)),
                ("kind".into(), Value::Enum(kind, ["A", "B", "C"][kind as usize].into())),
                ("code".into(), Value::Fixed(4, vec![1, 2, 3, g.below(256) as u8])),
                ("at".into(), Value::TimestampMicros(1_700_000_000_000_000 + g.below(1 << 30) as i64)),
                ("amount".into(), Value::Decimal(vec![0x01, g.below(256) as u8].into())),
                ("flag".into(), Value::Boolean(g.below(2) == 0)),
            ])
        })
        .collect()
}

/// The writer settings the seeds are written with, by name.
pub fn seed_settings() -> Vec<(&'static str, Compression, bool, WriterVersion)> {
    let (v1, v2) = (WriterVersion::PARQUET_1_0, WriterVersion::PARQUET_2_0);
    vec![
        ("plain-dict-v1", Compression::UNCOMPRESSED, true, v1),
        ("plain-v2", Compression::UNCOMPRESSED, false, v2),
        ("snappy-v1", Compression::SNAPPY, false, v1),
        ("gzip-dict-v2", Compression::GZIP(GzipLevel::default()), true, v2),
        ("lz4raw-v1", Compression::LZ4_RAW, false, v1),
        ("zstd-dict-v2", Compression::ZSTD(ZstdLevel::default()), true, v2),
    ]
}

/// Seed files for `read_derived`: [`FuzzRecord`]s written with every
/// setting, with small row groups and pages so that seeds hold several of each.
pub fn derived_seeds() -> Result<Vec<(String, Bytes)>> {
    let mut out = Vec::new();
    for (i, (name, codec, dictionary, version)) in seed_settings().into_iter().enumerate() {
        let mut w = WriterBuilder::<FuzzRecord>::new()
            .compression(codec)
            .dictionary(dictionary)
            .writer_version(version)
            .max_row_group_rows(5)
            .data_page_rows(3)
            .build(Vec::new())?;
        w.write_all(&records(12, i as u64))?;
        out.push((format!("derived-{name}.parquet"), Bytes::from(w.into_inner()?)));
    }
    Ok(out)
}

/// Seed files for `read_avro`: [`AVRO_SCHEMA`] records written by the Avro
/// converter, in both list layouts parquet-avro knows.
pub fn avro_seeds() -> Result<Vec<(String, Bytes)>> {
    let mut out = Vec::new();
    for (layout, name) in [(ListLayout::TwoLevel, "two-level"), (ListLayout::ThreeLevel, "three-level")] {
        for (i, (setting, codec, dictionary, version)) in seed_settings().into_iter().enumerate().step_by(2) {
            let options = AvroOptions::default().list_layout(layout);
            let converter = AvroConverter::from_json(AVRO_SCHEMA, options)?;
            let mut w = WriterBuilder::with_converter(converter)
                .compression(codec)
                .dictionary(dictionary)
                .writer_version(version)
                .max_row_group_rows(4)
                .data_page_rows(2)
                .build(Vec::new())?;
            for record in avro_records(9, i as u64) {
                w.write(&record)?;
            }
            out.push((format!("avro-{name}-{setting}.parquet"), Bytes::from(w.into_inner()?)));
        }
    }
    Ok(out)
}
