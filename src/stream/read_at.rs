//! Input read at any offset, from several threads at once: a regular file.
//!
//! With one thread a file is read like any reader. With several, the
//! [`Searcher`](crate::Searcher) splits each block it reads into pieces and
//! reads them on the pool, side by side with the scanning of the block
//! before: the copy out of the page cache (a quarter of a parallel round on
//! link-dense text when the reading thread did it alone) is shared by the
//! threads like the scanning, and so is the check of its UTF-8: each
//! piece checks its own as it is read (see [`Fill::valid_utf8`]).

use std::fs::File;
use std::io::{self, Read};

use crate::chars::utf8::{incomplete_tail, is_continuation};
use crate::stream::pool::Pool;

#[cfg(feature = "parallel")]
use rayon::prelude::*;

/// Input that can be read at any offset through a shared reference, from
/// several threads at once, like [`File`] (`pread` on Unix): the bytes at
/// an offset are those a reader would have seen there.
pub trait ReadAt: Sync {
    /// Reads up to `buf.len()` bytes starting at `offset`; returns how many
    /// (0 at the end of the input).
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize>;
}

impl ReadAt for File {
    #[cfg(unix)]
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        std::os::unix::fs::FileExt::read_at(self, buf, offset)
    }

    #[cfg(windows)]
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        std::os::windows::fs::FileExt::seek_read(self, buf, offset)
    }
}

impl<T: ReadAt + ?Sized> ReadAt for &T {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        (**self).read_at(buf, offset)
    }
}

impl ReadAt for [u8] {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        let start = usize::try_from(offset)
            .unwrap_or(usize::MAX)
            .min(self.len());
        let n = buf.len().min(self.len() - start);
        buf[..n].copy_from_slice(&self[start..start + n]);
        Ok(n)
    }
}

/// How the searcher's input fills a buffer: as a reader (one read after
/// the other), or in pieces read side by side on the pool.
pub(crate) trait Fill: Read {
    /// Reads until `buf` is full or the input ends; returns how many bytes
    /// were read and whether it ended. A read error after some bytes ends
    /// the fill with those bytes; the error comes with the next fill (the
    /// read is tried again), so that the bytes before it are scanned.
    fn fill(&mut self, buf: &mut [u8]) -> io::Result<(usize, bool)> {
        deferred(fill_from(buf, |b| self.read(b)))
    }

    /// Asks the fills to come to check their bytes' UTF-8 where they can
    /// do it on several threads (see [`valid_utf8`](Fill::valid_utf8)).
    fn check_utf8(&mut self) {}

    /// Where the last fill's bytes are known to be whole characters of
    /// valid UTF-8: a range of what it read (the bytes before it may
    /// finish a character the fill before began, those after it begin
    /// one), or `None` if that was not checked or is not so.
    fn valid_utf8(&self) -> Option<(usize, usize)> {
        None
    }

    /// The input as pieces that any thread can read, if it can be read so
    /// (a [`ReadAt`] input read in parallel): the parallel pipeline then
    /// has each thread read the pieces of a block it will scan (see
    /// [`PieceReader`]).
    #[cfg(feature = "parallel")]
    fn piece_reader(&self) -> Option<&dyn PieceReader> {
        None
    }

    /// Takes the pieces of a fill that threads read through
    /// [`piece_reader`](Fill::piece_reader), in order, into `buf` (where
    /// they were read): as [`fill`](Fill::fill) returns, and the fill's
    /// bytes are then its own.
    fn join_pieces(&mut self, _buf: &[u8], _pieces: Vec<PieceRead>) -> io::Result<(usize, bool)> {
        // Only an input with a piece reader is read in pieces.
        debug_assert!(false, "pieces joined by an input without a piece reader");
        Err(io::Error::other("this input is not read in pieces"))
    }
}

/// What reading one piece of a fill gave: its length, the bytes read and
/// whether the input ended there (or the error), and the whole characters
/// of valid UTF-8 in it (when checked).
pub(crate) type PieceRead = (usize, (usize, io::Result<bool>), Option<(usize, usize)>);

/// An input whose next fill any thread can read a piece of: the piece
/// `at` bytes after the fill's start, into `buf`.
pub(crate) trait PieceReader: Sync {
    /// Reads the piece at `at` (a multiple of [`READ_PIECE`]) into `buf`.
    fn read_piece(&self, at: usize, buf: &mut [u8]) -> PieceRead;
}

