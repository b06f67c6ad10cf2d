//! The Parquet front-end: a schema (`Type` message) into the model.
//!
//! Every decision is the one magnolify-parquet makes when it resolves a
//! Rust type against a file, so that the generated structs read the file
//! they were generated from: the schema is walked with the library's own
//! `FileNode`, lists and maps are found with its `list_shape` and
//! `map_shape` (through [`crate::shape`]), and annotations are read with
//! its `Annotation`:
//!
//! * a REPEATED node is a list of itself (a bare repeated field), whatever
//!   it holds; an OPTIONAL one is an `Option`;
//! * a group annotated LIST is a `Vec`, its element found by the format's
//!   backward-compatibility rules; MAP and MAP_KEY_VALUE groups are maps;
//! * leaves follow their annotation (logical type, else the legacy
//!   converted type), then the physical type, and only to types whose
//!   resolution accepts them.
//!
//! A column no type reads is kept as a `skip` field documenting why; a group
//! with nothing readable is left out with a comment. What a field's type
//! does not keep of its column (see [`super::parquet_leaf`], and field ids)
//! is noted on the field. The struct of a list's elements is named after
//! the singular of the list (`stops` → `Stop`), unless another struct of
//! the file has that name: the schema is walked twice, the first time to
//! learn the other structs' names.
//!
//! A text column whose field path the file's `magnolify.enum.<path>`
//! entries name (this library writes one per enum) is a unit enum of those
//! symbols, one enum per distinct list of symbols; an enum with data comes
//! back as a struct of its `variant` tag (such an enum) and its variants'
//! optional fields, which reads the same columns.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use magnolify_parquet::convert::{FileNode, MapShape};
use magnolify_parquet::engines::{self, Engine, Finding};
use parquet::basic::Repetition;
use parquet::schema::types::{SchemaDescriptor, Type};

use super::common::{vec_of, with_notes, FieldCx, MAX_DEPTH};
use super::error::CodegenError;
use super::model::{EnumDef, FieldAttrs, FieldDef, Item, ListLayout, Model, RustType, Scalar, StructDef};
use super::names::{comment_text, enum_variants, FieldNames, StructNames};
use super::parquet_leaf::{leaf, skip_placeholder};
use crate::shape::{is_two_level, shape, Shape};

/// The symbols of the enums a file's key/value metadata records
/// (`magnolify.enum.<field path>`: a JSON array of strings), by field path.
pub fn enum_symbols(key_values: &[parquet::file::metadata::KeyValue]) -> HashMap<String, Vec<String>> {
    let prefix = format!("{}.", magnolify_parquet::ENUMS_KEY);
    key_values
        .iter()
        .filter_map(|kv| {
            let path = kv.key.strip_prefix(&prefix)?;
            let symbols: Vec<String> = serde_json::from_str(kv.value.as_deref()?).ok()?;
            Some((path.to_owned(), symbols))
        })
        .collect()
}

/// Builds the model of `message`, the root struct named `root_name` (or
/// after the message); `symbols` are the enums' (see [`enum_symbols`]).
pub fn model(
    message: &Type,
    symbols: &HashMap<String, Vec<String>>,
    root_name: Option<&str>,
    engines: &[Engine],
) -> Result<Model, CodegenError> {
    if !message.is_group() {
        return Err(CodegenError::NotAMessage);
    }
    if message.get_fields().is_empty() {
        return Err(CodegenError::NoColumns);
    }
    let descr = SchemaDescriptor::new(Arc::new(message.clone()));
    let findings: Vec<(Finding, bool)> =
        engines.iter().flat_map(|&e| engines::check(message, e)).map(|f| (f, false)).collect();
    let name = match root_name {
        Some(name) => name,
        None if message.name().is_empty() => "Record",
        None => message.name(),
    };
    let hint = Hint { name, element: false };
    let root = FileNode::root(&descr);
    // The first pass learns the names of the structs that are not element
    // structs, which the second leaves to them.
    let mut first = Front::new(symbols, Vec::new(), StructNames::default());
    let _ = first.group_struct(&root, hint, None, 0);
    let names = StructNames::claiming(first.names.asked());
    let mut front = Front::new(symbols, findings, names);
    let root = front.group_struct(&root, hint, None, 0).map_err(CodegenError::NothingReadable)?;
    let mut structs: Vec<StructDef> = front.structs.into_iter().flatten().collect();
    merge_identical(&mut structs);
    if let Some(first) = structs.first_mut() {
        if !message.name().is_empty() && message.name() != root {
            first.rename = Some(message.name().to_owned());
        }
    }
    Ok(Model { structs, enums: front.enums })
}

