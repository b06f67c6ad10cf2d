//! Writer settings asked for by field path (bloom filters, sorting
//! columns): a field's dotted path names its column once the layout levels
//! of lists (the repeated group and the element of the three-level layout)
//! and maps (the key/value group) are left out.

use parquet::file::metadata::SortingColumn;
use parquet::file::properties::WriterPropertiesBuilder;
use parquet::schema::types::{ColumnPath, Type};

use crate::error::{Error, Location, Result};
use crate::logical::Annotation;
use crate::options::BloomFilterSpec;

/// `props` with a bloom filter on the column of each field path of
/// `filters`; an error names a path that is no single column of `message`.
pub(crate) fn with_bloom_filters(
    mut props: WriterPropertiesBuilder,
    message: &Type,
    filters: &[(String, BloomFilterSpec)],
) -> Result<WriterPropertiesBuilder> {
    if filters.is_empty() {
        return Ok(props);
    }
    let leaves = leaves(message);
    for (path, spec) in filters {
        let (_, column) = column_of(&leaves, path, "bloom_filter")?;
        let column = ColumnPath::new(column.to_vec());
        props = props.set_column_bloom_filter_enabled(column.clone(), true);
        if let Some(fpp) = spec.fpp {
            props = props.set_column_bloom_filter_fpp(column.clone(), fpp);
        }
        if let Some(ndv) = spec.ndv {
            props = props.set_column_bloom_filter_max_ndv(column, ndv);
        }
    }
    Ok(props)
}

/// `props` with the footer's sorting columns: the column of each field
/// path of `sorted_by`, with (descending, nulls first).
pub(crate) fn with_sorting_columns(
    props: WriterPropertiesBuilder,
    message: &Type,
    sorted_by: &[(String, bool, bool)],
) -> Result<WriterPropertiesBuilder> {
    if sorted_by.is_empty() {
        return Ok(props);
    }
    let leaves = leaves(message);
    let columns = sorted_by
        .iter()
        .map(|(path, descending, nulls_first)| {
            let (index, _) = column_of(&leaves, path, "sorted_by")?;
            let column_idx = i32::try_from(index).map_err(|_| Error::argument("too many columns to sort by"))?;
            Ok(SortingColumn { column_idx, descending: *descending, nulls_first: *nulls_first })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(props.set_sorting_columns(Some(columns)))
}

/// (field path, column path) of every leaf of `message`, in column order.
fn leaves(message: &Type) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    for field in message.get_fields() {
        walk(field, &mut Vec::new(), &mut Vec::new(), false, &mut out);
    }
    out
}

/// The leaf index and column path of field `path`, or an error naming what
/// the path is instead, for `setting`.
fn column_of<'a>(leaves: &'a [(String, Vec<String>)], path: &str, setting: &str) -> Result<(usize, &'a [String])> {
    let mut found = leaves.iter().enumerate().filter(|(_, (field, _))| field == path);
    match (found.next(), found.next()) {
        (Some((index, (_, column))), None) => Ok((index, column)),
        _ => {
            let under = leaves.iter().filter(|(field, _)| field.starts_with(&format!("{path}."))).count();
            let what = if under > 0 {
                format!("a group of {under} columns: put `{setting}` on one of its fields")
            } else {
                format!("no single column (`{setting}` needs a field of one column, not a map)")
            };
            Err(Error::Schema {
                location: Box::new(Location::field(path.to_owned())),
                message: format!("`{setting}` on `{path}`, which is {what}"),
            })
        }
    }
}

/// Collects (field path, column path) of every leaf under `node`. `field`
/// and `column` are the paths down to `node`'s parent; `in_layout` says
/// that the parent is a list's or map's repeated group.
fn walk(
    node: &Type,
    field: &mut Vec<String>,
    column: &mut Vec<String>,
    in_layout: bool,
    out: &mut Vec<(String, Vec<String>)>,
) {
    column.push(node.name().to_owned());
    let layout = in_layout;
    if !layout {
        field.push(node.name().to_owned());
    }
    if node.is_group() {
        let wrapper = matches!(Annotation::of(node), Annotation::List | Annotation::Map);
        for child in node.get_fields() {
            if wrapper {
                // The repeated group (or field) under LIST/MAP is layout.
                column.push(child.name().to_owned());
                descend(child, node.name(), field, column, out);
                column.pop();
            } else {
                walk(child, field, column, false, out);
            }
        }
    } else {
        out.push((field.join("."), column.clone()));
    }
    if !layout {
        field.pop();
    }
    column.pop();
}

/// Below a list's or map's repeated node: a leaf is the element itself
/// (two-level lists of primitives); a group's one child is the element of
/// a three-level list, unless the group is named as a two-level element
/// (`array`, `<list>_tuple`), whose children are fields, like the key and
/// value of a map.
fn descend(
    repeated: &Type,
    list: &str,
    field: &mut Vec<String>,
    column: &mut Vec<String>,
    out: &mut Vec<(String, Vec<String>)>,
) {
    if !repeated.is_group() {
        out.push((field.join("."), column.clone()));
        return;
    }
    let children = repeated.get_fields();
    let two_level = repeated.name() == "array" || repeated.name() == format!("{list}_tuple");
    let element = children.len() == 1 && !two_level;
    for child in children {
        walk(child, field, column, element, out);
    }
}

#[cfg(test)]
mod tests {
    use parquet::schema::parser::parse_message_type;

    fn leaves(schema: &str) -> Vec<(String, String)> {
        let message = parse_message_type(schema).unwrap();
        super::leaves(&message).into_iter().map(|(f, c)| (f, c.join("."))).collect()
    }

    #[test]
    fn field_paths_leave_layout_levels_out() {
        let got = leaves(
            "message m {
               required binary name (STRING);
               optional group tags (LIST) { repeated group list { optional binary element (STRING); } }
               optional group old (LIST) { repeated binary array (STRING); }
               optional group parts (LIST) { repeated group list { optional group element { required int32 x; required int32 y; } } }
               optional group pairs (LIST) { repeated group array { required int32 a; required int32 b; } }
               optional group ones (LIST) { repeated group ones_tuple { required int32 a; } }
               optional group m (MAP) { repeated group key_value { required binary key (STRING); optional int64 value; } }
               repeated int32 bare;
               required group inner { required int64 id; }
             }",
        );
        let expected = [
            ("name", "name"),
            ("tags", "tags.list.element"),
            ("old", "old.array"),
            ("parts.x", "parts.list.element.x"),
            ("parts.y", "parts.list.element.y"),
            ("pairs.a", "pairs.array.a"),
            ("pairs.b", "pairs.array.b"),
            ("ones.a", "ones.ones_tuple.a"),
            ("m.key", "m.key_value.key"),
            ("m.value", "m.key_value.value"),
            ("bare", "bare"),
            ("inner.id", "inner.id"),
        ];
        let expected: Vec<(String, String)> = expected.iter().map(|(f, c)| (f.to_string(), c.to_string())).collect();
        assert_eq!(got, expected);
    }
}
