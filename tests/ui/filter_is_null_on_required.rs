// Only a field that can be null has `is_null`: `Option` fields and fields
// of an optional group.
use magnolify_parquet::ParquetType;

#[derive(ParquetType)]
struct Inner {
    a: i32,
}

#[derive(ParquetType)]
struct Trip {
    id: u64,
    note: Option<String>,
    inner: Inner,
    maybe: Option<Inner>,
}

fn main() {
    let f = Trip::fields();
    let _ = f.note.is_null();
    let _ = f.maybe.a.is_null();
    let _ = f.id.is_null();
    let _ = f.inner.a.is_not_null();
}
