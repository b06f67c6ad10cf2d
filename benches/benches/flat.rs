//! `flat`: 10,000 generated `Flat` records per op (no nesting, so that
//! `parquet_derive` can take part), default writer properties.
//!
//! `*_derive`, `*_avro` and `*_columnar` go through pages kept in memory;
//! the peers (`parquet_derive`, `arrow`, `row_api`) and `*_derive_file` go
//! through a Parquet file in memory. Every file reader reads the same file
//! (written by `ParquetWriter`, uncompressed). `parquet_derive`'s reader
//! cannot read `Option` fields, so `read_parquet_derive` reads the six
//! required columns into `FlatRequired`; `read_derive_file_required` reads
//! the same six columns with the derive, like for like.

use std::sync::Arc;

use apache_avro::types::Value;
use benches::avro::{flat_converter, flat_value, write_store};
use benches::flat::{generate, Flat, FlatRequired};
use benches::peers::{arrow, parquet_derive, row_api};
use benches::{columnar, files, RUN, SEED};
use bytes::Bytes;
use divan::counter::ItemsCount;
use divan::Bencher;
use magnolify_parquet::mem::MemPageStore;
use magnolify_parquet::parquet::basic::Compression;
use magnolify_parquet::parquet::file::properties::WriterProperties;

fn main() {
    divan::main();
}

fn records() -> Vec<Flat> {
    generate(RUN, SEED)
}

fn derive_file(records: &[Flat]) -> magnolify_parquet::Result<Vec<u8>> {
    files::write(records, Compression::UNCOMPRESSED, 1)
}

/// The file every file reader reads.
fn shared_file() -> Bytes {
    Bytes::from(derive_file(&records()).expect("writing the shared file"))
}

#[divan::bench]
fn write_derive(bencher: Bencher) {
    let records = records();
    bencher.counter(ItemsCount::new(RUN)).bench_local(|| MemPageStore::write_all::<Flat>(&records));
}

#[divan::bench]
fn write_avro(bencher: Bencher) {
    let values: Vec<Value> = records().iter().map(flat_value).collect();
    let converter = flat_converter().expect("Avro converter");
    bencher.counter(ItemsCount::new(RUN)).bench_local(|| write_store(converter.clone(), &values));
}

#[divan::bench]
fn write_columnar(bencher: Bencher) {
    let records = records();
    let props = Arc::new(WriterProperties::default());
    bencher.counter(ItemsCount::new(RUN)).bench_local(|| columnar::flat::write(&records, &props));
}

/// Arrow's encoder alone, from a `RecordBatch` built before timing: the
/// limit a typed writer is measured against.
#[divan::bench]
fn write_arrow_encode_only(bencher: Bencher) {
    let batch = arrow::record_batch(&arrow::flat_fields().expect("tracing Flat"), &records()).expect("batch");
    bencher.counter(ItemsCount::new(RUN)).bench_local(|| arrow::encode_only(&batch, None));
}

#[divan::bench]
fn write_derive_file(bencher: Bencher) {
    let records = records();
    bencher.counter(ItemsCount::new(RUN)).bench_local(|| derive_file(&records));
}

#[divan::bench]
fn write_parquet_derive(bencher: Bencher) {
    let records = records();
    bencher.counter(ItemsCount::new(RUN)).bench_local(|| parquet_derive::write(&records, WriterProperties::default()));
}

#[divan::bench]
fn write_arrow(bencher: Bencher) {
    let records = records();
    let fields = arrow::flat_fields().expect("tracing Flat");
    bencher.counter(ItemsCount::new(RUN)).bench_local(|| arrow::write(&fields, &records, None));
}

#[divan::bench]
fn read_derive(bencher: Bencher) {
    let store = MemPageStore::write_all::<Flat>(&records()).expect("writing the store");
    bencher
        .counter(ItemsCount::new(RUN))
        .bench_local(|| -> magnolify_parquet::Result<Vec<Flat>> { store.read::<Flat>()?.collect() });
}

#[divan::bench]
fn read_avro(bencher: Bencher) {
    let store = MemPageStore::write_all::<Flat>(&records()).expect("writing the store");
    let converter = flat_converter().expect("Avro converter");
    bencher
        .counter(ItemsCount::new(RUN))
        .bench_local(|| -> magnolify_parquet::Result<Vec<Value>> { store.reader(converter.clone())?.collect() });
}

#[divan::bench]
fn read_columnar(bencher: Bencher) {
    let pages = columnar::flat::write(&records(), &Arc::new(WriterProperties::default())).expect("writing pages");
    bencher.counter(ItemsCount::new(RUN)).bench_local(|| columnar::flat::read(&pages));
}

#[divan::bench]
fn read_derive_file(bencher: Bencher) {
    let file = shared_file();
    bencher
        .counter(ItemsCount::new(RUN))
        .bench_local(|| -> magnolify_parquet::Result<Vec<Flat>> { files::read::<Flat>(file.clone(), 1) });
}

#[divan::bench]
fn read_derive_file_required(bencher: Bencher) {
    let file = shared_file();
    bencher.counter(ItemsCount::new(RUN)).bench_local(|| -> magnolify_parquet::Result<Vec<FlatRequired>> {
        files::read::<FlatRequired>(file.clone(), 1)
    });
}

#[divan::bench]
fn read_parquet_derive(bencher: Bencher) {
    let file = shared_file();
    bencher.counter(ItemsCount::new(RUN)).bench_local(|| parquet_derive::read(file.clone()));
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
    bencher.counter(ItemsCount::new(RUN)).bench_local(|| arrow::read::<Flat>(file.clone()));
}

#[divan::bench]
fn read_row_api(bencher: Bencher) {
    let file = shared_file();
    bencher.counter(ItemsCount::new(RUN)).bench_local(|| row_api::read_flat(file.clone()));
}
