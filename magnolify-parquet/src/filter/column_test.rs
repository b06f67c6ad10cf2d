//! The exact test of a predicate on a batch's decoded columns instead of
//! on its records: how records that borrow (whose type is not the
//! predicate's) are filtered. Each leaf reads its field's values from the
//! column with the field's own type and options, as the record's read
//! does, and applies the same test as on an owned record, so both filter
//! alike.

use std::sync::Arc;

use parquet::schema::types::SchemaDescriptor;

use crate::assemble::{Cursors, FileNode, Resolver};
use crate::error::{Error, Location, Result};
use crate::field::{ParquetRead, ParquetReadOwned, ParquetSchema};
use crate::options::FieldOptions;
use crate::values::LeafBatch;

/// A batch of whole records, as decoded: one [`LeafBatch`] per column read,
/// the index in the file of the first record, and its row group.
#[derive(Clone, Copy)]
pub(crate) struct Records<'a> {
    pub(crate) leaves: &'a [LeafBatch],
    pub(crate) count: usize,
    pub(crate) first: u64,
    pub(crate) group: usize,
}

/// A leaf's test on a value of its field (`None`: a null on the way).
pub(crate) type ValueTest<T> = Arc<dyn Fn(Option<&T>) -> bool + Send + Sync>;

/// A leaf's test, not yet bound to a file.
pub(crate) trait ColumnTest: Send + Sync {
    /// The test over the column at `parts` of `schema`.
    fn bind(&self, schema: &Arc<SchemaDescriptor>, parts: &[String]) -> Result<Box<dyn BoundTest>>;
}

/// A leaf's test bound to a file: it reads one of the file's columns.
pub(crate) trait BoundTest: Send {
    /// The file column it reads (none: the file lacks it).
    fn column(&self) -> Option<usize>;

    /// Appends whether each of `records` passes, reading their leaf `leaf`
    /// (their batch of [`column`](Self::column)); on an error, the answers
    /// for the records before it.
    fn test(&mut self, records: Records<'_>, leaf: usize, out: &mut Vec<bool>) -> Result<()>;
}

/// The test of a field of type `T` read with `opts`.
pub(crate) struct ColumnValues<T> {
    pub(crate) opts: FieldOptions,
    /// Whether the field may be null: a file without its column holds
    /// nulls there, as an owned read finds.
    pub(crate) nullable: bool,
    pub(crate) holds: ValueTest<T>,
}

impl<T: ParquetReadOwned + Send + Sync + 'static> ColumnTest for ColumnValues<T> {
    fn bind(&self, schema: &Arc<SchemaDescriptor>, parts: &[String]) -> Result<Box<dyn BoundTest>> {
        let dotted = parts.join(".");
        let mut node = FileNode::root(schema);
        for part in parts {
            node = match node.child(part) {
                Some(child) => child,
                // Every record's value is null, as an owned read resolves a
                // missing optional field (or group on the way).
                None if self.nullable => return Ok(Box::new(Constant((self.holds)(None)))),
                None => {
                    return Err(Error::mismatch(
                        Location::column(&dotted),
                        "the predicate tests a required field whose column the file does not have: records \
                         that borrow are filtered on their columns (read owned records to test a field's \
                         default, or make the field an Option)",
                    ))
                }
            };
        }
        if node.rep() > 0 {
            return Err(Error::argument(format!("the predicate tests `{dotted}`, a column inside a list or map")));
        }
        let mut resolver = Resolver::new(schema);
        let plan = <Option<T> as ParquetRead<'_>>::resolve(&node, &self.opts, &mut resolver)?;
        let &[column] = resolver.into_columns().as_slice() else {
            return Err(Error::argument(format!("the predicate tests `{dotted}`, which is not one column")));
        };
        let cursors = Cursors::new(schema.clone(), &[(column, schema.column(column))]);
        Ok(Box::new(Bound::<T> { plan, column, cursors, holds: self.holds.clone() }))
    }
}

/// [`ColumnValues`] bound to a file.
struct Bound<T: ParquetSchema> {
    plan: <Option<T> as ParquetSchema>::ReadPlan,
    column: usize,
    cursors: Cursors,
    holds: ValueTest<T>,
}

