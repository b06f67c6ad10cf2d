//! The error for a null where the Rust type has none: which node of the
//! file is null (a group, a list, a list element, a map, a map value, a
//! value) and what to change in the struct.
//!
//! A leaf's definition level tells how far down its path a record is
//! defined: the node that is null is the first optional node below that
//! level. Naming it, rather than the leaf whose cursor noticed, is what lets
//! the message say `Option<S>` for a null group and `Vec<Option<T>>` rather
//! than `Option<Vec<T>>` for a null list element.

use parquet::basic::{ConvertedType, LogicalType, Repetition};
use parquet::schema::types::{SchemaDescriptor, Type};

use crate::error::{Error, Location};

/// What kind of node is null, with the fix for each.
#[derive(Debug, PartialEq, Eq)]
enum NullNode {
    /// A value (a primitive leaf).
    Value,
    /// A struct.
    Group,
    /// A whole list.
    List,
    /// A whole map.
    Map,
    /// An element of the list at this path.
    Element(String),
    /// A value of the map at this path.
    MapValue(String),
}

/// The error for a null at definition level `def` in file column `column`
/// of `schema`, in record `record`.
#[cold]
#[inline(never)]
pub(crate) fn null_error(schema: &SchemaDescriptor, column: usize, def: i16, record: u64) -> Error {
    let (path, node) = match null_node(schema, column, def) {
        Some(found) => found,
        // Levels and schema disagree: say what the cursor saw.
        None => {
            let path =
                if column < schema.num_columns() { schema.column(column).path().string() } else { String::new() };
            (path, NullNode::Value)
        }
    };
    let message = match &node {
        NullNode::Value => format!("`{path}` is null; make the field an `Option<_>` to read nulls"),
        NullNode::Group => {
            format!("the group `{path}` is null; make the field an `Option<_>` of the struct to read null groups")
        }
        NullNode::List => format!("the list `{path}` is null (not empty); make the field `Option<Vec<_>>`"),
        NullNode::Map => format!("the map `{path}` is null (not empty); make the field `Option<HashMap<_, _>>`"),
        NullNode::Element(list) => {
            format!("an element of the list `{list}` is null; make the list `Vec<Option<_>>` to read null elements")
        }
        NullNode::MapValue(map) => {
            format!("a value of the map `{map}` is null; make the map's value type an `Option<_>`")
        }
    };
    Error::null(Location::column(path).with_record(record), message)
}

fn is_annotated(ty: &Type, logical: &[LogicalType], converted: &[ConvertedType]) -> bool {
    let info = ty.get_basic_info();
    match info.logical_type_ref() {
        Some(l) => logical.contains(l),
        None => converted.contains(&info.converted_type()),
    }
}

/// The path and kind of the optional node whose definition level is `def + 1`
/// on the way from the root to leaf `column`.
fn null_node(schema: &SchemaDescriptor, column: usize, def: i16) -> Option<(String, NullNode)> {
    if column >= schema.num_columns() {
        return None;
    }
    let descr = schema.column(column);
    let mut node: &Type = schema.root_schema();
    // The nodes walked so far, with their dotted paths.
    let mut chain: Vec<(&Type, String)> = Vec::new();
    let mut level = 0i16;
    for part in descr.path().parts() {
        let Type::GroupType { fields, .. } = node else { return None };
        node = fields.iter().find(|f| f.name() == part)?;
        let path = match chain.last() {
            Some((_, parent)) => format!("{parent}.{part}"),
            None => part.clone(),
        };
        chain.push((node, path));
        let repetition = node.get_basic_info().repetition();
        if repetition == Repetition::REQUIRED {
            continue;
        }
        level += 1;
        if level <= def {
            continue;
        }
        // The first node not defined. A repeated one is an empty list, not a
        // null: the converter that called should not be here.
        if repetition == Repetition::REPEATED {
            return None;
        }
        return Some(classify(&chain));
    }
    None
}

