//! Progress of a conversion on stderr: a live bar when stderr is a
//! terminal, and in any case one summary line at the end (what scripts and
//! logs keep).

use std::io::IsTerminal;
use std::path::Path;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

/// Reports the records written so far.
pub struct Progress {
    bar: Option<ProgressBar>,
    start: Instant,
}

impl Progress {
    /// A report for `total` records (a spinner when unknown); drawn only
    /// when stderr is a terminal.
    pub fn new(total: Option<u64>) -> Self {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = match total {
                Some(n) => ProgressBar::new(n).with_style(
                    ProgressStyle::with_template("{bar:40} {pos}/{len} records, {per_sec}, {eta} left")
                        .unwrap_or_else(|_| ProgressStyle::default_bar()),
                ),
                None => ProgressBar::new_spinner().with_style(
                    ProgressStyle::with_template("{spinner} {pos} records, {per_sec}")
                        .unwrap_or_else(|_| ProgressStyle::default_spinner()),
                ),
            };
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        Progress { bar, start: Instant::now() }
    }

    /// `records` written so far.
    pub fn update(&self, records: u64) {
        if let Some(bar) = &self.bar {
            bar.set_position(records);
        }
    }

    /// Clears the bar and prints `command: N records, IN -> OUT (bytes) in T s`.
    pub fn finish(self, command: &str, records: u64, input: &Path, output: &Path) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
        let size = std::fs::metadata(output).map(|m| m.len()).unwrap_or(0);
        eprintln!(
            "{command}: {records} records, {} -> {} ({size} bytes) in {:.2} s",
            input.display(),
            output.display(),
            self.start.elapsed().as_secs_f64()
        );
    }

    /// Clears the bar after a failure.
    pub fn abandon(self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