impl<T: ParquetReadOwned + Send + Sync + 'static> BoundTest for Bound<T> {
    fn column(&self) -> Option<usize> {
        Some(self.column)
    }

    fn test(&mut self, records: Records<'_>, leaf: usize, out: &mut Vec<bool>) -> Result<()> {
        let leaves = records.leaves.get(leaf..=leaf).unwrap_or_default();
        let mut source = self.cursors.source(leaves, records.first);
        for _ in 0..records.count {
            let value = <Option<T> as ParquetRead<'_>>::read(&self.plan, &mut source)
                .map_err(|e| e.at_record(source.record).in_row_group(records.group))?;
            out.push((self.holds)(value.as_ref()));
            source.record += 1;
        }
        Ok(())
    }
}

/// The test of a field the file lacks: the same answer for every record.
struct Constant(bool);

impl BoundTest for Constant {
    fn column(&self) -> Option<usize> {
        None
    }

    fn test(&mut self, records: Records<'_>, _: usize, out: &mut Vec<bool>) -> Result<()> {
        out.resize(out.len() + records.count, self.0);
        Ok(())
    }
}

/// A predicate bound to a file: its tree over the bound leaves, and where
/// each leaf's column is among the batch's.
pub(crate) struct ColumnFilter {
    tree: Tree,
    leaves: Vec<(Box<dyn BoundTest>, usize)>,
    /// Each leaf's answers for the current batch.
    answers: Vec<Vec<bool>>,
}

/// A predicate's tree over the bound leaves (their indices).
pub(crate) enum Tree {
    Leaf(usize),
    And(Box<Tree>, Box<Tree>),
    Or(Box<Tree>, Box<Tree>),
    Not(Box<Tree>),
}

impl ColumnFilter {
    /// The filter evaluating `tree` over `leaves`, each with its column's
    /// place among the batch's.
    pub(crate) fn new(tree: Tree, leaves: Vec<(Box<dyn BoundTest>, usize)>) -> Self {
        let answers = leaves.iter().map(|_| Vec::new()).collect();
        ColumnFilter { tree, leaves, answers }
    }

    /// Whether each of `records` passes, as far as every leaf could tell:
    /// fewer answers than records after an error, which comes with them
    /// (the earliest of the leaves').
    pub(crate) fn test(&mut self, records: Records<'_>) -> (Vec<bool>, Option<Error>) {
        let mut first_error: Option<(usize, Error)> = None;
        for ((leaf, position), answers) in self.leaves.iter_mut().zip(&mut self.answers) {
            answers.clear();
            if let Err(e) = leaf.test(records, *position, answers) {
                if first_error.as_ref().is_none_or(|(at, _)| answers.len() < *at) {
                    first_error = Some((answers.len(), e));
                }
            }
        }
        let known = self.answers.iter().map(Vec::len).min().unwrap_or(records.count);
        let passed = (0..known).map(|i| self.tree.holds(&self.answers, i)).collect();
        (passed, first_error.map(|(_, e)| e))
    }
}

impl Tree {
    fn holds(&self, answers: &[Vec<bool>], record: usize) -> bool {
        match self {
            Tree::Leaf(i) => answers[*i][record],
            Tree::And(a, b) => a.holds(answers, record) && b.holds(answers, record),
            Tree::Or(a, b) => a.holds(answers, record) || b.holds(answers, record),
            Tree::Not(a) => !a.holds(answers, record),
        }
    }
}

/// `test` bound to the column at `parts` of `schema`, which must be one of
/// `columns` (the batch's, in order), pushed onto `leaves`: the tree's leaf.
pub(crate) fn bind_leaf(
    test: &dyn ColumnTest,
    parts: &[String],
    schema: &Arc<SchemaDescriptor>,
    columns: &[usize],
    leaves: &mut Vec<(Box<dyn BoundTest>, usize)>,
) -> Result<Tree> {
    let bound = test.bind(schema, parts)?;
    let position = match bound.column() {
        // Not read: a constant answer.
        None => 0,
        Some(column) => columns.iter().position(|c| *c == column).ok_or_else(|| {
            Error::argument(format!("the predicate tests `{}`, a column the records read do not read", parts.join(".")))
        })?,
    };
    leaves.push((bound, position));
    Ok(Tree::Leaf(leaves.len() - 1))
}
