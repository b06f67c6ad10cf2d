//! A typed predicate as an Iceberg expression, so that iceberg-rust's scan
//! planning skips manifests, partitions and files.
//!
//! The expression only has to keep every file that holds a record the
//! predicate accepts (the library's reader then applies the predicate
//! exactly): a value with no Iceberg form becomes "always true", and
//! negations are pushed down to the leaves, where a negated comparison
//! also keeps nulls and NaNs (the predicate's `not` holds for them, an
//! Iceberg comparison does not).
//!
//! Two tests are handed on in a form iceberg-rust 0.10 projects correctly
//! through partition transforms, not as they are:
//! - A string prefix is a range, `s >= p AND s < p'` (`p'` the least
//!   string above every string that starts with `p`). Its `truncate`
//!   projection of `STARTS WITH` compares the prefix's length in bytes
//!   with the width in characters, and turns `STARTS WITH 'Ün'` under
//!   `truncate(3)` into `= 'Ün'`, which skips every file of `'Ünï-1'`.
//!   Ranges project through `truncate` and `identity` as tightly.
//! - A comparison of a decimal with a scale, or of a binary, on a column
//!   that some partition spec of the table truncates, is not handed on:
//!   its `truncate` projection makes a decimal of scale 0 (which then fails
//!   to bind to the partition's decimal, failing the scan) and has no
//!   binary form at all (failing it too). Such a leaf only loses
//!   iceberg-rust's pruning; the library's reader still prunes row groups
//!   and pages by it, and tests every record.

use iceberg::expr::{Predicate as Expression, Reference};
use iceberg::spec::{Datum, PrimitiveType, Schema};
use magnolify_parquet::convert::decimal_bytes;
use magnolify_parquet::filter::{Comparison, FilterValue, Key, LeafTest, Predicate, PredicateFold};
use magnolify_parquet::parquet::schema::types::{SchemaDescriptor, TypePtr};

use crate::data_file::text_after;

/// `predicate` (over a record type whose message, with the table's ids, is
/// `message`) as an expression on the columns of `schema`, in a table whose
/// partition specs truncate the columns with the ids `truncated`.
pub(crate) fn expression<T>(
    predicate: &Predicate<T>,
    message: &TypePtr,
    schema: &Schema,
    truncated: &[i32],
) -> Expression {
    let columns = SchemaDescriptor::new(message.clone());
    let tree = predicate.fold(&mut Leaves { columns: &columns, schema, truncated });
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
    ty: PrimitiveType,
    test: Test,
}

enum Test {
    IsNull,
    IsNotNull,
    Compare(Comparison, Datum),
    In(Vec<Datum>),
    /// The strings from the first up to (not including) the second, if
    /// any: those that start with a prefix.
    Range(String, Option<String>),
}

