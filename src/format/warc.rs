//! The records of a WARC file (ISO 28500: WARC 1.0 and 1.1), read one at a
//! time from any [`Read`].
//!
//! A WARC file is records one after the other. Each is a version line
//! (`WARC/1.1`), header fields (`WARC-Type`, `WARC-Record-ID`,
//! `WARC-Target-URI`, `Content-Type`, `Content-Length`, …), an empty line,
//! a block of exactly `Content-Length` bytes, and two line ends. A web
//! crawl stores a `request` and a `response` record per page (the response
//! block is the HTTP response as it came), plus `metadata`, `warcinfo`,
//! `revisit` records; a WET file (Common Crawl's extracted text) holds a
//! `conversion` record per page whose block is the page's text.
//!
//! The reader (docs/rules.md §8):
//!
//! - streams: it holds one record's block at a time, at most the maximum
//!   record size ([`WarcReader::max_record_size`], 64 MiB by default); a
//!   larger block is read past without being kept and reported as
//!   [`WarcErrorKind::TooLarge`] with the record's index and offset, and
//!   the next record is read as usual. A header block is held up to
//!   1 MiB;
//! - reads gzip-compressed files (`.warc.gz`, `.wet.gz`), gzip member per
//!   record or one member for all, told by the first bytes; a record that
//!   starts a member also has the member's offset in the compressed file
//!   ([`WarcRecord::gzip_offset`]);
//! - recovers: bytes between records that are no record, a record whose
//!   `Content-Length` is wrong, a header without a valid `Content-Length`,
//!   a gzip member that does not decode are reported with the record's
//!   index and the byte position, and reading goes on at the next line that
//!   starts with `WARC/1.`. Every byte is looked at a bounded number of
//!   times, so hostile input costs time linear in its size.
//!
//! Offsets are into the WARC as written: the file itself, or for a
//! compressed file its decoded bytes (plus the member offsets above).

use std::fmt;
use std::io::{self, BufReader, Read};
use std::sync::Arc;

use crate::format::warc_gzip::{Broken, GZIP_MAGIC, Members};

/// The default of [`WarcReader::max_record_size`]: 64 MiB.
pub const DEFAULT_MAX_RECORD_SIZE: usize = 64 << 20;

/// The largest header block kept: 1 MiB.
const MAX_HEADER_SIZE: usize = 1 << 20;

/// What starts a record's version line.
const VERSION_PREFIX: &[u8] = b"WARC/1.";

/// The longest version line taken as one (`WARC/1.1` and its line end,
/// with room for white space).
const MAX_VERSION_LINE: usize = 16;

/// The read buffer's size.
const BUFFER_SIZE: usize = 64 << 10;

/// One record of a WARC file: its header fields and its block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WarcRecord {
    index: u64,
    offset: u64,
    gzip_offset: Option<u64>,
    compressed: bool,
    version: Arc<str>,
    headers: Vec<(Arc<str>, Arc<str>)>,
    block_offset: u64,
    block: Vec<u8>,
}

impl WarcRecord {
    /// A record made by the caller (a crawler's own record): its version
    /// (`WARC/1.1`), header fields and block; `index` is its place in the
    /// caller's input, and it is at offset 0.
    pub fn new(
        index: u64,
        version: &str,
        headers: Vec<(String, String)>,
        block: Vec<u8>,
    ) -> WarcRecord {
        WarcRecord {
            index,
            offset: 0,
            gzip_offset: None,
            compressed: false,
            version: version.into(),
            headers: headers
                .into_iter()
                .map(|(n, v)| (n.into(), v.into()))
                .collect(),
            block_offset: 0,
            block,
        }
    }

    /// The record's 0-based index in its input (records dropped for an
    /// error count too, so an index names the same record whatever was
    /// wrong before it).
    pub fn index(&self) -> u64 {
        self.index
    }

    /// The offset of the record's version line in the WARC (in the
    /// decoded bytes of a compressed file).
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// For a compressed file, the offset in the file as given of the gzip
    /// member the record starts (`None` when the record does not start a
    /// member, or the file is not compressed).
    pub fn gzip_offset(&self) -> Option<u64> {
        self.gzip_offset
    }

