//! Delete files committed by hand, as a catalog would (neither
//! iceberg-rust 0.10 nor pyiceberg 0.12 writes them): a delete file, a
//! delete manifest, a manifest list and a snapshot in new table metadata,
//! registered under a new name. The delete tests and the peer check's
//! example share it.
#![allow(dead_code)] // each user takes what it needs

use std::collections::HashMap;

use iceberg::puffin::{Blob, CompressionCodec, PuffinReader, PuffinWriter, DELETION_VECTOR_V1};
use iceberg::spec::{
    DataContentType, DataFile, DataFileBuilder, DataFileFormat, FormatVersion, ManifestListWriter,
    ManifestWriterBuilder, Operation, Snapshot, Summary, TableMetadataBuilder,
};
use iceberg::table::Table;
use iceberg::{Catalog, TableIdent};
use magnolify_parquet::{OwnedRecord, ParquetType, ParquetWriter};
use roaring::RoaringTreemap;

/// A row of a position-delete file, with the ids the Iceberg spec reserves.
#[derive(ParquetType)]
struct PositionDelete {
    #[parquet(field_id = 2147483546)]
    file_path: String,
    #[parquet(field_id = 2147483545)]
    pos: i64,
}

/// What a delete file deletes.
pub enum Deletes {
    /// These rows of the data file.
    Positions(Vec<i64>),
    /// The records whose columns `ids` equal a row of `file` (an
    /// equality-delete file of `rows` rows).
    Equality { ids: Vec<i32>, file: Vec<u8>, rows: usize },
    /// These rows of the data file, as a deletion vector (format v3).
    Vector(Vec<u64>),
}

impl Deletes {
    /// An equality-delete file on the columns `ids`, of `rows` (a type
    /// whose fields carry those ids, as the spec asks of delete files).
    pub fn equality<D: OwnedRecord>(ids: &[i32], rows: &[D]) -> Deletes {
        let mut writer = ParquetWriter::<D, _>::new(Vec::new()).unwrap();
        writer.write_all(rows).unwrap();
        Deletes::Equality { ids: ids.to_vec(), file: writer.into_inner().unwrap(), rows: rows.len() }
    }
}

/// `table` with a snapshot on top of its current one that deletes
/// `deletes` of `data_file`, registered as `name`; returns it and the
/// delete file's path.
pub async fn with_delete(
    catalog: &impl Catalog,
    table: &Table,
    data_file: &str,
    deletes: Deletes,
    name: &TableIdent,
) -> (Table, String) {
    let metadata = table.metadata();
    let parent = metadata.current_snapshot().unwrap().clone();
    let location = metadata.location().trim_end_matches('/');
    let io = table.file_io();

    // A delete file sits in its data file's partition.
    let existing = table.manifest_list_reader(&parent).load().await.unwrap();
    let mut partition = None;
    for manifest in existing.entries() {
        let entries = manifest.load_manifest(io).await.unwrap();
        let found = entries.entries().iter().find(|e| e.data_file().file_path() == data_file);
        partition = partition.or_else(|| found.map(|e| e.data_file().partition().clone()));
    }
    let partition = partition.expect("the data file in the snapshot's manifests");

    if let Deletes::Vector(positions) = deletes {
        let mut builder = deletion_vector(table, data_file, &positions).await;
        builder.partition(partition).partition_spec_id(metadata.default_partition_spec_id());
        let delete_file = builder.build().unwrap();
        let delete_path = delete_file.file_path().to_owned();
        return (committed(catalog, table, delete_file, name).await, delete_path);
    }
    let delete_path = format!("{location}/data/deletes-{}.parquet", uuid::Uuid::new_v4());
    let (bytes, rows, content, equality_ids) = match deletes {
        Deletes::Positions(positions) => {
            let mut writer = ParquetWriter::<PositionDelete, _>::new(Vec::new()).unwrap();
            for pos in &positions {
                writer.write(&PositionDelete { file_path: data_file.to_owned(), pos: *pos }).unwrap();
            }
            (writer.into_inner().unwrap(), positions.len(), DataContentType::PositionDeletes, None)
        }
        Deletes::Equality { ids, file, rows } => (file, rows, DataContentType::EqualityDeletes, Some(ids)),
        Deletes::Vector(_) => unreachable!("committed above"),
    };
    let size = bytes.len() as u64;
    io.new_output(&delete_path).unwrap().write(bytes.into()).await.unwrap();
    let delete_file = DataFileBuilder::default()
        .content(content)
        .equality_ids(equality_ids)
        .file_path(delete_path.clone())
        .file_format(DataFileFormat::Parquet)
        .partition(partition)
        .partition_spec_id(metadata.default_partition_spec_id())
        .record_count(rows as u64)
        .file_size_in_bytes(size)
        .build()
        .unwrap();
    (committed(catalog, table, delete_file, name).await, delete_path)
}

