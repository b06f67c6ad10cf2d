//! A predicate's tree, folded into another form: how a table format's
//! scan planner gets the same filter (magnolify-iceberg turns predicates
//! into Iceberg expressions this way).

use super::key::FilterValue;
use super::predicate::{Comparison, Condition, Node, Predicate};

/// What one leaf of a predicate asks of its field's values.
#[derive(Clone, Copy)]
#[non_exhaustive]
pub enum LeafTest<'a> {
    /// `is_null`.
    IsNull,
    /// `is_not_null`.
    IsNotNull,
    /// A comparison with a value (`between` is two of them).
    Compare(Comparison, &'a dyn FilterValue),
    /// `is_in`: equal to one of the values.
    In(&'a [std::sync::Arc<dyn FilterValue>]),
    /// `starts_with`: text with this prefix.
    StartsWith(&'a [u8]),
}

/// Builds something from a predicate, bottom up: see [`Predicate::fold`].
pub trait PredicateFold {
    /// What each node becomes.
    type Out;

    /// A test of the field at `path` (its names from the record's root).
    fn leaf(&mut self, path: &[String], test: LeafTest<'_>) -> Self::Out;
    /// Both hold.
    fn and(&mut self, a: Self::Out, b: Self::Out) -> Self::Out;
    /// Either holds.
    fn or(&mut self, a: Self::Out, b: Self::Out) -> Self::Out;
    /// It does not hold.
    fn not(&mut self, a: Self::Out) -> Self::Out;
}

impl<R> Predicate<R> {
    /// The predicate's tree, folded by `f` from the leaves up.
    ///
    /// ```
    /// use magnolify_parquet::filter::{LeafTest, PredicateFold};
    /// use magnolify_parquet::ParquetType;
    ///
    /// #[derive(ParquetType)]
    /// struct Trip { id: u64, rider: Option<String> }
    ///
    /// /// The predicate as text, in prefix form.
    /// struct Prefix;
    /// impl PredicateFold for Prefix {
    ///     type Out = String;
    ///     fn leaf(&mut self, path: &[String], test: LeafTest<'_>) -> String {
    ///         match test {
    ///             LeafTest::Compare(op, _) => format!("{op:?}({})", path.join(".")),
    ///             LeafTest::IsNull => format!("null({})", path.join(".")),
    ///             _ => "other".into(),
    ///         }
    ///     }
    ///     fn and(&mut self, a: String, b: String) -> String { format!("and({a}, {b})") }
    ///     fn or(&mut self, a: String, b: String) -> String { format!("or({a}, {b})") }
    ///     fn not(&mut self, a: String) -> String { format!("not({a})") }
    /// }
    ///
    /// let f = Trip::fields();
    /// let p = f.id.gt(3).and(f.rider.is_null().not());
    /// assert_eq!(p.fold(&mut Prefix), "and(Gt(id), not(null(rider)))");
    /// ```
    pub fn fold<F: PredicateFold>(&self, f: &mut F) -> F::Out {
        fold(&self.node, f)
    }
}

fn fold<R, F: PredicateFold>(node: &Node<R>, f: &mut F) -> F::Out {
    match node {
        Node::Leaf(leaf) => {
            let test = match &leaf.condition {
                Condition::IsNull => LeafTest::IsNull,
                Condition::IsNotNull => LeafTest::IsNotNull,
                Condition::Compare(op, value) => LeafTest::Compare(*op, &**value),
                Condition::In(values) => LeafTest::In(values),
                Condition::StartsWith(prefix) => LeafTest::StartsWith(prefix),
            };
            f.leaf(&leaf.parts, test)
        }
        Node::And(a, b) => {
            let (a, b) = (fold(a, f), fold(b, f));
            f.and(a, b)
        }
        Node::Or(a, b) => {
            let (a, b) = (fold(a, f), fold(b, f));
            f.or(a, b)
        }
        Node::Not(a) => {
            let a = fold(a, f);
            f.not(a)
        }
    }
}