    /// Whether the record was read from a gzip-compressed file (its
    /// offsets are then into the decoded bytes).
    pub fn is_compressed(&self) -> bool {
        self.compressed
    }

    /// The version line: `WARC/1.0` or `WARC/1.1`.
    pub fn version(&self) -> &str {
        &self.version
    }

    /// The header fields, in order, as written (names keep their case;
    /// folded values are joined by a space).
    pub fn headers(&self) -> impl Iterator<Item = (&str, &str)> {
        self.headers.iter().map(|(n, v)| (&**n, &**v))
    }

    /// The value of the first header field named `name` (any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| &**v)
    }

    /// `WARC-Type`: `response`, `resource`, `conversion`, `request`, …
    pub fn record_type(&self) -> Option<&str> {
        self.header("WARC-Type")
    }

    /// `WARC-Record-ID` without its angle brackets
    /// (`urn:uuid:…`).
    pub fn record_id(&self) -> Option<&str> {
        self.header("WARC-Record-ID")
            .map(|id| id.trim().trim_start_matches('<').trim_end_matches('>'))
    }

    /// `WARC-Target-URI`, without the angle brackets WARC 1.0's grammar
    /// wrote around it (and some writers still do).
    pub fn target_uri(&self) -> Option<&str> {
        self.header("WARC-Target-URI")
            .map(|uri| uri.trim().trim_start_matches('<').trim_end_matches('>'))
    }

    /// The block's `Content-Type`.
    pub fn content_type(&self) -> Option<&str> {
        self.header("Content-Type")
    }

    /// The offset of the block's first byte in the WARC (decoded bytes of
    /// a compressed file).
    pub fn block_offset(&self) -> u64 {
        self.block_offset
    }

    /// The block: `Content-Length` bytes.
    pub fn block(&self) -> &[u8] {
        &self.block
    }
}

/// A problem in a WARC file, with where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WarcError {
    record: u64,
    position: u64,
    gzip_offset: Option<u64>,
    kind: WarcErrorKind,
}

/// What went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum WarcErrorKind {
    /// Bytes between records that are no record (skipped up to the next
    /// `WARC/1.` line).
    Garbage {
        /// How many bytes were skipped.
        length: u64,
    },
    /// A header block that is not one: no valid `Content-Length`, or
    /// larger than 1 MiB. The record is skipped.
    BadHeader(String),
    /// The block is larger than the limit; it was read past, not kept.
    TooLarge {
        /// The limit, in bytes.
        limit: usize,
    },
    /// The record does not end where its `Content-Length` says (no empty
    /// lines, then the next record, after it); its block is cut at the
    /// next record found in it, and reading goes on there.
    WrongLength,
    /// The input ended inside the record.
    Truncated,
    /// A gzip member does not decode (truncated, damaged), or bytes
    /// between members are no member (the decoder's message); the record
    /// it cut is dropped.
    Gzip(String),
    /// The record's payload could not be read: an HTTP message that does
    /// not parse, a content encoding that does not decode.
    Payload(String),
    /// Reading the input failed (the I/O error's message); nothing after
    /// this position was read.
    Read(String),
}

impl WarcError {
    pub(crate) fn new(record: u64, position: u64, kind: WarcErrorKind) -> WarcError {
        WarcError {
            record,
            position,
            gzip_offset: None,
            kind,
        }
    }

    /// The 0-based index of the record the problem is in (for bytes
    /// between records, of the record after them).
    pub fn record(&self) -> u64 {
        self.record
    }

    /// The byte offset in the WARC (decoded bytes of a compressed file)
    /// where the problem is.
    pub fn position(&self) -> u64 {
        self.position
    }

    /// For a compressed file, the offset in the file as given of the gzip
    /// member the problem is in.
    pub fn gzip_offset(&self) -> Option<u64> {
        self.gzip_offset
    }

    /// What went wrong.
    pub fn kind(&self) -> &WarcErrorKind {
        &self.kind
    }
}

