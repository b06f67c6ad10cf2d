use std::collections::HashMap;

use magnolify_parquet::ParquetType;

#[derive(ParquetType, PartialEq, Eq, Hash)]
struct Key {
    a: i32,
}

#[derive(ParquetType)]
struct Record {
    by_key: HashMap<Key, String>,
}

fn main() {}
