//! The input of a scan: raw bytes read from a reader (or pushed), its
//! charset chosen, decoded to UTF-8 and appended to the scan buffer.

use std::io;

use encoding_rs::Encoding;

use crate::charset::detect::{Charset, DETECTION_PREFIX_LEN};
use crate::charset::transcoder::Transcoder;
use crate::stream::locating::Mapper;
use crate::stream::read_at::Fill;
#[cfg(feature = "parallel")]
use crate::stream::read_at::PieceRead;
use crate::stream::roll_buffer::RollBuffer;
use crate::stream::summary::Summary;

/// The input: raw bytes read, decoded to UTF-8 appended to the scan buffer.
pub(super) struct Source<R> {
    pub(super) reader: R,
    pub(super) raw: RollBuffer,
    /// The transcoder's output (for the identity, `raw` is the output).
    pub(super) decoded: Vec<u8>,
    pub(super) transcoder: Transcoder,
    /// The whole raw input has been read (and pushed with `last`).
    pub(super) done: bool,
    /// Read what one read gives, never waiting for more while there are
    /// bytes to scan (see [`Searcher::incremental`](crate::Searcher::incremental)).
    pub(super) eager: bool,
    pub(super) bytes: u64,
}

impl<R: Fill> Source<R> {
    /// Reads the first bytes (up to the detection prefix, or to the end;
    /// `eager`: what the first read gives) and chooses the charset.
    pub(super) fn open(
        mut reader: R,
        encoding: Option<&'static Encoding>,
        eager: bool,
    ) -> io::Result<Source<R>> {
        let mut raw = RollBuffer::default();
        let mut bytes = 0;
        let done = if eager {
            read_once(&mut reader, &mut raw, DETECTION_PREFIX_LEN, &mut bytes)?
        } else {
            read_up_to(&mut reader, &mut raw, DETECTION_PREFIX_LEN, &mut bytes)?
        };
        let mut source = Source::with_prefix(reader, raw, done, bytes, encoding);
        source.eager = eager;
        if source.transcoder.is_identity() && !eager {
            // UTF-8 is scanned as read: a reader that reads on several
            // threads checks it there, not this thread after it.
            source.reader.check_utf8();
        }
        Ok(source)
    }

    /// Reads about `want` more bytes into `buf` (`eager`: one read);
    /// returns whether the input ended.
    fn read(&mut self, buf: &mut RollBuffer, want: usize) -> io::Result<bool> {
        if self.eager {
            read_once(&mut self.reader, buf, want, &mut self.bytes)
        } else {
            read_up_to(&mut self.reader, buf, want, &mut self.bytes)
        }
    }

    /// Reads about `block` more bytes and appends their UTF-8 to `out`;
    /// returns whether the input ended (all of it decoded).
    pub(super) fn fill(&mut self, out: &mut RollBuffer, block: usize) -> io::Result<bool> {
        if self.transcoder.is_identity() {
            // UTF-8: read straight into the scan buffer (the transcoder
            // only counts malformed sequences and skips a BOM).
            let start = out.len();
            out.extend(self.raw.bytes());
            self.raw = RollBuffer::default();
            let have = out.len() - start;
            let mut valid = None;
            if !self.done && have < block && !(self.eager && have > 0) {
                let at = out.len();
                self.done = self.read(out, block - have)?;
                if !self.eager {
                    valid = self.reader.valid_utf8().map(|(a, b)| (at + a, at + b));
                }
            }
            self.decode_in_place(out, start, valid);
            return Ok(self.done);
        }
        let have = self.raw.len();
        if !self.done && have < block && !(self.eager && have > 0) {
            let mut raw = std::mem::take(&mut self.raw);
            let read = self.read(&mut raw, block - have);
            self.raw = raw;
            self.done = read?;
        }
        self.decode_raw(out);
        Ok(self.done)
    }
}

#[cfg(feature = "parallel")]
impl<R: Fill> Source<R> {
    /// Whether the next fill can be read in pieces by several threads (see
    /// [`Fill::piece_reader`]): UTF-8, checked as it is read, nothing held
    /// back from the charset's detection, more to read.
    pub(super) fn reads_in_pieces(&self) -> bool {
        self.transcoder.is_identity()
            && self.raw.len() == 0
            && !self.eager
            && !self.done
            && self.reader.piece_reader().is_some()
    }

    /// Takes a fill of `len` bytes that threads read in `pieces` into
    /// `out`'s spare room from `start` (its end) on, as
    /// [`fill`](Source::fill) takes what it reads; returns whether the
    /// input ended.
    pub(super) fn took_pieces(
        &mut self,
        out: &mut RollBuffer,
        start: usize,
        len: usize,
        pieces: Vec<PieceRead>,
    ) -> io::Result<bool> {
        debug_assert!(out.len() == start && self.reads_in_pieces());
        let (n, ended) = self
            .reader
            .join_pieces(&out.data[start..start + len], pieces)?;
        self.bytes += n as u64;
        out.commit(n);
        self.done = ended;
        let valid = self
            .reader
            .valid_utf8()
            .map(|(a, b)| (start + a, start + b));
        self.decode_in_place(out, start, valid);
        Ok(self.done)
    }
}

