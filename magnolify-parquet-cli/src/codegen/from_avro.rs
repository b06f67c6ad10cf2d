//! The Avro front-end: an Avro record schema into the model, with the
//! rules parquet-avro's `AvroSchemaConverter` follows (and `avro-baseline`,
//! which `avro2parquet` writes with), so that the generated structs read
//! the Parquet files written from records of the schema:
//!
//! * records are structs, named after the record (the root keeps the full
//!   name as its message name); a record used twice is one struct;
//! * `["null", T]` (either order) is `Option<T>`; other unions are structs
//!   of optional `memberN` fields, one per non-null branch, optional as a
//!   whole when the union has `null`;
//! * arrays are `Vec`s, in parquet-avro's two-level list layout unless the
//!   three-level one is asked for (two-level lists have no null elements:
//!   a nullable item type is read as the type itself);
//! * maps are `BTreeMap<String, _>` (a map of `null`s, which parquet-avro
//!   writes as a key-only map, is the `Vec` of its keys);
//! * enums are unit enums (variants in UpperCamelCase, renamed to their
//!   symbols where they differ), fixed types `[u8; N]`, fields of type
//!   `null` have no column and are left out;
//! * logical types: `decimal` is `rust_decimal::Decimal` (or
//!   `bigdecimal::BigDecimal` above 28 digits), `date`, `time-*`,
//!   `timestamp-*` and `local-timestamp-*` their chrono types and units;
//!   `uuid` (stored as text), `big-decimal` and `duration` keep the form
//!   parquet-avro stores them in: `String`, bytes and `[u8; 12]`.
//!
//! What the Rust type does not keep (a time's UTC flag, the time zone a
//! local timestamp had, a decimal's fixed length) is noted on the field. A
//! union in an array is named after the array's singular (`payments` →
//! `PaymentUnion`) when no other type of the file has that name: the schema
//! is walked twice, the first time to learn the other names.

use std::collections::HashMap;

use apache_avro::schema::{EnumSchema, Name, Namespace, RecordSchema, ResolvedSchema, UnionSchema};
use apache_avro::Schema;

use super::common::{self, vec_of, with_notes, FieldCx, MAX_DEPTH};
use super::error::CodegenError;
use super::model::{
    DecimalPhysical, EnumDef, FieldAttrs, FieldDef, Item, ListLayout, Model, RustType, Scalar, StructDef, TimeUnit,
};
use super::names::{camel_case, comment_text, enum_variants, FieldNames, StructNames};

/// Builds the model of the Avro record `schema`, arrays in `layout`, the
/// root struct named `root_name` (or after the record).
pub fn model(schema: &Schema, layout: ListLayout, root_name: Option<&str>) -> Result<Model, CodegenError> {
    let Schema::Record(root) = schema else { return Err(CodegenError::NotARecord) };
    let resolved = ResolvedSchema::try_from(schema).map_err(|e| CodegenError::Avro(e.to_string()))?;
    let front = |struct_names| Front {
        names: resolved.get_names().iter().map(|(n, s)| (n.clone(), *s)).collect(),
        layout,
        structs: Vec::new(),
        enums: Vec::new(),
        struct_names,
        made: HashMap::new(),
        stack: Vec::new(),
    };
    let full = root.name.fully_qualified_name(&None);
    let hint = root_name.unwrap_or(&root.name.name);
    // The first pass learns the names of the types other than the unions in
    // arrays, which the second leaves to them.
    let mut first = front(StructNames::default());
    let _ = first.record(root, &None, Some(hint), 0);
    let mut front = front(StructNames::claiming(first.struct_names.asked()));
    let name = front.record(root, &None, Some(hint), 0).map_err(CodegenError::Avro)?;
    let mut structs: Vec<StructDef> = front.structs.into_iter().flatten().collect();
    if let Some(first) = structs.first_mut() {
        let message = full.fullname(None);
        if message != name {
            first.rename = Some(message);
        }
    }
    Ok(Model { structs, enums: front.enums })
}

struct Front<'s> {
    names: HashMap<Name, &'s Schema>,
    layout: ListLayout,
    /// Parent first: a slot is `None` while its struct is being built.
    structs: Vec<Option<StructDef>>,
    enums: Vec<EnumDef>,
    struct_names: StructNames,
    /// Rust names of the records and enums made, by full Avro name.
    made: HashMap<Name, String>,
    /// Records being made, to refuse recursion (Parquet schemas are finite).
    stack: Vec<Name>,
}

