//! Predicates over records of `R`: a tree of tests on fields, each test
//! both exact (on the assembled record) and a condition on a column that
//! statistics can rule out.

use std::fmt;
use std::sync::Arc;

use parquet::schema::types::SchemaDescriptor;

use super::column_test::{bind_leaf, BoundTest, ColumnFilter, ColumnTest, ColumnValues, Tree, ValueTest};
use super::handle::{Field, Nullability, Nullable};
use super::key::FilterValue;
use crate::error::Result;
use crate::field::ParquetReadOwned;

/// A comparison of a field's values with one value (what
/// [`PredicateFold::leaf`](super::PredicateFold::leaf) is told).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Comparison {
    /// `eq`.
    Eq,
    /// `ne`.
    Ne,
    /// `lt`.
    Lt,
    /// `le`.
    Le,
    /// `gt`.
    Gt,
    /// `ge`.
    Ge,
}

impl Comparison {
    fn symbol(self) -> &'static str {
        match self {
            Comparison::Eq => "==",
            Comparison::Ne => "!=",
            Comparison::Lt => "<",
            Comparison::Le => "<=",
            Comparison::Gt => ">",
            Comparison::Ge => ">=",
        }
    }
}

/// A value of a predicate, as the pruner sees it (its key depends on the
/// column it meets).
pub(crate) type Value = Arc<dyn FilterValue>;

/// What a leaf asks of its column, for pruning.
#[derive(Clone)]
pub(crate) enum Condition {
    IsNull,
    IsNotNull,
    Compare(Comparison, Value),
    In(Vec<Value>),
    StartsWith(Vec<u8>),
}

/// One test on one field.
pub(crate) struct Leaf<R> {
    /// The column's path, name by name.
    pub(crate) parts: Arc<[String]>,
    pub(crate) condition: Condition,
    /// The exact test on a record.
    test: Arc<dyn Fn(&R) -> bool + Send + Sync>,
    /// The same test on the field's column, for records of another type
    /// (records that borrow).
    pub(crate) column_test: Arc<dyn ColumnTest>,
    /// For `Debug`: `path op value`.
    text: String,
}

pub(crate) enum Node<R> {
    Leaf(Arc<Leaf<R>>),
    And(Box<Node<R>>, Box<Node<R>>),
    Or(Box<Node<R>>, Box<Node<R>>),
    Not(Box<Node<R>>),
}

impl<R> Clone for Node<R> {
    fn clone(&self) -> Self {
        match self {
            Node::Leaf(l) => Node::Leaf(l.clone()),
            Node::And(a, b) => Node::And(a.clone(), b.clone()),
            Node::Or(a, b) => Node::Or(a.clone(), b.clone()),
            Node::Not(a) => Node::Not(a.clone()),
        }
    }
}

/// A condition on records of `R`, made from the field handles of
/// `R::fields()` and combined with [`and`](Self::and), [`or`](Self::or) and
/// [`not`](Self::not).
///
/// A comparison is false on a null (a `None` field, or a field inside a
/// `None` group), `ne` included; `not` turns false into true, so
/// `x.eq(v).not()` holds for nulls where `x.ne(v)` does not. Floats compare
/// as Rust compares them: NaN is equal to nothing and ordered with nothing.
///
/// A reader given a predicate returns exactly the records for which it
/// holds, in file order: the same as reading every record and keeping
/// those. On the way it skips the row groups whose statistics show that no
/// record can match.
pub struct Predicate<R> {
    pub(crate) node: Node<R>,
}

impl<R> Clone for Predicate<R> {
    fn clone(&self) -> Self {
        Predicate { node: self.node.clone() }
    }
}

impl<R> Predicate<R> {
    /// Both hold.
    pub fn and(self, other: Predicate<R>) -> Predicate<R> {
        Predicate { node: Node::And(Box::new(self.node), Box::new(other.node)) }
    }

    /// Either holds.
    pub fn or(self, other: Predicate<R>) -> Predicate<R> {
        Predicate { node: Node::Or(Box::new(self.node), Box::new(other.node)) }
    }

