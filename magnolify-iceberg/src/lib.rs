//! Apache Iceberg tables from `#[derive(ParquetType)]` records: create a
//! table from a type, append records to it in one commit, scan a snapshot
//! back into records with a typed predicate.
//!
//! The catalog, the table metadata, the commit and the scan planning are
//! iceberg-rust's (`iceberg` 0.10, re-exported as [`iceberg`]): any of its
//! catalogs works (memory, SQL, REST, Glue, ...). The data files are this
//! library's: written by its writer with the table's field ids on every
//! column, read by its reader, which matches columns by field id.
//!
//! ```
//! use std::collections::HashMap;
//! use std::sync::Arc;
//!
//! use chrono::{DateTime, TimeZone, Utc};
//! use magnolify_iceberg::iceberg::io::LocalFsStorageFactory;
//! use magnolify_iceberg::iceberg::memory::{MemoryCatalogBuilder, MEMORY_CATALOG_WAREHOUSE};
//! use magnolify_iceberg::iceberg::{Catalog, CatalogBuilder, NamespaceIdent, TableIdent};
//! use magnolify_iceberg::{create_table, Partitioning, TableScan, TableWriter};
//! use magnolify_parquet::ParquetType;
//!
//! #[derive(ParquetType, Clone, Debug, PartialEq)]
//! struct Click {
//!     user_id: i64,
//!     #[parquet(timestamp = "micros")]
//!     ts: DateTime<Utc>,
//!     page: String,
//! }
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let dir = tempfile::tempdir()?;
//! # let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
//! # runtime.block_on(async {
//! // A catalog on a local warehouse directory.
//! let warehouse = format!("file://{}", dir.path().display());
//! let catalog = MemoryCatalogBuilder::default()
//!     .with_storage_factory(Arc::new(LocalFsStorageFactory))
//!     .load("local", HashMap::from([(MEMORY_CATALOG_WAREHOUSE.to_owned(), warehouse)]))
//!     .await?;
//! catalog.create_namespace(&NamespaceIdent::new("web".into()), HashMap::new()).await?;
//!
//! // A table of clicks, partitioned by day and by a hash of the user.
//! let fields = Click::fields();
//! let by = Partitioning::new().day(&fields.ts).bucket(16, &fields.user_id);
//! let name = TableIdent::from_strs(["web", "clicks"])?;
//! let table = create_table(&catalog, &name, &by).await?;
//!
//! // Append in one commit.
//! let mut writer = TableWriter::builder(&table).partitioning(by).build()?;
//! for (i, page) in ["/", "/docs", "/", "/blog"].into_iter().enumerate() {
//!     let ts = Utc.with_ymd_and_hms(2024, 3, 1 + i as u32, 9, 0, 0).unwrap();
//!     writer.write(&Click { user_id: i as i64 % 2, ts, page: page.into() }).await?;
//! }
//! let table = writer.commit(&catalog).await?;
//!
//! // Scan it back: iceberg-rust skips the days the predicate rules out.
//! let since = Utc.with_ymd_and_hms(2024, 3, 3, 0, 0, 0).unwrap();
//! let scan = TableScan::<Click>::new(&table).filter(fields.ts.ge(since));
//! assert_eq!(scan.files().await?.len(), 2);
//! let pages: Vec<String> = scan.collect().await?.into_iter().map(|c| c.page).collect();
//! assert_eq!(pages.len(), 2);
//! assert!(pages.contains(&"/".to_owned()) && pages.contains(&"/blog".to_owned()));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! # })
//! # }
//! ```
//!
//! What this crate writes by hand because iceberg-rust keeps it private:
//! the `DataFile` of a written file (its metrics from the Parquet footer,
//! [`TableWriter`]), since iceberg-rust's converter is crate-private and
//! takes another major version of the `parquet` crate; and the Iceberg
//! schema of a record type ([`iceberg_schema`]).
//!
//! [`TableScan`] applies every kind of delete file (position deletes,
//! equality deletes and format v3 deletion vectors). Each open data file
//! of a [`TableWriter`] holds its row group being written in memory.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod columns;
mod commit;
mod data_file;
mod data_source;
mod defaults;
mod deletes;
mod deletion_vector;
mod equality;
mod error;
mod expression;
mod field_ids;
mod file_stream;
mod name_mapping;
mod partition;
mod scan;
mod scan_stream;
mod schema;
mod table;
mod value;
mod writer;

pub use columns::TableColumns;
pub use error::{Error, Result};
pub use iceberg;
pub use partition::Partitioning;
pub use scan::TableScan;
pub use scan_stream::ScanStream;
pub use schema::iceberg_schema;
pub use table::create_table;
pub use value::{Bucketable, Hourly, IcebergValue, Temporal, Truncatable};
pub use writer::{TableWriter, TableWriterBuilder};
