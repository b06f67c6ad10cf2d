//! What `#[derive(ParquetType)]` refuses, and how it says so: each case in
//! `tests/ui/` must fail to compile with the messages and spans recorded in
//! its `.stderr` file (regenerate with `TRYBUILD=overwrite`, then read them).

#[test]
fn derive_errors() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("ui/*.rs");
}
