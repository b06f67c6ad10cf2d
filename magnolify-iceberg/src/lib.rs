//! Apache Iceberg tables from `#[derive(ParquetType)]` records.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod columns;
mod data_file;
mod error;
mod expression;
mod field_ids;
mod partition;
mod scan;
mod schema;
mod table;
mod value;
mod writer;

pub use columns::TableColumns;
pub use error::{Error, Result};
pub use iceberg;
pub use partition::Partitioning;
pub use scan::TableScan;
pub use schema::iceberg_schema;
pub use table::create_table;
pub use value::{Bucketable, Hourly, IcebergValue, Temporal, Truncatable};
pub use writer::{TableWriter, TableWriterBuilder};