    /// It does not hold.
    #[allow(clippy::should_implement_trait)]
    pub fn not(self) -> Predicate<R> {
        Predicate { node: Node::Not(Box::new(self.node)) }
    }

    /// Whether `record` passes.
    pub fn test(&self, record: &R) -> bool {
        self.node.test(record)
    }

    /// The same predicate on columns named otherwise in a file (a table's
    /// columns renamed since the file was written): `path_of` gives each
    /// leaf's column path in the file from its path in the record, so that
    /// the file's statistics, page index, dictionaries and bloom filters
    /// prune by it. `None` if a leaf's column has no path there: the
    /// predicate then tests each record only.
    ///
    /// ```
    /// use magnolify_parquet::ParquetType;
    ///
    /// #[derive(ParquetType)]
    /// struct Sale { amount: i64, note: Option<String> }
    ///
    /// let f = Sale::fields();
    /// let wanted = f.amount.gt(10).and(f.note.is_null());
    /// let renamed = wanted.on_columns(|path| match path {
    ///     [name] if name == "amount" => Some(vec!["total".to_owned()]),
    ///     [name] if name == "note" => Some(vec!["memo".to_owned()]),
    ///     _ => None,
    /// });
    /// assert_eq!(format!("{:?}", renamed.unwrap()), "(total > 10 and memo is null)");
    /// assert!(wanted.on_columns(|_| None).is_none());
    /// ```
    pub fn on_columns(&self, path_of: impl Fn(&[String]) -> Option<Vec<String>>) -> Option<Predicate<R>> {
        Some(Predicate { node: self.node.on_columns(&path_of)? })
    }
}

impl<R> Node<R> {
    fn on_columns(&self, path_of: &dyn Fn(&[String]) -> Option<Vec<String>>) -> Option<Node<R>> {
        Some(match self {
            Node::Leaf(leaf) => {
                let parts: Arc<[String]> = path_of(&leaf.parts)?.into();
                // The text names the column the file has.
                let text = leaf.text.replacen(&leaf.parts.join("."), &parts.join("."), 1);
                let leaf = Leaf {
                    parts,
                    condition: leaf.condition.clone(),
                    test: leaf.test.clone(),
                    column_test: leaf.column_test.clone(),
                    text,
                };
                Node::Leaf(Arc::new(leaf))
            }
            Node::And(a, b) => Node::And(Box::new(a.on_columns(path_of)?), Box::new(b.on_columns(path_of)?)),
            Node::Or(a, b) => Node::Or(Box::new(a.on_columns(path_of)?), Box::new(b.on_columns(path_of)?)),
            Node::Not(a) => Node::Not(Box::new(a.on_columns(path_of)?)),
        })
    }
}

impl<R> Predicate<R> {
    /// The predicate tested on the columns of `schema`'s batches whose
    /// records are decoded from the file columns `columns` (in the batch's
    /// order): how records of another type (that borrow) are filtered.
    pub(crate) fn bind_columns(&self, schema: &Arc<SchemaDescriptor>, columns: &[usize]) -> Result<ColumnFilter> {
        let mut leaves = Vec::new();
        let tree = bind(&self.node, schema, columns, &mut leaves)?;
        Ok(ColumnFilter::new(tree, leaves))
    }
}

/// `node`'s tree, its leaves bound to `schema` and pushed onto `leaves`.
fn bind<R>(
    node: &Node<R>,
    schema: &Arc<SchemaDescriptor>,
    columns: &[usize],
    leaves: &mut Vec<(Box<dyn BoundTest>, usize)>,
) -> Result<Tree> {
    let mut pair = |a: &Node<R>, b: &Node<R>| -> Result<(Box<Tree>, Box<Tree>)> {
        let a = Box::new(bind(a, schema, columns, leaves)?);
        Ok((a, Box::new(bind(b, schema, columns, leaves)?)))
    };
    Ok(match node {
        Node::Leaf(leaf) => bind_leaf(&*leaf.column_test, &leaf.parts, schema, columns, leaves)?,
        Node::And(a, b) => {
            let (a, b) = pair(a, b)?;
            Tree::And(a, b)
        }
        Node::Or(a, b) => {
            let (a, b) = pair(a, b)?;
            Tree::Or(a, b)
        }
        Node::Not(a) => Tree::Not(Box::new(bind(a, schema, columns, leaves)?)),
    })
}

