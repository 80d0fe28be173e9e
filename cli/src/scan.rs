//! The one step from an input to its hits.
//!
//! Everything that reads input calls [`scan_input`] (streaming, in bounded
//! memory, on the searcher's threads) or [`collect_input`] (for the small
//! files scanned side by side); everything that prints receives the
//! [`Hit`]s they hand on, with offsets, line and column in the input.

use std::fs::File;
use std::io::{self, Read};
use std::sync::atomic::{AtomicU64, Ordering};

use iriscan::{Hit, ReadAt, Searcher, Summary};

use crate::progress::Progress;
use crate::walk::Reader;

/// Why scanning an input stopped.
#[derive(Debug)]
pub enum InputError {
    /// Reading failed after `at` bytes: the input is reported, the run goes
    /// on with the next one.
    Read { at: u64, err: io::Error },
    /// Writing the output failed: the run stops.
    Output(io::Error),
}

/// Counts the bytes read, to say where a read error happened.
struct Counting<R> {
    inner: R,
    read: u64,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read += n as u64;
        Ok(n)
    }
}

/// A regular file read at offsets: its bytes count towards the progress
/// display, and the first offset where a read failed is kept.
struct TrackedFile<'a> {
    file: &'a File,
    progress: &'a Progress,
    failed_at: AtomicU64,
}

impl ReadAt for TrackedFile<'_> {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        match self.file.read_at(buf, offset) {
            Ok(n) => {
                self.progress.advance(n);
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
/// threads) and handed to `emit`; stops at the first error. A regular file
/// is read at offsets (with several threads, in pieces on the pool);
/// anything else — standard input, a pipe — as it comes.
pub fn scan_input<T: Send>(
    reader: Reader,
    name: &str,
    progress: &Progress,
    searcher: &Searcher,
    render: impl Fn(&Hit<'_>) -> T + Sync,
    mut emit: impl FnMut(T) -> io::Result<()>,
) -> Result<Summary, InputError> {
    let mut output = None;
    let sink = |t| match emit(t) {
        Ok(()) => Ok(true),
        Err(e) => {
            output = Some(e);
            Ok(false)
        }
    };
    let (scanned, at) = match reader {
        Reader::File(file) if file.metadata().is_ok_and(|m| m.is_file()) => {
            progress.name(name);
            let tracked = TrackedFile {
                file: &file,
                progress,
                failed_at: AtomicU64::new(u64::MAX),
            };
            let scanned = searcher.scan_file_map(&tracked, render, sink);
            let at = tracked.failed_at.into_inner();
            (scanned, if at == u64::MAX { 0 } else { at })
        }
        reader => {
            let mut reader = Counting {
                inner: progress.wrap(reader, name),
                read: 0,
            };
            let scanned = searcher.scan_reader_map(&mut reader, render, sink);
            (scanned, reader.read)
        }
    };
    if let Some(e) = output {
        return Err(InputError::Output(e));
    }
    scanned.map_err(|err| InputError::Read { at, err })
}

/// Scans a whole (small) input into rendered hits, for inputs scanned side
/// by side whose output must still come out in input order.
pub fn collect_input<T: Send>(
    reader: Reader,
    name: &str,
    progress: &Progress,
    searcher: &Searcher,
    render: impl Fn(&Hit<'_>) -> T + Sync,
) -> Result<(Vec<T>, Summary), InputError> {
    let mut all = Vec::new();
    let summary = scan_input(reader, name, progress, searcher, render, |t| {
        all.push(t);
        Ok(())
    })?;
    Ok((all, summary))
}
