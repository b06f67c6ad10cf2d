//! The rows of row groups that a reader decodes: ranges a predicate may
//! match (from the page index), and what the decoders skipped outside them.

use std::collections::HashMap;
use std::sync::Arc;

pub(crate) use crate::codec::SkipCounts;
pub(crate) use crate::filter::RowRanges;

/// The rows to decode of the row groups that have a selection (the others
/// are decoded whole), and where the decoders count what they skip.
#[derive(Clone, Debug, Default)]
pub(crate) struct Selection {
    pub(crate) groups: HashMap<usize, RowRanges>,
    pub(crate) counts: Arc<SkipCounts>,
}
