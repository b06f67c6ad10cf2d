//! Arbitrary pages fed straight to the page decoders, below the file
//! reader: each input picks a column (every physical type, required,
//! optional, repeated and nested levels) and a sequence of dictionary, v1
//! and v2 data pages with arbitrary headers (encodings, level encodings,
//! value counts, level lengths) and bytes. Every input must decode or give
//! an error; a panic in this workspace's code is a crash.
#![no_main]

use std::collections::VecDeque;

use libfuzzer_sys::fuzz_target;
use magnolify_parquet::__decode::{decode_chunk, PageQueue};
use magnolify_parquet::parquet::basic::Encoding;
use magnolify_parquet::parquet::column::page::Page;
use magnolify_parquet::parquet::schema::parser::parse_message_type;
use magnolify_parquet::parquet::schema::types::SchemaDescriptor;
use magnolify_parquet_fuzz::{install_panic_hook, MAX_LEVELS};

const SCHEMAS: &[&str] = &[
    "message m { required int32 v; }",
    "message m { optional int64 v; }",
    "message m { optional boolean v; }",
    "message m { required boolean v; }",
    "message m { optional float v; }",
    "message m { required double v; }",
    "message m { optional int96 v; }",
    "message m { required fixed_len_byte_array(3) v; }",
    "message m { optional binary v (STRING); }",
    "message m { repeated binary v; }",
    "message m { optional group l (LIST) { repeated group list { optional int32 element; } } }",
    "message m { repeated group o { repeated double v; optional int32 w; } }",
];

#[allow(deprecated)]
const ENCODINGS: &[Encoding] = &[
    Encoding::PLAIN,
    Encoding::PLAIN_DICTIONARY,
    Encoding::RLE_DICTIONARY,
    Encoding::RLE,
    Encoding::BIT_PACKED,
    Encoding::DELTA_BINARY_PACKED,
    Encoding::DELTA_LENGTH_BYTE_ARRAY,
    Encoding::DELTA_BYTE_ARRAY,
    Encoding::BYTE_STREAM_SPLIT,
];

/// Reads the input's bytes in order, zeros once they run out.
struct Input<'a>(&'a [u8]);

impl Input<'_> {
    fn byte(&mut self) -> u8 {
        let (first, rest) = self.0.split_first().map_or((0, &[][..]), |(f, r)| (*f, r));
        self.0 = rest;
        first
    }

    fn u16(&mut self) -> u32 {
        u32::from(self.byte()) | u32::from(self.byte()) << 8
    }

    fn encoding(&mut self) -> Encoding {
        ENCODINGS[usize::from(self.byte()) % ENCODINGS.len()]
    }

    fn bytes(&mut self, n: usize) -> bytes::Bytes {
        let n = n.min(self.0.len());
        let (taken, rest) = self.0.split_at(n);
        self.0 = rest;
        bytes::Bytes::copy_from_slice(taken)
    }
}

fuzz_target!(|data: &[u8]| {
    install_panic_hook();
    let mut input = Input(data);
    let schema = parse_message_type(SCHEMAS[usize::from(input.byte()) % SCHEMAS.len()]).expect("schema");
    let descr = SchemaDescriptor::new(std::sync::Arc::new(schema)).column(0);
    let mut pages = VecDeque::new();
    for _ in 0..(input.byte() % 5) {
        let kind = input.byte() % 3;
        let num_values = input.u16();
        let encoding = input.encoding();
        let len = input.u16() as usize;
        pages.push_back(match kind {
            0 => Page::DictionaryPage { buf: input.bytes(len), num_values, encoding, is_sorted: false },
            1 => {
                let (def_level_encoding, rep_level_encoding) = (input.encoding(), input.encoding());
                let buf = input.bytes(len);
                Page::DataPage { buf, num_values, encoding, def_level_encoding, rep_level_encoding, statistics: None }
            }
            _ => {
                let (def_levels_byte_len, rep_levels_byte_len) = (u32::from(input.byte()), u32::from(input.byte()));
                let buf = input.bytes(len);
                Page::DataPageV2 {
                    buf,
                    num_values,
                    encoding,
                    num_nulls: 0,
                    num_rows: num_values,
                    def_levels_byte_len,
                    rep_levels_byte_len,
                    is_compressed: false,
                    statistics: None,
                }
            }
        });
    }
    let _ = decode_chunk(descr, Box::new(PageQueue::new(pages)), MAX_LEVELS as u64);
});