/// Any reader, read one read after the other.
pub(crate) struct Sequential<R>(pub R);

impl<R: Read> Read for Sequential<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf)
    }
}

impl<R: Read> Fill for Sequential<R> {}

/// The size of the pieces a block is read in on the pool.
pub(crate) const READ_PIECE: usize = 128 << 10;

/// A [`ReadAt`] input read from its start, in order; a large fill is read
/// in pieces on the rayon pool when `parallel`.
pub(crate) struct Positional<'a, F: ?Sized> {
    input: &'a F,
    offset: u64,
    parallel: bool,
    /// Where the pieces are read.
    pool: &'a Pool,
    /// Check each piece's UTF-8 as it is read.
    check_utf8: bool,
    /// What the last fill found of its UTF-8 (see [`Fill::valid_utf8`]).
    valid: Option<(usize, usize)>,
}

impl<'a, F: ReadAt + ?Sized> Positional<'a, F> {
    pub(crate) fn new(input: &'a F, parallel: bool, pool: &'a Pool) -> Self {
        Positional {
            input,
            offset: 0,
            parallel,
            pool,
            check_utf8: false,
            valid: None,
        }
    }
}

impl<F: ReadAt + ?Sized> Read for Positional<'_, F> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.input.read_at(buf, self.offset)?;
        self.offset += n as u64;
        Ok(n)
    }
}

impl<F: ReadAt + ?Sized> Fill for Positional<'_, F> {
    fn check_utf8(&mut self) {
        self.check_utf8 = true;
    }

    fn valid_utf8(&self) -> Option<(usize, usize)> {
        self.valid
    }

    fn fill(&mut self, buf: &mut [u8]) -> io::Result<(usize, bool)> {
        self.valid = None;
        if !self.parallel || buf.len() <= READ_PIECE {
            return deferred(fill_from(buf, |b| self.read(b)));
        }
        let this = &*self;
        let pieces: Vec<PieceRead> = self.pool.install(|| {
            // A job a piece (see `parallel_scan::scan_window`); in order
            // on this thread without the `parallel` feature.
            #[cfg(feature = "parallel")]
            let chunks = buf.par_chunks_mut(READ_PIECE).enumerate().with_max_len(1);
            #[cfg(not(feature = "parallel"))]
            let chunks = buf.chunks_mut(READ_PIECE).enumerate();
            chunks
                .map(|(k, piece)| this.read_piece(k * READ_PIECE, piece))
                .collect()
        });
        self.join_pieces(buf, pieces)
    }

    #[cfg(feature = "parallel")]
    fn piece_reader(&self) -> Option<&dyn PieceReader> {
        self.parallel.then_some(self)
    }

    fn join_pieces(&mut self, buf: &[u8], pieces: Vec<PieceRead>) -> io::Result<(usize, bool)> {
        let check = self.check_utf8;
        // The bytes read are those up to the first piece that came short:
        // the end of the input (a file that grew meanwhile is read on from
        // there by the next fill, as a reader would), or an error, which
        // counts only where a reader would have met it.
        let mut n = 0;
        let mut result = Ok(false);
        // The valid UTF-8 so far, joined piece by piece: the bytes between
        // one piece's whole characters and the next's (a character cut by
        // the cut) are checked here.
        let mut valid = check.then_some((0, 0));
        for (k, (len, (got, read), whole)) in pieces.into_iter().enumerate() {
            valid = match (valid, whole) {
                (Some(_), Some((a, b))) if k == 0 => Some((a, b)),
                (Some((a, end)), Some((b0, b1))) => match std::str::from_utf8(&buf[end..n + b0]) {
                    Ok(_) => Some((a, n + b1)),
                    // A piece of continuation bytes only, of a character
                    // that goes on after it: the fill's incomplete tail.
                    Err(e) if e.error_len().is_none() && b0 == got => {
                        Some((a, end + e.valid_up_to()))
                    }
                    Err(_) => None,
                },
                _ => None,
            };
            n += got;
            match read {
                Ok(false) if got == len => continue,
                Ok(_) => result = Ok(true),
                Err(e) => result = Err(e),
            }
            break;
        }
        self.valid = valid;
        self.offset += n as u64;
        deferred((n, result))
    }
}

