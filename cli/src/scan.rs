//! The one step from an input to its hits.
//!
//! Everything that reads input calls [`scan_input`] (streaming, in bounded
//! memory, on the searcher's threads; the small files scanned side by side
//! are scanned so too, on one thread each: [`crate::in_order`](mod@crate::in_order)), or
//! [`count_input`] when only a count is printed; everything that prints
//! receives the [`Hit`]s the first hands on, with offsets, line and column
//! in the input, or the counts of the second. Both look for a NUL first
//! ([`crate::binary`]): a binary input may be
//! skipped before anything is scanned.
//!
//! Input that is not a regular file (standard input, a pipe) is read as it
//! arrives: on a thread of its own ([`interrupt::Watched`], so that a
//! signal stops a scan waiting for input) and, when the output is
//! line-buffered, incrementally ([`Searcher::incremental`]: each hit is
//! printed once its line is read); it is looked at for a NUL as it is read
//! ([`Sniffing`] hands on each read at once). After a signal, a file's scan
//! stops at its next read, and input read as it arrives ends (see
//! [`interrupt`]). A compressed input (`-z`, [`crate::decompress`]) is
//! streamed too (decompressed on the scan's thread for a file, on the
//! reading thread for a pipe); a decompressed file found by a walk is
//! looked at for a NUL before its scan, as a file is.

use std::fs::File;
use std::io::{self, Read};
use std::sync::atomic::{AtomicU64, Ordering};

use iriscan::{Counts, Hit, ReadAt, Searcher, Summary};

use crate::binary::{BinaryCheck, OnBinary, SNIFF_LEN, Sniffing};
use crate::decompress::Failure;
use crate::interrupt;
use crate::progress::Progress;
use crate::utf16_hint::{self, Utf16};
use crate::walk::Reader;

/// How the scan of an input went (when it did not fail).
#[derive(Debug)]
pub enum Scanned<S> {
    /// Scanned to its end; `nul` is where a NUL showed the input binary,
    /// `utf16` whether its first bytes look like UTF-16 without a byte
    /// order mark.
    Whole {
        summary: S,
        nul: Option<u64>,
        utf16: Option<Utf16>,
    },
    /// Binary (a NUL at `nul`), and skipped: nothing was scanned.
    SkippedBinary { nul: u64 },
}

/// How an input is read: what is done if it is binary, and whether input
/// read as it arrives is scanned as it arrives (see the module docs).
#[derive(Clone, Copy, Debug)]
pub struct ReadMode {
    pub binary: BinaryCheck,
    pub incremental: bool,
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

/// A regular file read at offsets: its first bytes come from `head` (read
/// once, to look for a NUL), its bytes count towards the progress
/// display, and the first offset where a read failed is kept.
struct TrackedFile<'a> {
    file: &'a File,
    progress: &'a Progress,
    failed_at: AtomicU64,
    /// The first bytes, read once: to look for a NUL and for
    /// [`utf16_hint`], then handed to the scan.
    head: Vec<u8>,
    /// Whether `head` is the whole file (it ended before the head was full).
    head_is_all: bool,
}

impl TrackedFile<'_> {
    /// Reads the head (see [`read_head`]).
    fn read_head(&mut self, len: u64) -> io::Result<()> {
        let (head, ended) = read_head(&*self, len)?;
        self.head = head;
        self.head_is_all = ended;
        Ok(())
    }
}

