use magnolify_parquet::ParquetType;

#[derive(ParquetType)]
struct Empty {}

#[derive(ParquetType)]
struct OnlySkipped {
    #[parquet(skip)]
    cache: Vec<u8>,
}

#[derive(ParquetType)]
enum NoVariants {}

fn main() {}
