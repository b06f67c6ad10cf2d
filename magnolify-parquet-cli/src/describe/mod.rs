//! `describe`: the text of `schema FILE`, from a file's footer alone.
//!
//! It shows the schema (the `parquet` crate's schema printer), the
//! key/value metadata (JSON schemas, such as the Avro schema parquet-avro
//! stores under `parquet.avro.schema`, pretty-printed), and each row group
//! with its columns: codec, encodings, sizes and, on request, statistics.

mod values;

use std::fmt::Write as _;

use parquet::file::metadata::{ColumnChunkMetaData, KeyValue, ParquetMetaData, RowGroupMetaData};

/// Longest metadata value shown in full (the base64 Arrow schema pyarrow
/// stores can run to kilobytes); longer values are cut.
const MAX_VALUE_CHARS: usize = 200;

/// The text of `schema FILE`; `stats` adds each column chunk's statistics.
pub fn describe(meta: &ParquetMetaData, stats: bool) -> String {
    let mut out = String::new();
    let file = meta.file_metadata();
    let mut schema = Vec::new();
    parquet::schema::printer::print_schema(&mut schema, file.schema());
    out.push_str(&String::from_utf8_lossy(&schema));
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out.push('\n');
    let _ = writeln!(out, "Format version: {}", file.version());
    if let Some(created_by) = file.created_by() {
        let _ = writeln!(out, "Created by: {}", printable(created_by));
    }
    let _ = writeln!(out, "Rows: {}", file.num_rows());
    match file.key_value_metadata() {
        Some(kvs) if !kvs.is_empty() => {
            out.push_str("Key/value metadata:\n");
            for kv in kvs {
                key_value(kv, &mut out);
            }
        }
        _ => out.push_str("Key/value metadata: none\n"),
    }
    let _ = writeln!(out, "Row groups: {}", meta.num_row_groups());
    for (i, rg) in meta.row_groups().iter().enumerate() {
        row_group(i, rg, stats, &mut out);
    }
    out
}

/// One key/value pair: JSON schemas pretty-printed on the lines below.
fn key_value(kv: &KeyValue, out: &mut String) {
    let key = printable(&kv.key);
    let Some(value) = &kv.value else {
        let _ = writeln!(out, "  {key}: (no value)");
        return;
    };
    if let Ok(json) = serde_json::from_str::<serde_json::Value>(value) {
        if json.get("type").is_some() {
            if let Ok(pretty) = serde_json::to_string_pretty(&json) {
                let _ = writeln!(out, "  {key}:");
                for line in pretty.lines() {
                    let _ = writeln!(out, "    {}", printable(line));
                }
                return;
            }
        }
    }
    let shown: String = value.chars().take(MAX_VALUE_CHARS).collect();
    let cut = if shown.len() < value.len() { format!("... ({} bytes)", value.len()) } else { String::new() };
    let _ = writeln!(out, "  {key}: {}{cut}", printable(&shown));
}

fn row_group(i: usize, rg: &RowGroupMetaData, stats: bool, out: &mut String) {
    let _ = writeln!(
        out,
        "Row group {i}: {} rows, {} bytes uncompressed, {} bytes compressed",
        rg.num_rows(),
        rg.total_byte_size(),
        rg.compressed_size()
    );
    for col in rg.columns() {
        column(col, stats, out);
    }
}

fn column(col: &ColumnChunkMetaData, stats: bool, out: &mut String) {
    let encodings: Vec<String> = col.encodings().map(|e| e.to_string()).collect();
    let _ = writeln!(
        out,
        "  {}: {:?}, encodings {}, {} values, {} bytes compressed, {} uncompressed",
        printable(&col.column_path().string()),
        col.compression_codec(),
        if encodings.is_empty() { "none".to_owned() } else { encodings.join(" ") },
        col.num_values(),
        col.compressed_size(),
        col.uncompressed_size()
    );
    if !stats {
        return;
    }
    let Some(s) = col.statistics() else {
        out.push_str("    statistics: none\n");
        return;
    };
    let count = |c: Option<u64>| c.map_or_else(|| "-".to_owned(), |n| n.to_string());
    let (min, max) = values::min_max(s, col.column_descr());
    let _ = writeln!(
        out,
        "    nulls {}, distinct {}, min {}, max {}",
        count(s.null_count_opt()),
        count(s.distinct_count_opt()),
        min.map_or_else(|| "-".to_owned(), |v| printable(&v)),
        max.map_or_else(|| "-".to_owned(), |v| printable(&v)),
    );
}

/// `s` with control characters escaped, so that file contents cannot move
/// the terminal's cursor or change its colours.
fn printable(s: &str) -> String {
    if !s.chars().any(char::is_control) {
        return s.to_owned();
    }
    s.chars().map(|c| if c.is_control() { c.escape_debug().to_string() } else { c.to_string() }).collect()
}

#[cfg(test)]
mod tests;
