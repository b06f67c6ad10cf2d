//! A written Parquet file's Iceberg `DataFile`: its metrics from the
//! footer the writer returned.
//!
//! iceberg-rust keeps its own converter from Parquet metadata private (and
//! it takes another major version of the `parquet` crate), so this one is
//! the crate's: column sizes, value, null and NaN counts per field id, bounds in
//! Iceberg's single-value form for the columns outside lists and maps
//! (strings and binary cut to 16 characters or bytes, as Iceberg's default
//! metrics mode `truncate(16)` does), split offsets from the row groups.

use std::collections::HashMap;

use iceberg::spec::{DataContentType, DataFile, DataFileBuilder, DataFileFormat, Datum, PrimitiveType, Schema, Struct};
use magnolify_parquet::convert::decimal_bytes;
use magnolify_parquet::parquet::file::metadata::{ColumnChunkMetaData, ParquetMetaData};
use magnolify_parquet::parquet::file::statistics::Statistics;

use crate::error::{Error, Result};

/// How many characters (strings) or bytes (binary) a bound keeps.
const TRUNCATE: usize = 16;

/// Where a file went and what its footer says.
pub(crate) struct WrittenFile<'a> {
    pub(crate) path: String,
    pub(crate) size: u64,
    pub(crate) metadata: &'a ParquetMetaData,
    pub(crate) partition: Struct,
    pub(crate) spec_id: i32,
}

/// Each field id's sums and bounds over the row groups.
#[derive(Default)]
struct Metrics {
    sizes: HashMap<i32, u64>,
    values: HashMap<i32, u64>,
    nulls: HashMap<i32, Option<u64>>,
    /// Float and double columns only, as Iceberg counts NaNs.
    nans: HashMap<i32, Option<u64>>,
    lower: HashMap<i32, Option<Datum>>,
    upper: HashMap<i32, Option<Datum>>,
}

/// The `DataFile` of `file`, whose columns carry the ids of `schema`.
pub(crate) fn data_file(file: WrittenFile<'_>, schema: &Schema) -> Result<DataFile> {
    let mut metrics = Metrics::default();
    let mut splits = Vec::with_capacity(file.metadata.num_row_groups());
    for group in file.metadata.row_groups() {
        let first = group.columns().first();
        let offset = group.file_offset().or_else(|| first.map(chunk_start));
        splits.extend(offset);
        for chunk in group.columns() {
            metrics.add(chunk, schema);
        }
    }
    let Metrics { sizes, values, nulls, nans, lower, upper } = metrics;
    let counted = |m: HashMap<i32, Option<u64>>| m.into_iter().filter_map(|(k, v)| Some((k, v?))).collect();
    let known = |m: HashMap<i32, Option<Datum>>| m.into_iter().filter_map(|(k, v)| Some((k, v?))).collect();
    let mut builder = DataFileBuilder::default();
    builder
        .content(DataContentType::Data)
        .file_path(file.path.clone())
        .file_format(DataFileFormat::Parquet)
        .partition(file.partition)
        .partition_spec_id(file.spec_id)
        .record_count(file.metadata.file_metadata().num_rows().max(0) as u64)
        .file_size_in_bytes(file.size)
        .column_sizes(sizes)
        .value_counts(values)
        .null_value_counts(counted(nulls))
        .nan_value_counts(counted(nans))
        .lower_bounds(known(lower))
        .upper_bounds(known(upper))
        .split_offsets(Some(splits));
    builder.build().map_err(|e| Error::table(&file.path, format!("its DataFile could not be built: {e}")))
}

/// Where a column chunk's pages start.
fn chunk_start(chunk: &ColumnChunkMetaData) -> i64 {
    chunk.dictionary_page_offset().unwrap_or_else(|| chunk.data_page_offset())
}

