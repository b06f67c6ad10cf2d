//! Every path the benches time reads back exactly what was written, and the
//! hand-written schemas agree with the derived ones: a bench that measured a
//! failing or wrong path would be meaningless.

use std::sync::Arc;

use bytes::Bytes;
use magnolify_parquet::convert::RecordSchema;
use magnolify_parquet::mem::MemPageStore;
use magnolify_parquet::parquet::file::properties::WriterProperties;
use magnolify_parquet::parquet::schema::parser::parse_message_type;
use magnolify_parquet::{schema, OwnedRecord, ParquetReader, ParquetRecord, ParquetWriter, ReadOptions};

use crate::flat::{self, Flat, FlatRequired, FLAT_MESSAGE};
use crate::nested::{self, Nested, NESTED_MESSAGE};
use crate::peers::{arrow, parquet_derive, row_api, typed_arrow};
use crate::{columnar, SEED};

/// More than two batches of 1024, so batch boundaries are crossed.
const N: usize = 2_500;

fn props() -> Arc<WriterProperties> {
    Arc::new(WriterProperties::default())
}

fn derive_file<T: OwnedRecord>(records: &[T]) -> Bytes {
    let mut writer = ParquetWriter::<T, _>::new(Vec::new()).expect("writer");
    writer.write_all(records).expect("write");
    Bytes::from(writer.into_inner().expect("close"))
}

#[test]
fn hand_written_schemas_match_the_derived_ones() {
    let nested = parse_message_type(NESTED_MESSAGE).expect("nested message");
    assert_eq!(schema::to_text(&Nested::message().expect("derived")), schema::to_text(&nested));
    let flat = parse_message_type(FLAT_MESSAGE).expect("flat message");
    assert_eq!(schema::to_text(&Flat::message().expect("derived")), schema::to_text(&flat));
}

#[test]
fn generated_runs_cover_every_shape() {
    let records = nested::generate(N, SEED);
    assert!(records.iter().any(|r| r.o.is_none()) && records.iter().any(|r| r.o.is_some()));
    assert!(records.iter().any(|r| r.l.is_empty()) && records.iter().any(|r| r.l.len() == 5));
    assert!(records.iter().any(|r| !r.s.is_ascii()));
    assert_eq!(records, nested::generate(N, SEED));
    let flats = flat::generate(N, SEED);
    assert!(flats.iter().any(|r| r.maybe.is_none()) && flats.iter().any(|r| r.note.is_some()));
    assert!(flats.iter().any(|r| r.payload.is_empty()));
}

#[test]
fn seed_record_is_the_published_shape() {
    let r = nested::seed_record();
    assert!(r.o.is_some());
    assert_eq!(r.l.len(), 3);
    assert!(r.s.chars().count() >= 8 && !r.r.s.is_ascii());
}

#[test]
fn derive_round_trips_through_the_store_and_a_file() {
    let records = nested::generate(N, SEED);
    let store = MemPageStore::write_all::<Nested>(&records).expect("store");
    let back: Vec<Nested> = store.read::<Nested>().expect("reader").collect::<Result<_, _>>().expect("read");
    assert_eq!(back, records);
    let file = derive_file(&records);
    let back: Vec<Nested> =
        ParquetReader::<Nested, _>::new(file).expect("reader").collect::<Result<_, _>>().expect("read");
    assert_eq!(back, records);
}

#[test]
fn borrowed_records_read_the_same_values_as_owned_ones() {
    use crate::borrowed::{self, FlatBorrowed, NestedBorrowed, RequiredBorrowed};
    let flat_rows = flat::generate(N, SEED);
    let mut back = Vec::new();
    let n = borrowed::read::<FlatBorrowed>(derive_file(&flat_rows), |batch| {
        back.extend(batch.iter().map(|r| Flat {
            id: r.id,
            score: r.score,
            name: r.name.to_owned(),
            active: r.active,
            maybe: r.maybe,
            note: r.note.map(str::to_owned),
            ts: r.ts,
            payload: r.payload.to_vec(),
        }))
    })
    .expect("borrowed flat read");
    assert_eq!((n, back), (N, flat_rows));

    let owned = |r: &RequiredBorrowed<'_>| nested::Required { b: r.b, i: r.i, s: r.s.to_owned() };
    let nested_rows = nested::generate(N, SEED);
    let mut back = Vec::new();
    borrowed::read::<NestedBorrowed>(derive_file(&nested_rows), |batch| {
        back.extend(batch.iter().map(|r| Nested {
            b: r.b,
            i: r.i,
            s: r.s.to_owned(),
            r: owned(&r.r),
            o: r.o.as_ref().map(owned),
            l: r.l.iter().map(owned).collect(),
        }))
    })
    .expect("borrowed nested read");
    assert_eq!(back, nested_rows);
}

