//! Integration tests of the workspace live in `tests/`. This library only
//! runs the Rust examples of the README and of the guides in `docs/` as doc
//! tests, so that what a user copies stays true.
#![doc = include_str!("../../README.md")]

/// `docs/reading.md`.
#[doc = include_str!("../../docs/reading.md")]
pub mod reading_guide {}

/// `docs/writing.md`.
#[doc = include_str!("../../docs/writing.md")]
pub mod writing_guide {}

/// `docs/datasets.md`.
#[doc = include_str!("../../docs/datasets.md")]
pub mod datasets_guide {}

/// `docs/types.md`.
#[doc = include_str!("../../docs/types.md")]
pub mod types_guide {}

/// `docs/errors.md`.
#[doc = include_str!("../../docs/errors.md")]
pub mod errors_guide {}

/// `docs/cli.md`.
#[doc = include_str!("../../docs/cli.md")]
pub mod cli_guide {}

/// `docs/internals.md`.
#[doc = include_str!("../../docs/internals.md")]
pub mod internals_guide {}

/// `docs/fuzzing.md`.
#[doc = include_str!("../../docs/fuzzing.md")]
pub mod fuzzing_guide {}

/// `docs/benchmarks.md`.
#[doc = include_str!("../../docs/benchmarks.md")]
pub mod benchmarks_guide {}

/// `docs/iceberg.md`.
#[doc = include_str!("../../docs/iceberg.md")]
pub mod iceberg_guide {}