/// What a struct made for a node is named after.
#[derive(Clone, Copy)]
struct Hint<'h> {
    /// The name of the field holding it (or the root's name).
    name: &'h str,
    /// It is the element of the list `name`: named after its singular.
    element: bool,
}

impl<'h> Hint<'h> {
    /// The hint of the elements of the list this hint names.
    fn element(self) -> Hint<'h> {
        Hint { element: true, ..self }
    }
}

/// The structs made so far. A slot is `None` while its struct is being
/// built, so that structs come out parent first.
struct Front<'s> {
    /// The enums' symbols the file records, by field path.
    symbols: &'s HashMap<String, Vec<String>>,
    /// The enums made, and each one's name by its symbols and annotation.
    enums: Vec<EnumDef>,
    enum_names: HashMap<(&'s [String], bool), String>,
    structs: Vec<Option<StructDef>>,
    names: StructNames,
    /// The names of the structs being built, outermost first: a taken name
    /// is made unique with its parent's in front.
    open: Vec<String>,
    /// What the engines asked for find, and whether a field has noted it:
    /// the innermost field whose path holds the column notes it.
    findings: Vec<(Finding, bool)>,
}

impl<'s> Front<'s> {
    fn new(symbols: &'s HashMap<String, Vec<String>>, findings: Vec<(Finding, bool)>, names: StructNames) -> Self {
        let (structs, open, enums, enum_names) = (Vec::new(), Vec::new(), Vec::new(), HashMap::new());
        Front { symbols, enums, enum_names, structs, names, open, findings }
    }

    /// The struct of a group; `Err` says why nothing of it can be read.
    /// `path` is the dotted path of the field holding it (`None` for the root).
    fn group_struct(
        &mut self,
        group: &FileNode<'_>,
        hint: Hint<'_>,
        path: Option<&str>,
        depth: usize,
    ) -> Result<String, String> {
        let parent = self.open.last().map(String::as_str);
        let name =
            if hint.element { self.names.element(hint.name, parent) } else { self.names.reserve(hint.name, parent) };
        self.open.push(name.clone());
        let built = self.group_fields(group, name, path, depth);
        self.open.pop();
        built
    }

    /// The fields of the group whose struct is `name`, as [`Front::group_struct`].
    fn group_fields(
        &mut self,
        group: &FileNode<'_>,
        name: String,
        path: Option<&str>,
        depth: usize,
    ) -> Result<String, String> {
        let slot = self.structs.len();
        self.structs.push(None);
        let fields = group.children();
        let mut ids: HashMap<i32, usize> = HashMap::new();
        for f in &fields {
            let info = f.ty().get_basic_info();
            if info.has_id() {
                *ids.entry(info.id()).or_default() += 1;
            }
        }
        let mut idents = FieldNames::default();
        let mut seen = HashSet::new();
        let mut items = Vec::new();
        let mut omitted = Vec::new();
        for f in &fields {
            if !seen.insert(f.name()) {
                // The runtime resolves fields by name and finds the first.
                items.push(Item::Omitted(format!(
                    "Parquet: `{}` is left out: a second field of that name, which cannot be read by name",
                    comment_text(f.name())
                )));
                continue;
            }
            let unique_id = |id: i32| ids.get(&id) == Some(&1);
            match self.field(f, path, depth + 1, &mut idents, &unique_id) {
                Ok(field) => items.push(Item::Field(field)),
                Err(why) => {
                    items.push(Item::Omitted(format!("Parquet: `{}` is left out: {why}", comment_text(f.name()))));
                    omitted.push(why);
                }
            }
        }
        let stored = items.iter().any(|i| matches!(i, Item::Field(f) if !f.attrs.skip));
        if !stored {
            // Drop the struct and any struct made under it.
            self.structs.truncate(slot);
            return Err(match omitted.as_slice() {
                _ if fields.is_empty() => "the group has no fields (Parquet groups cannot be empty)".to_owned(),
                // One reason for all: pass it up rather than a vaguer one.
                [first, rest @ ..] if omitted.len() == fields.len() && rest.iter().all(|w| w == first) => first.clone(),
                _ => "no column of the group can be read".to_owned(),
            });
        }
        let doc = match path {
            None => format!("Parquet message `{}`.", comment_text(group.name())),
            Some(p) => format!("Parquet group `{}`.", comment_text(p)),
        };
        if let Some(s) = self.structs.get_mut(slot) {
            *s = Some(StructDef { name: name.clone(), rename: None, doc: vec![doc], items });
        }
        Ok(name)
    }