#[test]
fn the_three_transforms_keep_the_same_records() {
    use crate::transform;
    let rows = flat::generate(N, SEED);
    let file = derive_file(&rows);
    let kept: Vec<Flat> = rows.iter().filter(|r| transform::keep(r.id)).cloned().collect();
    assert!(kept.len() > N / 3 && kept.len() < 2 * N / 3, "{} kept", kept.len());
    let read = |out: Vec<u8>| -> Vec<Flat> {
        ParquetReader::<Flat, _>::new(Bytes::from(out)).expect("reader").collect::<Result<_, _>>().expect("read")
    };
    assert_eq!(read(transform::borrowed(file.clone()).expect("borrowed")), kept);
    assert_eq!(read(transform::owned(file.clone()).expect("owned")), kept);
    // Arrow writes its own schema (an Arrow timestamp), which reads as the same records.
    assert_eq!(read(transform::arrow(file).expect("arrow")), kept);
}

#[test]
fn columnar_floor_round_trips_both_shapes() {
    let records = nested::generate(N, SEED);
    let pages = columnar::nested::write(&records, &props()).expect("write nested");
    assert_eq!(pages.columns.len(), 12);
    assert_eq!(columnar::nested::read(&pages).expect("read nested"), records);
    let records = flat::generate(N, SEED);
    let pages = columnar::flat::write(&records, &props()).expect("write flat");
    assert_eq!(pages.columns.len(), 8);
    assert_eq!(columnar::flat::read(&pages).expect("read flat"), records);
}

#[test]
fn columnar_floor_encodes_the_same_bytes_as_the_store() {
    // Same properties and the same 1024-record batches: the floor and the
    // library must hand the encoders the same work.
    let records = nested::generate(N, SEED);
    let store = MemPageStore::write_all::<Nested>(&records).expect("store");
    let pages = columnar::nested::write(&records, &props()).expect("write");
    for (leaf, floor) in pages.columns.iter().enumerate() {
        let lib: usize = store.pages(leaf).map(|p| p.buffer().len()).sum();
        let own: usize = floor.iter().map(|p| p.buffer().len()).sum();
        assert_eq!(lib, own, "leaf {leaf}: the library and the floor encode different bytes");
    }
}

#[test]
fn arrow_round_trips_its_own_file_and_ours() {
    let records = nested::generate(N, SEED);
    let fields = arrow::nested_fields().expect("fields");
    let own = Bytes::from(arrow::write(&fields, &records, None).expect("write"));
    assert_eq!(arrow::read::<Nested>(own).expect("read own"), records);
    assert_eq!(arrow::read::<Nested>(derive_file(&records)).expect("read ours"), records);

    let flats = flat::generate(N, SEED);
    let fields = arrow::flat_fields().expect("fields");
    let own = Bytes::from(arrow::write(&fields, &flats, None).expect("write"));
    assert_eq!(arrow::read::<Flat>(own).expect("read own"), flats);
    assert_eq!(arrow::read::<Flat>(derive_file(&flats)).expect("read ours"), flats);
}

#[test]
fn the_row_api_and_typed_arrow_read_our_files() {
    let records = nested::generate(N, SEED);
    let file = derive_file(&records);
    assert_eq!(row_api::read_nested(file.clone()).expect("Row API, nested"), records);
    assert_eq!(typed_arrow::read_nested(file).expect("typed-arrow, nested"), records);
    let flats = flat::generate(N, SEED);
    let file = derive_file(&flats);
    assert_eq!(row_api::read_flat(file.clone()).expect("Row API, flat"), flats);
    assert_eq!(typed_arrow::read_flat(file).expect("typed-arrow, flat"), flats);
}

#[test]
fn parquet_derive_round_trips_the_required_columns() {
    let flats = flat::generate(N, SEED);
    let required: Vec<FlatRequired> = flats.iter().map(FlatRequired::from).collect();
    let own = Bytes::from(parquet_derive::write(&flats, WriterProperties::default()).expect("write"));
    assert_eq!(parquet_derive::read(own).expect("read own"), required);
    assert_eq!(parquet_derive::read(derive_file(&flats)).expect("read ours"), required);
    let ours: Vec<FlatRequired> = ParquetReader::<FlatRequired, _>::new(derive_file(&flats))
        .expect("reader")
        .collect::<Result<_, _>>()
        .expect("read");
    assert_eq!(ours, required);
}

#[test]
fn avro_converters_write_the_derived_schemas() {
    let nested = crate::avro::nested_converter().expect("nested converter");
    assert_eq!(
        schema::to_text(&RecordSchema::schema(&nested).expect("schema")).replace("magnolify.test.Simple.", ""),
        schema::to_text(&Nested::message().expect("derived"))
    );
    let flat = crate::avro::flat_converter().expect("flat converter");
    assert_eq!(
        schema::to_text(&RecordSchema::schema(&flat).expect("schema")),
        schema::to_text(&Flat::message().expect("derived"))
    );
}

