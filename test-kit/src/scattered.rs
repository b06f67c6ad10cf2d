//! Records whose partitions come in no order: what the partitioned
//! writers' tests write with fewer open files than partitions, through the
//! dataset writer and the Iceberg table writer alike.

use magnolify_parquet::ParquetType;

/// Shops, and days: `SHOPS × DAYS` partitions.
pub const SHOPS: i32 = 12;
/// See [`SHOPS`].
pub const DAYS: i32 = 12;

/// One order; `shop` and `day` are the partition fields.
#[derive(ParquetType, Debug, Clone, PartialEq)]
pub struct Order {
    /// 0 to n - 1, the order written.
    pub id: i64,
    /// 0 to `SHOPS - 1`.
    pub shop: i32,
    /// 0 to `DAYS - 1`.
    pub day: i32,
    /// `id × 0.5`.
    pub amount: f64,
    /// A few dozen bytes, so that held records weigh something.
    pub note: String,
}

/// `n` orders, each one's partition picked by a multiplicative hash of its
/// id: consecutive orders land in partitions far apart, every partition
/// comes back again and again, and each holds `n / 144` or one more.
pub fn orders(n: i64) -> Vec<Order> {
    let partitions = i64::from(SHOPS * DAYS);
    (0..n)
        .map(|id| {
            // 97 is prime to 144: ids 0..144 visit every partition once.
            let k = (id * 97 + id / partitions) % partitions;
            Order {
                id,
                shop: (k / i64::from(DAYS)) as i32,
                day: (k % i64::from(DAYS)) as i32,
                amount: id as f64 * 0.5,
                note: format!("order {id} of a scattered stream of orders"),
            }
        })
        .collect()
}

/// The orders of each partition, `(shop, day)` in order, each partition's
/// in the order written: what reading one file per partition gives.
pub fn by_partition(orders: &[Order]) -> std::collections::BTreeMap<(i32, i32), Vec<Order>> {
    let mut out: std::collections::BTreeMap<(i32, i32), Vec<Order>> = Default::default();
    for order in orders {
        out.entry((order.shop, order.day)).or_default().push(order.clone());
    }
    out
}

/// A directory under `scratch` that cannot be created (a file stands
/// where its parent should be): where a spill must fail.
pub fn unwritable_dir(scratch: &std::path::Path) -> std::path::PathBuf {
    let file = scratch.join("a-file");
    std::fs::write(&file, b"not a directory").expect("a file in the scratch directory");
    file.join("spill")
}