/// Where a union is.
#[derive(Clone, Copy)]
struct Site {
    /// Its `null` can be stored: it is not an element of a two-level list.
    nullable: bool,
    /// It is the element of an array, named after the array's singular.
    element: bool,
}

/// The note on a local timestamp of `logical` (`local-timestamp-millis`).
fn local_note(logical: &str) -> String {
    format!(
        "Not kept: a time zone. Avro {logical} is a date and time in no time zone (Parquet TIMESTAMP with \
         isAdjustedToUTC=false): the zone it was local to is not in the data."
    )
}

/// The note on a `time-*` of `logical` (`time-millis`).
fn time_note(logical: &str) -> String {
    format!(
        "Not kept: isAdjustedToUTC=true, which parquet-avro writes {logical} with (NaiveTime is a time of day \
         in no time zone; written back as TIME with isAdjustedToUTC=false)."
    )
}

/// The note on a nanosecond timestamp of `logical` (`timestamp-nanos`).
fn nanos_note(logical: &str) -> String {
    format!(
        "parquet-avro writes {logical} as a plain INT64 (no TIMESTAMP annotation), which this type does not \
         read: read its files' column as i64 (`avro2parquet` annotates it)."
    )
}

/// Doc lines of an Avro `doc`.
fn doc_lines(doc: &Option<String>) -> Vec<String> {
    doc.as_deref().map(|d| d.lines().map(comment_text).collect()).unwrap_or_default()
}

impl<'s> Front<'s> {
    /// The struct of record `r` (within namespace `ns`), named after `hint`
    /// or the record.
    fn record(
        &mut self,
        r: &'s RecordSchema,
        ns: &Namespace,
        hint: Option<&str>,
        depth: usize,
    ) -> Result<String, String> {
        let full = r.name.fully_qualified_name(ns);
        if let Some(name) = self.made.get(&full) {
            return Ok(name.clone());
        }
        if self.stack.contains(&full) {
            let name = full.fullname(None);
            return Err(format!("recursive Avro schemas have no Parquet form: {name} contains itself"));
        }
        let name = self.struct_names.reserve(hint.unwrap_or(&r.name.name), None);
        let slot = self.structs.len();
        self.structs.push(None);
        self.stack.push(full.clone());
        let mut idents = FieldNames::default();
        let mut items = Vec::new();
        for f in &r.fields {
            let shown = comment_text(&f.name);
            if matches!(f.schema, Schema::Null) {
                items.push(Item::Omitted(format!("Avro: `{shown}` is left out: a `null` field has no column")));
                continue;
            }
            let mut cx = FieldCx::default();
            let ty = self.type_of(&f.schema, &full.namespace, &f.name, depth + 1, &mut cx)?;
            let (ident, unraw) = idents.ident(&f.name);
            let mut attrs = FieldAttrs::default();
            if unraw != f.name {
                attrs.rename = Some(f.name.clone());
            }
            let mut notes = std::mem::take(&mut cx.notes);
            cx.finish(&mut attrs, &mut notes);
            let doc = with_notes(vec![format!("Avro: `{shown}`")], doc_lines(&f.doc));
            items.push(Item::Field(FieldDef { ident, doc: with_notes(doc, notes), ty, attrs }));
        }
        self.stack.pop();
        if !items.iter().any(|i| matches!(i, Item::Field(_))) {
            let name = full.fullname(None);
            return Err(format!("record {name} has no non-null field: Parquet has no empty groups"));
        }
        let doc = with_notes(vec![format!("Avro record `{}`.", comment_text(&full.fullname(None)))], doc_lines(&r.doc));
        if let Some(s) = self.structs.get_mut(slot) {
            *s = Some(StructDef { name: name.clone(), rename: None, doc, items });
        }
        self.made.insert(full, name.clone());
        Ok(name)
    }

    /// The unit enum of Avro enum `e`.
    fn enumeration(&mut self, e: &'s EnumSchema, ns: &Namespace) -> String {
        let full = e.name.fully_qualified_name(ns);
        if let Some(name) = self.made.get(&full) {
            return name.clone();
        }
        let name = self.struct_names.reserve(&e.name.name, None);
        let variants = enum_variants(&e.symbols);
        let doc = with_notes(vec![format!("Avro enum `{}`.", comment_text(&full.fullname(None)))], doc_lines(&e.doc));
        // parquet-avro writes an Avro enum's column annotated ENUM.
        self.enums.push(EnumDef { name: name.clone(), doc, annotated_enum: true, variants });
        self.made.insert(full, name.clone());
        name
    }

