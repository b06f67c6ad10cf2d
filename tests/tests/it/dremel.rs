//! The Document example of the Dremel paper (Melnik et al., VLDB 2010), with
//! hand-written `ParquetSchema` impls: shredding must give exactly the paper's
//! (value, repetition, definition) triplets per column, and assembly must give
//! the records back. This runs the runtime alone, without the derive.

use magnolify_parquet::__private::{Slot, StructPlan};
use magnolify_parquet::convert::{ColumnSink, FileNode, LeafValues, RecordSource, Resolver, WriteAt};
use magnolify_parquet::mem::MemPageStore;
use magnolify_parquet::parquet::basic::Repetition;
use magnolify_parquet::parquet::schema::types::Type;
use magnolify_parquet::{
    schema, Derived, FieldOptions, ListLayout, ParquetRead, ParquetRecord, ParquetSchema, ParquetWrite, RecordSchema,
    RecordWrite, Result,
};

/// The paper's schema uses bare repeated fields (1-level lists).
const REPEATED: FieldOptions = FieldOptions::new().list(ListLayout::Repeated);

/// Implements the field traits for a struct by hand, field by field, the way
/// generated code does: a group node, fields shredded at increasing leaf
/// offsets, resolved by name, read in order.
macro_rules! record {
    ($t:ident { $($f:ident : $ty:ty => $name:literal),+ $(,)? }) => {
        impl ParquetSchema for $t {
            const LEAVES: usize = 0 $(+ <$ty as ParquetSchema>::LEAVES)+;

            type ReadPlan = StructPlan<Vec<Slot<Box<dyn std::any::Any + Send + Sync>>>>;

            fn schema(name: &str, repetition: Repetition, _: &FieldOptions) -> Result<Type> {
                schema::group(name, repetition, None, vec![$(<$ty>::schema($name, Repetition::REQUIRED, &REPEATED)?),+])
            }
        }

        impl ParquetWrite for $t {
            fn write(&self, sink: &mut ColumnSink, at: WriteAt, _: &FieldOptions) -> Result<()> {
                let mut at = at;
                $(
                    self.$f.write(sink, at, &REPEATED)?;
                    at = at.skip_leaves(<$ty as ParquetSchema>::LEAVES);
                )+
                let _ = at;
                Ok(())
            }
        }

        impl<'de> ParquetRead<'de> for $t {
            fn resolve(node: &FileNode<'_>, _: &FieldOptions, resolver: &mut Resolver<'_>) -> Result<Self::ReadPlan> {
                let start = magnolify_parquet::__private::struct_start(node, resolver)?;
                let mut fields = Vec::new();
                $(
                    let child = node.child($name).ok_or_else(|| node.error(concat!("no field ", $name)))?;
                    let plan = <$ty>::resolve(&child, &REPEATED, resolver)?;
                    fields.push(Slot::Read(Box::new(plan) as Box<dyn std::any::Any + Send + Sync>));
                )+
                Ok(StructPlan { null_check: start.finish(resolver), fields })
            }

            fn read(plan: &Self::ReadPlan, src: &mut RecordSource<'de>) -> Result<Self> {
                plan.check_present(src)?;
                let mut slots = plan.fields.iter();
                Ok($t { $($f: {
                    let Some(Slot::Read(p)) = slots.next() else { unreachable!("resolved above") };
                    <$ty>::read(p.downcast_ref().expect("plan type"), src)?
                }),+ })
            }
        }
    };
}

#[derive(Debug, Clone, PartialEq)]
struct Document {
    doc_id: i64,
    links: Option<Links>,
    name: Vec<Name>,
}

#[derive(Debug, Clone, PartialEq)]
struct Links {
    backward: Vec<i64>,
    forward: Vec<i64>,
}

