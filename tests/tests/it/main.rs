#![forbid(unsafe_code)]
//! The integration tests, one binary of modules (one link, not fifteen):
//! round trips, peers' files, damaged input, compile-fail cases, threads.
//! What the modules share lives in the `test-kit` crate.

mod architecture;
mod avro_cross;
mod avro_peer;
mod avro_roundtrip;
mod borrowed_filters;
mod borrowed_fixtures;
mod borrowed_reads;
mod compile_fail;
mod damaged_enums_variants;
mod damaged_files;
mod data_enums;
mod dataset_lending;
mod dataset_peers;
mod datasets;
mod derive_hygiene;
mod derive_roundtrip;
mod derive_schema;
mod dictionary_pruning;
mod dremel;
mod filters;
mod fixtures_read;
mod float_statistics;
mod hints;
mod json_values;
mod logical_types;
mod object_stores;
mod page_checksums;
mod page_decoders;
mod page_skipping;
mod partitioned_writes;
mod proptest_enums;
mod proptest_layouts;
mod read_options;
mod schema_evolution;
mod std_types;
mod store_faults;
mod store_load;
mod threads;
mod variant_values;
mod wide_struct;
mod writer_faults;
mod writer_integrity;
mod writer_rules;
