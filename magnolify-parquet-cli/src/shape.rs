//! What a node of a file's schema holds, as magnolify-parquet's reader sees
//! it: a leaf, a group, a list in any layout or a map, through the
//! library's own `list_shape` and `map_shape`, so that `cat` and `codegen`
//! follow exactly the rules the runtime reads with.

use magnolify_parquet::convert::{list_shape, map_shape, Annotation, FileNode, ListShape, MapShape};
use parquet::basic::Repetition;

/// The content of a schema node, its own optionality aside.
#[derive(Debug)]
pub enum Shape<'a> {
    /// A primitive column.
    Leaf,
    /// A list: a bare repeated field, or a group annotated LIST, in any of
    /// the format's layouts.
    List(ListShape<'a>),
    /// A map (MAP or legacy MAP_KEY_VALUE) with values.
    Map(MapShape<'a>),
    /// A map with keys only (a set): the list of its keys, as pyarrow and
    /// the runtime read it.
    Keys(ListShape<'a>),
    /// A group of fields. `misfit` names the annotation (`LIST` or `MAP`)
    /// of a group not laid out as the annotation says, read as a group.
    Group {
        /// The annotation the group's layout contradicts.
        misfit: Option<&'static str>,
    },
}

/// Whether a list is laid out in two levels (or is a bare repeated field):
/// its repeated node is the element (`array`, `<name>_tuple`, several
/// fields, a repeated primitive), not a group around it.
pub fn is_two_level(list: &ListShape<'_>) -> bool {
    std::ptr::eq(list.element.ty(), list.repeated.ty())
}

/// The shape of `node`, seen REQUIRED or REPEATED: an OPTIONAL node is seen
/// through [`FileNode::as_required`] by callers that account for its
/// nulls themselves.
pub fn shape<'a>(node: &FileNode<'a>) -> Shape<'a> {
    if node.repetition() == Repetition::REPEATED {
        // A bare repeated field is a list of itself, whatever it holds.
        if let Ok(list) = list_shape(node) {
            return Shape::List(list);
        }
    }
    if !node.is_group() {
        return Shape::Leaf;
    }
    match Annotation::of(node.ty()) {
        Annotation::List => match list_shape(node) {
            Ok(list) => Shape::List(list),
            Err(_) => Shape::Group { misfit: Some("LIST") },
        },
        Annotation::Map => match map_shape(node) {
            Ok(map) if map.value.is_some() => Shape::Map(map),
            Ok(_) => match list_shape(node) {
                Ok(keys) => Shape::Keys(keys),
                Err(_) => Shape::Group { misfit: Some("MAP") },
            },
            Err(_) => Shape::Group { misfit: Some("MAP") },
        },
        _ => Shape::Group { misfit: None },
    }
}