/// What the last node of `chain` (optional and null) is to the user.
fn classify(chain: &[(&Type, String)]) -> (String, NullNode) {
    let (node, path) = &chain[chain.len() - 1];
    let parent = chain.len().checked_sub(2).map(|i| &chain[i]);
    let grandparent = chain.len().checked_sub(3).map(|i| &chain[i]);
    let in_repeated = parent.filter(|(p, _)| p.get_basic_info().repetition() == Repetition::REPEATED);
    // Every node with a child is a group, so `get_fields` cannot panic here.
    let container = grandparent.filter(|(g, _)| {
        g.is_group()
            && g.get_fields().len() == 1
            && in_repeated.is_some_and(|(p, _)| std::ptr::eq(&*g.get_fields()[0], *p))
    });
    if let (Some((repeated, _)), Some((g, gpath))) = (in_repeated, container) {
        if is_annotated(g, &[LogicalType::Map], &[ConvertedType::MAP, ConvertedType::MAP_KEY_VALUE]) {
            return (path.clone(), NullNode::MapValue(gpath.clone()));
        }
        // The middle group of a 3-level list holds the element; in the
        // 2-level forms (`array`, `<name>_tuple`) the repeated group is the
        // element itself and this node is one of its fields.
        let name = repeated.name();
        let middle = repeated.get_fields().len() == 1 && name != "array" && name != format!("{}_tuple", g.name());
        if middle {
            return (path.clone(), NullNode::Element(gpath.clone()));
        }
    }
    if node.is_group() {
        if is_annotated(node, &[LogicalType::Map], &[ConvertedType::MAP, ConvertedType::MAP_KEY_VALUE]) {
            return (path.clone(), NullNode::Map);
        }
        let fields = node.get_fields();
        let list_like = is_annotated(node, &[LogicalType::List], &[ConvertedType::LIST])
            || (fields.len() == 1 && fields[0].get_basic_info().repetition() == Repetition::REPEATED);
        if list_like {
            return (path.clone(), NullNode::List);
        }
        return (path.clone(), NullNode::Group);
    }
    (path.clone(), NullNode::Value)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use parquet::schema::parser::parse_message_type;

    use super::*;

    fn schema(text: &str) -> SchemaDescriptor {
        SchemaDescriptor::new(Arc::new(parse_message_type(text).unwrap()))
    }

    const PYARROW: &str = "message schema {
        optional group s { optional int32 a; }
        optional group l (LIST) { repeated group list { optional int32 element; } }
        optional group m (MAP) { repeated group key_value { required binary key (STRING); optional int64 value; } }
        optional int32 x;
    }";

    #[test]
    fn names_the_null_group_list_or_map() {
        let s = schema(PYARROW);
        assert_eq!(null_node(&s, 0, 0), Some(("s".into(), NullNode::Group)));
        assert_eq!(null_node(&s, 0, 1), Some(("s.a".into(), NullNode::Value)));
        assert_eq!(null_node(&s, 1, 0), Some(("l".into(), NullNode::List)));
        // def 1: the list is present but empty (the repeated node): not a null.
        assert_eq!(null_node(&s, 1, 1), None);
        assert_eq!(null_node(&s, 1, 2), Some(("l.list.element".into(), NullNode::Element("l".into()))));
        assert_eq!(null_node(&s, 2, 0), Some(("m".into(), NullNode::Map)));
        assert_eq!(null_node(&s, 3, 2), Some(("m.key_value.value".into(), NullNode::MapValue("m".into()))));
        assert_eq!(null_node(&s, 4, 0), Some(("x".into(), NullNode::Value)));
    }

    #[test]
    fn messages_carry_the_fix() {
        let s = schema(PYARROW);
        let e = null_error(&s, 1, 2, 4);
        assert_eq!(e.column(), Some("l.list.element"));
        assert_eq!(e.location().unwrap().record, Some(4));
        assert!(e.to_string().contains("`Vec<Option<_>>`"), "{e}");
        assert!(null_error(&s, 1, 0, 0).to_string().contains("`Option<Vec<_>>`"));
        assert!(null_error(&s, 0, 0, 0).to_string().contains("the group `s` is null"));
    }

    #[test]
    fn fields_of_two_level_elements_are_fields() {
        let s = schema("message m { required group parts (LIST) { repeated group array { optional group p { required int32 x; } } } }");
        // The repeated `array` group is the element: `p` is a field of it.
        assert_eq!(null_node(&s, 0, 1), Some(("parts.array.p".into(), NullNode::Group)));
    }
}
