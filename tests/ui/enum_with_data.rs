use magnolify_parquet::ParquetType;

// What an enum with data cannot be, each reported at its span.
#[derive(ParquetType)]
enum Shape {
    Point,
    Pair(f64, f64),
    Nothing {},
    #[parquet(rename = "Point2")]
    Circle(f64),
    #[parquet(rename = "Point2")]
    Square { side: f64 },
    #[parquet(other)]
    Rect { w: f64, h: f64 },
    #[parquet(rename = "variant")]
    Named(String),
    Labelled(#[parquet(rename = "label", skip)] String),
    Converted(#[parquet(with = "module")] u8),
    #[parquet(rename = "card")]
    Card2(u8),
    Card(u8),
    #[parquet(rename = "VARIANT")]
    Upper(u8),
}

#[derive(ParquetType)]
#[parquet(union = "avro")]
enum Member {
    #[parquet(rename = "first")]
    Int(i32),
    Missing,
}

#[derive(ParquetType)]
enum Generic<T> {
    Value(T),
    Nothing,
}

#[derive(ParquetType)]
#[parquet(list = "two-level")]
enum Units {
    A,
    #[parquet(other)]
    B,
    #[parquet(other)]
    C,
}

fn main() {}
