//! The bytes of a gzip-compressed WARC file, member by member.
//!
//! A `.warc.gz` file is gzip members one after the other: usually one per
//! record (so a reader can seek to a record), sometimes one for the whole
//! file. Decoded one after the other, the members give the WARC file as it
//! was written. This reader decodes them one at a time with `flate2` and
//! remembers where each member starts, in the compressed file and in the
//! decoded bytes, so a record that starts a member can be named by its
//! offset in the file as given (what CDX indexes store).
//!
//! A member that does not decode (a truncated file, a damaged block) or
//! bytes between members that are no gzip member end the member: the read
//! that meets them fails with a [`Broken`] error, and the next read goes on
//! with the next gzip header found after them. The WARC reader above drops
//! the record that was cut and finds the next one.

use std::collections::VecDeque;
use std::io::{self, BufRead, Read};

use flate2::bufread::GzDecoder;

/// The first bytes of a gzip member: the magic number and the deflate
/// method (RFC 1952 §2.3.1).
pub(crate) const GZIP_MAGIC: [u8; 3] = [0x1f, 0x8b, 0x08];

/// The most compressed bytes of one member kept to look in again when
/// the member breaks: 1 MiB (a member per record is smaller than that
/// almost always; a member for the whole file is not kept).
const TEE_LIMIT: usize = 1 << 20;

/// A buffered reader that counts the bytes consumed, keeps a copy of the
/// current member's bytes while they are few, and can be made to read
/// some of them again.
pub(crate) struct Counting<R> {
    inner: R,
    consumed: u64,
    /// The bytes consumed since the member started, while few enough.
    tee: Option<Vec<u8>>,
    /// Bytes to read again before the inner reader's.
    replay: Vec<u8>,
    replay_at: usize,
}

impl<R: BufRead> Counting<R> {
    fn keep(tee: &mut Option<Vec<u8>>, bytes: &[u8]) {
        if let Some(kept) = tee {
            if kept.len() + bytes.len() > TEE_LIMIT {
                *tee = None;
            } else {
                kept.extend_from_slice(bytes);
            }
        }
    }
}

impl<R: BufRead> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let chunk = self.fill_buf()?;
        let n = chunk.len().min(buf.len());
        buf[..n].copy_from_slice(&chunk[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Counting<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.replay_at < self.replay.len() {
            return Ok(&self.replay[self.replay_at..]);
        }
        self.inner.fill_buf()
    }

    fn consume(&mut self, amt: usize) {
        self.consumed += amt as u64;
        if self.replay_at < self.replay.len() {
            let end = self.replay_at + amt;
            Self::keep(&mut self.tee, &self.replay[self.replay_at..end]);
            self.replay_at = end;
            if self.replay_at == self.replay.len() {
                self.replay.clear();
                self.replay_at = 0;
            }
            return;
        }
        if self.tee.is_some()
            && let Ok(chunk) = self.inner.fill_buf()
        {
            let chunk = &chunk[..amt.min(chunk.len())];
            Self::keep(&mut self.tee, chunk);
        }
        self.inner.consume(amt);
    }
}

/// Why a read of the decoded bytes stopped short: a member that does not
/// decode, or bytes that are no member.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Broken {
    /// The offset in the compressed file of the member (or of the bytes)
    /// that broke.
    pub(crate) gzip_offset: u64,
    /// What the decoder said.
    pub(crate) message: String,
}

/// The decoded bytes of a multi-member gzip file.
pub(crate) struct Members<R> {
    /// The compressed input, between members.
    input: Option<Counting<R>>,
    /// The member being decoded.
    decoder: Option<GzDecoder<Counting<R>>>,
    /// Decoded bytes handed out so far.
    out: u64,
    /// `(decoded offset, compressed offset)` of the members started and
    /// not yet forgotten.
    starts: VecDeque<(u64, u64)>,
    /// The last break, until the caller takes it.
    broken: Option<Broken>,
}

impl<R: BufRead> Members<R> {
    pub(crate) fn new(input: R) -> Members<R> {
        Members {
            input: Some(Counting {
                inner: input,
                consumed: 0,
                tee: None,
                replay: Vec::new(),
                replay_at: 0,
            }),
            decoder: None,
            out: 0,
            starts: VecDeque::new(),
            broken: None,
        }
    }

