//! `-z`/`--search-zip`: compressed inputs, decompressed as they are read
//! (docs/rules.md §4).
//!
//! Crawl archives come compressed: WARC and WET files as gzip of many
//! members (one per record, concatenated), others as bzip2, xz or zstd.
//! With `-z` an input is told compressed by its first bytes — the magic
//! number each format starts with ([`sniff`]), not its name: ripgrep goes
//! by the extension, but a crawl file may be named `.warc` whatever is
//! inside, and standard input has no name. An input that starts with no
//! magic number is scanned as it is.
//!
//! A compressed input is decompressed as it is read, in bounded memory
//! (the decoders hold a window of the format, never the whole input), and
//! everything after that is about the decompressed bytes: binary and
//! charset detection, offsets (`--json`'s `start` and `end`), lines and
//! columns, `--stats`' bytes searched. Every member (gzip), stream (bzip2,
//! xz) or frame (zstd) is read, one after the other, as `gzip -d` and its
//! peers do.
//!
//! A corrupt or truncated input ends where its decoder fails: what was
//! decompressed before is scanned to its end (its hits are printed), then
//! the input is reported with the format and the decompressed bytes
//! reached ([`Failure`], [`DecompressError`]). So a read of a
//! [`Decompressing`] never fails (but after a signal, as any file's read):
//! it ends, and the failure is asked for after the scan.
//!
//! A compressed file is always streamed, never read at offsets, and never
//! batched with the small files (`main`): its size says nothing of what it
//! holds. It is decompressed on the thread that reads for the scan; a pipe
//! or standard input, on the thread that waits for its bytes
//! ([`crate::interrupt::Watched`]), which looks at them as they arrive
//! and only as far as a magic number goes.

use std::fmt;
use std::fs::File;
use std::io::{self, Cursor, Read};
use std::os::unix::fs::FileExt;
use std::sync::{Arc, Mutex};

use crate::interrupt;

/// The most memory the xz decoder may take (liblzma's memory limit): four
/// times what xz's strongest preset needs, far less than the 4 GiB a
/// hostile header may ask for. Beyond it the input fails with a message.
const XZ_MEMORY_LIMIT: u64 = 256 << 20;

/// The compressed formats `-z` reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Gzip,
    Bzip2,
    Xz,
    Zstd,
}

impl Format {
    /// The format's name, as messages print it.
    pub fn name(self) -> &'static str {
        match self {
            Format::Gzip => "gzip",
            Format::Bzip2 => "bzip2",
            Format::Xz => "xz",
            Format::Zstd => "zstd",
        }
    }
}

/// The first bytes of each format, each byte a range of values: gzip's
/// magic and its one compression method (deflate); bzip2's `BZh`, the
/// block size digit and the magic of a first block or of an empty
/// stream's end; xz's header magic; zstd's frame magic, and the magic of
/// a skippable frame (`0x184D2A50` to `0x184D2A5F`, little-endian).
const MAGIC: &[(Format, &[(u8, u8)])] = &[
    (Format::Gzip, &[(0x1f, 0x1f), (0x8b, 0x8b), (8, 8)]),
    (
        Format::Bzip2,
        &[
            (b'B', b'B'),
            (b'Z', b'Z'),
            (b'h', b'h'),
            (b'1', b'9'),
            (0x31, 0x31),
            (0x41, 0x41),
            (0x59, 0x59),
            (0x26, 0x26),
            (0x53, 0x53),
            (0x59, 0x59),
        ],
    ),
    (
        Format::Bzip2,
        &[
            (b'B', b'B'),
            (b'Z', b'Z'),
            (b'h', b'h'),
            (b'1', b'9'),
            (0x17, 0x17),
            (0x72, 0x72),
            (0x45, 0x45),
            (0x38, 0x38),
            (0x50, 0x50),
            (0x90, 0x90),
        ],
    ),
    (
        Format::Xz,
        &[
            (0xfd, 0xfd),
            (b'7', b'7'),
            (b'z', b'z'),
            (b'X', b'X'),
            (b'Z', b'Z'),
            (0, 0),
        ],
    ),
    (
        Format::Zstd,
        &[(0x28, 0x28), (0xb5, 0xb5), (0x2f, 0x2f), (0xfd, 0xfd)],
    ),
    (
        Format::Zstd,
        &[(0x50, 0x5f), (0x2a, 0x2a), (0x4d, 0x4d), (0x18, 0x18)],
    ),
];

/// The most bytes [`sniff`] needs.
pub const MAGIC_LEN: usize = 10;

/// What the first bytes of an input say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sniff {
    /// Compressed in this format.
    Compressed(Format),
    /// Not compressed (in a format `-z` reads).
    Plain,
    /// The start of a magic number: more bytes are needed (at the input's
    /// end, it is [`Sniff::Plain`]).
    NeedMore,
}

