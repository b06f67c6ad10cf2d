//! The page decoders against the `parquet` crate's, value for value: every
//! column chunk of every fixture file (parquet-testing, pyarrow, DuckDB) is
//! decoded by both, levels and values compared. The fixtures cover data
//! pages v1 and v2, PLAIN, dictionaries, RLE booleans, DELTA_* and
//! BYTE_STREAM_SPLIT (the last two through the fallback, which must agree
//! too), every physical type and nesting up to maps of lists.

use std::path::{Path, PathBuf};

use bytes::Bytes;
use magnolify_parquet::__decode::{decode_chunk, decode_chunk_with_crate, DecodedChunk};
use parquet::file::reader::FileReader;
use parquet::file::serialized_reader::SerializedFileReader;

const MAX_LEVELS: u64 = 1 << 27;

fn fixtures(dir: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures").join(dir);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "parquet"))
        .collect();
    files.sort();
    files
}

/// Every chunk of `file`, decoded by both: `(what, ours, the crate's)`.
fn decode_both(file: &Path) -> Vec<(String, magnolify_parquet::Result<DecodedChunk>, Option<DecodedChunk>)> {
    let bytes = Bytes::from(std::fs::read(file).expect("fixture"));
    let reader = SerializedFileReader::new(bytes).expect("footer");
    let mut out = Vec::new();
    for g in 0..reader.num_row_groups() {
        let group = reader.get_row_group(g).expect("row group");
        for c in 0..group.num_columns() {
            let descr = group.metadata().column(c).column_descr_ptr();
            let what = format!("{} row group {g} column {}", file.display(), descr.path());
            let ours = group.get_column_page_reader(c).map_err(|e| e.to_string());
            let ours = decode_chunk(descr.clone(), ours.expect("pages"), MAX_LEVELS);
            let theirs = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let pages = group.get_column_page_reader(c).ok()?;
                decode_chunk_with_crate(descr.clone(), pages).ok()
            }))
            .ok()
            .flatten();
            out.push((what, ours, theirs));
        }
    }
    out
}

#[test]
fn every_fixture_chunk_decodes_as_the_crate_decodes_it() {
    let mut files = fixtures("parquet-testing");
    files.extend(fixtures("peers"));
    assert!(files.len() >= 29, "fixtures missing: {files:?}");
    let mut chunks = 0;
    let mut values = 0;
    for file in &files {
        for (what, ours, theirs) in decode_both(file) {
            let ours = ours.unwrap_or_else(|e| panic!("{what}: {e}"));
            let theirs = theirs.unwrap_or_else(|| panic!("{what}: the crate could not decode it"));
            assert_eq!(ours.def, theirs.def, "{what}: definition levels");
            assert_eq!(ours.rep, theirs.rep, "{what}: repetition levels");
            assert_eq!(ours.values, theirs.values, "{what}: values");
            chunks += 1;
            values += ours.values.len();
        }
    }
    // Every fixture has columns, and together they hold thousands of values.
    assert!(chunks >= 150, "{chunks} chunks");
    assert!(values >= 5_000, "{values} values");
}

#[test]
fn damaged_fixtures_are_errors_or_agree_with_the_crate() {
    let mut refused = 0;
    for file in fixtures("parquet-testing/bad_data") {
        // Some of these files have footers the crate refuses: nothing to decode.
        let Ok(bytes) = std::fs::read(&file) else { continue };
        if SerializedFileReader::new(Bytes::from(bytes)).is_err() {
            continue;
        }
        for (what, ours, theirs) in decode_both(&file) {
            match (ours, theirs) {
                (Ok(ours), Some(theirs)) => assert_eq!(ours, theirs, "{what}"),
                (Ok(_), None) => panic!("{what}: the crate refused a chunk ours accepted"),
                (Err(e), _) => {
                    assert!(!e.to_string().is_empty(), "{what}");
                    refused += 1;
                }
            }
        }
    }
    assert!(refused >= 1, "no damaged chunk was refused");
}

/// The page the `decode_pages` fuzz target found: a DELTA_BYTE_ARRAY page
/// whose prefix stream has no values and whose suffix stream claims about
/// 2^46 of them. The `parquet` crate's decoder, which the reader used for
/// DELTA pages until then, reserved them all (an abort); the library's own
/// decoder refuses the count before reserving anything.
#[test]
fn a_delta_page_claiming_trillions_of_values_is_an_error() {
    use magnolify_parquet::__decode::PageQueue;
    use magnolify_parquet::parquet::basic::Encoding;
    use magnolify_parquet::parquet::column::page::Page;
    use magnolify_parquet::parquet::schema::parser::parse_message_type;
    use magnolify_parquet::parquet::schema::types::SchemaDescriptor;

    let schema = parse_message_type("message m { required fixed_len_byte_array(3) v; }").unwrap();
    let descr = SchemaDescriptor::new(std::sync::Arc::new(schema)).column(0);
    let buf = [0u8, 32, 0, 71, 0, 1, 206, 206, 206, 206, 206, 206, 0, 0, 0, 0, 0, 0, 0, 26];
    let page = Page::DataPage {
        buf: Bytes::copy_from_slice(&buf),
        num_values: 2062,
        encoding: Encoding::DELTA_BYTE_ARRAY,
        def_level_encoding: Encoding::RLE,
        rep_level_encoding: Encoding::RLE,
        statistics: None,
    };
    let error = decode_chunk(descr, Box::new(PageQueue::new([page])), MAX_LEVELS).unwrap_err().to_string();
    assert!(error.contains("prefix lengths") && error.contains("page 0"), "{error}");
}
