//! What the tests, the benches and the fuzz targets share, so that each
//! piece exists once: magnolify's seed record ([`seed`]), a deterministic
//! generator ([`rng`]), the JSON form of fixture rows ([`json`]), the fixture
//! files ([`fixtures`]) and the read and write round trips ([`io`]).

pub mod fixtures;
pub mod io;
pub mod json;
pub mod rng;
pub mod sales;
pub mod seed;
