//! Progress on standard error for long work on a terminal (docs/rules.md §4):
//! bytes scanned, throughput and the current input, drawn only when
//! standard error is a terminal and only once the run has taken more than
//! a second — nothing on a pipe, nothing for quick runs.

use std::io::{self, IsTerminal, Read};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How long a run goes before progress is shown.
const DELAY: Duration = Duration::from_secs(1);

/// The progress display of one run (cheap to clone: shared).
#[derive(Clone)]
pub struct Progress {
    bar: ProgressBar,
    start: Instant,
    terminal: bool,
}

impl Progress {
    pub fn new() -> Progress {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        if let Ok(style) =
            ProgressStyle::with_template("{spinner} {bytes} scanned ({bytes_per_sec}) {wide_msg}")
        {
            bar.set_style(style);
        }
        Progress {
            bar,
            start: Instant::now(),
            terminal: io::stderr().is_terminal(),
        }
    }

    /// Counts what `reader` yields; names the input being read.
    pub fn wrap<R: Read>(&self, reader: R, name: &str) -> Counted<R> {
        self.name(name);
        Counted {
            inner: reader,
            progress: self.clone(),
        }
    }

    /// Names the input being read.
    pub fn name(&self, name: &str) {
        self.bar.set_message(name.to_string());
    }

    /// Counts `n` more bytes read.
    pub fn advance(&self, n: usize) {
        self.bar.inc(n as u64);
        if self.terminal && self.bar.is_hidden() && self.start.elapsed() > DELAY {
            self.bar
                .set_draw_target(ProgressDrawTarget::stderr_with_hz(4));
            self.bar.enable_steady_tick(Duration::from_millis(250));
        }
    }

    /// Removes the display before the run reports its end.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// A reader whose bytes count towards the progress display.
pub struct Counted<R> {
    inner: R,
    progress: Progress,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.progress.advance(n);
        Ok(n)
    }
}
