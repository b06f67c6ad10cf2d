//! How `cat` writes byte strings.

/// How byte strings (BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY without a text or
/// numeric annotation) are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BytesFormat {
    /// Lowercase hexadecimal (the fixtures' encoding).
    #[default]
    Hex,
    /// Standard base64 with padding.
    Base64,
}
