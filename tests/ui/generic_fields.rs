// A record with type parameters has no field handles: `fields()` says so
// (instead of not existing).
use magnolify_parquet::ParquetType;

#[derive(ParquetType)]
struct Tagged<T> {
    tag: String,
    value: T,
}

/// A newtype of a struct is an argument of nothing: its inner type is no
/// filter value, and the derive still compiles.
#[derive(ParquetType)]
struct Wrapped(Inner);

#[derive(ParquetType)]
struct Inner {
    a: i32,
}

fn main() {
    let _ = Tagged::<i64>::fields();
    let _ = Wrapped(Inner { a: 1 });
}
