//! Scanning inputs of any size in bounded memory: readers, files, stdin.
//!
//! The [`Searcher`] keeps a roll buffer, like ripgrep's searcher: it reads
//! a block, lets the scanner decide every trigger whose outcome cannot
//! depend on bytes not yet read — a trigger's candidate ends at most
//! `max_len` bytes after it, and the scan looks at most a few bytes further
//! ([`LOOKAHEAD`]) — then moves the undecided tail (plus [`LOOKBEHIND`]
//! bytes of context) to the front and refills. Memory is the buffer size
//! plus the maximum IRI length, whatever the input; results are identical
//! to scanning the whole input as one slice, whatever the read sizes (the
//! tests run every path and compare).

use std::io::{self, Read};

use crate::finder::Finder;
use crate::hit::Hit;
use crate::lines::LineCounter;
use crate::scanner::{LOOKAHEAD, LOOKBEHIND, ScanState, Scanner};

/// The default size of a read: 64 KiB.
pub const DEFAULT_BUFFER_SIZE: usize = 64 * 1024;

/// What a scan saw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Bytes of input read.
    pub bytes: u64,
    /// Hits delivered to the sink (valid and invalid).
    pub hits: u64,
    /// The most bytes the roll buffer ever held.
    pub peak_buffer: usize,
}

/// Scans readers in bounded memory with a [`Finder`]'s rules.
///
/// ```
/// use iriscan::{Finder, Searcher};
/// let text = "line one\nsee https://example.org/a and mail bob@example.org\n";
/// let mut found = Vec::new();
/// Searcher::new(Finder::new())
///     .scan_reader(text.as_bytes(), |hit| {
///         found.push((hit.line(), hit.column(), hit.iri().to_string()));
///         Ok(true)
///     })
///     .unwrap();
/// assert_eq!(found, [
///     (2, 5, "https://example.org/a".to_string()),
///     (2, 36, "mailto:bob@example.org".to_string()),
/// ]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Searcher {
    finder: Finder,
    buffer_size: usize,
}

impl Searcher {
    /// A searcher with the default buffer size (64 KiB).
    pub fn new(finder: Finder) -> Searcher {
        Searcher {
            finder,
            buffer_size: DEFAULT_BUFFER_SIZE,
        }
    }

    /// How many bytes to read at a time (at least 1). The buffer holds this
    /// much plus the finder's maximum IRI length and a little context.
    pub fn buffer_size(mut self, bytes: usize) -> Searcher {
        self.buffer_size = bytes.max(1);
        self
    }

    /// The finder whose rules this searcher applies.
    pub fn finder(&self) -> &Finder {
        &self.finder
    }

    /// Scans everything `reader` yields, calling `sink` with each hit
    /// (valid and invalid, in order; offsets, line and column refer to the
    /// whole input). The sink returns `Ok(false)` to stop early; its errors
    /// and read errors end the scan and are returned.
    pub fn scan_reader<R, F>(&self, mut reader: R, mut sink: F) -> io::Result<Summary>
    where
        R: Read,
        F: FnMut(&Hit<'_>) -> io::Result<bool>,
    {
        let opts = self.finder.options();
        // Bytes after the scan bound that a decision may need.
        let margin = opts.max_len + LOOKAHEAD;
        let mut buf: Vec<u8> = Vec::with_capacity(self.buffer_size + margin + LOOKBEHIND);
        let mut base = 0usize;
        let mut state = ScanState::default();
        let mut lines = LineCounter::default();
        let mut summary = Summary::default();
        let mut eof = false;
        loop {
            // Fill: a block beyond what is carried over.
            let target = buf.len() + self.buffer_size;
            while !eof && buf.len() < target {
                let len = buf.len();
                buf.resize(target, 0);
                match reader.read(&mut buf[len..]) {
                    Ok(0) => {
                        buf.truncate(len);
                        eof = true;
                    }
                    Ok(n) => {
                        buf.truncate(len + n);
                        summary.bytes += n as u64;
                    }
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => buf.truncate(len),
                    Err(e) => {
                        buf.truncate(len);
                        return Err(e);
                    }
                }
            }
            summary.peak_buffer = summary.peak_buffer.max(buf.len());
            // Scan every trigger whose outcome the bytes at hand decide.
            let to = if eof {
                buf.len()
            } else {
                buf.len().saturating_sub(margin)
            };
            if to > state.pos || (eof && state.skipping) {
                let mut result = Ok(true);
                let mut scanner = Scanner::new(&buf, opts);
                scanner.scan(&mut state, to, &mut |c| {
                    lines.advance(&buf, base, base + c.start);
                    let column = (base + c.start - lines.line_start()) as u64 + 1;
                    let hit = Hit::new(&buf, c).locate(
                        base + c.start,
                        base + c.end,
                        lines.line(),
                        column,
                    );
                    summary.hits += 1;
                    result = sink(&hit);
                    matches!(result, Ok(true))
                });
                if !result? {
                    return Ok(summary);
                }
            }
            if eof {
                return Ok(summary);
            }
            // Roll: keep the undecided tail and the context before it.
            let keep = state.pos.saturating_sub(LOOKBEHIND).min(buf.len());
            lines.advance(&buf, base, base + keep);
            buf.drain(..keep);
            base += keep;
            state.shift(keep);
        }
    }
}
