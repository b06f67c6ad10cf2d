//! Which columns of a schema a query engine cannot read, or reads
//! differently from what the schema says, with the reason: what the
//! command-line tool's `check` prints, and what
//! [`WriterBuilder::readable_by`](crate::WriterBuilder::readable_by) refuses.
//!
//! ```
//! use magnolify_parquet::engines::{check, Engine, Severity};
//! use magnolify_parquet::parquet::schema::parser::parse_message_type;
//!
//! let schema = parse_message_type(
//!     "message m { required fixed_len_byte_array(16) id (UUID); required int64 n (INTEGER(64,false)); }",
//! )?;
//! let findings = check(&schema, Engine::Spark);
//! let columns: Vec<(&str, Severity)> = findings.iter().map(|f| (f.column.as_str(), f.severity)).collect();
//! assert_eq!(columns, [("id", Severity::Unreadable), ("n", Severity::Different)]);
//! assert_eq!(findings[1].to_string(), "n: different: UINT_64 reads as DECIMAL(20,0): Spark has no unsigned types");
//! # Ok::<(), magnolify_parquet::parquet::errors::ParquetError>(())
//! ```
//!
//! The rules come from each engine's own schema conversion code or
//! documentation; each rule cites its source next to it. They describe the
//! engines' current releases as of the sources cited (late 2025 / 2026);
//! options that change a behaviour are named in the reason.

mod duckdb;
mod flag;
mod node;
mod pyarrow;
mod spark;
mod trino;

use std::fmt;
use std::str::FromStr;

use parquet::schema::types::Type;

use crate::error::{Error, Location, Result};
use flag::Flag;
pub use flag::Severity;
use node::Node;

/// A query engine whose Parquet support is known (more may come: match
/// with a wildcard arm).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Engine {
    /// Apache Spark SQL (its built-in Parquet data source).
    Spark,
    /// DuckDB (`read_parquet`).
    DuckDb,
    /// pyarrow (`pyarrow.parquet`, Arrow C++'s Parquet reader).
    PyArrow,
    /// Trino (Hive, Iceberg and Delta connectors' Parquet reader).
    Trino,
}

impl Engine {
    /// Every engine, in the order of the `--engine` help.
    pub const ALL: [Engine; 4] = [Engine::Spark, Engine::DuckDb, Engine::PyArrow, Engine::Trino];

    /// The name `--engine` takes.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Spark => "spark",
            Engine::DuckDb => "duckdb",
            Engine::PyArrow => "pyarrow",
            Engine::Trino => "trino",
        }
    }
}

impl fmt::Display for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Engine {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Engine::ALL.into_iter().find(|e| e.name() == s).ok_or_else(|| {
            let names: Vec<&str> = Engine::ALL.iter().map(|e| e.name()).collect();
            format!("unknown engine `{s}`; expected one of {}", names.join(", "))
        })
    }
}

/// One column an engine cannot read, or reads differently.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// Dotted path of the column (or group) from the root.
    pub column: String,
    /// The engine.
    pub engine: Engine,
    /// How bad it is.
    pub severity: Severity,
    /// Why, in a sentence.
    pub reason: String,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}: {}", self.column, self.severity, self.reason)
    }
}

/// An engine's rules that look further than one property: they add their
/// findings on a node.
type Rules = fn(&Node<'_>, &mut Vec<(Severity, String)>);

/// The findings of `engine` on the schema `message`, in schema order; on
/// each node, its flags' first.
pub fn check(message: &Type, engine: Engine) -> Vec<Finding> {
    let (flags, rules): (&[Flag], Rules) = match engine {
        Engine::Spark => (spark::FLAGS, spark::rules),
        Engine::DuckDb => (duckdb::FLAGS, duckdb::rules),
        Engine::PyArrow => (pyarrow::FLAGS, |_, _| {}),
        Engine::Trino => (trino::FLAGS, trino::rules),
    };
    let mut out = Vec::new();
    for node in Node::walk(message) {
        let flagged = flags.iter().filter(|(applies, ..)| applies(&node));
        let mut found: Vec<(Severity, String)> =
            flagged.map(|&(_, severity, reason)| (severity, reason.into())).collect();
        rules(&node, &mut found);
        for (severity, reason) in found {
            out.push(Finding { column: node.path.clone(), engine, severity, reason });
        }
    }
    out
}

/// `Ok` if each of `engines` reads every column of `message` (perhaps as
/// another type: [`Severity::Different`] passes); else an
/// [`Error::Schema`] at the first column one cannot read, naming every such
/// column and the two ways out.
pub(crate) fn require_readable(message: &Type, engines: &[Engine]) -> Result<()> {
    let refused: Vec<Finding> = engines
        .iter()
        .flat_map(|&engine| check(message, engine))
        .filter(|f| f.severity == Severity::Unreadable)
        .collect();
    let Some(first) = refused.first() else { return Ok(()) };
    let mut message = format!("{} cannot read column `{}`: {}", first.engine, first.column, first.reason);
    for f in &refused[1..] {
        message.push_str(&format!("; {} cannot read column `{}`: {}", f.engine, f.column, f.reason));
    }
    message.push_str(&format!(
        ". Change the field's type to one the engine reads, or drop `readable_by(Engine::{:?})` from the writer's settings",
        first.engine
    ));
    Err(Error::Schema { location: Box::new(Location::column(first.column.clone())), message })
}

#[cfg(test)]
mod tests;