impl Metrics {
    fn add(&mut self, chunk: &ColumnChunkMetaData, schema: &Schema) {
        let descr = chunk.column_descr();
        let info = descr.self_type().get_basic_info();
        if !info.has_id() {
            return;
        }
        let id = info.id();
        *self.sizes.entry(id).or_default() += chunk.compressed_size().max(0) as u64;
        *self.values.entry(id).or_default() += chunk.num_values().max(0) as u64;
        let stats = chunk.statistics();
        let nulls = stats.and_then(Statistics::null_count_opt);
        add_count(self.nulls.entry(id).or_insert(Some(0)), nulls);
        let values = chunk.num_values().max(0) as u64;
        let all_null = nulls == Some(values);
        let mut nans = None;
        if matches!(stats, Some(Statistics::Float(_) | Statistics::Double(_))) {
            // A chunk of nulls holds no NaN, whatever its statistics say;
            // a count missing from another chunk (another writer's file)
            // leaves the file's unknown.
            nans = if all_null { Some(0) } else { stats.and_then(Statistics::nan_count_opt) };
            add_count(self.nans.entry(id).or_insert(Some(0)), nans);
        }
        // A list's or map's columns have no bounds: Iceberg's are per value
        // of a field, and engines disagree on them for repeated ones.
        let ty = schema.field_by_id(id).and_then(|f| f.field_type.as_primitive_type().cloned());
        let (Some(ty), 0) = (ty, descr.max_rep_level()) else {
            self.lower.insert(id, None);
            self.upper.insert(id, None);
            return;
        };
        // A chunk of nulls and NaNs has no bounds to add (NaN is no bound);
        // one that lacks them for any other reason leaves the file's unknown.
        let no_value = nulls.zip(nans).is_some_and(|(nulls, nans)| nulls + nans == values);
        if all_null || no_value {
            return;
        }
        let lower = stats.and_then(|s| bound(s, &ty, Side::Lower));
        let upper = stats.and_then(|s| bound(s, &ty, Side::Upper));
        merge(self.lower.entry(id).or_insert(lower.clone()), lower, Side::Lower);
        merge(self.upper.entry(id).or_insert(upper.clone()), upper, Side::Upper);
    }
}

/// `total` with a row group's count: unknown if either is.
fn add_count(total: &mut Option<u64>, next: Option<u64>) {
    *total = total.zip(next).map(|(a, b)| a + b);
}

/// The lower or upper bound of a column.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Lower,
    Upper,
}

/// `total` with a row group's bound: unknown if either is.
fn merge(total: &mut Option<Datum>, next: Option<Datum>, side: Side) {
    *total = match (total.take(), next) {
        (Some(a), Some(b)) => {
            let keep_a = match side {
                Side::Lower => a <= b,
                Side::Upper => a >= b,
            };
            Some(if keep_a { a } else { b })
        }
        _ => None,
    };
}

/// A row group's bound of a column of type `ty`.
fn bound(stats: &Statistics, ty: &PrimitiveType, side: Side) -> Option<Datum> {
    match stats {
        Statistics::Boolean(s) => pick(side, s.min_opt(), s.max_opt()).map(|v| Datum::bool(*v)),
        Statistics::Int32(s) => pick(side, s.min_opt(), s.max_opt()).and_then(|v| integer(i64::from(*v), ty)),
        Statistics::Int64(s) => pick(side, s.min_opt(), s.max_opt()).and_then(|v| integer(*v, ty)),
        Statistics::Float(s) => pick(side, s.min_opt(), s.max_opt()).filter(|v| !v.is_nan()).map(|v| Datum::float(*v)),
        Statistics::Double(s) => {
            pick(side, s.min_opt(), s.max_opt()).filter(|v| !v.is_nan()).map(|v| Datum::double(*v))
        }
        Statistics::ByteArray(s) => bytes(pick(side, s.min_opt(), s.max_opt())?.data(), ty, side),
        Statistics::FixedLenByteArray(s) => bytes(pick(side, s.min_opt(), s.max_opt())?.data(), ty, side),
        Statistics::Int96(_) => None,
    }
}

/// The minimum for a lower bound, the maximum for an upper one.
fn pick<V>(side: Side, min: Option<V>, max: Option<V>) -> Option<V> {
    match side {
        Side::Lower => min,
        Side::Upper => max,
    }
}

