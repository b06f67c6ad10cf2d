//! An Avro object container file writer whose output depends on its input
//! alone.
//!
//! apache-avro's `Writer` gives different bytes for the same records on
//! every run, for three reasons: its sync marker is random, the header's
//! metadata is a `HashMap` (so `avro.schema` and `avro.codec` come in
//! either order), and `Value::Map` is a `HashMap` too, whose entries come
//! out in a per-process random order. A fixed marker can be set
//! (`Writer::builder().marker(..)`), but neither map order can. So this
//! writer lays out the container itself (the format is small: a header,
//! then blocks of `count, size, data, marker`) and encodes values with map
//! entries sorted by key; the sync marker is derived from the schema, so
//! that equal inputs give equal files while files of different schemas
//! get different markers. Blocks are compressed with apache-avro's own
//! [`Codec`], and apache-avro's `Reader` reads the result.

use std::collections::HashMap;
use std::io::Write;

use apache_avro::schema::{Name, Namespace, ResolvedSchema};
use apache_avro::types::Value;
use apache_avro::{Codec, Schema};

/// Uncompressed bytes gathered before a block is written (Java's default
/// sync interval is 64 000).
const BLOCK_BYTES: usize = 64 * 1024;

/// Writes `Value`s of one schema as an Avro object container file.
pub struct ContainerWriter<'s, W: Write> {
    out: W,
    schema: &'s Schema,
    names: HashMap<Name, &'s Schema>,
    codec: Codec,
    marker: [u8; 16],
    block: Vec<u8>,
    count: i64,
}

/// A value that does not fit the schema, or an I/O or codec error.
pub type Result<T> = std::result::Result<T, String>;

impl<'s, W: Write> ContainerWriter<'s, W> {
    /// Writes the header (magic, schema, codec, marker) to `out`.
    pub fn new(mut out: W, schema: &'s Schema, codec: Codec) -> Result<Self> {
        let names = ResolvedSchema::try_from(schema)
            .map_err(|e| format!("invalid Avro schema: {e}"))?
            .get_names()
            .iter()
            .map(|(name, s)| (name.clone(), *s))
            .collect();
        let json = serde_json::to_string(schema).map_err(|e| format!("cannot write the Avro schema: {e}"))?;
        let marker = sync_marker(json.as_bytes());
        let mut metadata: Vec<(&str, Vec<u8>)> =
            vec![("avro.codec", <&str>::from(codec).as_bytes().to_vec()), ("avro.schema", json.into_bytes())];
        if let Codec::Zstandard(settings) = codec {
            metadata.push(("avro.codec.compression_level", vec![settings.compression_level]));
        }
        metadata.sort();
        let mut header = b"Obj\x01".to_vec();
        long(metadata.len() as i64, &mut header);
        for (key, value) in &metadata {
            bytes(key.as_bytes(), &mut header);
            bytes(value, &mut header);
        }
        long(0, &mut header);
        header.extend_from_slice(&marker);
        out.write_all(&header).map_err(|e| e.to_string())?;
        Ok(ContainerWriter { out, schema, names, codec, marker, block: Vec::new(), count: 0 })
    }

    /// Appends one record.
    pub fn append(&mut self, value: &Value) -> Result<()> {
        let mark = self.block.len();
        if let Err(e) = self.encode(value, self.schema, &None) {
            self.block.truncate(mark);
            return Err(e);
        }
        self.count += 1;
        if self.block.len() >= BLOCK_BYTES {
            self.flush_block()?;
        }
        Ok(())
    }

    /// Writes the last block and returns the output.
    pub fn finish(mut self) -> Result<W> {
        self.flush_block()?;
        self.out.flush().map_err(|e| e.to_string())?;
        Ok(self.out)
    }

    fn flush_block(&mut self) -> Result<()> {
        if self.count == 0 {
            return Ok(());
        }
        let mut data = std::mem::take(&mut self.block);
        self.codec.compress(&mut data).map_err(|e| format!("compression failed: {e}"))?;
        let mut head = Vec::with_capacity(20);
        long(self.count, &mut head);
        long(data.len() as i64, &mut head);
        self.out.write_all(&head).map_err(|e| e.to_string())?;
        self.out.write_all(&data).map_err(|e| e.to_string())?;
        self.out.write_all(&self.marker).map_err(|e| e.to_string())?;
        self.count = 0;
        self.block = data;
        self.block.clear();
        Ok(())
    }