    fn lookup(&self, name: &Name, ns: &Namespace) -> Result<(&'s Schema, Namespace), String> {
        let full = name.fully_qualified_name(ns);
        match self.names.get(&full) {
            Some(schema) => Ok((*schema, full.namespace)),
            None => Err(format!("unknown Avro type {}", full.fullname(None))),
        }
    }

    /// The Rust type of `schema`, for a field (or element, value) `hint`.
    fn type_of(
        &mut self,
        schema: &'s Schema,
        ns: &Namespace,
        hint: &str,
        depth: usize,
        cx: &mut FieldCx,
    ) -> Result<RustType, String> {
        if depth > MAX_DEPTH {
            return Err(format!("the Avro schema nests deeper than {MAX_DEPTH} levels"));
        }
        let scalar = |s: Scalar| Ok(RustType::Scalar(s));
        // A time type: its unit, and the notes of what it does not keep.
        let timed = |cx: &mut FieldCx, notes: &[String], unit: TimeUnit, s: Scalar| {
            cx.notes.extend_from_slice(notes);
            cx.units.push(unit);
            Ok(RustType::Scalar(s))
        };
        match schema {
            Schema::Null => Err("an array of nulls, or a union of only nulls, has no Parquet form".to_owned()),
            Schema::Boolean => scalar(Scalar::Bool),
            Schema::Int => scalar(Scalar::I32),
            Schema::Long => scalar(Scalar::I64),
            Schema::Float => scalar(Scalar::F32),
            Schema::Double => scalar(Scalar::F64),
            Schema::Bytes => scalar(Scalar::Bytes),
            Schema::String => scalar(Scalar::String),
            Schema::Enum(e) => Ok(RustType::Enum(self.enumeration(e, ns))),
            Schema::Fixed(f) => scalar(common::bytes(Some(f.size), cx)),
            Schema::Decimal(d) => {
                let (physical, size) = match d.inner.as_ref() {
                    Schema::Bytes => (DecimalPhysical::Binary, None),
                    Schema::Fixed(f) => (DecimalPhysical::Fixed, Some(f.size)),
                    Schema::Ref { name } => match self.lookup(name, ns)?.0 {
                        Schema::Fixed(f) => (DecimalPhysical::Fixed, Some(f.size)),
                        other => return Err(format!("decimal on {other:?}: expected bytes or fixed")),
                    },
                    other => return Err(format!("decimal on {other:?}: expected bytes or fixed")),
                };
                let precision = u32::try_from(d.precision).map_err(|e| e.to_string())?;
                let scale = u32::try_from(d.scale).map_err(|e| e.to_string())?;
                common::decimal(precision, scale, physical, size, cx)
            }
            Schema::BigDecimal => {
                cx.notes.push(
                    "Avro big-decimal: stored as bytes (the unscaled value and the scale), as parquet-avro does."
                        .to_owned(),
                );
                scalar(Scalar::Bytes)
            }
            Schema::Uuid => {
                cx.notes.push("Avro uuid: stored as its text, as parquet-avro does by default.".to_owned());
                scalar(Scalar::String)
            }
            Schema::Date => scalar(Scalar::Date),
            Schema::TimeMillis => timed(cx, &[time_note("time-millis")], TimeUnit::Millis, Scalar::Time),
            Schema::TimeMicros => timed(cx, &[time_note("time-micros")], TimeUnit::Micros, Scalar::Time),
            Schema::TimestampMillis => timed(cx, &[], TimeUnit::Millis, Scalar::UtcTimestamp),
            Schema::TimestampMicros => timed(cx, &[], TimeUnit::Micros, Scalar::UtcTimestamp),
            Schema::TimestampNanos => {
                timed(cx, &[nanos_note("timestamp-nanos")], TimeUnit::Nanos, Scalar::UtcTimestamp)
            }
            Schema::LocalTimestampMillis => {
                timed(cx, &[local_note("local-timestamp-millis")], TimeUnit::Millis, Scalar::LocalTimestamp)
            }
            Schema::LocalTimestampMicros => {
                timed(cx, &[local_note("local-timestamp-micros")], TimeUnit::Micros, Scalar::LocalTimestamp)
            }
            Schema::LocalTimestampNanos => {
                let notes = [local_note("local-timestamp-nanos"), nanos_note("local-timestamp-nanos")];
                timed(cx, &notes, TimeUnit::Nanos, Scalar::LocalTimestamp)
            }
            Schema::Duration => {
                cx.notes.push(
                    "Avro duration: its 12 bytes (months, days, milliseconds, little-endian), as parquet-avro \
                     stores them."
                        .to_owned(),
                );
                scalar(Scalar::FixedBytes(12))
            }
            Schema::Ref { name } => {
                let (target, inner_ns) = self.lookup(name, ns)?;
                self.type_of(target, &inner_ns, hint, depth, cx)
            }
            Schema::Record(r) => Ok(RustType::Struct(self.record(r, ns, None, depth)?)),
            Schema::Array(a) => {
                cx.layouts.push(match self.layout {
                    ListLayout::ThreeLevel => None,
                    other => Some(other),
                });
                let element = match a.items.as_ref() {
                    Schema::Union(u) => {
                        // The old layouts hold elements in the repeated node itself: never null.
                        let nullable = self.layout == ListLayout::ThreeLevel;
                        self.union(u, ns, hint, depth + 1, cx, Site { nullable, element: true })?
                    }
                    items => self.type_of(items, ns, hint, depth + 1, cx)?,
                };
                Ok(vec_of(element, cx))
            }
            Schema::Map(m) => {
                if matches!(m.types.as_ref(), Schema::Null) {
                    cx.notes.push("A map of nulls, stored as a key-only MAP: read as the list of its keys.".to_owned());
                    return Ok(RustType::Vec(Box::new(RustType::Scalar(Scalar::String))));
                }
                let value = self.type_of(&m.types, ns, &format!("{hint}Value"), depth + 1, cx)?;
                Ok(RustType::Map(Box::new(RustType::Scalar(Scalar::String)), Box::new(value)))
            }
            Schema::Union(u) => self.union(u, ns, hint, depth, cx, Site { nullable: true, element: false }),
        }
    }

