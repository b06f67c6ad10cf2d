//! The model as Rust source, laid out the way `rustfmt` (default settings,
//! edition 2021) lays it out, so that the output passes `rustfmt --check`
//! in the user's crate whatever its own `rustfmt.toml` says about width...
//! within reason: default settings are what most crates use.
//!
//! Only three constructs can overflow a line: `#[parquet(...)]` attributes
//! (broken one key per line), field types (generic arguments broken one per
//! line, or the type moved to the next line, by rustfmt's rules for the
//! right-hand side of a field) and comments (never touched by rustfmt).

use super::model::{
    DecimalAttr, DecimalPhysical, EnumDef, FieldAttrs, FieldDef, Item, ListLayout, Model, RustType, Scalar, StructDef,
};
use super::names::string_literal;

/// rustfmt's default `max_width`.
const MAX_WIDTH: usize = 100;
/// rustfmt's default indentation.
const INDENT: usize = 4;
/// rustfmt's default `attr_fn_like_width`: the longest argument list an
/// attribute keeps on one line.
const ATTR_ARGS_WIDTH: usize = 70;

/// Renders the structs of `model`, after `header` (comment lines, without `//`).
pub fn render(model: &Model, header: &[String]) -> String {
    let mut out = String::new();
    for line in header {
        if line.is_empty() {
            out.push_str("//\n");
        } else {
            out.push_str(&format!("// {line}\n"));
        }
    }
    out.push_str("\nuse magnolify_parquet::ParquetType;\n");
    for s in &model.structs {
        out.push('\n');
        render_struct(s, &mut out);
    }
    for e in &model.enums {
        out.push('\n');
        render_enum(e, &mut out);
    }
    out
}

fn render_enum(e: &EnumDef, out: &mut String) {
    for line in &e.doc {
        push_doc(out, 0, line);
    }
    out.push_str("#[derive(Debug, Clone, Copy, PartialEq, Eq, ParquetType)]\n");
    if e.annotated_enum {
        push_attr(out, 0, &["annotation = \"enum\"".to_owned()]);
    }
    out.push_str(&format!("pub enum {} {{\n", e.name));
    for (ident, rename) in &e.variants {
        if let Some(symbol) = rename {
            push_attr(out, INDENT, &[format!("rename = {}", string_literal(symbol))]);
        }
        out.push_str(&format!("{}{ident},\n", " ".repeat(INDENT)));
    }
    out.push_str("}\n");
}

fn render_struct(s: &StructDef, out: &mut String) {
    for line in &s.doc {
        push_doc(out, 0, line);
    }
    out.push_str("#[derive(Debug, Clone, PartialEq, ParquetType)]\n");
    if let Some(rename) = &s.rename {
        push_attr(out, 0, &[format!("rename = {}", string_literal(rename))]);
    }
    out.push_str(&format!("pub struct {} {{\n", s.name));
    for item in &s.items {
        match item {
            Item::Field(f) => render_field(f, out),
            Item::Omitted(text) => out.push_str(&format!("{}// {}\n", " ".repeat(INDENT), text.trim_end())),
        }
    }
    out.push_str("}\n");
}

fn render_field(f: &FieldDef, out: &mut String) {
    for line in &f.doc {
        push_doc(out, INDENT, line);
    }
    let keys = attr_keys(&f.attrs);
    if !keys.is_empty() {
        push_attr(out, INDENT, &keys);
    }
    let lhs = format!("{}pub {}:", " ".repeat(INDENT), f.ident);
    let tree = Tree::of(&f.ty);
    for line in field_lines(&lhs, &tree) {
        out.push_str(&line);
        out.push('\n');
    }
}

/// A doc comment line; rustfmt leaves comments alone but trailing spaces
/// are an error for it, so none are written.
fn push_doc(out: &mut String, indent: usize, line: &str) {
    let line = line.trim_end();
    if line.is_empty() {
        out.push_str(&format!("{}///\n", " ".repeat(indent)));
    } else {
        out.push_str(&format!("{}/// {line}\n", " ".repeat(indent)));
    }
}

/// `#[parquet(k1, k2)]` on one line when it fits, else one key per line
/// (rustfmt writes no trailing comma in attributes). "Fits" is rustfmt's
/// rule, found by trial: the line stays under 100 columns and, with
/// several keys, the keys take at most 70 (`attr_fn_like_width`).
fn push_attr(out: &mut String, indent: usize, keys: &[String]) {
    let pad = " ".repeat(indent);
    let args = keys.join(", ");
    let one_line = format!("{pad}#[parquet({args})]");
    if one_line.len() < MAX_WIDTH && (keys.len() == 1 || args.len() <= ATTR_ARGS_WIDTH) {
        out.push_str(&one_line);
        out.push('\n');
        return;
    }
    out.push_str(&format!("{pad}#[parquet(\n"));
    let inner = " ".repeat(indent + INDENT);
    for (i, key) in keys.iter().enumerate() {
        let sep = if i + 1 < keys.len() { "," } else { "" };
        out.push_str(&format!("{inner}{key}{sep}\n"));
    }
    out.push_str(&format!("{pad})]\n"));
}

