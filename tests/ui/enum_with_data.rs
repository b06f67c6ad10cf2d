use magnolify_parquet::ParquetType;

#[derive(ParquetType)]
enum Shape {
    Point,
    Circle(f64),
    Rect { w: f64, h: f64 },
}

fn main() {}
