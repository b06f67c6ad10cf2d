//! The benches that the `nested` and `flat` groups share, written once: each
//! group names its record type and the pieces that differ (its Avro form,
//! floor module, arrow fields and Row API reader) and gets the same rows.

/// Defines `main`, the shared helpers (`records`, `derive_file`,
/// `shared_file`) and the benches every record group runs on `$record`:
/// in-memory pages through the derive, the Avro baseline and the floor
/// (`*_derive`, `*_avro`, `*_columnar`); a file in memory through the derive,
/// arrow, typed-arrow and the Row API (`*_derive_file`, `*_arrow`,
/// `read_typed_arrow`, `read_row_api`); and
/// arrow's encoder and decoder alone (`*_arrow_encode_only`,
/// `read_arrow_decode_only`), the limits a typed layer is measured against.
/// Every file reader reads the same file (written by `ParquetWriter`,
/// uncompressed); every run has `RUN` records generated from `SEED`.
#[macro_export]
macro_rules! record_group {
    (
        record: $record:ty,
        generate: $generate:path,
        avro_value: $avro_value:path,
        avro_converter: $avro_converter:path,
        columnar: $columnar:path,
        arrow_fields: $arrow_fields:path,
        row_api_read: $row_api_read:path,
        typed_arrow_read: $typed_arrow_read:path,
        borrowed: $borrowed:ty $(,)?
    ) => {
        use std::sync::Arc;

        use apache_avro::types::Value;
        use benches::avro::write_store;
        use benches::peers::arrow;
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

        fn records() -> Vec<$record> {
            $generate(RUN, SEED)
        }

        fn derive_file(records: &[$record]) -> magnolify_parquet::Result<Vec<u8>> {
            files::write(records, Compression::UNCOMPRESSED, 1)
        }

        /// The file every file reader reads.
        fn shared_file() -> Bytes {
            Bytes::from(derive_file(&records()).expect("writing the shared file"))
        }

        #[divan::bench]
        fn write_derive(bencher: Bencher) {
            let records = records();
            bencher.counter(ItemsCount::new(RUN)).bench_local(|| MemPageStore::write_all::<$record>(&records));
        }

        #[divan::bench]
        fn write_avro(bencher: Bencher) {
            let values: Vec<Value> = records().iter().map($avro_value).collect();
            let converter = $avro_converter().expect("Avro converter");
            bencher.counter(ItemsCount::new(RUN)).bench_local(|| write_store(converter.clone(), &values));
        }

        #[divan::bench]
        fn write_columnar(bencher: Bencher) {
            use $columnar as floor;
            let records = records();
            let props = Arc::new(WriterProperties::default());
            bencher.counter(ItemsCount::new(RUN)).bench_local(|| floor::write(&records, &props));
        }

        #[divan::bench]
        fn write_arrow(bencher: Bencher) {
            let records = records();
            let fields = $arrow_fields().expect("tracing the record type");
            bencher.counter(ItemsCount::new(RUN)).bench_local(|| arrow::write(&fields, &records, None));
        }

        /// Arrow's encoder alone, from a `RecordBatch` built before timing:
        /// the limit a typed writer is measured against.
        #[divan::bench]
        fn write_arrow_encode_only(bencher: Bencher) {
            let fields = $arrow_fields().expect("tracing the record type");
            let batch = arrow::record_batch(&fields, &records()).expect("batch");
            bencher.counter(ItemsCount::new(RUN)).bench_local(|| arrow::encode_only(&batch, None));
        }

        #[divan::bench]
        fn write_derive_file(bencher: Bencher) {
            let records = records();
            bencher.counter(ItemsCount::new(RUN)).bench_local(|| derive_file(&records));
        }

        #[divan::bench]
        fn read_derive(bencher: Bencher) {
            let store = MemPageStore::write_all::<$record>(&records()).expect("writing the store");
            bencher
                .counter(ItemsCount::new(RUN))
                .bench_local(|| -> magnolify_parquet::Result<Vec<$record>> { store.read::<$record>()?.collect() });
        }

        #[divan::bench]
        fn read_avro(bencher: Bencher) {
            let store = MemPageStore::write_all::<$record>(&records()).expect("writing the store");
            let converter = $avro_converter().expect("Avro converter");
            bencher.counter(ItemsCount::new(RUN)).bench_local(|| -> magnolify_parquet::Result<Vec<Value>> {
                store.reader(converter.clone())?.collect()
            });
        }

        #[divan::bench]
        fn read_columnar(bencher: Bencher) {
            use $columnar as floor;
            let pages = floor::write(&records(), &Arc::new(WriterProperties::default())).expect("writing pages");
            bencher.counter(ItemsCount::new(RUN)).bench_local(|| floor::read(&pages));
        }

        /// typed-arrow's typed rows over arrow's decode (parquet and arrow
        /// 58), each turned into the owned record, as `read_derive_file`.
        #[divan::bench]
        fn read_typed_arrow(bencher: Bencher) {
            let file = shared_file();
            bencher.counter(ItemsCount::new(RUN)).bench_local(|| $typed_arrow_read(file.clone()));
        }

        #[divan::bench]
        fn read_row_api(bencher: Bencher) {
            let file = shared_file();
            bencher.counter(ItemsCount::new(RUN)).bench_local(|| $row_api_read(file.clone()));
        }

        /// Arrow's decoder alone (batches of 1024, no record built) on the
        /// shared file: the limit a typed reader is measured against.
        #[divan::bench]
        fn read_arrow_decode_only(bencher: Bencher) {
            let file = shared_file();
            bencher.counter(ItemsCount::new(RUN)).bench_local(|| arrow::decode_only(file.clone()));
        }

        #[divan::bench]
        fn read_arrow(bencher: Bencher) {
            let file = shared_file();
            bencher.counter(ItemsCount::new(RUN)).bench_local(|| arrow::read::<$record>(file.clone()));
        }

        /// Records that borrow from the batch, one batch at a time on one
        /// thread (as `read_derive_file`), each batch seen by `black_box`.
        #[divan::bench]
        fn read_derive_borrowed(bencher: Bencher) {
            let file = shared_file();
            bencher.counter(ItemsCount::new(RUN)).bench_local(|| {
                benches::borrowed::read::<$borrowed>(file.clone(), |batch| {
                    divan::black_box(batch);
                })
            });
        }

        #[divan::bench]
        fn read_derive_file(bencher: Bencher) {
            let file = shared_file();
            bencher
                .counter(ItemsCount::new(RUN))
                .bench_local(|| -> magnolify_parquet::Result<Vec<$record>> { files::read::<$record>(file.clone(), 1) });
        }
    };
}
