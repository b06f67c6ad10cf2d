//! A typed predicate as an Iceberg expression, so that iceberg-rust's scan
//! planning skips manifests, partitions and files.
//!
//! The expression only has to keep every file that holds a record the
//! predicate accepts (the library's reader then applies the predicate
//! exactly): a value with no Iceberg form becomes "always true", and
//! negations are pushed down to the leaves, where a negated comparison
//! also keeps nulls and NaNs (the predicate's `not` holds for them, an
//! Iceberg comparison does not).

use iceberg::expr::{Predicate as Expression, Reference};
use iceberg::spec::{Datum, PrimitiveType, Schema};
use magnolify_parquet::convert::decimal_bytes;
use magnolify_parquet::filter::{Comparison, FilterValue, Key, LeafTest, Predicate, PredicateFold};
use magnolify_parquet::parquet::schema::types::{SchemaDescriptor, TypePtr};

/// `predicate` (over a record type whose message, with the table's ids, is
/// `message`) as an expression on the columns of `schema`.
pub(crate) fn expression<T>(predicate: &Predicate<T>, message: &TypePtr, schema: &Schema) -> Expression {
    let columns = SchemaDescriptor::new(message.clone());
    let tree = predicate.fold(&mut Leaves { columns: &columns, schema });
    tree.expression(false)
}

/// A predicate's tree with its leaves in Iceberg's terms.
enum Tree {
    /// A leaf on a table column, or `None` for one with no Iceberg form.
    Leaf(Option<Leaf>),
    And(Box<Tree>, Box<Tree>),
    Or(Box<Tree>, Box<Tree>),
    Not(Box<Tree>),
}

struct Leaf {
    /// The table column's full name.
    name: String,
    float: bool,
    test: Test,
}

enum Test {
    IsNull,
    IsNotNull,
    Compare(Comparison, Datum),
    In(Vec<Datum>),
    StartsWith(String),
}

struct Leaves<'a> {
    columns: &'a SchemaDescriptor,
    schema: &'a Schema,
}

impl PredicateFold for Leaves<'_> {
    type Out = Tree;

    fn leaf(&mut self, path: &[String], test: LeafTest<'_>) -> Tree {
        Tree::Leaf(self.translate(path, test))
    }

    fn and(&mut self, a: Tree, b: Tree) -> Tree {
        Tree::And(Box::new(a), Box::new(b))
    }

    fn or(&mut self, a: Tree, b: Tree) -> Tree {
        Tree::Or(Box::new(a), Box::new(b))
    }

    fn not(&mut self, a: Tree) -> Tree {
        Tree::Not(Box::new(a))
    }
}

impl Leaves<'_> {
    fn translate(&self, path: &[String], test: LeafTest<'_>) -> Option<Leaf> {
        let column = self.columns.columns().iter().find(|c| c.path().parts() == path)?;
        let info = column.self_type().get_basic_info();
        let field = self.schema.field_by_id(info.has_id().then(|| info.id())?)?;
        let ty = field.field_type.as_primitive_type()?;
        let name = self.schema.name_by_field_id(field.id)?.to_owned();
        let datum = |value: &dyn FilterValue| datum(value.key(column)?, ty);
        let test = match test {
            LeafTest::IsNull => Test::IsNull,
            LeafTest::IsNotNull => Test::IsNotNull,
            LeafTest::Compare(op, value) => Test::Compare(op, datum(value)?),
            LeafTest::In(values) => Test::In(values.iter().map(|v| datum(&**v)).collect::<Option<_>>()?),
            LeafTest::StartsWith(prefix) if *ty == PrimitiveType::String => {
                Test::StartsWith(String::from_utf8(prefix.to_vec()).ok()?)
            }
            _ => return None,
        };
        Some(Leaf { name, float: matches!(ty, PrimitiveType::Float | PrimitiveType::Double), test })
    }
}

/// A key of a column as a Datum of the column's Iceberg type.
fn datum(key: Key, ty: &PrimitiveType) -> Option<Datum> {
    Some(match (key, ty) {
        (Key::Bool(b), PrimitiveType::Boolean) => Datum::bool(b),
        (Key::Int(i), PrimitiveType::Int) => Datum::int(i32::try_from(i).ok()?),
        (Key::Int(i), PrimitiveType::Long) => Datum::long(i64::try_from(i).ok()?),
        (Key::Int(i), PrimitiveType::Date) => Datum::date(i32::try_from(i).ok()?),
        (Key::Int(i), PrimitiveType::Time) => Datum::time_micros(i64::try_from(i).ok()?).ok()?,
        (Key::Int(i), PrimitiveType::Timestamp) => Datum::timestamp_micros(i64::try_from(i).ok()?),
        (Key::Int(i), PrimitiveType::Timestamptz) => Datum::timestamptz_micros(i64::try_from(i).ok()?),
        (Key::Int(i), PrimitiveType::TimestampNs) => Datum::timestamp_nanos(i64::try_from(i).ok()?),
        (Key::Int(i), PrimitiveType::TimestamptzNs) => Datum::timestamptz_nanos(i64::try_from(i).ok()?),
        (Key::Int(i), PrimitiveType::Decimal { .. }) => {
            Datum::try_from_bytes(decimal_bytes::minimal(&i.to_be_bytes()), ty.clone()).ok()?
        }
        (Key::Float(f), PrimitiveType::Float) => Datum::float(f as f32),
        (Key::Float(f), PrimitiveType::Double) => Datum::double(f),
        (Key::Bytes(b), PrimitiveType::String) => Datum::string(String::from_utf8(b).ok()?),
        (Key::Bytes(b), PrimitiveType::Binary) => Datum::binary(b),
        (Key::Bytes(b), PrimitiveType::Fixed(n)) if b.len() as u64 == *n => Datum::fixed(b),
        (Key::Bytes(b), PrimitiveType::Uuid) => Datum::uuid(uuid::Uuid::from_slice(&b).ok()?),
        _ => return None,
    })
}

