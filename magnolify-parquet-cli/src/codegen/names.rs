//! Rust identifiers from Parquet names: snake_case fields, UpperCamelCase
//! structs, keywords and names that are not identifiers at all, and
//! uniqueness among siblings.
//!
//! Identifiers are kept ASCII: rustc lints non-ASCII identifiers that look
//! alike (`confusable_idents`, `uncommon_codepoints`), and generated code
//! must compile without warnings. The original name is never lost: the
//! caller adds `#[parquet(rename = "...")]` whenever the identifier differs.

use std::collections::HashSet;

use super::singular::singular;

/// Keywords that a raw identifier (`r#type`) makes usable as a field name;
/// the derive strips `r#`, so `r#type` still names the column `type`.
/// Reserved words of every edition are included (`gen` is reserved in 2024),
/// so the code compiles whatever edition the user's crate is on.
const RAW_KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "do", "dyn", "else", "enum",
    "extern", "false", "final", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "macro", "match", "mod", "move",
    "mut", "override", "priv", "pub", "ref", "return", "static", "struct", "trait", "true", "try", "type", "typeof",
    "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
];

/// Keywords that cannot be raw identifiers: these get a trailing `_`.
const NON_RAW_KEYWORDS: &[&str] = &["self", "Self", "super", "crate"];

/// Type names a generated struct must not take: the generated code names
/// `Option`, `Vec` and `String` unqualified and imports `ParquetType`, and
/// `Self` is a keyword. The rest are prelude names users would trip over.
const RESERVED_TYPE_NAMES: &[&str] = &[
    "Self",
    "Option",
    "Vec",
    "String",
    "Box",
    "Result",
    "Some",
    "None",
    "Ok",
    "Err",
    "ParquetType",
    "Debug",
    "Clone",
    "PartialEq",
    "Default",
    "Copy",
    "Eq",
    "Ord",
    "PartialOrd",
    "Hash",
    "Send",
    "Sync",
    "Sized",
    "Drop",
    "Fn",
    "FnMut",
    "FnOnce",
    "Iterator",
    "IntoIterator",
    "ToString",
    "ToOwned",
    "From",
    "Into",
];

/// Splits a name into ASCII alphanumeric words: at any other character, and
/// at case changes (`userId` → `user`, `Id`; `HTTPServer` → `HTTP`, `Server`).
/// Digits stay with the word before them (`utf8Name` → `utf8`, `Name`).
pub fn words(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut out = Vec::new();
    let mut word = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_ascii_alphanumeric() {
            if !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            continue;
        }
        if c.is_ascii_uppercase() && !word.is_empty() {
            let prev = chars[i - 1];
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_ascii_lowercase());
            // `aB` starts a word; so does the `S` of `HTTPServer` (upper, then lower).
            if prev.is_ascii_lowercase() || prev.is_ascii_digit() || (prev.is_ascii_uppercase() && next_lower) {
                out.push(std::mem::take(&mut word));
            }
        }
        word.push(c);
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// Whether rustc's `non_snake_case` lint accepts `s` as it is: lower-case
/// ASCII, digits and `_`, not starting with a digit, and no `__` once the
/// leading and trailing underscores are trimmed.
fn is_snake_ident(s: &str) -> bool {
    let inner = s.trim_matches('_');
    !inner.is_empty()
        && s.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        && !s.starts_with(|c: char| c.is_ascii_digit())
        && !inner.contains("__")
}

/// Whether rustc's `non_camel_case_types` lint accepts `s` as it is: ASCII
/// letters and digits, starting with an upper-case letter.
fn is_camel_ident(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_uppercase()) && s.chars().all(|c| c.is_ascii_alphanumeric())
}

/// The snake_case field name for a Parquet name, without keyword handling.
/// Names that are already snake_case are kept; others are rebuilt from their
/// words; a leading digit gets a `_` in front (`1st` → `_1st`).
pub fn snake_case(name: &str) -> String {
    if is_snake_ident(name) {
        return name.to_owned();
    }
    let joined = words(name).iter().map(|w| w.to_ascii_lowercase()).collect::<Vec<_>>().join("_");
    if joined.is_empty() {
        "field".to_owned()
    } else if joined.starts_with(|c: char| c.is_ascii_digit()) {
        format!("_{joined}")
    } else {
        joined
    }
}

