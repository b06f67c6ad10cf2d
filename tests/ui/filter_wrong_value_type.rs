// A field's handle takes values of the field's own type (text fields a `&str`
// too): a timestamp is not compared with an integer, a string not with a number.
use chrono::{DateTime, Utc};
use magnolify_parquet::ParquetType;

#[derive(ParquetType)]
struct Trip {
    #[parquet(timestamp = "millis")]
    started: DateTime<Utc>,
    city: String,
}

fn main() {
    let f = Trip::fields();
    let _ = f.started.ge(1_700_000_000_000i64);
    let _ = f.city.eq(7);
}
