//! Writer faults: a sink that fails at its k-th call, for every k over the
//! writing of a file of several row groups. A failing write or flush is
//! returned as the I/O error it is, never a panic, and the writer is then
//! unusable (every later call says why); a short write or an `Interrupted`
//! error, which `Write` allows, gives exactly the bytes of a clean run; a
//! sink that fills up (a full disk) fails like a failing write.
//! `create(path)` over a full disk leaves no file: `tests/src/bin/capped_write.rs`.

use std::io::{self, Write};

use bytes::Bytes;
use magnolify_parquet::{Error, ReadOptions, ReaderBuilder, WriterBuilder};

use crate::damaged_files::{events, Event};

/// What the sink does wrong, and at which call.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Fault {
    /// The k-th `write` fails.
    WriteError(usize),
    /// The k-th `write` takes only half of what it is given.
    ShortWrite(usize),
    /// The k-th `write` is interrupted (nothing written; try again).
    Interrupted(usize),
    /// The k-th `flush` fails.
    FlushError(usize),
    /// Holds this many bytes, then fails every write: a full disk.
    Full(usize),
}

/// A `Vec<u8>` sink with one fault.
struct FaultySink {
    bytes: Vec<u8>,
    writes: usize,
    flushes: usize,
    fault: Option<Fault>,
}

impl FaultySink {
    fn new(fault: Option<Fault>) -> Self {
        FaultySink { bytes: Vec::new(), writes: 0, flushes: 0, fault }
    }
}

impl Write for FaultySink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.writes += 1;
        let n = match self.fault {
            Some(Fault::WriteError(k)) if k == self.writes => {
                return Err(io::Error::other(format!("injected at write {k}")))
            }
            Some(Fault::Interrupted(k)) if k == self.writes => return Err(io::ErrorKind::Interrupted.into()),
            Some(Fault::ShortWrite(k)) if k == self.writes => buf.len().div_ceil(2),
            Some(Fault::Full(cap)) if self.bytes.len() + buf.len() > cap => {
                return Err(io::Error::new(io::ErrorKind::StorageFull, "injected: the disk is full"))
            }
            _ => buf.len(),
        };
        self.bytes.extend_from_slice(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.flushes += 1;
        match self.fault {
            Some(Fault::FlushError(k)) if k == self.flushes => Err(io::Error::other(format!("injected at flush {k}"))),
            _ => Ok(()),
        }
    }
}

/// How writing the file went.
enum Run {
    /// Every call succeeded: the sink.
    Written(FaultySink),
    /// The first error, and what one more `write` and `close` returned after it
    /// (`None` when the error came from the closing call itself).
    Failed(Error, Option<(Error, Error)>),
}

/// Writes `records` in several row groups (and several batches and pages
/// in each) through `threads` threads.
fn write(records: &[Event], fault: Option<Fault>, threads: usize) -> Run {
    let builder =
        WriterBuilder::<Event>::new().max_row_group_rows(40).batch_size(16).data_page_rows(10).threads(threads);
    let mut w = match builder.build(FaultySink::new(fault)) {
        Ok(w) => w,
        Err(e) => return Run::Failed(e, None),
    };
    for r in records {
        if let Err(e) = w.write(r) {
            let again = w.write(r).expect_err("a writer after an I/O error");
            let close = w.close().expect_err("a writer after an I/O error");
            return Run::Failed(e, Some((again, close)));
        }
    }
    match w.into_inner() {
        Ok(sink) => Run::Written(sink),
        Err(e) => Run::Failed(e, None),
    }
}

fn assert_failed_as_injected(run: Run, what: &str) {
    let Run::Failed(first, later) = run else { panic!("{what}: written without an error") };
    assert!(matches!(first, Error::Io { .. }), "{what}: the first error is the I/O error: {first:?}");
    assert!(first.to_string().contains("injected"), "{what}: {first}");
    if let Some((again, close)) = later {
        for e in [again, close] {
            assert!(
                matches!(&e, Error::WriterState { source: Some(why) } if why.to_string().contains("injected")),
                "{what}: a later call says why the writer stopped: {e:?}"
            );
        }
    }
}

