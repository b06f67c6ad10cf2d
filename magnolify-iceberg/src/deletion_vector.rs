//! Deletion vectors (format v3): the positions deleted in one data file, a
//! blob of type `deletion-vector-v1` in a Puffin file, as the Puffin spec
//! lays it out: the length of what follows (4 bytes, big-endian), the magic
//! `D1 D3 39 64`, the positions as a 64-bit Roaring bitmap in the portable
//! format (a count of 32-bit bitmaps, 8 bytes little-endian, then each
//! one's high 32 bits, 4 bytes little-endian, and the bitmap in Roaring's
//! portable form), and the CRC-32 of the magic and the bitmap (4 bytes,
//! big-endian). A blob names its data file in the property
//! `referenced-data-file` and its count in `cardinality`.

use iceberg::puffin::{PuffinReader, DELETION_VECTOR_V1};
use roaring::RoaringTreemap;

use crate::error::{Error, Result};

/// The magic that starts a deletion vector's payload.
pub(crate) const MAGIC: [u8; 4] = [0xD1, 0xD3, 0x39, 0x64];

/// The property naming a vector's data file.
pub(crate) const REFERENCED_DATA_FILE: &str = "referenced-data-file";

/// The property giving a vector's count of positions.
pub(crate) const CARDINALITY: &str = "cardinality";

/// The positions the deletion vectors of the Puffin file `puffin` (at
/// `path`) delete in the data file `data_file`, in order.
pub(crate) async fn deleted_in(puffin: &PuffinReader, path: &str, data_file: &str) -> Result<Vec<u64>> {
    let damaged = |message: String| Error::DataFile {
        path: path.to_owned(),
        source: magnolify_parquet::Error::argument(format!("a damaged deletion vector of `{data_file}`: {message}")),
    };
    let mut out = Vec::new();
    for blob in puffin.file_metadata().await?.blobs() {
        let referenced = blob.properties().get(REFERENCED_DATA_FILE).map(String::as_str);
        if blob.blob_type() != DELETION_VECTOR_V1 || referenced != Some(data_file) {
            continue;
        }
        let positions = positions(puffin.blob(blob).await?.data()).map_err(damaged)?;
        let cardinality = blob.properties().get(CARDINALITY).and_then(|c| c.parse::<usize>().ok());
        if cardinality != Some(positions.len()) {
            return Err(damaged(format!(
                "it holds {} positions where its `{CARDINALITY}` property says {:?}",
                positions.len(),
                blob.properties().get(CARDINALITY)
            )));
        }
        out.extend(positions);
    }
    Ok(out)
}

/// The positions of a `deletion-vector-v1` blob, or what is wrong with it.
pub(crate) fn positions(blob: &[u8]) -> std::result::Result<Vec<u64>, String> {
    let Some((length, rest)) = blob.split_first_chunk::<4>() else {
        return Err(format!("{} bytes, fewer than its length takes", blob.len()));
    };
    let length = u32::from_be_bytes(*length) as usize;
    if rest.len() != length.saturating_add(4) {
        return Err(format!("its length says {length} bytes and a checksum follow, where {} do", rest.len()));
    }
    let (body, checksum) = rest.split_at(length);
    let expected = u32::from_be_bytes(checksum.try_into().map_err(|_| "no checksum".to_owned())?);
    let actual = crc32fast::hash(body);
    if actual != expected {
        return Err(format!("its CRC-32 is {actual:#010x}, where it says {expected:#010x}"));
    }
    let Some((magic, bitmap)) = body.split_first_chunk::<4>() else {
        return Err("no magic".to_owned());
    };
    if *magic != MAGIC {
        return Err(format!("it starts with {magic:02x?}, not the magic {MAGIC:02x?}"));
    }
    let map = RoaringTreemap::deserialize_from(bitmap).map_err(|e| format!("its bitmap does not read: {e}"))?;
    Ok(map.iter().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A payload of `positions`, laid out by hand as the spec says.
    fn payload(positions: &[u64]) -> Vec<u8> {
        let map: RoaringTreemap = positions.iter().copied().collect();
        let mut body = MAGIC.to_vec();
        map.serialize_into(&mut body).unwrap();
        let mut out = (body.len() as u32).to_be_bytes().to_vec();
        out.extend_from_slice(&body);
        out.extend_from_slice(&crc32fast::hash(&body).to_be_bytes());
        out
    }

    #[test]
    fn a_vector_reads_its_positions_across_32_bit_keys() {
        let deleted = [0, 3, 9, 1 << 32, (1 << 32) + 5];
        assert_eq!(positions(&payload(&deleted)).unwrap(), deleted);
        // The portable form: two 32-bit bitmaps, keys 0 and 1.
        let blob = payload(&deleted);
        assert_eq!(&blob[8..16], &2u64.to_le_bytes());
        assert_eq!(&blob[16..20], &0u32.to_le_bytes());
    }

    #[test]
    fn damaged_vectors_say_what_is_wrong() {
        let mut blob = payload(&[1, 2]);
        let last = blob.len() - 1;
        blob[last] ^= 1;
        assert!(positions(&blob).unwrap_err().starts_with("its CRC-32 is"));
        let mut blob = payload(&[1, 2]);
        blob[4] = 0;
        let crc = crc32fast::hash(&blob[4..blob.len() - 4]).to_be_bytes();
        let at = blob.len() - 4;
        blob[at..].copy_from_slice(&crc);
        assert_eq!(positions(&blob).unwrap_err(), "it starts with [00, d3, 39, 64], not the magic [d1, d3, 39, 64]");
        assert!(positions(&[0, 0]).unwrap_err().contains("fewer than its length"));
        assert!(positions(&payload(&[1])[..10]).unwrap_err().starts_with("its length says"));
    }
}
