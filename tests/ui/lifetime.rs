use magnolify_parquet::ParquetType;

#[derive(ParquetType)]
struct Borrowed<'a, T> {
    name: &'a str,
    value: T,
}

fn main() {}
