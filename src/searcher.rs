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
use crate::parallel::{MIN_PIECE, scan_window};
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
    threads: usize,
}

impl Searcher {
    /// A searcher with the default buffer size (64 KiB).
    pub fn new(finder: Finder) -> Searcher {
        Searcher {
            finder,
            buffer_size: DEFAULT_BUFFER_SIZE,
            threads: 1,
        }
    }

    /// How many threads scan each block (default 1). With more than one,
    /// blocks are read `threads` × 4 MiB at a time (unless
    /// [`buffer_size`](Searcher::buffer_size) is set larger), cut into
    /// pieces at white space and scanned on the rayon pool while the next
    /// block is read; hits come out in the same order as with one thread.
    pub fn threads(mut self, threads: usize) -> Searcher {
        self.threads = threads.max(1);
        self
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
        let parallel = self.threads > 1;
        let block = if parallel {
            self.buffer_size.max(self.threads * PARALLEL_BLOCK)
        } else {
            self.buffer_size
        };
        // Bytes after the scan bound that a decision may need.
        let margin = opts.max_len + LOOKAHEAD;
        let mut buf: Vec<u8> = Vec::with_capacity(block + margin + LOOKBEHIND);
        let mut ahead: Vec<u8> = Vec::new();
        let mut base = 0usize;
        let mut state = ScanState::default();
        let mut lines = LineCounter::default();
        let mut summary = Summary::default();
        let mut eof = fill(&mut reader, &mut buf, block, &mut summary.bytes)?;
        loop {
            summary.peak_buffer = summary.peak_buffer.max(buf.len() + ahead.capacity());
            // Scan every trigger whose outcome the bytes at hand decide.
            let to = if eof {
                buf.len()
            } else {
                buf.len().saturating_sub(margin)
            };
            if parallel {
                // Read the next block on this thread while the pool scans
                // this one (the reader need not be `Send`).
                let mut found = Vec::new();
                let mut st = state.clone();
                let mut read = Ok(true);
                let mut bytes = 0;
                let window: &[u8] = &buf;
                rayon::in_place_scope(|scope| {
                    scope.spawn(|_| {
                        if to > st.pos {
                            found =
                                scan_window(window, opts, &mut st, to, self.threads * 4, MIN_PIECE);
                        }
                    });
                    if !eof {
                        read = fill(&mut reader, &mut ahead, block, &mut bytes);
                    }
                });
                state = st;
                for (c, hit) in found {
                    lines.advance(&buf, base, base + c.start);
                    let column = (base + c.start - lines.line_start()) as u64 + 1;
                    let hit = hit.locate(base + c.start, base + c.end, lines.line(), column);
                    summary.hits += 1;
                    if !sink(&hit)? {
                        return Ok(summary);
                    }
                }
                summary.bytes += bytes;
                if eof {
                    return Ok(summary);
                }
                eof = read?;
            } else {
                if to > state.pos {
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
            }
            // Roll: keep the undecided tail and the context before it.
            let keep = state.pos.saturating_sub(LOOKBEHIND).min(buf.len());
            lines.advance(&buf, base, base + keep);
            buf.drain(..keep);
            base += keep;
            state.shift(keep);
            if parallel {
                buf.append(&mut ahead);
            } else {
                eof = fill(&mut reader, &mut buf, block, &mut summary.bytes)?;
            }
        }
    }
}

/// The block each thread gets when scanning in parallel.
const PARALLEL_BLOCK: usize = 4 << 20;

/// Reads up to `block` more bytes into `buf` (several reads if the reader
/// returns less); returns whether the input ended.
fn fill<R: Read>(
    reader: &mut R,
    buf: &mut Vec<u8>,
    block: usize,
    bytes: &mut u64,
) -> io::Result<bool> {
    let target = buf.len() + block;
    while buf.len() < target {
        let len = buf.len();
        buf.resize(target, 0);
        match reader.read(&mut buf[len..]) {
            Ok(0) => {
                buf.truncate(len);
                return Ok(true);
            }
            Ok(n) => {
                buf.truncate(len + n);
                *bytes += n as u64;
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => buf.truncate(len),
            Err(e) => {
                buf.truncate(len);
                return Err(e);
            }
        }
    }
    Ok(false)
}
