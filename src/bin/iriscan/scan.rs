//! The one step from an input to its hits.
//!
//! Everything that reads input calls [`scan_input`] (streaming, in bounded
//! memory, on the searcher's threads) or [`collect_input`] (for the small
//! files scanned side by side); everything that prints receives the
//! [`Hit`]s they hand on, with offsets, line and column in the input.

use std::io::{self, Read};

use iriscan::{Hit, Searcher, Summary};

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

/// Streams `reader` through `searcher`: every candidate — valid and
/// invalid, in input order — is rendered by `render` (on the searcher's
/// threads) and handed to `emit`; stops at the first error.
pub fn scan_input<T: Send>(
    reader: impl Read,
    searcher: &Searcher,
    render: impl Fn(&Hit<'_>) -> T + Sync,
    mut emit: impl FnMut(T) -> io::Result<()>,
) -> Result<Summary, InputError> {
    let mut reader = Counting {
        inner: reader,
        read: 0,
    };
    let mut output = None;
    let scanned = searcher.scan_reader_map(&mut reader, render, |t| match emit(t) {
        Ok(()) => Ok(true),
        Err(e) => {
            output = Some(e);
            Ok(false)
        }
    });
    if let Some(e) = output {
        return Err(InputError::Output(e));
    }
    scanned.map_err(|err| InputError::Read {
        at: reader.read,
        err,
    })
}

/// Scans a whole (small) input into rendered hits, for inputs scanned side
/// by side whose output must still come out in input order.
pub fn collect_input<T: Send>(
    reader: impl Read,
    searcher: &Searcher,
    render: impl Fn(&Hit<'_>) -> T + Sync,
) -> Result<(Vec<T>, Summary), InputError> {
    let mut all = Vec::new();
    let summary = scan_input(reader, searcher, render, |t| {
        all.push(t);
        Ok(())
    })?;
    Ok((all, summary))
}
