//! Prints the public API of a crate from its rustdoc JSON: one line per
//! public item (path, kind, signature), sorted, so that two listings can be
//! compared with `diff`.
//!
//! ```text
//! public-api-list target/doc/magnolify_parquet.json > api/magnolify-parquet.txt
//! public-api-list target/doc/avro_baseline.json --extern target/doc/magnolify_parquet.json
//! ```
//!
//! Items of other crates are named by the path rustdoc gives them, the path
//! of their definition (`magnolify_parquet::record::RecordRead`), unless the
//! rustdoc JSON of their crate is given with `--extern`: then by their
//! shortest public path (`magnolify_parquet::RecordRead`), which does not
//! change when that crate moves its private modules around.
//!
//! What is listed, for every path at which the crate makes an item public:
//! modules, structs (with their public fields), enums (with their variants),
//! unions, traits (with their items), functions, constants, statics, type
//! aliases, macros, re-exports of items of other crates; and, once, under
//! the item's shortest path: inherent impls with their public items, trait
//! impls (with their associated types and constants), the auto-trait impls
//! rustdoc computes (`Send`, `Sync`, ...) and the impls of the crate's traits
//! for other types. Blanket impls of other crates (`impl<T> From<T> for T`)
//! are left out. Nothing depends on the machine: no spans, no ids, no file
//! paths.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::fmt::Write as _;
use std::process::ExitCode;

