//! The two questions assembly asks of levels, shared by every converter
//! (derived types and the Avro baseline): is an optional node present, and
//! how many elements does a list (or map) have. Both read the next triplet of
//! the node's first cursor, as in the Dremel paper's recursive descent.

use super::{FileNode, RecordSource, Resolver};
use crate::error::Result;

/// The cursors a node chose while it was resolved, from cursor `first`: an
/// absent node leaves one triplet in each. There must be at least one, or
/// its presence (or length) cannot be read.
fn chosen_since(node: &FileNode<'_>, first: usize, resolver: &Resolver<'_>) -> Result<usize> {
    match resolver.cursors().saturating_sub(first) {
        0 => Err(node.error(format!(
            "none of the fields of this node exist in the file ({}): its presence cannot be read; \
             read at least one of the file's fields, or mark the field #[parquet(skip)]",
            node.field_names()
        ))),
        n => Ok(n),
    }
}

/// An optional node: present when its first cursor's next definition level
/// reaches `def`.
#[derive(Clone, Copy, Debug)]
pub struct Presence {
    first: usize,
    count: usize,
    def: i16,
}

impl Presence {
    /// The presence of `node`, whose content chose the cursors from `first`
    /// on, present at definition level `def` (`node.def()` for an optional
    /// node; 0 for one that is never absent).
    pub fn since(node: &FileNode<'_>, first: usize, resolver: &Resolver<'_>, def: i16) -> Result<Self> {
        Ok(Presence { first, count: chosen_since(node, first, resolver)?, def })
    }

    /// Whether the node is present in the current record.
    #[inline(always)]
    pub fn is_present(&self, src: &RecordSource) -> bool {
        src.peek(self.first).1 >= self.def
    }

    /// Consumes the single triplet an absent node leaves in each of its cursors.
    #[inline]
    pub fn skip(&self, src: &mut RecordSource) -> Result<()> {
        src.skip(self.first, self.count, self.def)
    }
}

/// A list (or map) in any layout: empty when its first cursor's next
/// definition level is below `def`, null when below `null_def`; another
/// element follows while the next repetition level is `rep`.
#[derive(Clone, Copy, Debug)]
pub struct ListLevels {
    first: usize,
    count: usize,
    null_def: i16,
    def: i16,
    rep: i16,
}

impl ListLevels {
    /// The levels of list `node`, whose repeated node is `repeated` (from
    /// [`list_shape`](super::list_shape) or [`map_shape`](super::map_shape)),
    /// and whose elements chose the cursors from `first` on.
    pub fn since(
        node: &FileNode<'_>,
        null_def: i16,
        repeated: &FileNode<'_>,
        first: usize,
        resolver: &Resolver<'_>,
    ) -> Result<Self> {
        let count = chosen_since(node, first, resolver)?;
        Ok(ListLevels { first, count, null_def, def: repeated.def(), rep: repeated.rep() })
    }

    /// Reads one list: calls `element` once per element. A null list where
    /// none may be is an error naming the column and the row.
    #[inline]
    pub fn read<'de>(
        &self,
        src: &mut RecordSource<'de>,
        mut element: impl FnMut(&mut RecordSource<'de>) -> Result<()>,
    ) -> Result<()> {
        let d = src.peek(self.first).1;
        if d < self.def {
            if d < self.null_def {
                return Err(src.null_at(self.first, d));
            }
            return src.skip(self.first, self.count, self.def);
        }
        loop {
            element(src)?;
            let r = src.peek(self.first).0;
            if r < self.rep {
                return Ok(());
            }
            if r > self.rep {
                return Err(
                    src.damaged(self.first, format!("repetition level {r} where at most {} can follow", self.rep))
                );
            }
        }
    }
}

/// A group the file has optional but the type requires: a null there is an
/// error naming the column and the row.
#[derive(Clone, Copy, Debug)]
pub struct NullCheck {
    cursor: usize,
    def: i16,
}

impl NullCheck {
    /// Starts resolving `node` as a required group; call
    /// [`GroupStart::finish`] once its fields have chosen their cursors.
    pub fn begin(node: &FileNode<'_>, resolver: &Resolver<'_>) -> GroupStart {
        GroupStart {
            first: resolver.cursors(),
            def: (node.repetition() == parquet::basic::Repetition::OPTIONAL).then_some(node.def()),
        }
    }

    /// Errors when the group is null in the current record.
    #[inline(always)]
    pub fn check(&self, src: &RecordSource) -> Result<()> {
        let d = src.peek(self.cursor).1;
        if d < self.def {
            return Err(src.null_at(self.cursor, d));
        }
        Ok(())
    }
}

/// A group being resolved: where its cursors start.
#[derive(Clone, Copy, Debug)]
pub struct GroupStart {
    first: usize,
    def: Option<i16>,
}

impl GroupStart {
    /// The group's null check, if it needs one: only when the file has it
    /// optional, and only when one of its fields is read (a group none of
    /// whose fields is in the file reads no column; its first cursor would be
    /// a later sibling's).
    pub fn finish(self, resolver: &Resolver<'_>) -> Option<NullCheck> {
        let def = self.def?;
        (resolver.cursors() > self.first).then_some(NullCheck { cursor: self.first, def })
    }
}