/// The first [`SNIFF_LEN`] bytes of a regular file of `len` bytes, or the
/// whole file if it is shorter, and whether the file ended there.
pub fn read_head(file: &impl ReadAt, len: u64) -> io::Result<(Vec<u8>, bool)> {
    // One more byte than the file holds, so that its end is seen.
    let want = usize::try_from(len.saturating_add(1)).map_or(SNIFF_LEN, |n| n.min(SNIFF_LEN));
    let mut head = vec![0; want];
    let mut n = 0;
    let mut ended = false;
    while n < want {
        match file.read_at(&mut head[n..], n as u64) {
            Ok(0) => {
                ended = true;
                break;
            }
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    head.truncate(n);
    Ok((head, ended))
}

impl ReadAt for TrackedFile<'_> {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        if interrupt::received().is_some() {
            return Err(interrupt::stopped());
        }
        let start = usize::try_from(offset).unwrap_or(usize::MAX);
        if start < self.head.len() || self.head_is_all {
            // Short reads are allowed: the reader asks again for the rest.
            return self.head.as_slice().read_at(buf, offset);
        }
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
/// threads) and handed to `emit`, which says whether to go on; stops at
/// the first error. See [`scan_with`] for how the input is read.
pub fn scan_input<T: Send>(
    reader: Reader,
    name: &str,
    progress: &Progress,
    searcher: &Searcher,
    mode: ReadMode,
    render: impl Fn(&Hit<'_>) -> T + Sync,
    emit: impl FnMut(T) -> io::Result<bool>,
) -> Result<Scanned<Summary>, InputError> {
    let mut rendering = Render {
        render,
        emit,
        output: None,
    };
    scan_with(reader, name, progress, searcher, mode, &mut rendering)
}

/// Counts the hits of `reader` into `counts` without making them
/// ([`Searcher::count_file`]): what [`scan_input`] would hand on, read
/// the same way (binary inputs, charsets, read errors), for `--count`.
pub fn count_input(
    reader: Reader,
    name: &str,
    progress: &Progress,
    searcher: &Searcher,
    mode: ReadMode,
    counts: &mut Counts,
) -> Result<Scanned<Summary>, InputError> {
    scan_with(reader, name, progress, searcher, mode, &mut Count(counts))
}

/// What the scan of an input does with its hits: hand each one on
/// ([`Render`]), or only count them ([`Count`]).
pub trait Scan {
    /// Scans a regular file, read at offsets.
    fn file<F: ReadAt + ?Sized>(&mut self, searcher: &Searcher, file: &F) -> io::Result<Summary>;

    /// Scans input read as it comes.
    fn reader(&mut self, searcher: &Searcher, reader: impl Read) -> io::Result<Summary>;

    /// The output error that stopped the scan, if one did.
    fn output_error(&mut self) -> Option<io::Error>;
}

/// Each hit rendered by `render` on the searcher's threads, then handed
/// to `emit`; an output error stops the scan and is kept.
pub struct Render<R, E> {
    render: R,
    emit: E,
    output: Option<io::Error>,
}

impl<T, R, E> Scan for Render<R, E>
where
    T: Send,
    R: Fn(&Hit<'_>) -> T + Sync,
    E: FnMut(T) -> io::Result<bool>,
{
    fn file<F: ReadAt + ?Sized>(&mut self, searcher: &Searcher, file: &F) -> io::Result<Summary> {
        let (emit, output) = (&mut self.emit, &mut self.output);
        searcher.scan_file_map(file, &self.render, |t| emitted(emit(t), output))
    }

    fn reader(&mut self, searcher: &Searcher, reader: impl Read) -> io::Result<Summary> {
        let (emit, output) = (&mut self.emit, &mut self.output);
        searcher.scan_reader_map(reader, &self.render, |t| emitted(emit(t), output))
    }

    fn output_error(&mut self) -> Option<io::Error> {
        self.output.take()
    }
}

/// Whether to go on after emitting: an output error is kept in `output`
/// and stops the scan (the scan's own errors are read errors).
#[inline]
fn emitted(r: io::Result<bool>, output: &mut Option<io::Error>) -> io::Result<bool> {
    match r {
        Ok(go_on) => Ok(go_on),
        Err(e) => {
            *output = Some(e);
            Ok(false)
        }
    }
}

/// The hits counted, never made (see [`count_input`]).
pub struct Count<'c>(&'c mut Counts);

impl Scan for Count<'_> {
    fn file<F: ReadAt + ?Sized>(&mut self, searcher: &Searcher, file: &F) -> io::Result<Summary> {
        searcher.count_file(file, self.0)
    }

    fn reader(&mut self, searcher: &Searcher, reader: impl Read) -> io::Result<Summary> {
        searcher.count_reader(reader, self.0)
    }

    fn output_error(&mut self) -> Option<io::Error> {
        None
    }
}

/// Scans `reader` through `searcher` as `how` says. A regular file is
/// looked at for a NUL first and skipped if `mode.binary` says so, then
/// read at offsets (with several threads, in pieces on the pool); anything
/// else — standard input, a pipe — is read as it comes
/// (`mode.incremental`: see the module docs), and looked at as it is read.
pub fn scan_with(
    reader: Reader,
    name: &str,
    progress: &Progress,
    searcher: &Searcher,
    mode: ReadMode,
    how: &mut impl Scan,
) -> Result<Scanned<Summary>, InputError> {
    let regular = match &reader {
        Reader::File(file) => file.metadata().ok().filter(|m| m.is_file()),
        Reader::Stdin(_) | Reader::Decompressed(_) => None,
    };
    let failure = reader.failure();
    let (scanned, at, nul, first) = match (reader, regular) {
        (Reader::File(file), Some(meta)) => {
            progress.name(name);
            let mut tracked = TrackedFile {
                file: &file,
                progress,
                failed_at: AtomicU64::new(u64::MAX),
                head: Vec::new(),
                head_is_all: false,
            };
            if let Err(err) = tracked.read_head(meta.len()) {
                let at = tracked.failed_at.into_inner();
                return Err(InputError::Read {
                    at: if at == u64::MAX { 0 } else { at },
                    err,
                });
            }
            let nul = mode.binary.first_nul(&tracked.head);
            if let (OnBinary::Skip, Some(nul)) = (mode.binary.on_binary, nul) {
                return Ok(Scanned::SkippedBinary { nul });
            }
            let scanned = how.file(searcher, &tracked);
            let at = tracked.failed_at.into_inner();
            let first = tracked.head[..tracked.head.len().min(utf16_hint::PREFIX)].to_vec();
            (scanned, if at == u64::MAX { 0 } else { at }, nul, first)
        }
        (reader, _) => {
            let mut input = as_it_arrives(reader);
            if failure.is_some() && mode.binary.on_binary == OnBinary::Skip {
                let (read, nul) = look_ahead(input, mode.binary)
                    .map_err(|err| InputError::Read { at: 0, err })?;
                if let Some(nul) = nul {
                    return Ok(Scanned::SkippedBinary { nul });
                }
                input = read;
            }
            // What cannot be looked at ahead is scanned, binary or not.
            let mut reader = Counting {
                inner: Sniffing::new(progress.wrap(input, name), mode.binary),
                read: 0,
                first: Vec::new(),
            };
            let searcher = if mode.incremental {
                &searcher.clone().incremental(true)
            } else {
                searcher
            };
            let scanned = how.reader(searcher, &mut reader);
            (scanned, reader.read, reader.inner.nul(), reader.first)
        }
    };
    if let Some(e) = how.output_error() {
        return Err(InputError::Output(e));
    }
    // A decompressed input that failed was scanned up to the failure.
    if let Some(failed) = failure.as_ref().and_then(Failure::take) {
        return Err(InputError::Read {
            at: failed.at,
            err: failed.into_io(),
        });
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
    Ok(Scanned::Whole {
        summary,
        nul,
        utf16,
    })
}

/// Looks at the first [`SNIFF_LEN`] bytes of `input` for a NUL, as a
/// regular file's are looked at before its scan (for a decompressed file
/// found by a walk, `-z`): `input` with those bytes put back, and where
/// the NUL is if there is one.
pub fn look_ahead(
    mut input: Box<dyn Read + Send>,
    binary: BinaryCheck,
) -> io::Result<(Box<dyn Read + Send>, Option<u64>)> {
    let mut head = Vec::new();
    (&mut input).take(SNIFF_LEN as u64).read_to_end(&mut head)?;
    let nul = binary.first_nul(&head);
    Ok((Box::new(io::Cursor::new(head).chain(input)), nul))
}

/// `reader` as is if it is a regular file, else read on a thread of its
/// own ([`interrupt::Watched`]), so that a signal stops a read that waits.
pub fn as_it_arrives(reader: Reader) -> Box<dyn Read + Send> {
    match reader {
        Reader::File(file) if file.metadata().is_ok_and(|m| m.is_file()) => Box::new(file),
        // Decompressed on the scan's thread: a thread of its own (read
        // beside the scan) cost more than it gave, per file and in all.
        Reader::Decompressed(d) if d.reads_file() => Box::new(d),
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
        // Not a regular file: decompressed on that thread.
        Reader::Decompressed(d) => interrupt::Watched::new(move || d),
    }
}
