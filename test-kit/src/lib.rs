//! What the tests, the benches and the fuzz targets share, so that each
//! piece exists once: magnolify's seed record ([`seed`]), a deterministic
//! generator ([`rng`]), the JSON form of fixture rows ([`json`]) and the text
//! of its leaf values ([`text`], which the CLI's `cat` prints too), the
//! fixture files ([`fixtures`]) and the read and write round trips ([`io`]).

pub mod fixtures;
pub mod io;
pub mod json;
pub mod rng;
pub mod sales;
pub mod scattered;
pub mod seed;
#[cfg(feature = "store")]
pub mod store;
pub mod text;
