//! The messages of an mbox file, split as it streams.
//!
//! An mbox is messages one after the other, each after a *From_ line*
//! (`From sender date`). The rules here (docs/rules.md §5.2):
//!
//! - a message starts after a line that begins with `From ` and is the
//!   first line of the input or follows an empty line (writers put one
//!   between messages); a `From ` line elsewhere is text;
//! - the empty line before a From_ line is the separator, not the
//!   message's;
//! - lines that begin with `>From `, `>>From `, … are unquoted by one `>`
//!   (mboxrd: the writer quoted every such line by one more `>`);
//! - text before the first From_ line, if any is not white space, is a
//!   message too (a lone message saved without a From_ line).
//!
//! The reader holds one message at a time and never more than the
//! maximum message size (plus one read buffer): a larger message is
//! dropped as it streams, reported as [`MailErrorKind::TooLarge`] with its
//! index and byte offset, and the next message is read as usual. A 5 GB
//! mbox is read in the memory of its largest message.
//!
//! Each message knows where its bytes are in the mbox: [`MboxMessage::
//! input_offset`] maps an offset in the message (after unquoting) to the
//! offset in the mbox as given, so hits and errors name positions a user
//! can find in the file.

use std::io::{self, BufRead, BufReader, Read};

use crate::format::mail::{DEFAULT_MAX_MESSAGE_SIZE, MailError, MailErrorKind};

/// One message of an mbox: its bytes (unquoted, without the From_ line),
/// its index and where it is in the mbox.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MboxMessage {
    index: u64,
    offset: u64,
    bytes: Vec<u8>,
    /// Offsets in `bytes` before which a `>` of the input was removed.
    unquoted: Vec<usize>,
}

impl MboxMessage {
    /// The message's 0-based index in the mbox.
    pub fn index(&self) -> u64 {
        self.index
    }

    /// The offset in the mbox of the message's first byte (after its From_
    /// line).
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The message's bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The offset in the mbox of the byte at `offset` in
    /// [`bytes`](MboxMessage::bytes) (every `>` removed before it counted
    /// back in).
    pub fn input_offset(&self, offset: usize) -> u64 {
        let removed = self.unquoted.partition_point(|&at| at <= offset);
        self.offset + (offset + removed) as u64
    }
}

/// Reads the messages of an mbox from any [`Read`], one at a time.
///
/// ```
/// use iriscan::MboxReader;
/// let mbox = b"From a@example.org Mon Jan  1 00:00:00 2024\n\
///     Subject: one\n\nbody\n>From here on\n\n\
///     From b@example.org Mon Jan  1 00:00:01 2024\n\
///     Subject: two\n\nbody\n";
/// let messages: Vec<_> = MboxReader::new(&mbox[..]).map(Result::unwrap).collect();
/// assert_eq!(messages.len(), 2);
/// assert_eq!(messages[0].bytes(), b"Subject: one\n\nbody\nFrom here on\n");
/// assert_eq!(messages[1].index(), 1);
/// assert_eq!(&mbox[messages[1].offset() as usize..][..12], b"Subject: two");
/// ```
pub struct MboxReader<R> {
    input: BufReader<R>,
    split: Splitter,
}

/// The state of the split between two reads.
struct Splitter {
    max: usize,
    /// The offset in the input of the next byte to read.
    pos: u64,
    /// The next message's index.
    index: u64,
    /// The message being read, if one has started.
    current: Option<Partial>,
    /// At the start of a line, and whether the line before was empty (or
    /// there was none).
    at_line_start: bool,
    after_blank: bool,
    /// The current line has had no byte but `\r` so far.
    line_empty: bool,
    /// Inside a From_ line, skipped to its end.
    in_from_line: bool,
    /// The start of the current line held back until it is known whether
    /// it is a From_ line: how many `>` and how much of `From `.
    quotes: usize,
    from_matched: usize,
    done: bool,
}

/// The message being read.
struct Partial {
    offset: u64,
    bytes: Vec<u8>,
    unquoted: Vec<usize>,
    /// Larger than the maximum: bytes dropped, an error when it ends.
    too_large: bool,
}

impl Partial {
    fn new(offset: u64) -> Partial {
        Partial {
            offset,
            bytes: Vec::new(),
            unquoted: Vec::new(),
            too_large: false,
        }
    }

    fn push(&mut self, bytes: &[u8], max: usize) {
        if self.too_large {
            return;
        }
        if self.bytes.len() + bytes.len() > max {
            self.too_large = true;
            self.bytes = Vec::new();
            self.unquoted = Vec::new();
        } else {
            self.bytes.extend_from_slice(bytes);
        }
    }
}

const FROM: &[u8] = b"From ";

impl<R: Read> MboxReader<R> {
    /// A reader of `input`, with the default maximum message size
    /// ([`DEFAULT_MAX_MESSAGE_SIZE`](crate::DEFAULT_MAX_MESSAGE_SIZE)).
    pub fn new(input: R) -> MboxReader<R> {
        MboxReader {
            input: BufReader::with_capacity(64 << 10, input),
            split: Splitter {
                max: DEFAULT_MAX_MESSAGE_SIZE,
                pos: 0,
                index: 0,
                current: Some(Partial::new(0)),
                at_line_start: true,
                after_blank: true,
                line_empty: true,
                in_from_line: false,
                quotes: 0,
                from_matched: 0,
                done: false,
            },
        }
    }

    /// The largest message kept, in bytes; a larger one is reported as
    /// [`MailErrorKind::TooLarge`].
    pub fn max_message_size(mut self, bytes: usize) -> MboxReader<R> {
        self.split.max = bytes;
        self
    }