/// What `head`, an input's first bytes, says of its format. It answers as
/// soon as it can: a text's first byte starts no magic number, so a line
/// read as it arrives is not held back.
pub fn sniff(head: &[u8]) -> Sniff {
    let mut need_more = false;
    for (format, magic) in MAGIC {
        let agrees = magic
            .iter()
            .zip(head)
            .all(|(&(lo, hi), &b)| (lo..=hi).contains(&b));
        if agrees && head.len() >= magic.len() {
            return Sniff::Compressed(*format);
        }
        need_more |= agrees;
    }
    if need_more {
        Sniff::NeedMore
    } else {
        Sniff::Plain
    }
}

/// The format of a regular file, by its first bytes (read at offset 0:
/// the file's position does not move).
pub fn file_format(file: &File) -> io::Result<Option<Format>> {
    let mut head = [0; MAGIC_LEN];
    let mut n = 0;
    loop {
        match sniff(&head[..n]) {
            Sniff::Compressed(format) => return Ok(Some(format)),
            Sniff::Plain => return Ok(None),
            Sniff::NeedMore => {}
        }
        match file.read_at(&mut head[n..], n as u64) {
            Ok(0) => return Ok(None),
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// A compressed input that failed to decompress: its format, how many
/// decompressed bytes it gave before, and the decoder's reason.
#[derive(Debug)]
pub struct DecompressError {
    pub format: Format,
    /// The decompressed bytes read before the failure.
    pub at: u64,
    pub reason: io::Error,
}

impl fmt::Display for DecompressError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} input corrupt or truncated after decompressed byte {}: {}",
            self.format.name(),
            self.at,
            self.reason
        )
    }
}

impl std::error::Error for DecompressError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.reason)
    }
}

impl DecompressError {
    /// The error as an I/O error (whose inner error is this one).
    pub fn into_io(self) -> io::Error {
        io::Error::new(io::ErrorKind::InvalidData, self)
    }
}

/// Where a [`Decompressing`] reader leaves its failure, to be asked for
/// after the scan (the reader may be read on another thread).
#[derive(Clone, Default)]
pub struct Failure(Arc<Mutex<Option<DecompressError>>>);

impl Failure {
    /// The failure, if the input failed.
    pub fn take(&self) -> Option<DecompressError> {
        self.0.lock().map_or(None, |mut f| f.take())
    }

    fn set(&self, err: DecompressError) {
        if let Ok(mut f) = self.0.lock() {
            *f = Some(err);
        }
    }
}

/// A reader that can go to another thread.
type Inner = Box<dyn Read + Send>;

/// What a [`Decompressing`] reader is doing.
enum State {
    /// Not looked at yet: its first bytes say what it is (read when the
    /// scan first reads, on the thread that reads it).
    Unsniffed(Inner),
    /// Not compressed: read as it is.
    Plain(Inner),
    /// Decompressed.
    Compressed(Format, Inner),
    /// Over (failed: see [`Failure`]).
    Ended,
}

/// An input read with `-z`: decompressed if its first bytes say it is
/// compressed, else as it is (see the module docs). Reads never fail: a
/// decoder's error ends the input and is kept in [`Decompressing::failure`].
pub struct Decompressing {
    state: State,
    /// Read from a regular file (not from input that may make a read
    /// wait: that is read on a thread of its own, see [`crate::scan`]).
    reads_file: bool,
    /// The bytes handed out so far.
    read: u64,
    failure: Failure,
}

impl Decompressing {
    /// The regular file `file`, decompressed in `format`.
    pub fn new(file: File, format: Format) -> Decompressing {
        let mut d = Decompressing {
            state: State::Ended,
            reads_file: true,
            read: 0,
            failure: Failure::default(),
        };
        d.state = d.decoder(format, Box::new(file));
        d
    }

    /// `inner`, looked at when first read: decompressed if its first bytes
    /// say so, else read as it is.
    pub fn sniffing(inner: impl Read + Send + 'static) -> Decompressing {
        Decompressing {
            state: State::Unsniffed(Box::new(inner)),
            reads_file: false,
            read: 0,
            failure: Failure::default(),
        }
    }

    /// `inner` read as it is, never decompressed, keeping `failure` (of
    /// the reader it continues): an input whose first bytes were read to
    /// tell its format and put back in front (`--format auto`). `inner`
    /// is read where it already is ([`crate::scan::as_it_arrives`]).
    pub fn resumed(inner: impl Read + Send + 'static, failure: Failure) -> Decompressing {
        Decompressing {
            state: State::Plain(Box::new(inner)),
            reads_file: true,
            read: 0,
            failure,
        }
    }

    /// Whether this reads a regular file (its reads do not wait).
    pub fn reads_file(&self) -> bool {
        self.reads_file
    }

    /// Where the failure of this input will be, if it fails.
    pub fn failure(&self) -> Failure {
        self.failure.clone()
    }

