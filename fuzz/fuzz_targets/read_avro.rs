//! Arbitrary bytes read as a Parquet file with the Avro baseline: once with a
//! fixed Avro schema (unions, arrays, maps, a nested record, enum, fixed,
//! logical types), and once with the converter derived from the file's own
//! footer, so that the Parquet → Avro schema mapping and the footer's stored
//! Avro schema are fuzzed too.
#![no_main]

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::OnceLock;

use avro_baseline::{AvroConverter, AvroOptions};
use libfuzzer_sys::fuzz_target;
use magnolify_parquet::ReaderBuilder;
use magnolify_parquet_fuzz::{avro_converter, install_panic_hook, read_all};

static CONVERTER: OnceLock<AvroConverter> = OnceLock::new();

fuzz_target!(|data: &[u8]| {
    install_panic_hook();
    let file = bytes::Bytes::copy_from_slice(data);
    read_all(CONVERTER.get_or_init(avro_converter).clone(), file.clone());
    // The footer is read through the library's checks before the Avro
    // converter sees its schema.
    let Ok(probe) = ReaderBuilder::new(file.clone()) else { return };
    // apache-avro 0.21 panics on some invalid names in schema JSON
    // (apache/avro-rs#496, #547), which `for_file` parses from the footer's
    // `parquet.avro.schema`; such a panic is caught here until avro-baseline
    // guards that call itself. A panic in this workspace's code still aborts
    // (the hook runs before unwinding).
    let own = catch_unwind(AssertUnwindSafe(|| AvroConverter::for_file(probe.metadata(), AvroOptions::default())));
    if let Ok(Ok(own)) = own {
        read_all(own, file);
    }
});