struct Leaves<'a> {
    columns: &'a SchemaDescriptor,
    schema: &'a Schema,
    truncated: &'a [i32],
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
        let unprojectable = match ty {
            PrimitiveType::Decimal { scale, .. } => *scale != 0,
            PrimitiveType::Binary => true,
            _ => false,
        };
        if unprojectable
            && self.truncated.contains(&field.id)
            && !matches!(test, LeafTest::IsNull | LeafTest::IsNotNull)
        {
            return None;
        }
        let datum = |value: &dyn FilterValue| datum(value.key(column)?, ty);
        let test = match test {
            LeafTest::IsNull => Test::IsNull,
            LeafTest::IsNotNull => Test::IsNotNull,
            LeafTest::Compare(op, value) => Test::Compare(op, datum(value)?),
            LeafTest::In(values) => Test::In(values.iter().map(|v| datum(&**v)).collect::<Option<_>>()?),
            LeafTest::StartsWith(prefix) if *ty == PrimitiveType::String => {
                let prefix = String::from_utf8(prefix.to_vec()).ok()?;
                let above = text_after(&prefix);
                Test::Range(prefix, above)
            }
            _ => return None,
        };
        Some(Leaf { name, ty: ty.clone(), test })
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
        let compare = |op, value| compare(column(), op, value);
        let positive = match (self.test, negated) {
            (Test::IsNull, false) | (Test::IsNotNull, true) => return column().is_null(),
            (Test::IsNotNull, false) | (Test::IsNull, true) => return column().is_not_null(),
            (Test::Compare(op, value), false) => compare(op, value),
            (Test::Compare(op, value), true) => compare(negation(op), value),
            (Test::In(values), false) => column().is_in(values),
            (Test::In(values), true) => column().is_not_in(values),
            (Test::Range(from, below), false) => {
                let from = column().greater_than_or_equal_to(Datum::string(from));
                match below {
                    Some(below) => from.and(column().less_than(Datum::string(below))),
                    None => from,
                }
            }
            (Test::Range(from, below), true) => {
                let before = column().less_than(Datum::string(from));
                match below {
                    Some(below) => before.or(column().greater_than_or_equal_to(Datum::string(below))),
                    None => before,
                }
            }
        };
        if !negated {
            return positive;
        }
        // The negated test holds where the test was false: on nulls and NaNs too.
        let nulls = positive.or(column().is_null());
        if matches!(self.ty, PrimitiveType::Float | PrimitiveType::Double) {
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
        expression(&predicate, &message, &schema, &[]).to_string()
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
            "((n != 1) OR (n IS NULL)) OR (((s < \"a\") OR (s >= \"b\")) OR (s IS NULL))"
        );
        assert_eq!(text(f.n.eq(1).or(f.n.eq(2)).not().not()), "(n = 1) OR (n = 2)");
    }

    #[derive(ParquetType)]
    struct Priced {
        #[parquet(decimal(precision = 9, scale = 2))]
        d: Option<rust_decimal::Decimal>,
    }

    #[test]
    fn a_decimal_comparison_is_not_handed_on_where_a_truncate_projection_of_it_fails() {
        use std::sync::Arc;

        use iceberg::expr::Bind;
        use iceberg::spec::{NestedField, Transform, Type};

        let schema = Arc::new(iceberg_schema::<Priced>().unwrap());
        let message = with_table_ids(&Priced::message().unwrap(), &schema, &Mapping::default(), Mode::Read).unwrap();
        let (f, value) = (Priced::fields(), rust_decimal::Decimal::new(155, 2));
        let text = |truncated: &[i32]| expression(&f.d.eq(value), &message, &schema, truncated).to_string();
        assert_eq!(text(&[]), "d = 1.55");
        assert_eq!(text(&[1]), "TRUE", "column 1, `d`, is truncated");
        assert_eq!(expression(&f.d.is_null(), &message, &schema, &[1]).to_string(), "d IS NULL");

        // Why: iceberg-rust 0.10.1 projects `d = 1.55` through truncate(10)
        // to a decimal of scale 0, which does not bind to the partition's
        // decimal(9, 2) (when it does, this guard can go).
        let leaf = Expression::AlwaysTrue.and(expression(&f.d.eq(value), &message, &schema, &[]));
        let leaf = leaf.bind(schema.clone(), true).unwrap();
        let projected = Transform::Truncate(10).project("d_trunc", &leaf).unwrap().unwrap();
        let decimal = Type::Primitive(PrimitiveType::Decimal { precision: 9, scale: 2 });
        let partition = Schema::builder().with_fields([NestedField::optional(1000, "d_trunc", decimal).into()]);
        let err = projected.bind(Arc::new(partition.build().unwrap()), true).unwrap_err().to_string();
        assert!(err.contains("Decimal scale conversion is not supported"), "{err}");
    }

    #[test]
    fn a_prefix_is_the_range_of_the_strings_that_start_with_it() {
        let f = Row::fields();
        assert_eq!(text(f.s.starts_with("Ün")), "(s >= \"Ün\") AND (s < \"Üo\")");
        assert_eq!(text(f.s.starts_with("")), "s >= \"\"");
        assert_eq!(text_after("Ün"), Some("Üo".to_owned()));
        assert_eq!(text_after("a\u{d7ff}"), Some("a\u{e000}".to_owned()), "past the surrogates");
        assert_eq!(text_after("a\u{10ffff}"), Some("b".to_owned()));
        assert_eq!(text_after("\u{10ffff}\u{10ffff}"), None);
        // Every string that starts with the prefix is in the range, and
        // the range holds no other.
        let strings = ["Ü", "Ün", "Ünï-1", "Üo", "Ün\u{10ffff}", "Üm\u{10ffff}", "Üo\0", "a\u{d7ff}z", "a\u{e000}"];
        for prefix in ["Ün", "Ü", "a\u{d7ff}", ""] {
            let above = text_after(prefix);
            for s in strings {
                let in_range = s >= prefix && above.as_deref().is_none_or(|a| s < a);
                assert_eq!(in_range, s.starts_with(prefix), "{s:?} against {prefix:?}");
            }
        }
    }
}
