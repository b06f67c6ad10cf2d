//! The column writers of a row group, one per leaf: this library's
//! encoder where it writes the column's encodings, the `parquet` crate's
//! column writer otherwise. Both take batches of whole records from the
//! shredder; with an [`EncodePool`], this library's encoders run on its
//! threads and the caller's, column by column, and the pool's columns of
//! one batch are encoded while the caller shreds the next.

use std::sync::Arc;

use parquet::column::page::PageWriter;
use parquet::column::writer::ColumnCloseResult;
use parquet::errors::{ParquetError, Result as ParquetResult};
use parquet::file::properties::WriterPropertiesPtr;
use parquet::schema::types::SchemaDescriptor;

use super::crate_column::CrateColumn;
use super::encode::ChunkEncoder;
use super::pool::{EncodePool, Task};
use crate::error::{Error, Location, Result};
use crate::shred::{ColumnSink, LeafBuffer};

/// The writer of one column chunk.
enum Column {
    Own(Box<ChunkEncoder>),
    Crate(Box<CrateColumn>),
    /// On a worker thread for the moment.
    Away,
}

/// One column writer per leaf, over page writers chosen by the caller (the
/// in-memory store or a file's row-group buffer).
pub(crate) struct ColumnWriters {
    columns: Vec<Column>,
    paths: Vec<String>,
    /// Workers still encoding columns of the last batch.
    in_flight: Vec<usize>,
    /// Emptied buffers of columns that came back from a worker: the sink
    /// shreds into them while the worker encodes the next batch's.
    spares: Vec<Option<LeafBuffer>>,
}

impl ColumnWriters {
    pub(crate) fn new(
        schema: &SchemaDescriptor,
        props: &WriterPropertiesPtr,
        mut page_writer: impl FnMut(usize) -> Box<dyn PageWriter + Send>,
    ) -> Result<Self> {
        let mut columns = Vec::with_capacity(schema.num_columns());
        let mut paths = Vec::with_capacity(schema.num_columns());
        for (i, descr) in schema.columns().iter().enumerate() {
            let path = descr.path().string();
            let pages = page_writer(i);
            columns.push(if ChunkEncoder::supports(descr, props) {
                let encoder = ChunkEncoder::new(descr.clone(), Arc::clone(props), pages)
                    .map_err(|e| Error::parquet(Location::column(&path), e))?;
                Column::Own(Box::new(encoder))
            } else {
                Column::Crate(Box::new(CrateColumn::new(descr.clone(), props, pages)))
            });
            paths.push(path);
        }
        let spares = paths.iter().map(|_| None).collect();
        Ok(ColumnWriters { columns, paths, in_flight: Vec::new(), spares })
    }

    /// Writes every buffered record (on the threads of `pool`, if given) and
    /// clears the sink.
    pub(crate) fn write(&mut self, sink: &mut ColumnSink, pool: Option<&EncodePool>) -> Result<()> {
        if sink.records == 0 {
            return Ok(());
        }
        // The encoders trust the triplets (an out-of-range level or a value
        // without its level would make a shifted or unreadable file).
        sink.check()?;
        match pool {
            None => {
                for (i, leaf) in sink.leaves.iter_mut().enumerate() {
                    write_local(&mut self.columns[i], leaf, &self.paths[i])?;
                }
            }
            Some(pool) => self.write_parallel(sink, pool)?,
        }
        sink.leaves.iter_mut().for_each(LeafBuffer::clear);
        sink.records = 0;
        Ok(())
    }

    /// Splits the columns between the pool's workers and the caller's
    /// thread, by the bytes each has to encode (largest first, each to the
    /// least loaded thread); the `parquet` crate's writers stay on the
    /// caller's thread. The workers' columns are handed over with their
    /// buffers (the sink gets spare ones) and encoded while the caller goes
    /// on; the next call, or [`close`](Self::close), waits for them.
    fn write_parallel(&mut self, sink: &mut ColumnSink, pool: &EncodePool) -> Result<()> {
        self.settle(pool)?;
        let threads = pool.workers() + 1;
        let mut load = vec![0usize; threads];
        // The caller's thread also shreds the next batch while the workers
        // encode: it starts with that work (measured at about a sixth of
        // the encoding) on its side of the scale.
        load[0] = sink.leaves.iter().map(cost).sum::<usize>() / 6;
        let mut order: Vec<usize> = (0..self.columns.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(cost(&sink.leaves[i])));
        let mut owner = vec![0usize; self.columns.len()];
        for i in order {
            let t = match self.columns[i] {
                Column::Own(_) => (0..threads).min_by_key(|&t| load[t]).unwrap_or(0),
                _ => 0,
            };
            load[t] += cost(&sink.leaves[i]);
            owner[i] = t;
        }
        let mut tasks: Vec<Vec<Task>> = (1..threads).map(|_| Vec::new()).collect();
        for (i, &t) in owner.iter().enumerate() {
            if t > 0 {
                let Column::Own(encoder) = std::mem::replace(&mut self.columns[i], Column::Away) else {
                    return Err(Error::bug(Location::column(&self.paths[i]), "a column sent to a thread twice"));
                };
                let spare = self.spares[i].take().unwrap_or_else(|| sink.leaves[i].empty_like());
                let leaf = std::mem::replace(&mut sink.leaves[i], spare);
                tasks[t - 1].push(Task { index: i, encoder, leaf });
            }
        }
        self.in_flight = pool.dispatch(tasks)?;
        for (i, leaf) in sink.leaves.iter_mut().enumerate() {
            if owner[i] == 0 {
                write_local(&mut self.columns[i], leaf, &self.paths[i])?;
            }
        }
        Ok(())
    }

