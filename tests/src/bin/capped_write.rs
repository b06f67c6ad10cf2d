//! `capped_write PATH N`: writes N records to PATH with
//! `ParquetWriter::create` and closes it; prints the error and exits 3 if
//! anything fails. `tests/tests/it/writer_faults.rs` runs it under a
//! file-size limit (`ulimit -f`, with SIGXFSZ ignored, so that a write past
//! the limit fails with EFBIG as on a full disk) and checks what it leaves.
#![forbid(unsafe_code)]

use magnolify_parquet::{ParquetType, WriterBuilder};

#[derive(ParquetType)]
struct Line {
    id: u64,
    text: String,
}

fn write(path: &str, n: u64) -> magnolify_parquet::Result<()> {
    let mut w = WriterBuilder::<Line>::new().max_row_group_rows(500).create(path)?;
    for id in 0..n {
        // Varied text, so that the file is as large as its records.
        w.write(&Line { id, text: format!("line {id} {}", id.wrapping_mul(0x9E37_79B9_7F4A_7C15)) })?;
    }
    w.close().map(|_| ())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(path), Some(Ok(n))) = (args.get(1), args.get(2).map(|n| n.parse::<u64>())) else {
        eprintln!("usage: capped_write PATH RECORDS");
        std::process::exit(2);
    };
    if let Err(e) = write(path, n) {
        eprintln!("capped_write: {e}");
        std::process::exit(3);
    }
}
