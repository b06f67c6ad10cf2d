//! `file`: 100,000 generated `Nested` records per op into a ZSTD-compressed
//! Parquet file held in memory, and back (every reader reads the file the
//! derive writes on 1 thread). `*_threads2` use 2 threads; the others 1.

use benches::nested::{generate, Nested};
use benches::peers::arrow;
use benches::{files, FILE_RUN, SEED};
use bytes::Bytes;
use divan::counter::ItemsCount;
use divan::Bencher;
use magnolify_parquet::parquet::basic::{Compression, ZstdLevel};
use magnolify_parquet::parquet::file::properties::WriterProperties;

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

fn derive_file(records: &[Nested], threads: usize) -> magnolify_parquet::Result<Vec<u8>> {
    files::write(records, zstd(), threads)
}

#[divan::bench(sample_count = 20)]
fn write_derive(bencher: Bencher) {
    let records = records();
    bencher.counter(ItemsCount::new(FILE_RUN)).bench_local(|| derive_file(&records, 1));
}

/// The column chunks encoded on 2 threads.
#[divan::bench(sample_count = 20)]
fn write_derive_threads2(bencher: Bencher) {
    let records = records();
    bencher.counter(ItemsCount::new(FILE_RUN)).bench_local(|| derive_file(&records, 2));
}

#[divan::bench(sample_count = 20)]
fn write_arrow(bencher: Bencher) {
    let records = records();
    let fields = arrow::nested_fields().expect("tracing Nested");
    let props = || WriterProperties::builder().set_compression(zstd()).build();
    bencher.counter(ItemsCount::new(FILE_RUN)).bench_local(|| arrow::write(&fields, &records, Some(props())));
}

fn shared_file() -> Bytes {
    Bytes::from(derive_file(&records(), 1).expect("writing the file"))
}

#[divan::bench(sample_count = 20)]
fn read_derive(bencher: Bencher) {
    let file = shared_file();
    bencher.counter(ItemsCount::new(FILE_RUN)).bench_local(|| files::read::<Nested>(file.clone(), 1));
}

/// Batches decoded on a thread of their own, a batch ahead of assembly.
#[divan::bench(sample_count = 20)]
fn read_derive_threads2(bencher: Bencher) {
    let file = shared_file();
    bencher.counter(ItemsCount::new(FILE_RUN)).bench_local(|| files::read::<Nested>(file.clone(), 2));
}

#[divan::bench(sample_count = 20)]
fn read_arrow(bencher: Bencher) {
    let file = shared_file();
    bencher.counter(ItemsCount::new(FILE_RUN)).bench_local(|| arrow::read::<Nested>(file.clone()));
}
