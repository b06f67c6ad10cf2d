//! Arbitrary bytes read as a Parquet file into a fixed derived type with
//! nesting, options, lists, maps and strings. Every input must give records
//! or an error; a panic in this workspace's code is a crash.
#![no_main]

use libfuzzer_sys::fuzz_target;
use magnolify_parquet::Derived;
use magnolify_parquet_fuzz::{install_panic_hook, read_all, FuzzRecord};

fuzz_target!(|data: &[u8]| {
    install_panic_hook();
    read_all(Derived::<FuzzRecord>::new(), bytes::Bytes::copy_from_slice(data));
});