impl fmt::Display for WarcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "record {} at byte {}", self.record, self.position)?;
        if let Some(at) = self.gzip_offset {
            write!(f, " (gzip member at byte {at})")?;
        }
        match &self.kind {
            WarcErrorKind::Garbage { length } => {
                write!(f, ": {length} bytes that are no WARC record, skipped")
            }
            WarcErrorKind::BadHeader(why) => write!(f, ": bad header: {why}, record skipped"),
            WarcErrorKind::TooLarge { limit } => {
                write!(f, ": block larger than {limit} bytes, skipped")
            }
            WarcErrorKind::WrongLength => {
                f.write_str(": the record does not end where its Content-Length says")
            }
            WarcErrorKind::Truncated => f.write_str(": the input ends inside the record"),
            WarcErrorKind::Gzip(e) => write!(f, ": gzip: {e}, record dropped"),
            WarcErrorKind::Payload(e) => write!(f, ": payload: {e}"),
            WarcErrorKind::Read(e) => write!(f, ": read error: {e}"),
        }
    }
}

impl std::error::Error for WarcError {}

/// The input: not yet looked at, plain, or gzip-compressed.
enum Input<R> {
    Unknown(Option<BufReader<R>>),
    Plain(BufReader<R>),
    Gzip(Box<Members<BufReader<R>>>),
}

/// What a fill of the buffer gave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Filled {
    /// More bytes.
    More,
    /// The end of the input.
    End,
    /// A broken gzip member: the bytes before are good, the next read goes
    /// on after it ([`WarcReader::broken`] says where).
    Broken,
}

/// Reads the records of a WARC file from any [`Read`], one at a time.
///
/// ```
/// use iriscan::WarcReader;
/// let warc = b"WARC/1.1\r\n\
///     WARC-Type: resource\r\n\
///     WARC-Record-ID: <urn:uuid:1>\r\n\
///     WARC-Target-URI: https://example.org/a.txt\r\n\
///     Content-Type: text/plain\r\n\
///     Content-Length: 5\r\n\r\n\
///     hello\r\n\r\n";
/// let records: Vec<_> = WarcReader::new(&warc[..]).map(Result::unwrap).collect();
/// assert_eq!(records.len(), 1);
/// assert_eq!(records[0].record_id(), Some("urn:uuid:1"));
/// assert_eq!(records[0].target_uri(), Some("https://example.org/a.txt"));
/// assert_eq!(records[0].block(), b"hello");
/// ```
pub struct WarcReader<R> {
    input: Input<R>,
    buf: Vec<u8>,
    start: usize,
    end: usize,
    /// The offset in the WARC of `buf[start]`.
    pos: u64,
    at_end: bool,
    /// The next record's index.
    index: u64,
    max: usize,
    /// Items found ahead of the one returned (an error before its record).
    queued: std::collections::VecDeque<Result<WarcRecord, WarcError>>,
    /// A problem was just reported: the bytes up to the next record are
    /// not reported again as garbage.
    quiet: bool,
    /// A gzip member broke: reported before anything after it is read.
    broken: Option<Broken>,
    /// A read error met while looking ahead, returned by the next fill.
    failed: Option<io::Error>,
    done: bool,
}

impl<R: Read> WarcReader<R> {
    /// A reader of `input` (plain or gzip-compressed), with the default
    /// maximum record size.
    pub fn new(input: R) -> WarcReader<R> {
        WarcReader {
            input: Input::Unknown(Some(BufReader::with_capacity(BUFFER_SIZE, input))),
            buf: vec![0; BUFFER_SIZE],
            start: 0,
            end: 0,
            pos: 0,
            at_end: false,
            index: 0,
            max: DEFAULT_MAX_RECORD_SIZE,
            queued: std::collections::VecDeque::new(),
            quiet: false,
            broken: None,
            failed: None,
            done: false,
        }
    }

    /// The largest block kept, in bytes; a larger one is reported as
    /// [`WarcErrorKind::TooLarge`].
    pub fn max_record_size(mut self, bytes: usize) -> WarcReader<R> {
        self.max = bytes;
        self
    }

