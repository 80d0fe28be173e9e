//! One mail message (RFC 5322, MIME: RFC 2045–2049), taken apart with
//! `mail-parser` and its text scanned with the text path's
//! [`Finder`](crate::Finder).
//!
//! # What is scanned
//!
//! A message is a tree: headers, then a body that is one part, a
//! multipart of parts, or another message (`message/rfc822`). The walk
//! visits it in order and scans (docs/rules.md §5.1):
//!
//! - every *text* part (`text/*`), decoded by the parser: the transfer
//!   encoding undone (quoted-printable soft line breaks and `=3D`, base64)
//!   and the declared charset decoded to UTF-8 (ISO-2022-JP, UTF-7 and
//!   every WHATWG charset; no charset is UTF-8). A link that
//!   quoted-printable broke over two lines is whole again in the decoded
//!   text, so the finder sees it whole;
//! - `text/html` parts the same way, then as the text a reader sees, with
//!   character references decoded and the values of link attributes
//!   (`href`, `src`, …) taken ([`html_text`](super::html_text); no offsets
//!   into the message for them);
//! - the header fields that carry links (`List-Unsubscribe` and the other
//!   `List-*` fields of RFC 2369, `Archived-At` of RFC 5064: `<…>` lists)
//!   and the free-text fields a person writes (`Subject`, `Comments`,
//!   `Keywords`), decoded when they hold encoded words (RFC 2047);
//! - attached messages, recursively, with their own headers.
//!
//! Parts that are not text (images, PDFs, archives) are skipped. Address
//! fields, `Message-ID`, `Received` and the like are not prose and are not
//! scanned.
//!
//! # Where a hit is
//!
//! Each hit is a [`StructuredHit`]: its offsets are into the decoded text
//! of its part, and, where that text is the message's bytes verbatim
//! (identity transfer encoding, UTF-8 or ASCII, a header without encoded
//! words), it also has offsets into the input as given
//! (docs/rules.md §5.3).
//!
//! # Hostile input
//!
//! The parser keeps nested multiparts on a heap stack and gives up on
//! nested *encoded* messages after a few levels; the walk here stops at
//! [`MailScanner::max_depth`] levels of nesting (a MIME bomb of thousands
//! of nested multiparts is parsed in one pass, and its deeper parts are
//! reported, once, as too deep). A message larger than
//! [`MailScanner::max_message_size`] is not parsed at all. Problems the
//! parser met and recovered from — a part whose base64 or quoted-printable
//! does not decode, a multipart whose boundary never comes — are reported
//! as [`MailError`]s with the byte position, and the rest of the message is
//! scanned.

use std::fmt;
use std::sync::{Arc, OnceLock};

use mail_parser::{
    Encoding, HeaderName, HeaderValue, Message, MessageParser, MessagePart, MimeHeaders, PartType,
};

use encoding_rs::UTF_8;

use crate::Finder;
use crate::charset::detect::{Charset, CharsetSource};
use crate::format::html_text::html_text;
use crate::format::part_charset::part_text;
use crate::format::structured_hit::{Origin, Source, StructuredHit};

/// The default of [`MailScanner::max_depth`].
pub const DEFAULT_MAX_DEPTH: usize = 32;

/// The default of [`MailScanner::max_message_size`]: 64 MiB.
pub const DEFAULT_MAX_MESSAGE_SIZE: usize = 64 << 20;

/// The largest message the parser can place: it keeps offsets in 32 bits.
const PARSER_LIMIT: usize = u32::MAX as usize;

/// The header fields whose value is a list of `<…>` links (RFC 2369
/// `List-*`, RFC 5064 `Archived-At`): scanned as they are in the message.
const LINK_HEADERS: [&str; 7] = [
    "List-Archive",
    "List-Help",
    "List-Owner",
    "List-Post",
    "List-Subscribe",
    "List-Unsubscribe",
    "Archived-At",
];

