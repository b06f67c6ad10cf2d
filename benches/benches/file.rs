//! `file`: 100,000 generated `Nested` records per op into a ZSTD-compressed
//! Parquet file held in memory, and back (both readers read the file the
//! derive writes).

use benches::nested::{generate, Nested};
use benches::peers::arrow;
use benches::{FILE_RUN, SEED};
use bytes::Bytes;
use divan::counter::ItemsCount;
use divan::Bencher;
use magnolify_parquet::parquet::basic::{Compression, ZstdLevel};
use magnolify_parquet::parquet::file::properties::WriterProperties;
use magnolify_parquet::{ParquetReader, ParquetWriter};

fn main() {
    divan::main();
}

/// ZSTD at its default level.
fn zstd() -> Compression {
    Compression::ZSTD(ZstdLevel::default())
}

fn records() -> Vec<Nested> {
    generate(FILE_RUN, SEED)
}

fn derive_file(records: &[Nested]) -> magnolify_parquet::Result<Vec<u8>> {
    let mut writer = ParquetWriter::<Nested, _>::builder().compression(zstd()).build(Vec::new())?;
    writer.write_all(records)?;
    writer.into_inner()
}

#[divan::bench(sample_count = 20)]
fn write_derive(bencher: Bencher) {
    let records = records();
    bencher.counter(ItemsCount::new(FILE_RUN)).bench_local(|| derive_file(&records));
}

#[divan::bench(sample_count = 20)]
fn write_arrow(bencher: Bencher) {
    let records = records();
    let fields = arrow::nested_fields().expect("tracing Nested");
    let props = || WriterProperties::builder().set_compression(zstd()).build();
    bencher.counter(ItemsCount::new(FILE_RUN)).bench_local(|| arrow::write(&fields, &records, Some(props())));
}

#[divan::bench(sample_count = 20)]
fn read_derive(bencher: Bencher) {
    let file = Bytes::from(derive_file(&records()).expect("writing the file"));
    bencher.counter(ItemsCount::new(FILE_RUN)).bench_local(|| -> magnolify_parquet::Result<Vec<Nested>> {
        ParquetReader::<Nested, _>::new(file.clone())?.collect()
    });
}

#[divan::bench(sample_count = 20)]
fn read_arrow(bencher: Bencher) {
    let file = Bytes::from(derive_file(&records()).expect("writing the file"));
    bencher.counter(ItemsCount::new(FILE_RUN)).bench_local(|| arrow::read::<Nested>(file.clone()));
}
