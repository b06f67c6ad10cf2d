use magnolify_parquet::ParquetType;

#[derive(ParquetType)]
struct Tree {
    value: i32,
    children: Vec<Tree>,
}

#[derive(ParquetType)]
struct Chain {
    next: Option<Box<Self>>,
}

fn main() {}