    /// Encodes `value` of `schema` (within namespace `ns`) into the block.
    fn encode(&mut self, value: &Value, schema: &'s Schema, ns: &Namespace) -> Result<()> {
        if let Schema::Ref { name } = schema {
            let full = name.fully_qualified_name(ns);
            let target = *self.names.get(&full).ok_or_else(|| format!("unknown Avro type {}", full.fullname(None)))?;
            return self.encode(value, target, &full.namespace);
        }
        let out = &mut self.block;
        match (value, schema) {
            (Value::Null, _) => {}
            (Value::Boolean(b), _) => out.push(u8::from(*b)),
            (Value::Int(v) | Value::Date(v) | Value::TimeMillis(v), _) => long(i64::from(*v), out),
            (
                Value::Long(v)
                | Value::TimeMicros(v)
                | Value::TimestampMillis(v)
                | Value::TimestampMicros(v)
                | Value::TimestampNanos(v)
                | Value::LocalTimestampMillis(v)
                | Value::LocalTimestampMicros(v)
                | Value::LocalTimestampNanos(v),
                _,
            ) => long(*v, out),
            (Value::Float(v), _) => out.extend_from_slice(&v.to_le_bytes()),
            (Value::Double(v), _) => out.extend_from_slice(&v.to_le_bytes()),
            (Value::Bytes(b), Schema::Fixed(_)) | (Value::Fixed(_, b), _) => out.extend_from_slice(b),
            (Value::Bytes(b), _) => bytes(b, out),
            (Value::String(s), Schema::Enum(e)) => match e.symbols.iter().position(|x| x == s) {
                Some(i) => long(i as i64, out),
                None => return Err(format!("{s:?} is not a symbol of enum {}", e.name.fullname(None))),
            },
            (Value::String(s), _) => bytes(s.as_bytes(), out),
            (Value::Enum(i, _), _) => long(i64::from(*i), out),
            (Value::Uuid(u), Schema::Fixed(_)) => out.extend_from_slice(u.as_bytes()),
            (Value::Uuid(u), _) => bytes(u.hyphenated().to_string().as_bytes(), out),
            (Value::Duration(d), _) => out.extend_from_slice(&<[u8; 12]>::from(*d)),
            (Value::Decimal(d), Schema::Decimal(s)) => {
                let be = Vec::<u8>::try_from(d).map_err(|e| e.to_string())?;
                match self.resolve(&s.inner, ns)? {
                    Schema::Fixed(f) => sign_extend(&be, f.size, &mut self.block)?,
                    _ => bytes(&be, &mut self.block),
                }
            }
            (Value::BigDecimal(_), _) => {
                let encoded =
                    apache_avro::to_avro_datum(&Schema::BigDecimal, value.clone()).map_err(|e| e.to_string())?;
                out.extend_from_slice(&encoded);
            }
            (Value::Union(i, inner), Schema::Union(u)) => {
                let branch = u.variants().get(*i as usize).ok_or_else(|| format!("no union branch {i}"))?;
                long(i64::from(*i), out);
                return self.encode(inner, branch, ns);
            }
            (Value::Array(items), Schema::Array(a)) => {
                if !items.is_empty() {
                    long(items.len() as i64, out);
                    for item in items {
                        self.encode(item, &a.items, ns)?;
                    }
                }
                long(0, &mut self.block);
            }
            (Value::Map(entries), Schema::Map(m)) => {
                // Sorted by key: a HashMap's own order changes from run to run.
                let mut sorted: Vec<(&String, &Value)> = entries.iter().collect();
                sorted.sort_unstable_by(|a, b| a.0.cmp(b.0));
                if !sorted.is_empty() {
                    long(sorted.len() as i64, out);
                    for (key, item) in sorted {
                        bytes(key.as_bytes(), &mut self.block);
                        self.encode(item, &m.types, ns)?;
                    }
                }
                long(0, &mut self.block);
            }
            (Value::Record(fields), Schema::Record(r)) => {
                if fields.len() != r.fields.len() {
                    return Err(format!(
                        "record {} has {} fields, the value {}",
                        r.name.fullname(None),
                        r.fields.len(),
                        fields.len()
                    ));
                }
                let full = r.name.fully_qualified_name(ns);
                for (field, (_, v)) in r.fields.iter().zip(fields) {
                    self.encode(v, &field.schema, &full.namespace)?;
                }
            }
            (other, schema) => return Err(format!("a {other:?} value does not fit the Avro type {schema:?}")),
        }
        Ok(())
    }

