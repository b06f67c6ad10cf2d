//! `engines`: which columns of a schema an engine cannot read, or reads
//! differently from what the schema says, with the reason.
//!
//! The rules come from each engine's own schema conversion code or
//! documentation; each rule cites its source next to it. They describe the
//! engines' current releases as of the sources cited (late 2025 / 2026);
//! options that change a behaviour are named in the reason.

mod duckdb;
mod node;
mod pyarrow;
mod spark;
mod trino;

use std::fmt;
use std::str::FromStr;

use parquet::schema::types::Type;

pub use node::Node;

/// A query engine whose Parquet support is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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

/// How badly an engine handles a column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// The engine reads the column, but not as the schema says (another
    /// type, lost precision, values out of range).
    Different,
    /// The engine refuses the column (and usually the whole file).
    Unreadable,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Different => "different",
            Severity::Unreadable => "unreadable",
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

/// A rule that one property of a node decides: whether the node has it,
/// how bad that is and why.
type Flag = (fn(&Node<'_>) -> bool, Severity, &'static str);

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

/// The text `check` prints: a summary line, then one line per finding.
pub fn report(engine: Engine, findings: &[Finding]) -> String {
    let unreadable = findings.iter().filter(|f| f.severity == Severity::Unreadable).count();
    let different = findings.len() - unreadable;
    let mut out = if findings.is_empty() {
        format!("{engine}: every column reads as the schema says\n")
    } else {
        format!("{engine}: {unreadable} unreadable, {different} read differently\n")
    };
    for f in findings {
        out.push_str(&format!("  {f}\n"));
    }
    out
}

#[cfg(test)]
mod tests;