    /// The offset in the compressed file of the member that starts exactly
    /// at decoded offset `at`, if one does; members that start before `at`
    /// are forgotten (the caller asks in increasing order).
    pub(crate) fn member_at(&mut self, at: u64) -> Option<u64> {
        while self.starts.front().is_some_and(|&(out, _)| out < at) {
            self.starts.pop_front();
        }
        match self.starts.front() {
            Some(&(out, compressed)) if out == at => Some(compressed),
            _ => None,
        }
    }

    /// The break that made the last read fail, taken.
    pub(crate) fn take_broken(&mut self) -> Option<Broken> {
        self.broken.take()
    }

    fn fail(&mut self, gzip_offset: u64, message: String) -> io::Error {
        self.broken = Some(Broken {
            gzip_offset,
            message,
        });
        io::Error::other("broken gzip member")
    }
}

impl<R: BufRead> Read for Members<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            if let Some(decoder) = &mut self.decoder {
                match decoder.read(buf) {
                    Ok(0) if !buf.is_empty() => {
                        // The member ended; the next one starts here.
                        let decoder = self.decoder.take().expect("decoding");
                        let mut input = decoder.into_inner();
                        input.tee = None;
                        self.input = Some(input);
                        continue;
                    }
                    Ok(n) => {
                        self.out += n as u64;
                        return Ok(n);
                    }
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => {
                        let decoder = self.decoder.take().expect("decoding");
                        let start = self.starts.back().map_or(0, |&(_, c)| c);
                        let mut input = decoder.into_inner();
                        let skipped = restart_after(&mut input, start);
                        self.input = Some(input);
                        skipped?;
                        return Err(self.fail(start, e.to_string()));
                    }
                }
            }
            let mut input = self.input.take().expect("between members");
            let at = input.consumed;
            let chunk = match input.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) => {
                    self.input = Some(input);
                    return Err(e);
                }
            };
            if chunk.is_empty() {
                self.input = Some(input);
                return Ok(0);
            }
            if chunk.len() >= GZIP_MAGIC.len() && chunk.starts_with(&GZIP_MAGIC)
                || chunk.len() < GZIP_MAGIC.len() && GZIP_MAGIC.starts_with(chunk)
            {
                self.starts.push_back((self.out, at));
                input.tee = Some(Vec::new());
                self.decoder = Some(GzDecoder::new(input));
                continue;
            }
            // Bytes that are no gzip member: skipped up to the next
            // header (linear: each byte is looked at once).
            input.consume(1);
            let skipped = skip_to_magic(&mut input);
            self.input = Some(input);
            skipped?;
            return Err(self.fail(at, "bytes that are no gzip member".into()));
        }
    }
}

/// Goes back to just after the start of the member that broke at
/// `start`, when its bytes were kept, and on to the next gzip header: a
/// member cut short is followed by the next member, which the decoder
/// took for more of the broken one.
fn restart_after<R: BufRead>(input: &mut Counting<R>, start: u64) -> io::Result<()> {
    match input.tee.take() {
        Some(kept) if !kept.is_empty() => {
            let from = memchr::memmem::find(&kept[1..], &GZIP_MAGIC).map_or(kept.len(), |n| n + 1);
            let mut replay = kept[from..].to_vec();
            replay.extend_from_slice(&input.replay[input.replay_at..]);
            input.replay = replay;
            input.replay_at = 0;
            input.consumed = start + from as u64;
            skip_to_magic(input)
        }
        _ => {
            // Never restart at the broken member's own header.
            if input.consumed == start {
                input.consume(1);
            }
            skip_to_magic(input)
        }
    }
}

/// Consumes bytes up to the next gzip header (or the end).
fn skip_to_magic<R: BufRead>(input: &mut Counting<R>) -> io::Result<()> {
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            return Ok(());
        }
        match memchr::memchr(GZIP_MAGIC[0], chunk) {
            Some(n) => {
                let rest = &chunk[n..];
                let whole = rest.len() >= GZIP_MAGIC.len();
                if !whole || rest.starts_with(&GZIP_MAGIC) {
                    // A header, or a possible one cut by the buffer's end
                    // (the decoder then tells).
                    input.consume(n);
                    return Ok(());
                }
                input.consume(n + 1);
            }
            None => {
                let n = chunk.len();
                input.consume(n);
            }
        }
    }
}