impl<F: ReadAt + ?Sized> PieceReader for Positional<'_, F> {
    fn read_piece(&self, at: usize, piece: &mut [u8]) -> PieceRead {
        let mut offset = self.offset + at as u64;
        let len = piece.len();
        let read = fill_from(piece, |b| {
            let n = self.input.read_at(b, offset)?;
            offset += n as u64;
            Ok(n)
        });
        // Checked while the bytes are at hand, on this thread.
        let valid = if self.check_utf8 {
            whole_chars(&piece[..read.0])
        } else {
            None
        };
        (len, read, valid)
    }
}

/// The whole characters of valid UTF-8 in `piece`, cut anywhere: from
/// after the continuation bytes it starts with (the end of a character
/// begun before it) to before the character it ends inside of; `None` if
/// they are not valid UTF-8.
fn whole_chars(piece: &[u8]) -> Option<(usize, usize)> {
    let a = piece
        .iter()
        .take(4)
        .take_while(|&&b| is_continuation(b))
        .count();
    let b = piece.len() - incomplete_tail(piece);
    if a > 3 || a > b {
        return None;
    }
    simdutf8::basic::from_utf8(&piece[a..b])
        .is_ok()
        .then_some((a, b))
}

/// A fill's outcome: an error after some bytes is left for the next fill.
fn deferred((n, read): (usize, io::Result<bool>)) -> io::Result<(usize, bool)> {
    match read {
        Ok(ended) => Ok((n, ended)),
        Err(_) if n > 0 => Ok((n, false)),
        Err(e) => Err(e),
    }
}

