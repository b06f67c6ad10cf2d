use magnolify_parquet::ParquetType;

pub struct Celsius(f64);

/// Functions written for `Celsius`, as a new user would.
mod celsius {
    pub type Repr = f64;

    pub fn to_parquet(value: &super::Celsius) -> Result<f64, String> {
        Ok(value.0)
    }

    pub fn from_parquet(repr: f64) -> Result<super::Celsius, String> {
        Ok(super::Celsius(repr))
    }
}

#[derive(ParquetType)]
struct Reading {
    #[parquet(with = "celsius")]
    temperature: Option<Celsius>,
}

fn main() {}
