use magnolify_parquet::ParquetType;

#[derive(ParquetType)]
union Bits {
    int: u32,
    float: f32,
}

fn main() {}