/// Calls `read` until `buf` is full, it returns 0 (the end) or fails;
/// retries interrupted reads. Returns the bytes read, and whether the
/// input ended or the error.
fn fill_from(
    buf: &mut [u8],
    mut read: impl FnMut(&mut [u8]) -> io::Result<usize>,
) -> (usize, io::Result<bool>) {
    let mut n = 0;
    while n < buf.len() {
        match read(&mut buf[n..]) {
            Ok(0) => return (n, Ok(true)),
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return (n, Err(e)),
        }
    }
    (n, Ok(false))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    /// Bytes 0, 1, …, 250, 0, 1, … up to `len`, handed out at most `step`
    /// bytes per read; fails at `fail_at`.
    struct Pattern {
        len: u64,
        step: usize,
        fail_at: Option<u64>,
        reads: AtomicU64,
    }

    impl ReadAt for Pattern {
        fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
            self.reads.fetch_add(1, Ordering::Relaxed);
            if self.reads.load(Ordering::Relaxed).is_multiple_of(3) {
                return Err(io::ErrorKind::Interrupted.into());
            }
            let n = (buf.len() as u64)
                .min(self.step as u64)
                .min(self.len.saturating_sub(offset)) as usize;
            if let Some(f) = self.fail_at
                && offset <= f
                && f < offset + n.max(1) as u64
            {
                return Err(io::Error::other("bad block"));
            }
            for (i, b) in buf[..n].iter_mut().enumerate() {
                *b = ((offset + i as u64) % 251) as u8;
            }
            Ok(n)
        }
    }

    fn expected(len: u64) -> Vec<u8> {
        (0..len).map(|i| (i % 251) as u8).collect()
    }

    fn read_all(input: &Pattern, parallel: bool, block: usize) -> io::Result<Vec<u8>> {
        let pool = Pool::default();
        let mut p = Positional::new(input, parallel, &pool);
        let mut out = Vec::new();
        let mut buf = vec![0; block];
        loop {
            let (n, ended) = p.fill(&mut buf)?;
            out.extend_from_slice(&buf[..n]);
            if ended {
                return Ok(out);
            }
        }
    }

    #[test]
    fn pieces_read_side_by_side_give_the_bytes_in_order() {
        for len in [
            0,
            1,
            5000,
            READ_PIECE as u64,
            3 * READ_PIECE as u64 + 7,
            5 << 20,
        ] {
            for step in [1000, 4096, 1 << 20] {
                for block in [READ_PIECE, 4 * READ_PIECE + 3, 1 << 20] {
                    for parallel in [false, true] {
                        let input = Pattern {
                            len,
                            step,
                            fail_at: None,
                            reads: AtomicU64::new(0),
                        };
                        let got = read_all(&input, parallel, block).unwrap();
                        assert!(got == expected(len), "{len} {step} {block} {parallel}");
                    }
                }
            }
        }
    }

    #[test]
    fn an_error_is_returned_where_a_reader_meets_it() {
        let input = Pattern {
            len: 3 << 20,
            step: 1 << 20,
            fail_at: Some((1 << 20) + 5 * READ_PIECE as u64),
            reads: AtomicU64::new(0),
        };
        let pool = Pool::default();
        let mut p = Positional::new(&input, true, &pool);
        let mut buf = vec![0; 1 << 20];
        assert_eq!(p.fill(&mut buf).unwrap(), (1 << 20, false));
        // The bytes before the failing read first, then the error.
        assert_eq!(p.fill(&mut buf).unwrap(), (5 * READ_PIECE, false));
        let (from, to) = (1 << 20, (1 << 20) + 5 * READ_PIECE);
        assert!(buf[..5 * READ_PIECE] == expected(to as u64)[from..]);
        let err = p.fill(&mut buf).unwrap_err();
        assert_eq!(err.to_string(), "bad block");
        // …but not past the end of the input.
        let input = Pattern {
            len: 3 * READ_PIECE as u64,
            step: 1 << 20,
            fail_at: Some(5 * READ_PIECE as u64),
            reads: AtomicU64::new(0),
        };
        let got = read_all(&input, true, 8 * READ_PIECE).unwrap();
        assert_eq!(got, expected(3 * READ_PIECE as u64));
    }

    /// With the check asked for, each fill says where its bytes are whole
    /// characters of valid UTF-8, wherever the pieces cut them; where they
    /// are not, it says nothing.
    #[test]
    fn pieces_check_their_utf8_as_they_are_read() {
        let text = "東京 https://例え.jp/ é😀 Ωμέγα ascii\n".repeat(40_000);
        let mut broken = text.clone().into_bytes();
        broken[3 * READ_PIECE + 1] = 0xff;
        let mut cut = text.clone().into_bytes();
        cut.extend_from_slice(&"東".as_bytes()[..2]);
        let pool = Pool::default();
        for (input, whole) in [
            (text.as_bytes(), true),
            (&cut[..], true),
            (&broken[..], false),
        ] {
            for block in [READ_PIECE + 1, 4 * READ_PIECE + 3, 1 << 20] {
                let mut p = Positional::new(input, true, &pool);
                p.check_utf8();
                let mut buf = vec![0; block];
                let mut seen = 0;
                let mut said = 0;
                loop {
                    let (n, ended) = p.fill(&mut buf).unwrap();
                    if let Some((a, b)) = p.valid_utf8() {
                        said += 1;
                        assert!(a <= 3 && b <= n && n - b <= 3, "{a} {b} {n}");
                        assert!(std::str::from_utf8(&buf[a..b]).is_ok());
                    } else if whole {
                        assert!(n == 0, "a valid fill of {n} bytes at {seen} not said so");
                    } else {
                        let bad = 3 * READ_PIECE + 1;
                        assert!(seen <= bad && bad < seen + n, "at {seen}");
                    }
                    seen += n;
                    if ended {
                        break;
                    }
                }
                assert_eq!(seen, input.len());
                assert!(said > 0);
            }
        }
        // Without the check, or with it on one thread: nothing is said.
        let mut buf = vec![0; 1 << 20];
        let mut p = Positional::new(text.as_bytes(), true, &pool);
        p.fill(&mut buf).unwrap();
        assert_eq!(p.valid_utf8(), None);
        let mut p = Positional::new(text.as_bytes(), false, &pool);
        p.check_utf8();
        p.fill(&mut buf).unwrap();
        assert_eq!(p.valid_utf8(), None);
    }

    #[test]
    fn a_slice_reads_at_offsets() {
        let bytes: &[u8] = b"hello world";
        let mut buf = [0; 5];
        assert_eq!(bytes.read_at(&mut buf, 6).unwrap(), 5);
        assert_eq!(&buf, b"world");
        assert_eq!(bytes.read_at(&mut buf, 9).unwrap(), 2);
        assert_eq!(bytes.read_at(&mut buf, 99).unwrap(), 0);
    }
}
