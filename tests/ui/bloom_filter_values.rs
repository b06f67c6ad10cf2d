// `bloom_filter` takes nothing, or `fpp` (a probability) and `ndv` (a
// positive count).
use magnolify_parquet::ParquetType;

#[derive(ParquetType)]
struct Row {
    #[parquet(bloom_filter = true)]
    a: String,
    #[parquet(bloom_filter(fpp = 1.5))]
    b: String,
    #[parquet(bloom_filter(ndv = 0))]
    c: String,
    #[parquet(bloom_filter(size = 10))]
    d: String,
    #[parquet(skip, bloom_filter)]
    e: String,
}

fn main() {}