/// The UpperCamelCase struct name for a Parquet name. Names that are
/// already UpperCamelCase are kept (`HTTPLog` stays); others are rebuilt
/// from their words; a leading digit gets `Group` in front.
pub fn camel_case(name: &str) -> String {
    if is_camel_ident(name) {
        return name.to_owned();
    }
    let mut out = String::new();
    for w in words(name) {
        let mut chars = w.chars();
        if let Some(first) = chars.next() {
            out.push(first.to_ascii_uppercase());
            out.extend(chars.map(|c| c.to_ascii_lowercase()));
        }
    }
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        format!("Group{out}")
    } else {
        out
    }
}

/// Field identifiers of one struct, unique among themselves.
#[derive(Default)]
pub struct FieldNames {
    used: HashSet<String>,
}

impl FieldNames {
    /// The identifier for the Parquet field `name`, as written in Rust
    /// (`r#type` for a keyword), and its form without `r#`: the name the
    /// derive gives the column, to compare with `name` for a rename.
    pub fn ident(&mut self, name: &str) -> (String, String) {
        let mut base = snake_case(name);
        if NON_RAW_KEYWORDS.contains(&base.as_str()) {
            base.push('_');
        }
        // `self_` collides as `self_2`, not `self__2` (which `non_snake_case` rejects).
        let stem = base.trim_end_matches('_').to_owned();
        let unique = unique(&base, &self.used, |n| format!("{stem}_{n}"));
        self.used.insert(unique.clone());
        let written = if RAW_KEYWORDS.contains(&unique.as_str()) { format!("r#{unique}") } else { unique.clone() };
        (written, unique)
    }
}

/// Struct names of one generated file, unique among themselves and apart
/// from the names the generated code relies on.
#[derive(Default)]
pub struct StructNames {
    used: HashSet<String>,
    /// The names of the file's other structs, known before any is made
    /// (from a first pass over the schema): an element struct takes a
    /// singular only when no other struct is named after it.
    claimed: HashSet<String>,
    /// The names [`StructNames::reserve`] was asked for, for the next
    /// pass's `claimed`.
    asked: HashSet<String>,
}

impl StructNames {
    /// Names that element structs leave to others: the `asked` names of a
    /// first pass over the same schema ([`StructNames::asked`]).
    pub fn claiming(claimed: HashSet<String>) -> Self {
        StructNames { claimed, ..StructNames::default() }
    }

    /// The names asked for so far (before any uniqueness suffix), in
    /// UpperCamelCase: those of every struct but the element structs that
    /// took a singular.
    pub fn asked(self) -> HashSet<String> {
        self.asked
    }

    /// Whether `name` can be taken as it is: unused, not reserved, and not
    /// the name of another struct of the file.
    pub fn is_free(&self, name: &str) -> bool {
        !self.used.contains(name) && !RESERVED_TYPE_NAMES.contains(&name) && !self.claimed.contains(name)
    }

    /// A fresh struct name from `name` (already UpperCamelCase or not).
    /// Taken names fall back first on the path: `parent` (the enclosing
    /// struct's name) in front, so that a group `option` inside `Inner` is
    /// `InnerOption`; only when that is taken too does a number follow.
    pub fn reserve(&mut self, name: &str, parent: Option<&str>) -> String {
        let base = camel_case(name);
        self.asked.insert(base.clone());
        let taken = |n: &str| self.used.contains(n) || RESERVED_TYPE_NAMES.contains(&n);
        let scoped = parent.map(|p| format!("{p}{base}"));
        let chosen = match scoped {
            _ if !taken(&base) => base,
            Some(scoped) if !taken(&scoped) => scoped,
            scoped => {
                let stem = scoped.unwrap_or(base);
                (2..).map(|n| format!("{stem}{n}")).find(|c| !taken(c)).unwrap_or_default()
            }
        };
        self.used.insert(chosen.clone());
        chosen
    }

    /// The name of the struct of the elements of the list `list`: its
    /// singular (`stops` → `Stop`) when [free](StructNames::is_free), else
    /// `<List>Element` (`history` → `HistoryElement`), made unique as
    /// [`StructNames::reserve`] does.
    pub fn element(&mut self, list: &str, parent: Option<&str>) -> String {
        match self.take_singular(list, "") {
            Some(one) => one,
            None => self.reserve(&format!("{}Element", camel_case(list)), parent),
        }
    }

