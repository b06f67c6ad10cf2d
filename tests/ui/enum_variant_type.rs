use magnolify_parquet::ParquetType;

// A variant's field type with no Parquet form is reported at that type.
#[derive(ParquetType)]
enum Event {
    Started(std::time::Instant),
    Stopped { at: std::time::Duration },
    Idle,
}

fn main() {}