/// An integer column's bound as a Datum of its Iceberg type.
fn integer(value: i64, ty: &PrimitiveType) -> Option<Datum> {
    Some(match ty {
        PrimitiveType::Int => Datum::int(i32::try_from(value).ok()?),
        PrimitiveType::Long => Datum::long(value),
        PrimitiveType::Date => Datum::date(i32::try_from(value).ok()?),
        PrimitiveType::Time => Datum::time_micros(value).ok()?,
        PrimitiveType::Timestamp => Datum::timestamp_micros(value),
        PrimitiveType::Timestamptz => Datum::timestamptz_micros(value),
        PrimitiveType::TimestampNs => Datum::timestamp_nanos(value),
        PrimitiveType::TimestamptzNs => Datum::timestamptz_nanos(value),
        PrimitiveType::Decimal { .. } => {
            Datum::try_from_bytes(decimal_bytes::minimal(&value.to_be_bytes()), ty.clone()).ok()?
        }
        _ => return None,
    })
}

/// A byte-array column's bound as a Datum of its Iceberg type.
fn bytes(value: &[u8], ty: &PrimitiveType, side: Side) -> Option<Datum> {
    match ty {
        PrimitiveType::String => {
            let text = std::str::from_utf8(value).ok()?;
            let cut = match text.char_indices().nth(TRUNCATE) {
                None => return Some(Datum::string(text)),
                Some((at, _)) => &text[..at],
            };
            match side {
                Side::Lower => Some(Datum::string(cut)),
                Side::Upper => text_after(cut).map(Datum::string),
            }
        }
        PrimitiveType::Binary => {
            if value.len() <= TRUNCATE {
                return Some(Datum::binary(value.iter().copied()));
            }
            let cut = &value[..TRUNCATE];
            match side {
                Side::Lower => Some(Datum::binary(cut.iter().copied())),
                Side::Upper => bytes_after(cut).map(Datum::binary),
            }
        }
        PrimitiveType::Fixed(_) => Some(Datum::fixed(value.iter().copied())),
        PrimitiveType::Uuid => Some(Datum::uuid(uuid::Uuid::from_slice(value).ok()?)),
        PrimitiveType::Decimal { .. } => Datum::try_from_bytes(value, ty.clone()).ok(),
        _ => None,
    }
}

/// The shortest text above every text that starts with `prefix`: its last
/// character that can grow, grown, and nothing after it. Texts compare by
/// their UTF-8 bytes, which order as their characters.
pub(crate) fn text_after(prefix: &str) -> Option<String> {
    let mut chars: Vec<char> = prefix.chars().collect();
    while let Some(last) = chars.pop() {
        let next = (u32::from(last) + 1..=u32::from(char::MAX)).find_map(char::from_u32);
        if let Some(next) = next {
            chars.push(next);
            return Some(chars.into_iter().collect());
        }
    }
    None
}

/// The shortest bytes above every value that starts with `prefix`.
fn bytes_after(prefix: &[u8]) -> Option<Vec<u8>> {
    let end = prefix.iter().rposition(|b| *b != 0xFF)?;
    let mut out = prefix[..=end].to_vec();
    out[end] += 1;
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_cut_to_sixteen_stay_bounds() {
        let long = "abcdefghijklmnopqrstuvwxyz";
        let lower = bytes(long.as_bytes(), &PrimitiveType::String, Side::Lower).unwrap();
        let upper = bytes(long.as_bytes(), &PrimitiveType::String, Side::Upper).unwrap();
        assert_eq!((lower, upper), (Datum::string("abcdefghijklmnop"), Datum::string("abcdefghijklmnoq")));
        let max = format!("{}z", "\u{10FFFF}".repeat(16));
        assert_eq!(bytes(max.as_bytes(), &PrimitiveType::String, Side::Upper), None);
        assert_eq!(bytes_after(&[1, 0xFF, 0xFF]), Some(vec![2]));
        assert_eq!(bytes_after(&[0xFF]), None);
        assert_eq!(text_after("a\u{D7FF}"), Some("a\u{E000}".to_owned()));
    }
}