/// `table` with a snapshot on top of its current one that adds
/// `delete_file`, registered as `name`.
async fn committed(catalog: &impl Catalog, table: &Table, delete_file: DataFile, name: &TableIdent) -> Table {
    let metadata = table.metadata();
    let parent = metadata.current_snapshot().unwrap().clone();
    let (snapshot_id, sequence) = (parent.snapshot_id() + 1, parent.sequence_number() + 1);
    let location = metadata.location().trim_end_matches('/');
    let io = table.file_io();
    let existing = table.manifest_list_reader(&parent).load().await.unwrap();
    let manifest_path = format!("{location}/metadata/{}-m0.avro", uuid::Uuid::new_v4());
    let manifest = ManifestWriterBuilder::new(
        io.new_output(&manifest_path).unwrap(),
        Some(snapshot_id),
        metadata.current_schema().clone(),
        metadata.default_partition_spec().as_ref().clone(),
    );
    let v3 = metadata.format_version() >= FormatVersion::V3;
    let mut manifest = if v3 { manifest.build_v3_deletes() } else { manifest.build_v2_deletes() };
    manifest.add_file(delete_file, sequence).unwrap();
    let deletes = manifest.write_manifest_file().await.unwrap();

    let list_path = format!("{location}/metadata/snap-{snapshot_id}-{}.avro", uuid::Uuid::new_v4());
    let sink = io.new_output(&list_path).unwrap().writer().await.unwrap();
    // Format v3 numbers rows: the list gives the manifests without first
    // row ids theirs, and the snapshot says how many that added.
    let first_row_id = metadata.next_row_id();
    let mut list = match v3 {
        true => ManifestListWriter::v3(sink, snapshot_id, Some(parent.snapshot_id()), sequence, Some(first_row_id)),
        false => ManifestListWriter::v2(sink, snapshot_id, Some(parent.snapshot_id()), sequence),
    };
    list.add_manifests(existing.entries().iter().cloned().chain([deletes])).unwrap();
    let next_row_id = list.next_row_id();
    list.close().await.unwrap();

    let snapshot = Snapshot::builder()
        .with_snapshot_id(snapshot_id)
        .with_parent_snapshot_id(Some(parent.snapshot_id()))
        .with_sequence_number(sequence)
        .with_timestamp_ms(parent.timestamp_ms() + 1)
        .with_manifest_list(list_path)
        .with_summary(Summary { operation: Operation::Delete, additional_properties: HashMap::new() })
        .with_schema_id(metadata.current_schema_id())
        .with_row_range(first_row_id, next_row_id.map_or(0, |next| next - first_row_id))
        .build();
    let metadata =
        TableMetadataBuilder::new_from_metadata(metadata.clone(), table.metadata_location().map(str::to_owned))
            .set_branch_snapshot(snapshot, "main")
            .unwrap()
            .build()
            .unwrap()
            .metadata;
    super::registered(catalog, table, metadata, name).await
}

/// A Puffin file of one deletion vector of `positions` in `data_file`,
/// written as the Puffin spec lays it out, and its manifest entry but the
/// partition.
async fn deletion_vector(table: &Table, data_file: &str, positions: &[u64]) -> DataFileBuilder {
    let map: RoaringTreemap = positions.iter().copied().collect();
    let mut body = vec![0xD1, 0xD3, 0x39, 0x64];
    map.serialize_into(&mut body).unwrap();
    let mut payload = (body.len() as u32).to_be_bytes().to_vec();
    payload.extend_from_slice(&body);
    payload.extend_from_slice(&crc32fast::hash(&body).to_be_bytes());
    let properties = HashMap::from([
        ("referenced-data-file".to_owned(), data_file.to_owned()),
        ("cardinality".to_owned(), positions.len().to_string()),
    ]);
    // Not known when a vector is written: -1, as the spec says.
    let blob = Blob::builder()
        .r#type(DELETION_VECTOR_V1.to_owned())
        .fields(vec![2147483645])
        .snapshot_id(-1)
        .sequence_number(-1)
        .data(payload)
        .properties(properties)
        .build();
    let io = table.file_io();
    let path = format!("{}/data/dv-{}.puffin", table.metadata().location().trim_end_matches('/'), uuid::Uuid::new_v4());
    let mut writer = PuffinWriter::new(&io.new_output(&path).unwrap(), HashMap::new(), false).await.unwrap();
    writer.add(blob, CompressionCodec::None).await.unwrap();
    writer.close().await.unwrap();
    let reader = PuffinReader::new(io.new_input(&path).unwrap());
    let written = &reader.file_metadata().await.unwrap().blobs()[0];
    let size = io.new_input(&path).unwrap().metadata().await.unwrap().size;
    let mut builder = DataFileBuilder::default();
    builder
        .content(DataContentType::PositionDeletes)
        .file_path(path)
        .file_format(DataFileFormat::Puffin)
        .record_count(positions.len() as u64)
        .file_size_in_bytes(size)
        .referenced_data_file(Some(data_file.to_owned()))
        .content_offset(Some(written.offset() as i64))
        .content_size_in_bytes(Some(written.length() as i64));
    builder
}