impl<R> Source<R> {
    /// The source of an input whose first `bytes` bytes are read into
    /// `raw` (`done`: that is all of it): the charset is the one given, or
    /// the one detected in the first [`DETECTION_PREFIX_LEN`] bytes.
    pub(super) fn with_prefix(
        reader: R,
        raw: RollBuffer,
        done: bool,
        bytes: u64,
        encoding: Option<&'static Encoding>,
    ) -> Source<R> {
        let prefix = &raw.bytes()[..raw.len().min(DETECTION_PREFIX_LEN)];
        let charset = Charset::for_input(prefix, done, encoding);
        Source {
            reader,
            raw,
            decoded: Vec::new(),
            transcoder: Transcoder::new(&charset),
            done,
            eager: false,
            bytes,
        }
    }

    /// Takes the next chunk of an input pushed chunk by chunk (`last`: the
    /// final one) and appends its UTF-8 to `out`, as [`fill`](Source::fill)
    /// does with what it reads.
    pub(super) fn push(&mut self, chunk: &[u8], last: bool, out: &mut RollBuffer) {
        self.bytes += chunk.len() as u64;
        self.done = last;
        if self.transcoder.is_identity() {
            let start = out.len();
            out.extend(self.raw.bytes());
            self.raw = RollBuffer::default();
            out.extend(chunk);
            self.decode_in_place(out, start, None);
        } else {
            self.raw.extend(chunk);
            self.decode_raw(out);
        }
    }

    /// Passes the UTF-8 appended to `out` from `start` on through the
    /// (identity) transcoder, which counts malformed sequences, and drops
    /// the BOM bytes it skips. The bytes in `valid` (offsets into `out`)
    /// are whole characters of UTF-8 already checked by the reader: the
    /// transcoder takes them as they are.
    fn decode_in_place(
        &mut self,
        out: &mut RollBuffer,
        start: usize,
        valid: Option<(usize, usize)>,
    ) {
        let pushed = out.len() - start;
        let bytes = &out.bytes()[start..];
        let before = self.transcoder.output_len();
        match valid {
            Some((a, b)) => {
                let (a, b) = (a - start, b - start);
                let t = &mut self.transcoder;
                t.push(&bytes[..a], false, &mut self.decoded);
                if !t.push_valid(&bytes[a..b], false) {
                    t.push(&bytes[a..b], false, &mut self.decoded);
                }
                t.push(&bytes[b..], self.done, &mut self.decoded);
            }
            None => {
                self.transcoder.push(bytes, self.done, &mut self.decoded);
            }
        }
        let utf8 = self.transcoder.output_len() - before;
        if utf8 < pushed {
            out.remove(start, start + pushed - utf8);
        }
    }

    /// Decodes the raw bytes read and appends their UTF-8 to `out`.
    fn decode_raw(&mut self, out: &mut RollBuffer) {
        self.decoded.clear();
        let utf8 = self
            .transcoder
            .push(self.raw.bytes(), self.done, &mut self.decoded);
        out.extend(utf8);
        self.raw.clear();
    }

    pub(super) fn held(&self) -> usize {
        self.raw.capacity() + self.decoded.capacity()
    }

    pub(super) fn mapper(&self) -> Mapper<'_> {
        Mapper::of(&self.transcoder)
    }

    pub(super) fn release(&mut self, utf8: usize) {
        self.transcoder.release(utf8);
    }

    pub(super) fn summary(&self, hits: u64, peak: usize) -> Summary {
        Summary {
            bytes: self.bytes,
            hits,
            peak_buffer: peak,
            charset: *self.transcoder.charset(),
            replacements: self.transcoder.replacements(),
        }
    }
}

/// Reads until `buf` is full or the reader ends; returns how many bytes
/// were read and whether it ended.
fn read_into<R: Fill>(
    reader: &mut R,
    buf: &mut [u8],
    bytes: &mut u64,
) -> io::Result<(usize, bool)> {
    let (n, ended) = reader.fill(buf)?;
    *bytes += n as u64;
    Ok((n, ended))
}

/// Reads once (again if interrupted) up to `want` more bytes into `buf`;
/// returns whether the reader ended.
fn read_once<R: Fill>(
    reader: &mut R,
    buf: &mut RollBuffer,
    want: usize,
    bytes: &mut u64,
) -> io::Result<bool> {
    loop {
        match reader.read(buf.spare(want)) {
            Ok(n) => {
                buf.commit(n);
                *bytes += n as u64;
                return Ok(n == 0);
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// Reads until `want` more bytes are in `buf` or the reader ends; returns
/// whether it ended. (The buffer's storage is initialized once and reused;
/// a reader handing out one byte at a time costs one read a byte.)
fn read_up_to<R: Fill>(
    reader: &mut R,
    buf: &mut RollBuffer,
    want: usize,
    bytes: &mut u64,
) -> io::Result<bool> {
    let (n, ended) = read_into(reader, buf.spare(want), bytes)?;
    buf.commit(n);
    Ok(ended)
}
