//! The `sales` table of the dataset peer checks: what
//! `tests/fixtures/datasets/generate.py` writes with Spark and pyarrow, and
//! `peer_write` with the dataset writer, partitioned by `day` then `region`.

use chrono::{Days, NaiveDate};
use magnolify_parquet::ParquetType;

/// One sale; `day` and `region` are the partition fields.
#[derive(ParquetType, Debug, Clone, PartialEq)]
pub struct Sale {
    /// 0 to n - 1.
    pub id: i64,
    /// `id × 1.25`.
    pub amount: f64,
    /// `n<id>`, null for every fifth.
    pub note: Option<String>,
    /// 2024-03-01 to 2024-03-03.
    pub day: NaiveDate,
    /// Values to escape (`/`, `=` and a space, a non-ASCII letter) and nulls.
    pub region: Option<String>,
}

/// The regions, in turn.
pub const REGIONS: [Option<&str>; 4] = [Some("North/East"), Some("a=b c"), Some("Zürich"), None];

/// `n` sales, as the generator makes them.
pub fn rows(n: i64) -> Vec<Sale> {
    let day0 = NaiveDate::from_ymd_opt(2024, 3, 1).expect("a date");
    (0..n)
        .map(|id| Sale {
            id,
            amount: id as f64 * 1.25,
            note: (id % 5 != 0).then(|| format!("n{id}")),
            day: day0 + Days::new((id % 3) as u64),
            region: REGIONS[(id % 4) as usize].map(str::to_owned),
        })
        .collect()
}
