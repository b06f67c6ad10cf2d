use magnolify_parquet::ParquetType;

mod no_functions {
    pub type Repr = i64;
}

#[derive(ParquetType)]
struct Record {
    #[parquet(with = "no_functions")]
    a: u32,
}

fn main() {}