impl Tree {
    /// The expression of the tree, or of its negation.
    fn expression(self, negated: bool) -> Expression {
        match (self, negated) {
            (Tree::Leaf(None), _) => Expression::AlwaysTrue,
            (Tree::Leaf(Some(leaf)), _) => leaf.expression(negated),
            (Tree::And(a, b), false) => a.expression(false).and(b.expression(false)),
            (Tree::And(a, b), true) => a.expression(true).or(b.expression(true)),
            (Tree::Or(a, b), false) => a.expression(false).or(b.expression(false)),
            (Tree::Or(a, b), true) => a.expression(true).and(b.expression(true)),
            (Tree::Not(a), negated) => a.expression(!negated),
        }
    }
}

impl Leaf {
    fn expression(self, negated: bool) -> Expression {
        let column = || Reference::new(self.name.clone());
        let positive = match (self.test, negated) {
            (Test::IsNull, false) | (Test::IsNotNull, true) => return column().is_null(),
            (Test::IsNotNull, false) | (Test::IsNull, true) => return column().is_not_null(),
            (Test::Compare(op, value), false) => compare(column(), op, value),
            (Test::Compare(op, value), true) => compare(column(), negation(op), value),
            (Test::In(values), false) => column().is_in(values),
            (Test::In(values), true) => column().is_not_in(values),
            (Test::StartsWith(prefix), false) => column().starts_with(Datum::string(prefix)),
            (Test::StartsWith(prefix), true) => column().not_starts_with(Datum::string(prefix)),
        };
        if !negated {
            return positive;
        }
        // The negated test holds where the test was false: on nulls and NaNs too.
        let nulls = positive.or(column().is_null());
        if self.float {
            nulls.or(column().is_nan())
        } else {
            nulls
        }
    }
}

fn compare(column: Reference, op: Comparison, value: Datum) -> Expression {
    match op {
        Comparison::Eq => column.equal_to(value),
        Comparison::Ne => column.not_equal_to(value),
        Comparison::Lt => column.less_than(value),
        Comparison::Le => column.less_than_or_equal_to(value),
        Comparison::Gt => column.greater_than(value),
        Comparison::Ge => column.greater_than_or_equal_to(value),
    }
}

fn negation(op: Comparison) -> Comparison {
    match op {
        Comparison::Eq => Comparison::Ne,
        Comparison::Ne => Comparison::Eq,
        Comparison::Lt => Comparison::Ge,
        Comparison::Le => Comparison::Gt,
        Comparison::Gt => Comparison::Le,
        Comparison::Ge => Comparison::Lt,
    }
}

#[cfg(test)]
mod tests {
    use magnolify_parquet::{ParquetRecord, ParquetType};

    use super::*;
    use crate::field_ids::{with_table_ids, Mode};
    use crate::name_mapping::Mapping;
    use crate::schema::iceberg_schema;

    #[derive(ParquetType)]
    struct Row {
        n: i64,
        x: Option<f64>,
        s: Option<String>,
    }

    fn text(predicate: Predicate<Row>) -> String {
        let schema = iceberg_schema::<Row>().unwrap();
        let message = with_table_ids(&Row::message().unwrap(), &schema, &Mapping::default(), Mode::Read).unwrap();
        expression(&predicate, &message, &schema).to_string()
    }

    #[test]
    fn negations_reach_the_leaves_and_keep_nulls_and_nans() {
        let f = Row::fields();
        assert_eq!(text(f.n.gt(5)), "n > 5");
        assert_eq!(text(f.n.gt(5).not()), "(n <= 5) OR (n IS NULL)");
        assert_eq!(text(f.x.lt(1.5).not()), "((x >= 1.5) OR (x IS NULL)) OR (x IS NAN)");
        assert_eq!(text(f.s.is_null().not()), "s IS NOT NULL");
        assert_eq!(
            text(f.n.eq(1).and(f.s.starts_with("a")).not()),
            "((n != 1) OR (n IS NULL)) OR ((s NOT STARTS WITH \"a\") OR (s IS NULL))"
        );
        assert_eq!(text(f.n.eq(1).or(f.n.eq(2)).not().not()), "(n = 1) OR (n = 2)");
    }
}