#[test]
fn avro_round_trips_its_values_through_the_derived_store() {
    use crate::avro::{flat_converter, flat_value, nested_converter, nested_value, write_store};
    let records = nested::generate(N, SEED);
    let values: Vec<_> = records.iter().map(nested_value).collect();
    let own = write_store(nested_converter().expect("converter"), &values).expect("store");
    let back: Vec<_> =
        own.reader(nested_converter().expect("converter")).expect("reader").collect::<Result<_, _>>().expect("read");
    assert_eq!(back, values);
    let derived = MemPageStore::write_all::<Nested>(&records).expect("store");
    let back: Vec<_> = derived
        .reader(nested_converter().expect("converter"))
        .expect("reader")
        .collect::<Result<_, _>>()
        .expect("read");
    assert_eq!(back, values);

    let flats = flat::generate(N, SEED);
    let values: Vec<_> = flats.iter().map(flat_value).collect();
    let derived = MemPageStore::write_all::<Flat>(&flats).expect("store");
    let back: Vec<_> =
        derived.reader(flat_converter().expect("converter")).expect("reader").collect::<Result<_, _>>().expect("read");
    assert_eq!(back, values);
    let own = write_store(flat_converter().expect("converter"), &values).expect("store");
    let back: Vec<Flat> = own.read::<Flat>().expect("reader").collect::<Result<_, _>>().expect("read");
    assert_eq!(back, flats);
}

/// The `filter` group's queries on a tenth of its records (same row-group
/// count): exactly the records of a full read that pass, and only the row
/// groups holding them are read (the range by statistics, the rider by
/// bloom filters, with their false positives).
#[test]
fn filter_queries_read_only_the_row_groups_with_matches() {
    use crate::trips;
    let records = trips::generate(trips::TRIPS / 10, crate::SEED);
    let file = trips::write(&records, trips::ROW_GROUPS).unwrap();
    let per_group = records.len() / trips::ROW_GROUPS;
    for (name, query) in [("range", trips::range_query(&records)), ("rider", trips::rider_query(&records))] {
        let expected: Vec<&trips::Trip> = records.iter().filter(|t| query.test(t)).collect();
        let groups_with_matches = records.chunks(per_group).filter(|group| group.iter().any(|t| query.test(t))).count();
        let mut reader = magnolify_parquet::ReaderBuilder::new(file.clone())
            .unwrap()
            .build(ReadOptions::default().filter(query))
            .unwrap();
        let got: Vec<trips::Trip> = reader.by_ref().collect::<Result<_, _>>().unwrap();
        assert!(got.iter().eq(expected.iter().copied()), "{name}: {} records, expected {}", got.len(), expected.len());
        let counts = reader.counts();
        let meta = magnolify_parquet::ReaderBuilder::new(file.clone()).unwrap().metadata().shared().clone();
        let all_bytes: i64 = meta.row_groups().iter().map(|g| g.compressed_size()).sum();
        assert_eq!((counts.column_bytes_read + counts.column_bytes_skipped) as i64, all_bytes, "{name}");
        // One data page per column chunk here: the 5 columns' pages of the
        // row groups read, and no other, are decoded.
        assert_eq!(counts.pages_read, 5 * counts.row_groups_read as u64, "{name}");
        if name == "range" {
            assert_eq!(counts.row_groups_read, groups_with_matches, "{name}");
            assert!(counts.column_bytes_read * 30 < counts.column_bytes_skipped, "{name}: {counts:?}");
        } else {
            // A bloom filter answers "maybe" for 1 % of the values a row group
            // lacks (fpp = 0.01): about one of the 97 others here (exactly 1
            // with these records), read: a chunk with a bloom filter is not
            // looked up in its dictionary too.
            assert_eq!(counts.row_groups_read, groups_with_matches + 1, "{name}");
            assert_eq!(counts.row_groups_skipped_by_bloom_filters, trips::ROW_GROUPS - groups_with_matches - 1);
            assert_eq!(counts.row_groups_skipped_by_dictionaries, 0, "{name}");
        }
        assert_eq!(counts.row_groups_read + counts.row_groups_skipped, trips::ROW_GROUPS, "{name}");
        assert!(!expected.is_empty(), "{name}");
        eprintln!(
            "{name}: {} records in {} of {} row groups",
            expected.len(),
            counts.row_groups_read,
            trips::ROW_GROUPS
        );
    }
}

#[test]
fn recorded_paths_are_relative_to_the_project() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let shown = crate::shown_path(&root.join("target").join("write_large.parquet"));
    assert_eq!(shown, std::path::Path::new("target/write_large.parquet"));
    assert_eq!(
        crate::shown_path(std::path::Path::new("/nowhere/x.parquet")),
        std::path::Path::new("/nowhere/x.parquet")
    );
    assert_eq!(crate::shown_path(std::path::Path::new("a/b.parquet")), std::path::Path::new("a/b.parquet"));
}
