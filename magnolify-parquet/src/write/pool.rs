//! The encoding threads of a writer given more than one thread: the column
//! chunks of a row group are split between them and the caller's thread,
//! batch by batch. Encoders and their batch buffers move to a worker and
//! back (no locks around them); each column's pages go to its own page
//! writer, so the workers share nothing.

use std::sync::mpsc::{channel, Receiver, Sender};
use std::thread::JoinHandle;

use parquet::column::writer::ColumnCloseResult;
use parquet::errors::Result as ParquetResult;

use super::encode::ChunkEncoder;
use crate::error::{Error, Location, Result};
use crate::shred::LeafBuffer;

/// One column's batch, to encode on a worker.
pub(crate) struct Task {
    pub(crate) index: usize,
    pub(crate) encoder: Box<ChunkEncoder>,
    pub(crate) leaf: LeafBuffer,
}

/// What a worker is asked to do.
enum Job {
    Write(Vec<Task>),
    Close(Vec<(usize, Box<ChunkEncoder>)>),
}

/// What a worker did: each task back with its result.
enum Done {
    Written(Vec<(Task, ParquetResult<()>)>),
    Closed(Vec<(usize, ParquetResult<ColumnCloseResult>)>),
}

struct Worker {
    jobs: Sender<Job>,
    done: Receiver<Done>,
    _thread: JoinHandle<()>,
}

/// Threads that encode column chunks; they end when the pool is dropped.
pub(crate) struct EncodePool {
    workers: Vec<Worker>,
}

impl EncodePool {
    /// A pool of `workers` threads.
    pub(crate) fn new(workers: usize) -> Result<Self> {
        let workers = (0..workers)
            .map(|i| {
                let (jobs, inbox) = channel::<Job>();
                let (outbox, done) = channel::<Done>();
                let thread = std::thread::Builder::new()
                    .name(format!("magnolify-parquet encode {i}"))
                    .spawn(move || {
                        for job in inbox {
                            if outbox.send(run(job)).is_err() {
                                return;
                            }
                        }
                    })
                    .map_err(|e| {
                        Error::argument(format!("could not start an encoding thread ({e}); write with 1 thread"))
                    })?;
                Ok(Worker { jobs, done, _thread: thread })
            })
            .collect::<Result<_>>()?;
        Ok(EncodePool { workers })
    }

    /// Number of worker threads (the caller's thread works too).
    pub(crate) fn workers(&self) -> usize {
        self.workers.len()
    }

    /// Sends each worker its tasks and returns at once: the caller's thread
    /// goes on (encoding its own columns, shredding the next batch) while
    /// they run. [`collect`](Self::collect) takes the answers of the
    /// workers returned.
    pub(crate) fn dispatch(&self, tasks: Vec<Vec<Task>>) -> Result<Vec<usize>> {
        self.send(tasks.into_iter().map(Job::Write))
    }

    /// Waits for the answers of the workers `sent` by [`dispatch`](Self::dispatch).
    pub(crate) fn collect(&self, sent: Vec<usize>) -> Result<Vec<(Task, ParquetResult<()>)>> {
        let mut back = Vec::new();
        for w in sent {
            match self.receive(w)? {
                Done::Written(tasks) => back.extend(tasks),
                Done::Closed(_) => return Err(worker_confused()),
            }
        }
        Ok(back)
    }

    pub(crate) fn close(
        &self,
        encoders: Vec<Vec<(usize, Box<ChunkEncoder>)>>,
        local: impl FnOnce() -> Result<()>,
    ) -> Result<Vec<(usize, ParquetResult<ColumnCloseResult>)>> {
        let sent = self.send(encoders.into_iter().map(Job::Close))?;
        let local = local();
        let mut back = Vec::new();
        for w in sent {
            match self.receive(w)? {
                Done::Closed(closed) => back.extend(closed),
                Done::Written(_) => return Err(worker_confused()),
            }
        }
        local.map(|()| back)
    }

    /// Sends each job to its worker; returns the workers that got one.
    fn send(&self, jobs: impl Iterator<Item = Job>) -> Result<Vec<usize>> {
        let mut sent = Vec::new();
        for (w, job) in jobs.enumerate() {
            let worker = self.workers.get(w).ok_or_else(worker_confused)?;
            worker.jobs.send(job).map_err(|_| worker_gone())?;
            sent.push(w);
        }
        Ok(sent)
    }

    fn receive(&self, w: usize) -> Result<Done> {
        self.workers[w].done.recv().map_err(|_| worker_gone())
    }
}

/// Runs a job on a worker.
fn run(job: Job) -> Done {
    match job {
        Job::Write(tasks) => Done::Written(
            tasks
                .into_iter()
                .map(|mut task| {
                    let leaf = &task.leaf;
                    let result = task.encoder.write(&leaf.def, &leaf.rep, &leaf.values);
                    (task, result)
                })
                .collect(),
        ),
        Job::Close(encoders) => Done::Closed(encoders.into_iter().map(|(i, e)| (i, e.close())).collect()),
    }
}

/// A worker that panicked (a bug: the encoders do not panic on any input).
#[cold]
fn worker_gone() -> Error {
    Error::bug(Location::default(), "an encoding thread stopped (a panic)")
}

#[cold]
fn worker_confused() -> Error {
    Error::bug(Location::default(), "an encoding thread answered another job")
}
