//! `seed`: magnolify's own benchmark (its JMH `ParquetBench`) on its seed
//! record, one record per op.
//!
//! - `write_*`: one record shredded into a `ColumnSink`'s per-leaf buffers,
//!   no page encoding (JMH's op stops at a no-op `RecordConsumer` too). The
//!   sink is cleared every 1,024 records inside the timed op (12 `Vec`
//!   truncations, about 1/1024 of a clear per op), so buffers stay warm.
//!   For Avro the `Value` is built once, before timing.
//! - `read_*`: one record assembled from a `MemPageStore` holding 65,536
//!   copies of the record, plain-encoded (dictionary off, as in JMH). Each
//!   op takes the next record; every 1,024 records that includes decoding
//!   the next batch of the 12 columns (JMH re-decodes its one page per op).
//!   When the store is exhausted the reader is re-opened inside the timed
//!   op: once per 65,536 ops.
//! - `read_derive_borrowed`: the seed record as a struct that borrows its
//!   text ([`NestedBorrowed`]), lent a batch at a time: one op is one batch
//!   of 1,024 records (decoded and assembled), so its rows count 1,024 items
//!   per op. `divan_medians.py` gives every bench with a throughput row a
//!   per-item median (`seed/read_derive_borrowed@item`), which is what
//!   compares with the one-record ops of `read_avro`.

use benches::avro::{nested_converter, nested_value};
use benches::borrowed::NestedBorrowed;
use benches::nested::{seed_record, Nested};
use divan::counter::ItemsCount;
use divan::{black_box, Bencher};
use magnolify_parquet::convert::{ColumnSink, RecordReadOwned, RecordWrite};
use magnolify_parquet::mem::{MemPageStore, MemReader, MemWriter};
use magnolify_parquet::parquet::file::properties::WriterProperties;
use magnolify_parquet::parquet::schema::types::SchemaDescriptor;
use magnolify_parquet::Derived;

fn main() {
    divan::main();
}

/// Records the sink holds before it is cleared.
const CLEAR_EVERY: usize = 1024;

/// Copies of the seed record in the store the read benches replay.
const STORE_RECORDS: usize = 65_536;

/// Samples per bench: ratios are taken between medians, on a noisy machine.
const SAMPLES: u32 = 500;

/// Records per batch of the lending read (the readers' default batch size).
const BATCH: usize = 1024;

/// Ops per sample: fixed, so that every sample holds the same share of sink
/// clears (write) and batch decodes (read), 4 of each.
const OPS: u32 = 4096;

/// Times shredding `record` with `converter`, one record per op.
fn bench_write<C: RecordWrite>(bencher: Bencher, converter: C, record: &C::Record<'_>) {
    let schema = SchemaDescriptor::new(converter.schema().expect("schema"));
    let mut sink = ColumnSink::new(&schema);
    sink.record(|s| converter.write(record, s)).expect("the seed record shreds");
    sink.check().expect("the shredded triplets are consistent");
    bencher.counter(ItemsCount::new(1usize)).bench_local(|| {
        if sink.records() >= CLEAR_EVERY {
            sink.clear();
        }
        sink.record(|s| converter.write(black_box(record), s))
    });
}

/// The store the read benches replay: the seed record many times, plain encoding.
fn seed_store() -> MemPageStore {
    let props = WriterProperties::builder().set_dictionary_enabled(false).build();
    let mut writer = MemWriter::new(Derived::<Nested>::new(), props).expect("store writer");
    let record = seed_record();
    for _ in 0..STORE_RECORDS {
        writer.write(&record).expect("writing the seed record");
    }
    writer.close().expect("closing the store")
}

/// Times assembling one record at a time with the readers `open` makes.
fn bench_read<C>(bencher: Bencher, open: impl Fn() -> magnolify_parquet::Result<MemReader<C>>)
where
    C: RecordReadOwned + Send + Sync + 'static,
    C::Owned: Send + 'static,
{
    let mut reader = open().expect("opening the store");
    bencher.counter(ItemsCount::new(1usize)).bench_local(|| match reader.next() {
        Some(record) => record,
        None => {
            reader = open()?;
            reader.next().unwrap_or_else(|| Err(magnolify_parquet::Error::argument("the store is empty")))
        }
    });
}

#[divan::bench(sample_count = SAMPLES, sample_size = OPS)]
fn write_derive(bencher: Bencher) {
    bench_write(bencher, Derived::<Nested>::new(), &seed_record());
}

#[divan::bench(sample_count = SAMPLES, sample_size = OPS)]
fn write_avro(bencher: Bencher) {
    let value = nested_value(&seed_record());
    bench_write(bencher, nested_converter().expect("Avro converter"), &value);
}

#[divan::bench(sample_count = SAMPLES, sample_size = OPS)]
fn read_derive(bencher: Bencher) {
    let store = seed_store();
    assert_eq!(store.read::<Nested>().expect("reader").next().transpose().expect("read"), Some(seed_record()));
    bench_read(bencher, || store.read::<Nested>());
}

#[divan::bench(sample_count = SAMPLES, sample_size = OPS)]
fn read_avro(bencher: Bencher) {
    let store = seed_store();
    let converter = nested_converter().expect("Avro converter");
    let first = store.reader(converter.clone()).expect("reader").next().transpose().expect("read");
    assert_eq!(first, Some(nested_value(&seed_record())));
    bench_read(bencher, || store.reader(converter.clone()));
}

#[divan::bench(sample_count = SAMPLES, sample_size = 4)]
fn read_derive_borrowed(bencher: Bencher) {
    let store = seed_store();
    let open = || store.read::<NestedBorrowed>();
    let mut reader = open().expect("opening the store");
    let first = reader.next_batch().expect("read").expect("a batch");
    assert_eq!((first.len(), first[0].s, first[0].l.len()), (BATCH, seed_record().s.as_str(), seed_record().l.len()));
    drop(first);
    bencher.counter(ItemsCount::new(BATCH)).bench_local(|| loop {
        if let Some(batch) = reader.next_batch()? {
            assert_eq!(batch.len(), BATCH, "a batch of another size would count wrong");
            return Ok::<_, magnolify_parquet::Error>(black_box(&batch).len());
        }
        reader = open()?;
    });
}