/// The keys of a field's attribute, in the order the derive documents them.
fn attr_keys(a: &FieldAttrs) -> Vec<String> {
    let mut keys = Vec::new();
    if let Some(r) = &a.rename {
        keys.push(format!("rename = {}", string_literal(r)));
    }
    if a.skip {
        keys.push("skip".to_owned());
    }
    if let Some(l) = a.list {
        let layout = match l {
            ListLayout::ThreeLevel => "three-level",
            ListLayout::TwoLevel => "two-level",
            ListLayout::Repeated => "repeated",
        };
        keys.push(format!("list = \"{layout}\""));
    }
    if let Some(u) = a.timestamp {
        // The attribute spells a unit as its variant's name in lower case.
        keys.push(format!("timestamp = \"{}\"", format!("{u:?}").to_ascii_lowercase()));
    }
    if let Some(d) = &a.decimal {
        keys.push(decimal_key(d));
    }
    if a.json {
        keys.push("json".to_owned());
    }
    if let Some(id) = a.field_id {
        keys.push(format!("field_id = {id}"));
    }
    keys
}

fn decimal_key(d: &DecimalAttr) -> String {
    let physical = match d.physical {
        DecimalPhysical::Auto => "",
        DecimalPhysical::Int32 => ", physical = \"int32\"",
        DecimalPhysical::Int64 => ", physical = \"int64\"",
        DecimalPhysical::Fixed => ", physical = \"fixed\"",
        DecimalPhysical::Binary => ", physical = \"binary\"",
    };
    format!("decimal(precision = {}, scale = {}{physical})", d.precision, d.scale)
}

/// A type as a path with generic arguments, the unit rustfmt breaks.
#[derive(Debug)]
struct Tree {
    head: String,
    args: Vec<Tree>,
}

impl Tree {
    fn leaf(head: impl Into<String>) -> Tree {
        Tree { head: head.into(), args: Vec::new() }
    }

    fn of(ty: &RustType) -> Tree {
        match ty {
            RustType::Scalar(Scalar::Bytes) => Tree { head: "Vec".into(), args: vec![Tree::leaf("u8")] },
            RustType::Scalar(Scalar::UtcTimestamp) => {
                Tree { head: "chrono::DateTime".into(), args: vec![Tree::leaf("chrono::Utc")] }
            }
            RustType::Scalar(s) => Tree::leaf(s.path()),
            RustType::Struct(name) | RustType::Enum(name) => Tree::leaf(name.clone()),
            RustType::Option(t) => Tree { head: "Option".into(), args: vec![Tree::of(t)] },
            RustType::Vec(t) => Tree { head: "Vec".into(), args: vec![Tree::of(t)] },
            RustType::Map(k, v) => {
                Tree { head: "std::collections::BTreeMap".into(), args: vec![Tree::of(k), Tree::of(v)] }
            }
        }
    }

    /// The type on one line.
    fn flat(&self) -> String {
        if self.args.is_empty() {
            return self.head.clone();
        }
        let args: Vec<String> = self.args.iter().map(Tree::flat).collect();
        format!("{}<{}>", self.head, args.join(", "))
    }

    /// The type starting at column `start` (its later lines indented by
    /// `indent`), followed by `suffix_len` characters on its last line, as
    /// rustfmt writes it: on one line when it fits, else with each generic
    /// argument on its own line. `None` when even that does not fit.
    fn lines(&self, start: usize, indent: usize, suffix_len: usize) -> Option<Vec<String>> {
        let flat = self.flat();
        if start + flat.len() + suffix_len <= MAX_WIDTH {
            return Some(vec![flat]);
        }
        if self.args.is_empty() || start + self.head.len() + 1 > MAX_WIDTH {
            return None;
        }
        let inner = indent + INDENT;
        let pad = " ".repeat(inner);
        let mut out = vec![format!("{}<", self.head)];
        for arg in &self.args {
            let mut lines = arg.lines(inner, inner, 1)?;
            if let Some(first) = lines.first_mut() {
                *first = format!("{pad}{first}");
            }
            if let Some(last) = lines.last_mut() {
                last.push(',');
            }
            out.extend(lines);
        }
        out.push(format!("{}>", " ".repeat(indent)));
        Some(out)
    }
}

/// A field `lhs: type,` as rustfmt writes it. The type stays beside the
/// name when it fits there; when it must be broken, rustfmt moves it to the
/// next line instead if it fits there whole, or if that saves at least two
/// lines (`choose_rhs` and `prefer_next_line` in rustfmt's `expr.rs`).
fn field_lines(lhs: &str, ty: &Tree) -> Vec<String> {
    let same = ty.lines(lhs.len() + 1, INDENT, 1);
    if let Some([one]) = same.as_deref() {
        return vec![format!("{lhs} {one},")];
    }
    let next_indent = INDENT * 2;
    let next = ty.lines(next_indent, next_indent, 1);
    let use_next = match (&same, &next) {
        (Some(same), Some(next)) => next.len() == 1 || same.len() > next.len() + 1,
        (None, Some(_)) => true,
        _ => false,
    };
    let mut out = Vec::new();
    match (use_next, same, next) {
        (true, _, Some(next)) => {
            out.push(lhs.to_owned());
            let pad = " ".repeat(next_indent);
            out.extend(next.into_iter().enumerate().map(|(i, l)| if i == 0 { format!("{pad}{l}") } else { l }));
        }
        (_, Some(same), _) => {
            let mut lines = same.into_iter();
            out.push(format!("{lhs} {}", lines.next().unwrap_or_default()));
            out.extend(lines);
        }
        // Nothing fits: rustfmt leaves such a line as it is.
        _ => out.push(format!("{lhs} {}", ty.flat())),
    }
    if let Some(last) = out.last_mut() {
        last.push(',');
    }
    out
}
