use magnolify_parquet::ParquetType;

#[derive(ParquetType)]
struct Record {
    ok: i32,
    started: std::time::Instant,
    #[parquet(default)]
    count: NoDefault,
}

#[derive(ParquetType)]
struct Wrapper(std::time::Duration);

#[derive(ParquetType)]
struct NoDefault(u32);

fn main() {}
