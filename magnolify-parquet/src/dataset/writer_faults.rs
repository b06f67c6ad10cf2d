//! The dataset writer on a disk that fails: for every k, the k-th file
//! operation of a whole write (creating a directory or a file, a write, a
//! flush, the sync and the rename that commit a file, the `_SUCCESS`
//! marker) fails, with one thread and with two. Each run must end in an
//! error that says what failed, and leave no `_SUCCESS`, no temporary
//! file, and only complete files, whose records are each written once.

use std::collections::BTreeMap;
use std::io;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use crate::dataset::{DatasetReader, DatasetWriter, SUCCESS_MARKER};
use crate::file::disk::{Disk, Op};
use crate::{Error, ParquetType, ReadOptions, Result};

#[derive(ParquetType, Clone, Debug, PartialEq)]
struct Visit {
    day: u32,
    user: u32,
    page: String,
}

/// 90 visits in blocks of 10 per day over 3 days: with 2 files open per
/// thread and 6 rows per file, files are rolled and records held all along.
fn visits() -> Vec<Visit> {
    (0..90).map(|user| Visit { day: (user / 10) % 3, user, page: format!("/page/{user}") }).collect()
}

/// Counts the operations, fails the `fail_at`-th (from 1), and keeps the
/// kind of each operation passed.
struct Injector {
    seen: AtomicUsize,
    fail_at: usize,
    ops: Mutex<Vec<Op>>,
}

impl Injector {
    fn disk(fail_at: usize) -> (Arc<Injector>, Disk) {
        let injector = Arc::new(Injector { seen: AtomicUsize::new(0), fail_at, ops: Mutex::new(Vec::new()) });
        let hook = injector.clone();
        let disk = Disk::failing(Arc::new(move |op: Op, path: &Path| {
            let k = hook.seen.fetch_add(1, Ordering::SeqCst) + 1;
            hook.ops.lock().unwrap().push(op);
            match k == hook.fail_at {
                true => Err(io::Error::other(format!("injected fault {k} ({op:?} of {})", path.display()))),
                false => Ok(()),
            }
        }));
        (injector, disk)
    }
}

/// Writes every visit, then closes: the first error, if any.
fn write(root: &Path, threads: usize, disk: Disk) -> Result<()> {
    let mut writer = DatasetWriter::builder(root)
        .partition_by(&Visit::fields().day)
        .limits(|l| l.max_rows_per_file(6).max_open_files(2 * threads))
        .threads(threads)
        .writer_id("w")
        .on_disk(disk)
        .build()?;
    if let Err(e) = writer.write_all(&visits()) {
        // A stopped writer says so and commits nothing.
        let closed = writer.close().expect_err("a writer stopped by an error must not close");
        assert!(matches!(closed, Error::WriterState { .. }), "{closed}");
        return Err(e);
    }
    writer.close().map(drop)
}

/// Every file under `root`, relative.
fn files(root: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut dirs = vec![root.to_owned()];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.map(Result::unwrap) {
            match entry.file_type().unwrap().is_dir() {
                true => dirs.push(entry.path()),
                false => found.push(entry.path().strip_prefix(root).unwrap().display().to_string()),
            }
        }
    }
    found.sort();
    found
}

/// The visits the dataset at `root` holds, by user (each file read whole;
/// none when the root could not be created).
fn read_back(root: &Path) -> BTreeMap<u32, Visit> {
    let mut by_user = BTreeMap::new();
    if !root.exists() {
        return by_user;
    }
    let reader = DatasetReader::<Visit>::builder(root).unwrap().build(ReadOptions::default()).unwrap();
    for visit in reader {
        let visit = visit.expect("every visible file reads whole");
        let user = visit.user;
        assert!(by_user.insert(user, visit).is_none(), "user {user} read twice");
    }
    by_user
}

fn sweep(threads: usize) {
    let scratch = tempfile::tempdir().unwrap();
    let clean = scratch.path().join("clean");
    let (counted, disk) = Injector::disk(0);
    write(&clean, threads, disk).unwrap();
    let expected: BTreeMap<u32, Visit> = visits().into_iter().map(|v| (v.user, v)).collect();
    assert_eq!(read_back(&clean), expected);
    let ops = counted.ops.lock().unwrap().clone();
    for kind in [Op::CreateDir, Op::Create, Op::Write, Op::Sync, Op::Rename, Op::Marker] {
        assert!(ops.contains(&kind), "{kind:?} is never tried in {ops:?}");
    }

    let kinds: BTreeMap<String, usize> = ops.iter().fold(BTreeMap::new(), |mut n, op| {
        *n.entry(format!("{op:?}")).or_default() += 1;
        n
    });
    println!("{threads} thread(s): {} fault points {kinds:?}", ops.len());
    for k in 1..=ops.len() {
        let root = scratch.path().join(format!("fault-{k}"));
        let (injector, disk) = Injector::disk(k);
        let error = write(&root, threads, disk).expect_err("every operation's failure is an error");
        let message = error.to_string();
        assert!(message.contains(&format!("injected fault {k} ")), "fault {k}, {threads} threads: {message}");
        let left = files(&root);
        assert!(!left.iter().any(|f| f.ends_with(SUCCESS_MARKER)), "fault {k}: `_SUCCESS` over {message}");
        assert!(!left.iter().any(|f| f.rsplit('/').next().unwrap().starts_with('.')), "fault {k}: {left:?}");
        let read = read_back(&root);
        for (user, visit) in &read {
            assert_eq!(Some(visit), expected.get(user), "fault {k}");
        }
        // The marker is the last operation: every record is in place, the
        // marker is not.
        let failed = injector.ops.lock().unwrap()[k - 1];
        if failed == Op::Marker {
            assert_eq!(read, expected, "fault {k}");
        }
    }
}

#[test]
fn a_failure_at_any_file_operation_of_the_one_thread_writer_leaves_complete_files_and_no_marker() {
    sweep(1);
}

#[test]
fn a_failure_at_any_file_operation_of_the_threaded_writer_leaves_complete_files_and_no_marker() {
    sweep(2);
}
