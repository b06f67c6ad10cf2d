//! `nested`: 10,000 generated `Nested` records per op, the full path from
//! records to encoded pages and back, default writer properties.
//!
//! `*_derive`, `*_avro` and `*_columnar` go through pages kept in memory
//! (`MemPageStore`, or the floor's own page list); `*_arrow`,
//! `read_typed_arrow`, `read_row_api`
//! and `*_derive_file` go through a Parquet file held in a `Vec<u8>` /
//! `Bytes`. The rows are the shared ones of `benches::record_group!`.

benches::record_group! {
    record: benches::nested::Nested,
    generate: benches::nested::generate,
    avro_value: benches::avro::nested_value,
    avro_converter: benches::avro::nested_converter,
    columnar: benches::columnar::nested,
    arrow_fields: benches::peers::arrow::nested_fields,
    row_api_read: benches::peers::row_api::read_nested,
    typed_arrow_read: benches::peers::typed_arrow::read_nested,
    borrowed: benches::borrowed::NestedBorrowed,
}
