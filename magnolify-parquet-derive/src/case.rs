//! `rename_all` rules: the case conventions of serde, applied to Rust field
//! names (snake_case) and variant names (PascalCase).

/// A case convention names are converted to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenameRule {
    /// `lowercase`
    Lower,
    /// `UPPERCASE`
    Upper,
    /// `PascalCase`
    Pascal,
    /// `camelCase`
    Camel,
    /// `snake_case`
    Snake,
    /// `SCREAMING_SNAKE_CASE`
    ScreamingSnake,
    /// `kebab-case`
    Kebab,
    /// `SCREAMING-KEBAB-CASE`
    ScreamingKebab,
}

impl RenameRule {
    /// Every rule with the spelling the attribute takes.
    pub const ALL: [(&'static str, RenameRule); 8] = [
        ("lowercase", RenameRule::Lower),
        ("UPPERCASE", RenameRule::Upper),
        ("PascalCase", RenameRule::Pascal),
        ("camelCase", RenameRule::Camel),
        ("snake_case", RenameRule::Snake),
        ("SCREAMING_SNAKE_CASE", RenameRule::ScreamingSnake),
        ("kebab-case", RenameRule::Kebab),
        ("SCREAMING-KEBAB-CASE", RenameRule::ScreamingKebab),
    ];

    /// Converts a snake_case field name.
    pub fn apply_to_field(self, field: &str) -> String {
        match self {
            RenameRule::Lower | RenameRule::Snake => field.to_owned(),
            RenameRule::Upper | RenameRule::ScreamingSnake => field.to_ascii_uppercase(),
            RenameRule::Pascal => pascal_from_snake(field),
            RenameRule::Camel => lower_first(&pascal_from_snake(field)),
            RenameRule::Kebab => field.replace('_', "-"),
            RenameRule::ScreamingKebab => field.to_ascii_uppercase().replace('_', "-"),
        }
    }

    /// Converts a PascalCase variant name.
    pub fn apply_to_variant(self, variant: &str) -> String {
        match self {
            RenameRule::Pascal => variant.to_owned(),
            RenameRule::Lower => variant.to_ascii_lowercase(),
            RenameRule::Upper => variant.to_ascii_uppercase(),
            RenameRule::Camel => lower_first(variant),
            RenameRule::Snake => snake_from_pascal(variant),
            RenameRule::ScreamingSnake => snake_from_pascal(variant).to_ascii_uppercase(),
            RenameRule::Kebab => snake_from_pascal(variant).replace('_', "-"),
            RenameRule::ScreamingKebab => snake_from_pascal(variant).to_ascii_uppercase().replace('_', "-"),
        }
    }
}

/// `foo_bar` → `FooBar`: each `_` is dropped and the letter after it raised.
fn pascal_from_snake(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut raise = true;
    for c in s.chars() {
        if c == '_' {
            raise = true;
        } else if raise {
            out.extend(c.to_uppercase());
            raise = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// `FooBar` → `foo_bar`: an `_` before each upper-case letter but the first.
fn snake_from_pascal(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 4);
    for (i, c) in s.chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            out.push('_');
        }
        out.extend(c.to_lowercase());
    }
    out
}

fn lower_first(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::RenameRule::{self, *};

    /// Each rule on a field name (`user_id`) and on a variant name (`VeryHigh`).
    #[test]
    fn fields_and_variants() {
        let cases: [(RenameRule, &str, &str); 8] = [
            (Lower, "user_id", "veryhigh"),
            (Upper, "USER_ID", "VERYHIGH"),
            (Pascal, "UserId", "VeryHigh"),
            (Camel, "userId", "veryHigh"),
            (Snake, "user_id", "very_high"),
            (ScreamingSnake, "USER_ID", "VERY_HIGH"),
            (Kebab, "user-id", "very-high"),
            (ScreamingKebab, "USER-ID", "VERY-HIGH"),
        ];
        for (rule, field, variant) in cases {
            assert_eq!(rule.apply_to_field("user_id"), field, "{rule:?}");
            assert_eq!(rule.apply_to_variant("VeryHigh"), variant, "{rule:?}");
        }
        assert_eq!(Camel.apply_to_field("x"), "x");
    }
}