/// The free-text header fields a person writes, which may hold links and
/// encoded words (RFC 2047).
const TEXT_HEADERS: [&str; 3] = ["Subject", "Comments", "Keywords"];

/// Scans mail messages: a [`Finder`] and the limits that keep hostile
/// messages cheap.
///
/// ```
/// use iriscan::{Finder, MailScanner};
/// // A base64 HTML part in ISO-8859-1: "<p>Voir https://exemple.fr/caf\xe9</p>".
/// let message = b"Content-Type: text/html; charset=iso-8859-1\n\
///     Content-Transfer-Encoding: base64\n\n\
///     PHA+Vm9pciBodHRwczovL2V4ZW1wbGUuZnIvY2Fm6TwvcD4=\n";
/// let scan = MailScanner::new(Finder::new()).scan_message(message, 0);
/// let hit = &scan.hits()[0];
/// assert_eq!(hit.hit().iri(), "https://exemple.fr/café");
/// assert_eq!(hit.origin().source().to_string(), "text/html");
/// assert!(scan.errors().is_empty());
/// ```
#[derive(Clone, Copy, Debug)]
pub struct MailScanner {
    finder: Finder,
    max_depth: usize,
    max_message_size: usize,
}

impl MailScanner {
    /// A scanner that finds hits with `finder`, with the default limits.
    pub fn new(finder: Finder) -> MailScanner {
        MailScanner {
            finder,
            max_depth: DEFAULT_MAX_DEPTH,
            max_message_size: DEFAULT_MAX_MESSAGE_SIZE,
        }
    }

    /// How many levels of nested multiparts and attached messages are
    /// scanned (default [`DEFAULT_MAX_DEPTH`]); deeper parts are reported
    /// as [`MailErrorKind::TooDeep`].
    pub fn max_depth(mut self, levels: usize) -> MailScanner {
        self.max_depth = levels;
        self
    }

    /// The largest message scanned, in bytes (default
    /// [`DEFAULT_MAX_MESSAGE_SIZE`], at most 4 GiB − 1); a larger one is
    /// reported as [`MailErrorKind::TooLarge`]. It also bounds the memory
    /// an [`MboxReader`](crate::MboxReader) made by
    /// [`scan_mbox`](MailScanner::scan_mbox) holds.
    pub fn max_message_size(mut self, bytes: usize) -> MailScanner {
        self.max_message_size = bytes.min(PARSER_LIMIT);
        self
    }

    /// The configured largest message.
    pub fn message_size_limit(&self) -> usize {
        self.max_message_size
    }

    /// The finder the scanner uses.
    pub fn finder(&self) -> &Finder {
        &self.finder
    }

    /// Parses and scans one message, `raw` being its bytes (from its first
    /// header to its end; no mbox `From ` line). `index` is its place in
    /// the caller's input (0 for a single message).
    pub fn scan_message(&self, raw: &[u8], index: u64) -> MessageScan {
        self.scan_placed(raw, index, &|offset| offset as u64)
    }

    /// Scans a message the caller has already parsed (a mail client's own
    /// `mail_parser::Message`). Raw offsets are into `message.raw_message`.
    pub fn scan_parsed(&self, message: &Message<'_>, index: u64) -> MessageScan {
        let mut walk = Walk::new(self, index, message, &|offset| offset as u64);
        walk.message(message, &Place::top());
        walk.out
    }

    /// Scans every message of an mbox read from `input` (see
    /// [`MboxReader`](crate::MboxReader): one message in memory at a time,
    /// at most [`message_size_limit`](MailScanner::message_size_limit)
    /// bytes), handing each message's scan to `each` in input order. Raw
    /// offsets and error positions are offsets into the mbox as given.
    /// A message too large is handed over as a scan with no hits and that
    /// error; reading goes on with the next one. Returns the number of
    /// messages, or the first read error (after handing over the messages
    /// before it).
    pub fn scan_mbox<R: std::io::Read + Send>(
        &self,
        input: R,
        each: impl FnMut(MessageScan),
    ) -> Result<u64, MailError> {
        self.scan_mbox_map(input, |scan| scan, each)
    }