    /// The decoder of `format` over `inner` (each hands the decompressed
    /// members, streams or frames one after the other).
    fn decoder(&self, format: Format, inner: Inner) -> State {
        let decoder: Inner = match format {
            Format::Gzip => Box::new(flate2::read::MultiGzDecoder::new(inner)),
            Format::Bzip2 => Box::new(bzip2::read::MultiBzDecoder::new(inner)),
            Format::Xz => {
                // A memory limit (the multi-stream decoder has none: a small
                // hostile file declaring a 4 GiB dictionary would get it).
                // xz's presets use at most 64 MiB of dictionary.
                match liblzma::stream::Stream::new_stream_decoder(
                    XZ_MEMORY_LIMIT,
                    liblzma::stream::CONCATENATED,
                ) {
                    Ok(stream) => Box::new(liblzma::read::XzDecoder::new_stream(inner, stream)),
                    Err(reason) => {
                        self.fail(format, io::Error::other(reason));
                        return State::Ended;
                    }
                }
            }
            Format::Zstd => match zstd::stream::read::Decoder::new(inner) {
                Ok(d) => Box::new(d),
                Err(reason) => {
                    self.fail(format, reason);
                    return State::Ended;
                }
            },
        };
        State::Compressed(format, decoder)
    }

    fn fail(&self, format: Format, reason: io::Error) {
        self.failure.set(DecompressError {
            format,
            at: self.read,
            reason,
        });
    }

    /// Reads the first bytes of `inner` until they say what it is, and
    /// gives the state to read it in (the bytes read are read again).
    fn sniff(inner: Inner) -> io::Result<(Sniff, Inner)> {
        let mut head = Vec::with_capacity(MAGIC_LEN);
        let mut inner = inner;
        let mut byte = [0];
        let sniffed = loop {
            match sniff(&head) {
                Sniff::NeedMore => {}
                done => break done,
            }
            // One byte at a time: nothing past what decides is waited for
            // (input read as it arrives may have no more yet).
            match inner.read(&mut byte) {
                Ok(0) => break Sniff::Plain,
                Ok(_) => head.push(byte[0]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        };
        Ok((sniffed, Box::new(Cursor::new(head).chain(inner))))
    }
}

impl Read for Decompressing {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.reads_file && interrupt::received().is_some() {
            // As a file read at offsets: the scan stops at its next read.
            return Err(interrupt::stopped());
        }
        loop {
            match &mut self.state {
                State::Unsniffed(_) => {
                    let State::Unsniffed(inner) = std::mem::replace(&mut self.state, State::Ended)
                    else {
                        unreachable!()
                    };
                    // An error here is one of reading, before any format.
                    let (sniffed, inner) = Self::sniff(inner)?;
                    self.state = match sniffed {
                        Sniff::Compressed(format) => self.decoder(format, inner),
                        Sniff::Plain | Sniff::NeedMore => State::Plain(inner),
                    };
                }
                State::Plain(inner) => {
                    let n = inner.read(buf)?;
                    self.read += n as u64;
                    return Ok(n);
                }
                State::Compressed(format, decoder) => {
                    let format = *format;
                    match decoder.read(buf) {
                        Ok(n) => {
                            self.read += n as u64;
                            return Ok(n);
                        }
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                        Err(reason) => {
                            self.state = State::Ended;
                            self.fail(format, reason);
                            return Ok(0);
                        }
                    }
                }
                State::Ended => return Ok(0),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_format_is_told_by_its_first_bytes() {
        assert_eq!(sniff(b"\x1f\x8b\x08\0"), Sniff::Compressed(Format::Gzip));
        assert_eq!(sniff(b"BZh91AY&SY"), Sniff::Compressed(Format::Bzip2));
        assert_eq!(
            sniff(b"BZh9\x17\x72\x45\x38\x50\x90"),
            Sniff::Compressed(Format::Bzip2)
        );
        assert_eq!(sniff(b"\xfd7zXZ\0"), Sniff::Compressed(Format::Xz));
        assert_eq!(sniff(b"\x28\xb5\x2f\xfd"), Sniff::Compressed(Format::Zstd));
        assert_eq!(sniff(b"\x5a\x2a\x4d\x18"), Sniff::Compressed(Format::Zstd));
    }

    #[test]
    fn text_is_plain_from_its_first_byte() {
        assert_eq!(sniff(b"h"), Sniff::Plain);
        assert_eq!(sniff(b"BZh9 is a word"), Sniff::Plain);
        assert_eq!(sniff(b"\x1f\x8b\x09"), Sniff::Plain);
        assert_eq!(sniff(b""), Sniff::NeedMore);
        assert_eq!(sniff(b"BZh"), Sniff::NeedMore);
        assert_eq!(sniff(b"\xfd7z"), Sniff::NeedMore);
    }

    #[test]
    fn a_short_plain_input_is_read_as_it_is() {
        let mut out = Vec::new();
        Decompressing::sniffing(&b"BZ"[..])
            .read_to_end(&mut out)
            .unwrap();
        assert_eq!(out, b"BZ");
    }
}
