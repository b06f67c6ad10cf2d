//! Resolution of a Rust type against a file's schema, once per file: which
//! file column each leaf reads, with which levels, and how lists and maps of
//! every layout are laid out.

use parquet::basic::{ConvertedType, LogicalType, Repetition};
use parquet::schema::types::{ColumnDescPtr, SchemaDescriptor, Type};

use crate::error::{Error, Location, Result};
use crate::schema::leaf_count;

/// A node of the file's schema, seen from the Rust type being resolved.
///
/// Carries the levels the file gives the node: `def` counts the optional and
/// repeated nodes from the root down to and including this one, `rep` the
/// repeated ones. [`as_required`](Self::as_required) hides the node's own
/// repetition once a wrapper (`Option`, a list) has accounted for it.
#[derive(Clone, Debug)]
pub struct FileNode<'a> {
    ty: &'a Type,
    repetition: Repetition,
    def: i16,
    rep: i16,
    first_leaf: usize,
    path: String,
}

impl<'a> FileNode<'a> {
    /// The message (root) of `schema`.
    pub fn root(schema: &'a SchemaDescriptor) -> Self {
        FileNode {
            ty: schema.root_schema(),
            repetition: Repetition::REQUIRED,
            def: 0,
            rep: 0,
            first_leaf: 0,
            path: String::new(),
        }
    }

    /// The node's name.
    pub fn name(&self) -> &'a str {
        self.ty.name()
    }

    /// Dotted path from the root (empty for the root).
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The schema node itself.
    pub fn ty(&self) -> &'a Type {
        self.ty
    }

    /// Repetition as seen by the type being resolved.
    pub fn repetition(&self) -> Repetition {
        self.repetition
    }

    /// Definition level of the node in the file (its own level included).
    pub fn def(&self) -> i16 {
        self.def
    }

    /// Repetition level of the node in the file.
    pub fn rep(&self) -> i16 {
        self.rep
    }

    /// Index of the node's first leaf among the file's columns.
    pub fn first_leaf(&self) -> usize {
        self.first_leaf
    }

    /// Whether the node is a group.
    pub fn is_group(&self) -> bool {
        self.ty.is_group()
    }

    /// The logical type annotation, if any.
    pub fn logical_type(&self) -> Option<LogicalType> {
        self.ty.get_basic_info().logical_type_ref().cloned()
    }

    /// The legacy converted type annotation.
    pub fn converted_type(&self) -> ConvertedType {
        self.ty.get_basic_info().converted_type()
    }

    /// The same node with its own repetition hidden (treated as required).
    pub fn as_required(&self) -> Self {
        FileNode { repetition: Repetition::REQUIRED, ..self.clone() }
    }

    /// The children of a group, with their levels; none for a leaf.
    pub fn children(&self) -> Vec<FileNode<'a>> {
        let Type::GroupType { fields, .. } = self.ty else { return Vec::new() };
        let mut first_leaf = self.first_leaf;
        fields
            .iter()
            .map(|f| {
                let repetition = f.get_basic_info().repetition();
                let node = FileNode {
                    ty: f,
                    repetition,
                    def: self.def + i16::from(repetition != Repetition::REQUIRED),
                    rep: self.rep + i16::from(repetition == Repetition::REPEATED),
                    first_leaf,
                    path: if self.path.is_empty() {
                        f.name().to_owned()
                    } else {
                        format!("{}.{}", self.path, f.name())
                    },
                };
                first_leaf += leaf_count(f);
                node
            })
            .collect()
    }

    /// The child named `name`, if the node is a group that has one.
    pub fn child(&self, name: &str) -> Option<FileNode<'a>> {
        self.children().into_iter().find(|c| c.name() == name)
    }

    /// The names of the children, for error messages.
    pub fn field_names(&self) -> String {
        let names: Vec<_> = self.children().iter().map(|c| c.name().to_owned()).collect();
        format!("[{}]", names.join(", "))
    }

    /// Where the node is, for errors: its column path (none for the root).
    pub fn location(&self) -> Location {
        if self.path.is_empty() {
            Location::default()
        } else {
            Location::column(&self.path)
        }
    }

    /// A schema-mismatch error at this node; `message` should say what to
    /// change in the type.
    pub fn error(&self, message: impl Into<String>) -> Error {
        Error::mismatch(self.location(), message)
    }

    /// [`mismatch`](Self::mismatch) without the suggested type: for the
    /// shape checks the suggestion itself runs (`list_shape`, `map_shape`).
    fn unlike(&self, expected: impl std::fmt::Display) -> Error {
        self.error(format!("{expected}, but the file has {}", self.describe()))
    }

    /// Short description of the node for messages, in the schema text's
    /// terms: `OPTIONAL INT64 ts (TIMESTAMP(MILLIS,true))`.
    pub fn describe(&self) -> String {
        match self.ty {
            Type::PrimitiveType { .. } => {
                let text = crate::schema::to_text(self.ty);
                text.trim().trim_end_matches(';').to_owned()
            }
            Type::GroupType { fields, .. } => {
                let rep = self.ty.get_basic_info().repetition();
                let annotation = match (self.logical_type(), self.converted_type()) {
                    (Some(l), _) => format!(" ({l:?})"),
                    (None, ConvertedType::NONE) => String::new(),
                    (None, c) => format!(" ({c})"),
                };
                format!("{rep} group {}{annotation} with {} fields", self.name(), fields.len())
            }
        }
    }

    /// Whether the node is a bare (unannotated) repeated field: a 1-level list.
    fn is_bare_repeated(&self) -> bool {
        self.repetition == Repetition::REPEATED
    }
}