#[test]
fn a_sink_failing_at_any_call_fails_the_writer_and_no_other_fault_changes_a_byte() {
    let records = events(1000);
    for threads in [1, 2] {
        let Run::Written(clean) = write(&records, None, threads) else { panic!("a clean run fails") };
        let back: Vec<Event> = ReaderBuilder::new(Bytes::from(clean.bytes.clone()))
            .unwrap()
            .build(ReadOptions::default())
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(back, records);
        // The file writer hands the sink its row groups in buffers of 8 KiB
        // (or whole, when larger), then its page indexes and footer in one
        // write (held until the footer's column orders are set): many
        // calls for faults to land on.
        assert!(clean.writes >= 10, "{} writes of {} bytes", clean.writes, clean.bytes.len());
        for k in 1..=clean.writes {
            let what = |f: Fault| format!("{f:?}, {threads} threads, of {} writes", clean.writes);
            assert_failed_as_injected(
                write(&records, Some(Fault::WriteError(k)), threads),
                &what(Fault::WriteError(k)),
            );
            for fault in [Fault::ShortWrite(k), Fault::Interrupted(k)] {
                match write(&records, Some(fault), threads) {
                    Run::Written(sink) => assert!(sink.bytes == clean.bytes, "{}: other bytes", what(fault)),
                    Run::Failed(e, _) => panic!("{}: {e}", what(fault)),
                }
            }
        }
        for k in 1..=clean.flushes {
            let fault = Fault::FlushError(k);
            assert_failed_as_injected(write(&records, Some(fault), threads), &format!("{fault:?}, {threads} threads"));
        }
        // A disk that fills up anywhere in the file, header to footer.
        let step = clean.bytes.len() / 50;
        for cap in (0..clean.bytes.len()).step_by(step) {
            assert_failed_as_injected(write(&records, Some(Fault::Full(cap)), threads), &format!("full at {cap}"));
        }
        eprintln!(
            "{threads} threads: {} writes and {} flushes, each failed, cut short and interrupted in turn; \
             the disk full at {} sizes",
            clean.writes,
            clean.flushes,
            clean.bytes.len().div_ceil(step)
        );
    }
}

/// `create(path)` on a disk that fills up: a child process writes under a
/// file-size limit (`ulimit -f`, SIGXFSZ ignored, so a write past it fails
/// with EFBIG as on a full disk). It fails with the I/O error, and leaves
/// no file and no temporary, and an older file at the path untouched.
#[cfg(unix)]
#[test]
fn create_on_a_full_disk_leaves_no_file_and_an_older_one_untouched() {
    let bin = env!("CARGO_BIN_EXE_capped_write");
    let scratch = tempfile::Builder::new().prefix("magnolify-full-disk-").tempdir().expect("dir");
    let dir = scratch.path();
    let target = dir.join("lines.parquet");
    let run = |limit_blocks: Option<u32>| {
        let limit = limit_blocks.map_or_else(String::new, |b| format!("ulimit -f {b}; "));
        std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("trap '' XFSZ; {limit}exec \"$0\" \"$@\""))
            .arg(bin)
            .arg(&target)
            .arg("20000")
            .output()
            .expect("run capped_write")
    };
    let listing = || {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .expect("list")
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };

    // Unlimited, the same run writes the file: the limit is what fails below.
    let ok = run(None);
    assert!(ok.status.success(), "{}", String::from_utf8_lossy(&ok.stderr));
    let full_size = std::fs::metadata(&target).expect("written").len();
    assert!(full_size > 64 * 1024, "{full_size} bytes");

    std::fs::write(&target, b"the previous version").expect("seed");
    // 64 blocks of 512 bytes: 32 KiB, a fraction of the file.
    let capped = run(Some(64));
    let stderr = String::from_utf8_lossy(&capped.stderr);
    assert_eq!(capped.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("i/o"), "{stderr}");
    assert_eq!(std::fs::read(&target).expect("the older file"), b"the previous version");
    assert_eq!(listing(), ["lines.parquet"], "no temporary left");

    std::fs::remove_file(&target).expect("remove");
    let capped = run(Some(64));
    assert_eq!(capped.status.code(), Some(3), "{}", String::from_utf8_lossy(&capped.stderr));
    assert!(listing().is_empty(), "{:?}", listing());
}