    /// Whether the input is gzip-compressed (known after the first read).
    pub fn is_compressed(&self) -> bool {
        matches!(self.input, Input::Gzip(_))
    }

    /// Reads more bytes into the buffer (after the ones there). A pending
    /// gzip break stops every fill until it is taken.
    fn fill(&mut self) -> io::Result<Filled> {
        if let Some(e) = self.failed.take() {
            return Err(e);
        }
        if self.broken.is_some() {
            return Ok(Filled::Broken);
        }
        if self.at_end {
            return Ok(Filled::End);
        }
        if let Input::Unknown(slot) = &mut self.input {
            let mut reader = slot.take().expect("input");
            let head = loop {
                match std::io::BufRead::fill_buf(&mut reader) {
                    Ok(head) => break head,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => {
                        *slot = Some(reader);
                        return Err(e);
                    }
                }
            };
            let gzip = head.len() >= 2 && head[..2] == GZIP_MAGIC[..2];
            self.input = if gzip {
                Input::Gzip(Box::new(Members::new(reader)))
            } else {
                Input::Plain(reader)
            };
        }
        if self.start > 0 {
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
        }
        if self.end == self.buf.len() {
            // Callers consume as they go; only a push-back fills it.
            self.buf.resize(self.buf.len() * 2, 0);
        }
        loop {
            let read = match &mut self.input {
                Input::Plain(r) => r.read(&mut self.buf[self.end..]),
                Input::Gzip(m) => m.read(&mut self.buf[self.end..]),
                Input::Unknown(_) => unreachable!("decided above"),
            };
            match read {
                Ok(0) => {
                    self.at_end = true;
                    return Ok(Filled::End);
                }
                Ok(n) => {
                    self.end += n;
                    return Ok(Filled::More);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    if let Input::Gzip(m) = &mut self.input
                        && let Some(broken) = m.take_broken()
                    {
                        self.broken = Some(broken);
                        return Ok(Filled::Broken);
                    }
                    return Err(e);
                }
            }
        }
    }

    fn available(&self) -> &[u8] {
        &self.buf[self.start..self.end]
    }

    fn consume(&mut self, n: usize) {
        self.start += n;
        self.pos += n as u64;
    }

    /// Puts `bytes` back before the unread ones: they are read again.
    fn unread(&mut self, bytes: &[u8]) {
        if self.start >= bytes.len() {
            self.start -= bytes.len();
            self.buf[self.start..self.start + bytes.len()].copy_from_slice(bytes);
        } else {
            let mut buf =
                Vec::with_capacity((bytes.len() + self.end - self.start).max(BUFFER_SIZE));
            buf.extend_from_slice(bytes);
            buf.extend_from_slice(self.available());
            self.end = buf.len();
            buf.resize(buf.len().max(BUFFER_SIZE), 0);
            self.buf = buf;
            self.start = 0;
        }
        self.pos -= bytes.len() as u64;
    }

    /// At least `n` bytes in the buffer, unless the input ends or breaks
    /// first (a read error is kept for the next fill, so that what was
    /// read before it is handed over first).
    fn peek(&mut self, n: usize) -> &[u8] {
        while self.end - self.start < n {
            match self.fill() {
                Ok(Filled::More) => {}
                Ok(_) => break,
                Err(e) => {
                    self.failed = Some(e);
                    break;
                }
            }
        }
        self.available()
    }

    /// Reads one line (to its `\n` or the end of the input), keeping at
    /// most `keep` of its bytes in `out`: its offset and length, or why
    /// there is none (a broken gzip member drops the part read).
    fn read_line(
        &mut self,
        keep: usize,
        out: &mut Vec<u8>,
    ) -> io::Result<Result<(u64, u64), Filled>> {
        let start = self.pos;
        let mut len = 0u64;
        loop {
            if self.start == self.end {
                match self.fill()? {
                    Filled::More => {}
                    Filled::End if len > 0 => return Ok(Ok((start, len))),
                    other => return Ok(Err(other)),
                }
            }
            let chunk = self.available();
            let (take, ended) = match memchr::memchr(b'\n', chunk) {
                Some(n) => (n + 1, true),
                None => (chunk.len(), false),
            };
            let room = keep.saturating_sub(out.len()).min(take);
            out.extend_from_slice(&chunk[..room]);
            self.consume(take);
            len += take as u64;
            if ended {
                return Ok(Ok((start, len)));
            }
        }
    }

