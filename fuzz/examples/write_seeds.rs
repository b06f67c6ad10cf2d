//! Writes the seed corpora of the targets that read files:
//!
//! ```text
//! cargo run --example write_seeds            # into fuzz/corpus/{read_derived,read_borrowed,read_avro}
//! cargo run --example write_seeds -- DIR     # into DIR/{read_derived,read_borrowed,read_avro}
//! ```
//!
//! Seeds are files the library writes (every codec, both dictionary
//! settings, data pages v1 and v2, small row groups and pages) and the real
//! files of `tests/fixtures` (other writers, damaged files). Nothing here is
//! committed: the corpus is rebuilt on demand.

use std::path::{Path, PathBuf};

use magnolify_parquet_fuzz::{avro_seeds, derived_seeds};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = std::env::args().nth(1).map_or_else(|| here.join("corpus"), PathBuf::from);
    let fixtures = here.join("../tests/fixtures");
    let mut others = Vec::new();
    collect_parquet(&fixtures, &mut others)?;
    others.sort();

    let targets =
        [("read_derived", derived_seeds()?), ("read_borrowed", derived_seeds()?), ("read_avro", avro_seeds()?)];
    for (target, own) in targets {
        let dir = root.join(target);
        std::fs::create_dir_all(&dir)?;
        for (name, bytes) in &own {
            std::fs::write(dir.join(name), bytes)?;
        }
        for path in &others {
            let name = path.strip_prefix(&fixtures)?.to_string_lossy().replace('/', "_");
            std::fs::copy(path, dir.join(format!("fixture-{name}")))?;
        }
        println!("{}: {} seeds written by the library, {} fixtures", dir.display(), own.len(), others.len());
    }
    Ok(())
}

fn collect_parquet(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect_parquet(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "parquet") {
            out.push(path);
        }
    }
    Ok(())
}