impl<R: 'static> Predicate<R> {
    /// The leaf testing `field`'s values with `holds` (`None`: a null).
    fn leaf<T: ParquetReadOwned + Send + Sync + 'static, N: Nullability>(
        field: &Field<R, T, N>,
        condition: Condition,
        text: String,
        holds: impl Fn(Option<&T>) -> bool + Send + Sync + 'static,
    ) -> Self {
        let holds: ValueTest<T> = Arc::new(holds);
        let column_test = Arc::new(ColumnValues { opts: field.opts, nullable: N::NULLABLE, holds: holds.clone() });
        let get = field.get.clone();
        let test = Arc::new(move |r: &R| get.test(r, |x| holds(x)));
        let leaf = Leaf { parts: field.parts.clone(), condition, test, column_test, text };
        Predicate { node: Node::Leaf(Arc::new(leaf)) }
    }
}

impl<R> Node<R> {
    fn test(&self, record: &R) -> bool {
        match self {
            Node::Leaf(leaf) => (leaf.test)(record),
            Node::And(a, b) => a.test(record) && b.test(record),
            Node::Or(a, b) => a.test(record) || b.test(record),
            Node::Not(a) => !a.test(record),
        }
    }

    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Node::Leaf(leaf) => f.write_str(&leaf.text),
            Node::And(a, b) => write_pair(f, a, " and ", b),
            Node::Or(a, b) => write_pair(f, a, " or ", b),
            Node::Not(a) => {
                f.write_str("not ")?;
                a.write(f)
            }
        }
    }
}

/// `(a <word> b)`.
fn write_pair<R>(f: &mut fmt::Formatter<'_>, a: &Node<R>, word: &str, b: &Node<R>) -> fmt::Result {
    f.write_str("(")?;
    a.write(f)?;
    f.write_str(word)?;
    b.write(f)?;
    f.write_str(")")
}

impl<R> fmt::Debug for Predicate<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.node.write(f)
    }
}

impl<R: 'static, T: FilterValue + ParquetReadOwned + PartialEq + Clone + fmt::Debug, N: Nullability> Field<R, T, N> {
    /// A comparison with `value` by `holds(field value, value)`.
    fn compare(&self, op: Comparison, value: T, holds: fn(&T, &T) -> bool) -> Predicate<R> {
        let text = format!("{} {} {value:?}", self.path, op.symbol());
        let kept = value.clone();
        let test = move |x: Option<&T>| x.is_some_and(|x| holds(x, &kept));
        Predicate::leaf(self, Condition::Compare(op, Arc::new(value)), text, test)
    }

    /// The field equals `value`.
    pub fn eq(&self, value: impl FilterArg<T>) -> Predicate<R> {
        self.compare(Comparison::Eq, value.into_value(), |x, v| x == v)
    }

    /// The field is not null and differs from `value`.
    pub fn ne(&self, value: impl FilterArg<T>) -> Predicate<R> {
        self.compare(Comparison::Ne, value.into_value(), |x, v| x != v)
    }

    /// The field equals one of `values` (none: never).
    pub fn is_in<A: FilterArg<T>>(&self, values: impl IntoIterator<Item = A>) -> Predicate<R> {
        let values: Vec<T> = values.into_iter().map(FilterArg::into_value).collect();
        let text = format!("{} in {values:?}", self.path);
        let keys: Vec<Value> = values.iter().map(|v| Arc::new(v.clone()) as Value).collect();
        let test = move |x: Option<&T>| x.is_some_and(|x| values.iter().any(|v| x == v));
        Predicate::leaf(self, Condition::In(keys), text, test)
    }
}