#[derive(Debug, Clone, PartialEq)]
struct Name {
    language: Vec<Language>,
    url: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
struct Language {
    code: String,
    country: Option<String>,
}

record!(Document { doc_id: i64 => "DocId", links: Option<Links> => "Links", name: Vec<Name> => "Name" });
record!(Links { backward: Vec<i64> => "Backward", forward: Vec<i64> => "Forward" });
record!(Name { language: Vec<Language> => "Language", url: Option<String> => "Url" });
record!(Language { code: String => "Code", country: Option<String> => "Country" });

impl magnolify_parquet::ListElement for Name {}
impl magnolify_parquet::ListElement for Language {}
impl ParquetRecord for Document {
    const MESSAGE: &'static str = "Document";
    type Borrowed<'a> = Document;
}

fn r1() -> Document {
    Document {
        doc_id: 10,
        links: Some(Links { backward: vec![], forward: vec![20, 40, 60] }),
        name: vec![
            Name {
                language: vec![
                    Language { code: "en-us".into(), country: Some("us".into()) },
                    Language { code: "en".into(), country: None },
                ],
                url: Some("http://A".into()),
            },
            Name { language: vec![], url: Some("http://B".into()) },
            Name { language: vec![Language { code: "en-gb".into(), country: Some("gb".into()) }], url: None },
        ],
    }
}

fn r2() -> Document {
    Document {
        doc_id: 20,
        links: Some(Links { backward: vec![10, 30], forward: vec![80] }),
        name: vec![Name { language: vec![], url: Some("http://C".into()) }],
    }
}

#[test]
fn schema_is_the_papers() {
    let text = schema::to_text(&Document::message().unwrap());
    let expected = "message Document {
  REQUIRED INT64 DocId (INTEGER(64,true));
  OPTIONAL group Links {
    REPEATED INT64 Backward (INTEGER(64,true));
    REPEATED INT64 Forward (INTEGER(64,true));
  }
  REPEATED group Name {
    REPEATED group Language {
      REQUIRED BYTE_ARRAY Code (STRING);
      OPTIONAL BYTE_ARRAY Country (STRING);
    }
    OPTIONAL BYTE_ARRAY Url (STRING);
  }
}
";
    assert_eq!(text, expected);
}

fn strings<'a>(values: Option<LeafValues<'a>>) -> Vec<&'a str> {
    match values {
        Some(LeafValues::Bytes(v)) => v.into_iter().map(|b| std::str::from_utf8(b).unwrap()).collect(),
        other => panic!("expected bytes, got {other:?}"),
    }
}

fn longs<'a>(values: Option<LeafValues<'a>>) -> &'a [i64] {
    match values {
        Some(LeafValues::I64(v)) => v,
        other => panic!("expected INT64, got {other:?}"),
    }
}

/// The paper's Figure 3, as dense values, definition and repetition levels.
#[test]
fn shredding_gives_the_papers_triplets() {
    let converter = Derived::<Document>::new();
    let schema = magnolify_parquet::parquet::schema::types::SchemaDescriptor::new(converter.schema().unwrap());
    let mut sink = ColumnSink::new(&schema);
    for doc in [r1(), r2()] {
        sink.record(|s| converter.write(&doc, s)).unwrap();
    }
    sink.check().unwrap();
    assert_eq!(sink.records(), 2);

    // DocId: required top level, no levels at all.
    assert_eq!(longs(sink.values(0)), [10, 20]);
    assert_eq!(sink.levels(0), (&[][..], &[][..]));
    // Links.Backward
    assert_eq!(longs(sink.values(1)), [10, 30]);
    assert_eq!(sink.levels(1), (&[1, 2, 2][..], &[0, 0, 1][..]));
    // Links.Forward
    assert_eq!(longs(sink.values(2)), [20, 40, 60, 80]);
    assert_eq!(sink.levels(2), (&[2, 2, 2, 2][..], &[0, 1, 1, 0][..]));
    // Name.Language.Code
    assert_eq!(strings(sink.values(3)), ["en-us", "en", "en-gb"]);
    assert_eq!(sink.levels(3), (&[2, 2, 1, 2, 1][..], &[0, 2, 1, 1, 0][..]));
    // Name.Language.Country
    assert_eq!(strings(sink.values(4)), ["us", "gb"]);
    assert_eq!(sink.levels(4), (&[3, 2, 1, 3, 1][..], &[0, 2, 1, 1, 0][..]));
    // Name.Url
    assert_eq!(strings(sink.values(5)), ["http://A", "http://B", "http://C"]);
    assert_eq!(sink.levels(5), (&[2, 2, 1, 2][..], &[0, 1, 1, 0][..]));
}