    /// A field of a struct, or why it is left out.
    fn field(
        &mut self,
        node: &FileNode<'_>,
        parent: Option<&str>,
        depth: usize,
        idents: &mut FieldNames,
        unique_id: &dyn Fn(i32) -> bool,
    ) -> Result<FieldDef, String> {
        let name = node.name();
        let path = match parent {
            Some(p) => format!("{p}.{name}"),
            None => name.to_owned(),
        };
        let info = node.ty().get_basic_info();
        let mut cx = FieldCx::default();
        let ty = self.type_of(node, Hint { name, element: false }, &path, depth, &mut cx);
        if let Some(why) = cx.omitted {
            return Err(why);
        }
        let (ident, unraw) = idents.ident(name);
        let id = info.has_id().then(|| info.id());
        let doc = vec![match id {
            Some(id) => format!("Parquet: `{}`, field id {id}", comment_text(name)),
            None => format!("Parquet: `{}`", comment_text(name)),
        }];
        let mut notes = std::mem::take(&mut cx.notes);
        // The fields inside this one have taken theirs already.
        for (finding, noted) in self.findings.iter_mut().filter(|(_, noted)| !noted) {
            let within =
                finding.column.strip_prefix(path.as_str()).is_some_and(|rest| rest.is_empty() || rest.starts_with('.'));
            if within {
                *noted = true;
                let column = if finding.column == path {
                    String::new()
                } else {
                    format!(" (`{}`)", comment_text(&finding.column))
                };
                notes.push(format!(
                    "{}: {}{column}: {}",
                    finding.engine,
                    finding.severity,
                    comment_text(&finding.reason)
                ));
            }
        }
        let mut attrs = FieldAttrs::default();
        if let Some(why) = cx.unsupported {
            // `skip` combines with no other attribute.
            notes.push(format!("Skipped: {why}."));
            attrs.skip = true;
            return Ok(FieldDef { ident, doc: with_notes(doc, notes), ty: skip_placeholder(ty), attrs });
        }
        if unraw != name {
            attrs.rename = Some(name.to_owned());
        }
        attrs.field_id = id.filter(|&id| id >= 0 && unique_id(id));
        match id {
            Some(id) if attrs.field_id.is_none() => notes.push(format!(
                "Not kept: field id {id} ({}).",
                if id < 0 { "negative" } else { "another field of the group has it too" }
            )),
            _ => {}
        }
        cx.finish(&mut attrs, &mut notes);
        Ok(FieldDef { ident, doc: with_notes(doc, notes), ty, attrs })
    }

    /// The type of `node`, its repetition included.
    fn type_of(&mut self, node: &FileNode<'_>, hint: Hint<'_>, path: &str, depth: usize, cx: &mut FieldCx) -> RustType {
        if depth > MAX_DEPTH {
            cx.omitted = Some(format!("nested deeper than {MAX_DEPTH} levels"));
            return RustType::Scalar(Scalar::Bool);
        }
        match node.repetition() {
            Repetition::REPEATED => {
                // A bare repeated field: a list whose elements are the node itself.
                cx.layouts.push(Some(ListLayout::Repeated));
                let element = self.content(&node.as_required(), hint.element(), path, depth, cx);
                vec_of(element, cx)
            }
            Repetition::OPTIONAL => match self.content(&node.as_required(), hint, path, depth, cx) {
                // UNKNOWN columns are already optional.
                t @ RustType::Option(_) => t,
                t => RustType::Option(Box::new(t)),
            },
            Repetition::REQUIRED => self.content(node, hint, path, depth, cx),
        }
    }

    /// The type of what `node` holds, its own repetition accounted for.
    fn content(&mut self, node: &FileNode<'_>, hint: Hint<'_>, path: &str, depth: usize, cx: &mut FieldCx) -> RustType {
        match shape(node) {
            Shape::Leaf => self.enumeration(node, hint, path).unwrap_or_else(|| leaf(node, cx)),
            Shape::List(list) => {
                cx.layouts.push(is_two_level(&list).then_some(ListLayout::TwoLevel));
                let element = self.type_of(&list.element, hint.element(), path, depth + 1, cx);
                vec_of(element, cx)
            }
            Shape::Keys(keys) => {
                cx.notes.push("A key-only map (a set): read as the list of its keys.".to_owned());
                let element = self.type_of(&keys.element, hint, path, depth + 1, cx);
                vec_of(element, cx)
            }
            Shape::Map(map) => self.map_type(&map, hint, path, depth, cx),
            Shape::Group { misfit } => {
                if let Some(annotation) = misfit {
                    let layout = annotation.to_ascii_lowercase();
                    cx.notes.push(format!("Annotated {annotation} but not laid out as a {layout}: read as a group."));
                }
                match self.group_struct(node, hint, Some(path), depth) {
                    Ok(name) => RustType::Struct(name),
                    Err(why) => {
                        cx.omitted = Some(why);
                        RustType::Scalar(Scalar::Bool)
                    }
                }
            }
        }
    }

