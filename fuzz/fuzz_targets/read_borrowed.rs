//! Arbitrary bytes read as a Parquet file into a struct that borrows its
//! strings and bytes from the batch (lent, on 1 or 2 threads by the input's
//! length), and into the owned struct of the same columns: both reads must
//! agree, in records or in failing. A panic in this workspace's code is a
//! crash.
#![no_main]

use libfuzzer_sys::fuzz_target;
use magnolify_parquet_fuzz::{borrowed::compare_borrowed_with_owned, install_panic_hook};

fuzz_target!(|data: &[u8]| {
    install_panic_hook();
    compare_borrowed_with_owned(data, 1 + data.len() % 2);
});
