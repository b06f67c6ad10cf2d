//! The intermediate model between a schema front-end (a Parquet schema or
//! an Avro schema) and the renderer: structs, enums, fields, Rust types and
//! attributes.
//! Front-ends decide *what* to generate; the renderer only decides how the
//! text is laid out.

/// Everything one generated file holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// The structs, the record (root) first, then nested groups in the order
    /// they are first met (depth first).
    pub structs: Vec<StructDef>,
    /// The unit-only enums (Avro enums), in the order they are first met.
    pub enums: Vec<EnumDef>,
}

/// A `#[derive(ParquetType)]` enum of unit variants: a STRING (or ENUM)
/// column holding the variant's symbol.
#[derive(Clone, Debug, PartialEq)]
pub struct EnumDef {
    /// The Rust name, unique in the file.
    pub name: String,
    /// Doc comment lines.
    pub doc: Vec<String>,
    /// `annotation = "enum"`: its column is annotated ENUM (as parquet-avro
    /// writes Avro enums), not STRING.
    pub annotated_enum: bool,
    /// The variants: (identifier, `rename` when the symbol differs).
    pub variants: Vec<(String, Option<String>)>,
}

/// One `#[derive(ParquetType)]` struct.
#[derive(Clone, Debug, PartialEq)]
pub struct StructDef {
    /// The Rust name, unique in the file.
    pub name: String,
    /// `#[parquet(rename = "...")]` on the struct: the message name of a
    /// record, when it differs from `name`.
    pub rename: Option<String>,
    /// Doc comment lines.
    pub doc: Vec<String>,
    /// The fields, and the comments left where a column could not be kept.
    pub items: Vec<Item>,
}

/// A line of a struct body.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// A field.
    Field(FieldDef),
    /// A column left out, with why (a `//` comment).
    Omitted(String),
}

/// A field of a struct.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldDef {
    /// The identifier as written (`r#type` for a keyword).
    pub ident: String,
    /// Doc comment lines.
    pub doc: Vec<String>,
    /// The field's type.
    pub ty: RustType,
    /// Its `#[parquet(...)]` attributes.
    pub attrs: FieldAttrs,
}

/// A field's `#[parquet(...)]` settings.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FieldAttrs {
    /// `rename = "..."`: the column name, when the identifier differs.
    pub rename: Option<String>,
    /// `skip`: the column is documented but not read (no type reads it).
    pub skip: bool,
    /// `list = "..."`: the layout lists in this field are written with,
    /// when not the default three-level one.
    pub list: Option<ListLayout>,
    /// `timestamp = "..."`: the unit of times and timestamps.
    pub timestamp: Option<TimeUnit>,
    /// `decimal(...)`: DECIMAL precision, scale and physical type.
    pub decimal: Option<DecimalAttr>,
    /// `field_id = N`.
    pub field_id: Option<i32>,
    /// `json`: the field's text columns are annotated JSON.
    pub json: bool,
}

pub use magnolify_parquet::{DecimalPhysical, ListLayout, TimeUnit};

/// `decimal(precision = P, scale = S, physical = "...")`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DecimalAttr {
    /// Total digits.
    pub precision: u32,
    /// Digits after the point.
    pub scale: u32,
    /// The physical type; [`DecimalPhysical::Auto`] when it is the one the
    /// precision implies (no `physical` key).
    pub physical: DecimalPhysical,
}

/// A Rust type the runtime can read.
#[derive(Clone, Debug, PartialEq)]
pub enum RustType {
    /// A leaf value.
    Scalar(Scalar),
    /// A generated struct, by name.
    Struct(String),
    /// A generated enum, by name.
    Enum(String),
    /// `Option<T>`.
    Option(Box<RustType>),
    /// `Vec<T>`.
    Vec(Box<RustType>),
    /// `std::collections::BTreeMap<K, V>`.
    Map(Box<RustType>, Box<RustType>),
}

/// The leaf types of the runtime.
#[derive(Clone, Debug, PartialEq)]
pub enum Scalar {
    /// `bool`.
    Bool,
    /// `i8`.
    I8,
    /// `i16`.
    I16,
    /// `i32`.
    I32,
    /// `i64`.
    I64,
    /// `u8`.
    U8,
    /// `u16`.
    U16,
    /// `u32`.
    U32,
    /// `u64`.
    U64,
    /// `f32`.
    F32,
    /// `f64`.
    F64,
    /// `half::f16`.
    F16,
    /// `String`.
    String,
    /// `Vec<u8>`.
    Bytes,
    /// `[u8; N]`.
    FixedBytes(usize),
    /// `uuid::Uuid`.
    Uuid,
    /// `chrono::NaiveDate`.
    Date,
    /// `chrono::NaiveTime`.
    Time,
    /// `chrono::NaiveDateTime`.
    LocalTimestamp,
    /// `chrono::DateTime<chrono::Utc>`.
    UtcTimestamp,
    /// `rust_decimal::Decimal`.
    Decimal,
    /// `bigdecimal::BigDecimal`.
    BigDecimal,
}

impl Scalar {
    /// The type as written in generated code: fully qualified, so the file
    /// needs no `use` beyond the derive's.
    pub fn path(&self) -> String {
        let s = match self {
            Scalar::Bool => "bool",
            Scalar::I8 => "i8",
            Scalar::I16 => "i16",
            Scalar::I32 => "i32",
            Scalar::I64 => "i64",
            Scalar::U8 => "u8",
            Scalar::U16 => "u16",
            Scalar::U32 => "u32",
            Scalar::U64 => "u64",
            Scalar::F32 => "f32",
            Scalar::F64 => "f64",
            Scalar::F16 => "half::f16",
            Scalar::String => "String",
            Scalar::Bytes => "Vec<u8>",
            Scalar::FixedBytes(n) => return format!("[u8; {n}]"),
            Scalar::Uuid => "uuid::Uuid",
            Scalar::Date => "chrono::NaiveDate",
            Scalar::Time => "chrono::NaiveTime",
            Scalar::LocalTimestamp => "chrono::NaiveDateTime",
            Scalar::UtcTimestamp => "chrono::DateTime<chrono::Utc>",
            Scalar::Decimal => "rust_decimal::Decimal",
            Scalar::BigDecimal => "bigdecimal::BigDecimal",
        };
        s.to_owned()
    }

    /// Whether the type can be a map key (`Ord`): every leaf but the floats.
    pub fn is_ord(&self) -> bool {
        !matches!(self, Scalar::F32 | Scalar::F64 | Scalar::F16)
    }
}

impl RustType {
    /// The type with the struct `from` named `to` wherever it appears.
    pub fn rename_struct(&mut self, from: &str, to: &str) {
        match self {
            RustType::Struct(name) if name == from => *name = to.to_owned(),
            RustType::Scalar(_) | RustType::Struct(_) | RustType::Enum(_) => {}
            RustType::Option(t) | RustType::Vec(t) => t.rename_struct(from, to),
            RustType::Map(k, v) => {
                k.rename_struct(from, to);
                v.rename_struct(from, to);
            }
        }
    }

    /// Every scalar in the type, outermost first.
    pub fn scalars(&self) -> Vec<&Scalar> {
        match self {
            RustType::Scalar(s) => vec![s],
            RustType::Struct(_) | RustType::Enum(_) => Vec::new(),
            RustType::Option(t) | RustType::Vec(t) => t.scalars(),
            RustType::Map(k, v) => {
                let mut out = k.scalars();
                out.extend(v.scalars());
                out
            }
        }
    }
}
