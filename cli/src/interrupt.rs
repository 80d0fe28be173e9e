//! Ctrl-C (SIGINT) and `timeout`/`kill` (SIGTERM): the hits found before
//! the signal are written out, then the run ends with status 128 + the
//! signal's number (130, 143), as a shell reports a command the signal
//! stopped (docs/rules.md §4).
//!
//! A thread waits for the signals and raises a flag. A file being read
//! stops at its next read; input read as it arrives (standard input, a
//! pipe) ends there, and what was read of it is scanned to its end (so a
//! hit that was waiting for the bytes after it is found too). That input
//! is read on a thread of its own and handed over through a channel, so
//! that a scan waiting for the next line still sees the flag (a blocked
//! `read` is restarted after a signal, and would wait on). No further
//! input is read; the hits are written out and the run ends. A second
//! signal ends the program at once.

use std::io::{self, Read};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

use signal_hook::consts::{SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

/// The signal received (0: none).
static RECEIVED: AtomicI32 = AtomicI32::new(0);

/// Starts watching for SIGINT and SIGTERM (if the handlers cannot be
/// installed, the signals keep their default action).
pub fn watch() {
    let Ok(mut signals) = Signals::new([SIGINT, SIGTERM]) else {
        return;
    };
    std::thread::spawn(move || {
        for signal in signals.forever() {
            if RECEIVED.swap(signal, Ordering::SeqCst) != 0 {
                // A second signal: the user wants out now.
                std::process::exit(128 + signal);
            }
        }
    });
}

/// The signal that asked the run to stop, if one did.
pub fn received() -> Option<i32> {
    match RECEIVED.load(Ordering::Relaxed) {
        0 => None,
        s => Some(s),
    }
}

/// The error a read returns once a signal asked the run to stop.
pub fn stopped() -> io::Error {
    io::Error::other("interrupted")
}

/// How often a reader waiting for input looks at the flag.
const POLL: Duration = Duration::from_millis(50);

/// A reader whose reads happen on a thread of its own (see the module
/// docs); each `read` hands over what one read of the inner reader gave.
pub struct Watched {
    chunks: Receiver<io::Result<Vec<u8>>>,
    /// The chunk being handed out, and how much of it is left.
    chunk: Vec<u8>,
    at: usize,
    ended: bool,
}

impl Watched {
    /// Reads `open()`'s reader on a new thread.
    pub fn new<R: Read>(open: impl FnOnce() -> R + Send + 'static) -> Watched {
        let (tx, rx) = mpsc::sync_channel(4);
        std::thread::spawn(move || {
            let mut reader = open();
            loop {
                let mut buf = vec![0; 64 << 10];
                let r = match reader.read(&mut buf) {
                    Ok(n) => {
                        buf.truncate(n);
                        Ok(buf)
                    }
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => Err(e),
                };
                let last = !matches!(&r, Ok(b) if !b.is_empty());
                if tx.send(r).is_err() || last {
                    return;
                }
            }
        });
        Watched {
            chunks: rx,
            chunk: Vec::new(),
            at: 0,
            ended: false,
        }
    }
}

impl Read for Watched {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.at == self.chunk.len() {
            if self.ended {
                return Ok(0);
            }
            if received().is_some() {
                // The input ends here: what was read (also what the thread
                // has read and not handed over yet) is scanned to its end.
                match self.chunks.try_recv() {
                    Ok(Ok(chunk)) if !chunk.is_empty() => {
                        self.chunk = chunk;
                        self.at = 0;
                        continue;
                    }
                    _ => {
                        self.ended = true;
                        return Ok(0);
                    }
                }
            }
            match self.chunks.recv_timeout(POLL) {
                Ok(Ok(chunk)) => {
                    self.ended = chunk.is_empty();
                    self.chunk = chunk;
                    self.at = 0;
                }
                Ok(Err(e)) => {
                    self.ended = true;
                    return Err(e);
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    self.ended = true;
                }
            }
        }
        let n = buf.len().min(self.chunk.len() - self.at);
        buf[..n].copy_from_slice(&self.chunk[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}
