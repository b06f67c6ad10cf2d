//! Appending data files to a table in one snapshot, through iceberg-rust's
//! transaction (which reloads the table, applies the append again and
//! backs off when another writer's commit came first), and telling apart
//! a commit known rejected from one whose outcome is unknown.

use std::collections::HashMap;

use iceberg::spec::{DataFile, TableMetadataBuilder, TableProperties};
use iceberg::table::Table;
use iceberg::transaction::{ApplyTransactionAction, Transaction};
use iceberg::{Catalog, ErrorKind};

use crate::error::{Error, Result};

/// Commit attempts after a conflict when the table does not set
/// `commit.retry.num-retries` (iceberg-rust's default is 4): with its
/// backoff doubling from `commit.retry.min-wait-ms`, the last attempts
/// come seconds to minutes after the first, so that a writer that lost to
/// another committing in a loop lands once the other pauses.
const DEFAULT_RETRIES: usize = 10;

/// The snapshot summary property that names a commit, by which a commit
/// of unknown outcome is found in the table reloaded.
const COMMIT_ID: &str = "magnolify.commit-id";

/// What became of an append.
pub(crate) enum Appended {
    /// The table after the commit.
    Committed(Table),
    /// The catalog refused the commit (a conflict after every retry, a
    /// table gone, an invalid update): its files are no snapshot's.
    Rejected(Error),
    /// The commit may have landed or not (the catalog's answer was lost:
    /// a timeout, a server error), and the table could not be reloaded to
    /// tell: its files must stay.
    Unknown(Error),
}

/// Appends `files` to `table` in one snapshot through `catalog`.
///
/// The retries are the table's `commit.retry.*` properties, with
/// [`DEFAULT_RETRIES`] where it sets none, and the first wait jittered
/// (between half and one and a half times `commit.retry.min-wait-ms`) so
/// that writers that conflicted do not retry in step. These settings are
/// this commit's only: the table's properties are not changed.
pub(crate) async fn append(table: &Table, files: Vec<DataFile>, catalog: &dyn Catalog) -> Appended {
    let commit_id = uuid::Uuid::new_v4();
    let tuned = match with_retry_settings(table, commit_id.as_u128()) {
        Ok(tuned) => tuned,
        Err(e) => return Appended::Rejected(e),
    };
    let properties = HashMap::from([(COMMIT_ID.to_owned(), commit_id.to_string())]);
    let transaction = Transaction::new(&tuned);
    let append = transaction.fast_append().set_snapshot_properties(properties).add_data_files(files);
    let committed = match append.apply(transaction) {
        Ok(transaction) => transaction.commit(catalog).await,
        Err(e) => return Appended::Rejected(e.into()),
    };
    let error = match committed {
        Ok(table) => return Appended::Committed(table),
        Err(e) if known_rejected(e.kind()) => return Appended::Rejected(e.into()),
        Err(e) => e,
    };
    // The outcome is unknown: the reloaded table tells.
    match catalog.load_table(table.identifier()).await {
        Ok(now) if has_commit(&now, &commit_id.to_string()) => Appended::Committed(now),
        Ok(_) => Appended::Rejected(error.into()),
        Err(_) => Appended::Unknown(error.into()),
    }
}

/// Errors after which the catalog is known not to have applied the commit.
fn known_rejected(kind: ErrorKind) -> bool {
    matches!(
        kind,
        ErrorKind::CatalogCommitConflicts
            | ErrorKind::PreconditionFailed
            | ErrorKind::DataInvalid
            | ErrorKind::FeatureUnsupported
            | ErrorKind::TableNotFound
            | ErrorKind::NamespaceNotFound
    )
}

/// Whether a snapshot of `table` is the commit `id`.
fn has_commit(table: &Table, id: &str) -> bool {
    table
        .metadata()
        .snapshots()
        .any(|s| s.summary().additional_properties.get(COMMIT_ID).map(String::as_str) == Some(id))
}

/// `table` with the retry settings of one commit (in memory only), `noise`
/// choosing the jitter.
fn with_retry_settings(table: &Table, noise: u128) -> Result<Table> {
    let metadata = table.metadata();
    let own = metadata.properties();
    let parsed = TableProperties::try_from(own)?;
    let mut settings = HashMap::new();
    if !own.contains_key(TableProperties::PROPERTY_COMMIT_NUM_RETRIES) {
        settings.insert(TableProperties::PROPERTY_COMMIT_NUM_RETRIES.to_owned(), DEFAULT_RETRIES.to_string());
    }
    let wait = parsed.commit_min_retry_wait_ms;
    let jittered = wait / 2 + (noise % u128::from(wait.max(1))) as u64;
    settings.insert(TableProperties::PROPERTY_COMMIT_MIN_RETRY_WAIT_MS.to_owned(), jittered.max(1).to_string());
    let location = table.metadata_location().map(str::to_owned);
    let builder = TableMetadataBuilder::new_from_metadata(metadata.clone(), location.clone());
    let tuned = builder.set_properties(settings)?.build()?.metadata;
    let rebuilt = Table::builder()
        .metadata(tuned)
        .identifier(table.identifier().clone())
        .file_io(table.file_io().clone())
        .readonly(table.readonly())
        // The table's own runtime is not public; a commit spawns nothing.
        .runtime(iceberg::Runtime::try_current()?);
    let rebuilt = match location {
        Some(location) => rebuilt.metadata_location(location),
        None => rebuilt,
    };
    Ok(rebuilt.build()?)
}
