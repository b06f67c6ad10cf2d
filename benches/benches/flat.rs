//! `flat`: 10,000 generated `Flat` records per op (no nesting, so that
//! `parquet_derive` can take part), default writer properties.
//!
//! `*_derive`, `*_avro` and `*_columnar` go through pages kept in memory;
//! the peers (`parquet_derive`, `arrow`, `typed_arrow`, `row_api`) and `*_derive_file` go
//! through a Parquet file in memory: the rows of `benches::record_group!`,
//! and `parquet_derive`'s. Its reader cannot read `Option` fields, so
//! `read_parquet_derive` reads the six required columns into
//! `FlatRequired`; `read_derive_file_required` reads the same six columns
//! with the derive, like for like. `transform_*` read the shared file, keep
//! the half with an even id and write it (`benches::transform`).

use benches::flat::{Flat, FlatRequired};
use benches::peers::parquet_derive;

benches::record_group! {
    record: Flat,
    generate: benches::flat::generate,
    avro_value: benches::avro::flat_value,
    avro_converter: benches::avro::flat_converter,
    columnar: benches::columnar::flat,
    arrow_fields: benches::peers::arrow::flat_fields,
    row_api_read: benches::peers::row_api::read_flat,
    typed_arrow_read: benches::peers::typed_arrow::read_flat,
    borrowed: benches::borrowed::FlatBorrowed,
}

#[divan::bench]
fn write_parquet_derive(bencher: Bencher) {
    let records = records();
    bencher.counter(ItemsCount::new(RUN)).bench_local(|| parquet_derive::write(&records, WriterProperties::default()));
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

#[divan::bench]
fn transform_borrowed(bencher: Bencher) {
    let file = shared_file();
    bencher.counter(ItemsCount::new(RUN)).bench_local(|| benches::transform::borrowed(file.clone()));
}

#[divan::bench]
fn transform_owned(bencher: Bencher) {
    let file = shared_file();
    bencher.counter(ItemsCount::new(RUN)).bench_local(|| benches::transform::owned(file.clone()));
}

#[divan::bench]
fn transform_arrow(bencher: Bencher) {
    let file = shared_file();
    bencher.counter(ItemsCount::new(RUN)).bench_local(|| benches::transform::arrow(file.clone()));
}
