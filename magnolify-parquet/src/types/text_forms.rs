//! Values stored as their text in STRING columns: `char` (one character)
//! and the IP address types (their `Display` form). Text is what every
//! engine shows and compares, and it keeps an IPv4-mapped IPv6 address
//! (`::ffff:1.2.3.4`) apart from the IPv4 address it maps.

use std::fmt::Write as _;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use parquet::basic::{LogicalType, Repetition, Type as PhysicalType};
use parquet::schema::types::Type;

use super::bytes::{read_text, resolve_text};
use super::{LeafPlan, ListElement};
use crate::assemble::{FileNode, RecordSource, Resolver};
use crate::error::Result;
use crate::field::{ParquetRead, ParquetSchema, ParquetWrite};
use crate::options::FieldOptions;
use crate::schema;
use crate::shred::{ColumnSink, WriteAt};

/// A value's text, formatted on the stack: the longest form here is an
/// IPv6 address with an IPv4 tail, 45 bytes.
struct Text {
    buf: [u8; 48],
    len: usize,
}

impl Text {
    fn of(value: &dyn std::fmt::Display) -> Option<Text> {
        let mut text = Text { buf: [0; 48], len: 0 };
        write!(text, "{value}").ok()?;
        Some(text)
    }

    fn as_bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

impl std::fmt::Write for Text {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let end = self.len + s.len();
        self.buf.get_mut(self.len..end).ok_or(std::fmt::Error)?.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// `text` if it is exactly one character.
fn one_char(text: &str) -> Option<char> {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Some(c),
        _ => None,
    }
}

macro_rules! text_forms {
    ($($t:ty => $what:literal, $parse:expr;)*) => {$(
        impl ParquetSchema for $t {
            const LEAVES: usize = 1;
            type ReadPlan = LeafPlan<()>;

            fn schema(name: &str, repetition: Repetition, _opts: &FieldOptions) -> Result<Type> {
                schema::primitive(name, repetition, PhysicalType::BYTE_ARRAY, Some(LogicalType::String))
            }
        }

        impl ParquetWrite for $t {
            #[inline]
            fn write(&self, sink: &mut ColumnSink, at: WriteAt, _opts: &FieldOptions) -> Result<()> {
                let text = Text::of(self)
                    .ok_or_else(|| sink.value_error(at.leaf(), concat!("the text of ", $what, " is over 48 bytes")))?;
                sink.push_bytes(at, text.as_bytes())
            }
        }

        impl<'de> ParquetRead<'de> for $t {
            fn resolve(node: &FileNode<'_>, _: &FieldOptions, resolver: &mut Resolver<'_>) -> Result<Self::ReadPlan> {
                resolve_text(node, resolver)
            }

            #[inline]
            fn read(plan: &Self::ReadPlan, src: &mut RecordSource<'de>) -> Result<Self> {
                let text = read_text(plan, src)?;
                let parse: fn(&str) -> Option<$t> = $parse;
                parse(text).ok_or_else(|| src.value_error(plan.cursor, format!("{text:?} is not {}", $what)))
            }
        }

        impl ListElement for $t {}
    )*};
}

text_forms! {
    char => "one character", one_char;
    IpAddr => "an IP address", |text| text.parse().ok();
    Ipv4Addr => "an IPv4 address", |text| text.parse().ok();
    Ipv6Addr => "an IPv6 address", |text| text.parse().ok();
}
