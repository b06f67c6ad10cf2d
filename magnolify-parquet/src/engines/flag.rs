//! How badly an engine handles a column, and the rules that say so: the
//! vocabulary every engine's module writes its rules in.

use std::fmt;

use super::node::Node;

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

/// A rule that one property of a node decides: whether the node has it,
/// how bad that is and why.
pub(super) type Flag = (fn(&Node<'_>) -> bool, Severity, &'static str);