    /// The singular of `list` in UpperCamelCase, then `suffix`
    /// (`payments`, `Union` → `PaymentUnion`), taken when it is
    /// [free](StructNames::is_free); `None` when not, or when `list` has no
    /// singular.
    pub fn take_singular(&mut self, list: &str, suffix: &str) -> Option<String> {
        let name = format!("{}{suffix}", camel_case(&singular(list)?));
        if !self.is_free(&name) {
            return None;
        }
        // Not in `asked`: a singular yields to every other name.
        self.used.insert(name.clone());
        Some(name)
    }
}

/// Variant identifiers of one enum, unique among themselves.
#[derive(Default)]
pub struct VariantNames {
    used: HashSet<String>,
}

impl VariantNames {
    /// The identifier of the variant whose symbol is `symbol`, in
    /// UpperCamelCase as rustc and clippy want it (`IN_TRANSIT` →
    /// `InTransit`, `OPEN` → `Open`: clippy's `upper_case_acronyms` warns
    /// on all-capital names); the caller renames it when it differs.
    pub fn ident(&mut self, symbol: &str) -> String {
        let letters = symbol.chars().filter(char::is_ascii_alphabetic).count();
        let kept = is_camel_ident(symbol) && (letters <= 1 || symbol.chars().any(|c| c.is_ascii_lowercase()));
        let base = if kept {
            symbol.to_owned()
        } else {
            let mut out = String::new();
            for w in words(symbol) {
                let mut chars = w.chars();
                out.extend(chars.next().map(|c| c.to_ascii_uppercase()));
                out.extend(chars.map(|c| c.to_ascii_lowercase()));
            }
            match out {
                o if o.is_empty() => "Variant".to_owned(),
                o if o.starts_with(|c: char| c.is_ascii_digit()) => format!("V{o}"),
                o => o,
            }
        };
        // `Self` is the one keyword in UpperCamelCase.
        let base = if base == "Self" { "Self_".to_owned() } else { base };
        let stem = base.trim_end_matches('_').to_owned();
        let unique = unique(&base, &self.used, |n| format!("{stem}{n}"));
        self.used.insert(unique.clone());
        unique
    }
}

/// The variants of a unit enum of `symbols`: each one's identifier, and
/// its `rename` when the identifier differs from the symbol.
pub fn enum_variants(symbols: &[String]) -> Vec<(String, Option<String>)> {
    let mut names = VariantNames::default();
    symbols
        .iter()
        .map(|symbol| {
            let ident = names.ident(symbol);
            let rename = (ident != *symbol).then(|| symbol.clone());
            (ident, rename)
        })
        .collect()
}

/// `base` if unused, else the first of `make(2)`, `make(3)`, ... that is.
fn unique(base: &str, used: &HashSet<String>, make: impl Fn(u32) -> String) -> String {
    if !used.contains(base) {
        return base.to_owned();
    }
    // The set is finite, so some suffix is free; u32 suffices for any schema.
    (2..=u32::MAX).map(make).find(|c| !used.contains(c)).unwrap_or_else(|| base.to_owned())
}

/// Characters never written as they are into generated text: controls
/// (a newline would end a `///` comment), bidirectional overrides (rustc
/// denies them in comments and literals) and invisible separators.
fn hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061C}' | '\u{200B}'..='\u{200F}' | '\u{2028}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{FEFF}'
        )
}

