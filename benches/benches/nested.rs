//! `nested`: 10,000 generated `Nested` records per op, the full path from
//! records to encoded pages and back, default writer properties.
//!
//! `*_derive`, `*_avro` and `*_columnar` go through pages kept in memory
//! (`MemPageStore`, or the floor's own page list); `*_arrow`, `read_row_api`
//! and `*_derive_file` go through a Parquet file held in a `Vec<u8>` /
//! `Bytes`. Every file reader reads the same file (written by
//! `ParquetWriter`, uncompressed).

use std::sync::Arc;

use apache_avro::types::Value;
use benches::avro::{nested_converter, nested_value, write_store};
use benches::columnar;
use benches::nested::{generate, Nested};
use benches::peers::{arrow, row_api};
use benches::{files, RUN, SEED};
use bytes::Bytes;
use divan::counter::ItemsCount;
use divan::Bencher;
use magnolify_parquet::mem::MemPageStore;
use magnolify_parquet::parquet::basic::Compression;
use magnolify_parquet::parquet::file::properties::WriterProperties;

fn main() {
    divan::main();
}

fn records() -> Vec<Nested> {
    generate(RUN, SEED)
}

fn derive_file(records: &[Nested]) -> magnolify_parquet::Result<Vec<u8>> {
    files::write(records, Compression::UNCOMPRESSED, 1)
}

/// The file every file reader reads.
fn shared_file() -> Bytes {
    Bytes::from(derive_file(&records()).expect("writing the shared file"))
}

#[divan::bench]
fn write_derive(bencher: Bencher) {
    let records = records();
    bencher.counter(ItemsCount::new(RUN)).bench_local(|| MemPageStore::write_all::<Nested>(&records));
}

#[divan::bench]
fn write_avro(bencher: Bencher) {
    let values: Vec<Value> = records().iter().map(nested_value).collect();
    let converter = nested_converter().expect("Avro converter");
    bencher.counter(ItemsCount::new(RUN)).bench_local(|| write_store(converter.clone(), &values));
}

#[divan::bench]
fn write_columnar(bencher: Bencher) {
    let records = records();
    let props = Arc::new(WriterProperties::default());
    bencher.counter(ItemsCount::new(RUN)).bench_local(|| columnar::nested::write(&records, &props));
}

#[divan::bench]
fn write_arrow(bencher: Bencher) {
    let records = records();
    let fields = arrow::nested_fields().expect("tracing Nested");
    bencher.counter(ItemsCount::new(RUN)).bench_local(|| arrow::write(&fields, &records, None));
}

/// Arrow's encoder alone, from a `RecordBatch` built before timing: the
/// limit a typed writer is measured against.
#[divan::bench]
fn write_arrow_encode_only(bencher: Bencher) {
    let batch = arrow::record_batch(&arrow::nested_fields().expect("tracing Nested"), &records()).expect("batch");
    bencher.counter(ItemsCount::new(RUN)).bench_local(|| arrow::encode_only(&batch, None));
}

#[divan::bench]
fn write_derive_file(bencher: Bencher) {
    let records = records();
    bencher.counter(ItemsCount::new(RUN)).bench_local(|| derive_file(&records));
}

#[divan::bench]
fn read_derive(bencher: Bencher) {
    let store = MemPageStore::write_all::<Nested>(&records()).expect("writing the store");
    bencher
        .counter(ItemsCount::new(RUN))
        .bench_local(|| -> magnolify_parquet::Result<Vec<Nested>> { store.read::<Nested>()?.collect() });
}

#[divan::bench]
fn read_avro(bencher: Bencher) {
    let store = MemPageStore::write_all::<Nested>(&records()).expect("writing the store");
    let converter = nested_converter().expect("Avro converter");
    bencher
        .counter(ItemsCount::new(RUN))
        .bench_local(|| -> magnolify_parquet::Result<Vec<Value>> { store.reader(converter.clone())?.collect() });
}

#[divan::bench]
fn read_columnar(bencher: Bencher) {
    let pages = columnar::nested::write(&records(), &Arc::new(WriterProperties::default())).expect("writing pages");
    bencher.counter(ItemsCount::new(RUN)).bench_local(|| columnar::nested::read(&pages));
}

#[divan::bench]
fn read_row_api(bencher: Bencher) {
    let file = shared_file();
    bencher.counter(ItemsCount::new(RUN)).bench_local(|| row_api::read_nested(file.clone()));
}

/// Arrow's decoder alone (batches of 1024, no record built) on the shared
/// file: the limit a typed reader is measured against.
#[divan::bench]
fn read_arrow_decode_only(bencher: Bencher) {
    let file = shared_file();
    bencher.counter(ItemsCount::new(RUN)).bench_local(|| arrow::decode_only(file.clone()));
}

#[divan::bench]
fn read_arrow(bencher: Bencher) {
    let file = shared_file();
    bencher.counter(ItemsCount::new(RUN)).bench_local(|| arrow::read::<Nested>(file.clone()));
}

#[divan::bench]
fn read_derive_file(bencher: Bencher) {
    let file = shared_file();
    bencher
        .counter(ItemsCount::new(RUN))
        .bench_local(|| -> magnolify_parquet::Result<Vec<Nested>> { files::read::<Nested>(file.clone(), 1) });
}