    /// Reads `len` bytes, kept in `out` when it is `Some`; why it stopped
    /// short if it did.
    fn read_block(
        &mut self,
        len: u64,
        mut out: Option<&mut Vec<u8>>,
    ) -> io::Result<Result<(), Filled>> {
        let mut left = len;
        while left > 0 {
            if self.start == self.end {
                match self.fill()? {
                    Filled::More => {}
                    other => return Ok(Err(other)),
                }
            }
            let chunk = self.available();
            let take = chunk.len().min(usize::try_from(left).unwrap_or(usize::MAX));
            if let Some(out) = out.as_deref_mut() {
                out.extend_from_slice(&chunk[..take]);
            }
            self.consume(take);
            left -= take as u64;
        }
        Ok(Ok(()))
    }

    /// The error of the pending gzip break, in record `record`.
    fn take_broken(&mut self, record: u64) -> WarcError {
        let broken = self.broken.take().expect("a break");
        WarcError {
            record,
            position: self.pos,
            gzip_offset: Some(broken.gzip_offset),
            kind: WarcErrorKind::Gzip(broken.message),
        }
    }

    /// Ends a record whose stream stopped short (`why`): the error, and
    /// the bytes up to the next record are not reported again.
    fn cut(&mut self, record: u64, at: u64, why: Filled) {
        let error = match why {
            Filled::Broken => self.take_broken(record),
            _ => WarcError::new(record, at, WarcErrorKind::Truncated),
        };
        self.queued.push_back(Err(error));
        self.quiet = true;
    }

    fn garbage(&mut self, garbage: &mut Option<(u64, u64)>) {
        if let Some((start, length)) = garbage.take()
            && !self.quiet
        {
            self.queued.push_back(Err(WarcError::new(
                self.index,
                start,
                WarcErrorKind::Garbage { length },
            )));
        }
    }

