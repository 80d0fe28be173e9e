//! Standard output as ripgrep writes it: line-buffered when it is a
//! terminal (each hit shows as soon as it is found) or when
//! `--line-buffered` asks, block-buffered otherwise (a pipe or a file:
//! fewer system calls); `--block-buffered` forces blocks (docs/rules.md §4).
//! It counts the bytes written, for `--stats`. Below the buffer, what
//! reaches the terminal the progress display is drawn on takes the display
//! off first ([`crate::progress::ClearsProgress`]).

use std::io::{self, BufWriter, IsTerminal, LineWriter, Write};

use crate::progress::{ClearsProgress, Progress};

/// How standard output is buffered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Buffering {
    /// Written out at the end of every line.
    Line,
    /// Written out when the buffer is full, at the end of each input, and
    /// at the end of the run.
    Block,
}

impl Buffering {
    /// What the flags ask for (`None`: neither), else line buffering on a
    /// terminal.
    pub fn choose(line: bool, block: bool) -> Buffering {
        if line {
            Buffering::Line
        } else if block || !io::stdout().is_terminal() {
            Buffering::Block
        } else {
            Buffering::Line
        }
    }
}

/// Standard output, buffered as chosen, counting what it writes.
pub struct Stdout {
    inner: Inner,
    written: u64,
}

enum Inner {
    Line(LineWriter<ClearsProgress<io::StdoutLock<'static>>>),
    Block(BufWriter<ClearsProgress<io::StdoutLock<'static>>>),
}

impl Stdout {
    /// Standard output, keeping its lines off `progress`'s.
    pub fn new(buffering: Buffering, progress: &Progress) -> Stdout {
        let lock = progress.clearing(io::stdout().lock());
        Stdout {
            inner: match buffering {
                Buffering::Line => Inner::Line(LineWriter::new(lock)),
                Buffering::Block => Inner::Block(BufWriter::with_capacity(64 << 10, lock)),
            },
            written: 0,
        }
    }

    /// The bytes written so far (printed or still in the buffer).
    pub fn written(&self) -> u64 {
        self.written
    }
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = match &mut self.inner {
            Inner::Line(w) => w.write(buf)?,
            Inner::Block(w) => w.write(buf)?,
        };
        self.written += n as u64;
        Ok(n)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match &mut self.inner {
            Inner::Line(w) => w.write_all(buf)?,
            Inner::Block(w) => w.write_all(buf)?,
        }
        self.written += buf.len() as u64;
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.inner {
            Inner::Line(w) => w.flush(),
            Inner::Block(w) => w.flush(),
        }
    }
}
