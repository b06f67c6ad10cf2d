//! Shared bench fixtures.
