//! The broken-writer latch every writer keeps: once an I/O or encoding
//! error may have lost records already accepted, the writer takes nothing
//! more, and every later call says why.

use crate::error::{Error, Result};

/// Whether a writer can go on: open, broken by an error (kept, to be the
/// source of every later [`Error::WriterState`]), or closed.
#[derive(Debug, Default)]
pub(crate) struct Latch {
    broken: Option<Error>,
    closed: bool,
}

impl Latch {
    /// `Ok` while the writer is open; else the [`Error::WriterState`] to
    /// return, with the error that broke the writer as its source.
    pub(crate) fn check(&self) -> Result<()> {
        match (&self.broken, self.closed) {
            (Some(cause), _) => Err(Error::WriterState { source: Some(Box::new(cause.clone())) }),
            (None, true) => Err(Error::WriterState { source: None }),
            (None, false) => Ok(()),
        }
    }

    /// Breaks the writer with `error` (the first error is kept: later ones
    /// follow from it).
    pub(crate) fn set(&mut self, error: &Error) {
        self.broken.get_or_insert_with(|| error.clone());
    }

    /// Marks the writer closed: later calls fail without a source.
    pub(crate) fn close(&mut self) {
        self.closed = true;
    }

    /// `result`, after breaking the writer if it is an error.
    pub(crate) fn guard<R>(&mut self, result: Result<R>) -> Result<R> {
        if let Err(e) = &result {
            self.set(e);
        }
        result
    }

    /// `result`, after breaking the writer if it is an error other than a
    /// record's own (a value its column cannot hold, a null where none may
    /// be): such a record is left out and the writer goes on.
    pub(crate) fn guard_records<R>(&mut self, result: Result<R>) -> Result<R> {
        match &result {
            Err(e) if !matches!(e, Error::Value { .. } | Error::Null { .. }) => self.set(e),
            _ => {}
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_broken_latch_returns_the_first_cause_and_records_errors_do_not_break_it() {
        let mut latch = Latch::default();
        assert!(latch.check().is_ok());
        let value = Error::Value { location: Box::default(), message: "too big".into() };
        assert!(latch.guard_records::<()>(Err(value)).is_err());
        assert!(latch.check().is_ok());
        let _ = latch.guard::<()>(Err(Error::argument("first")));
        let _ = latch.guard::<()>(Err(Error::argument("second")));
        let Err(Error::WriterState { source: Some(cause) }) = latch.check() else { panic!("broken") };
        assert_eq!(cause.to_string(), Error::argument("first").to_string());
    }

    #[test]
    fn a_closed_latch_has_no_source() {
        let mut latch = Latch::default();
        latch.close();
        assert!(matches!(latch.check(), Err(Error::WriterState { source: None })));
    }
}