/// `name` for a comment: hidden characters as `\u{..}` escapes.
pub fn comment_text(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        if hidden(c) {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out
}

/// `s` as a Rust string literal, quotes included.
pub fn string_literal(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if hidden(c) => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_words() {
        assert_eq!(words("userId"), ["user", "Id"]);
        assert_eq!(words("HTTPServer"), ["HTTP", "Server"]);
        assert_eq!(words("utf8Name"), ["utf8", "Name"]);
        assert_eq!(words("a.b c-d"), ["a", "b", "c", "d"]);
        assert_eq!(words("prénom"), ["pr", "nom"]);
        assert!(words("__").is_empty());
    }

    #[test]
    fn snake_names() {
        for (name, snake) in [
            ("user_id", "user_id"),
            ("userId", "user_id"),
            ("UserID", "user_id"),
            ("first name", "first_name"),
            ("1st", "_1st"),
            ("a.b", "a_b"),
            ("__index_level_0__", "__index_level_0__"),
            ("a__b", "a_b"),
            ("_", "field"),
            ("日付", "field"),
        ] {
            assert_eq!(snake_case(name), snake, "{name}");
        }
    }

    #[test]
    fn camel_names() {
        for (name, camel) in [
            ("address", "Address"),
            ("HTTPLog", "HTTPLog"),
            ("spark_schema", "SparkSchema"),
            ("line items", "LineItems"),
            ("2d", "Group2d"),
            ("", "Group"),
        ] {
            assert_eq!(camel_case(name), camel, "{name}");
        }
    }

    #[test]
    fn field_idents_handle_keywords_and_collisions() {
        let mut names = FieldNames::default();
        assert_eq!(names.ident("type"), ("r#type".to_owned(), "type".to_owned()));
        assert_eq!(names.ident("self"), ("self_".to_owned(), "self_".to_owned()));
        assert_eq!(names.ident("Self"), ("self_2".to_owned(), "self_2".to_owned()));
        assert_eq!(names.ident("userId"), ("user_id".to_owned(), "user_id".to_owned()));
        assert_eq!(names.ident("user_id"), ("user_id_2".to_owned(), "user_id_2".to_owned()));
        assert_eq!(names.ident("Type"), ("type_2".to_owned(), "type_2".to_owned()));
        assert_eq!(names.ident("crate"), ("crate_".to_owned(), "crate_".to_owned()));
    }

    #[test]
    fn escapes_text() {
        assert_eq!(comment_text("a\nb\u{202e}c"), "a\\u{a}b\\u{202e}c");
        assert_eq!(string_literal("say \"hi\"\\ é\t"), "\"say \\\"hi\\\"\\\\ é\\u{9}\"");
    }

    #[test]
    fn struct_names_are_unique_and_avoid_prelude_names() {
        let mut names = StructNames::default();
        assert_eq!(names.reserve("address", None), "Address");
        assert_eq!(names.reserve("Address", None), "Address2");
        assert_eq!(names.reserve("option", None), "Option2");
        assert_eq!(names.reserve("self", None), "Self2");
        assert_eq!(names.reserve("vec", None), "Vec2");
    }

    #[test]
    fn taken_struct_names_take_their_parent_first() {
        let mut names = StructNames::default();
        assert_eq!(names.reserve("address", Some("Order")), "Address");
        assert_eq!(names.reserve("address", Some("Customer")), "CustomerAddress");
        assert_eq!(names.reserve("option", Some("Inner")), "InnerOption");
        assert_eq!(names.reserve("option", Some("Inner")), "InnerOption2");
        assert_eq!(names.reserve("address", None), "Address2");
    }

    #[test]
    fn element_structs_take_the_singular_when_free() {
        let claimed = ["Stop".to_owned()].into_iter().collect();
        let mut names = StructNames::claiming(claimed);
        assert_eq!(names.element("line_items", None), "LineItem");
        assert_eq!(names.element("categories", None), "Category");
        // Another struct of the file is named `Stop`, and `Option` is reserved.
        assert_eq!(names.element("stops", None), "StopsElement");
        assert_eq!(names.element("options", None), "OptionsElement");
        // No plural; then the singular taken by the first list.
        assert_eq!(names.element("history", None), "HistoryElement");
        assert_eq!(names.element("lineItems", Some("Order")), "LineItemsElement");
        assert_eq!(names.element("line_items", Some("Order")), "OrderLineItemsElement");
        // A singular is never asked for: it yields to the structs named after their own field.
        let asked = names.asked();
        assert!(asked.contains("StopsElement") && !asked.contains("LineItem"), "{asked:?}");
    }

    #[test]
    fn variants_are_upper_camel_case() {
        let mut names = VariantNames::default();
        for (symbol, ident) in [
            ("Done", "Done"),
            ("A", "A"),
            ("OPEN", "Open"),
            ("IN_TRANSIT", "InTransit"),
            ("in_transit", "InTransit2"),
            ("open", "Open2"),
            ("HTTPServer", "HTTPServer"),
            ("Self", "Self_"),
            ("_", "Variant"),
            ("1st", "V1st"),
            ("None", "None"),
        ] {
            assert_eq!(names.ident(symbol), ident, "{symbol}");
        }
    }
}