    /// [`scan_mbox`](MailScanner::scan_mbox), with `map` applied to each
    /// message's scan on the pool, beside the scan (a caller's rendering of
    /// the hits, say), and what it makes handed to `each` in input order.
    pub fn scan_mbox_map<R: std::io::Read + Send, T: Send>(
        &self,
        input: R,
        map: impl Fn(MessageScan) -> T + Sync,
        each: impl FnMut(T),
    ) -> Result<u64, MailError> {
        let mut reader =
            crate::format::mbox::MboxReader::new(input).max_message_size(self.max_message_size);
        let ended = crate::format::batches::scan_in_batches(
            &mut reader,
            |item| item.as_ref().map_or(0, |m| m.bytes().len()),
            |item| matches!(item, Err(e) if matches!(e.kind(), MailErrorKind::Read(_))),
            |item| {
                map(match item {
                    Ok(message) => self.scan_placed(message.bytes(), message.index(), &|offset| {
                        message.input_offset(offset)
                    }),
                    Err(e) => MessageScan::failed(e.clone()),
                })
            },
            each,
        );
        match ended {
            Ok(count) => Ok(count),
            Err(Err(e)) => Err(e),
            Err(Ok(_)) => unreachable!("only a read error ends the stream"),
        }
    }

    /// [`scan_message`](MailScanner::scan_message) with `to_input` mapping
    /// an offset in `raw` to an offset in the input as given.
    fn scan_placed(&self, raw: &[u8], index: u64, to_input: &dyn Fn(usize) -> u64) -> MessageScan {
        if raw.len() > self.max_message_size {
            return MessageScan::failed(MailError {
                message: index,
                position: to_input(0),
                part: None,
                kind: MailErrorKind::TooLarge {
                    limit: self.max_message_size,
                },
            });
        }
        let Some(message) = parser().parse(raw) else {
            return MessageScan::failed(MailError {
                message: index,
                position: to_input(0),
                part: None,
                kind: MailErrorKind::NotAMessage,
            });
        };
        let mut walk = Walk::new(self, index, &message, to_input);
        walk.message(&message, &Place::top());
        let scan = walk.out;
        drop_flat(message);
        scan
    }
}

/// The parser, configured to parse only the header fields the walk reads
/// (the MIME fields, `Message-ID`, the free-text and the link fields) and
/// to skip the others: parsing `Received` chains and address lists the
/// scan never looks at took a sixth of the time.
fn parser() -> &'static MessageParser {
    static PARSER: OnceLock<MessageParser> = OnceLock::new();
    PARSER.get_or_init(|| {
        let mut parser = MessageParser::new()
            .with_mime_headers()
            .header_id(HeaderName::MessageId);
        for name in TEXT_HEADERS {
            parser = parser.header_text(name);
        }
        for name in LINK_HEADERS {
            parser = parser.header_raw(name);
        }
        parser.default_header_ignore()
    })
}

/// Drops a parsed message without recursion: the parser's tree of attached
/// messages is as deep as the input nests them (a MIME bomb of 50 000
/// nested `message/rfc822` parts), and dropping it the usual way recurses
/// once per level, which overflows the stack.
fn drop_flat(message: Message<'_>) {
    let mut stack = vec![message];
    while let Some(mut message) = stack.pop() {
        for part in &mut message.parts {
            if let PartType::Message(_) = part.body
                && let PartType::Message(inner) = std::mem::take(&mut part.body)
            {
                stack.push(inner);
            }
        }
    }
}

/// What one message gave: its hits (valid and invalid, in the order of the
/// walk: headers, then parts in order) and the problems met.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MessageScan {
    index: u64,
    message_id: Option<Arc<str>>,
    hits: Vec<StructuredHit<'static>>,
    errors: Vec<MailError>,
}

impl MessageScan {
    fn failed(error: MailError) -> MessageScan {
        MessageScan {
            index: error.message,
            errors: vec![error],
            ..MessageScan::default()
        }
    }