    /// Reads on to the next record (or the end), queueing it and the
    /// problems met before it.
    fn step(&mut self) -> io::Result<()> {
        // The version line, skipping what is not one.
        let mut garbage: Option<(u64, u64)> = None;
        let mut line = Vec::new();
        let (record_start, version) = loop {
            line.clear();
            match self.read_line(MAX_VERSION_LINE + 1, &mut line)? {
                Err(Filled::Broken) => {
                    self.garbage(&mut garbage);
                    let error = self.take_broken(self.index);
                    self.queued.push_back(Err(error));
                    self.quiet = true;
                }
                Err(_) => {
                    self.garbage(&mut garbage);
                    self.done = true;
                    return Ok(());
                }
                Ok((start, len)) => {
                    if len <= MAX_VERSION_LINE as u64 && line.starts_with(VERSION_PREFIX) {
                        self.garbage(&mut garbage);
                        let version = String::from_utf8_lossy(&line).trim().to_string();
                        break (start, version);
                    }
                    if len > line.len() as u64 || !line.iter().all(u8::is_ascii_whitespace) {
                        let g = garbage.get_or_insert((start, 0));
                        g.1 = start + len - g.0;
                    }
                }
            }
        };
        self.quiet = false;
        let index = self.index;
        self.index += 1;
        let gzip_offset = match &mut self.input {
            Input::Gzip(m) => m.member_at(record_start),
            _ => None,
        };
        // The header fields, up to the empty line.
        let mut headers: Vec<(String, String)> = Vec::new();
        let mut size = 0u64;
        loop {
            line.clear();
            let (_, len) = match self.read_line(MAX_HEADER_SIZE + 1, &mut line)? {
                Ok(l) => l,
                Err(why) => {
                    self.cut(index, record_start, why);
                    return Ok(());
                }
            };
            size += len;
            if size > MAX_HEADER_SIZE as u64 {
                self.queued.push_back(Err(WarcError::new(
                    index,
                    record_start,
                    WarcErrorKind::BadHeader("header block larger than 1 MiB".into()),
                )));
                self.quiet = true;
                return Ok(());
            }
            let text = String::from_utf8_lossy(&line);
            let text = text.trim_end_matches(['\r', '\n']);
            if text.is_empty() {
                break;
            }
            if text.starts_with([' ', '\t']) {
                if let Some((_, value)) = headers.last_mut() {
                    value.push(' ');
                    value.push_str(text.trim());
                }
            } else if let Some((name, value)) = text.split_once(':') {
                headers.push((name.trim().to_string(), value.trim().to_string()));
            }
        }
        let length = headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("Content-Length"))
            .and_then(|(_, v)| v.parse::<u64>().ok());
        let Some(length) = length else {
            self.queued.push_back(Err(WarcError::new(
                index,
                record_start,
                WarcErrorKind::BadHeader("no valid Content-Length".into()),
            )));
            self.quiet = true;
            return Ok(());
        };
        // The block.
        let block_offset = self.pos;
        let keep = length <= self.max as u64;
        let mut block = Vec::new();
        if keep {
            block.reserve(usize::try_from(length).unwrap_or(0).min(16 * BUFFER_SIZE));
        }
        if let Err(why) = self.read_block(length, keep.then_some(&mut block))? {
            self.cut(index, record_start, why);
            return Ok(());
        }
        let ends_right = self.record_end();
        if !keep {
            self.queued.push_back(Err(WarcError {
                record: index,
                position: record_start,
                gzip_offset,
                kind: WarcErrorKind::TooLarge { limit: self.max },
            }));
            self.quiet = !ends_right;
            return Ok(());
        }
        if !ends_right {
            self.queued.push_back(Err(WarcError {
                record: index,
                position: self.pos,
                gzip_offset,
                kind: WarcErrorKind::WrongLength,
            }));
            self.quiet = true;
            // The next record is looked for from the block's start on (a
            // block too long holds it; each byte is read twice at most),
            // and the block is cut where it starts.
            self.unread(&block);
            if let Some(n) = memchr::memmem::find(&block, b"\nWARC/1.") {
                block.truncate(n + 1);
                while block.last().is_some_and(|&b| b == b'\n' || b == b'\r') {
                    block.pop();
                }
            }
        }
        self.queued.push_back(Ok(WarcRecord {
            index,
            offset: record_start,
            gzip_offset,
            compressed: self.is_compressed(),
            version: version.into(),
            headers: headers
                .into_iter()
                .map(|(n, v)| (n.into(), v.into()))
                .collect(),
            block_offset,
            block,
        }));
        Ok(())
    }

    /// Reads the line ends after a block; whether the block ends where it
    /// should: the two line ends that close a record follow it, or the
    /// next record (or the end of the input) does. Bytes after the line
    /// ends that are no record are garbage, reported by the next seek.
    fn record_end(&mut self) -> bool {
        let mut line_ends = 0;
        loop {
            match self.peek(1).first() {
                Some(b'\n') => line_ends += 1,
                Some(b'\r') => {}
                Some(_) => break,
                None => return true,
            }
            self.consume(1);
        }
        let rest = self.peek(VERSION_PREFIX.len());
        line_ends >= 2 || VERSION_PREFIX.starts_with(rest) || rest.starts_with(VERSION_PREFIX)
    }
}

impl<R: Read> Iterator for WarcReader<R> {
    type Item = Result<WarcRecord, WarcError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(item) = self.queued.pop_front() {
                return Some(item);
            }
            if self.done {
                return None;
            }
            if let Err(e) = self.step() {
                self.done = true;
                return Some(Err(WarcError::new(
                    self.index,
                    self.pos,
                    WarcErrorKind::Read(e.to_string()),
                )));
            }
        }
    }
}

impl<R> fmt::Debug for WarcReader<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WarcReader")
            .field("pos", &self.pos)
            .field("index", &self.index)
            .finish()
    }
}