impl<R: 'static, T: FilterValue + ParquetReadOwned + PartialOrd + Clone + fmt::Debug, N: Nullability> Field<R, T, N> {
    /// The field is less than `value`.
    pub fn lt(&self, value: impl FilterArg<T>) -> Predicate<R> {
        self.compare(Comparison::Lt, value.into_value(), |x, v| x < v)
    }

    /// The field is at most `value`.
    pub fn le(&self, value: impl FilterArg<T>) -> Predicate<R> {
        self.compare(Comparison::Le, value.into_value(), |x, v| x <= v)
    }

    /// The field is greater than `value`.
    pub fn gt(&self, value: impl FilterArg<T>) -> Predicate<R> {
        self.compare(Comparison::Gt, value.into_value(), |x, v| x > v)
    }

    /// The field is at least `value`.
    pub fn ge(&self, value: impl FilterArg<T>) -> Predicate<R> {
        self.compare(Comparison::Ge, value.into_value(), |x, v| x >= v)
    }

    /// `low <= field <= high`.
    pub fn between(&self, low: impl FilterArg<T>, high: impl FilterArg<T>) -> Predicate<R> {
        self.ge(low).and(self.le(high))
    }
}

impl<R: 'static, T: ParquetReadOwned + Send + Sync + 'static> Field<R, T, Nullable> {
    /// The field is null (or inside a null group).
    pub fn is_null(&self) -> Predicate<R> {
        Predicate::leaf(self, Condition::IsNull, format!("{} is null", self.path), |x: Option<&T>| x.is_none())
    }

    /// The field is not null.
    pub fn is_not_null(&self) -> Predicate<R> {
        let text = format!("{} is not null", self.path);
        Predicate::leaf(self, Condition::IsNotNull, text, |x: Option<&T>| x.is_some())
    }
}

/// Text fields.
pub trait Text: AsRef<str> {}
impl Text for String {}
impl Text for Box<str> {}
impl Text for Arc<str> {}

/// What a predicate compares a field of type `T` with: a `T`, and for a
/// text field a `&str` too, so that no call needs `.into()`.
///
/// ```
/// use magnolify_parquet::ParquetType;
///
/// #[derive(ParquetType)]
/// struct Trip { id: u64, city: String }
///
/// let f = Trip::fields();
/// let wanted = f.city.eq("Lima").or(f.city.is_in(["Oslo", "Quito"])).and(f.id.between(250, 260));
/// assert_eq!(
///     format!("{wanted:?}"),
///     r#"((city == "Lima" or city in ["Oslo", "Quito"]) and (id >= 250 and id <= 260))"#
/// );
/// ```
#[diagnostic::on_unimplemented(
    message = "a predicate on a `{T}` field compares it with a `{T}`, not with `{Self}`",
    label = "expected a `{T}`",
    note = "text fields take a `&str` too; other fields take their own type (convert the value first)"
)]
pub trait FilterArg<T> {
    /// The value compared with.
    fn into_value(self) -> T;
}

impl<T: FilterValue> FilterArg<T> for T {
    fn into_value(self) -> T {
        self
    }
}

/// `&str` for the text fields.
macro_rules! str_args {
    ($($t:ty),*) => {$(
        impl FilterArg<$t> for &str {
            fn into_value(self) -> $t {
                self.into()
            }
        }
    )*};
}

str_args!(String, Box<str>, Arc<str>);

impl<R: 'static, T: Text + ParquetReadOwned + Send + Sync + 'static, N: Nullability> Field<R, T, N> {
    /// The text starts with `prefix`.
    pub fn starts_with(&self, prefix: &str) -> Predicate<R> {
        let kept = prefix.to_owned();
        let text = format!("{} starts with {prefix:?}", self.path);
        let test = move |x: Option<&T>| x.is_some_and(|x| x.as_ref().starts_with(kept.as_str()));
        Predicate::leaf(self, Condition::StartsWith(prefix.as_bytes().to_vec()), text, test)
    }
}