use rustdoc_types::{
    AssocItemConstraint, AssocItemConstraintKind, Attribute, Crate, FunctionHeader, FunctionSignature, GenericArg,
    GenericArgs, GenericBound, GenericParamDef, GenericParamDefKind, Generics, Id, Impl, Item, ItemEnum, MacroKind,
    Path, PreciseCapturingArg, StructKind, Term, TraitBoundModifier, Type, VariantKind, Visibility, WherePredicate,
    FORMAT_VERSION,
};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = || {
        eprintln!("usage: public-api-list <rustdoc JSON file> [--extern <rustdoc JSON of a dependency>]...");
        ExitCode::from(2)
    };
    let Some((json, rest)) = args.split_first() else { return usage() };
    let mut externs = Vec::new();
    let mut rest = rest.iter();
    while let Some(flag) = rest.next() {
        match (flag.as_str(), rest.next()) {
            ("--extern", Some(path)) => externs.push(path.clone()),
            _ => return usage(),
        }
    }
    match run(json, &externs) {
        Ok(lines) => {
            let mut out = String::new();
            for line in lines {
                out.push_str(&line);
                out.push('\n');
            }
            print!("{out}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("public-api-list: {json}: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(json: &str, externs: &[String]) -> Result<BTreeSet<String>, String> {
    let krate = load(json)?;
    // Definition path -> shortest public path, for the items of the crates given.
    let mut public_paths = HashMap::new();
    for path in externs {
        let dep = load(path).map_err(|e| format!("{path}: {e}"))?;
        let lister = Lister::new(&dep, HashMap::new());
        for (id, summary) in &dep.paths {
            if summary.crate_id == 0 {
                if let Some(public) = lister.canonical(id) {
                    public_paths.insert(summary.path.join("::"), public);
                }
            }
        }
    }
    Ok(Lister::new(&krate, public_paths).list())
}

fn load(json: &str) -> Result<Crate, String> {
    let text = std::fs::read_to_string(json).map_err(|e| e.to_string())?;
    // Check the format before parsing the rest: a mismatch would otherwise
    // show as an obscure serde error.
    let version = serde_json::from_str::<serde_json::Value>(&text)
        .map_err(|e| e.to_string())?
        .get("format_version")
        .and_then(|v| v.as_u64())
        .ok_or("no format_version: not rustdoc JSON")?;
    if version != u64::from(FORMAT_VERSION) {
        return Err(format!(
            "rustdoc JSON format version {version}, this tool reads version {FORMAT_VERSION}: \
             set rustdoc-types in tools/public-api/Cargo.toml to the release for format {version}"
        ));
    }
    serde_json::from_str(&text).map_err(|e| e.to_string())
}

struct Lister<'a> {
    krate: &'a Crate,
    /// Every path at which a local item is public.
    paths: HashMap<Id, BTreeSet<String>>,
    /// Re-exports of items of other crates: (path here, path there).
    foreign_uses: BTreeSet<(String, String)>,
    /// Definition path -> public path, for items of other crates.
    public_paths: HashMap<String, String>,
}

impl<'a> Lister<'a> {
    fn new(krate: &'a Crate, public_paths: HashMap<String, String>) -> Self {
        let mut lister = Lister { krate, paths: HashMap::new(), foreign_uses: BTreeSet::new(), public_paths };
        let root = &krate.index[&krate.root];
        let name = root.name.clone().unwrap_or_default();
        lister.add_path(&krate.root, name.clone());
        lister.walk_module(&krate.root, &name, &mut Vec::new());
        lister
    }

    fn item(&self, id: &Id) -> Option<&'a Item> {
        self.krate.index.get(id)
    }

    fn add_path(&mut self, id: &Id, path: String) {
        self.paths.entry(*id).or_default().insert(path);
    }

    /// Records the items of module `id`, reached at `prefix`. `stack` holds
    /// the modules being walked, so that a module re-exported inside itself
    /// is not walked forever.
    fn walk_module(&mut self, id: &Id, prefix: &str, stack: &mut Vec<Id>) {
        if stack.contains(id) {
            return;
        }
        let Some(ItemEnum::Module(module)) = self.item(id).map(|i| &i.inner) else { return };
        stack.push(*id);
        for child in &module.items {
            self.walk_child(child, prefix, stack);
        }
        stack.pop();
    }

    fn walk_child(&mut self, id: &Id, prefix: &str, stack: &mut Vec<Id>) {
        let Some(item) = self.item(id) else { return };
        if !matches!(item.visibility, Visibility::Public) {
            return;
        }
        match &item.inner {
            ItemEnum::Use(u) => {
                let target = u.id.as_ref().and_then(|t| self.item(t).map(|i| (t, i)));
                match (u.is_glob, target) {
                    (true, Some((t, target))) => match &target.inner {
                        ItemEnum::Module(_) => self.walk_module(t, prefix, stack),
                        ItemEnum::Enum(e) => {
                            for v in &e.variants {
                                let name = self.name(v);
                                self.add_path(v, format!("{prefix}::{name}"));
                            }
                        }
                        _ => {}
                    },
                    (false, Some((t, target))) => {
                        let path = format!("{prefix}::{}", u.name);
                        self.add_path(t, path.clone());
                        if matches!(target.inner, ItemEnum::Module(_)) {
                            self.walk_module(t, &path, stack);
                        }
                    }
                    (glob, None) => {
                        let there = u.id.as_ref().map(|t| self.external_path(t)).unwrap_or_else(|| u.source.clone());
                        let here = if glob { format!("{prefix}::*") } else { format!("{prefix}::{}", u.name) };
                        let there = if glob { format!("{there}::*") } else { there };
                        self.foreign_uses.insert((here, there));
                    }
                }
            }
            ItemEnum::Module(_) => {
                let path = format!("{prefix}::{}", self.name(id));
                self.add_path(id, path.clone());
                self.walk_module(id, &path, stack);
            }
            ItemEnum::Impl(_) => {}
            _ => {
                let name = self.name(id);
                self.add_path(id, format!("{prefix}::{name}"));
            }
        }
    }

    fn name(&self, id: &Id) -> String {
        self.item(id).and_then(|i| i.name.clone()).unwrap_or_else(|| "_".to_owned())
    }

    /// The path of an item of another crate: its public path when known,
    /// else the path of its definition.
    fn external_path(&self, id: &Id) -> String {
        match self.krate.paths.get(id) {
            Some(summary) => self.public_path(summary.path.join("::")),
            None => format!("<unknown item {}>", id.0),
        }
    }

    fn public_path(&self, definition: String) -> String {
        self.public_paths.get(&definition).cloned().unwrap_or(definition)
    }

    /// The shortest path of a local item, or its path in its own crate.
    fn canonical(&self, id: &Id) -> Option<String> {
        let paths = self.paths.get(id)?;
        paths.iter().min_by(|a, b| a.matches("::").count().cmp(&b.matches("::").count()).then(a.cmp(b))).cloned()
    }

    /// How a path in a type is printed: the canonical path of local items,
    /// the full path of items of other crates, as written otherwise.
    fn path_name(&self, path: &Path) -> String {
        if let Some(p) = self.canonical(&path.id) {
            return p;
        }
        match self.krate.paths.get(&path.id) {
            Some(summary) => self.public_path(summary.path.join("::")),
            None => path.path.clone(),
        }
    }

    fn list(&self) -> BTreeSet<String> {
        let mut lines = BTreeSet::new();
        for (here, there) in &self.foreign_uses {
            lines.insert(format!("pub use {here} = {there}"));
        }
        let mut impls: BTreeSet<u32> = BTreeSet::new();
        for (id, paths) in &self.paths {
            let Some(item) = self.item(id) else { continue };
            let canonical = self.canonical(id).expect("item with paths");
            for path in paths {
                if let Some(line) = self.item_line(item, path) {
                    lines.insert(line);
                }
            }
            // Members, once, under the canonical path.
            self.members(item, &canonical, &mut lines, &mut impls);
        }
        let impls: Vec<Id> = impls.into_iter().map(Id).collect();
        for id in &impls {
            self.impl_lines(id, &mut lines);
        }
        lines
    }

    fn item_line(&self, item: &Item, path: &str) -> Option<String> {
        let attrs = attrs(item);
        Some(match &item.inner {
            ItemEnum::Module(_) => format!("pub mod {path}"),
            ItemEnum::Struct(s) => {
                let g = self.generics(&s.generics);
                let w = self.where_clause(&s.generics);
                let shape = match &s.kind {
                    StructKind::Unit => ";".to_owned(),
                    StructKind::Tuple(fields) => {
                        let fields: Vec<String> = fields
                            .iter()
                            .map(|f| match f.as_ref().and_then(|f| self.item(f)) {
                                Some(Item { inner: ItemEnum::StructField(t), .. }) => format!("pub {}", self.ty(t)),
                                _ => "_".to_owned(),
                            })
                            .collect();
                        format!("({})", fields.join(", "))
                    }
                    StructKind::Plain { has_stripped_fields, .. } => {
                        if *has_stripped_fields { " { /* private fields */ }" } else { "" }.to_owned()
                    }
                };
                format!("{attrs}pub struct {path}{g}{shape}{w}")
            }
            ItemEnum::Union(u) => {
                format!("{attrs}pub union {path}{}{}", self.generics(&u.generics), self.where_clause(&u.generics))
            }
            ItemEnum::Enum(e) => {
                format!("{attrs}pub enum {path}{}{}", self.generics(&e.generics), self.where_clause(&e.generics))
            }
            ItemEnum::Variant(v) => {
                let shape = match &v.kind {
                    VariantKind::Plain => String::new(),
                    VariantKind::Tuple(fields) => {
                        let fields: Vec<String> = fields
                            .iter()
                            .map(|f| match f.as_ref().and_then(|f| self.item(f)) {
                                Some(Item { inner: ItemEnum::StructField(t), .. }) => self.ty(t),
                                _ => "_".to_owned(),
                            })
                            .collect();
                        format!("({})", fields.join(", "))
                    }
                    VariantKind::Struct { fields, has_stripped_fields } => {
                        let mut fields: Vec<String> = fields
                            .iter()
                            .filter_map(|f| match self.item(f) {
                                Some(Item { name: Some(n), inner: ItemEnum::StructField(t), .. }) => {
                                    Some(format!("{n}: {}", self.ty(t)))
                                }
                                _ => None,
                            })
                            .collect();
                        if *has_stripped_fields {
                            fields.push("..".to_owned());
                        }
                        format!(" {{ {} }}", fields.join(", "))
                    }
                };
                let disc = v.discriminant.as_ref().map(|d| format!(" = {}", d.expr)).unwrap_or_default();
                format!("{attrs}pub enum variant {path}{shape}{disc}")
            }
            ItemEnum::Function(f) => self.function(&attrs, path, &f.header, &f.generics, &f.sig, f.has_body, false),
            ItemEnum::Trait(t) => {
                let unsafety = if t.is_unsafe { "unsafe " } else { "" };
                let auto = if t.is_auto { "auto " } else { "" };
                let bounds = self.bounds_suffix(&t.bounds);
                let dyn_ = if t.is_dyn_compatible { "" } else { " /* not dyn-compatible */" };
                format!(
                    "{attrs}pub {unsafety}{auto}trait {path}{}{bounds}{}{dyn_}",
                    self.generics(&t.generics),
                    self.where_clause(&t.generics)
                )
            }
            ItemEnum::TraitAlias(t) => {
                format!("pub trait {path}{} = {}", self.generics(&t.generics), self.bounds(&t.params))
            }
            ItemEnum::TypeAlias(t) => format!(
                "pub type {path}{}{} = {}",
                self.generics(&t.generics),
                self.where_clause(&t.generics),
                self.ty(&t.type_)
            ),
            ItemEnum::Constant { type_, const_ } => format!("pub const {path}: {} = {}", self.ty(type_), const_.expr),
            ItemEnum::Static(s) => {
                let m = if s.is_mutable { "mut " } else { "" };
                format!("pub static {m}{path}: {}", self.ty(&s.type_))
            }
            ItemEnum::Macro(_) => format!("pub macro {path}!"),
            ItemEnum::ProcMacro(p) => {
                let kind = match p.kind {
                    MacroKind::Bang => "proc_macro",
                    MacroKind::Attr => "proc_macro_attribute",
                    MacroKind::Derive => "proc_macro_derive",
                };
                let helpers = if p.helpers.is_empty() {
                    String::new()
                } else {
                    let mut h = p.helpers.clone();
                    h.sort();
                    format!(" (helper attributes: {})", h.join(", "))
                };
                format!("pub {kind} {path}{helpers}")
            }
            ItemEnum::ExternType => format!("pub extern type {path}"),
            ItemEnum::ExternCrate { name, .. } => format!("pub extern crate {path} = {name}"),
            ItemEnum::Primitive(_)
            | ItemEnum::Use(_)
            | ItemEnum::Impl(_)
            | ItemEnum::StructField(_)
            | ItemEnum::AssocConst { .. }
            | ItemEnum::AssocType { .. } => return None,
        })
    }

    /// Fields, variants, trait items; impls are collected into `impls`.
    fn members(&self, item: &Item, path: &str, lines: &mut BTreeSet<String>, impls: &mut BTreeSet<u32>) {
        match &item.inner {
            ItemEnum::Struct(s) => {
                match &s.kind {
                    StructKind::Plain { fields, .. } => {
                        for f in fields {
                            self.field_line(f, path, lines);
                        }
                    }
                    StructKind::Tuple(fields) => {
                        for (i, f) in fields.iter().enumerate() {
                            if let Some(Item { inner: ItemEnum::StructField(t), .. }) =
                                f.as_ref().and_then(|f| self.item(f))
                            {
                                lines.insert(format!("pub struct field {path}::{i}: {}", self.ty(t)));
                            }
                        }
                    }
                    StructKind::Unit => {}
                }
                impls.extend(s.impls.iter().map(|i| i.0));
            }
            ItemEnum::Union(u) => {
                for f in &u.fields {
                    self.field_line(f, path, lines);
                }
                impls.extend(u.impls.iter().map(|i| i.0));
            }
            ItemEnum::Enum(e) => {
                for v in &e.variants {
                    if let Some(variant) = self.item(v) {
                        let vpath = format!("{path}::{}", self.name(v));
                        if let Some(line) = self.item_line(variant, &vpath) {
                            lines.insert(line);
                        }
                    }
                }
                if e.has_stripped_variants {
                    lines.insert(format!("pub enum {path} /* has private variants */"));
                }
                impls.extend(e.impls.iter().map(|i| i.0));
            }
            ItemEnum::Trait(t) => {
                for i in &t.items {
                    if let Some(member) = self.item(i) {
                        let mpath = format!("{path}::{}", self.name(i));
                        if let Some(line) = self.assoc_line(member, &mpath, true) {
                            lines.insert(line);
                        }
                    }
                }
                impls.extend(t.implementations.iter().map(|i| i.0));
            }
            _ => {}
        }
    }

    fn field_line(&self, id: &Id, path: &str, lines: &mut BTreeSet<String>) {
        if let Some(Item {
            name: Some(name), inner: ItemEnum::StructField(t), visibility: Visibility::Public, ..
        }) = self.item(id)
        {
            lines.insert(format!("pub struct field {path}::{name}: {}", self.ty(t)));
        }
    }

    /// An item of a trait or an impl.
    fn assoc_line(&self, item: &Item, path: &str, in_trait: bool) -> Option<String> {
        let attrs = attrs(item);
        Some(match &item.inner {
            ItemEnum::Function(f) => self.function(&attrs, path, &f.header, &f.generics, &f.sig, f.has_body, in_trait),
            ItemEnum::AssocConst { type_, value } => {
                let value = value.as_ref().map(|v| format!(" = {v}")).unwrap_or_default();
                format!("pub const {path}: {}{value}", self.ty(type_))
            }
            ItemEnum::AssocType { generics, bounds, type_ } => {
                let bounds = self.bounds_suffix(bounds);
                let value = type_.as_ref().map(|t| format!(" = {}", self.ty(t))).unwrap_or_default();
                format!("pub type {path}{}{bounds}{}{value}", self.generics(generics), self.where_clause(generics))
            }
            _ => return None,
        })
    }

    fn impl_lines(&self, id: &Id, lines: &mut BTreeSet<String>) {
        let Some(Item { inner: ItemEnum::Impl(imp), .. }) = self.item(id) else { return };
        // Blanket impls of other crates (`impl<T> Any for T`, ...): the same
        // for every type, they tell nothing about this crate.
        if imp.blanket_impl.is_some() && !imp.trait_.as_ref().is_some_and(|t| self.paths.contains_key(&t.id)) {
            return;
        }
        let header = self.impl_header(imp);
        lines.insert(header.clone());
        let for_ = self.ty(&imp.for_);
        for i in &imp.items {
            let Some(member) = self.item(i) else { continue };
            let name = self.name(i);
            match (&imp.trait_, &member.inner) {
                // Inherent items: each public one with its signature.
                (None, _) if matches!(member.visibility, Visibility::Public) => {
                    if let Some(line) = self.assoc_line(member, &format!("{for_}::{name}"), false) {
                        lines.insert(line);
                    }
                }
                // Trait impls: the trait fixes the methods; list what the impl chooses.
                (Some(_), ItemEnum::AssocType { .. } | ItemEnum::AssocConst { .. }) => {
                    if let Some(line) = self.assoc_line(member, &name, false) {
                        lines.insert(format!("{header} {{ {} }}", line.replacen("pub ", "", 1)));
                    }
                }
                _ => {}
            }
        }
    }

    fn impl_header(&self, imp: &Impl) -> String {
        let unsafety = if imp.is_unsafe { "unsafe " } else { "" };
        // rustdoc copies the type's parameters, defaults included, into the
        // impls it synthesizes (auto traits); an impl has no defaults.
        let mut generics = imp.generics.clone();
        for p in &mut generics.params {
            match &mut p.kind {
                GenericParamDefKind::Type { default, .. } => *default = None,
                GenericParamDefKind::Const { default, .. } => *default = None,
                GenericParamDefKind::Lifetime { .. } => {}
            }
        }
        let g = self.generics(&generics);
        let w = self.where_clause(&imp.generics);
        let for_ = self.ty(&imp.for_);
        match &imp.trait_ {
            Some(t) => {
                let neg = if imp.is_negative { "!" } else { "" };
                format!("impl{g} {unsafety}{neg}{} for {for_}{w}", self.path(t))
            }
            None => format!("impl{g} {for_}{w}"),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn function(
        &self,
        attrs: &str,
        path: &str,
        header: &FunctionHeader,
        generics: &Generics,
        sig: &FunctionSignature,
        has_body: bool,
        in_trait: bool,
    ) -> String {
        let mut s = String::new();
        s.push_str(attrs);
        s.push_str("pub ");
        if header.is_const {
            s.push_str("const ");
        }
        if header.is_async {
            s.push_str("async ");
        }
        if header.is_unsafe {
            s.push_str("unsafe ");
        }
        match &header.abi {
            rustdoc_types::Abi::Rust => {}
            rustdoc_types::Abi::C { .. } => s.push_str("extern \"C\" "),
            other => {
                let _ = write!(s, "extern {other:?} ");
            }
        }
        let _ = write!(s, "fn {path}{}(", self.generics(generics));
        let inputs: Vec<String> = sig.inputs.iter().map(|(name, t)| self.input(name, t)).collect();
        s.push_str(&inputs.join(", "));
        if sig.is_c_variadic {
            s.push_str(", ...");
        }
        s.push(')');
        if let Some(out) = &sig.output {
            let _ = write!(s, " -> {}", self.ty(out));
        }
        s.push_str(&self.where_clause(generics));
        if in_trait && has_body {
            s.push_str(" { .. }");
        }
        s
    }

    fn input(&self, name: &str, t: &Type) -> String {
        if name == "self" {
            match t {
                Type::Generic(g) if g == "Self" => return "self".to_owned(),
                Type::BorrowedRef { lifetime, is_mutable, type_ } if matches!(&**type_, Type::Generic(g) if g == "Self") =>
                {
                    let lt = lifetime.as_ref().map(|l| format!("{l} ")).unwrap_or_default();
                    let m = if *is_mutable { "mut " } else { "" };
                    return format!("&{lt}{m}self");
                }
                _ => {}
            }
        }
        format!("{name}: {}", self.ty(t))
    }

    fn ty(&self, t: &Type) -> String {
        match t {
            Type::ResolvedPath(p) => self.path(p),
            Type::DynTrait(d) => {
                let mut parts: Vec<String> = d
                    .traits
                    .iter()
                    .map(|pt| format!("{}{}", self.hrtb(&pt.generic_params), self.path(&pt.trait_)))
                    .collect();
                if let Some(l) = &d.lifetime {
                    parts.push(l.clone());
                }
                format!("dyn {}", parts.join(" + "))
            }
            Type::Generic(g) => g.clone(),
            Type::Primitive(p) => p.clone(),
            Type::FunctionPointer(f) => {
                let inputs: Vec<String> = f.sig.inputs.iter().map(|(_, t)| self.ty(t)).collect();
                let out = f.sig.output.as_ref().map(|o| format!(" -> {}", self.ty(o))).unwrap_or_default();
                let unsafety = if f.header.is_unsafe { "unsafe " } else { "" };
                format!("{}{unsafety}fn({}){out}", self.hrtb(&f.generic_params), inputs.join(", "))
            }
            Type::Tuple(ts) if ts.len() == 1 => format!("({},)", self.ty(&ts[0])),
            Type::Tuple(ts) => format!("({})", ts.iter().map(|t| self.ty(t)).collect::<Vec<_>>().join(", ")),
            Type::Slice(t) => format!("[{}]", self.ty(t)),
            Type::Array { type_, len } => format!("[{}; {len}]", self.ty(type_)),
            Type::Pat { type_, .. } => self.ty(type_),
            Type::ImplTrait(bounds) => format!("impl {}", self.bounds(bounds)),
            Type::Infer => "_".to_owned(),
            Type::RawPointer { is_mutable, type_ } => {
                format!("*{} {}", if *is_mutable { "mut" } else { "const" }, self.ty(type_))
            }
            Type::BorrowedRef { lifetime, is_mutable, type_ } => {
                let lt = lifetime.as_ref().map(|l| format!("{l} ")).unwrap_or_default();
                let m = if *is_mutable { "mut " } else { "" };
                format!("&{lt}{m}{}", self.ty(type_))
            }
            Type::QualifiedPath { name, args, self_type, trait_ } => {
                let args = args.as_deref().map(|a| self.generic_args(a)).unwrap_or_default();
                match trait_ {
                    Some(t) if !t.path.is_empty() => {
                        format!("<{} as {}>::{name}{args}", self.ty(self_type), self.path(t))
                    }
                    _ => format!("{}::{name}{args}", self.ty(self_type)),
                }
            }
        }
    }

    fn path(&self, p: &Path) -> String {
        let args = p.args.as_deref().map(|a| self.generic_args(a)).unwrap_or_default();
        format!("{}{args}", self.path_name(p))
    }

    fn generic_args(&self, a: &GenericArgs) -> String {
        match a {
            GenericArgs::AngleBracketed { args, constraints } => {
                let mut parts: Vec<String> = args
                    .iter()
                    .map(|a| match a {
                        GenericArg::Lifetime(l) => l.clone(),
                        GenericArg::Type(t) => self.ty(t),
                        GenericArg::Const(c) => c.expr.clone(),
                        GenericArg::Infer => "_".to_owned(),
                    })
                    .collect();
                parts.extend(constraints.iter().map(|c| self.constraint(c)));
                if parts.is_empty() {
                    String::new()
                } else {
                    format!("<{}>", parts.join(", "))
                }
            }
            GenericArgs::Parenthesized { inputs, output } => {
                let inputs: Vec<String> = inputs.iter().map(|t| self.ty(t)).collect();
                let out = output.as_ref().map(|o| format!(" -> {}", self.ty(o))).unwrap_or_default();
                format!("({}){out}", inputs.join(", "))
            }
            GenericArgs::ReturnTypeNotation => "(..)".to_owned(),
        }
    }

    fn constraint(&self, c: &AssocItemConstraint) -> String {
        let args = c.args.as_deref().map(|a| self.generic_args(a)).unwrap_or_default();
        match &c.binding {
            AssocItemConstraintKind::Equality(term) => format!("{}{args} = {}", c.name, self.term(term)),
            AssocItemConstraintKind::Constraint(bounds) => format!("{}{args}: {}", c.name, self.bounds(bounds)),
        }
    }

    fn term(&self, t: &Term) -> String {
        match t {
            Term::Type(t) => self.ty(t),
            Term::Constant(c) => c.expr.clone(),
        }
    }

    fn bounds(&self, bounds: &[GenericBound]) -> String {
        bounds.iter().map(|b| self.bound(b)).collect::<Vec<_>>().join(" + ")
    }

    fn bounds_suffix(&self, bounds: &[GenericBound]) -> String {
        if bounds.is_empty() {
            String::new()
        } else {
            format!(": {}", self.bounds(bounds))
        }
    }

    fn bound(&self, b: &GenericBound) -> String {
        match b {
            GenericBound::TraitBound { trait_, generic_params, modifier } => {
                let m = match modifier {
                    TraitBoundModifier::None => "",
                    TraitBoundModifier::Maybe => "?",
                    TraitBoundModifier::MaybeConst => "~const ",
                };
                format!("{}{m}{}", self.hrtb(generic_params), self.path(trait_))
            }
            GenericBound::Outlives(l) => l.clone(),
            GenericBound::Use(args) => {
                let args: Vec<String> = args
                    .iter()
                    .map(|a| match a {
                        PreciseCapturingArg::Lifetime(l) => l.clone(),
                        PreciseCapturingArg::Param(p) => p.clone(),
                    })
                    .collect();
                format!("use<{}>", args.join(", "))
            }
        }
    }

    fn hrtb(&self, params: &[GenericParamDef]) -> String {
        if params.is_empty() {
            String::new()
        } else {
            let ps: Vec<String> = params.iter().map(|p| self.param(p)).collect();
            format!("for<{}> ", ps.join(", "))
        }
    }

    fn param(&self, p: &GenericParamDef) -> String {
        match &p.kind {
            GenericParamDefKind::Lifetime { outlives } => {
                if outlives.is_empty() {
                    p.name.clone()
                } else {
                    format!("{}: {}", p.name, outlives.join(" + "))
                }
            }
            GenericParamDefKind::Type { bounds, default, .. } => {
                let d = default.as_ref().map(|d| format!(" = {}", self.ty(d))).unwrap_or_default();
                format!("{}{}{d}", p.name, self.bounds_suffix(bounds))
            }
            GenericParamDefKind::Const { type_, default } => {
                let d = default.as_ref().map(|d| format!(" = {d}")).unwrap_or_default();
                format!("const {}: {}{d}", p.name, self.ty(type_))
            }
        }
    }

    fn generics(&self, g: &Generics) -> String {
        let ps: Vec<String> = g
            .params
            .iter()
            .filter(|p| !matches!(p.kind, GenericParamDefKind::Type { is_synthetic: true, .. }))
            .map(|p| self.param(p))
            .collect();
        if ps.is_empty() {
            String::new()
        } else {
            format!("<{}>", ps.join(", "))
        }
    }

    fn where_clause(&self, g: &Generics) -> String {
        let preds: Vec<String> = g
            .where_predicates
            .iter()
            .map(|w| match w {
                WherePredicate::BoundPredicate { type_, bounds, generic_params } => {
                    format!("{}{}: {}", self.hrtb(generic_params), self.ty(type_), self.bounds(bounds))
                }
                WherePredicate::LifetimePredicate { lifetime, outlives } => {
                    format!("{lifetime}: {}", outlives.join(" + "))
                }
                WherePredicate::EqPredicate { lhs, rhs } => format!("{} == {}", self.ty(lhs), self.term(rhs)),
            })
            .collect();
        if preds.is_empty() {
            String::new()
        } else {
            format!(" where {}", preds.join(", "))
        }
    }
}

/// The attributes that are part of an item's API.
fn attrs(item: &Item) -> String {
    let mut out = String::new();
    let mut seen = HashSet::new();
    for a in &item.attrs {
        let text = match a {
            Attribute::NonExhaustive => "#[non_exhaustive] ".to_owned(),
            Attribute::MustUse { .. } => "#[must_use] ".to_owned(),
            Attribute::Repr(r) => format!("#[repr({:?})] ", r.kind).to_lowercase(),
            _ => continue,
        };
        if seen.insert(text.clone()) {
            out.push_str(&text);
        }
    }
    if item.deprecation.is_some() {
        out.push_str("#[deprecated] ");
    }
    out
}