    /// The message's 0-based index in its input.
    pub fn index(&self) -> u64 {
        self.index
    }

    /// The message's `Message-ID`, if it has one.
    pub fn message_id(&self) -> Option<&str> {
        self.message_id.as_deref()
    }

    /// The hits, valid and invalid (filter with
    /// [`Hit::is_valid`](crate::Hit::is_valid)).
    pub fn hits(&self) -> &[StructuredHit<'static>] {
        &self.hits
    }

    /// The hits, taken.
    pub fn into_hits(self) -> Vec<StructuredHit<'static>> {
        self.hits
    }

    /// The problems met, in order; the parts around them were scanned.
    pub fn errors(&self) -> &[MailError] {
        &self.errors
    }
}

/// A problem in a message or an mbox, with where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MailError {
    message: u64,
    position: u64,
    part: Option<Arc<str>>,
    kind: MailErrorKind,
}

/// What went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MailErrorKind {
    /// The message is larger than the limit; it was skipped whole.
    TooLarge {
        /// The limit, in bytes.
        limit: usize,
    },
    /// No header was found: this is not a mail message.
    NotAMessage,
    /// A part's transfer encoding (base64, quoted-printable) or an
    /// attached message did not decode; its bytes were scanned as they
    /// are.
    Undecodable,
    /// A multipart's boundary never comes; its body was scanned as text.
    BoundaryNotFound,
    /// Parts nested deeper than the limit; they were not scanned.
    TooDeep {
        /// The limit, in levels.
        limit: usize,
    },
    /// Reading the input failed (the message of the I/O error); nothing
    /// after this position was read.
    Read(String),
}

impl MailError {
    pub(crate) fn new(message: u64, position: u64, kind: MailErrorKind) -> MailError {
        MailError {
            message,
            position,
            part: None,
            kind,
        }
    }

    /// The 0-based index of the message in its input.
    pub fn message(&self) -> u64 {
        self.message
    }

    /// The byte offset in the input as given where the problem is (the
    /// start of the message, or of the part's body).
    pub fn position(&self) -> u64 {
        self.position
    }

    /// The part path, for a problem in a part.
    pub fn part(&self) -> Option<&str> {
        self.part.as_deref()
    }

    /// What went wrong.
    pub fn kind(&self) -> &MailErrorKind {
        &self.kind
    }
}

impl fmt::Display for MailError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "message {} at byte {}", self.message, self.position)?;
        if let Some(part) = &self.part {
            write!(f, ", part {part}")?;
        }
        match &self.kind {
            MailErrorKind::TooLarge { limit } => {
                write!(f, ": larger than {limit} bytes, skipped")
            }
            MailErrorKind::NotAMessage => f.write_str(": no header, not a mail message"),
            MailErrorKind::Undecodable => {
                f.write_str(": the part does not decode, scanned as it is")
            }
            MailErrorKind::BoundaryNotFound => {
                f.write_str(": multipart boundary not found, body scanned as text")
            }
            MailErrorKind::TooDeep { limit } => {
                write!(f, ": parts nested deeper than {limit} levels, not scanned")
            }
            MailErrorKind::Read(e) => write!(f, ": read error: {e}"),
        }
    }
}

impl std::error::Error for MailError {}

/// Where the walk is: the part path, the nesting depth, and whether the
/// message being walked is the input's bytes (not an attached message
/// that was base64-encoded) — else `outer` is the input position errors
/// inside it are reported at.
struct Place {
    path: String,
    depth: usize,
    verbatim: bool,
    outer: usize,
}

impl Place {
    fn top() -> Place {
        Place {
            path: String::new(),
            depth: 0,
            verbatim: true,
            outer: 0,
        }
    }

    /// The `n`th (1-based) child of this place, one level deeper.
    fn child(&self, n: usize) -> Place {
        let path = if self.path.is_empty() {
            n.to_string()
        } else {
            format!("{}.{n}", self.path)
        };
        Place {
            path,
            depth: self.depth + 1,
            ..*self
        }
    }
}

