//! The one step from an input to its hits.
//!
//! Everything that reads input calls [`scan_input`] (streaming, in bounded
//! memory, on the searcher's threads) or [`collect_input`] (for the small
//! files scanned side by side); everything that prints receives the
//! [`Hit`]s they hand on, with offsets, line and column in the input.
//!
//! Input that is not a regular file (standard input, a pipe) is read as it
//! arrives: on a thread of its own ([`interrupt::Watched`], so that a
//! signal stops a scan waiting for input) and, when the output is
//! line-buffered, incrementally ([`Searcher::incremental`]: each hit is
//! printed once its line is read). After a signal, a file's scan stops at
//! its next read, and input read as it arrives ends (see [`interrupt`]).

use std::fs::File;
use std::io::{self, Read};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use iriscan::{Hit, ReadAt, Searcher, Summary};

use crate::interrupt;
use crate::progress::Progress;
use crate::utf16_hint::{self, Utf16};
use crate::walk::Reader;

/// What scanning an input found out besides its hits.
pub struct Scanned {
    pub summary: Summary,
    /// The first bytes look like UTF-16 without a byte order mark.
    pub utf16: Option<Utf16>,
}

/// Why scanning an input stopped.
#[derive(Debug)]
pub enum InputError {
    /// Reading failed after `at` bytes: the input is reported, the run goes
    /// on with the next one.
    Read { at: u64, err: io::Error },
    /// Writing the output failed: the run stops.
    Output(io::Error),
}

/// Counts the bytes read, to say where a read error happened, and keeps
/// the first ones (for [`utf16_hint`]).
struct Counting<R> {
    inner: R,
    read: u64,
    first: Vec<u8>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read += n as u64;
        let keep = utf16_hint::PREFIX.saturating_sub(self.first.len()).min(n);
        self.first.extend_from_slice(&buf[..keep]);
        Ok(n)
    }
}

/// A regular file read at offsets: its bytes count towards the progress
/// display, and the first offset where a read failed is kept.
struct TrackedFile<'a> {
    file: &'a File,
    progress: &'a Progress,
    failed_at: AtomicU64,
    /// The first bytes (for [`utf16_hint`]).
    first: OnceLock<Vec<u8>>,
}

impl ReadAt for TrackedFile<'_> {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        if interrupt::received().is_some() {
            return Err(interrupt::stopped());
        }
        match self.file.read_at(buf, offset) {
            Ok(n) => {
                self.progress.advance(n);
                if offset == 0 {
                    let _ = self.first.set(buf[..n.min(utf16_hint::PREFIX)].to_vec());
                }
                Ok(n)
            }
            Err(e) => {
                if e.kind() != io::ErrorKind::Interrupted {
                    self.failed_at.fetch_min(offset, Ordering::Relaxed);
                }
                Err(e)
            }
        }
    }
}

/// Streams `reader` through `searcher`: every candidate — valid and
/// invalid, in input order — is rendered by `render` (on the searcher's
/// threads) and handed to `emit`, which says whether to go on; stops at
/// the first error. A regular file is read at offsets (with several
/// threads, in pieces on the pool); anything else — standard input, a
/// pipe — as it comes (`incremental`: see the module docs).
pub fn scan_input<T: Send>(
    reader: Reader,
    name: &str,
    progress: &Progress,
    searcher: &Searcher,
    incremental: bool,
    render: impl Fn(&Hit<'_>) -> T + Sync,
    mut emit: impl FnMut(T) -> io::Result<bool>,
) -> Result<Scanned, InputError> {
    let mut output = None;
    let sink = |t| match emit(t) {
        Ok(go_on) => Ok(go_on),
        Err(e) => {
            output = Some(e);
            Ok(false)
        }
    };
    let (scanned, at, first) = match reader {
        Reader::File(file) if file.metadata().is_ok_and(|m| m.is_file()) => {
            progress.name(name);
            let tracked = TrackedFile {
                file: &file,
                progress,
                failed_at: AtomicU64::new(u64::MAX),
                first: OnceLock::new(),
            };
            let scanned = searcher.scan_file_map(&tracked, render, sink);
            let at = tracked.failed_at.into_inner();
            let first = tracked.first.into_inner().unwrap_or_default();
            (scanned, if at == u64::MAX { 0 } else { at }, first)
        }
        reader => {
            let mut reader = Counting {
                inner: progress.wrap(watched(reader), name),
                read: 0,
                first: Vec::new(),
            };
            let searcher = if incremental {
                &searcher.clone().incremental(true)
            } else {
                searcher
            };
            let scanned = searcher.scan_reader_map(&mut reader, render, sink);
            (scanned, reader.read, reader.first)
        }
    };
    if let Some(e) = output {
        return Err(InputError::Output(e));
    }
    let summary = scanned.map_err(|err| InputError::Read { at, err })?;
    let utf16 = if matches!(
        summary.charset.source(),
        iriscan::CharsetSource::Label | iriscan::CharsetSource::Bom
    ) {
        None
    } else {
        utf16_hint::bomless_utf16(&first)
    };
    Ok(Scanned { summary, utf16 })
}

/// `reader` as is if it is a regular file, else read on a thread of its
/// own ([`interrupt::Watched`]), so that a signal stops a read that waits.
pub fn as_it_arrives(reader: Reader) -> Box<dyn Read> {
    match reader {
        Reader::File(file) if file.metadata().is_ok_and(|m| m.is_file()) => Box::new(file),
        reader => Box::new(watched(reader)),
    }
}

/// A reader that is not a regular file, read on a thread of its own.
fn watched(reader: Reader) -> interrupt::Watched {
    match reader {
        Reader::Stdin(lock) => {
            // The thread takes standard input's lock.
            drop(lock);
            interrupt::Watched::new(io::stdin)
        }
        Reader::File(file) => interrupt::Watched::new(move || file),
    }
}

/// Scans a whole (small) input into rendered hits, for inputs scanned side
/// by side whose output must still come out in input order.
pub fn collect_input<T: Send>(
    reader: Reader,
    name: &str,
    progress: &Progress,
    searcher: &Searcher,
    render: impl Fn(&Hit<'_>) -> T + Sync,
) -> Result<(Vec<T>, Scanned), InputError> {
    let mut all = Vec::new();
    let scanned = scan_input(reader, name, progress, searcher, false, render, |t| {
        all.push(t);
        Ok(true)
    })?;
    Ok((all, scanned))
}
