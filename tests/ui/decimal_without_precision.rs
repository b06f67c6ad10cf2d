use magnolify_parquet::ParquetType;

#[derive(ParquetType)]
struct Price {
    amount: rust_decimal::Decimal,
    history: Vec<Option<rust_decimal::Decimal>>,
    #[parquet(decimal(precision = 10, scale = 2))]
    declared: rust_decimal::Decimal,
}

fn main() {}
