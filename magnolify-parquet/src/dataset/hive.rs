//! Hive-style partition directories: `name=value`, with the characters
//! Hive and Spark escape written `%XX`, and nulls written as
//! `__HIVE_DEFAULT_PARTITION__`.

/// The directory value of a null partition value (Hive's, Spark's and pyarrow's).
pub const NULL_PARTITION: &str = "__HIVE_DEFAULT_PARTITION__";

/// Whether Hive and Spark escape `c` in a path segment: the characters
/// with a meaning in paths, globs or URIs, and control characters.
fn escaped(c: char) -> bool {
    matches!(
        c,
        '\u{1}'
            ..='\u{1F}'
                | '"'
                | '#'
                | '%'
                | '\''
                | '*'
                | '/'
                | ':'
                | '='
                | '?'
                | '\\'
                | '\u{7F}'
                | '{'
                | '['
                | ']'
                | '^'
    )
}

/// Appends `text` to `out` as a path segment holds it: every escaped
/// character as `%XX` (its code, two upper-case hex digits), the rest as is.
pub(crate) fn push_escaped(out: &mut String, text: &str) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for c in text.chars() {
        if escaped(c) {
            // Every escaped character is ASCII.
            let code = c as u8;
            out.push('%');
            out.push(HEX[usize::from(code >> 4)] as char);
            out.push(HEX[usize::from(code & 0xF)] as char);
        } else {
            out.push(c);
        }
    }
}

/// `text` as a path segment holds it (see [`push_escaped`]).
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    push_escaped(&mut out, text);
    out
}

/// A path segment's text: each `%XX` (two hex digits) is the byte XX, the
/// rest as is; the bytes are then read as UTF-8. This reads Hive's and
/// Spark's escapes and pyarrow's percent-encoding of UTF-8 alike.
/// `None` when the bytes are not UTF-8.
pub(crate) fn unescape(segment: &str) -> Option<String> {
    let bytes = segment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (bytes[i], bytes.get(i + 1).copied().and_then(hex), bytes.get(i + 2).copied().and_then(hex)) {
            (b'%', Some(high), Some(low)) => {
                out.push((high * 16 + low) as u8);
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

/// Appends the value part of a partition directory's segment (after
/// `name=`): the value escaped, or the null directory's (`None`).
pub(crate) fn push_value(out: &mut String, value: Option<&str>) {
    match value {
        Some(value) => push_escaped(out, value),
        None => out.push_str(NULL_PARTITION),
    }
}

/// The segment `name=value` of a partition directory (`None` value: null).
#[cfg(test)]
fn segment(name: &str, value: Option<&str>) -> String {
    let mut out = escape(name);
    out.push('=');
    push_value(&mut out, value);
    out
}

/// The name and value (`None`: null) of a directory named `name=value`;
/// `None` for another name.
pub(crate) fn parse_segment(segment: &str) -> Option<(String, Option<String>)> {
    let (name, value) = segment.split_once('=')?;
    let name = unescape(name).filter(|n| !n.is_empty())?;
    if value == NULL_PARTITION || value.is_empty() {
        return Some((name, None));
    }
    Some((name, Some(unescape(value)?)))
}

/// Whether a file or directory named `name` is not data, by Spark's rule:
/// hidden (`.…`, which covers Hadoop's `.….crc` checksum files), a marker or
/// work directory (`_SUCCESS`, `_committed_…`, `_temporary`: a `_` name
/// without `=`; `_x=1` is a partition directory), or a copy in progress
/// (`…._COPYING_`). pyarrow skips the same names.
pub(crate) fn is_hidden(name: &str) -> bool {
    let partition = name.contains('=');
    name.starts_with('.') || (!partition && (name.starts_with('_') || name.ends_with("._COPYING_")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_as_hive_and_spark_do() {
        assert_eq!(escape("a/b=c:d%e"), "a%2Fb%3Dc%3Ad%25e");
        assert_eq!(escape("Zürich 2024"), "Zürich 2024");
        assert_eq!(escape("x\u{1}y\u{7F}"), "x%01y%7F");
        // `}` is not escaped (Spark's list has `{` only).
        assert_eq!(escape("{[*?]}^#'\"\\"), "%7B%5B%2A%3F%5D}%5E%23%27%22%5C");
    }

    #[test]
    fn unescapes_every_escape_and_uri_encoded_utf8() {
        for text in ["a/b=c:d%e", "Zürich 2024", "x\u{1}y\u{7F}", "{[*?]}^#'\"\\", "100%", "%zz"] {
            assert_eq!(unescape(&escape(text)).as_deref(), Some(text));
        }
        // pyarrow percent-encodes the UTF-8 bytes.
        assert_eq!(unescape("Z%C3%BCrich%20x").as_deref(), Some("Zürich x"));
        // A lone or malformed escape stays as it is.
        assert_eq!(unescape("50%").as_deref(), Some("50%"));
        assert_eq!(unescape("%G1").as_deref(), Some("%G1"));
        assert_eq!(unescape("%FF"), None);
    }

    #[test]
    fn segments() {
        assert_eq!(segment("day", Some("2024-01-02")), "day=2024-01-02");
        assert_eq!(segment("city", None), "city=__HIVE_DEFAULT_PARTITION__");
        assert_eq!(parse_segment("city=__HIVE_DEFAULT_PARTITION__"), Some(("city".into(), None)));
        assert_eq!(parse_segment("city=a%3Db"), Some(("city".into(), Some("a=b".into()))));
        assert_eq!(parse_segment("part-0.parquet"), None);
        assert_eq!(parse_segment("=x"), None);
    }

    #[test]
    fn hidden_names() {
        let hidden = [
            "_SUCCESS",
            "_committed_123",
            "_started_1",
            "_temporary",
            ".part-0.parquet.crc",
            ".x.tmp",
            "p.parquet._COPYING_",
        ];
        for name in hidden {
            assert!(is_hidden(name), "{name}");
        }
        // Data files, and partition directories whatever their names and values.
        for name in ["part-00000-abc.c000.snappy.parquet", "x.crc", "_source=a", "city=x.crc", "c=x._COPYING_"] {
            assert!(!is_hidden(name), "{name}");
        }
    }
}