    /// Waits for the columns on the pool's workers and takes them back
    /// (their buffers, emptied, become spares).
    fn settle(&mut self, pool: &EncodePool) -> Result<()> {
        if self.in_flight.is_empty() {
            return Ok(());
        }
        let back = pool.collect(std::mem::take(&mut self.in_flight))?;
        // Every column comes back, whatever failed, before an error is returned.
        let mut first_error = None;
        for (mut task, result) in back {
            let i = task.index;
            if let (Err(e), None) = (result, &first_error) {
                first_error = Some(Error::parquet(Location::column(&self.paths[i]), e));
            }
            self.columns[i] = Column::Own(task.encoder);
            task.leaf.clear();
            self.spares[i] = Some(task.leaf);
        }
        match first_error {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Closes every column writer (on the threads of `pool`, if given: each
    /// writes its last pages and its dictionary); returns their results in
    /// leaf order.
    pub(crate) fn close(mut self, pool: Option<&EncodePool>) -> Result<Vec<ColumnCloseResult>> {
        if let Some(pool) = pool {
            self.settle(pool)?;
        }
        let ColumnWriters { columns, paths, .. } = self;
        let threads = pool.map_or(1, |p| p.workers() + 1);
        let mut local = Vec::new();
        let mut remote: Vec<Vec<(usize, Box<ChunkEncoder>)>> = (1..threads).map(|_| Vec::new()).collect();
        for (i, column) in columns.into_iter().enumerate() {
            match column {
                // This library's encoders round robin over the threads.
                Column::Own(e) if i % threads != 0 => remote[i % threads - 1].push((i, e)),
                other => local.push((i, other)),
            }
        }
        let mut results: Vec<Option<ParquetResult<ColumnCloseResult>>> = (0..paths.len()).map(|_| None).collect();
        let close_local = |results: &mut Vec<Option<ParquetResult<ColumnCloseResult>>>| {
            for (i, column) in local {
                results[i] = Some(match column {
                    Column::Own(e) => e.close(),
                    Column::Crate(w) => w.close(),
                    Column::Away => Err(ParquetError::General("the column is on a thread".into())),
                });
            }
            Ok(())
        };
        match pool {
            Some(pool) => {
                for (i, closed) in pool.close(remote, || close_local(&mut results))? {
                    results[i] = Some(closed);
                }
            }
            None => close_local(&mut results)?,
        }
        results
            .into_iter()
            .zip(&paths)
            .map(|(r, path)| match r {
                Some(closed) => closed.map_err(|e| Error::parquet(Location::column(path), e)),
                None => Err(Error::bug(Location::column(path), "a column was not closed")),
            })
            .collect()
    }
}

/// Writes a column's batch on the caller's thread.
fn write_local(column: &mut Column, leaf: &mut LeafBuffer, path: &str) -> Result<()> {
    let written = match column {
        Column::Own(encoder) => encoder.write(&leaf.def, &leaf.rep, &leaf.values),
        Column::Crate(writer) => {
            let def = (leaf.max_def > 0).then_some(leaf.def.as_slice());
            let rep = (leaf.max_rep > 0).then_some(leaf.rep.as_slice());
            writer.write(def, rep, &mut leaf.values)
        }
        Column::Away => Err(ParquetError::General("the column is on a thread".into())),
    };
    written.map_err(|e| Error::parquet(Location::column(path), e))
}

/// What a column's batch costs to encode, roughly: its bytes.
fn cost(leaf: &LeafBuffer) -> usize {
    leaf.values.raw_bytes() + leaf.def.len() + leaf.rep.len()
}