    /// A union: `Option<T>` for `null` and one type, else a struct of
    /// optional members, at `site`.
    fn union(
        &mut self,
        u: &'s UnionSchema,
        ns: &Namespace,
        hint: &str,
        depth: usize,
        cx: &mut FieldCx,
        site: Site,
    ) -> Result<RustType, String> {
        let nullable = site.nullable;
        let variants = u.variants();
        let has_null = variants.iter().any(|s| matches!(s, Schema::Null));
        let branches: Vec<&'s Schema> = variants.iter().filter(|s| !matches!(s, Schema::Null)).collect();
        let wrap = |t: RustType| if has_null && nullable { RustType::Option(Box::new(t)) } else { t };
        if has_null && !nullable {
            cx.notes.push("Items are nullable in Avro, but a two-level list has no null elements.".to_owned());
        }
        match branches.as_slice() {
            [] => Err("a union of only nulls has no Parquet form".to_owned()),
            [only] => {
                let inner = self.type_of(only, ns, hint, depth + 1, cx)?;
                Ok(wrap(inner))
            }
            _ => {
                let singular = site.element.then(|| self.struct_names.take_singular(hint, "Union")).flatten();
                let name = match singular {
                    Some(name) => name,
                    None => self.struct_names.reserve(&format!("{}Union", camel_case(hint)), None),
                };
                let slot = self.structs.len();
                self.structs.push(None);
                let mut items = Vec::new();
                for (i, branch) in branches.iter().enumerate() {
                    let member = format!("member{i}");
                    let ty = self.type_of(branch, ns, &format!("{hint}Member{i}"), depth + 1, cx)?;
                    let ty = match ty {
                        t @ RustType::Option(_) => t,
                        t => RustType::Option(Box::new(t)),
                    };
                    let doc = vec![format!("Union branch `{}`.", comment_text(&branch_name(branch)))];
                    items.push(Item::Field(FieldDef { ident: member, doc, ty, attrs: FieldAttrs::default() }));
                }
                let doc = vec![
                    format!("The Avro union of `{}`: one member is set.", comment_text(hint)),
                    String::new(),
                    "Stored as parquet-avro stores unions: a group of optional `memberN` fields.".to_owned(),
                ];
                if let Some(s) = self.structs.get_mut(slot) {
                    *s = Some(StructDef { name: name.clone(), rename: None, doc, items });
                }
                Ok(wrap(RustType::Struct(name)))
            }
        }
    }
}

/// A branch's type name, for docs.
fn branch_name(schema: &Schema) -> String {
    match schema {
        Schema::Record(r) => r.name.fullname(None),
        Schema::Enum(e) => e.name.fullname(None),
        Schema::Fixed(f) => f.name.fullname(None),
        Schema::Ref { name } => name.fullname(None),
        Schema::Array(_) => "array".to_owned(),
        Schema::Map(_) => "map".to_owned(),
        other => format!("{:?}", apache_avro::schema::SchemaKind::from(other)).to_lowercase(),
    }
}
