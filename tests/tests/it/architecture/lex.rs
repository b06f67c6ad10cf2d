//! Just enough of Rust's lexer for the import graph: identifiers, `::` and
//! single punctuation, with comments, string and character literals,
//! lifetimes and numbers left out (a `crate::` in a message or a doc
//! comment is not an import).

/// One token of a source file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    /// An identifier or keyword (`$crate` reads as `crate`, `r#type` as `type`).
    Ident(String),
    /// `::`
    Sep,
    /// Any other punctuation character.
    Punct(char),
}

/// The tokens of `text`.
pub fn tokens(text: &str) -> Vec<Tok> {
    let c: Vec<char> = text.chars().collect();
    let at = |i: usize| c.get(i).copied().unwrap_or('\0');
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        if ch.is_whitespace() {
            i += 1;
        } else if ch == '/' && at(i + 1) == '/' {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && at(i + 1) == '*' {
            // Block comments nest.
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if ch == '"' {
            i = skip_quoted(&c, i + 1, '"');
        } else if (ch == 'r' || ch == 'b') && raw_string_start(&c, i).is_some() {
            let (hashes, open) = raw_string_start(&c, i).unwrap_or_default();
            i = skip_raw_string(&c, open + 1, hashes);
        } else if ch == 'b' && at(i + 1) == '"' {
            i = skip_quoted(&c, i + 2, '"');
        } else if ch == 'b' && at(i + 1) == '\'' {
            i = skip_quoted(&c, i + 2, '\'');
        } else if ch == '\'' {
            // A character literal (`'x'`, `'\n'`) or a lifetime (`'a`).
            if at(i + 1) == '\\' || at(i + 2) == '\'' {
                i = skip_quoted(&c, i + 1, '\'');
            } else {
                i += 1;
                while i < c.len() && is_ident_char(c[i]) {
                    i += 1;
                }
            }
        } else if ch.is_ascii_digit() {
            while i < c.len() && is_ident_char(c[i]) {
                i += 1;
            }
        } else if is_ident_char(ch) || (ch == '$' && is_ident_char(at(i + 1))) {
            if ch == '$' {
                i += 1;
            }
            if c[i] == 'r' && at(i + 1) == '#' && is_ident_char(at(i + 2)) {
                i += 2;
            }
            let start = i;
            while i < c.len() && is_ident_char(c[i]) {
                i += 1;
            }
            out.push(Tok::Ident(c[start..i].iter().collect()));
        } else if ch == ':' && at(i + 1) == ':' {
            out.push(Tok::Sep);
            i += 2;
        } else {
            out.push(Tok::Punct(ch));
            i += 1;
        }
    }
    out
}

fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The index after the closing `quote` of a string or character literal
/// whose body starts at `i` (a backslash escapes the next character).
fn skip_quoted(c: &[char], mut i: usize, quote: char) -> usize {
    while i < c.len() {
        match c[i] {
            '\\' => i += 2,
            q if q == quote => return i + 1,
            _ => i += 1,
        }
    }
    i
}

/// For `r"`, `r#"`, `br##"` at `i`: the number of `#` and the index of the quote.
fn raw_string_start(c: &[char], i: usize) -> Option<(usize, usize)> {
    let mut j = i;
    if c.get(j) == Some(&'b') {
        j += 1;
    }
    if c.get(j) != Some(&'r') {
        return None;
    }
    j += 1;
    let hashes = c[j..].iter().take_while(|&&h| h == '#').count();
    (c.get(j + hashes) == Some(&'"')).then_some((hashes, j + hashes))
}

fn skip_raw_string(c: &[char], mut i: usize, hashes: usize) -> usize {
    while i < c.len() {
        if c[i] == '"' && c[i + 1..].iter().take(hashes).filter(|&&h| h == '#').count() == hashes {
            return i + 1 + hashes;
        }
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::{tokens, Tok};

    fn idents(text: &str) -> Vec<String> {
        tokens(text)
            .into_iter()
            .filter_map(|t| match t {
                Tok::Ident(s) => Some(s),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn literals_comments_and_lifetimes_are_not_paths() {
        let text = r##"
            // crate::a
            /* crate::b /* nested */ crate::c */
            let s = "crate::d \" crate::e";
            let r = r#"crate::f"#;
            let ch = '"'; let q = '\''; fn f<'a>(x: &'a u8) {}
            $crate::g::h
        "##;
        assert_eq!(
            idents(text),
            ["let", "s", "let", "r", "let", "ch", "let", "q", "fn", "f", "x", "u8", "crate", "g", "h"]
        );
    }
}
