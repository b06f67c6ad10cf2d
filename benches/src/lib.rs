//! Shared fixtures of the divan benches: the records under test, their
//! generators, the Avro forms of them, the hand-written columnar floor and
//! the Rust peers (`parquet_derive`, the Row API, `serde_arrow` + arrow,
//! typed-arrow).
//!
//! Each bench target in `benches/` is one group (`seed`, `nested`, `flat`,
//! `file`, `filter`, `dataset`, `store`); this crate holds everything they share, so that its tests can
//! check that every path reads back exactly what was written.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod avro;
pub mod borrowed;
pub mod columnar;
pub mod dataset;
pub mod files;
pub mod flat;
mod group;
pub mod peers;
pub mod transform;
pub mod trips;

/// The seed record of magnolify's benchmark (2-level lists), its generators
/// and hand-written schema: the test kit's, shared with the tests.
pub use test_kit::seed as nested;

/// Seed of every generated run: the same records on every machine and run.
pub const SEED: u64 = 0x005E_ED0F_5EED;

/// Records per op in the `nested` and `flat` groups.
pub const RUN: usize = 10_000;

/// Records per op in the `file` group.
pub const FILE_RUN: usize = 100_000;

#[cfg(test)]
mod tests;

/// Where `write_large` writes its file and `read_large` reads it by
/// default: `write_large.parquet` in the target directory (the examples run
/// from `target/<profile>/examples/`).
pub fn large_file_path() -> std::path::PathBuf {
    let exe = std::env::current_exe().ok();
    let target = exe.as_deref().and_then(|p| p.parent()).and_then(|p| p.parent()).and_then(|p| p.parent());
    target.map_or_else(|| std::path::PathBuf::from("write_large.parquet"), |t| t.join("write_large.parquet"))
}

/// `path` as the examples print it: relative to the project root when it
/// lies inside it (`target/write_large.parquet`), else relative to the
/// current directory when it lies there, else as it is. Recorded outputs
/// (`benches/LARGE.txt`) then name no directory of the machine they ran on.
pub fn shown_path(path: &std::path::Path) -> std::path::PathBuf {
    // This crate's manifest is `benches/Cargo.toml`: its parent is the root.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).parent();
    let current = std::env::current_dir().ok();
    let shown = [root, current.as_deref()].into_iter().flatten().find_map(|base| path.strip_prefix(base).ok());
    shown.unwrap_or(path).to_path_buf()
}

/// Prints what the large-file examples report of a file's row groups: how
/// many, the largest (encoded and uncompressed bytes, rows), and the RSS
/// budget that reading it is held to (two of the largest + 64 MiB).
pub fn print_row_groups(meta: &parquet::file::metadata::ParquetMetaData) {
    let groups = meta.row_groups();
    println!("row groups:        {}", groups.len());
    let Some(g) = groups.iter().max_by_key(|g| g.compressed_size()) else { return };
    let mib = |bytes: i64| bytes as f64 / (1024.0 * 1024.0);
    println!(
        "largest row group: {} bytes encoded ({:.1} MiB), {} bytes uncompressed, {} rows",
        g.compressed_size(),
        mib(g.compressed_size()),
        g.total_byte_size(),
        g.num_rows()
    );
    println!(
        "RSS budget:        {:.1} MiB (2 x largest encoded row group + 64 MiB)",
        mib(2 * g.compressed_size()) + 64.0
    );
}