#[test]
fn assembly_gives_the_records_back() {
    let docs = [r1(), r2()];
    let store = MemPageStore::write_all::<Document>(&docs).unwrap();
    assert_eq!(store.num_rows(), 2);
    let back: Vec<Document> = store.read::<Document>().unwrap().collect::<Result<_>>().unwrap();
    assert_eq!(back, docs);
    // Replayable: a second reader sees the same records.
    let again: Vec<Document> = store.read::<Document>().unwrap().collect::<Result<_>>().unwrap();
    assert_eq!(again, docs);
}

#[test]
fn a_failed_record_is_rolled_back() {
    let converter = Derived::<Document>::new();
    let schema = magnolify_parquet::parquet::schema::types::SchemaDescriptor::new(converter.schema().unwrap());
    let mut sink = ColumnSink::new(&schema);
    sink.record(|s| converter.write(&r1(), s)).unwrap();
    // Shred half of r2, then fail: nothing of it may stay behind.
    let err = sink
        .record(|s| {
            converter.write(&r2(), s)?;
            Err(s.value_error(5, "simulated failure after the whole record"))
        })
        .unwrap_err();
    assert!(err.to_string().contains("Name.Url"), "{err}");
    sink.check().unwrap();
    assert_eq!(sink.records(), 1);
    assert_eq!(longs(sink.values(0)), [10]);
    assert_eq!(sink.levels(1), (&[1][..], &[0][..]));
    assert_eq!(strings(sink.values(5)), ["http://A", "http://B"]);
    assert_eq!(sink.levels(5), (&[2, 2, 1][..], &[0, 1, 1][..]));
    sink.record(|s| converter.write(&r2(), s)).unwrap();
    sink.check().unwrap();
    assert_eq!(sink.levels(4), (&[3, 2, 1, 3, 1][..], &[0, 2, 1, 1, 0][..]));
}

/// Many documents through files: several row groups, every codec, dictionary
/// on and off, both page versions.
#[test]
fn file_round_trip_every_codec_and_layout() {
    use magnolify_parquet::parquet::basic::{Compression, GzipLevel, ZstdLevel};
    use magnolify_parquet::parquet::file::properties::WriterVersion;
    use magnolify_parquet::{ParquetReader, WriterBuilder};

    let docs: Vec<Document> = (0..2500)
        .map(|i| {
            let mut d = if i % 2 == 0 { r1() } else { r2() };
            d.doc_id = i;
            if i % 7 == 0 {
                d.links = None;
            }
            if i % 11 == 0 {
                d.name.clear();
            }
            d
        })
        .collect();
    let codecs = [
        Compression::UNCOMPRESSED,
        Compression::SNAPPY,
        Compression::GZIP(GzipLevel::default()),
        Compression::LZ4_RAW,
        Compression::ZSTD(ZstdLevel::default()),
    ];
    for codec in codecs {
        for dictionary in [true, false] {
            for version in [WriterVersion::PARQUET_1_0, WriterVersion::PARQUET_2_0] {
                let mut w = WriterBuilder::<Document>::new()
                    .compression(codec)
                    .dictionary(dictionary)
                    .writer_version(version)
                    .max_row_group_rows(1000)
                    .data_page_rows(100)
                    .build(Vec::new())
                    .unwrap();
                w.write_all(&docs).unwrap();
                let bytes = bytes::Bytes::from(w.into_inner().unwrap());
                let reader = ParquetReader::<Document, _>::new(bytes).unwrap();
                assert_eq!(reader.metadata().num_row_groups(), 3, "{codec:?}");
                let back: Vec<Document> = reader.collect::<Result<_>>().unwrap();
                assert_eq!(back, docs, "{codec:?} dictionary={dictionary} {version:?}");
            }
        }
    }
}