/// The walk over one message tree, collecting its scan.
struct Walk<'a> {
    scanner: &'a MailScanner,
    /// The bytes of the top message: a nested message whose parser kept
    /// these same bytes is verbatim in the input.
    top: &'a [u8],
    to_input: &'a dyn Fn(usize) -> u64,
    id: Option<Arc<str>>,
    too_deep: bool,
    out: MessageScan,
}

impl<'a> Walk<'a> {
    fn new(
        scanner: &'a MailScanner,
        index: u64,
        message: &'a Message<'_>,
        to_input: &'a dyn Fn(usize) -> u64,
    ) -> Walk<'a> {
        let id: Option<Arc<str>> = message.message_id().map(Arc::from);
        Walk {
            scanner,
            top: &message.raw_message,
            to_input,
            id: id.clone(),
            too_deep: false,
            out: MessageScan {
                index,
                message_id: id,
                ..MessageScan::default()
            },
        }
    }

    /// A message: its headers, then its body (a multipart's parts, or the
    /// one part numbered 1).
    fn message(&mut self, message: &Message<'_>, place: &Place) {
        let Some(root) = message.parts.first() else {
            return;
        };
        let raw: &[u8] = &message.raw_message;
        self.headers(raw, root, place);
        match &root.body {
            PartType::Multipart(children) => self.children(message, children, place, root),
            _ => {
                let body = place.child(1);
                self.part(
                    message,
                    0,
                    &Place {
                        depth: place.depth,
                        ..body
                    },
                );
            }
        }
    }

    fn children(
        &mut self,
        message: &Message<'_>,
        children: &[u32],
        place: &Place,
        parent: &MessagePart<'_>,
    ) {
        if place.depth >= self.scanner.max_depth {
            self.too_deep(place, parent);
            return;
        }
        for (n, &id) in children.iter().enumerate() {
            self.part(message, id as usize, &place.child(n + 1));
        }
    }

    fn part(&mut self, message: &Message<'_>, id: usize, place: &Place) {
        let Some(part) = message.parts.get(id) else {
            return;
        };
        let raw: &[u8] = &message.raw_message;
        if part.is_encoding_problem {
            self.error(place, part.offset_body as usize, MailErrorKind::Undecodable);
        }
        match &part.body {
            PartType::Text(text) => {
                let media = media_type(part);
                if media.starts_with("multipart/") {
                    self.error(
                        place,
                        part.offset_body as usize,
                        MailErrorKind::BoundaryNotFound,
                    );
                }
                self.body(raw, part, text, media, place, false);
            }
            PartType::Html(text) => self.body(raw, part, text, "text/html".into(), place, true),
            PartType::Multipart(children) => self.children(message, children, place, part),
            PartType::Message(inner) => {
                if place.depth >= self.scanner.max_depth {
                    self.too_deep(place, part);
                    return;
                }
                let verbatim = place.verbatim && std::ptr::eq(inner.raw_message.as_ref(), self.top);
                let outer = if place.verbatim {
                    part.offset_body as usize
                } else {
                    place.outer
                };
                self.message(
                    inner,
                    &Place {
                        path: place.path.clone(),
                        depth: place.depth + 1,
                        verbatim,
                        outer,
                    },
                );
            }
            PartType::Binary(_) | PartType::InlineBinary(_) => {}
        }
    }

    /// Scans the link and free-text header fields of a message.
    fn headers(&mut self, raw: &[u8], root: &MessagePart<'_>, place: &Place) {
        for header in &root.headers {
            let name = header.name.as_str();
            let is_link = LINK_HEADERS.iter().any(|h| h.eq_ignore_ascii_case(name));
            let is_text = TEXT_HEADERS.iter().any(|h| h.eq_ignore_ascii_case(name));
            if !is_link && !is_text {
                continue;
            }
            let start = header.offset_start as usize;
            let value = raw
                .get(start..header.offset_end as usize)
                .unwrap_or_default();
            let origin = Arc::new(Origin::new(
                self.out.index,
                self.id.clone(),
                place.path.as_str().into(),
                Source::Header(name.into()),
            ));
            let encoded = memchr::memmem::find(value, b"=?").is_some();
            if is_link || !encoded {
                self.scan(
                    value,
                    origin,
                    place.verbatim.then_some(start),
                    header_charset(),
                );
            } else {
                match &header.value {
                    HeaderValue::Text(text) => {
                        self.scan(text.as_bytes(), origin, None, header_charset())
                    }
                    HeaderValue::TextList(list) => {
                        self.scan(list.join(", ").as_bytes(), origin, None, header_charset())
                    }
                    _ => {}
                }
            }
        }
    }

    /// Scans a decoded body, in the charset docs/rules.md §3 chooses for
    /// it (an HTML body as the text a reader sees, with its links'
    /// attribute values); it is verbatim in the message when it was not
    /// transfer-encoded and its text is the message's bytes.
    fn body(
        &mut self,
        raw: &[u8],
        part: &MessagePart<'_>,
        parsed: &str,
        media: Arc<str>,
        place: &Place,
        html: bool,
    ) {
        let chosen = part_text(part, raw, parsed);
        let decoded = chosen.redecoded.as_deref().unwrap_or(parsed);
        let seen;
        let text = if html {
            seen = html_text(decoded);
            seen.as_str()
        } else {
            decoded
        };
        let start = part.offset_body as usize;
        let verbatim = place.verbatim
            && !html
            && part.encoding == Encoding::None
            && raw
                .get(start..)
                .is_some_and(|bytes| bytes.starts_with(text.as_bytes()));
        let origin = Arc::new(Origin::new(
            self.out.index,
            self.id.clone(),
            place.path.as_str().into(),
            Source::Body(media),
        ));
        self.scan(
            text.as_bytes(),
            origin,
            verbatim.then_some(start),
            chosen.charset,
        );
    }

    /// Scans one piece of text in the document charset `charset`; `at` is
    /// its offset in the message bytes when it is there verbatim.
    fn scan(&mut self, text: &[u8], origin: Arc<Origin>, at: Option<usize>, charset: Charset) {
        for hit in self.scanner.finder.find_iter(text) {
            let raw =
                at.map(|at| (self.to_input)(at + hit.start())..(self.to_input)(at + hit.end()));
            self.out.hits.push(StructuredHit::new(
                hit.in_document(charset).into_owned(),
                origin.clone(),
                raw,
            ));
        }
    }

    /// Reports parts too deep, once per message.
    fn too_deep(&mut self, place: &Place, part: &MessagePart<'_>) {
        if !std::mem::replace(&mut self.too_deep, true) {
            let limit = self.scanner.max_depth;
            self.error(
                place,
                part.offset_body as usize,
                MailErrorKind::TooDeep { limit },
            );
        }
    }

    fn error(&mut self, place: &Place, offset: usize, kind: MailErrorKind) {
        let at = if place.verbatim { offset } else { place.outer };
        self.out.errors.push(MailError {
            message: self.out.index,
            position: (self.to_input)(at),
            part: Some(place.path.as_str().into()),
            kind,
        });
    }
}

/// A part's media type, lower case; `text/plain` when it has none
/// (RFC 2045 §5.2).
fn media_type(part: &MessagePart<'_>) -> Arc<str> {
    match part.content_type() {
        Some(ct) => match &ct.c_subtype {
            Some(sub) => format!("{}/{}", ct.c_type, sub).to_ascii_lowercase().into(),
            None => ct.c_type.to_ascii_lowercase().into(),
        },
        None => "text/plain".into(),
    }
}

/// The charset of a header's hits: header text is ASCII or UTF-8 (RFC
/// 6532), and encoded words come out of the parser as UTF-8.
fn header_charset() -> Charset {
    Charset::chosen(UTF_8, CharsetSource::Utf8)
}