    /// Reads on until a message ends.
    fn read_message(&mut self) -> Option<Result<MboxMessage, MailError>> {
        let split = &mut self.split;
        loop {
            let chunk = match self.input.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    split.done = true;
                    return Some(Err(MailError::new(
                        split.index,
                        split.pos,
                        MailErrorKind::Read(e.to_string()),
                    )));
                }
            };
            if chunk.is_empty() {
                split.done = true;
                let mut part = split.current.take()?;
                // A line start held back at the end of the input is text.
                flush_held(&mut part, split.quotes, split.from_matched, split.max);
                return split.finish(part, false);
            }
            let (used, ended) = split.step(chunk);
            self.input.consume(used);
            split.pos += used as u64;
            if let Some(part) = ended
                && let Some(item) = split.finish(part, true)
            {
                return Some(item);
            }
        }
    }
}

impl Splitter {
    /// Ends the current message (the From_ line that starts the next was
    /// just seen, or the input ended): the message, an error, or nothing
    /// for white space before the first From_ line.
    fn finish(
        &mut self,
        part: Partial,
        at_separator: bool,
    ) -> Option<Result<MboxMessage, MailError>> {
        let index = self.index;
        if part.too_large {
            self.index += 1;
            return Some(Err(MailError::new(
                index,
                part.offset,
                MailErrorKind::TooLarge { limit: self.max },
            )));
        }
        let mut bytes = part.bytes;
        if at_separator {
            // The empty line before the From_ line is the separator.
            if bytes.ends_with(b"\r\n") {
                bytes.truncate(bytes.len() - 2);
            } else if bytes.ends_with(b"\n") {
                bytes.truncate(bytes.len() - 1);
            }
        }
        if index == 0 && part.offset == 0 && bytes.iter().all(u8::is_ascii_whitespace) {
            // Nothing before the first From_ line.
            return None;
        }
        self.index += 1;
        Some(Ok(MboxMessage {
            index,
            offset: part.offset,
            bytes,
            unquoted: part.unquoted,
        }))
    }

    /// Takes bytes of `chunk` until it ends or a From_ line starts a new
    /// message; returns how many were used and the message that ended.
    fn step(&mut self, chunk: &[u8]) -> (usize, Option<Partial>) {
        let mut i = 0;
        while i < chunk.len() {
            if self.in_from_line {
                match memchr::memchr(b'\n', &chunk[i..]) {
                    Some(n) => {
                        i += n + 1;
                        self.in_from_line = false;
                        self.line_ended(false);
                        self.current = Some(Partial::new(self.pos + i as u64));
                    }
                    None => i = chunk.len(),
                }
                continue;
            }
            if self.at_line_start {
                let b = chunk[i];
                if self.from_matched == 0 && b == b'>' {
                    self.quotes += 1;
                    i += 1;
                    continue;
                }
                if b == FROM[self.from_matched] {
                    self.from_matched += 1;
                    i += 1;
                    if self.from_matched < FROM.len() {
                        continue;
                    }
                    let (quotes, after_blank) = (self.quotes, self.after_blank);
                    self.quotes = 0;
                    self.from_matched = 0;
                    self.at_line_start = false;
                    self.line_empty = false;
                    if quotes == 0 && after_blank {
                        // A From_ line: the message before it ends.
                        self.in_from_line = true;
                        let ended = self.current.take();
                        if ended.is_some() {
                            return (i, ended);
                        }
                        continue;
                    }
                    if let Some(part) = &mut self.current {
                        if quotes > 0 && !part.too_large {
                            // mboxrd: one `>` less.
                            let at = part.bytes.len();
                            part.unquoted.push(at);
                        }
                        flush_held(part, quotes.saturating_sub(1), FROM.len(), self.max);
                    }
                    continue;
                }
                // Not a From_ line: what was held back is text.
                if let Some(part) = &mut self.current {
                    flush_held(part, self.quotes, self.from_matched, self.max);
                }
                let held = self.quotes + self.from_matched;
                self.quotes = 0;
                self.from_matched = 0;
                self.at_line_start = false;
                if held > 0 {
                    self.line_empty = false;
                }
            }
            // Inside a line: up to its end.
            let rest = &chunk[i..];
            let (take, line_end) = match memchr::memchr(b'\n', rest) {
                Some(n) => (n + 1, true),
                None => (rest.len(), false),
            };
            let piece = &rest[..take];
            let content = &piece[..take - usize::from(line_end)];
            if content.iter().any(|&b| b != b'\r') {
                self.line_empty = false;
            }
            if let Some(part) = &mut self.current {
                part.push(piece, self.max);
            }
            i += take;
            if line_end {
                let blank = self.line_empty;
                self.line_ended(blank);
            }
        }
        (i, None)
    }

    fn line_ended(&mut self, blank: bool) {
        self.at_line_start = true;
        self.after_blank = blank;
        self.line_empty = true;
    }
}

/// Appends the held-back start of a line: `quotes` times `>`, then the
/// first `matched` bytes of `From `.
fn flush_held(part: &mut Partial, quotes: usize, matched: usize, max: usize) {
    const RUN: [u8; 64] = [b'>'; 64];
    let mut left = quotes;
    while left > 0 {
        let n = left.min(RUN.len());
        part.push(&RUN[..n], max);
        left -= n;
    }
    part.push(&FROM[..matched], max);
}

impl<R: Read> Iterator for MboxReader<R> {
    type Item = Result<MboxMessage, MailError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.split.done {
            return None;
        }
        self.read_message()
    }
}

impl<R> std::fmt::Debug for MboxReader<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MboxReader")
            .field("pos", &self.split.pos)
            .field("index", &self.split.index)
            .finish()
    }
}