/// How a list is laid out in a file, whatever its layout.
#[derive(Clone, Debug)]
pub struct ListShape<'a> {
    /// Definition level at which the list is present (0 when it cannot be null).
    pub null_def: i16,
    /// The repeated node: its `def` is the level at which the list has an
    /// element, its `rep` the level that starts a further element.
    pub repeated: FileNode<'a>,
    /// The element node; its repetition is the element's nullability.
    pub element: FileNode<'a>,
}

/// Finds the element of a list in `node`, following every layout of the
/// format's backward-compatibility rules: 3-level `LIST` (any names),
/// 2-level (`array`, `<name>_tuple`, multi-field or repeated-field groups,
/// repeated primitives) and bare repeated fields (1-level lists).
pub fn list_shape<'a>(node: &FileNode<'a>) -> Result<ListShape<'a>> {
    let nullable = node.repetition == Repetition::OPTIONAL;
    if node.is_bare_repeated() {
        // 1-level: the repeated node is both the list and its (required) element.
        return Ok(ListShape { null_def: 0, repeated: node.clone(), element: node.as_required() });
    }
    let annotated =
        matches!(node.logical_type(), Some(LogicalType::List)) || node.converted_type() == ConvertedType::LIST;
    let children = node.children();
    let [repeated] = children.as_slice() else {
        return Err(node.unlike("a list type reads a LIST group or a repeated field"));
    };
    if repeated.repetition != Repetition::REPEATED {
        let what = if annotated { "a LIST group whose child is not repeated" } else { "a group, not a list" };
        return Err(node.unlike(format_args!("a list type reads a LIST group or a repeated field, not {what}")));
    }
    let null_def = if nullable { node.def } else { 0 };
    let element_is_repeated_node = match repeated.ty {
        Type::PrimitiveType { .. } => true,
        Type::GroupType { fields, .. } => {
            fields.len() != 1
                || fields[0].get_basic_info().repetition() == Repetition::REPEATED
                || repeated.name() == "array"
                || repeated.name() == format!("{}_tuple", node.name())
        }
    };
    if element_is_repeated_node {
        return Ok(ListShape { null_def, repeated: repeated.clone(), element: repeated.as_required() });
    }
    let element = repeated.children().remove(0);
    Ok(ListShape { null_def, repeated: repeated.clone(), element })
}

/// How a map is laid out in a file.
#[derive(Clone, Debug)]
pub struct MapShape<'a> {
    /// Definition level at which the map is present (0 when it cannot be null).
    pub null_def: i16,
    /// The repeated key/value group.
    pub repeated: FileNode<'a>,
    /// The key node.
    pub key: FileNode<'a>,
    /// The value node, absent in key-only maps.
    pub value: Option<FileNode<'a>>,
}

/// Finds the key and value of a map in `node`: `MAP` or legacy
/// `MAP_KEY_VALUE` groups, with any names, the key first.
pub fn map_shape<'a>(node: &FileNode<'a>) -> Result<MapShape<'a>> {
    let nullable = node.repetition == Repetition::OPTIONAL;
    if node.is_bare_repeated() {
        return Err(node.unlike("a map type reads a MAP group, not a repeated field"));
    }
    let children = node.children();
    let [repeated] = children.as_slice() else {
        return Err(node.unlike("a map type reads a MAP group holding one repeated key/value group"));
    };
    if repeated.repetition != Repetition::REPEATED || !repeated.is_group() {
        return Err(node.unlike("a map type reads a MAP group holding one repeated key/value group"));
    }
    let mut kv = repeated.children().into_iter();
    let (Some(key), value, None) = (kv.next(), kv.next(), kv.next()) else {
        return Err(repeated.error("a map's key/value group must hold a key and at most one value"));
    };
    if key.is_group() || key.repetition == Repetition::REPEATED {
        return Err(key.error(format!("map keys must be primitive and not repeated, found {}", key.describe())));
    }
    Ok(MapShape { null_def: if nullable { node.def } else { 0 }, repeated: repeated.clone(), key, value })
}

/// Collects the file columns a Rust type reads, in the order of its cursors.
pub struct Resolver<'a> {
    schema: &'a SchemaDescriptor,
    columns: Vec<usize>,
}

impl<'a> Resolver<'a> {
    /// A resolver over `schema`, with no column chosen yet.
    pub fn new(schema: &'a SchemaDescriptor) -> Self {
        Resolver { schema, columns: Vec::new() }
    }

    /// The schema resolved against.
    pub fn schema(&self) -> &'a SchemaDescriptor {
        self.schema
    }

    /// Number of cursors chosen so far: the next leaf gets this index.
    pub fn cursors(&self) -> usize {
        self.columns.len()
    }

    /// Reads the leaf `node`: returns its cursor index and column descriptor.
    pub fn leaf(&mut self, node: &FileNode<'_>) -> Result<(usize, ColumnDescPtr)> {
        if node.is_group() {
            return Err(node.mismatch("this type reads a single column, not a group"));
        }
        if node.first_leaf >= self.schema.num_columns() {
            return Err(Error::damaged(node.location(), "leaf index out of the schema's range"));
        }
        let cursor = self.columns.len();
        self.columns.push(node.first_leaf);
        Ok((cursor, self.schema.column(node.first_leaf)))
    }

    /// The file column index of each cursor.
    pub fn into_columns(self) -> Vec<usize> {
        self.columns
    }
}
