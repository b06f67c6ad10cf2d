//! Integration tests of the workspace live in `tests/`. This library only
//! runs the README's Rust examples as doc tests, so the tour stays true.
#![doc = include_str!("../../README.md")]