    /// `schema`, or the named type it refers to.
    fn resolve(&self, schema: &'s Schema, ns: &Namespace) -> Result<&'s Schema> {
        match schema {
            Schema::Ref { name } => {
                let full = name.fully_qualified_name(ns);
                self.names.get(&full).copied().ok_or_else(|| format!("unknown Avro type {}", full.fullname(None)))
            }
            other => Ok(other),
        }
    }
}

/// Appends an Avro `long`: zigzag, then variable-length (7 bits a byte).
fn long(v: i64, out: &mut Vec<u8>) {
    let mut z = ((v << 1) ^ (v >> 63)) as u64;
    while z >= 0x80 {
        out.push((z as u8 & 0x7f) | 0x80);
        z >>= 7;
    }
    out.push(z as u8);
}

/// Appends Avro `bytes` (or a string): its length, then the bytes.
fn bytes(b: &[u8], out: &mut Vec<u8>) {
    long(b.len() as i64, out);
    out.extend_from_slice(b);
}

/// Appends a two's complement big-endian integer sign-extended to `size` bytes.
fn sign_extend(be: &[u8], size: usize, out: &mut Vec<u8>) -> Result<()> {
    let pad =
        size.checked_sub(be.len()).ok_or_else(|| format!("a decimal of {} bytes in a fixed({size})", be.len()))?;
    let fill = if be.first().is_some_and(|b| b & 0x80 != 0) { 0xff } else { 0 };
    out.extend(std::iter::repeat_n(fill, pad));
    out.extend_from_slice(be);
    Ok(())
}

/// A sync marker from `seed` (the schema's JSON): two 64-bit FNV-1a hashes
/// with different offsets. Not secret, just unlikely to occur in the data.
fn sync_marker(seed: &[u8]) -> [u8; 16] {
    let fnv = |offset: u64| seed.iter().fold(offset, |h, b| (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3));
    let mut marker = [0u8; 16];
    marker[..8].copy_from_slice(&fnv(0xcbf2_9ce4_8422_2325).to_le_bytes());
    marker[8..].copy_from_slice(&fnv(0x6c62_272e_07bb_0142).to_le_bytes());
    marker
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn longs_are_zigzag_varints() {
        let mut out = Vec::new();
        for v in [0, -1, 1, -64, 64, i64::MIN] {
            long(v, &mut out);
        }
        assert_eq!(out, [0, 1, 2, 127, 128, 1, 255, 255, 255, 255, 255, 255, 255, 255, 255, 1]);
    }

    #[test]
    fn maps_come_out_sorted_and_readable() {
        let schema = Schema::parse_str(
            r#"{"type": "record", "name": "r", "fields": [
                {"name": "m", "type": {"type": "map", "values": "long"}},
                {"name": "d", "type": {"type": "fixed", "name": "f", "size": 4, "logicalType": "decimal", "precision": 8, "scale": 2}}
            ]}"#,
        )
        .expect("schema");
        let map: HashMap<String, Value> = (0..50).map(|i| (format!("k{i}"), Value::Long(i))).collect();
        let record = Value::Record(vec![
            ("m".into(), Value::Map(map)),
            ("d".into(), Value::Decimal(apache_avro::Decimal::from(vec![0xff, 0x85]))),
        ]);
        let write = || {
            let mut w = ContainerWriter::new(Vec::new(), &schema, Codec::Null).expect("writer");
            w.append(&record).expect("append");
            w.finish().expect("finish")
        };
        let bytes = write();
        assert_eq!(bytes, write());
        let back: Vec<Value> =
            apache_avro::Reader::new(&bytes[..]).expect("reader").map(|v| v.expect("value")).collect();
        assert_eq!(back.len(), 1);
        let Value::Record(fields) = &back[0] else { panic!("{back:?}") };
        assert_eq!(fields[0].1, record_field(&record, 0));
        assert_eq!(fields[1].1, Value::Decimal(apache_avro::Decimal::from(vec![0xff, 0xff, 0xff, 0x85])));
    }

    fn record_field(v: &Value, i: usize) -> Value {
        match v {
            Value::Record(f) => f[i].1.clone(),
            _ => Value::Null,
        }
    }
}