    /// A map with values.
    fn map_type(&mut self, map: &MapShape<'_>, hint: Hint<'_>, path: &str, depth: usize, cx: &mut FieldCx) -> RustType {
        let Some(value) = &map.value else { return RustType::Scalar(Scalar::Bool) };
        let key_hint = Hint { name: &format!("{}Key", hint.name), element: false };
        let key_type =
            self.enumeration(&map.key, key_hint, &format!("{path}.key")).unwrap_or_else(|| leaf(&map.key, cx));
        if !key_type.scalars().iter().all(|s| s.is_ord()) {
            // Float keys are neither `Ord` nor `Hash`. The runtime's list
            // resolution takes a two-field key/value group as the element
            // of a two-level list, so a `Vec` of entry structs reads it.
            cx.notes.push(
                "A map with floating-point keys, which cannot be map keys (not `Ord`): read as a list of \
                 key/value entries; written back as a LIST, not a MAP."
                    .to_owned(),
            );
            let kv_path = format!("{path}.{}", map.repeated.name());
            let entry = Hint { name: &format!("{}Entry", hint.name), element: false };
            return match self.group_struct(&map.repeated, entry, Some(&kv_path), depth + 1) {
                Ok(name) => RustType::Vec(Box::new(RustType::Struct(name))),
                Err(why) => {
                    cx.omitted = Some(why);
                    RustType::Scalar(Scalar::Bool)
                }
            };
        }
        let value_hint = Hint { name: &format!("{}Value", hint.name), element: false };
        let value_type = self.type_of(value, value_hint, path, depth + 1, cx);
        RustType::Map(Box::new(key_type), Box::new(value_type))
    }

    /// The unit enum of a text leaf at field `path` whose symbols the file
    /// records; one enum per distinct list of symbols.
    fn enumeration(&mut self, node: &FileNode<'_>, hint: Hint<'_>, path: &str) -> Option<RustType> {
        let symbols = self.symbols.get(path)?;
        use magnolify_parquet::convert::Annotation;
        let annotation = Annotation::of(node.ty());
        let text = matches!(annotation, Annotation::String | Annotation::Enum);
        if node.is_group() || node.ty().get_physical_type() != parquet::basic::Type::BYTE_ARRAY || !text {
            return None;
        }
        let annotated_enum = annotation == Annotation::Enum;
        if let Some(name) = self.enum_names.get(&(symbols.as_slice(), annotated_enum)) {
            return Some(RustType::Enum(name.clone()));
        }
        let parent = self.open.last().map(String::as_str);
        let name =
            if hint.element { self.names.element(hint.name, parent) } else { self.names.reserve(hint.name, parent) };
        let variants = enum_variants(symbols);
        let doc = vec![format!("The enum of `{}`, as the file records it.", comment_text(path))];
        self.enums.push(EnumDef { name: name.clone(), doc, annotated_enum, variants });
        self.enum_names.insert((symbols.as_slice(), annotated_enum), name.clone());
        Some(RustType::Enum(name))
    }
}

/// Makes one struct of the structs whose fields are the same (the `Card` of
/// `payment` and of `refund`, two enums with data of one type): the first
/// is kept, its doc naming the other groups, and every field that named
/// another names it. Repeated until none is left, since merging children
/// can make their parents the same.
fn merge_identical(structs: &mut Vec<StructDef>) {
    loop {
        let same = (1..structs.len()).find_map(|j| {
            (0..j)
                .find(|&i| structs[i].items == structs[j].items && structs[i].rename == structs[j].rename)
                .map(|i| (i, j))
        });
        let Some((kept, gone)) = same else { return };
        let gone = structs.remove(gone);
        let kept_name = structs[kept].name.clone();
        if let Some(first) = gone.doc.first() {
            let line =
                format!("The same fields as {}", first.trim_end_matches('.').replacen("Parquet group", "group", 1));
            structs[kept].doc.push(format!("{line}."));
        }
        for item in structs.iter_mut().flat_map(|s| s.items.iter_mut()) {
            if let Item::Field(field) = item {
                field.ty.rename_struct(&gone.name, &kept_name);
            }
        }
    }
}
